//! The page's reading of a real trace (`trace_import::replay`, behind the wasm
//! `RealTrace`): its report is `schedsim real-trace --json`'s for every
//! fixture, its lanes and heatmaps cover the trace's CPUs, and the sanity
//! checker finds an idle CPU beside a waiting thread.

use schedlab_core::trace_import::import::Choices;
use schedlab_core::trace_import::replay::{self, CHECK_PERIOD_NS};
use std::process::Command;

const SCHEDSIM: &str = env!("CARGO_BIN_EXE_schedsim");
const FIXTURES: [&str; 6] =
    ["hand-made.txt", "two-hogs.txt", "wakeups.txt", "dl-hog.txt", "trace-cmd-report.txt", "perf-script.txt"];

fn fixture(name: &str) -> String {
    format!("{}/tests/fixtures/real/{name}", env!("CARGO_MANIFEST_DIR"))
}

fn open(name: &str) -> replay::Replay {
    let text = std::fs::read_to_string(fixture(name)).expect("fixture");
    replay::open(&text, name, &Choices::default()).unwrap_or_else(|e| panic!("{name}: {e}"))
}

#[test]
fn the_page_report_is_the_clis_for_every_fixture() {
    for name in FIXTURES {
        let out = Command::new(SCHEDSIM).args(["real-trace", &fixture(name), "--json"]).output().expect("spawn");
        assert!(out.status.success(), "{name}: {}", String::from_utf8_lossy(&out.stderr));
        let cli: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
        let r = open(name);
        // What wasm's `RealTrace.real_report_json` returns.
        let page = serde_json::json!({ "format": r.format.name(), "report": r.report });
        // Both through the same text and parser (a float read back from text may differ in its last bit).
        let page: serde_json::Value = serde_json::from_str(&serde_json::to_string(&page).unwrap()).unwrap();
        assert_eq!(page, cli, "{name}");
    }
}

#[test]
fn lanes_and_heatmaps_cover_every_cpu_of_the_trace() {
    for name in FIXTURES {
        let r = open(name);
        let n = r.nr_cpus as usize;
        assert!(n > 0, "{name}");
        assert_eq!(r.nr_running.len(), r.buckets * n, "{name}");
        assert!(r.width_ns as usize * r.buckets >= r.duration_ns as usize, "{name}");
        // Every CPU ran something the trace names, inside the window.
        for (c, lane) in r.slices.iter().enumerate() {
            assert!(!lane.is_empty(), "{name}: CPU {c} has no slice");
            assert!(lane.iter().all(|s| s.start_ns < s.end_ns && s.end_ns <= r.duration_ns), "{name}");
            assert!(lane.windows(2).all(|w| w[0].end_ns <= w[1].start_ns), "{name}: CPU {c} overlaps");
        }
        let quads = r.slices_in(r.duration_ns, 0, r.duration_ns, 0, 0, r.nr_cpus);
        assert_eq!(quads.len() / 4, r.slices.iter().map(Vec::len).sum::<usize>(), "{name}");
        let frame = r.frame_at(r.duration_ns);
        assert_eq!(frame.cpus.len(), n, "{name}");
        assert_eq!(r.topology().cpus.len(), n, "{name}");
        assert!(!r.events_before(r.duration_ns, 14).is_empty(), "{name}");
        // A latency distribution for every process the report gives latencies for, ending at its max.
        let cdfs = r.latency_cdfs(20);
        let woken: Vec<_> = r.report.processes.iter().filter_map(|p| p.wakeup_latency_ns).collect();
        assert_eq!(cdfs.len(), woken.len(), "{name}");
        for (c, q) in cdfs.iter().zip(&woken) {
            assert_eq!(c.quantiles[20], q[3], "{name}");
        }
    }
}

#[test]
fn a_cpu_idle_beside_a_waiting_thread_is_a_violation() {
    // CPU 1 idles for 40 ms while b waits on CPU 0 behind a.
    let sw = |cpu: u32, t: f64, prev: (&str, u32, &str), next: (&str, u32)| {
        format!(
            "x-1 [{cpu:03}] d..2. {t:.6}: sched_switch: prev_comm={} prev_pid={} prev_prio=120 prev_state={} ==> next_comm={} next_pid={} next_prio=120\n",
            prev.0, prev.1, prev.2, next.0, next.1
        )
    };
    let mut text = String::from("# entries-in-buffer/entries-written: 5/5   #P:2\n");
    text += &sw(0, 1.0, ("swapper/0", 0, "R"), ("a", 10));
    text += &sw(1, 1.0, ("b", 11, "S"), ("swapper/1", 0));
    text += "x-1 [000] d..3. 1.001000: sched_wakeup: comm=b pid=11 prio=120 target_cpu=000\n";
    text += &sw(0, 1.041, ("a", 10, "S"), ("b", 11));
    text += &sw(1, 1.050, ("swapper/1", 0, "R"), ("a", 10));
    let r = replay::open(&text, "idle-beside-waiting", &Choices::default()).expect("opens");
    assert!(r.wasted_core_ns >= 39_000_000, "{}", r.wasted_core_ns);
    assert!(!r.violations.is_empty());
    let v = &r.violations[0];
    assert_eq!(
        (v.idle_cpus.clone(), v.waiting_threads.clone()),
        (vec![schedlab_core::time::CpuId(1)], vec!["b[11]".to_string()])
    );
    assert_eq!(v.confirmed_ns - v.detected_ns, CHECK_PERIOD_NS);
    // The task table at 20 ms: a runs, b waits.
    let rows = r.tasks_at(20_000_000, 10);
    let state = |n: &str| rows.rows.iter().find(|t| t.name == n).unwrap().state;
    assert_eq!((state("a"), state("b")), ("running", "runnable"));
}

#[test]
fn names_are_kept_as_the_trace_wrote_them() {
    let text = "# entries-in-buffer/entries-written: 1/1   #P:1\n\
                x-1 [000] d..2. 1.000000: sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=<img src=x onerror=alert(1)> next_pid=7 next_prio=120\n\
                x-1 [000] d..2. 1.001000: sched_switch: prev_comm=x prev_pid=7 prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120\n";
    let r = replay::open(text, "names", &Choices::default()).expect("opens");
    // Text, untouched: the page renders it as text (never as markup).
    assert_eq!(r.names, vec!["<img src=x onerror=alert(1)>".to_string()]);
}

#[test]
fn the_task_table_tells_deadline_from_real_time_by_the_traces_prio() {
    // A deadline thread is switched at prio -1, a real-time one at 99 − rt_priority, a fair one at 120 + nice.
    let sw = |t: f64, prev: (&str, u32, i32), next: (&str, u32, i32)| {
        format!(
            "x-1 [000] d..2. {t:.6}: sched_switch: prev_comm={} prev_pid={} prev_prio={} prev_state=R ==> next_comm={} next_pid={} next_prio={}\n",
            prev.0, prev.1, prev.2, next.0, next.1, next.2
        )
    };
    let mut text = String::from("# entries-in-buffer/entries-written: 3/3   #P:1\n");
    text += &sw(1.0, ("fair", 7, 120), ("dl", 8, -1));
    text += &sw(1.01, ("dl", 8, -1), ("fifo", 9, 89));
    text += &sw(1.02, ("fifo", 9, 89), ("fair", 7, 120));
    let r = replay::open(&text, "classes", &Choices::default()).expect("opens");
    let rows = r.tasks_at(r.duration_ns, 10);
    let row = |n: &str| rows.rows.iter().find(|t| t.name == n).map(|t| (t.policy, t.rt_priority)).unwrap();
    assert_eq!((row("dl"), row("fifo"), row("fair")), (("deadline", 0), ("rt", 10), ("normal", 0)));
    // The report, without a header to say, reads the same from the priorities.
    let policy = |i: usize| r.report.policies[i].policy.as_str();
    let by_name = |n: &str| r.report.processes.iter().position(|p| p.name == n).unwrap();
    assert_eq!((policy(by_name("dl")), policy(by_name("fifo"))), ("deadline", "rt"));
}

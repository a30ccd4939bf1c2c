//! The trace parser and the real-run model on committed traces
//! (`tests/fixtures/real/`): one written by hand, whose figures are worked
//! out below line by line, and ones recorded on a real machine, whose
//! figures were computed independently of this code (see each test).

use super::analysis::RealReport;

/// A committed trace's report, read strictly: every scheduler line of a fixture must read.
fn report(text: &str) -> RealReport {
    super::report_from_trace(text).unwrap()
}

const US: u64 = 1_000;

/// A saved trace read back stops on a damaged scheduler line, named by its number, as `real-trace` does:
/// its figures are never computed without it.
#[test]
fn a_saved_trace_with_a_damaged_line_is_refused_with_its_number() {
    let text = include_str!("../../tests/fixtures/real/hand-made.txt");
    let line = text.lines().position(|l| l.contains("1.000000: sched_waking")).unwrap() + 1;
    let damaged = text.replacen("1.000000: sched_waking: comm=a pid=100", "1.000000: sched_waking: comm=a pid=+100", 1);
    let e = super::report_from_trace(&damaged).unwrap_err();
    assert!(e.starts_with(&format!("line {line}: cannot read the fields of sched_waking")), "{e}");
}

#[test]
fn the_hand_made_trace_gives_the_figures_worked_out_by_hand() {
    let r = report(include_str!("../../tests/fixtures/real/hand-made.txt"));
    assert_eq!(r.window_ns, 10_000 * US);
    assert_eq!(r.lost_events, 3);
    // Events of tids 100, 200, 201 inside [1.000, 1.010): switches at 1.0005, 1.002, 1.0045,
    // 1.005, 1.006, 1.007001, 1.0096 (not 0.999, 1.008: no workload thread; not 1.011: outside).
    let e = &r.events;
    assert_eq!((e.sched_switch, e.sched_waking, e.sched_wakeup, e.sched_wakeup_new), (7, 2, 2, 2), "{e:?}");
    assert_eq!((e.sched_migrate_task, e.sched_process_fork, e.sched_process_exit), (1, 1, 2));
    let (a, b) = (&r.processes[0], &r.processes[1]);
    // a: ran 1.0005-1.0045 and 1.0096-1.010 (its last run is cut at the window's end).
    assert_eq!(a.cpu_time_ns, 4_000 * US + 400 * US);
    // a waited from its wakeups (1.000001, 1.009002) to its switches in (1.0005, 1.0096).
    assert_eq!(a.wait_time_ns, 499 * US + 598 * US);
    assert_eq!((a.nvcsw, a.nivcsw, a.migrations, a.completion_ns), (1, 0, 0, None));
    // Wakeup latency from sched_waking (1.000, 1.009) to running: 500 and 600 µs.
    assert_eq!(a.wakeup_latency_ns, Some([500 * US, 600 * US, 600 * US, 600 * US]));
    // b: thread 200 ran 1.002-1.006 and 1.007001-1.0096, thread 201 1.005-1.007001.
    assert_eq!(b.cpu_time_ns, 4_000 * US + 2_599 * US + 2_001 * US);
    // 200 waited 1.006-1.007001 (preempted, R+); 201 from its wakeup_new 1.00301 to 1.005.
    assert_eq!(b.wait_time_ns, 1_001 * US + 1_990 * US);
    // Both exits are voluntary (X), the R+ switch involuntary; one migration.
    assert_eq!((b.nvcsw, b.nivcsw, b.migrations, b.threads), (2, 1, 1, 2));
    // Last exit 1.0095, from b's start at 1.000 + 2 ms.
    assert_eq!(b.completion_ns, Some(7_500 * US));
    assert_eq!(b.wakeup_latency_ns, None);
    assert!((a.share - 0.22).abs() < 1e-12 && (b.share - 0.43).abs() < 1e-12, "{} {}", a.share, b.share);
    // CPU 0: other 1.000-1.0005 (busy, not the workload), a 4 ms, idle 1.0045-1.005, b 2.001 + 2.599 ms,
    // a 0.4 ms. CPU 1: idle to 1.002, b 4 ms, other 2 ms, idle from 1.008.
    let c0 = &r.cpus[0];
    assert_eq!((c0.busy_ns, c0.idle_ns, c0.workload_ns), (9_500 * US, 500 * US, 9_000 * US));
    let c1 = &r.cpus[1];
    assert_eq!((c1.busy_ns, c1.idle_ns, c1.workload_ns), (6_000 * US, 4_000 * US, 4_000 * US));
    assert_eq!(r.migrations, 1);
    // Jain over the threads' CPU times 4400, 6599, 2001 µs: 13000² / (3 · 66910802).
    assert!((r.jain_fairness_threads - 169_000_000.0 / 200_732_406.0).abs() < 1e-9);
}

/// (cpu, wait, nvcsw, nivcsw, migrations, completion, max wakeup latency) of each process.
type Figures = (u64, u64, u64, u64, u64, Option<u64>, Option<u64>);

fn figures(r: &RealReport) -> Vec<Figures> {
    r.processes
        .iter()
        .map(|p| {
            let max_latency = p.wakeup_latency_ns.map(|l| l[3]);
            (p.cpu_time_ns, p.wait_time_ns, p.nvcsw, p.nivcsw, p.migrations, p.completion_ns, max_latency)
        })
        .collect()
}

fn cpus(r: &RealReport) -> Vec<(u64, u64)> {
    r.cpus.iter().map(|c| (c.busy_ns, c.workload_ns)).collect()
}

fn counts(r: &RealReport) -> [u64; 7] {
    let e = &r.events;
    [
        e.sched_switch,
        e.sched_waking,
        e.sched_wakeup,
        e.sched_wakeup_new,
        e.sched_migrate_task,
        e.sched_process_fork,
        e.sched_process_exit,
    ]
}

// The recorded traces' figures below are what `tests/fixtures/real/independent.py` (a separate
// Python reading: per-CPU slices and per-thread event lists) prints for them.

#[test]
fn two_hogs_recorded_on_a_busy_two_cpu_machine() {
    // `schedsim real` of two hogs (nice 0 and 5) pinned to CPU 1, 100 ms, while the machine
    // compiled: CPU 0 ran other work throughout and CPU 1 lent the hogs 39 ms.
    let r = report(include_str!("../../tests/fixtures/real/two-hogs.txt"));
    assert_eq!(counts(&r), [49, 2, 2, 0, 0, 0, 0]);
    assert_eq!(
        figures(&r),
        vec![
            (29_371_000, 70_542_337, 0, 22, 0, None, Some(24_000)),
            (9_809_000, 90_101_337, 0, 8, 0, None, Some(1_404_000)),
        ]
    );
    assert_eq!(cpus(&r), vec![(100_000_000, 0), (100_000_000, 39_180_000)]);
    // 29.371 / 39.180 = 75.0 %, the weights' 1024 / 1359 = 75.3 %.
    let share: f64 = 29_371.0 / 39_180.0;
    assert!((share - 1024.0 / 1359.0).abs() < 0.01);
}

#[test]
fn a_deadline_hog_recorded_beside_fair_hogs() {
    // `schedsim real` of scripts/fidelity/dl-runtime-per-period.json for 500 ms (a deadline hog with 10 ms of each
    // 100 ms, a fair hog per CPU) on this 2-CPU 6.18 machine while it compiled. The deadline hog's thread is
    // switched at prio -1 only; it moves between the CPUs (4 migrations) and runs 10.001 ms at most.
    let r = report(include_str!("../../tests/fixtures/real/dl-hog.txt"));
    assert_eq!(counts(&r), [231, 2, 2, 0, 4, 0, 0]);
    assert_eq!(
        figures(&r),
        vec![
            (49_991_000, 449_982_262, 0, 5, 4, None, Some(20_000)),
            (288_210_262, 211_758_000, 0, 110, 0, None, Some(10_011_000))
        ]
    );
    assert_eq!(cpus(&r), vec![(500_000_000, 318_201_262), (500_000_000, 20_000_000)]);
    let dl = &r.policies[0];
    assert_eq!((dl.policy.as_str(), dl.trace_prio), ("deadline", Some([-1, -1])));
    assert_eq!(r.processes[0].longest_run_ns, 10_001 * US);
    // 49.991 ms over the window's five periods of 100 ms.
    let d = dl.dl.as_ref().expect("the header's reservation");
    assert_eq!((d.runtime_ns, d.period_ns, d.runtime_per_period_ns), (10_000 * US, 100_000 * US, Some(9_998_200)));
    assert!(r.policies[1].dl.is_none());
}

#[test]
fn wakeups_forks_and_exits_recorded() {
    // Ping-pong over futexes, a forker waiting for its children, two sleepers starting at 5 ms.
    let r = report(include_str!("../../tests/fixtures/real/wakeups.txt"));
    assert_eq!(counts(&r), [117, 49, 49, 3, 1, 3, 6]);
    assert_eq!(
        figures(&r),
        vec![
            (6_334_000, 14_100_000, 13, 10, 0, Some(33_136_094), Some(7_093_000)),
            (6_270_000, 14_847_000, 14, 8, 1, Some(33_188_094), Some(3_374_000)),
            (9_741_000, 41_960_000, 7, 7, 0, Some(36_973_094), Some(6_933_000)),
            (18_881_000, 69_617_812, 16, 13, 0, None, Some(6_380_000)),
        ]
    );
    assert_eq!(r.processes[2].threads, 4, "the forker and its three children");
    assert_eq!(cpus(&r), vec![(60_000_000, 28_976_000), (60_000_000, 12_250_000)]);
    assert_eq!(r.lost_events, 0);
}

// Traces recorded on this machine without schedlab (`tests/fixtures/real/foreign-workload.py`:
// two hogs pinned to CPU 1 at nice 0 and 5 for 60 ms of wall time, a sleeper running 0.2 ms every
// 5 ms), once as `trace-cmd report` of a tracefs instance and once as `perf record -a` +
// `perf script --header`, while other work kept both CPUs busy. The figures are what
// `independent.py TRACE hog0,hog5,sleeper` prints.

fn foreign(text: &str) -> (super::import::Format, RealReport) {
    let keep = ["hog0", "hog5", "sleeper"].map(String::from).to_vec();
    super::import::report(text, "fixture", &super::import::Choices { cpus: None, comms: Some(keep) }).unwrap()
}

#[test]
fn trace_cmd_report_recorded_here() {
    let (format, r) = foreign(include_str!("../../tests/fixtures/real/trace-cmd-report.txt"));
    assert_eq!(format, super::import::Format::TraceCmd);
    assert_eq!(counts(&r), [46, 12, 12, 3, 3, 3, 3]);
    assert_eq!(
        figures(&r),
        vec![
            (23_676_000, 56_257_000, 2, 7, 1, Some(330_076_000), Some(3_683_000)),
            (13_746_000, 66_686_000, 2, 4, 2, Some(331_030_000), Some(8_188_000)),
            (4_144_000, 39_810_000, 11, 1, 0, Some(341_397_000), Some(8_809_000)),
        ]
    );
    assert_eq!(cpus(&r), vec![(362_009_001, 1_340_000), (362_009_001, 40_226_000)]);
    assert_eq!(r.processes[2].wakeup_latency_ns.map(|_| r.processes[2].name.as_str()), Some("sleeper"));
}

#[test]
fn perf_script_recorded_here() {
    let (format, r) = foreign(include_str!("../../tests/fixtures/real/perf-script.txt"));
    assert_eq!(format, super::import::Format::Perf);
    assert_eq!(counts(&r), [43, 12, 12, 3, 2, 3, 3]);
    assert_eq!(
        figures(&r),
        vec![
            (15_233_000, 58_579_000, 2, 5, 1, Some(165_078_000), Some(1_388_000)),
            (9_381_000, 64_638_000, 2, 3, 1, Some(166_006_000), Some(9_437_000)),
            (3_660_000, 2_029_000, 11, 0, 0, Some(150_371_000), Some(1_429_000)),
        ]
    );
    assert_eq!(cpus(&r), vec![(196_266_001, 5_443_000), (196_998_001, 22_831_000)]);
    assert_eq!(r.kernel, "6.18.44-fc-v669");
}

#[test]
fn a_saved_trace_reads_the_same_through_the_import() {
    let text = include_str!("../../tests/fixtures/real/wakeups.txt");
    let (format, r) = super::import::report(text, "x", &Default::default()).unwrap();
    assert_eq!(format, super::import::Format::Ftrace);
    assert_eq!(figures(&r), figures(&report(text)));
}

/// A deadline hog worked by hand: runtime 10 ms per 100 ms, throttled after each 10 ms (a fair hog runs the
/// rest), over a 300 ms window; its thread is switched at prio -1 and the header says its reservation.
#[test]
fn a_deadline_hogs_runtime_per_period_is_its_cpu_time_over_the_periods_it_lived() {
    let mut text = String::from(
        "# schedlab window 1000000000 1300000000\n# schedlab cpus 0\n# schedlab process 0 0 dl\n\
         # schedlab policy 0 deadline 0\n# schedlab deadline 0 10000000 100000000 100000000\n\
         # schedlab thread 0 0 100\n# schedlab process 1 0 fair\n# schedlab policy 1 normal 0\n\
         # schedlab thread 1 0 200\n",
    );
    let switch = |t: f64, (pc, pp, pprio, st): (&str, u32, i32, &str), (nc, np, nprio): (&str, u32, i32)| {
        format!(
            "  x-1 [000] d..2. {t:.6}: sched_switch: prev_comm={pc} prev_pid={pp} prev_prio={pprio} prev_state={st} \
             ==> next_comm={nc} next_pid={np} next_prio={nprio}\n"
        )
    };
    // Each period k (from 1.000 + k/10 s): dl runs 10 ms, then is throttled (R: still runnable) and fair runs.
    for k in 0..3 {
        let start = 1.0 + k as f64 * 0.1;
        text += &switch(start, ("fair", 200, 120, "R"), ("dl", 100, -1));
        text += &switch(start + 0.01, ("dl", 100, -1, "R"), ("fair", 200, 120));
    }
    let r = report(&text);
    let (dl, fair) = (&r.policies[0], &r.policies[1]);
    assert_eq!((dl.policy.as_str(), dl.trace_prio, fair.dl.is_none()), ("deadline", Some([-1, -1]), true));
    let d = dl.dl.as_ref().expect("its reservation, from the header");
    assert_eq!((d.runtime_ns, d.deadline_ns, d.period_ns), (10_000 * US, 100_000 * US, 100_000 * US));
    // 3 × 10 ms over 300 ms lived, per 100 ms.
    assert_eq!(r.processes[0].cpu_time_ns, 30_000 * US);
    assert_eq!(d.runtime_per_period_ns, Some(10_000 * US));
    assert_eq!(r.processes[0].longest_run_ns, 10_000 * US);
}

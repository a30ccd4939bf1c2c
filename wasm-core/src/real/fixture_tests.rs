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

//! CFS, PFS and DW-CFS on the greedy-threads preset (process A: 1 thread
//! computing 1 s; process B: m CPU-bound threads; laptop-2c4t, No = 4).
//! The three differ only in the weight each thread gets.

use schedlab_core::api::scenario::EventFile;
use schedlab_core::api::sweep::preset::{
    greedy_threads_point, greedy_threads_point_on, preset_file, run_until, GreedyRow,
};

fn sweep(policy: &str, ms: &[u32]) -> Vec<GreedyRow> {
    ms.iter().map(|&m| greedy_threads_point(policy, m)).collect()
}

fn done(r: &GreedyRow) -> f64 {
    r.a_completion_ms.expect("A finishes within the run")
}

/// Mechanism: CFS weighs every thread alike, so once A and B's threads
/// outnumber the 4 CPUs A gets about 4/(m+1) of the machine: its completion
/// time never falls as m grows, and B's CPU time over A's keeps rising past
/// the CPU count.
#[test]
fn cfs_single_thread_slows_as_the_greedy_process_adds_threads() {
    let rows = sweep("cfs", &[1, 2, 3, 4, 5, 6, 7, 8, 16, 32]);
    for w in rows.windows(2) {
        assert!(done(&w[1]) >= done(&w[0]) - 1.0, "A's completion fell from m={} to m={}: {:?}", w[0].m, w[1].m, rows);
    }
    assert!(done(&rows[0]) < 1010.0, "alone on a CPU A needs its 1 s of work: {}", done(&rows[0]));
    let last = rows.last().unwrap();
    assert!(done(last) > 7.0 * done(&rows[0]), "m=32: A done at {} ms", done(last));
    // Past 4 CPUs B/A never falls, and grows over the range: it steps, since A gets the share of whichever
    // CPU it sits on (a half beside one B thread at m = 7 and at m = 8 alike).
    for w in rows[3..].windows(2) {
        assert!(w[1].b_over_a >= w[0].b_over_a - 0.01, "B/A must not fall past 4 CPUs: {:?}", rows);
    }
    assert!(last.b_over_a > 4.0 * rows[3].b_over_a, "B/A at m=32 against m=4: {:?}", rows);
}

/// Mechanism: PFS splits B's weight over its threads, so A's one thread
/// weighs as much as all of B: on 4 CPUs A keeps about a CPU to itself
/// whatever m (CFS's A needs twice as long from m = 8), and on one shared CPU
/// the two processes get equal time. "About": A, alone and heavy on its CPU,
/// is the busiest CPU of a lighter sibling's SMT domain with a single task,
/// so 4.1's active balancing now and then pushes it onto a CPU of B's threads
/// until the balancer takes it back (at m = 8 it finishes 36 ms late).
#[test]
fn pfs_equalises_processes_not_threads() {
    for r in sweep("pfs", &[1, 4, 8, 16, 32]) {
        assert!(done(&r) < 1050.0, "PFS m={}: A done at {} ms, alone it needs 1000", r.m, done(&r));
    }
    for m in [2, 8, 32] {
        let r = greedy_threads_point_on("pfs", m, Some("0"));
        assert!((r.b_over_a - 1.0).abs() < 0.05, "PFS on one CPU, m={m}: B/A = {:.3}", r.b_over_a);
    }
}

/// Mechanism: DW-CFS multiplies each thread's weight by α(Nt, No), which
/// rises to β = 1.1 at Nt = No = 4 and falls beyond (below 1 from 2·No). On
/// one CPU shared by A and B the CPU split follows the weights, so B's
/// advantage over CFS's m:1 is a gain for m ≤ 4 and a penalty for m ≥ 8.
#[test]
fn dwcfs_rewards_up_to_the_cpu_count_and_penalises_beyond() {
    for m in [2, 3, 4] {
        let (cfs, dw) = (greedy_threads_point_on("cfs", m, Some("0")), greedy_threads_point_on("dw-cfs", m, Some("0")));
        assert!(dw.b_over_a > cfs.b_over_a * 1.03, "m={m}: DW-CFS B/A {:.3} vs CFS {:.3}", dw.b_over_a, cfs.b_over_a);
    }
    for m in [8, 16, 32] {
        let (cfs, dw) = (greedy_threads_point_on("cfs", m, Some("0")), greedy_threads_point_on("dw-cfs", m, Some("0")));
        assert!(dw.b_over_a < cfs.b_over_a * 0.995, "m={m}: DW-CFS B/A {:.3} vs CFS {:.3}", dw.b_over_a, cfs.b_over_a);
    }
    // B's thread weight rises to the peak at No and falls after it.
    let w: Vec<u64> = sweep("dw-cfs", &[1, 2, 4, 5, 8, 16, 32]).iter().map(|r| r.b_thread_weight).collect();
    assert!(w[0] < w[1] && w[1] < w[2], "{w:?}");
    assert!(w[2] > w[3] && w[3] > w[4] && w[4] > w[5] && w[5] > w[6], "{w:?}");
    // On the whole machine, greedy B (m ≥ 16) lets A finish sooner than under CFS.
    for m in [16, 32] {
        let (cfs, dw) = (greedy_threads_point("cfs", m), greedy_threads_point("dw-cfs", m));
        assert!(done(&dw) < 0.95 * done(&cfs), "m={m}: A done {} (DW-CFS) vs {} (CFS)", done(&dw), done(&cfs));
    }
}

/// Mechanism: No is the online CPU count, so taking CPUs offline moves the
/// peak of α: B's 4 threads weigh α(4; 4)·1024 = 1126 with 4 CPUs online and
/// α(4; 2)·1024 = 0.99·1024 = 1014 once two are offline.
#[test]
fn dwcfs_weights_follow_cpu_hotplug() {
    let mut f = preset_file("greedy-threads");
    f.policy.kind = "dw-cfs".into();
    f.processes[1].threads = 4;
    f.duration_ms = 200;
    f.events = vec![
        EventFile { at_ms: 100, cpu_offline: Some(3), cpu_online: None },
        EventFile { at_ms: 100, cpu_offline: Some(2), cpu_online: None },
    ];
    let b0 = 1;
    let before = run_until(&f, |s| s.now().ns() >= 50_000_000);
    assert_eq!(before.tasks()[b0].se.weight, 1126);
    let after = run_until(&f, |_| false);
    assert_eq!(after.online().weight(), 2);
    assert_eq!(after.tasks()[b0].se.weight, 1014);
}

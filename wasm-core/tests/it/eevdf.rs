//! EEVDF (Linux 6.6+) as the fair-class policy: weights still rule the CPU
//! split, and a short-slice task gets the earliest virtual deadline.

use crate::common;
use crate::common::scenario::{run, Process, Scenario};
use common::*;
use schedlab_core::api::scenario::load_scenario;
use schedlab_core::api::sweep::preset::eevdf_point;
use schedlab_core::sched::weights::nice_to_weight;
use schedlab_core::sim::Simulator;

/// Mechanism: EEVDF keeps CFS's vruntime (1024/weight per ns) and only runs
/// eligible entities (lag ≥ 0), so hogs at nice 0, 5 and 10 still share one
/// CPU in proportion to their weights.
#[test]
fn eevdf_hogs_share_by_weight() {
    let mut cfg = preset_config("cfs-nice-levels");
    cfg.policy.kind = schedlab_core::config::PolicyKind::Eevdf;
    let mut sim = Simulator::new(&cfg);
    sim.run_to_end();
    let names = ["hog-nice0", "hog-nice5", "hog-nice10"];
    let weights: Vec<f64> = [0, 5, 10].iter().map(|&n| nice_to_weight(n) as f64).collect();
    let times: Vec<f64> = names.iter().map(|n| cpu_time(&sim, n) as f64).collect();
    let (ws, ts): (f64, f64) = (weights.iter().sum(), times.iter().sum());
    for i in 0..3 {
        let (want, got) = (weights[i] / ws, times[i] / ts);
        assert!(((got - want) / want).abs() < 0.02, "{}: {got:.4} vs {want:.4}", names[i]);
    }
}

/// Mechanism: a woken task is placed at its preserved lag; once eligible,
/// its 100 µs request gives it a deadline 0.1 ms ahead, earlier than any
/// hog's (0.75 ms requests), so it runs at once — under CFS the same task,
/// using more than its fair share, has no sleeper lead left and waits for a
/// hog's slice to end. Measured (seed 1): mean 748 us vs 1058 us (CFS),
/// p50 0 vs 678 us, p99 3305 vs 4067 us; at the base slice the mean is 1160 us.
#[test]
fn short_slice_task_wakes_sooner_than_under_cfs() {
    let cfs = eevdf_point("cfs");
    let base = eevdf_point("eevdf-base");
    let short = eevdf_point("eevdf");
    assert!(short.mean_us < 0.85 * cfs.mean_us, "mean {short:?} vs CFS {cfs:?}");
    assert!(short.wakeup_us[0] < cfs.wakeup_us[0], "p50 {short:?} vs CFS {cfs:?}");
    assert!(short.wakeup_us[2] < cfs.wakeup_us[2], "p99 {short:?} vs CFS {cfs:?}");
    assert!(short.mean_us < base.mean_us && short.wakeup_us[2] < base.wakeup_us[2], "{short:?} vs base {base:?}");
}

/// A custom slice is refused outside EEVDF, and out of 0.1–100 ms.
#[test]
fn slice_needs_eevdf_and_a_sane_range() {
    let with = |kind: &str, slice: u64| {
        Scenario::new("t", 10)
            .machine("uniprocessor")
            .policy(kind)
            .process(Process::new("a").set("slice_us", slice).program([run(5)]))
            .build()
    };
    assert_eq!(load_scenario(&with("cfs", 500)).unwrap_err()[0].field, "processes[0].slice_us");
    assert_eq!(load_scenario(&with("eevdf", 50)).unwrap_err()[0].field, "processes[0].slice_us");
    assert_eq!(load_scenario(&with("eevdf", 500)).unwrap().policy.slices, vec![500_000]);
}

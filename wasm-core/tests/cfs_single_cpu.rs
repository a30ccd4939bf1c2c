//! Scenario tests of CFS on one CPU (preset cfs-nice-levels).

mod common;
use common::*;
use schedlab_core::sched::weights::nice_to_weight;

/// Mechanism: vruntime advances at 1024/weight per ns of CPU and CFS always
/// runs the smallest vruntime, so over time each hog's CPU time is
/// proportional to its weight (1024:335:110 for nice 0, 5, 10).
#[test]
fn hog_shares_follow_the_nice_weights_within_one_percent() {
    let sim = run_preset("cfs-nice-levels");
    assert_eq!(sim.now().ns(), 10_000_000_000, "ran the full 10 simulated seconds");
    let names = ["hog-nice0", "hog-nice5", "hog-nice10"];
    let weights: Vec<f64> = [0, 5, 10].iter().map(|&n| nice_to_weight(n) as f64).collect();
    let times: Vec<f64> = names.iter().map(|n| cpu_time(&sim, n) as f64).collect();
    let (wsum, tsum): (f64, f64) = (weights.iter().sum(), times.iter().sum());
    for i in 0..3 {
        let expected = weights[i] / wsum;
        let got = times[i] / tsum;
        assert!(
            ((got - expected) / expected).abs() < 0.01,
            "{}: share of hog time {:.4}, expected {:.4} (within 1% relative)",
            names[i],
            got,
            expected
        );
    }
}

/// Mechanism: a waking sleeper is placed at min_vruntime − latency/2
/// (GENTLE_FAIR_SLEEPERS) and preempts a hog through check_preempt_wakeup, so
/// it gets its 1 ms every 10 ms with almost no waiting, and all its switches
/// are voluntary.
#[test]
fn sleeper_runs_promptly_and_switches_voluntarily() {
    let sim = run_preset("cfs-nice-levels");
    let p = sim.processes().iter().find(|p| p.name == "sleeper").unwrap();
    let t = &sim.tasks()[p.threads[0] as usize];
    let bursts = t.stats.nvcsw;
    assert!(bursts >= 990, "about one burst per 10 ms: {bursts}");
    assert_eq!(t.stats.nivcsw, 0, "never preempted: its burst is shorter than its slice");
    let avg_wait = t.stats.wait_ns as f64 / bursts as f64;
    assert!(avg_wait < 100_000.0, "average wait per wakeup {avg_wait} ns should be tiny");
    // Hogs never block, so their switches are all involuntary.
    for name in ["hog-nice0", "hog-nice5", "hog-nice10"] {
        let p = sim.processes().iter().find(|p| p.name == name).unwrap();
        assert_eq!(sim.tasks()[p.threads[0] as usize].stats.nvcsw, 0, "{name}");
    }
}

/// Mechanism: min_vruntime only ever moves forward.
#[test]
fn min_vruntime_never_decreases() {
    let mut sim = schedlab_core::sim::Simulator::new(&preset_config("cfs-nice-levels"));
    let mut last = 0;
    while sim.step_event() {
        let m = sim.rqs()[0].cfs.min_vruntime;
        assert!(m >= last, "min_vruntime went from {last} to {m}");
        last = m;
        if sim.now().ns() > 500_000_000 {
            break;
        }
    }
}

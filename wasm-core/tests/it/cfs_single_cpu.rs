//! Scenario tests of CFS on one CPU (preset cfs-nice-levels).

use crate::common;
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
    let t = &sim.tasks()[p.threads[0].idx()];
    let bursts = t.stats.nvcsw;
    assert!(bursts >= 990, "about one burst per 10 ms: {bursts}");
    assert_eq!(t.stats.nivcsw, 0, "never preempted: its burst is shorter than its slice");
    let avg_wait = t.stats.wait_ns as f64 / bursts as f64;
    assert!(avg_wait < 100_000.0, "average wait per wakeup {avg_wait} ns should be tiny");
    // Hogs never block, so their switches are all involuntary.
    for name in ["hog-nice0", "hog-nice5", "hog-nice10"] {
        let p = sim.processes().iter().find(|p| p.name == name).unwrap();
        assert_eq!(sim.tasks()[p.threads[0].idx()].stats.nvcsw, 0, "{name}");
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

/// Mechanism (4.1.15 `dequeue_entity` → `update_min_vruntime`): when the
/// running task blocks, `cfs_rq->curr` is still that task while the dequeue
/// updates min_vruntime (put_prev_entity clears it only later), so the
/// candidate is min(curr's vruntime, leftmost's), not the leftmost alone; the
/// `on_rq` test on curr came in later kernels. Hand-worked on one CPU with a
/// hog and a sleeper (1 ms run, 10 ms sleep, no autogroup): whenever the
/// sleeper blocks, its vruntime is below the hog's (it was placed at or under
/// min_vruntime and ran 1 ms), so 4.1 sets min_vruntime to max(old, sleeper's
/// vruntime). Once running, the hog keeps min_vruntime at its own vruntime and
/// both readings agree; they differ when min_vruntime lags both, as at the
/// sleeper's first block (it was placed by its fork, not by a wakeup), where
/// the leftmost alone would jump min_vruntime to the hog's.
#[test]
fn a_blocking_curr_still_counts_in_min_vruntime() {
    let cfg = schedlab_core::api::scenario::load_scenario(
        r#"{"version":1,"name":"blocking-curr","seed":1,"duration_ms":200,"autogroup":false,
            "machine":{"nodes":1,"cores_per_node":1,"threads_per_core":1},
            "processes":[{"name":"hog","program":[{"body":[{"run_us":100000}]}]},
                         {"name":"sleeper","start_ms":5,"program":[{"body":[{"run_us":1000},{"sleep_us":10000}]}]}]}"#,
    )
    .expect("valid scenario");
    let mut sim = schedlab_core::sim::Simulator::new(&cfg);
    let pid = |name: &str| sim_pid(&sim, name);
    let (hog, sleeper) = (pid("hog"), pid("sleeper"));
    let mut checked = 0;
    let mut jumped_past_curr = 0;
    loop {
        let before_min = sim.rqs()[0].cfs.min_vruntime;
        let before_hog = sim.tasks()[hog.idx()].se.vruntime;
        let was_running = sim.rqs()[0].curr() == Some(sleeper);
        let blocks_before = sim.tasks()[sleeper.idx()].stats.nvcsw;
        if !sim.step_event() {
            break;
        }
        if was_running && sim.tasks()[sleeper.idx()].stats.nvcsw > blocks_before {
            // The sleeper blocked in this event; the hog (in the tree) was not charged meanwhile.
            let v = sim.tasks()[sleeper.idx()].se.vruntime;
            assert_eq!(sim.tasks()[hog.idx()].se.vruntime, before_hog);
            assert!(v < before_hog, "the sleeper blocks with the smaller vruntime ({v} vs {before_hog})");
            let expected = before_min.max(v.min(before_hog));
            assert_eq!(sim.rqs()[0].cfs.min_vruntime, expected, "block #{checked}: max(old, min(curr, leftmost))");
            jumped_past_curr += u32::from(before_hog > expected);
            checked += 1;
        }
    }
    assert!(checked >= 15, "the sleeper blocked {checked} times");
    assert!(jumped_past_curr >= 1, "at least once the leftmost alone would have moved min_vruntime further");
}

fn sim_pid(sim: &schedlab_core::sim::Simulator, name: &str) -> schedlab_core::time::Pid {
    let p = sim.processes().iter().find(|p| p.name == name).expect("process");
    p.threads[0]
}

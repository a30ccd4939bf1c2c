//! The four bugs of "The Linux Scheduler: a Decade of Wasted Cores", each on
//! its preset, buggy against fixed with the same seed. The idle cores come
//! from the modelled mechanism each bug switch changes (see config::BugSwitches):
//! nothing here targets the symptom. The figures asserted are directions and
//! rough factors; issue 4 tracks matching the paper's magnitudes.

use crate::common;
use common::run_preset;
use schedlab_core::api::report::report;

/// Wasted core time and the app's completion; also checks the sanity
/// checker: it reports the buggy run and stays silent on the fixed one.
fn wasted_and_completion(name: &str, app: &str) -> (u64, Option<u64>) {
    wasted_and_completion_checker(name, app, true)
}

/// As above; `must_report`: whether the buggy run alone must trip the checker (the Overload-on-Wakeup bug's
/// violations last a few hundred ms and come and go, so the paper's checker catches them only with a
/// probability that grows with the time the workload runs: see
/// `overload_on_wakeup_is_caught_by_the_checker_as_the_workload_runs_on`).
fn wasted_and_completion_checker(name: &str, app: &str, must_report: bool) -> (u64, Option<u64>) {
    let sim = run_preset(name);
    let r = report(&sim);
    let p = r.processes.iter().find(|p| p.name == app).unwrap();
    if name.ends_with("-fixed") {
        assert!(r.sanity_violations.is_empty(), "{name}: checker should be silent: {:?}", r.sanity_violations);
    } else if must_report {
        assert!(!r.sanity_violations.is_empty(), "{name}: checker should report the bug");
    }
    (r.wasted_core_ns, p.completion_ns)
}

/// Mechanism: average-load group comparison with autogroup loads (an R
/// thread's node looks busy); the fix compares minimum loads.
#[test]
fn group_imbalance_wastes_cores_on_the_r_nodes() {
    let (bug, bug_done) = wasted_and_completion("group-imbalance-make", "make");
    let (fix, fix_done) = wasted_and_completion("group-imbalance-make-fixed", "make");
    assert!(bug > 3 * fix, "wasted {bug} vs {fix}");
    // The paper reports make 13% slower; we see about 30%: both R nodes lose
    // seven cores as in the paper's figure 2a, and our make is purely
    // CPU-bound (no serial link step, no I/O), so every idle core is lost.
    let (b, f) = (bug_done.unwrap(), fix_done.unwrap());
    assert!(b * 100 > f * 110, "make slower with the bug: {b} vs {f}");
}

/// Mechanism: the same average-load comparison, with R processes already
/// running when a spin-synchronised app starts: fork placement and balancing
/// keep lu's threads off the R nodes, two to a core, and a spinning thread
/// burns the time its core partner needs to reach the barrier.
#[test]
fn group_imbalance_crowds_lu_off_the_r_nodes() {
    let (bug, bug_done) = wasted_and_completion("group-imbalance-lu", "lu");
    let (fix, fix_done) = wasted_and_completion("group-imbalance-lu-fixed", "lu");
    assert!(bug > 20 * fix.max(1), "wasted {bug} vs {fix}");
    // The paper reports lu 13x faster with the fix; we see about 4.6x.
    let (b, f) = (bug_done.unwrap(), fix_done.unwrap());
    assert!(b > 3 * f, "lu many times slower with the bug: {b} vs {f}");
}

/// Mechanism: overlapping NUMA groups built from CPU 0's view hide the
/// imbalance between nodes 1 and 2; the fix builds them per CPU.
#[test]
fn group_construction_keeps_node_2_idle_and_slows_the_app() {
    let (bug, bug_done) = wasted_and_completion("group-construction-numactl", "lu");
    let (fix, fix_done) = wasted_and_completion("group-construction-numactl-fixed", "lu");
    assert!(bug > 20 * fix.max(1), "wasted {bug} vs {fix}");
    let (b, f) = (bug_done.unwrap(), fix_done.unwrap());
    assert!(b > 3 * f, "spin-synchronised app many times slower: {b} vs {f}");
}

/// Mechanism: wakeup placement confined to the previous CPU's node; the fix
/// takes an idle previous CPU, else the longest-idle one.
#[test]
fn overload_on_wakeup_queues_workers_next_to_idle_cores() {
    let (bug, bug_done) = wasted_and_completion_checker("overload-on-wakeup-db", "db", false);
    let (fix, fix_done) = wasted_and_completion("overload-on-wakeup-db-fixed", "db");
    // Both runs waste some time: a transient kernel thread that preempts a
    // worker mid-step holds up the barrier in either kernel (an idle core
    // only pulls after avg_idle exceeds the migration cost). The bug adds
    // the extra worker that keeps waking on a full node. (Both also waste the first milliseconds, while the
    // first worker creates the others.)
    assert!(bug > 3 * fix / 2, "wasted {bug} vs {fix}");
    // The paper reports TPC-H query 18 22% faster with the fix; we see 24%.
    let (b, f) = (bug_done.unwrap(), fix_done.unwrap());
    assert!(b * 100 > f * 112, "db slower with the bug: {b} vs {f}");
}

/// Mechanism: the domain rebuild after hotplug drops the NUMA levels, so a
/// new app's threads stay on the node where they were created.
#[test]
fn missing_domains_confine_a_new_app_to_one_node() {
    let (bug, bug_done) = wasted_and_completion("missing-domains-hotplug", "app");
    let (fix, fix_done) = wasted_and_completion("missing-domains-hotplug-fixed", "app");
    assert!(bug > 20 * fix.max(1), "wasted {bug} vs {fix}");
    let (b, f) = (bug_done.unwrap(), fix_done.unwrap());
    assert!(b >= 4 * f, "at least 4x slower: {b} vs {f}");
}

/// The placement records show the mechanism itself: with the bug a wakeup
/// considers only its LLC (one node, plus waker and previous CPU); with the
/// fix it considers every allowed CPU.
#[test]
fn wakeup_placements_show_the_confined_search() {
    use schedlab_core::api::views::inspector::recent_placements;
    use schedlab_core::sim::Simulator;
    use schedlab_core::time::SimTime;
    for (name, max_expected) in [("overload-on-wakeup-db", 10usize), ("overload-on-wakeup-db-fixed", 64)] {
        let mut sim = Simulator::new(&common::preset_config(name));
        sim.run_until(SimTime(200_000_000));
        let wakeups: Vec<_> = recent_placements(&sim, 1024).into_iter().filter(|p| p.kind == "wakeup").collect();
        assert!(!wakeups.is_empty());
        let widest = wakeups
            .iter()
            .map(|p| p.considered.0.iter().map(|w| w.count_ones() as usize).sum::<usize>())
            .max()
            .unwrap();
        if name.ends_with("-fixed") {
            assert!(wakeups.iter().any(|p| p.path.starts_with("idle-anywhere")), "{name}");
            assert_eq!(widest, max_expected, "{name}: the fix may look at every CPU");
        } else {
            assert!(wakeups.iter().all(|p| p.path == "select_idle_sibling"), "{name}");
            assert!(widest <= max_expected, "{name}: confined to a node, got {widest}");
        }
    }
}

/// Acceptance "with every bug fixed, no preset leaves a CPU idle for longer
/// than M while a thread that may run there waits", measured exactly: the
/// longest unbroken stretch any CPU idled while a thread allowed on it
/// waited elsewhere, against the presets' window M (100 ms).
#[test]
fn fixed_presets_never_leave_a_core_idle_longer_than_m() {
    use schedlab_core::api::presets::PRESETS;
    const M: u64 = 100_000_000;
    for p in PRESETS.iter().filter(|p| p.name.ends_with("-fixed")) {
        let sim = run_preset(p.name);
        let longest = sim.machine_stats().longest_wasted_idle.map_or(0, |s| s.ns);
        assert!(longest < M, "{}: {:?}", p.name, sim.machine_stats().longest_wasted_idle);
    }
}

/// The paper (4.1): Overload-on-Wakeup's violations last a few hundred milliseconds and reappear, so the
/// checker's chance of catching one grows as the workload keeps running. The database workers run three times
/// as long: the buggy kernel trips the checker, the fixed one does not.
#[test]
fn overload_on_wakeup_is_caught_by_the_checker_as_the_workload_runs_on() {
    use schedlab_core::api::{presets, scenario};
    use schedlab_core::sim::Simulator;
    let longer = |name: &str| {
        let mut j: serde_json::Value = serde_json::from_str(presets::find(name).unwrap().json).unwrap();
        j["duration_ms"] = serde_json::json!(j["duration_ms"].as_u64().unwrap() * 3);
        let r = &mut j["processes"][0]["program"][0]["repeat"];
        *r = serde_json::json!(r.as_u64().unwrap() * 3);
        let mut sim = Simulator::new(&scenario::load_scenario(&j.to_string()).unwrap());
        sim.run_to_end();
        report(&sim).sanity_violations.len()
    };
    assert!(longer("overload-on-wakeup-db") > 0, "the buggy kernel trips the checker over a longer run");
    assert_eq!(longer("overload-on-wakeup-db-fixed"), 0);
}

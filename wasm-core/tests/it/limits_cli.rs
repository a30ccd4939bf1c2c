//! Issue 19: the limits bound the work. A shape just past the admitted work
//! is refused by `schedsim` with the estimate and the reason, and the same
//! shape a little shorter is admitted; the estimate stays within a factor of
//! the events every preset really takes; what a long run keeps in memory is
//! bounded by counts, however long it runs (decisions and their group
//! statistics, the sanity checker's violations and their lists). Structural
//! bounds, not wall time.

use crate::common;
use common::scenario::{Process, Scenario};

use schedlab_core::api::presets::PRESETS;
use schedlab_core::api::scenario::limits::{estimate, MAX_ESTIMATED_EVENTS};
use schedlab_core::api::scenario::load_scenario;
use schedlab_core::sim::sanity::{MAX_VIOLATIONS_KEPT, MAX_VIOLATION_LIST};
use schedlab_core::sim::{Simulator, DECISION_GROUPS, DECISION_LOG};
use std::process::Command;

/// 1,024 CPUs (64 nodes of 16 cores) and 10,000 threads that compute for
/// 100 ms at a time, at HZ 1000: ticks dominate (1,024,000 a second).
fn hogs(ms: u64) -> String {
    Scenario::new("hogs", ms).hz(1000).topology(64, 16, 1).process(Process::hog("hog", 100_000).threads(10_000)).build()
}

#[test]
fn a_shape_just_past_the_admitted_events_is_refused_with_its_estimate() {
    // The longest admitted duration of the shape, found by the estimate's own rule.
    let admitted = |ms: u64| load_scenario(&hogs(ms)).is_ok();
    let (mut lo, mut hi) = (1_000, 600_000);
    while lo + 1 < hi {
        let mid = (lo + hi) / 2;
        if admitted(mid) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    assert!((90_000..100_000).contains(&lo), "under 100 s of 1,024,000 ticks a second: {lo} ms");
    let cfg = load_scenario(&hogs(lo)).expect("admitted");
    assert!(estimate(&cfg).total() <= MAX_ESTIMATED_EVENTS);

    let file = common::temp_path("limits.json");
    std::fs::write(&file, hogs(hi)).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_schedsim")).arg("run").arg(&file).output().expect("schedsim runs");
    std::fs::remove_file(&file).ok();
    assert_eq!(out.status.code(), Some(2), "refused as invalid input");
    let msg = String::from_utf8_lossy(&out.stderr);
    assert!(msg.contains("duration_ms: the run is estimated at"), "{msg}");
    assert!(msg.contains(" ticks: 1024 CPUs x 1000 Hz x 96.69 s"), "names the ticks: {msg}");
    assert!(msg.contains("more than its event budget of 100,000,000"), "{msg}");
    assert!(msg.contains("shorten duration_ms to about"), "says what to change: {msg}");
}

/// Idle CPUs stop their tick (NO_HZ idle): a long run on a mostly idle
/// machine is admitted, and one refused says which CPU time ticks.
#[test]
fn only_busy_cpus_count_ticks_when_idle_ones_stop_theirs() {
    let few = |threads: u32| {
        Scenario::new("few", 600_000)
            .hz(1000)
            .topology(64, 16, 1)
            .process(Process::hog("hog", 100_000).threads(threads))
            .build()
    };
    let cfg = load_scenario(&few(4)).expect("4 busy CPUs of 1,024 for 600 s are admitted");
    let e = estimate(&cfg);
    assert!(!e.every_cpu_ticks);
    assert_eq!(e.ticks, 2_400_000, "4 CPUs x 1000 Hz x 600 s");
    let diags = load_scenario(&few(200)).expect_err("200 busy CPUs for 600 s are not");
    assert_eq!(diags[0].field, "duration_ms");
    assert!(diags[0].reason.contains(" ticks: 1000 Hz x 120000.00 busy CPU-seconds"), "{}", diags[0].reason);
}

#[test]
fn too_many_task_groups_for_the_cpus_are_refused_with_the_count() {
    // 600 sessions (autogroups) on 1,024 CPUs: 614,400 group runqueues.
    let text = |autogroup: bool| {
        Scenario::new("groups", 10)
            .autogroup(autogroup)
            .topology(64, 16, 1)
            .processes((0..600).map(|i| Process::hog(&format!("p{i}"), 1000).session(&format!("s{i}"))))
            .build()
    };
    let diags = load_scenario(&text(true)).expect_err("refused");
    assert_eq!(diags.len(), 1);
    assert_eq!(diags[0].field, "processes");
    assert!(diags[0].reason.starts_with("600 task groups (cgroups and autogroup sessions) on 1024 CPUs need 614,400"));
    assert!(diags[0].reason.contains("use at most 512 sessions or cgroups"), "{}", diags[0].reason);
    assert!(load_scenario(&text(false)).is_ok(), "without autogroups there is one group, the root");
}

#[test]
fn the_estimate_is_within_a_factor_of_every_presets_events() {
    for p in PRESETS {
        let sim = common::run_preset(p.name);
        let (est, real) = (estimate(&common::preset_config(p.name)).total() as f64, sim.events_processed() as f64);
        let ratio = est / real;
        assert!((0.5..=4.5).contains(&ratio), "{}: estimated {est}, took {real} ({ratio:.2}x)", p.name);
    }
}

#[test]
fn decisions_keep_a_bounded_number_of_group_statistics() {
    // One flat node of 1,024 cores: each newly idle pass records 1,024 groups. No autogroup: a new
    // group's entity weighs nothing on a CPU until its first PELT period there (4.1), so the threads
    // created in that period start on one CPU, and a flat domain's first idle pass is 1,024 ms away.
    let text = r#"{"version":1,"name":"flat","duration_ms":150,"hz":1000,"autogroup":false,
      "machine":{"nodes":1,"cores_per_node":1024,"threads_per_core":1},
      "processes":[{"name":"t","threads":2048,"program":[{"body":[{"run_us":{"exp":3000}},{"sleep_us":{"exp":1000}}]}]}]}"#;
    let mut sim = Simulator::new(&load_scenario(text).unwrap());
    sim.run_to_end();
    let kept = sim.decisions();
    let groups: usize = kept.iter().map(|d| d.groups.len()).sum();
    assert!(kept.len() <= DECISION_LOG && groups <= DECISION_GROUPS, "{} decisions, {groups} groups", kept.len());
    assert!(sim.decisions_total() > kept.len() as u64, "older decisions were dropped");
    assert!(kept.iter().any(|d| d.groups.len() == 1024));
}

#[test]
fn sanity_violations_are_counted_past_what_is_kept() {
    // missing-domains-hotplug (all threads end up on node 0 while 56 cores
    // idle) with 200 threads, checked every millisecond for 12 s: a
    // violation every other millisecond, each with 192 waiting threads.
    let mut f: serde_json::Value =
        serde_json::from_str(schedlab_core::api::presets::find("missing-domains-hotplug").unwrap().json).unwrap();
    f["duration_ms"] = 12_000.into();
    f["sanity_checker"] = serde_json::json!({"period_ms": 1, "window_ms": 1});
    f["processes"][0]["threads"] = 200.into();
    let mut sim = Simulator::new(&load_scenario(&f.to_string()).unwrap());
    sim.run_to_end();
    let kept = sim.sanity_violations();
    assert!(sim.sanity_violations_total() > MAX_VIOLATIONS_KEPT as u64, "{}", sim.sanity_violations_total());
    assert_eq!(kept.len(), MAX_VIOLATIONS_KEPT);
    // Held memory, not just length: a kept list must not keep the buffer it was cut from.
    assert!(kept
        .iter()
        .all(|v| v.waiting.capacity() <= MAX_VIOLATION_LIST && v.idle_cpus.capacity() <= MAX_VIOLATION_LIST));
    let cut = kept.iter().find(|v| v.waiting_total > MAX_VIOLATION_LIST).expect("a long list");
    assert_eq!(cut.waiting.len(), MAX_VIOLATION_LIST, "the list is cut, the count ({}) is not", cut.waiting_total);
}

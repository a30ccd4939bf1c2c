//! Equivalence tests: determinism, step-by-step = run-to-time, and
//! snapshot + restore = an uninterrupted run.

use crate::common;
use common::*;
use schedlab_core::api::report::report;
use schedlab_core::sim::Simulator;
use schedlab_core::time::SimTime;

fn fingerprint(sim: &Simulator) -> String {
    serde_json::to_string(&report(sim)).unwrap()
}

#[test]
fn same_scenario_and_seed_give_the_same_trace_hash() {
    let a = run_preset("cfs-nice-levels");
    let b = run_preset("cfs-nice-levels");
    assert_eq!(a.trace().hash(), b.trace().hash());
    assert_eq!(fingerprint(&a), fingerprint(&b));
}

#[test]
fn a_different_seed_changes_random_durations() {
    let text = r#"{"version":1,"name":"r","duration_ms":200,"machine":{"preset":"uniprocessor"},
      "processes":[{"name":"a","program":[{"body":[{"run_us":{"exp":500}},{"sleep_us":{"uniform":[100,900]}}]}]},
                   {"name":"b","program":[{"body":[{"run_us":2000}]}]}]}"#;
    let mut cfg = schedlab_core::api::scenario::load_scenario(text).unwrap();
    let mut a = Simulator::new(&cfg);
    a.run_to_end();
    cfg.seed = 2;
    let mut b = Simulator::new(&cfg);
    b.run_to_end();
    assert_ne!(a.trace().hash(), b.trace().hash());
}

#[test]
fn stepping_event_by_event_equals_running_to_a_time() {
    let cfg = preset_config("cfs-nice-levels");
    let t = SimTime(300_000_000);
    let mut stepped = Simulator::new(&cfg);
    while stepped.next_event_time().is_some_and(|next| next <= t) {
        assert!(stepped.step_event());
    }
    let mut jumped = Simulator::new(&cfg);
    jumped.run_until(t);
    assert_eq!(stepped.trace().hash(), jumped.trace().hash());
    assert_eq!(stepped.events_processed(), jumped.events_processed());
    // And both continue identically to the end.
    stepped.run_to_end();
    jumped.run_to_end();
    assert_eq!(fingerprint(&stepped), fingerprint(&jumped));
}

#[test]
fn ticks_and_chunks_agree_with_one_run() {
    let cfg = preset_config("cfs-nice-levels");
    let mut whole = Simulator::new(&cfg);
    whole.run_to_end();
    let mut chunks = Simulator::new(&cfg);
    let mut t = 0;
    while !chunks.finished() {
        t += 7_777_777;
        chunks.run_until(SimTime(t));
        for _ in 0..3 {
            chunks.step_tick();
        }
    }
    assert_eq!(fingerprint(&whole), fingerprint(&chunks));
}

#[test]
fn snapshot_restore_continue_equals_uninterrupted() {
    let cfg = preset_config("cfs-nice-levels");
    let mut whole = Simulator::new(&cfg);
    whole.run_to_end();

    let mut sim = Simulator::new(&cfg);
    sim.run_until(SimTime(cfg.duration_ns / 2));
    let snapshot = sim.clone();
    // Wander off, then restore and continue.
    sim.run_until(SimTime(cfg.duration_ns * 3 / 4));
    sim = snapshot;
    sim.run_to_end();
    assert_eq!(fingerprint(&whole), fingerprint(&sim));
}

/// The same two equivalences on the 64-CPU preset, where balancing, groups
/// and placement all take part.
#[test]
fn multicore_snapshot_and_stepping_equivalences() {
    let cfg = preset_config("group-imbalance-make");
    let end = SimTime(600_000_000);
    let mut whole = Simulator::new(&cfg);
    whole.run_until(end);

    let mut sim = Simulator::new(&cfg);
    sim.run_until(SimTime(300_000_000));
    let snapshot = sim.clone();
    sim.run_until(SimTime(450_000_000));
    sim = snapshot;
    sim.run_until(end);
    assert_eq!(fingerprint(&whole), fingerprint(&sim));

    let mut stepped = Simulator::new(&cfg);
    while stepped.next_event_time().is_some_and(|t| t <= end) {
        stepped.step_event();
    }
    stepped.run_until(end);
    assert_eq!(fingerprint(&whole), fingerprint(&stepped));
}

//! Rewinding a sched_ext run: its policy's state lives in a JavaScript
//! engine a snapshot cannot copy, so the timeline goes back by building the
//! run afresh and replaying (`Timeline::from_config`). Every way back, and a
//! copy run on its own, must reach the states an uninterrupted run reaches.

use schedlab_core::api::scenario::load_scenario;
use schedlab_core::api::timeline::{Mark, Timeline};
use schedlab_core::api::views::view::sim_view;
use schedlab_core::config::SimConfig;
use schedlab_core::sim::Simulator;
use schedlab_core::time::SimTime;

const VTIME: &str = include_str!("../../policies/weighted-vtime.js");

/// The 64-CPU Group Imbalance preset for 200 ms under the weighted-vtime
/// starter.
fn config() -> SimConfig {
    let mut s: serde_json::Value =
        serde_json::from_str(include_str!("../../presets/group-imbalance-make.json")).expect("preset");
    s["policy"] = serde_json::json!({ "kind": "ext", "source": VTIME });
    s["duration_ms"] = 200.into();
    load_scenario(&s.to_string()).unwrap_or_else(|e| panic!("{e:?}"))
}

fn state(s: &Simulator) -> String {
    format!("{:016x} {}", s.trace().hash(), serde_json::to_string(&sim_view(s)).unwrap())
}

/// The state after `events` events of an uninterrupted run.
fn straight(events: u64) -> String {
    let mut sim = Simulator::new(&config());
    while sim.events_processed() < events && sim.step_event() {}
    state(&sim)
}

#[test]
fn seeking_back_replays_from_a_fresh_start() {
    let mut t = Timeline::from_config(&config());
    t.run_until(SimTime(120_000_000));
    let far = t.sim().events_processed();
    let mid = far / 2;
    t.seek_event(mid);
    assert_eq!(state(t.sim()), straight(mid), "back to the middle");
    t.seek_event(far);
    assert_eq!(state(t.sim()), straight(far), "forward again");
    assert!(t.sim().notes().policy_error.is_none());
}

#[test]
fn a_copy_runs_on_its_own_engine() {
    let mut t = Timeline::from_config(&config());
    t.run_until(SimTime(60_000_000));
    let at = state(t.sim());
    let mut copy = t.clone();
    assert_eq!(state(copy.sim()), at, "the copy starts where the original is");
    copy.run_until(SimTime(200_000_000));
    // Had the copy shared the original's JavaScript engine, the policy's
    // queues would have moved on under the original.
    assert_eq!(state(t.sim()), at, "the original did not move");
    t.run_until(SimTime(200_000_000));
    assert_eq!(state(t.sim()), state(copy.sim()), "both reach the same end");
}

#[test]
fn the_previous_migration_is_found_by_replay() {
    let mut t = Timeline::from_config(&config());
    t.run_until(SimTime(200_000_000));
    let end = t.sim().events_processed();
    assert!(t.prev_mark(Mark::Migration), "a shared vtime queue migrates tasks");
    let found = t.sim().events_processed();
    assert!(found < end);
    assert_eq!(state(t.sim()), straight(found));
}

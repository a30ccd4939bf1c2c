//! Exact rewind: every way back (one event, a time, the previous decision or
//! migration) reaches the very state a fresh run reaches, compared by trace
//! hash and the full view at the cursor.

use schedlab_core::api::presets;
use schedlab_core::api::scenario::load_scenario;
use schedlab_core::api::timeline::{Mark, Timeline};
use schedlab_core::api::views::view::sim_view;
use schedlab_core::sim::Simulator;
use schedlab_core::time::SimTime;

fn sim(preset: &str) -> Simulator {
    Simulator::new(&load_scenario(presets::find(preset).unwrap().json).unwrap())
}

/// The trace hash and the whole view (trees, tasks, rotations, time).
fn state(s: &Simulator) -> String {
    format!("{:016x} {}", s.trace().hash(), serde_json::to_string(&sim_view(s)).unwrap())
}

#[test]
fn one_step_forward_and_one_back_is_the_state_before() {
    let mut t = Timeline::with_interval(sim("group-imbalance-make"), 4096);
    t.run_until(SimTime(2_000_000_000));
    t.step_event();
    let before = state(t.sim());
    let n = t.sim().events_processed();
    t.step_event();
    t.seek_event(n);
    assert_eq!(state(t.sim()), before);
    assert!(t.snapshots() > 1, "the run crossed several snapshot intervals");
}

#[test]
fn seeking_back_far_equals_a_fresh_run_and_keeps_the_slices() {
    let mut t = Timeline::with_interval(sim("group-imbalance-make"), 4096);
    t.run_until(SimTime(3_000_000_000));
    let target = t.sim().events_processed() / 3;
    let mut fresh = sim("group-imbalance-make");
    while fresh.events_processed() < target - 1 {
        fresh.step_event();
    }
    fresh.clear_rotations();
    fresh.step_event();
    assert!(t.snapshots() > 2);
    t.seek_event(target);
    assert_eq!(state(t.sim()), state(&fresh));
    assert_eq!(t.sim().trace().slices, fresh.trace().slices);
    // And forward again to where it was.
    t.seek_time(SimTime(3_000_000_000));
    let mut whole = sim("group-imbalance-make");
    whole.run_until(SimTime(3_000_000_000));
    assert_eq!(t.sim().trace().hash(), whole.trace().hash());
    assert_eq!(t.sim().now(), whole.now());
}

#[test]
fn previous_and_next_marks_find_the_same_events() {
    let mut t = Timeline::new(sim("group-imbalance-make"));
    t.run_until(SimTime(30_000_000));
    for m in [Mark::Decision, Mark::Migration, Mark::Tick] {
        assert!(t.next_mark(m));
        let at = t.sim().events_processed();
        let there = state(t.sim());
        assert!(t.next_mark(m));
        assert!(t.sim().events_processed() > at);
        assert!(t.prev_mark(m));
        assert_eq!(t.sim().events_processed(), at, "{m:?}");
        assert_eq!(state(t.sim()), there, "{m:?}");
    }
}

#[test]
fn the_first_mark_has_no_previous_one() {
    let mut t = Timeline::new(sim("group-imbalance-make"));
    assert!(t.next_mark(Mark::Decision));
    let at = t.sim().events_processed();
    assert!(!t.prev_mark(Mark::Decision));
    assert_eq!(t.sim().events_processed(), at);
}

#[test]
fn snapshots_stay_bounded_and_rewind_stays_exact_after_thinning() {
    let mut t = Timeline::with_interval(sim("group-imbalance-make"), 64);
    t.run_until(SimTime(1_000_000_000));
    assert!(t.snapshots() <= schedlab_core::api::timeline::MAX_SNAPSHOTS);
    assert!(t.snapshots() > 8);
    let target = t.sim().events_processed() / 2 + 7;
    let mut fresh = sim("group-imbalance-make");
    while fresh.events_processed() < target - 1 {
        fresh.step_event();
    }
    fresh.clear_rotations();
    fresh.step_event();
    t.seek_event(target);
    assert_eq!(state(t.sim()), state(&fresh));
}

#[test]
fn searching_in_slices_reaches_the_same_mark() {
    let mut whole = Timeline::new(sim("group-imbalance-make"));
    assert!(whole.next_mark(Mark::Violation));
    let mut sliced = Timeline::new(sim("group-imbalance-make"));
    let mut limit = SimTime(0);
    let found = loop {
        limit = SimTime(limit.ns() + 7_000_000);
        if let Some(found) = sliced.next_mark_until(Mark::Violation, limit) {
            break found;
        }
    };
    assert!(found);
    assert_eq!(state(sliced.sim()), state(whole.sim()));
}

#[test]
fn previous_mark_searched_window_by_window_matches_a_brute_force_scan() {
    let mut t = Timeline::with_interval(sim("group-imbalance-make"), 256);
    t.run_until(SimTime(1_200_000_000));
    // Right after a violation, so the one before it is a few windows back.
    assert!(t.next_mark(Mark::Violation));
    let cur = t.sim().events_processed();
    // Brute force: the last event before the cursor after which a new violation was confirmed.
    let mut fresh = sim("group-imbalance-make");
    let mut expected = None;
    while fresh.events_processed() + 1 < cur {
        let before = fresh.sanity_violations().len();
        fresh.step_event();
        if fresh.sanity_violations().len() > before {
            expected = Some(fresh.events_processed());
        }
    }
    let expected = expected.expect("the buggy preset has violations before 1.2 s");
    t.prev_mark_start(Mark::Violation);
    let mut windows = 0;
    let found = loop {
        windows += 1;
        if let Some(found) = t.prev_mark_continue() {
            break found;
        }
        assert!(t.prev_mark_searched_to() < cur);
    };
    assert!(found);
    assert!(windows > 1, "the search went back through several windows");
    assert_eq!(t.sim().events_processed(), expected);
}

#[test]
fn running_in_limited_pieces_equals_one_run_until() {
    // make starts at 50 ms: past it, forks, placements and balancing (the
    // goal between ticks, so no event waits at it).
    let to = SimTime(190_500_000);
    let mut whole = Timeline::new(sim("group-imbalance-make"));
    whole.run_until(to);
    let mut pieces = Timeline::new(sim("group-imbalance-make"));
    let mut calls = 0;
    while !pieces.run_until_limited(to, 97) {
        calls += 1;
        assert!(pieces.sim().now() < to, "stopped short before the goal");
    }
    assert!(calls > 3, "the run took several pieces");
    assert_eq!(pieces.sim().events_processed(), whole.sim().events_processed());
    assert_eq!(pieces.sim().trace().hash(), whole.sim().trace().hash());
    assert_eq!(pieces.sim().now(), to);
}

/// A stale event (a burst end whose generation has moved on) can be the last
/// one due by t; running to t consumes it without handling the next live
/// event, which is later: the clock stops at t, forward and back alike.
#[test]
fn running_to_a_time_never_handles_an_event_after_it() {
    let mut scenario = load_scenario(presets::find("group-imbalance-make").unwrap().json).unwrap();
    scenario.bugs = schedlab_core::config::BugSwitches::all_fixed();
    let mut t = Timeline::with_interval(Simulator::new(&scenario), 4096);
    t.run_until(SimTime(1_504_000_000));
    for target in [1_503_000_000, 1_503_569_947, 1_400_000_000, 1_503_000_000] {
        t.seek_time(SimTime(target));
        assert_eq!(t.sim().now(), SimTime(target), "seek to {target}");
        let mut fresh = Simulator::new(&scenario);
        fresh.run_until(SimTime(target));
        assert_eq!(fresh.now(), SimTime(target), "run to {target}");
        assert_eq!(fresh.events_processed(), t.sim().events_processed(), "the same events by {target}");
        assert!(fresh.next_event_time().is_none_or(|n| n > SimTime(target)), "nothing due by {target} is left");
    }
}

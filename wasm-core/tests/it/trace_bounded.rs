//! Bounded trace memory: a long run keeps at most MAX_RUN_SLICES run slices
//! (the most recent), says from when lane detail exists, and a rewind brings
//! detail back from the snapshot before the cursor on.

use schedlab_core::api::presets;
use schedlab_core::api::scenario::load_scenario;
use schedlab_core::api::timeline::Timeline;
use schedlab_core::sim::Simulator;
use schedlab_core::time::SimTime;
use schedlab_core::trace::MAX_RUN_SLICES;

/// pipe-pingpong closes about 600,000 slices a simulated second.
fn pingpong(ms: u64) -> Simulator {
    let mut f: serde_json::Value = serde_json::from_str(presets::find("pipe-pingpong").unwrap().json).unwrap();
    f["duration_ms"] = ms.into();
    Simulator::new(&load_scenario(&f.to_string()).unwrap())
}

#[test]
fn a_long_run_keeps_the_most_recent_slices_within_the_cap() {
    let mut sim = pingpong(5_000);
    sim.run_to_end();
    let t = sim.trace();
    assert!(t.slices_total() > MAX_RUN_SLICES, "the run closed {} slices", t.slices_total());
    assert!(t.slices.len() <= MAX_RUN_SLICES);
    let from = t.slices_kept_from().expect("older slices were dropped");
    assert!(t.slices.iter().all(|s| s.end >= from), "kept slices all end after the drop point");
    assert!(t.slices.windows(2).all(|w| w[0].end <= w[1].end), "in order of their end");
    // The kept ones are exactly the last slices of an uncapped count.
    assert_eq!(t.slices_since(t.slices_total() - 10).len(), 10);
}

#[test]
fn a_rewind_before_the_kept_slices_replays_detail_from_its_snapshot() {
    let mut tl = Timeline::new(pingpong(5_000));
    tl.run_until(SimTime(5_000_000_000));
    assert!(tl.sim().trace().slices_kept_from().is_some());
    tl.seek_time(SimTime(500_000_000));
    let t = tl.sim().trace();
    let from = t.slices_kept_from().map_or(0, |s| s.ns());
    assert!(from <= 500_000_000, "detail from {from} ns, before the cursor");
    assert!(t.slices.last().is_some_and(|s| s.end.ns() <= 500_000_000 && s.end.ns() > 400_000_000));
    // Forward again: the same slices as a run that went there directly.
    tl.seek_time(SimTime(1_000_000_000));
    let mut fresh = pingpong(5_000);
    fresh.run_until(SimTime(1_000_000_000));
    let n = tl.sim().trace().slices.len();
    assert_eq!(&tl.sim().trace().slices[..], &fresh.trace().slices[fresh.trace().slices.len() - n..]);
}

/// A forward jump to a later snapshot (seek_event past the cursor) lands
/// past the kept slices: detail comes back from that snapshot on, and is
/// said to begin there.
#[test]
fn a_forward_jump_to_a_later_snapshot_keeps_the_lanes_honest() {
    let mut tl = Timeline::new(pingpong(5_000));
    tl.run_until(SimTime(3_000_000_000));
    let far = tl.sim().events_processed();
    tl.seek_time(SimTime(500_000_000));
    tl.seek_event(far);
    let mut fresh = pingpong(5_000);
    while fresh.events_processed() < far {
        fresh.step_event();
    }
    let (t, f) = (tl.sim().trace(), fresh.trace());
    assert_eq!(t.slices_total(), f.slices_total(), "the count of closed slices is the run's");
    let from = t.slices_kept_from().map_or(0, |s| s.ns());
    // Every kept slice is the fresh run's, and none is missing after `from`.
    let n = t.slices.len();
    assert_eq!(&t.slices[..], &f.slices[f.slices.len() - n..]);
    assert!(f.slices[..f.slices.len() - n].iter().all(|s| s.end.ns() <= from), "no detail lost after {from} ns");
}

/// Each task's longest run is counted as it happens, so it survives dropped
/// slices: on a short run (nothing dropped) it is the longest slice of the
/// task in the trace; on a long one it is at least the longest kept slice.
#[test]
fn a_tasks_longest_run_is_counted_whether_or_not_its_slices_are_kept() {
    let longest_kept = |sim: &Simulator, pid: schedlab_core::time::Pid| {
        sim.trace().slices.iter().filter(|s| s.pid == pid).map(|s| s.end.since(s.start)).max().unwrap_or(0)
    };
    let mut short = pingpong(200);
    short.run_to_end();
    assert!(short.trace().slices_kept_from().is_none());
    for t in short.tasks() {
        assert_eq!(t.stats.longest_run_ns, longest_kept(&short, t.pid), "{}", t.name);
    }
    let mut long = pingpong(5_000);
    long.run_to_end();
    assert!(long.trace().slices_kept_from().is_some());
    for t in long.tasks() {
        assert!(t.stats.longest_run_ns >= longest_kept(&long, t.pid), "{}", t.name);
        assert!(t.stats.longest_run_ns > 0 || longest_kept(&long, t.pid) == 0);
    }
}

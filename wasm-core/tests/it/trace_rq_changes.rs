//! Issue 3: the trace records every change of a runqueue's length or load
//! (as the paper's tool does, without sampling). Checked against an observer
//! that steps the run one event at a time and notes each CPU's state
//! whenever simulated time moves on (events at one instant collapse, as the
//! trace stamps a change with the time of the event that left it).

use crate::common;
use schedlab_core::sim::Simulator;
use schedlab_core::time::SimTime;

type Seen = Vec<(u64, u32, u32, u64)>; // (at ns, cpu, nr_running, load)

fn state(sim: &Simulator) -> Vec<(u32, u64)> {
    sim.rqs().iter().map(|rq| (rq.nr_running(), rq.weighted_cpuload())).collect()
}

/// Notes each CPU whose state at `at` differs from the last noted.
fn observe(state: &[(u32, u64)], at: SimTime, last: &mut [(u32, u64)], seen: &mut Seen) {
    for (cpu, &cur) in state.iter().enumerate() {
        if last[cpu] != cur {
            last[cpu] = cur;
            seen.push((at.ns(), cpu as u32, cur.0, cur.1));
        }
    }
}

fn check(name: &str, until_ms: u64) {
    let mut sim = Simulator::new(&common::preset_config(name));
    let mut last = vec![(0u32, 0u64); sim.rqs().len()];
    let mut seen = Seen::new();
    let until = SimTime(until_ms * 1_000_000);
    let mut prev_now = sim.now();
    // The state as the last event at `prev_now` left it: noted once time
    // moves on (a step may pass over stale events, which change nothing).
    let mut left = state(&sim);
    while sim.next_event_time().is_some_and(|t| t <= until) {
        if !sim.step_event() {
            break;
        }
        if sim.now() != prev_now {
            observe(&left, prev_now, &mut last, &mut seen);
        }
        left = state(&sim);
        prev_now = sim.now();
    }
    // One more event makes the simulator account (and trace) the last state.
    observe(&left, prev_now, &mut last, &mut seen);
    sim.step_event();
    let total = sim.trace().rq_changes_total() as usize;
    assert_eq!(total, seen.len(), "{name}: every change traced once");
    let kept: Seen = sim.trace().rq_changes(usize::MAX).map(|c| (c.at.ns(), c.cpu.0, c.nr_running, c.load)).collect();
    assert!(!kept.is_empty());
    assert_eq!(kept[..], seen[seen.len() - kept.len()..], "{name}: the kept records are the latest changes");
}

#[test]
fn every_runqueue_change_is_traced_on_one_cpu() {
    check("cfs-nice-levels", 2000);
}

#[test]
fn every_runqueue_change_is_traced_on_64_cpus() {
    check("overload-on-wakeup-db", 50);
}

//! Tests of `api::history`, which is compiled in the engine crate (it runs at
//! every event of the page's runs, so the wasm build compiles it for speed):
//! they read presets through the scenario reader, which is above it.

use crate::api::history::*;
use crate::api::scenario::load_scenario;
use crate::sim::Simulator;
use crate::time::SimTime;

fn sim(preset: &str) -> Simulator {
    let p = crate::api::presets::find(preset).unwrap();
    Simulator::new(&load_scenario(p.json).unwrap())
}

fn run(sim: &mut Simulator, h: &mut LoadHistory, until: SimTime) {
    while let Some(next) = sim.next_event_time().filter(|t| *t <= until) {
        h.observe(sim, next);
        sim.step_event();
    }
}

#[test]
fn memory_stays_bounded_and_buckets_merge() {
    let mut s = sim("cfs-nice-levels");
    let mut h = LoadHistory::new(s.rqs().len());
    let end = s.duration();
    run(&mut s, &mut h, end);
    assert!(h.len() <= MAX_BUCKETS);
    assert_eq!(h.nr_running().len(), h.len() * h.nr_cpus());
    assert!(h.width_ns() as u128 * MAX_BUCKETS as u128 >= s.now().ns() as u128);
    // One CPU, three hogs and a sleeper: never more than four runnable.
    assert!(h.nr_running().iter().all(|&n| (0.0..=4.0).contains(&n)));
    assert!(h.nr_running().iter().any(|&n| n >= 3.0));
}

#[test]
fn sampling_does_not_change_the_run() {
    let mut a = sim("group-imbalance-make");
    let mut b = a.clone();
    let mut h = LoadHistory::new(a.rqs().len());
    run(&mut a, &mut h, SimTime(200_000_000));
    b.run_until(SimTime(200_000_000));
    assert_eq!(a.trace().hash(), b.trace().hash());
    assert!(h.migrations().iter().sum::<u32>() > 0, "the make preset migrates tasks");
    // All wasted time accounted before the last sample is in the buckets.
    let total: u64 = h.wasted().iter().sum();
    assert!(total > 0 && total <= a.machine_stats().wasted_core_ns);
}

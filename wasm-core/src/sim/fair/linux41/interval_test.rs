//! Balance intervals in jiffies as 4.1.15 makes them.
//!
//! `get_sd_balance_interval` converts with `msecs_to_jiffies`, which rounds
//! up. Hand-worked on one node of 6 cores (no SMT): the MC domain's
//! balance_interval starts at its weight, 6 ms; idle, at HZ 250 that is
//! ⌈6 / 4⌉ = 2 jiffies (rounding down gave 1); busy, × busy_factor 32 = 192 ms
//! = 48 jiffies either way; at HZ 100, ⌈0.6⌉ = 1 jiffy.
//!
//! `sd_init` starts a new domain's `last_balance` at the current jiffy, so a
//! hotplug rebuild does not make every domain due at once.

use crate::sim::fair::cx::fair_cx;
use crate::sim::test_config::{config, hog};
use crate::sim::Simulator;
use crate::time::{CpuId, SimTime};

#[test]
fn msecs_to_jiffies_rounds_up() {
    let mut sim = Simulator::new(&config(1, 6, 1, 250, false, vec![hog("h", 1_000_000, None)]));
    let mc = sim.core.rqs[0].domains.len() - 1;
    assert_eq!(sim.core.rqs[0].domains[mc].balance_interval_ms, 6);
    assert_eq!(fair_cx(&mut sim).balance_interval_jiffies(CpuId(0), mc, false), 2);
    assert_eq!(fair_cx(&mut sim).balance_interval_jiffies(CpuId(0), mc, true), 48);
    let mut sim = Simulator::new(&config(1, 6, 1, 100, false, vec![hog("h", 1_000_000, None)]));
    assert_eq!(fair_cx(&mut sim).balance_interval_jiffies(CpuId(0), mc, false), 1);
}

#[test]
fn a_rebuild_starts_the_intervals_now() {
    let mut sim = Simulator::new(&config(1, 6, 1, 250, false, vec![hog("h", 1_000_000, None)]));
    sim.run_until(SimTime(50_000_000));
    sim.rebuild_domains();
    for rq in sim.core.rqs.iter() {
        assert!(rq.domains.iter().all(|sd| sd.last_balance == SimTime(50_000_000)));
    }
}

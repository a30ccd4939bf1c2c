//! Newly-idle balancing worked by hand (Debian 6.12.117 fair.c:
//! `update_newidle_stats` 12216–12226, `update_newidle_cost` 12229–12256,
//! `sched_balance_newidle` 12871–13015; topology.c 1637–1639). HZ = 250.

use super::*;

const HZ: u64 = 250;

#[test]
fn the_rate_is_taken_every_1024_calls_and_the_counts_halve() {
    // From sd_init's 512 calls and 256 successes: 512 more calls, none good, reach 1024: the rate becomes
    // 256 (25 %), and the counts halve to 512 and 128.
    let mut s = NewidleStats::new(0);
    for _ in 0..511 {
        s.update_stats(0);
    }
    assert_eq!((s.call, s.success, s.ratio), (1023, 256, 512));
    s.update_stats(0);
    assert_eq!((s.call, s.success, s.ratio), (512, 128, 256));
}

#[test]
fn the_max_cost_rises_at_once_and_decays_one_part_in_256_a_second() {
    let mut s = NewidleStats::new(100);
    assert!(!s.update_cost(40_000, 0, 120, HZ));
    assert_eq!((s.max_newidle_lb_cost, s.last_decay_max_lb_cost, s.call), (40_000, 120, 513));
    // A cheaper pass within a second (jiffy 370 = 120 + HZ is not after it) changes nothing but the count.
    assert!(!s.update_cost(1_000, 1, 370, HZ));
    assert_eq!((s.max_newidle_lb_cost, s.call, s.success), (40_000, 514, 257));
    // At jiffy 371 it decays: 40,000 × 253 / 256 = 39,531 (39,531.25 truncated).
    assert!(s.update_cost(1_000, 0, 371, HZ));
    assert_eq!((s.max_newidle_lb_cost, s.last_decay_max_lb_cost), (39_531, 371));
    // A pass that cost nothing (none ran) is not counted.
    s.update_cost(0, 0, 372, HZ);
    assert_eq!(s.call, 515);
}

#[test]
fn the_die_runs_a_pass_as_often_as_it_succeeds_and_weighs_a_success_back() {
    // Rate 512 (50 %): w = 513, the pass runs for a throw of 0..=513 and a success counts
    // (1024 + 256) / 513 = 2 (1280 / 513 = 2.49, truncated).
    assert_eq!(ni_random_weight(513, 512), Some(2));
    assert_eq!(ni_random_weight(514, 512), None);
    // Rate 0: w = 1, only throws 0 and 1 run it, and a success then counts 1024 (the ratio recovers).
    assert_eq!(ni_random_weight(1, 0), Some(1024));
    assert_eq!(ni_random_weight(2, 0), None);
    // The throw is taken modulo 1024.
    assert_eq!(ni_random_weight(1024 + 1, 0), Some(1024));
}

fn doms(costs: [u64; 3]) -> [NewidleStats; 3] {
    costs.map(|c| NewidleStats { max_newidle_lb_cost: c, ..NewidleStats::new(0) })
}

fn walk_of(st: &mut [NewidleStats]) -> Vec<WalkDomain<'_>> {
    st.iter_mut().map(|s| WalkDomain { stats: s, balance_newidle: true }).collect()
}

#[test]
fn the_walk_stops_where_the_idle_time_runs_out_or_work_was_pulled() {
    // avg_idle 100 µs; max costs 10, 30, 80 µs; each pass costs 20 µs and pulls nothing.
    let mut st = doms([10_000, 30_000, 80_000]);
    let pass = |_| PassResult { pulled: false, go_on: true, cost: 20_000 };
    let w = newidle_walk(&mut walk_of(&mut st), 100_000, 0, HZ, NI_RANDOM, || 0, pass);
    // Level 0: 100 ≥ 0 + 10; level 1: 100 ≥ 20 + 30; level 2: 100 < 40 + 80: stop.
    assert_eq!((w.balanced.clone(), w.cost, w.pulled), (vec![0, 1], 40_000, false));
    // A pull at level 0 ends the walk there; the success is weighed by the die (rate 512: 2).
    let mut st = doms([10_000, 30_000, 80_000]);
    let pull = |_| PassResult { pulled: true, go_on: true, cost: 20_000 };
    let w = newidle_walk(&mut walk_of(&mut st), 100_000, 0, HZ, NI_RANDOM, || 7, pull);
    assert_eq!((w.balanced.clone(), w.pulled), (vec![0], true));
    assert_eq!((st[0].call, st[0].success, st[0].max_newidle_lb_cost), (513, 258, 20_000));
}

#[test]
fn a_losing_throw_skips_the_domain_and_counts_a_failure() {
    // Level 0's throw (600 > 513) skips it; level 1's (3) runs it, and that pass clears continue_balancing.
    let mut st = doms([0, 0, 0]);
    let mut throws = [600u32, 3, 3].into_iter();
    let stop = |_| PassResult { pulled: false, go_on: false, cost: 5_000 };
    let w = newidle_walk(&mut walk_of(&mut st), 1_000_000, 0, HZ, NI_RANDOM, || throws.next().unwrap(), stop);
    assert_eq!(w.balanced, vec![1]);
    assert_eq!((st[0].call, st[0].success), (513, 256));
    assert_eq!((st[1].call, st[1].max_newidle_lb_cost), (513, 5_000));
}

#[test]
fn without_ni_random_every_affordable_domain_runs_and_a_success_counts_once() {
    // The throw of 600 would skip level 0 under NI_RANDOM; without it there is no die: level 0 runs and
    // pulls, its success counted 1.
    let mut st = doms([0, 0, 0]);
    let pull = |_| PassResult { pulled: true, go_on: true, cost: 5_000 };
    let w = newidle_walk(&mut walk_of(&mut st), 1_000_000, 0, HZ, false, || 600, pull);
    assert_eq!(w.balanced, vec![0]);
    assert_eq!((st[0].call, st[0].success), (513, 257));
}

#[test]
fn the_gate_needs_an_overloaded_root_domain_and_enough_idle_time() {
    assert!(newidle_may_walk(true, 50_000, 50_000));
    assert!(!newidle_may_walk(true, 49_999, 50_000));
    assert!(!newidle_may_walk(false, 1_000_000, 0));
}

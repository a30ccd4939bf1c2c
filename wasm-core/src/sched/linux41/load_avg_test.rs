//! Hand-worked cases of 4.1.15's blocked-load arithmetic (kernel/sched/fair.c):
//! `subtract_blocked_load_contrib`, `__synchronize_entity_decay`,
//! `update_cfs_rq_blocked_load`, `__update_cfs_rq_tg_load_contrib`,
//! `__update_tg_runnable_avg` and `__update_group_entity_contrib`. Each
//! figure below is worked from the kernel's formulas and `decay_load`'s table.

use super::*;
use crate::sched::cfs_rq::CfsRq;

fn rq(runnable: i64, blocked: u64, tg_load_contrib: i64) -> CfsRq {
    let mut cfs = CfsRq::new(1);
    cfs.runnable_load_avg = runnable;
    cfs.blocked_load_avg = blocked;
    cfs.tg_load_contrib = tg_load_contrib;
    cfs
}

/// blocked_load_avg is unsigned: 1000 − 300 = 700; taking 1000 (not less
/// than 1000) empties it; so does a negative amount, which C compares as a
/// huge unsigned one.
#[test]
fn subtracting_blocked_load_as_the_kernel_compares() {
    let mut cfs = rq(0, 1000, 0);
    subtract_blocked_load_contrib(&mut cfs, 300);
    assert_eq!(cfs.blocked_load_avg, 700);
    subtract_blocked_load_contrib(&mut cfs, 700);
    assert_eq!(cfs.blocked_load_avg, 0);
    cfs.blocked_load_avg = 1000;
    subtract_blocked_load_contrib(&mut cfs, -5);
    assert_eq!(cfs.blocked_load_avg, 0, "a negative amount empties it");
}

/// A sleeper stamped at decay_count 7 on a runqueue now at 10: three periods,
/// 1000 · y³ = ⌊1000 · 0xefe4b99a / 2^32⌋ = 937.
#[test]
fn a_sleeper_decays_by_the_periods_its_runqueue_counted() {
    let mut avg =
        SchedAvg { load_avg_contrib: 1000, utilization_avg_contrib: 1000, decay_count: 7, ..SchedAvg::default() };
    assert_eq!(synchronize_entity_decay(10, &mut avg), 3);
    assert_eq!((avg.load_avg_contrib, avg.utilization_avg_contrib, avg.decay_count), (937, 937, 0));
    let mut fresh = SchedAvg { load_avg_contrib: 1000, decay_count: 10, ..SchedAvg::default() };
    assert_eq!(synchronize_entity_decay(10, &mut fresh), 0, "no period counted: no decay");
    assert_eq!(fresh.load_avg_contrib, 1000);
}

/// Blocked 1024, last decayed in period 0, seen at 32 · 2^20 ns: 32 periods,
/// one half life, 1024 >> 1 = 512 times y⁰ (2^32 − 1 over 2^32) = 511; the
/// counter moves from 1 to 33. The group saw 1024, now 511: off by 513, more
/// than 1024 / 8, so it is passed on even unforced.
#[test]
fn blocked_load_decays_per_2_20_ns_and_reaches_the_group() {
    let mut cfs = rq(0, 1024, 1024);
    assert_eq!(update_cfs_rq_blocked_load(&mut cfs, 32 << 20, false), -513);
    assert_eq!((cfs.blocked_load_avg, cfs.decay_counter, cfs.last_decay, cfs.tg_load_contrib), (511, 33, 32, 511));
}

/// Within one period an unforced update does nothing, removed load
/// included; a forced one takes the removed load off and passes the rest on.
#[test]
fn an_unforced_update_within_a_period_is_skipped() {
    let mut cfs = rq(300, 700, 1000);
    cfs.last_decay = 5;
    cfs.removed_load = 200;
    assert_eq!(update_cfs_rq_blocked_load(&mut cfs, (5 << 20) + 1000, false), 0);
    assert_eq!((cfs.blocked_load_avg, cfs.removed_load, cfs.tg_load_contrib), (700, 200, 1000));
    assert_eq!(update_cfs_rq_blocked_load(&mut cfs, (5 << 20) + 1000, true), -200);
    assert_eq!((cfs.blocked_load_avg, cfs.removed_load, cfs.tg_load_contrib), (500, 0, 800));
}

/// The 1/8 hysteresis: the group saw 1024; runnable 1100 is 76 more, not
/// over 128, so an unforced update keeps 1024 and a forced one passes 76.
/// 1200 (176 more) passes unforced.
#[test]
fn the_group_sees_a_change_over_an_eighth_or_a_forced_one() {
    let mut cfs = rq(1100, 0, 1024);
    assert_eq!(update_tg_load_contrib(&mut cfs, false), 0);
    assert_eq!(cfs.tg_load_contrib, 1024);
    assert_eq!(update_tg_load_contrib(&mut cfs, true), 76);
    assert_eq!(cfs.tg_load_contrib, 1100);
    cfs.runnable_load_avg = 1300;
    assert_eq!(update_tg_load_contrib(&mut cfs, false), 200);
}

/// Runnable about half the time (sum 23371 of period 47741):
/// 23371 · 1024 / 47742 = 501 of 1024, passed on from 0. A later 505 is
/// within 501 / 64 = 7 and is not.
#[test]
fn the_runnable_fraction_reaches_the_group_past_a_64th() {
    let mut my_q = rq(0, 0, 0);
    let mut avg = SchedAvg { runnable_avg_sum: 23371, avg_period: 47741, ..SchedAvg::default() };
    assert_eq!(update_tg_runnable_avg(&avg, &mut my_q), 501);
    assert_eq!(my_q.tg_runnable_contrib, 501);
    avg.runnable_avg_sum = 23553; // 23553 · 1024 / 47742 = 505
    assert_eq!(update_tg_runnable_avg(&avg, &mut my_q), 0);
    assert_eq!(my_q.tg_runnable_contrib, 501);
}

/// A group entity's contribution: this CPU's 512 of the group's 2047 load
/// gets 512 · 1024 / 2048 = 256 of the shares; with the group runnable 512 of
/// 1024 in all, 256 · 512 >> 10 = 128. A one-thread group runnable half the
/// time (its only CPU holds all its load, 512): 512 · 1024 / 513 = 1022,
/// weighed by 512 / 1024 = 511, about what a task of weight 1024 runnable
/// half the time contributes.
#[test]
fn a_group_entity_weighs_its_cpus_part_and_its_runnable_fraction() {
    assert_eq!(group_entity_contrib(512, 1024, 2047, 2048), 256);
    assert_eq!(group_entity_contrib(512, 1024, 2047, 512), 128);
    assert_eq!(group_entity_contrib(512, 1024, 512, 512), 511);
    assert_eq!(group_entity_contrib(512, 1024, 512, 1024), 1022, "a full CPU: no correction");
}

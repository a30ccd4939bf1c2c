//! Linux 4.1's load tracking on one runqueue, beyond the entity's own sums
//! (`sched::linux41::pelt`): the blocked load a runqueue keeps for its sleeping
//! entities (`blocked_load_avg`, `decay_counter`, `removed_load`), how a
//! runqueue's load reaches its group's `tg->load_avg` (with the 1/8
//! hysteresis a forced update skips), how a group's runnable fraction reaches
//! `tg->runnable_avg` (1/64), and the group entity's contribution made of them
//! (`__update_group_entity_contrib`). The walk that calls these at the
//! kernel's points is `sim::fair::load`.
//!
//! ```text
//!   task sleeps:  runnable_load_avg ──contrib──► blocked_load_avg (decays by y per 2^20 ns)
//!   task wakes:   blocked_load_avg ──contrib (decayed alike)──► runnable_load_avg
//!   moved away while asleep: its decayed contrib → removed_load, taken off at the next update
//!   tg_load_contrib = runnable + blocked, passed on to tg->load_avg when forced or off by more than 1/8
//! ```
//!
//! Kernel types are kept where they decide a result: `blocked_load_avg` is
//! unsigned, so taking off a negative amount empties it (C converts the
//! signed argument before comparing).

use super::pelt::{decay_load, SchedAvg};
use crate::sched::cfs_rq::CfsRq;

/// `NICE_0_SHIFT` in 4.1 (SCHED_LOAD_RESOLUTION is 0): a full CPU is 1 << 10.
const NICE_0_SHIFT: u32 = 10;

/// `subtract_blocked_load_contrib`. A "negative" amount compares as a huge
/// unsigned one and empties the blocked load, as in the kernel.
pub fn subtract_blocked_load_contrib(cfs: &mut CfsRq, load: i64) {
    let load = load as u64;
    if load < cfs.blocked_load_avg {
        cfs.blocked_load_avg -= load;
    } else {
        cfs.blocked_load_avg = 0;
    }
}

/// `__synchronize_entity_decay`: decay a sleeping entity's contributions by
/// the decay periods its runqueue has counted since it went to sleep there;
/// returns that count and marks the entity synchronised (`decay_count` 0).
pub fn synchronize_entity_decay(decay_counter: u64, avg: &mut SchedAvg) -> u64 {
    let decays = decay_counter.wrapping_sub(avg.decay_count as u64);
    avg.decay_count = 0;
    if decays == 0 {
        return 0;
    }
    avg.load_avg_contrib = decay_load(avg.load_avg_contrib, decays);
    avg.utilization_avg_contrib = decay_load(avg.utilization_avg_contrib, decays);
    decays
}

/// `update_cfs_rq_blocked_load`: decay the blocked load by the periods of
/// 2^20 ns since the last decay, take off what left while asleep, then pass
/// the runqueue's load on to its group (`__update_cfs_rq_tg_load_contrib`).
/// Returns the change to add to the group's `load_avg`.
pub fn update_cfs_rq_blocked_load(cfs: &mut CfsRq, now_ns: u64, force: bool) -> i64 {
    let now = now_ns >> 20;
    let decays = now.saturating_sub(cfs.last_decay);
    if decays == 0 && !force {
        return 0;
    }
    if cfs.removed_load != 0 {
        let removed = std::mem::take(&mut cfs.removed_load);
        subtract_blocked_load_contrib(cfs, removed as i64);
    }
    if decays > 0 {
        cfs.blocked_load_avg = decay_load(cfs.blocked_load_avg, decays);
        cfs.decay_counter += decays;
        cfs.last_decay = now;
    }
    update_tg_load_contrib(cfs, force)
}

/// `__update_cfs_rq_tg_load_contrib`: the runqueue's load (runnable and
/// blocked) reaches the group when the update is forced or has moved by more
/// than an eighth of what the group last saw. Returns the change to
/// `tg->load_avg`.
pub fn update_tg_load_contrib(cfs: &mut CfsRq, force: bool) -> i64 {
    let delta = cfs.runnable_load_avg + cfs.blocked_load_avg as i64 - cfs.tg_load_contrib;
    if delta == 0 {
        return 0;
    }
    if force || delta.unsigned_abs() > cfs.tg_load_contrib as u64 / 8 {
        cfs.tg_load_contrib += delta;
        return delta;
    }
    0
}

/// `__update_tg_runnable_avg`: the fraction of a CPU (of 1024) the group
/// entity `avg` was runnable, passed on to `tg->runnable_avg` when it moved
/// by more than 1/64 of the last figure. `my_q` is the group's runqueue on
/// this CPU. Returns the change to `tg->runnable_avg`.
pub fn update_tg_runnable_avg(avg: &SchedAvg, my_q: &mut CfsRq) -> i64 {
    let fraction = ((avg.runnable_avg_sum << NICE_0_SHIFT) / (avg.avg_period + 1)) as i64;
    let delta = fraction - my_q.tg_runnable_contrib;
    if delta.unsigned_abs() > my_q.tg_runnable_contrib as u64 / 64 {
        my_q.tg_runnable_contrib += delta;
        return delta;
    }
    0
}

/// `__update_group_entity_contrib`: this CPU's part of the group's shares,
/// by its part of the group's load; a group that keeps less than one CPU
/// busy in all (`tg->runnable_avg` below 1024) weighs by that fraction, as a
/// task of the same weight would.
pub fn group_entity_contrib(tg_load_contrib: i64, shares: u64, tg_load_avg: i64, tg_runnable_avg: i64) -> u64 {
    // div_u64 takes a 32-bit divisor; group loads stay far below that.
    let divisor = (tg_load_avg + 1) as u32 as u64;
    let mut contrib = (tg_load_contrib.max(0) as u64 * shares) / divisor.max(1);
    if tg_runnable_avg < 1 << NICE_0_SHIFT {
        contrib = (contrib * tg_runnable_avg.max(0) as u64) >> NICE_0_SHIFT;
    }
    contrib
}

#[cfg(test)]
#[path = "load_avg_test.rs"]
mod load_avg_test;

//! Linux 6.12's load tracking between an entity and the runqueue it is
//! queued on, and between a group's own runqueue and the entity that stands
//! for the group one level up (kernel/sched/fair.c 3770–4935). `pelt.rs` is
//! the arithmetic of one signal; this module is what 6.12 does with it:
//!
//! - a runqueue's signals are the sum of its entities', blocked ones
//!   included: an entity is *attached* once (on its first enqueue on a CPU)
//!   and *detached* when it leaves (`attach_entity_load_avg`,
//!   `detach_entity_load_avg`); a task that wakes on another CPU leaves its
//!   last contribution in the old runqueue's `removed` (`remove_entity_load_avg`),
//!   taken off at that runqueue's next update (`update_cfs_rq_load_avg`);
//! - an attach or detach below a group is *propagated* to the group's entity
//!   and on up (`propagate_entity_load_avg`, `update_tg_cfs_{util,runnable,load}`);
//! - a group's weight on a CPU is its share of the group's load summed over
//!   CPUs (`calc_group_shares`), that sum kept by rate-limited deltas
//!   (`update_tg_load_avg`).
//!
//! Weights here are on the 1024 scale (`scale_load_down`); the model keeps
//! every weight on that scale (the fidelity document says what that costs a
//! group entity's weight: the kernel's 2^20 resolution below 1).
//!
//! ```text
//!   enqueue ─► update_load_avg(UPDATE_TG|DO_ATTACH): age se, age cfs_rq (minus removed), propagate, attach
//!   dequeue ─► update_load_avg(UPDATE_TG[|DO_DETACH]): … detach if the task is moving with its runqueue's lock
//!   wakeup elsewhere ─► remove_entity_load_avg: cfs_rq.removed += se, taken off at the next update
//! ```

use super::pelt::{self, SchedAvg, PELT_MIN_DIVIDER, SCHED_CAPACITY_SCALE, SCHED_CAPACITY_SHIFT};

/// `update_load_avg` flags (fair.c 4846–4849).
pub const UPDATE_TG: u32 = 0x1;
pub const SKIP_AGE_LOAD: u32 = 0x2;
pub const DO_ATTACH: u32 = 0x4;
pub const DO_DETACH: u32 = 0x8;

/// `MIN_SHARES` (sched.h 534): a group's floor weight on a CPU.
pub const MIN_SHARES: u64 = 2;

/// `cfs_rq->removed`: what left with tasks that woke elsewhere, to be taken
/// off at the runqueue's next update.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Removed {
    pub nr: u32,
    pub load_avg: u64,
    pub util_avg: u64,
    pub runnable_avg: u64,
}

/// A runqueue's load-tracking fields of 6.12's `struct cfs_rq`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CfsRqAvg {
    pub avg: SchedAvg,
    pub removed: Removed,
    /// An attach or detach below is waiting to reach the group's entity.
    pub propagate: bool,
    /// The load_sum (unweighted) gained or lost below, to propagate.
    pub prop_runnable_sum: i64,
    /// The part of the group's load this runqueue last added to the group's sum.
    pub tg_load_avg_contrib: u64,
    /// When (ns) it last did (`update_tg_load_avg` waits a millisecond between).
    pub last_update_tg_load_avg: u64,
}

/// What a runqueue feeds its own signals (`__update_load_avg_cfs_rq`): its
/// weight, its queued tasks less the delayed ones, and whether it has a curr.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RqLoad {
    pub weight: u64,
    pub runnable: u64,
    pub running: bool,
}

/// What an entity feeds its signals (`__update_load_avg_se`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SeLoad {
    pub on_rq: bool,
    /// `se_runnable`: 1 for a queued task (0 when delayed), the queued tasks
    /// below a group entity as of its last enqueue or dequeue.
    pub runnable: u64,
    /// It is its runqueue's curr.
    pub running: bool,
    /// `se_weight`.
    pub weight: u64,
}

/// A group entity's own runqueue, with that runqueue's weight (`propagate_entity_load_avg`).
pub struct GroupRq<'a> {
    pub avg: &'a mut CfsRqAvg,
    pub weight: u64,
}

/// `add_positive` on an unsigned field.
fn add_positive(v: &mut u64, delta: i64) {
    *v = if delta < 0 { v.saturating_sub(delta.unsigned_abs()) } else { *v + delta as u64 };
}

/// `max_t(u32, sum, avg * PELT_MIN_DIVIDER)`: the floor a sum keeps after a
/// subtraction. Both sides are cut to 32 bits first, as the kernel's
/// `max_t(u32, …)` does even for the 64-bit load and runnable sums.
fn floor_sum(sum: u64, avg: u64) -> u64 {
    u64::from((sum as u32).max((avg * PELT_MIN_DIVIDER) as u32))
}

/// `enqueue_load_avg`.
pub fn enqueue_load_avg(cfs: &mut CfsRqAvg, se: &SchedAvg, weight: u64) {
    cfs.avg.load_avg += se.load_avg;
    cfs.avg.load_sum += weight * se.load_sum;
}

/// `dequeue_load_avg`.
pub fn dequeue_load_avg(cfs: &mut CfsRqAvg, se: &SchedAvg, weight: u64) {
    cfs.avg.load_avg = cfs.avg.load_avg.saturating_sub(se.load_avg);
    cfs.avg.load_sum = cfs.avg.load_sum.saturating_sub(weight * se.load_sum);
    cfs.avg.load_sum = floor_sum(cfs.avg.load_sum, cfs.avg.load_avg);
}

/// `add_tg_cfs_propagate`.
pub fn add_tg_cfs_propagate(cfs: &mut CfsRqAvg, runnable_sum: i64) {
    cfs.propagate = true;
    cfs.prop_runnable_sum += runnable_sum;
}

/// `update_cfs_rq_load_avg`: takes off what was removed, then ages the
/// runqueue's signals to `now`. True if its load changed (decayed or removed).
pub fn update_cfs_rq_load_avg(now: u64, cfs: &mut CfsRqAvg, rq: RqLoad) -> bool {
    let mut decayed = false;
    if cfs.removed.nr > 0 {
        let divider = pelt::pelt_divider(&cfs.avg);
        let r = std::mem::take(&mut cfs.removed);
        let sa = &mut cfs.avg;
        sa.load_avg = sa.load_avg.saturating_sub(r.load_avg);
        sa.load_sum = sa.load_sum.saturating_sub(r.load_avg * divider);
        sa.load_sum = floor_sum(sa.load_sum, sa.load_avg);
        sa.util_avg = sa.util_avg.saturating_sub(r.util_avg);
        sa.util_sum = sa.util_sum.saturating_sub((r.util_avg * divider) as u32);
        sa.util_sum = sa.util_sum.max((sa.util_avg * PELT_MIN_DIVIDER) as u32);
        sa.runnable_avg = sa.runnable_avg.saturating_sub(r.runnable_avg);
        sa.runnable_sum = sa.runnable_sum.saturating_sub(r.runnable_avg * divider);
        sa.runnable_sum = floor_sum(sa.runnable_sum, sa.runnable_avg);
        // The removed runnable is the unweighted removed load: its sum estimates the load_sum that left.
        add_tg_cfs_propagate(cfs, -((r.runnable_avg * divider) as i64) >> SCHED_CAPACITY_SHIFT);
        decayed = true;
    }
    decayed |= pelt::update_cfs_rq(now, &mut cfs.avg, rq.weight, rq.runnable, rq.running);
    decayed
}

/// `attach_entity_load_avg`: the entity joins the runqueue's sums, its
/// window aligned with the runqueue's (its sums recomputed from its averages
/// at the runqueue's divider).
pub fn attach_entity_load_avg(cfs: &mut CfsRqAvg, se: &mut SchedAvg, weight: u64) {
    let divider = pelt::pelt_divider(&cfs.avg);
    se.last_update_time = cfs.avg.last_update_time;
    se.period_contrib = cfs.avg.period_contrib;
    se.util_sum = (se.util_avg * divider) as u32;
    se.runnable_sum = se.runnable_avg * divider;
    se.load_sum = se.load_avg * divider;
    se.load_sum = if weight < se.load_sum { se.load_sum / weight } else { 1 };
    enqueue_load_avg(cfs, se, weight);
    cfs.avg.util_avg += se.util_avg;
    cfs.avg.util_sum += se.util_sum;
    cfs.avg.runnable_avg += se.runnable_avg;
    cfs.avg.runnable_sum += se.runnable_sum;
    add_tg_cfs_propagate(cfs, se.load_sum as i64);
}

/// `detach_entity_load_avg`: the entity's part leaves the runqueue's sums.
pub fn detach_entity_load_avg(cfs: &mut CfsRqAvg, se: &SchedAvg, weight: u64) {
    dequeue_load_avg(cfs, se, weight);
    let sa = &mut cfs.avg;
    sa.util_avg = sa.util_avg.saturating_sub(se.util_avg);
    sa.util_sum = sa.util_sum.saturating_sub(se.util_sum);
    sa.util_sum = sa.util_sum.max((sa.util_avg * PELT_MIN_DIVIDER) as u32);
    sa.runnable_avg = sa.runnable_avg.saturating_sub(se.runnable_avg);
    sa.runnable_sum = sa.runnable_sum.saturating_sub(se.runnable_sum);
    sa.runnable_sum = floor_sum(sa.runnable_sum, sa.runnable_avg);
    add_tg_cfs_propagate(cfs, -(se.load_sum as i64));
}

/// `update_tg_cfs_util`: the group entity takes its runqueue's util_avg, and
/// the parent runqueue the difference.
fn update_tg_cfs_util(cfs: &mut CfsRqAvg, se: &mut SchedAvg, gcfs: &CfsRqAvg) {
    let delta_avg = gcfs.avg.util_avg as i64 - se.util_avg as i64;
    if delta_avg == 0 {
        return;
    }
    let divider = pelt::pelt_divider(&cfs.avg);
    se.util_avg = gcfs.avg.util_avg;
    let new_sum = (se.util_avg * divider) as u32;
    let delta_sum = i64::from(new_sum) - i64::from(se.util_sum);
    se.util_sum = new_sum;
    add_positive(&mut cfs.avg.util_avg, delta_avg);
    let mut util_sum = u64::from(cfs.avg.util_sum);
    add_positive(&mut util_sum, delta_sum);
    cfs.avg.util_sum = (util_sum as u32).max((cfs.avg.util_avg * PELT_MIN_DIVIDER) as u32);
}

/// `update_tg_cfs_runnable`: likewise for runnable_avg.
fn update_tg_cfs_runnable(cfs: &mut CfsRqAvg, se: &mut SchedAvg, gcfs: &CfsRqAvg) {
    let delta_avg = gcfs.avg.runnable_avg as i64 - se.runnable_avg as i64;
    if delta_avg == 0 {
        return;
    }
    let divider = pelt::pelt_divider(&cfs.avg);
    se.runnable_avg = gcfs.avg.runnable_avg;
    let new_sum = se.runnable_avg * divider;
    let delta_sum = new_sum as i64 - se.runnable_sum as i64;
    se.runnable_sum = new_sum;
    add_positive(&mut cfs.avg.runnable_avg, delta_avg);
    add_positive(&mut cfs.avg.runnable_sum, delta_sum);
    cfs.avg.runnable_sum = floor_sum(cfs.avg.runnable_sum, cfs.avg.runnable_avg);
}

/// `update_tg_cfs_load`: the group entity's load_sum follows what was
/// attached (clipped at a full window) or detached below (estimated as if
/// the group's tasks were equally runnable), never below its running time.
fn update_tg_cfs_load(cfs: &mut CfsRqAvg, se: &mut SchedAvg, se_weight: u64, gcfs: &mut GroupRq<'_>) {
    let mut runnable_sum = gcfs.avg.prop_runnable_sum;
    if runnable_sum == 0 {
        return;
    }
    gcfs.avg.prop_runnable_sum = 0;
    let divider = pelt::pelt_divider(&cfs.avg);
    if runnable_sum >= 0 {
        runnable_sum = (runnable_sum + se.load_sum as i64).min(divider as i64);
    } else {
        let load_sum = gcfs.avg.avg.load_sum.checked_div(gcfs.weight).unwrap_or(0);
        runnable_sum = se.load_sum.min(load_sum) as i64;
    }
    let running_sum = i64::from(se.util_sum >> SCHED_CAPACITY_SHIFT);
    let runnable_sum = runnable_sum.max(running_sum) as u64;
    let load_sum = se_weight * runnable_sum;
    let load_avg = load_sum / divider;
    let delta_avg = load_avg as i64 - se.load_avg as i64;
    if delta_avg == 0 {
        return;
    }
    let delta_sum = load_sum as i64 - (se_weight * se.load_sum) as i64;
    se.load_sum = runnable_sum;
    se.load_avg = load_avg;
    add_positive(&mut cfs.avg.load_avg, delta_avg);
    add_positive(&mut cfs.avg.load_sum, delta_sum);
    cfs.avg.load_sum = floor_sum(cfs.avg.load_sum, cfs.avg.load_avg);
}

/// `propagate_entity_load_avg` for a group entity: what its runqueue has
/// pending reaches the entity and the runqueue it is queued on (and is
/// marked pending there, for the level above). True if anything was pending.
pub fn propagate_entity_load_avg(
    cfs: &mut CfsRqAvg,
    se: &mut SchedAvg,
    se_weight: u64,
    gcfs: &mut GroupRq<'_>,
) -> bool {
    if !gcfs.avg.propagate {
        return false;
    }
    gcfs.avg.propagate = false;
    add_tg_cfs_propagate(cfs, gcfs.avg.prop_runnable_sum);
    update_tg_cfs_util(cfs, se, gcfs.avg);
    update_tg_cfs_runnable(cfs, se, gcfs.avg);
    update_tg_cfs_load(cfs, se, se_weight, gcfs);
    true
}

/// `skip_blocked_update`: a blocked group entity with nothing left to decay
/// and nothing pending below needs no update.
pub fn skip_blocked_update(se: &SchedAvg, gcfs: &CfsRqAvg) -> bool {
    se.load_avg == 0 && se.util_avg == 0 && !gcfs.propagate
}

/// `update_load_avg` (fair.c 4852): the entity's signals and its runqueue's
/// brought to `now`, what is pending below propagated, and the entity
/// attached or detached as `flags` say. Returns whether the group's summed
/// load is now due an `update_tg_load_avg` of this runqueue.
pub fn update_load_avg(
    now: u64,
    cfs: &mut CfsRqAvg,
    rq: RqLoad,
    se: &mut SchedAvg,
    s: SeLoad,
    group: Option<GroupRq<'_>>,
    flags: u32,
) -> bool {
    if se.last_update_time != 0 && flags & SKIP_AGE_LOAD == 0 {
        pelt::update_se(now, se, s.on_rq, s.runnable, s.running, s.weight, true);
    }
    let mut decayed = update_cfs_rq_load_avg(now, cfs, rq);
    if let Some(mut g) = group {
        decayed |= propagate_entity_load_avg(cfs, se, s.weight, &mut g);
    }
    if se.last_update_time == 0 && flags & DO_ATTACH != 0 {
        // A task enqueued on a CPU other than the one it was last tracked on.
        attach_entity_load_avg(cfs, se, s.weight);
        true
    } else if flags & DO_DETACH != 0 {
        detach_entity_load_avg(cfs, se, s.weight);
        true
    } else {
        decayed && flags & UPDATE_TG != 0
    }
}

/// `update_tg_load_avg`: the runqueue's change of load since it last added
/// to its group's sum `tg_load_avg`, added if it is more than 1/64 of what
/// it added then; at most once a millisecond (`now`, ns), never for the root
/// group or an inactive CPU (the caller checks both).
pub fn update_tg_load_avg(cfs: &mut CfsRqAvg, tg_load_avg: &mut i64, now: u64) {
    if now.saturating_sub(cfs.last_update_tg_load_avg) < 1_000_000 {
        return;
    }
    let delta = cfs.avg.load_avg as i64 - cfs.tg_load_avg_contrib as i64;
    if delta.unsigned_abs() > cfs.tg_load_avg_contrib / 64 {
        *tg_load_avg += delta;
        cfs.tg_load_avg_contrib = cfs.avg.load_avg;
        cfs.last_update_tg_load_avg = now;
    }
}

/// `calc_group_shares`: the group's weight on this CPU, its shares in
/// proportion to this runqueue's load (the larger of its weight and its
/// load_avg) over the group's, the group's sum corrected by this
/// runqueue's current load; between MIN_SHARES and the group's shares.
pub fn calc_group_shares(tg_shares: u64, gcfs: &CfsRqAvg, gcfs_weight: u64, tg_load_avg: i64) -> u64 {
    let load = gcfs_weight.max(gcfs.avg.load_avg) as i64;
    let tg_weight = tg_load_avg - gcfs.tg_load_avg_contrib as i64 + load;
    let mut shares = tg_shares as i64 * load;
    if tg_weight != 0 {
        shares /= tg_weight;
    }
    shares.clamp(MIN_SHARES as i64, tg_shares as i64) as u64
}

/// `init_entity_runnable_average`: a task starts with its full weight as
/// load, to be seen as heavy until its signal settles; a group entity at 0.
pub fn init_entity_runnable_average(weight: u64, is_task: bool) -> SchedAvg {
    SchedAvg { load_avg: if is_task { weight } else { 0 }, ..SchedAvg::default() }
}

/// `post_init_entity_util_avg`: a new task's utilization is extrapolated
/// from its runqueue's (util per unit of load, times its weight), capped at
/// half of the CPU capacity the runqueue leaves unused; runnable follows.
pub fn post_init_entity_util_avg(cfs: &CfsRqAvg, se: &mut SchedAvg, weight: u64) {
    let cap = (SCHED_CAPACITY_SCALE as i64 - cfs.avg.util_avg as i64) / 2;
    if cap > 0 {
        let cap = cap as u64;
        se.util_avg =
            if cfs.avg.util_avg != 0 { (cfs.avg.util_avg * weight / (cfs.avg.load_avg + 1)).min(cap) } else { cap };
    }
    se.runnable_avg = se.util_avg;
}

/// `remove_entity_load_avg` after `sync_entity_load_avg`: a task leaving
/// for another CPU is aged to its runqueue's last update, and its signals
/// are queued for removal there.
pub fn remove_entity_load_avg(cfs: &mut CfsRqAvg, se: &mut SchedAvg, weight: u64) {
    pelt::update_blocked_se(cfs.avg.last_update_time, se, weight);
    cfs.removed.nr += 1;
    cfs.removed.util_avg += se.util_avg;
    cfs.removed.load_avg += se.load_avg;
    cfs.removed.runnable_avg += se.runnable_avg;
}

/// `load_avg_is_decayed`.
pub fn load_avg_is_decayed(sa: &SchedAvg) -> bool {
    sa.load_sum == 0 && sa.util_sum == 0 && sa.runnable_sum == 0
}

#[cfg(test)]
#[path = "load_avg_test.rs"]
mod load_avg_test;

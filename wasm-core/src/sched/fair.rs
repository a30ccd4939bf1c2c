//! CFS, the Linux 4.1 fair class, on one `CfsRq`: accounting (`update_curr`),
//! placement (`place_entity`), tick and wakeup preemption, and picking with
//! buddies. Each function follows the kernel function of the same name in
//! `kernel/sched/fair.c`; see shared/reference/kernel-model.md section 1.
//! The walk over a group hierarchy (enqueue_task_fair and friends) is in
//! `sim::fair::class`; everything here acts on one level.
//!
//! ```text
//!   wakeup ──► place_entity ──► enqueue ──► [tree] ──► pick ──► set_next (curr)
//!                                              ▲                   │
//!                                              └──── put_prev ◄────┘ (still runnable)
//! ```

use super::cfs_rq::CfsRq;
use super::eevdf;
use super::entity::{EntId, Ents, HasEntity, SchedEntity};
use super::identity::Identity;
use super::tunables::CfsTunables;
use super::weights::{calc_delta, inv_weight, NICE_0_LOAD};
use crate::time::SimTime;

/// How an entity arrives on a runqueue; decides its placement.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EnqueueKind {
    /// A new task (fork): placed after a debit of one vslice (START_DEBIT).
    New,
    /// A task (or a group becoming non-empty) waking: sleeper credit.
    Wakeup,
    /// A runnable task moved from another CPU; its vruntime was already
    /// renormalised against this queue's min_vruntime by the caller.
    Migrate,
    /// A task woken while still queued where it slept (`ENQUEUE_DELAYED`
    /// from `ttwu_runnable`): only a class that keeps sleepers queued
    /// (`SchedClass` contract, 6.12's DELAY_DEQUEUE) is ever handed it.
    Delayed,
}

/// How the fair class picks and places its entities, chosen once when the
/// run is built (the fair class holds it; no entity carries a mode).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FairStrategy {
    /// CFS as in Linux 4.1: leftmost vruntime with buddies, sleeper credit.
    Cfs,
    /// EEVDF (Linux 6.6+, `sched::eevdf`): earliest eligible virtual
    /// deadline, lag-preserving placement.
    Eevdf,
}

/// `calc_delta_fair`: wall time → virtual time for an entity.
pub fn calc_delta_fair(delta_ns: u64, se: &SchedEntity) -> u64 {
    if se.weight == NICE_0_LOAD {
        delta_ns
    } else {
        calc_delta(delta_ns, NICE_0_LOAD, se.inv_weight)
    }
}

/// `__sched_period`: the latency target, stretched once there are more than
/// nr_latency runnable entities so nobody gets less than min_granularity.
pub fn sched_period(nr_running: u64, t: &CfsTunables) -> u64 {
    if nr_running > t.nr_latency {
        nr_running * t.min_granularity_ns
    } else {
        t.latency_ns
    }
}

/// The share of one level: slice × w / W, W counting se if not yet queued.
pub fn level_share(slice: u64, cfs: &CfsRq, se: &SchedEntity) -> u64 {
    let load = cfs.load_weight + if se.on_rq { 0 } else { se.weight };
    if load == 0 {
        return slice;
    }
    calc_delta(slice, se.weight, inv_weight(load))
}

/// `sched_slice` on one level; the hierarchy walk multiplies the upper levels
/// in (`sim::fair::class`).
pub fn sched_slice(cfs: &CfsRq, se: &SchedEntity, t: &CfsTunables) -> u64 {
    let nr = cfs.nr_running as u64 + u64::from(!se.on_rq);
    level_share(sched_period(nr, t), cfs, se)
}

/// `update_min_vruntime`: min of curr and leftmost, but never backwards. As in
/// 4.1.15, curr counts even while it is being dequeued (it blocks: curr is
/// cleared only by put_prev_entity); the on_rq test came in later kernels.
/// Inlined into `update_curr` and its other callers: a few compares.
// Forced inline natively only: in the wasm the five forced inlines cost 4.3 KB gzipped (302.8 vs 298.5 KB).
#[cfg_attr(not(target_arch = "wasm32"), inline(always))]
pub fn update_min_vruntime(cfs: &mut CfsRq, ents: &Ents<impl HasEntity>) {
    let curr_v = cfs.curr.map(|e| ents.se(e).vruntime);
    let left_v = cfs.leftmost_vruntime();
    let candidate = match (curr_v, left_v) {
        (Some(c), Some(l)) => Some(c.min(l)),
        (c, l) => c.or(l),
    };
    if let Some(v) = candidate {
        cfs.min_vruntime = cfs.min_vruntime.max(v);
    }
}

/// `update_curr`: charges this level's running entity for the time since its
/// exec_start. Returns the wall-clock delta charged. Inlined: called at
/// every level of every enqueue, dequeue, pick and tick, it often returns
/// at once (no running entity, or no time passed), cheaper than the call.
// Forced inline natively only: in the wasm the five forced inlines cost 4.3 KB gzipped (302.8 vs 298.5 KB).
#[cfg_attr(not(target_arch = "wasm32"), inline(always))]
pub fn update_curr(cfs: &mut CfsRq, ents: &mut Ents<impl HasEntity>, now: SimTime, st: FairStrategy) -> u64 {
    let Some(id) = cfs.curr else { return 0 };
    let se = ents.se_mut(id);
    let delta = now.since(se.exec_start);
    if delta == 0 {
        return 0;
    }
    se.exec_start = now;
    se.sum_exec_runtime += delta;
    se.vruntime += calc_delta_fair(delta, se);
    if st == FairStrategy::Eevdf && eevdf::update_deadline(se) {
        cfs.deadline_passed = true;
    }
    update_min_vruntime(cfs, ents);
    delta
}

/// `place_entity`: a new task starts one vslice after min_vruntime (so
/// forking cannot be used to grab the CPU); a waking sleeper is credited up to
/// half a latency (GENTLE_FAIR_SLEEPERS) but never moved backwards.
/// `vslice` is the entity's whole-hierarchy slice in virtual time.
pub fn place_entity(cfs: &CfsRq, se: &mut SchedEntity, initial: bool, vslice: u64, t: &CfsTunables) {
    let mut v = cfs.min_vruntime;
    if initial && t.features.start_debit {
        v += vslice;
    }
    if !initial {
        let thresh = if t.features.gentle_fair_sleepers { t.latency_ns / 2 } else { t.latency_ns };
        v = v.saturating_sub(thresh);
    }
    se.vruntime = se.vruntime.max(v);
}

/// `enqueue_entity` on one level. A new task is placed one `debit` (its vslice)
/// after min_vruntime; a forked child comes with its vruntime made by
/// `task_fork_fair` (`debit` None) and is not placed again, as 4.1.15's
/// `wake_up_new_task` enqueues it without ENQUEUE_WAKEUP.
#[allow(clippy::too_many_arguments)]
pub fn enqueue_entity(
    cfs: &mut CfsRq,
    ents: &mut Ents<impl HasEntity>,
    id: EntId,
    kind: EnqueueKind,
    now: SimTime,
    debit: Option<u64>,
    t: &CfsTunables,
    st: FairStrategy,
) {
    update_curr(cfs, ents, now, st);
    let eevdf = st == FairStrategy::Eevdf;
    if eevdf {
        // EEVDF places every arrival (new, waking or migrated) by its lag.
        let mut se = ents.se(id).clone();
        eevdf::place_entity(cfs, ents, &mut se, kind == EnqueueKind::New);
        let target = ents.se_mut(id);
        target.vruntime = se.vruntime;
        target.deadline = se.deadline;
    }
    let se = ents.se_mut(id);
    // The load-tracking side (`enqueue_entity_load_avg`, a new task's
    // `init_task_runnable_average`) is done by the caller before this
    // (`sim::fair::load`), as it needs the group above.
    match kind {
        EnqueueKind::New if !eevdf => {
            if let Some(vslice) = debit {
                place_entity(cfs, se, true, vslice, t);
            }
        }
        EnqueueKind::Wakeup if !eevdf => place_entity(cfs, se, false, 0, t),
        _ => {}
    }
    if cfs.curr != Some(id) {
        cfs.tree_insert(se.vruntime, id, se.identity);
    }
    se.on_rq = true;
    cfs.nr_running += 1;
    cfs.load_weight += se.weight;
}

pub fn dequeue_entity(cfs: &mut CfsRq, ents: &mut Ents<impl HasEntity>, id: EntId, now: SimTime, st: FairStrategy) {
    update_curr(cfs, ents, now, st);
    cfs.clear_buddies_of(id);
    if st == FairStrategy::Eevdf {
        ents.se_mut(id).vlag = eevdf::update_entity_lag(cfs, ents, id);
    }
    // `dequeue_entity_load_avg` is the caller's (`sim::fair::load`), done before this.
    let se = ents.se_mut(id);
    if cfs.curr != Some(id) {
        cfs.tree_remove(se.vruntime, id, se.identity);
    }
    se.on_rq = false;
    cfs.nr_running -= 1;
    cfs.load_weight -= se.weight;
    update_min_vruntime(cfs, ents);
}

/// `reweight_entity`: a queued entity's weight changes (group shares moved).
pub fn reweight_entity(cfs: &mut CfsRq, se: &mut SchedEntity, weight: u64) {
    if se.on_rq {
        cfs.load_weight -= se.weight;
    }
    se.set_weight(weight);
    if se.on_rq {
        cfs.load_weight += se.weight;
    }
}

/// `set_next_entity`: the picked entity leaves the tree and becomes curr.
pub fn set_next_entity(cfs: &mut CfsRq, ents: &mut Ents<impl HasEntity>, id: EntId, now: SimTime) {
    let se = ents.se_mut(id);
    cfs.tree_remove(se.vruntime, id, se.identity);
    se.exec_start = now;
    se.prev_sum_exec_runtime = se.sum_exec_runtime;
    cfs.curr = Some(id);
    cfs.deadline_passed = false;
}

/// `put_prev_entity`: curr stops running; if still runnable it goes back
/// into the tree at its (updated) vruntime.
pub fn put_prev_entity(cfs: &mut CfsRq, ents: &mut Ents<impl HasEntity>, id: EntId, now: SimTime, st: FairStrategy) {
    update_curr(cfs, ents, now, st);
    let se = ents.se_mut(id);
    if se.on_rq {
        cfs.tree_insert(se.vruntime, id, se.identity);
    }
    cfs.curr = None;
}

/// `wakeup_preempt_entity`: −1 if `se` is not ahead of `curr`, +1 if it is
/// ahead by more than the wakeup granularity (converted with se's weight),
/// 0 in between.
pub fn wakeup_preempt_entity(curr: &SchedEntity, se: &SchedEntity, t: &CfsTunables) -> i32 {
    let vdiff = curr.vruntime as i64 - se.vruntime as i64;
    if vdiff <= 0 {
        return -1;
    }
    let gran = calc_delta_fair(t.wakeup_granularity_ns, se) as i64;
    if vdiff > gran {
        1
    } else {
        0
    }
}

/// What `check_preempt_tick` found at one level.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TickVerdict {
    Keep,
    Resched,
    /// curr ran past its slice: rescheduled, and its buddies are to be
    /// cleared through the hierarchy (`clear_buddies`), which the caller,
    /// holding every level, does.
    SliceUsed,
}

/// `check_preempt_tick` on one level, with `ideal` the entity's slice.
pub fn check_preempt_tick(
    cfs: &mut CfsRq,
    ents: &Ents<impl HasEntity>,
    ideal: u64,
    t: &CfsTunables,
    st: FairStrategy,
) -> TickVerdict {
    let resched = |yes: bool| if yes { TickVerdict::Resched } else { TickVerdict::Keep };
    let Some(id) = cfs.curr else { return TickVerdict::Keep };
    let curr = ents.se(id);
    if st == FairStrategy::Eevdf {
        // EEVDF: reschedule once curr's deadline has passed (a new one is set).
        return resched(std::mem::take(&mut cfs.deadline_passed));
    }
    if curr.identity == Identity::Underclass && !cfs.tree.is_empty() {
        // Group Identity: underclass runs only while nothing else can.
        return TickVerdict::Resched;
    }
    let ran = curr.sum_exec_runtime - curr.prev_sum_exec_runtime;
    if ran > ideal {
        return TickVerdict::SliceUsed;
    }
    if ran < t.min_granularity_ns {
        return TickVerdict::Keep;
    }
    let Some(((left_v, _), _)) = cfs.tree.first() else { return TickVerdict::Keep };
    let delta = curr.vruntime as i64 - left_v as i64;
    // The kernel compares a virtual-time difference with a wall-clock slice
    // here; we keep that quirk.
    resched(delta > 0 && delta as u64 > ideal)
}

/// `pick_next_entity` (with curr already put back in the tree): leftmost,
/// unless a buddy is close enough to it that cache warmth is worth more.
/// With Group Identity: a highclass wakee that preempted goes first, and the
/// underclass tree is looked at only when the normal one is empty and
/// `allow_under` (no SMT expeller runs on a sibling).
pub fn pick_next_entity(
    cfs: &mut CfsRq,
    ents: &Ents<impl HasEntity>,
    t: &CfsTunables,
    allow_under: bool,
    st: FairStrategy,
) -> Option<EntId> {
    if let Some(id) = cfs.id_preempt.take() {
        if ents.se(id).on_rq && cfs.curr != Some(id) {
            cfs.clear_buddies_of(id);
            return Some(id);
        }
    }
    if cfs.tree.is_empty() {
        let (_, id) = if allow_under { cfs.under.first()? } else { return None };
        cfs.clear_buddies_of(id);
        return Some(id);
    }
    let (left_key, left) = cfs.tree.first()?;
    if st == FairStrategy::Eevdf {
        // EEVDF: only a next buddy that is eligible (NEXT_BUDDY), else pick_eevdf.
        let next = cfs.next.filter(|&n| t.features.next_buddy && eevdf::entity_eligible(cfs, ents, ents.se(n)));
        let pick = next.or_else(|| eevdf::pick_eevdf(cfs, ents, false))?;
        cfs.clear_buddies_of(pick);
        return Some(pick);
    }
    let mut pick = left;
    if cfs.skip == Some(pick) {
        if let Some((_, second)) = cfs.tree.next_after(left_key) {
            if wakeup_preempt_entity(ents.se(second), ents.se(left), t) < 1 {
                pick = second;
            }
        }
    }
    if let Some(last) = cfs.last.filter(|&e| ents.se(e).identity != Identity::Underclass) {
        if ents.se(last).on_rq && wakeup_preempt_entity(ents.se(last), ents.se(left), t) < 1 {
            pick = last;
        }
    }
    if let Some(next) = cfs.next.filter(|&e| ents.se(e).identity != Identity::Underclass) {
        if ents.se(next).on_rq && wakeup_preempt_entity(ents.se(next), ents.se(left), t) < 1 {
            pick = next;
        }
    }
    cfs.clear_buddies_of(pick);
    Some(pick)
}

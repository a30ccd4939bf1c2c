//! EEVDF on one runqueue as Debian's Linux 6.12.117 computes it (fair.c):
//! the weighted average vruntime kept incrementally around `zero_vruntime`
//! (a stable backport that replaced `min_vruntime` there), eligibility,
//! lag and its clamp, virtual deadlines, the pick through a deadline-ordered
//! queue, RUN_TO_PARITY's protected slice, and lag-preserving placement.
//!
//! The kernel keeps the queued entities (not the running one) in an rbtree
//! ordered by deadline and augmented with each subtree's least vruntime, so
//! that `pick_eevdf` finds the earliest-deadline eligible entity in O(log n).
//! The model keeps the same order in a vector and scans it: the first
//! eligible entity in deadline order is the one the heap search returns
//! (equal deadlines keep their insertion order, as `rb_add_cached` puts an
//! equal key after the others).
//!
//! ```text
//!   V = zero_vruntime + Σ (v_i − zero_vruntime)·w_i / Σ w_i     (avg_vruntime, curr included)
//!   eligible(v) ⇔ Σ (v_i − zero)·w_i ≥ (v − zero)·Σ w_i          (vruntime_eligible)
//!   vlag = clamp(V − v, ±calc_delta_fair(max(2·slice, TICK_NSEC)))  (entity_lag)
//!   deadline = v + calc_delta_fair(slice)                          (update_deadline, place_entity)
//! ```
//!
//! Weights here are scaled down (`scale_load_down`: nice 0 = 1024).

use crate::sched::weights::NICE_0_LOAD;

/// `WMULT_CONST`: 2^32 − 1, the inverse weights' numerator.
pub const WMULT_CONST: u64 = 0xffff_ffff;
/// `WMULT_SHIFT`.
pub const WMULT_SHIFT: u32 = 32;

/// The fields of `struct sched_entity` EEVDF reads and writes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Entity {
    pub vruntime: u64,
    pub deadline: u64,
    /// The saved lag; while picked with a protected slice, a copy of the deadline (`set_protect_slice`).
    pub vlag: i64,
    /// The request size in ns (`sysctl_sched_base_slice` unless custom).
    pub slice: u64,
    pub custom_slice: bool,
    /// The deadline is kept relative to vruntime across a dequeue (`PLACE_REL_DEADLINE`).
    pub rel_deadline: bool,
    /// `scale_load_down(load.weight)`.
    pub weight: u64,
    /// `load.inv_weight`: a task's from `sched_prio_to_wmult`, 0 until computed for a group's.
    pub inv_weight: u64,
    pub on_rq: bool,
    /// Asleep but still queued until it is eligible again (DELAY_DEQUEUE, `delay_dequeue.rs`).
    pub sched_delayed: bool,
}

/// The EEVDF state of one `struct cfs_rq`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EevdfRq {
    pub zero_vruntime: u64,
    /// Σ (v_i − zero_vruntime)·w_i over the queued entities, the running one excluded.
    pub avg_vruntime: i64,
    /// Σ w_i over the same.
    pub avg_load: i64,
    /// Queued entities, the running one included (`cfs_rq->nr_running`).
    pub nr_running: u32,
    /// The running entity (out of `timeline`, as `set_next_entity` takes it out of the tree).
    pub curr: Option<usize>,
    /// The queued entities but the running one, in deadline order.
    pub timeline: Vec<usize>,
}

/// Which of 6.12's placement, pick and dequeue features are on (all are in its defaults, features.h).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Features {
    pub place_lag: bool,
    pub place_deadline_initial: bool,
    pub place_rel_deadline: bool,
    pub run_to_parity: bool,
    pub delay_dequeue: bool,
    pub delay_zero: bool,
}

impl Default for Features {
    fn default() -> Self {
        Features {
            place_lag: true,
            place_deadline_initial: true,
            place_rel_deadline: true,
            run_to_parity: true,
            delay_dequeue: true,
            delay_zero: true,
        }
    }
}

/// `mul_u64_u32_shr`: (a · mul) >> shift without losing the product's top bits (shift ≤ 32).
fn mul_u64_u32_shr(a: u64, mul: u32, shift: u32) -> u64 {
    let (lo, hi) = (a & 0xffff_ffff, a >> 32);
    let low = (lo * u64::from(mul)) >> shift;
    if hi == 0 {
        return low;
    }
    low + ((hi * u64::from(mul)) << (32 - shift))
}

/// `fls`: the position of the highest set bit, 1-based (0 for 0).
fn fls(x: u32) -> u32 {
    32 - x.leading_zeros()
}

/// `__update_inv_weight`: the inverse of a weight, when not tabulated.
pub fn inv_weight_of(weight: u64) -> u64 {
    if weight >= WMULT_CONST {
        1
    } else {
        // A weight of 0 takes the whole constant.
        WMULT_CONST.checked_div(weight).unwrap_or(WMULT_CONST)
    }
}

/// `__calc_delta`: delta · weight / lw_weight through the inverse weight in
/// 32.32 fixed point, shifting the factor down to 32 bits as the kernel does.
pub fn calc_delta(delta: u64, weight: u64, lw_weight: u64, lw_inv_weight: u64) -> u64 {
    let inv = if lw_inv_weight == 0 { inv_weight_of(lw_weight) } else { lw_inv_weight };
    let mut fact = weight;
    let mut shift = WMULT_SHIFT;
    let fact_hi = (fact >> 32) as u32;
    if fact_hi != 0 {
        let fs = fls(fact_hi);
        shift -= fs;
        fact >>= fs;
    }
    fact = (fact & 0xffff_ffff) * inv;
    let fact_hi = (fact >> 32) as u32;
    if fact_hi != 0 {
        let fs = fls(fact_hi);
        shift -= fs;
        fact >>= fs;
    }
    mul_u64_u32_shr(delta, fact as u32, shift)
}

/// `calc_delta_fair`: ns of run time as vruntime of `se` (delta · 1024 / w).
pub fn calc_delta_fair(delta: u64, se: &Entity) -> u64 {
    if se.weight == NICE_0_LOAD {
        delta
    } else {
        calc_delta(delta, NICE_0_LOAD, se.weight, se.inv_weight)
    }
}

/// `entity_key`: vruntime relative to the runqueue's zero.
fn entity_key(rq: &EevdfRq, se: &Entity) -> i64 {
    se.vruntime.wrapping_sub(rq.zero_vruntime) as i64
}

/// The running entity, if it is still queued.
fn queued_curr<'e>(rq: &EevdfRq, ents: &'e [Entity]) -> Option<&'e Entity> {
    rq.curr.map(|c| &ents[c]).filter(|c| c.on_rq)
}

/// `avg_vruntime`: V, with the zero moved onto it (its sums re-based).
/// Floors toward −∞ so that V itself is always eligible.
pub fn avg_vruntime(rq: &mut EevdfRq, ents: &[Entity]) -> u64 {
    let curr = queued_curr(rq, ents);
    let mut weight = rq.avg_load;
    let delta = if weight != 0 {
        let mut runtime = rq.avg_vruntime;
        if let Some(c) = curr {
            runtime += entity_key(rq, c) * c.weight as i64;
            weight += c.weight as i64;
        }
        if runtime < 0 {
            runtime -= weight - 1;
        }
        runtime / weight
    } else if let Some(c) = curr {
        // One entity: it is the average.
        c.vruntime.wrapping_sub(rq.zero_vruntime) as i64
    } else {
        0
    };
    // update_zero_vruntime: v' = v + d, so the sum loses d per unit of load.
    rq.avg_vruntime -= rq.avg_load * delta;
    rq.zero_vruntime = rq.zero_vruntime.wrapping_add(delta as u64);
    rq.zero_vruntime
}

/// `vruntime_eligible`: whether an entity at `vruntime` is owed service (V ≥ v), without dividing.
pub fn vruntime_eligible(rq: &EevdfRq, ents: &[Entity], vruntime: u64) -> bool {
    let (mut avg, mut load) = (rq.avg_vruntime, rq.avg_load);
    if let Some(c) = queued_curr(rq, ents) {
        avg += entity_key(rq, c) * c.weight as i64;
        load += c.weight as i64;
    }
    avg >= (vruntime.wrapping_sub(rq.zero_vruntime) as i64) * load
}

/// `entity_eligible`.
pub fn entity_eligible(rq: &EevdfRq, ents: &[Entity], id: usize) -> bool {
    vruntime_eligible(rq, ents, ents[id].vruntime)
}

/// `entity_lag`: V − v, clamped to the vruntime worth of two slices (one tick at least).
pub fn entity_lag(avruntime: u64, se: &Entity, tick_nsec: u64) -> i64 {
    let vlag = avruntime.wrapping_sub(se.vruntime) as i64;
    let limit = calc_delta_fair((2 * se.slice).max(tick_nsec), se) as i64;
    vlag.clamp(-limit, limit)
}

/// `update_entity_lag`: the lag saved as a queued entity leaves.
pub fn update_entity_lag(rq: &mut EevdfRq, ents: &mut [Entity], id: usize, tick_nsec: u64) {
    let v = avg_vruntime(rq, ents);
    ents[id].vlag = entity_lag(v, &ents[id], tick_nsec);
}

/// `__enqueue_entity`: into the sums and the deadline order (after equal deadlines).
pub fn enqueue_timeline(rq: &mut EevdfRq, ents: &[Entity], id: usize) {
    debug_assert!(!rq.timeline.contains(&id), "enqueue of {id}, already in the timeline");
    let se = &ents[id];
    rq.avg_vruntime += entity_key(rq, se) * se.weight as i64;
    rq.avg_load += se.weight as i64;
    let at = rq.timeline.partition_point(|&o| (ents[o].deadline.wrapping_sub(se.deadline) as i64) <= 0);
    rq.timeline.insert(at, id);
}

/// `__dequeue_entity`: out of the deadline order and the sums.
pub fn dequeue_timeline(rq: &mut EevdfRq, ents: &[Entity], id: usize) {
    debug_assert!(rq.timeline.contains(&id), "dequeue of {id}, not in the timeline");
    rq.timeline.retain(|&o| o != id);
    let se = &ents[id];
    rq.avg_vruntime -= entity_key(rq, se) * se.weight as i64;
    rq.avg_load -= se.weight as i64;
}

/// `set_protect_slice`: the deadline at the pick, stashed in vlag (unused until dequeue).
pub fn set_protect_slice(se: &mut Entity) {
    se.vlag = se.deadline as i64;
}

/// `protect_slice`: whether the running entity is still in the slice it was picked for.
pub fn protect_slice(se: &Entity) -> bool {
    se.vlag == se.deadline as i64
}

/// `pick_eevdf`: the eligible entity with the earliest deadline, the running
/// one included; under RUN_TO_PARITY an eligible running entity keeps the CPU
/// until its protected slice ends.
pub fn pick_eevdf(rq: &EevdfRq, ents: &[Entity], features: Features) -> Option<usize> {
    let first = rq.timeline.first().copied();
    if rq.nr_running == 1 {
        return rq.curr.filter(|&c| ents[c].on_rq).or(first);
    }
    let curr = rq.curr.filter(|&c| ents[c].on_rq && entity_eligible(rq, ents, c));
    if let Some(c) = curr.filter(|&c| features.run_to_parity && protect_slice(&ents[c])) {
        return Some(c);
    }
    let best = rq.timeline.iter().copied().find(|&id| entity_eligible(rq, ents, id));
    match (best, curr) {
        (None, c) => c,
        (Some(b), Some(c)) if (ents[c].deadline.wrapping_sub(ents[b].deadline) as i64) < 0 => Some(c),
        (b, _) => b,
    }
}

/// `update_deadline`: a request used up (vruntime past the deadline) gets the
/// next one; true if so (the running entity is then rescheduled).
pub fn update_deadline(rq: &mut EevdfRq, ents: &mut [Entity], id: usize, base_slice: u64) -> bool {
    let se = &mut ents[id];
    if (se.vruntime.wrapping_sub(se.deadline) as i64) < 0 {
        return false;
    }
    if !se.custom_slice {
        se.slice = base_slice;
    }
    se.deadline = se.vruntime + calc_delta_fair(se.slice, se);
    avg_vruntime(rq, ents);
    true
}

/// `place_entity`: an arriving entity's vruntime from V and its saved lag —
/// inflated by (W + w)/W so that the lag survives its own arrival in the
/// average (PLACE_LAG) — and its deadline: the relative one it left with
/// (PLACE_REL_DEADLINE), else a slice ahead, half a slice for a new task
/// (PLACE_DEADLINE_INITIAL).
pub fn place_entity(
    rq: &mut EevdfRq,
    ents: &mut [Entity],
    id: usize,
    initial: bool,
    base_slice: u64,
    features: Features,
) {
    let v = avg_vruntime(rq, ents);
    let mut lag = 0i64;
    {
        let se = &mut ents[id];
        if !se.custom_slice {
            se.slice = base_slice;
        }
    }
    if features.place_lag && rq.nr_running > 0 {
        let mut load = rq.avg_load;
        if let Some(c) = queued_curr(rq, ents) {
            load += c.weight as i64;
        }
        lag = ents[id].vlag * (load + ents[id].weight as i64);
        // The kernel warns and divides by 1 (an empty average with entities queued cannot happen).
        lag /= load.max(1);
    }
    let se = &mut ents[id];
    se.vruntime = v.wrapping_sub(lag as u64);
    if features.place_rel_deadline && se.rel_deadline {
        se.deadline = se.deadline.wrapping_add(se.vruntime);
        se.rel_deadline = false;
        return;
    }
    let mut vslice = calc_delta_fair(se.slice, se);
    if features.place_deadline_initial && initial {
        vslice /= 2;
    }
    se.deadline = se.vruntime + vslice;
}

/// `reweight_eevdf`: a queued entity changes weight from `se.weight` to
/// `weight` without moving V: its lag (clamped at the old weight) and its
/// deadline's distance from V are scaled by w/w'.
pub fn reweight_eevdf(se: &mut Entity, avruntime: u64, weight: u64, tick_nsec: u64) {
    let old = se.weight as i64;
    if avruntime != se.vruntime {
        let vlag = entity_lag(avruntime, se, tick_nsec) * old / weight as i64;
        se.vruntime = avruntime.wrapping_sub(vlag as u64);
    }
    let vslice = se.deadline.wrapping_sub(avruntime) as i64 * old / weight as i64;
    se.deadline = avruntime.wrapping_add(vslice as u64);
}

/// The EEVDF part of `reweight_entity`: a queued entity leaves the sums (and
/// the order, unless it runs), is reweighted at V and comes back; one that is
/// not queued has its saved lag scaled (vlag keeps V − v, not w·(V − v)).
/// `inv_weight` is the new inverse: a task's from `sched_prio_to_wmult`
/// (`reweight_task_fair`), 0 for a group's (computed when first needed).
/// The caller has charged the running entity first (`update_curr`).
pub fn reweight_entity(rq: &mut EevdfRq, ents: &mut [Entity], id: usize, weight: u64, inv_weight: u64, tick_nsec: u64) {
    let curr = rq.curr == Some(id);
    if ents[id].on_rq {
        let v = avg_vruntime(rq, ents);
        if !curr {
            dequeue_timeline(rq, ents, id);
        }
        reweight_eevdf(&mut ents[id], v, weight, tick_nsec);
    } else {
        let se = &mut ents[id];
        se.vlag = se.vlag * se.weight as i64 / weight as i64;
    }
    ents[id].weight = weight;
    ents[id].inv_weight = inv_weight;
    if ents[id].on_rq && !curr {
        enqueue_timeline(rq, ents, id);
    }
}

#[cfg(test)]
#[path = "eevdf_test.rs"]
mod eevdf_test;

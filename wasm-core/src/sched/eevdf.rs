//! EEVDF, the fair class of Linux 6.6+ (kernel-model.md 1.8): the same
//! runqueue and vruntime accounting as CFS, but
//!
//! * **eligibility**: an entity may run only if its lag V − v is ≥ 0, V being
//!   the load-weighted average vruntime of the queue including curr
//!   (`avg_vruntime`);
//! * **virtual deadline**: deadline = vruntime + slice converted to virtual
//!   time; the pick is the eligible entity with the earliest deadline
//!   (`pick_eevdf`), found here by scanning the tree in vruntime order —
//!   eligibility holds for a prefix of that order, which is what the
//!   kernel's augmented tree exploits;
//! * **slice**: `base_slice` (0.75 ms × the CPU-count factor, the renamed
//!   min_granularity) or a per-task custom slice (6.12's sched_setattr);
//! * **lag-preserving placement**: the lag saved at dequeue (clamped) is
//!   restored at enqueue, v = V − vlag·(W + w)/W (PLACE_LAG); a new task
//!   starts with half a virtual slice to its deadline (PLACE_DEADLINE_INITIAL).
//!
//! The fair class runs these when its strategy is `FairStrategy::Eevdf`
//! (chosen once for the run); `slice` is then every entity's request size.
//! Not modelled: RUN_TO_PARITY, PREEMPT_SHORT, DELAY_DEQUEUE, and the lag
//! correction when a queued entity is reweighted (`reweight_eevdf`).

use super::cfs_rq::CfsRq;
use super::entity::{EntId, Ents, HasEntity, SchedEntity};
use super::fair::calc_delta_fair;
use crate::rbtree::RbTree;

/// One tick at HZ = 1000, the floor of the lag clamp (TICK_NSEC) [our reading
/// for other HZ values: the kernel uses the configured tick].
pub const TICK_NSEC_FLOOR: u64 = 1_000_000;

/// Visits a tree in vruntime order while `f` returns true (no allocation).
fn walk(tree: &RbTree<(u64, EntId), EntId>, mut f: impl FnMut(EntId) -> bool) {
    let mut at = tree.first();
    while let Some((key, id)) = at {
        if !f(id) {
            return;
        }
        at = tree.next_after(key);
    }
}

/// (Σ (v − min_vruntime)·w, Σ w) over the queued entities, curr included.
fn weighted_sums(cfs: &CfsRq, ents: &Ents<impl HasEntity>) -> (i128, i128) {
    let base = cfs.min_vruntime as i128;
    let mut sum = 0i128;
    let mut load = 0i128;
    let mut add = |se: &SchedEntity| {
        sum += (se.vruntime as i128 - base) * se.weight as i128;
        load += se.weight as i128;
    };
    for tree in [&cfs.tree, &cfs.under] {
        walk(tree, |id| {
            add(ents.se(id));
            true
        });
    }
    if let Some(c) = cfs.curr.filter(|&c| ents.se(c).on_rq) {
        add(ents.se(c));
    }
    (sum, load)
}

/// `avg_vruntime`: V, the zero-lag point of the queue.
pub fn avg_vruntime(cfs: &CfsRq, ents: &Ents<impl HasEntity>) -> u64 {
    let (sum, load) = weighted_sums(cfs, ents);
    if load == 0 {
        return cfs.min_vruntime;
    }
    (cfs.min_vruntime as i128 + sum.div_euclid(load)).max(0) as u64
}

/// `entity_eligible`: v ≤ V, compared without dividing (as the kernel does).
pub fn entity_eligible(cfs: &CfsRq, ents: &Ents<impl HasEntity>, se: &SchedEntity) -> bool {
    let (sum, load) = weighted_sums(cfs, ents);
    sum >= (se.vruntime as i128 - cfs.min_vruntime as i128) * load
}

/// The entity's slice in its own virtual time.
pub fn vslice(se: &SchedEntity) -> u64 {
    calc_delta_fair(se.slice, se)
}

/// `update_entity_lag` at dequeue: vlag = V − v, clamped to
/// ±calc_delta_fair(max(2·slice, TICK_NSEC)).
pub fn update_entity_lag(cfs: &CfsRq, ents: &Ents<impl HasEntity>, id: EntId) -> i64 {
    let se = ents.se(id);
    let v_avg = avg_vruntime(cfs, ents) as i64;
    let limit = calc_delta_fair((2 * se.slice).max(TICK_NSEC_FLOOR), se) as i64;
    (v_avg - se.vruntime as i64).clamp(-limit, limit)
}

/// `place_entity` (PLACE_LAG, PLACE_DEADLINE_INITIAL): called before `se`
/// is added to the queue's sums.
pub fn place_entity(cfs: &CfsRq, ents: &Ents<impl HasEntity>, se: &mut SchedEntity, initial: bool) {
    let v_avg = avg_vruntime(cfs, ents) as i128;
    let mut lag = 0i128;
    if cfs.nr_running > 0 {
        // Inflate the lag so that, once se's own weight joins the average,
        // its lag is the one it left with: v = V − vlag·(W + w)/W.
        let (_, load) = weighted_sums(cfs, ents);
        lag = se.vlag as i128;
        if load > 0 {
            lag = lag * (load + se.weight as i128) / load;
        }
    }
    se.vruntime = (v_avg - lag).max(0) as u64;
    let mut vs = vslice(se);
    if initial {
        vs /= 2;
    }
    se.deadline = se.vruntime + vs;
}

/// `update_deadline`, from update_curr: once curr reaches its deadline it
/// gets a new one a slice further; true = it did (a resched is due if others
/// are queued).
pub fn update_deadline(se: &mut SchedEntity) -> bool {
    if se.vruntime < se.deadline {
        return false;
    }
    se.deadline = se.vruntime + vslice(se);
    true
}

/// `pick_eevdf`: the eligible entity with the earliest deadline, among the
/// tree and (when `with_curr`) the running entity. Ties on deadline go to
/// the smaller vruntime (tree order), then to curr.
pub fn pick_eevdf(cfs: &CfsRq, ents: &Ents<impl HasEntity>, with_curr: bool) -> Option<EntId> {
    let (sum, load) = weighted_sums(cfs, ents);
    let eligible = |se: &SchedEntity| sum >= (se.vruntime as i128 - cfs.min_vruntime as i128) * load;
    let mut best: Option<(u64, EntId)> = None;
    walk(&cfs.tree, |id| {
        let se = ents.se(id);
        if !eligible(se) {
            return false;
        }
        if best.is_none_or(|(d, _)| se.deadline < d) {
            best = Some((se.deadline, id));
        }
        true
    });
    if with_curr {
        if let Some(c) = cfs.curr.filter(|&c| ents.se(c).on_rq) {
            let se = ents.se(c);
            if eligible(se) && best.is_none_or(|(d, _)| se.deadline < d) {
                best = Some((se.deadline, c));
            }
        }
    }
    // Nothing eligible cannot happen for a non-empty queue (the leftmost is
    // always at or below the average); fall back to the leftmost anyway.
    best.map(|(_, id)| id).or_else(|| cfs.tree.first().map(|(_, id)| id))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Tasks 0..n at nice 0 with the given (vruntime, deadline), all queued
    /// in the tree (no curr), with the EEVDF base slice of 0.75 ms.
    fn queue(entries: &[(u64, u64)]) -> (CfsRq, Vec<SchedEntity>) {
        let mut cfs = CfsRq::new(0);
        let mut tasks = Vec::new();
        for (i, &(v, d)) in entries.iter().enumerate() {
            let mut se = SchedEntity::for_nice(0);
            se.vruntime = v;
            se.deadline = d;
            se.slice = 750_000;
            se.on_rq = true;
            cfs.tree.insert((v, EntId(i as u32)), EntId(i as u32));
            cfs.nr_running += 1;
            cfs.load_weight += se.weight;
            tasks.push(se);
        }
        cfs.min_vruntime = entries.iter().map(|e| e.0).min().unwrap_or(0);
        (cfs, tasks)
    }

    /// V is the weighted mean; eligibility is v ≤ V.
    #[test]
    fn eligibility_is_non_negative_lag() {
        let (cfs, mut tasks) = queue(&[(1_000, 0), (2_000, 0), (6_000, 0)]);
        let ents = Ents { tasks: &mut tasks, groups: &mut [] };
        assert_eq!(avg_vruntime(&cfs, &ents), 3_000);
        assert!(entity_eligible(&cfs, &ents, ents.se(EntId(1))));
        assert!(!entity_eligible(&cfs, &ents, ents.se(EntId(2))));
    }

    /// The earliest deadline wins among eligible entities only: task 2 has
    /// the earliest deadline but is ahead of V.
    #[test]
    fn pick_is_earliest_eligible_deadline() {
        let (cfs, mut tasks) = queue(&[(1_000, 9_000), (2_000, 5_000), (6_000, 1_000)]);
        let ents = Ents { tasks: &mut tasks, groups: &mut [] };
        assert_eq!(pick_eevdf(&cfs, &ents, false), Some(EntId(1)));
    }

    /// PLACE_LAG: once the placed entity joins the queue, its lag V − v is
    /// the vlag it left with, and its deadline is one virtual slice later
    /// (half a slice for a new task).
    #[test]
    fn placement_preserves_lag() {
        let (mut cfs, mut tasks) = queue(&[(10_000, 0), (20_000, 0), (0, 0)]);
        // Task 2 is the one arriving: take it out of the queue first.
        cfs.tree.remove((0, EntId(2)));
        cfs.nr_running -= 1;
        cfs.load_weight -= 1024;
        tasks[2].on_rq = false;
        tasks[2].vlag = 3_000;
        let mut se = tasks[2].clone();
        {
            let ents = Ents { tasks: &mut tasks, groups: &mut [] };
            place_entity(&cfs, &ents, &mut se, false);
        }
        assert_eq!(se.deadline, se.vruntime + 750_000);
        tasks[2] = se.clone();
        tasks[2].on_rq = true;
        cfs.tree.insert((se.vruntime, EntId(2)), EntId(2));
        let ents = Ents { tasks: &mut tasks, groups: &mut [] };
        let lag = avg_vruntime(&cfs, &ents) as i64 - se.vruntime as i64;
        assert!((lag - 3_000).abs() <= 1, "lag after placement {lag}");
        let mut fresh = ents.se(EntId(0)).clone();
        place_entity(&cfs, &ents, &mut fresh, true);
        assert_eq!(fresh.deadline - fresh.vruntime, 375_000);
    }
}

//! What the runqueue view reads of 6.12's EEVDF queues: each queued entity's
//! vruntime, deadline, lag and eligibility, the running entity (kept out of
//! the queue) with its slice, each queue's zero-lag point and the entity the
//! next pick would take. A read of `State612` through `eevdf.rs`'s own
//! functions, so the view cannot disagree with the walk; nothing is stored
//! and nothing here is serialized (`api::views::eevdf` is the edge).
//!
//! ```text
//!   rqs[tg·n + cpu] ──► EevdfQueue { V, zero, min_vruntime, curr, queued (deadline order), pick }
//!                          V    = avg_vruntime on a copy (it re-bases the zero it reads)
//!                          lag  = entity_lag(V, se)           eligible = entity_eligible(rq, se)
//!                          pick = the next buddy if eligible, else pick_eevdf (pick::next_pick)
//! ```

use super::eevdf::{self, Entity};
use super::state::State612;
use crate::sched::entity::EntId;
use crate::time::CpuId;

/// One entity of an EEVDF queue as the view draws it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QueuedEntity {
    pub id: EntId,
    pub vruntime: u64,
    /// Its virtual deadline: vruntime + the slice in vruntime (`update_deadline`, fair.c 1022–1045).
    pub deadline: u64,
    /// Its request, ns of run time (`se->slice`).
    pub slice: u64,
    /// `scale_load_down(load.weight)`.
    pub weight: u64,
    /// V − vruntime, clamped as `entity_lag` clamps it (fair.c 729–737): what
    /// `update_entity_lag` (fair.c 739–744) would save were it to leave now.
    /// The kernel's lag in service is w·(V − v) (fair.c 712–728); this is it per unit of weight.
    pub vlag: i64,
    /// `entity_eligible` (fair.c 763–782): owed service, V ≥ v, without the division's rounding.
    pub eligible: bool,
    /// Still on the runqueue (a running entity that is going to sleep is not).
    pub on_rq: bool,
    /// The running entity, in the slice it was picked for (`protect_slice`, fair.c 896–899):
    /// under RUN_TO_PARITY it keeps the CPU while eligible.
    pub protected: bool,
    pub custom_slice: bool,
    /// Asleep but kept queued until eligible (DELAY_DEQUEUE).
    pub sched_delayed: bool,
}

/// One 6.12 `cfs_rq`: a CPU's root (`tg` 0) or one task group's on that CPU.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EevdfQueue {
    pub tg: u32,
    /// `cfs_rq->nr_running`: the queued entities, the running one included.
    pub nr_running: u32,
    /// V, the zero-lag point: `avg_vruntime` (fair.c 677–711), the weighted
    /// mean vruntime of the queued entities and the running one, floored.
    pub avg_vruntime: u64,
    /// `cfs_rq->zero_vruntime`, the base of the kept sums (6.12.117's field in
    /// place of min_vruntime); V is read from a copy, so this is the queue's own.
    pub zero_vruntime: u64,
    /// The least vruntime among the queued entities, the running one left
    /// out: the augmented `se->min_vruntime` at the tree's root that
    /// `pick_eevdf`'s heap search prunes by (fair.c 806–846, 926–977). None when nothing waits.
    pub min_vruntime: Option<u64>,
    /// Σ w of the queued entities and the running one (`avg_load` plus curr's, as `avg_vruntime` sums).
    pub load: i64,
    /// The running entity (`cfs_rq->curr`): out of the queue, as `set_next_entity` takes it out.
    pub curr: Option<QueuedEntity>,
    /// The waiting entities in deadline order (the rbtree's order; equal deadlines in arrival order).
    pub queued: Vec<QueuedEntity>,
    /// What the next pick at this level takes (`pick_next_entity`, fair.c 5670–5690):
    /// the next buddy if it is eligible, else `pick_eevdf` (fair.c 926–977).
    pub pick: Option<EntId>,
    /// `cfs_rq->next`, the next buddy.
    pub next_buddy: Option<EntId>,
    /// RUN_TO_PARITY is on (a protected running entity keeps the CPU while eligible).
    pub run_to_parity: bool,
}

/// Group `tg`'s EEVDF queue on `cpu` (tg 0: the CPU's root), read off the run's
/// 6.12 state; None if the run keeps none there (another generation, a CPU or
/// group past the state's).
pub(crate) fn queue_of(st: &State612, tg: u32, cpu: CpuId, tick_nsec: u64) -> Option<EevdfQueue> {
    if cpu.idx() >= st.cpus {
        return None;
    }
    let r = st.rq_ix(tg, cpu);
    let rq = st.rqs.get(r)?;
    let ents = &st.ents[..];
    // avg_vruntime moves the zero it reads onto V: read it from a copy, the run's queue untouched.
    let v = eevdf::avg_vruntime(&mut rq.clone(), ents);
    let entity = |ix: usize| {
        let se: &Entity = &ents[ix];
        QueuedEntity {
            id: st.ent_id(ix),
            vruntime: se.vruntime,
            deadline: se.deadline,
            slice: se.slice,
            weight: se.weight,
            vlag: eevdf::entity_lag(v, se, tick_nsec),
            eligible: eevdf::entity_eligible(rq, ents, ix),
            on_rq: se.on_rq,
            protected: rq.curr == Some(ix) && eevdf::protect_slice(se),
            custom_slice: se.custom_slice,
            sched_delayed: se.sched_delayed,
        }
    };
    let load = rq.avg_load + rq.curr.filter(|&c| ents[c].on_rq).map_or(0, |c| ents[c].weight as i64);
    Some(EevdfQueue {
        tg,
        nr_running: rq.nr_running,
        avg_vruntime: v,
        zero_vruntime: rq.zero_vruntime,
        min_vruntime: rq.timeline.iter().map(|&i| ents[i].vruntime).min_by_key(|&x| x.wrapping_sub(v) as i64),
        load,
        curr: rq.curr.map(entity),
        queued: rq.timeline.iter().map(|&i| entity(i)).collect(),
        pick: super::pick::next_pick(st, r, st.put_back[r]).map(|ix| st.ent_id(ix)),
        next_buddy: st.next[r].map(|ix| st.ent_id(ix)),
        run_to_parity: st.features.run_to_parity,
    })
}

/// `cpu`'s queues: its root's, then each task group's that holds an entity there.
pub(crate) fn queues_of(st: &State612, cpu: CpuId, tick_nsec: u64) -> Vec<EevdfQueue> {
    if st.cpus == 0 {
        return Vec::new();
    }
    let tgs = (st.rqs.len() / st.cpus) as u32;
    (0..tgs).filter_map(|tg| queue_of(st, tg, cpu, tick_nsec)).filter(|q| q.tg == 0 || q.nr_running > 0).collect()
}

#[cfg(test)]
#[path = "queue_view_test.rs"]
mod queue_view_test;

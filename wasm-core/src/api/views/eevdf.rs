//! Linux 6.12's EEVDF runqueues as the page draws them: the engine's reading
//! of each queue (`sim::fair::linux612::queue_view`: eligibility, lag, the
//! zero-lag point and the pick, all from `eevdf.rs` on the run's state) with
//! the entities named, serialized here and nowhere in the engine.
//!
//! Virtual times cross signed, as the kernel's debug output prints them
//! (`SPLIT_NS` of an s64): a vruntime placed behind a zero near 0 is a small
//! negative number rather than a u64 near 2^64 that JSON would round.

use crate::sched::entity::{ent_pid, is_group, EntId};
use crate::sim::fair::linux612::queue_view::{EevdfQueue, QueuedEntity};
use crate::sim::Simulator;
use crate::time::CpuId;
use serde::Serialize;

/// One 6.12 `cfs_rq` of the detail CPU: its root (`tg` 0) or a task group's.
#[derive(Serialize)]
#[cfg_attr(any(test, feature = "gen"), derive(ts_rs::TS))]
pub struct EevdfRqView {
    pub tg: u32,
    /// The task group's name ("" for the CPU's root).
    pub name: String,
    /// Queued entities, the running one included (`cfs_rq->nr_running`).
    pub nr_running: u32,
    /// V, the zero-lag point (`avg_vruntime`, fair.c 677–711): the weighted
    /// mean vruntime of the queued entities and the running one.
    pub avg_vruntime: i64,
    /// `cfs_rq->zero_vruntime`: the base the queue's sums are kept from.
    pub zero_vruntime: i64,
    /// The least vruntime waiting (the tree root's augmented min_vruntime;
    /// curr left out). Null when nothing waits.
    pub min_vruntime: Option<i64>,
    /// Σ weight of the queued entities and the running one.
    pub load: i64,
    /// The running entity, kept out of the queue (`set_next_entity`).
    pub curr: Option<EevdfEntityView>,
    /// The waiting entities in deadline order (the kernel's rbtree order).
    pub queued: Vec<EevdfEntityView>,
    /// What the next pick here takes: an eligible next buddy, else `pick_eevdf`'s choice.
    pub pick: Option<EntId>,
    /// `cfs_rq->next`, the next buddy.
    pub next_buddy: Option<EntId>,
    /// RUN_TO_PARITY: a protected running entity keeps the CPU while eligible.
    pub run_to_parity: bool,
}

/// One entity of an EEVDF queue: a task (`pid` its pid) or a group entity
/// (`group` its task group; `pid` its entity id, top bit set).
#[derive(Serialize)]
#[cfg_attr(any(test, feature = "gen"), derive(ts_rs::TS))]
pub struct EevdfEntityView {
    pub pid: EntId,
    pub name: String,
    pub group: Option<u32>,
    pub vruntime: i64,
    /// The virtual deadline: vruntime + the request in vruntime (`update_deadline`).
    pub deadline: i64,
    /// The request, ns of run time (`se->slice`).
    pub slice: u64,
    pub weight: u64,
    /// V − vruntime clamped as `entity_lag` clamps it (fair.c 729–737): what
    /// `update_entity_lag` would save were the entity to leave now. ≥ 0 ⇔ eligible.
    pub vlag: i64,
    /// `entity_eligible` (fair.c 763–782): owed service.
    pub eligible: bool,
    /// Still queued (a running entity going to sleep is not).
    pub on_rq: bool,
    /// The running entity inside the slice it was picked for (`protect_slice`).
    pub protected: bool,
    pub custom_slice: bool,
    /// Asleep but kept queued until eligible (DELAY_DEQUEUE).
    pub sched_delayed: bool,
}

/// A task's name, or a group entity's task group's (as the tree view names
/// them; `view.rs` reads this file, so it is not borrowed from there).
fn entity_name(sim: &Simulator, id: EntId) -> String {
    if is_group(id) {
        sim.task_groups()[sim.group_of_entity(id) as usize].name.clone()
    } else {
        sim.tasks()[ent_pid(id).idx()].name.clone()
    }
}

fn entity_view(sim: &Simulator, e: &QueuedEntity) -> EevdfEntityView {
    EevdfEntityView {
        pid: e.id,
        name: entity_name(sim, e.id),
        group: is_group(e.id).then(|| sim.group_of_entity(e.id)),
        vruntime: e.vruntime as i64,
        deadline: e.deadline as i64,
        slice: e.slice,
        weight: e.weight,
        vlag: e.vlag,
        eligible: e.eligible,
        on_rq: e.on_rq,
        protected: e.protected,
        custom_slice: e.custom_slice,
        sched_delayed: e.sched_delayed,
    }
}

fn rq_view(sim: &Simulator, q: &EevdfQueue) -> EevdfRqView {
    EevdfRqView {
        tg: q.tg,
        name: if q.tg == 0 { String::new() } else { sim.task_groups()[q.tg as usize].name.clone() },
        nr_running: q.nr_running,
        avg_vruntime: q.avg_vruntime as i64,
        zero_vruntime: q.zero_vruntime as i64,
        min_vruntime: q.min_vruntime.map(|v| v as i64),
        load: q.load,
        curr: q.curr.as_ref().map(|e| entity_view(sim, e)),
        queued: q.queued.iter().map(|e| entity_view(sim, e)).collect(),
        pick: q.pick,
        next_buddy: q.next_buddy,
        run_to_parity: q.run_to_parity,
    }
}

/// `cpu`'s EEVDF queues, root first, then each task group's with an entity
/// there; None when the run does not model 6.12.
pub fn eevdf_queues(sim: &Simulator, cpu: CpuId) -> Option<Vec<EevdfRqView>> {
    let qs = sim.eevdf_queues(cpu);
    (!qs.is_empty()).then(|| qs.iter().map(|q| rq_view(sim, q)).collect())
}

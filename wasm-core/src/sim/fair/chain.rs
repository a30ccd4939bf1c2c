//! A task's path up the group hierarchy, (level, entity) pairs from its own
//! runqueue to its CPU's root: the fair class walks it on every enqueue,
//! dequeue, pick and tick, so it is held on the stack. Also where a group
//! runqueue or entity lives in the flat per-(group, CPU) arrays.

use crate::sched::cfs_rq::CfsRq;
use crate::sched::entity::{entity, group_ent_id, group_index, task_ent_id, EntId, SchedEntity};
use crate::sim::fair::cx::FairCx;
use crate::sim::fair::state::FairState;
use crate::sim::Core;
use crate::time::{CpuId, Pid};

/// Levels a hierarchy walk keeps on the stack (deeper cgroup trees spill to the heap).
const CHAIN_INLINE: usize = 8;

/// A task's (level, entity) pairs up to the root: walked on every enqueue,
/// dequeue, pick and tick, so it lives on the stack.
#[derive(Default)]
pub(crate) struct Chain {
    len: usize,
    inline: [(u32, EntId); CHAIN_INLINE],
    spill: Vec<(u32, EntId)>,
}

impl Chain {
    #[inline]
    pub(in crate::sim) fn push(&mut self, item: (u32, EntId)) {
        if self.len < CHAIN_INLINE {
            self.inline[self.len] = item;
        } else {
            if self.spill.is_empty() {
                self.spill.extend_from_slice(&self.inline);
            }
            self.spill.push(item);
        }
        self.len += 1;
    }
}

impl std::ops::Deref for Chain {
    type Target = [(u32, EntId)];
    fn deref(&self) -> &Self::Target {
        if self.len > CHAIN_INLINE {
            &self.spill
        } else {
            &self.inline[..self.len]
        }
    }
}

impl IntoIterator for Chain {
    type Item = (u32, EntId);
    type IntoIter = ChainIter;
    fn into_iter(self) -> ChainIter {
        ChainIter { chain: self, next: 0 }
    }
}

pub(crate) struct ChainIter {
    chain: Chain,
    next: usize,
}

impl Iterator for ChainIter {
    type Item = (u32, EntId);
    fn next(&mut self) -> Option<Self::Item> {
        let item = self.chain.get(self.next).copied();
        self.next += 1;
        item
    }
}

/// The runqueue of group `tg` on `cpu` (group 0's is the CPU's own), read
/// without a context (the simulator's views read it too).
#[inline]
pub(crate) fn cfs_rq_of<'a>(core: &'a Core, fair: &'a FairState, tg: u32, cpu: CpuId) -> &'a CfsRq {
    if tg == 0 {
        &core.rqs[cpu.idx()].cfs
    } else {
        &fair.gcfs[(tg as usize - 1) * core.rqs.len() + cpu.idx()]
    }
}

/// The group whose runqueue a group entity stands for.
#[inline]
pub(crate) fn group_of_ent(core: &Core, id: EntId) -> u32 {
    (group_index(id) / core.rqs.len()) as u32 + 1
}

/// Addressing the hierarchy: group runqueues and entities sit in flat
/// arrays, one slot per (group, CPU), group 0 being the root runqueues.
impl FairCx<'_> {
    pub(crate) fn gidx(&self, tg: u32, cpu: CpuId) -> usize {
        (tg as usize - 1) * self.core.rqs.len() + cpu.idx()
    }

    /// The entity of group `tg` on `cpu`.
    pub(crate) fn gse_id(&self, tg: u32, cpu: CpuId) -> EntId {
        group_ent_id(self.gidx(tg, cpu))
    }

    /// The group whose runqueue a group entity stands for.
    pub(crate) fn tg_of_gse(&self, id: EntId) -> u32 {
        group_of_ent(self.core, id)
    }

    pub(crate) fn cfs_of(&self, tg: u32, cpu: CpuId) -> &CfsRq {
        cfs_rq_of(self.core, self.fair, tg, cpu)
    }

    pub(in crate::sim) fn parent_tg(&self, tg: u32) -> u32 {
        self.fair.tgs[tg as usize].parent.unwrap_or(0)
    }

    /// (level tg, entity) pairs from the task up to the root. Always
    /// inlined: the chain is then built where it is used rather than
    /// built, then copied out (a fifth of its cost, on every enqueue,
    /// dequeue, pick and tick).
    // Forced inline natively only: in the wasm the five forced inlines cost 4.3 KB gzipped (302.8 vs 298.5 KB).
    #[cfg_attr(not(target_arch = "wasm32"), inline(always))]
    pub(crate) fn chain(&self, pid: Pid, cpu: CpuId) -> Chain {
        let mut out = Chain::default();
        let mut tg = self.core.tasks[pid.idx()].tg;
        out.push((tg, task_ent_id(pid)));
        while tg != 0 {
            out.push((self.parent_tg(tg), self.gse_id(tg, cpu)));
            tg = self.parent_tg(tg);
        }
        out
    }

    pub(crate) fn ent(&self, id: EntId) -> &SchedEntity {
        entity(&self.core.tasks[..], &self.fair.gses, id)
    }
}

impl FairCx<'_> {
    /// Re-bases a task's vruntime from one CPU's min_vruntime to another's
    /// (the fair class's `migrate_task_rq`).
    pub(crate) fn renormalise_vruntime(&mut self, pid: Pid, from: CpuId, to: CpuId) {
        if from == to {
            return;
        }
        let tg = self.core.tasks[pid.idx()].tg;
        let old_min = self.cfs_of(tg, from).min_vruntime;
        let new_min = self.cfs_of(tg, to).min_vruntime;
        let se = &mut self.core.tasks[pid.idx()].se;
        se.vruntime = (se.vruntime + new_min).saturating_sub(old_min);
    }
}

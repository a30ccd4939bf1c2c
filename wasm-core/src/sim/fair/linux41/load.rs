//! Load tracking over the group hierarchy at the points Linux 4.1.15
//! updates it: `update_entity_load_avg`, `enqueue_entity_load_avg`,
//! `dequeue_entity_load_avg`, `list_add_leaf_cfs_rq`,
//! `update_blocked_averages` and the load side of `migrate_task_rq_fair` and
//! `switched_from_fair`. The arithmetic on one runqueue is `sched::linux41::load_avg`;
//! here are the walks that reach the group above (a group entity's
//! contribution is read from its own runqueue and its group).
//!
//! Forced and unforced updates of a group's `load_avg` are where 4.1 puts
//! them: forced at a tick, a periodic or newly-idle balance's
//! `update_blocked_averages`, and an enqueue or dequeue that is not a wakeup
//! or a sleep (a fork, a move); unforced (1/8 hysteresis) at a wakeup, a
//! sleep and when a runqueue joins the leaf list.

use crate::sched::cfs_rq::CfsRq;
use crate::sched::entity::{ent_pid, group_index, is_group, EntId, SchedEntity};
use crate::sched::linux41::load_avg::{
    group_entity_contrib, subtract_blocked_load_contrib, synchronize_entity_decay, update_cfs_rq_blocked_load,
    update_tg_runnable_avg,
};
use crate::sim::fair::cx::FairCx;
use crate::time::{CpuId, Pid, SimTime};

impl FairCx<'_> {
    /// Level `tg`'s runqueue on `cpu`, for a change of its load (the root's
    /// load is what the CPU index and fork placement's group sums read, so
    /// it is marked changed for both).
    fn load_cfs_mut(&mut self, tg: u32, cpu: CpuId) -> &mut CfsRq {
        if tg == 0 {
            self.core.index.touch(cpu);
            #[cfg(not(target_arch = "wasm32"))]
            self.fair.lb.group_loads.touch(cpu);
            &mut self.core.rqs[cpu.idx()].cfs
        } else {
            let i = self.gidx(tg, cpu);
            &mut self.fair.gcfs[i]
        }
    }

    fn ent_mut(&mut self, id: EntId) -> &mut SchedEntity {
        if is_group(id) {
            &mut self.fair.gses[group_index(id)]
        } else {
            &mut self.core.tasks[ent_pid(id).idx()].se
        }
    }

    /// `update_cfs_rq_blocked_load` on level `tg` of `cpu`, its group's
    /// `load_avg` following. Inlined: called at every level of every
    /// enqueue, dequeue and tick, and often done at once (no decay period
    /// passed, no forced update).
    // Forced inline natively only: in the wasm the five forced inlines cost 4.3 KB gzipped (302.8 vs 298.5 KB).
    #[cfg_attr(not(target_arch = "wasm32"), inline(always))]
    pub(crate) fn update_cfs_rq_blocked_load(&mut self, tg: u32, cpu: CpuId, force: bool) {
        let now = self.core.now.ns();
        let delta = update_cfs_rq_blocked_load(self.load_cfs_mut(tg, cpu), now, force);
        self.fair.tgs[tg as usize].load_avg += delta;
    }

    /// `update_entity_load_avg(se, update_cfs_rq)` for entity `id` of level
    /// `tg` on `cpu`: accrue its sums; at a period boundary refresh its
    /// contributions (a task's from its sums and weight, a group entity's
    /// from its group) and, if asked, fold the change into the runqueue's
    /// runnable load (queued) or blocked load (asleep).
    pub(crate) fn update_entity_load_avg(&mut self, tg: u32, cpu: CpuId, id: EntId, update_cfs_rq: bool) {
        let now = self.core.now;
        let running = self.cfs_of(tg, cpu).curr == Some(id);
        let se = self.ent_mut(id);
        let on_rq = se.on_rq;
        if !se.avg.accrue(now, on_rq, running) {
            return;
        }
        let (old_load, old_util) = (se.avg.load_avg_contrib as i64, se.avg.utilization_avg_contrib as i64);
        if is_group(id) {
            self.refresh_group_entity_contrib(id);
        } else {
            se.avg.update_contrib(se.weight);
        }
        if !update_cfs_rq {
            return;
        }
        let avg = &self.ent(id).avg;
        let (d_load, d_util) = (avg.load_avg_contrib as i64 - old_load, avg.utilization_avg_contrib as i64 - old_util);
        let cfs = self.load_cfs_mut(tg, cpu);
        if on_rq {
            cfs.runnable_load_avg += d_load;
            cfs.utilization_load_avg += d_util;
        } else {
            subtract_blocked_load_contrib(cfs, -d_load);
        }
    }

    /// `__update_entity_load_avg_contrib` and the utilisation of a group
    /// entity: its group's runnable fraction on this CPU passed on, then its
    /// part of the group's shares; its utilisation is its runqueue's.
    fn refresh_group_entity_contrib(&mut self, id: EntId) {
        let gi = group_index(id);
        let tg = self.tg_of_gse(id) as usize;
        let delta = update_tg_runnable_avg(&self.fair.gses[gi].avg, &mut self.fair.gcfs[gi]);
        self.fair.tgs[tg].runnable_avg += delta;
        let (my_q, group) = (&self.fair.gcfs[gi], &self.fair.tgs[tg]);
        let contrib = group_entity_contrib(my_q.tg_load_contrib, group.shares, group.load_avg, group.runnable_avg);
        let util = my_q.utilization_load_avg.max(0) as u64;
        let avg = &mut self.fair.gses[gi].avg;
        avg.load_avg_contrib = contrib;
        avg.utilization_avg_contrib = util;
    }

    /// `enqueue_entity_load_avg`, before the entity is queued on level `tg`.
    /// An entity that slept here has its contribution decayed by the
    /// runqueue's count and taken off the blocked load; a new or moved one
    /// (`decay_count` ≤ 0) restarts its clock here, a move made while asleep
    /// first accruing the sleep it carried, and forces the group update.
    pub(crate) fn enqueue_entity_load_avg(&mut self, tg: u32, cpu: CpuId, id: EntId, wakeup: bool) {
        let now = self.core.now.ns();
        let mut wakeup = wakeup;
        let decay_count = self.ent(id).avg.decay_count;
        if decay_count <= 0 {
            let avg = &mut self.ent_mut(id).avg;
            avg.last_update = SimTime(now);
            if decay_count != 0 {
                // The sleep is known only as the decay periods counted where it began.
                avg.last_update = SimTime(now.saturating_sub(decay_count.unsigned_abs() << 20));
                self.update_entity_load_avg(tg, cpu, id, false);
                self.ent_mut(id).avg.decay_count = 0;
            }
            wakeup = false;
        } else {
            let counter = self.cfs_of(tg, cpu).decay_counter;
            synchronize_entity_decay(counter, &mut self.ent_mut(id).avg);
        }
        if wakeup {
            let contrib = self.ent(id).avg.load_avg_contrib as i64;
            subtract_blocked_load_contrib(self.load_cfs_mut(tg, cpu), contrib);
            self.update_entity_load_avg(tg, cpu, id, false);
        }
        let avg = &self.ent(id).avg;
        let (load, util) = (avg.load_avg_contrib as i64, avg.utilization_avg_contrib as i64);
        let cfs = self.load_cfs_mut(tg, cpu);
        cfs.runnable_load_avg += load;
        cfs.utilization_load_avg += util;
        self.update_cfs_rq_blocked_load(tg, cpu, !wakeup);
    }

    /// `dequeue_entity_load_avg`, before the entity leaves level `tg`: a
    /// sleeper's contribution moves to the blocked load, stamped with the
    /// runqueue's decay count; a move (`sleep` false) forces the group update.
    pub(crate) fn dequeue_entity_load_avg(&mut self, tg: u32, cpu: CpuId, id: EntId, sleep: bool) {
        self.update_entity_load_avg(tg, cpu, id, true);
        self.update_cfs_rq_blocked_load(tg, cpu, !sleep);
        let avg = &self.ent(id).avg;
        let (load, util) = (avg.load_avg_contrib, avg.utilization_avg_contrib as i64);
        let cfs = self.load_cfs_mut(tg, cpu);
        cfs.runnable_load_avg -= load as i64;
        cfs.utilization_load_avg -= util;
        if sleep {
            cfs.blocked_load_avg += load;
            let counter = cfs.decay_counter;
            self.ent_mut(id).avg.decay_count = counter as i64;
        }
    }

    /// `list_add_leaf_cfs_rq`: level `tg`'s runqueue got its first entity;
    /// it joins the CPU's leaf list (before its parent if the parent is
    /// already there, else at the end, where the parent will follow it) and
    /// catches up its blocked load's decay.
    pub(crate) fn list_add_leaf_cfs_rq(&mut self, tg: u32, cpu: CpuId) {
        let parent = self.fair.tgs[tg as usize].parent;
        let parent_listed = match parent {
            None => true,
            Some(0) => self.core.rqs[cpu.idx()].cfs.on_list,
            Some(p) => self.cfs_of(p, cpu).on_list,
        };
        let cfs = self.load_cfs_mut(tg, cpu);
        if cfs.on_list {
            return;
        }
        cfs.on_list = true;
        if tg != 0 {
            let list = &mut self.core.rqs[cpu.idx()].leaf_cfs_rqs;
            if parent_listed {
                // A VecDeque: adding at the front moves nothing.
                list.push_front(tg);
            } else {
                list.push_back(tg);
            }
        }
        self.update_cfs_rq_blocked_load(tg, cpu, false);
    }

    /// `update_blocked_averages`: every group runqueue on the leaf list
    /// (children first), then the root's, decays its blocked load and passes
    /// it on, forced; each group entity's contribution follows, and a group
    /// whose entity's runnable history has decayed to nothing leaves the list.
    pub(crate) fn update_blocked_averages(&mut self, cpu: CpuId) {
        let mut i = 0;
        while i < self.core.rqs[cpu.idx()].leaf_cfs_rqs.len() {
            let tg = self.core.rqs[cpu.idx()].leaf_cfs_rqs[i];
            self.update_cfs_rq_blocked_load(tg, cpu, true);
            let gse = self.gse_id(tg, cpu);
            let parent = self.fair.tgs[tg as usize].parent.unwrap_or(0);
            self.update_entity_load_avg(parent, cpu, gse, true);
            let gi = self.gidx(tg, cpu);
            if self.fair.gses[gi].avg.runnable_avg_sum == 0 && self.fair.gcfs[gi].nr_running == 0 {
                self.fair.gcfs[gi].on_list = false;
                self.core.rqs[cpu.idx()].leaf_cfs_rqs.remove(i);
            } else {
                i += 1;
            }
        }
        self.update_cfs_rq_blocked_load(0, cpu, true);
    }

    /// The load side of `migrate_task_rq_fair`: a task woken onto another
    /// CPU leaves its (decayed) contribution to be taken off the old
    /// runqueue's blocked load, and carries the decay periods it slept.
    pub(crate) fn migrate_task_load(&mut self, pid: Pid, from: CpuId) {
        if self.core.tasks[pid.idx()].se.avg.decay_count == 0 {
            return;
        }
        let tg = self.core.tasks[pid.idx()].tg;
        let counter = self.cfs_of(tg, from).decay_counter;
        let avg = &mut self.core.tasks[pid.idx()].se.avg;
        let decays = synchronize_entity_decay(counter, avg);
        avg.decay_count = -(decays as i64);
        let contrib = avg.load_avg_contrib;
        self.load_cfs_mut(tg, from).removed_load += contrib;
    }

    /// The load side of `switched_from_fair`: a sleeper leaving the class
    /// takes its contribution out of the blocked load.
    pub(crate) fn switched_from_fair_load(&mut self, pid: Pid) {
        if self.core.tasks[pid.idx()].se.avg.decay_count == 0 {
            return;
        }
        let (tg, cpu) = (self.core.tasks[pid.idx()].tg, self.core.tasks[pid.idx()].cpu);
        let counter = self.cfs_of(tg, cpu).decay_counter;
        let avg = &mut self.core.tasks[pid.idx()].se.avg;
        synchronize_entity_decay(counter, avg);
        let contrib = avg.load_avg_contrib as i64;
        subtract_blocked_load_contrib(self.load_cfs_mut(tg, cpu), contrib);
    }
}

#[cfg(test)]
#[path = "load_test.rs"]
mod load_test;

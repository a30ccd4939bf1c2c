//! 6.12's load tracking at a level of the hierarchy, over the room's state:
//! `update_load_avg` for an entity and the runqueue it is queued on (with
//! what its own runqueue has pending, for a group entity), the group sum
//! that follows (`update_tg_load_avg`), a group entity's queued tasks
//! (`se_update_runnable`) and weight (`update_cfs_group`, `reweight_entity`),
//! and the load side of a task leaving its CPU (`migrate_task_rq_fair`).
//! The arithmetic is `load_avg.rs`.

use super::eevdf;
use super::load_avg::{self, calc_group_shares, update_tg_load_avg, GroupRq, RqLoad, SeLoad};
use super::pelt;
use crate::sched::cfs_rq::CfsRq;
use crate::sched::entity::{EntId, SchedEntity};
use crate::sim::fair::cx::FairCx;
use crate::time::{CpuId, Pid};

/// Two distinct elements of one slice, mutably.
fn two_mut<T>(v: &mut [T], a: usize, b: usize) -> (&mut T, &mut T) {
    debug_assert_ne!(a, b);
    if a < b {
        let (lo, hi) = v.split_at_mut(b);
        (&mut lo[a], &mut hi[0])
    } else {
        let (lo, hi) = v.split_at_mut(a);
        (&mut hi[0], &mut lo[b])
    }
}

/// The PELT clock at the model's t = 0, in ns: one period. The kernel's
/// clock has run since boot, so a stamp of 0 means only "not attached here"
/// (`update_load_avg`'s DO_ATTACH test); the model's machines start at 0, and
/// a runqueue updated then would stamp an entity attached to it with 0.
pub(super) const PELT_BOOT_NS: u64 = 1 << 20;

impl FairCx<'_> {
    /// `rq_clock_pelt` (and `sched_clock_cpu` for the group sum's rate limit):
    /// the model's CPUs have one capacity and frequency, so it is the clock.
    pub(super) fn pelt_clock(&self) -> u64 {
        self.core.now.0 + PELT_BOOT_NS
    }

    /// The shared runqueue of group `tg` on `cpu`, to change its counts.
    pub(super) fn cfs_mut(&mut self, tg: u32, cpu: CpuId) -> &mut CfsRq {
        if tg == 0 {
            // The root runqueue: its length or load changes.
            self.core.index.touch(cpu);
            &mut self.core.rqs[cpu.idx()].cfs
        } else {
            let gi = self.gidx(tg, cpu);
            &mut self.fair.gcfs[gi]
        }
    }

    /// The shared entity `id` (a task's own, or a group entity).
    pub(super) fn shared_ent_mut(&mut self, id: EntId) -> &mut SchedEntity {
        if crate::sched::entity::is_group(id) {
            &mut self.fair.gses[crate::sched::entity::group_index(id)]
        } else {
            &mut self.core.tasks[crate::sched::entity::ent_pid(id).idx()].se
        }
    }

    /// `update_load_avg(cfs_rq_of(se), se, flags)` for entity `ix` queued (or
    /// about to be) at level `tg` of `cpu`, then the group's summed load.
    pub(super) fn update_load_avg_612(&mut self, tg: u32, cpu: CpuId, ix: usize, flags: u32) {
        let now = self.pelt_clock();
        let cfs = self.cfs_of(tg, cpu);
        // h_nr_queued − h_nr_delayed (pelt.c 322–325): a delayed task weighs but does not wait.
        let delayed = self.fair.gen612.h_nr_delayed[self.fair.gen612.rq_ix(tg, cpu)];
        let (weight, runnable) = (cfs.load_weight, u64::from(cfs.h_nr_running - delayed));
        let group = (ix < self.fair.gen612.groups).then(|| {
            let gtg = self.tg_of_gse(self.fair.gen612.ent_id(ix));
            (self.fair.gen612.rq_ix(gtg, cpu), self.cfs_of(gtg, cpu).load_weight)
        });
        let st = &mut self.fair.gen612;
        let r = st.rq_ix(tg, cpu);
        let rq = RqLoad { weight, runnable, running: st.rqs[r].curr.is_some() };
        let e = &st.ents[ix];
        let se_runnable = if group.is_some() { st.runnable_weight[ix] } else { u64::from(e.on_rq && !e.sched_delayed) };
        let s = SeLoad { on_rq: e.on_rq, runnable: se_runnable, running: st.rqs[r].curr == Some(ix), weight: e.weight };
        let update_tg = match group {
            Some((gr, gweight)) => {
                let (cfs_avg, g_avg) = two_mut(&mut st.rq_avgs, r, gr);
                let g = GroupRq { avg: g_avg, weight: gweight };
                load_avg::update_load_avg(now, cfs_avg, rq, &mut st.avgs[ix], s, Some(g), flags)
            }
            None => load_avg::update_load_avg(now, &mut st.rq_avgs[r], rq, &mut st.avgs[ix], s, None, flags),
        };
        if update_tg && tg != 0 && self.core.online.test(cpu) {
            update_tg_load_avg(&mut st.rq_avgs[r], &mut self.fair.tgs[tg as usize].load_avg, now);
        }
    }

    /// `se_update_runnable` (sched.h 931–938): a group entity counts its
    /// runqueue's queued tasks that are not delayed.
    pub(super) fn se_update_runnable(&mut self, cpu: CpuId, ix: usize) {
        if ix >= self.fair.gen612.groups {
            return;
        }
        let gtg = self.tg_of_gse(self.fair.gen612.ent_id(ix));
        let delayed = self.fair.gen612.h_nr_delayed[self.fair.gen612.rq_ix(gtg, cpu)];
        self.fair.gen612.runnable_weight[ix] = u64::from(self.cfs_of(gtg, cpu).h_nr_running - delayed);
    }

    /// `update_cfs_group`: a group entity's weight follows its runqueue's
    /// share of the group's load, unless its runqueue is empty (the weight
    /// it had is kept).
    pub(super) fn update_cfs_group(&mut self, tg: u32, cpu: CpuId, ix: usize) {
        if ix >= self.fair.gen612.groups {
            return;
        }
        let gtg = self.tg_of_gse(self.fair.gen612.ent_id(ix));
        let gweight = self.cfs_of(gtg, cpu).load_weight;
        if gweight == 0 {
            return;
        }
        let group = &self.fair.tgs[gtg as usize];
        let st = &self.fair.gen612;
        let shares = calc_group_shares(group.shares, &st.rq_avgs[st.rq_ix(gtg, cpu)], gweight, group.load_avg);
        if st.ents[ix].weight != shares {
            self.reweight_entity_612(tg, cpu, ix, shares, 0);
        }
    }

    /// `reweight_entity`: the entity leaves its runqueue's weight and load
    /// at its old weight and comes back at the new one; EEVDF keeps its lag
    /// and deadline's distance from V (`reweight_eevdf`); its load_avg is
    /// read again off its sum at the new weight. `inv_weight` 0 = computed.
    pub(crate) fn reweight_entity_612(&mut self, tg: u32, cpu: CpuId, ix: usize, weight: u64, inv_weight: u64) {
        let tick = self.tick_nsec();
        let on_rq = self.fair.gen612.ents[ix].on_rq;
        if on_rq {
            self.update_curr_612(tg, cpu);
        }
        let st = &mut self.fair.gen612;
        let r = st.rq_ix(tg, cpu);
        let old = st.ents[ix].weight;
        load_avg::dequeue_load_avg(&mut st.rq_avgs[r], &st.avgs[ix], old);
        eevdf::reweight_entity(&mut st.rqs[r], &mut st.ents, ix, weight, inv_weight, tick);
        let sa = &mut st.avgs[ix];
        sa.load_avg = weight * sa.load_sum / pelt::pelt_divider(sa);
        load_avg::enqueue_load_avg(&mut st.rq_avgs[r], &st.avgs[ix], weight);
        let id = st.ent_id(ix);
        if on_rq {
            let cfs = self.cfs_mut(tg, cpu);
            cfs.load_weight = cfs.load_weight - old + weight;
        }
        let se = self.shared_ent_mut(id);
        se.weight = weight;
        se.inv_weight = if inv_weight != 0 { inv_weight } else { eevdf::inv_weight_of(weight) };
    }

    /// The load side of `migrate_task_rq_fair`: a task woken onto another
    /// CPU leaves its signals, aged to its old runqueue's last update, to be
    /// removed there; one moved while queued was detached at its dequeue.
    /// Either way it attaches afresh where it arrives. A task that has never
    /// been attached (a new one) has nothing to leave.
    pub(crate) fn migrate_task_rq_fair_612(&mut self, pid: Pid, from: CpuId, queued: bool) {
        let tg = self.core.tasks[pid.idx()].tg;
        let now = self.pelt_clock();
        let st = &mut self.fair.gen612;
        let ix = st.ensure_task(pid);
        if st.avgs[ix].last_update_time == 0 {
            return;
        }
        if !queued {
            let r = st.rq_ix(tg, from);
            let weight = st.ents[ix].weight;
            load_avg::remove_entity_load_avg(&mut st.rq_avgs[r], &mut st.avgs[ix], weight);
            // migrate_se_pelt_lag: the model's PELT clock is its clock, and an
            // idle CPU's runqueue was last brought up to date when it went idle;
            // the estimate of now the kernel makes there is now itself.
            if self.core.rqs[from.idx()].curr_task.is_none() && !load_avg::load_avg_is_decayed(&st.avgs[ix]) {
                pelt::update_blocked_se(now.max(st.rq_avgs[r].avg.last_update_time), &mut st.avgs[ix], weight);
            }
        }
        self.fair.gen612.avgs[ix].last_update_time = 0;
    }
}

impl FairCx<'_> {
    /// `switched_from_fair` (`detach_entity_cfs_rq`): a task leaving the class
    /// takes its signals out of its runqueue, and the change goes up the hierarchy.
    pub(crate) fn switched_from_fair_612(&mut self, pid: Pid) {
        let (tg, cpu) = (self.core.tasks[pid.idx()].tg, self.core.tasks[pid.idx()].cpu);
        let ix = self.fair.gen612.ensure_task(pid);
        if self.fair.gen612.avgs[ix].last_update_time == 0 {
            return;
        }
        self.update_load_avg_612(tg, cpu, ix, 0);
        let st = &mut self.fair.gen612;
        let r = st.rq_ix(tg, cpu);
        let weight = st.ents[ix].weight;
        let se = st.avgs[ix];
        load_avg::detach_entity_load_avg(&mut st.rq_avgs[r], &se, weight);
        self.tg_load_avg_now(tg, cpu);
        self.propagate_entity_cfs_rq(tg, cpu);
    }

    /// `switched_to_fair` (`attach_entity_cfs_rq`): a task arriving puts its
    /// signals, aged (ATTACH_AGE_LOAD), into its runqueue, and the change goes up.
    pub(crate) fn switched_to_fair_612(&mut self, pid: Pid) {
        let (tg, cpu) = (self.core.tasks[pid.idx()].tg, self.core.tasks[pid.idx()].cpu);
        let ix = self.fair.gen612.ensure_task(pid);
        self.update_load_avg_612(tg, cpu, ix, 0);
        let st = &mut self.fair.gen612;
        let r = st.rq_ix(tg, cpu);
        let weight = st.ents[ix].weight;
        load_avg::attach_entity_load_avg(&mut st.rq_avgs[r], &mut st.avgs[ix], weight);
        self.tg_load_avg_now(tg, cpu);
        self.propagate_entity_cfs_rq(tg, cpu);
    }

    /// `update_tg_load_avg` of group `tg`'s runqueue on `cpu` (not the root's, not an offline CPU's).
    fn tg_load_avg_now(&mut self, tg: u32, cpu: CpuId) {
        if tg == 0 || !self.core.online.test(cpu) {
            return;
        }
        let now = self.pelt_clock();
        let r = self.fair.gen612.rq_ix(tg, cpu);
        update_tg_load_avg(&mut self.fair.gen612.rq_avgs[r], &mut self.fair.tgs[tg as usize].load_avg, now);
    }

    /// `propagate_entity_cfs_rq`: each group entity above group `tg`'s
    /// runqueue on `cpu` is brought up to date, taking what is pending below.
    fn propagate_entity_cfs_rq(&mut self, tg: u32, cpu: CpuId) {
        self.list_add_leaf_cfs_rq_612(tg, cpu);
        let mut t = tg;
        while t != 0 {
            let parent = self.fair.tgs[t as usize].parent.unwrap_or(0);
            let gix = self.fair.gen612.ent_ix(self.gse_id(t, cpu));
            self.update_load_avg_612(parent, cpu, gix, load_avg::UPDATE_TG);
            t = parent;
        }
    }
}

//! Linux 6.12's fair class over the group hierarchy: `enqueue_task_fair`,
//! `dequeue_entities`, `pick_task_fair` with `set_next_entity`,
//! `put_prev_entity`, `update_curr`, `entity_tick`, `check_preempt_wakeup_fair`
//! and `yield_task_fair` (kernel/sched/fair.c), each walking the levels
//! between a task's runqueue and its CPU's root, over EEVDF on each level
//! (`eevdf.rs`) and the load tracking between levels (`load.rs`).
//!
//! Where 6.12's walk differs from 4.1's (`sim/fair/class.rs`): there is no
//! min_vruntime renormalisation on a move or a fork (an entity carries its
//! lag, and placement restores it); an entity's load is updated before it
//! is placed and its group reweighted before it is accounted; a group
//! entity's request is the shortest of its queue's; the tick does not check
//! a slice (the request's deadline does, in `update_curr`); the next buddy
//! is set only when a task sleeps within its group, and the pick takes it
//! only if it is eligible.
//!
//! DELAY_DEQUEUE (on, as 6.12 ships it): an entity that sleeps while not
//! eligible stays queued, delayed, until a pick meets it or its task wakes
//! (`delayed.rs`); the walks count such tasks in each level's `h_nr_delayed`.
//!
//! ```text
//!   enqueue:  task ─► gse ─► … (enqueue_entity while not queued; then update_load_avg/shares above)
//!   dequeue:  task ─► gse ─► … (dequeue_entity while the level empties; then update above)
//!   pick:     root ─► pick_eevdf ─► set_next_entity ─► its group's queue ─► … ─► a task
//! ```

use super::delay_dequeue::{self, DequeueFlags};
use super::eevdf::{self, calc_delta_fair, place_entity, update_deadline};
use super::load_avg::{init_entity_runnable_average, post_init_entity_util_avg, DO_ATTACH, DO_DETACH, UPDATE_TG};
use super::pelt::{util_est_dequeue, util_est_enqueue, util_est_update};
use crate::sched::entity::{ent_pid, EntId};
use crate::sched::fair::EnqueueKind;
use crate::sched::policy::SchedPolicy;
use crate::sim::fair::cx::FairCx;
use crate::time::{CpuId, Pid, SimTime};

impl FairCx<'_> {
    /// TICK_NSEC: the floor of the lag clamp.
    pub(super) fn tick_nsec(&self) -> u64 {
        1_000_000_000 / self.core.hz()
    }

    /// `sysctl_sched_base_slice`, scaled by the online CPUs as 4.1's min_granularity was.
    pub(super) fn base_slice(&self) -> u64 {
        self.fair.tunables.min_granularity_ns
    }

    /// `update_curr` at level `tg` of `cpu`: the running entity is charged to
    /// now; a request used up, or an ineligible entity past its protected
    /// slice (PREEMPT_SHORT), reschedules the CPU while others are queued.
    pub(super) fn update_curr_612(&mut self, tg: u32, cpu: CpuId) {
        let st = &mut self.fair.gen612;
        let r = st.rq_ix(tg, cpu);
        let Some(c) = st.rqs[r].curr else { return };
        let id = st.ent_id(c);
        let now = self.core.now;
        let se = self.shared_ent_mut(id);
        let delta = now.since(se.exec_start);
        if delta == 0 {
            return;
        }
        se.exec_start = now;
        se.sum_exec_runtime += delta;
        let base = self.base_slice();
        let st = &mut self.fair.gen612;
        let e = &mut st.ents[c];
        e.vruntime += calc_delta_fair(delta, e);
        let resched = update_deadline(&mut st.rqs[r], &mut st.ents, c, base);
        if st.rqs[r].nr_running == 1 {
            return;
        }
        let preempt_short = !eevdf::protect_slice(&st.ents[c]) && !eevdf::entity_eligible(&st.rqs[r], &st.ents, c);
        if resched || preempt_short {
            self.core.rqs[cpu.idx()].need_resched = true;
            self.clear_next_buddy(tg, cpu, c);
        }
    }

    /// `clear_buddies` (6.12 keeps only the next buddy): if the entity is its
    /// level's next buddy, it stops being so there and at each level above
    /// where its ancestor is.
    pub(super) fn clear_next_buddy(&mut self, tg: u32, cpu: CpuId, ix: usize) {
        let (mut tg, mut ix) = (tg, ix);
        loop {
            let st = &mut self.fair.gen612;
            let r = st.rq_ix(tg, cpu);
            if st.next[r] != Some(ix) {
                return;
            }
            st.next[r] = None;
            if tg == 0 {
                return;
            }
            let gse = self.gse_id(tg, cpu);
            ix = self.fair.gen612.ent_ix(gse);
            tg = self.fair.tgs[tg as usize].parent.unwrap_or(0);
        }
    }

    /// A task's EEVDF and load fields as it starts (`__sched_fork`,
    /// `init_entity_runnable_average`, `post_init_entity_util_avg` on the
    /// runqueue it is about to join).
    fn init_task_612(&mut self, pid: Pid, cpu: CpuId) {
        let t = &self.core.tasks[pid.idx()];
        let (weight, inv, tg) = (t.se.weight, t.se.inv_weight, t.tg);
        let st = &mut self.fair.gen612;
        let ix = st.ensure_task(pid);
        st.ents[ix] = eevdf::Entity { weight, inv_weight: inv, ..eevdf::Entity::default() };
        let mut avg = init_entity_runnable_average(weight, true);
        post_init_entity_util_avg(&st.rq_avgs[st.rq_ix(tg, cpu)], &mut avg, weight);
        st.avgs[ix] = avg;
        // wake_up_new_task: the CPU it starts on is its recently used one.
        st.recent_used_cpu[pid.idx()] = cpu;
    }

    /// The task's request: its process's custom slice, else the base slice.
    fn task_slice_612(&self, pid: Pid) -> (u64, bool) {
        let custom = self.core.policy.slices.get(self.core.tasks[pid.idx()].tgid as usize).copied().unwrap_or(0);
        if custom > 0 {
            (custom, true)
        } else {
            (self.base_slice(), false)
        }
    }

    /// `enqueue_task_fair`: each level not yet queued gets its entity
    /// enqueued (a group entity asking for its queue's shortest request);
    /// above, the levels already queued are brought up to date.
    ///
    /// A delayed task woken where it is queued (`EnqueueKind::Delayed`) is
    /// only requeued (fair.c 7039–7042); a delayed task moved here stays
    /// delayed and is counted so at each level (7053, 7079).
    pub(crate) fn enqueue_task_fair_612(&mut self, pid: Pid, cpu: CpuId, kind: EnqueueKind) {
        if kind == EnqueueKind::New {
            self.init_task_612(pid, cpu);
        }
        let ix = self.fair.gen612.ensure_task(pid);
        let delayed = self.fair.gen612.ents[ix].sched_delayed;
        if !(delayed && kind == EnqueueKind::Migrate) {
            // A delayed task's estimate left the root when it slept; a move keeps it out.
            let st = &mut self.fair.gen612;
            let root = st.rq_ix(0, cpu);
            util_est_enqueue(&mut st.rq_avgs[root].avg, &st.avgs[ix]);
        }
        if kind == EnqueueKind::Delayed {
            let tg = self.core.tasks[pid.idx()].tg;
            self.requeue_delayed_612(tg, cpu, ix);
            return;
        }
        let (slice, custom) = self.task_slice_612(pid);
        {
            let w = (self.core.tasks[pid.idx()].se.weight, self.core.tasks[pid.idx()].se.inv_weight);
            let e = &mut self.fair.gen612.ents[ix];
            (e.weight, e.inv_weight) = w;
            if custom {
                (e.slice, e.custom_slice) = (slice, true);
            }
        }
        let h_delayed = u32::from(delayed && kind != EnqueueKind::Wakeup);
        let chain = self.chain(pid, cpu);
        let mut slice = 0u64;
        let mut initial = kind == EnqueueKind::New;
        let mut i = 0;
        while i < chain.len() {
            let (tg, id) = chain[i];
            let ix = self.fair.gen612.ent_ix(id);
            if self.fair.gen612.ents[ix].on_rq {
                if self.fair.gen612.ents[ix].sched_delayed {
                    self.requeue_delayed_612(tg, cpu, ix);
                }
                break;
            }
            if slice != 0 {
                let e = &mut self.fair.gen612.ents[ix];
                (e.slice, e.custom_slice) = (slice, true);
            }
            self.enqueue_entity_612(tg, cpu, ix, initial, kind == EnqueueKind::Migrate);
            let r = self.fair.gen612.rq_ix(tg, cpu);
            slice = self.fair.gen612.min_slice(r);
            self.cfs_mut(tg, cpu).h_nr_running += 1;
            self.fair.gen612.h_nr_delayed[r] += h_delayed;
            initial = false;
            i += 1;
        }
        self.update_levels_above(&chain[i..], cpu, slice, 1, h_delayed as i32);
        // add_nr_running: a runqueue reaching two tasks marks the root domain overloaded.
        self.core.rqs[cpu.idx()].nr_running += 1;
        if self.core.rqs[cpu.idx()].nr_running() == 2 {
            self.fair.gen612.rd_overloaded = true;
        }
    }

    /// The second loop of `enqueue_task_fair` and `dequeue_entities`: the
    /// levels above the last one enqueued or dequeued stay queued; each has
    /// its load and weight brought up to date, its request set to the
    /// shortest below (`slice`), and counts `queued` tasks in (or out, if
    /// negative) of `h_nr_queued`, `delayed` of `h_nr_delayed`.
    fn update_levels_above(&mut self, levels: &[(u32, EntId)], cpu: CpuId, mut slice: u64, queued: i32, delayed: i32) {
        for &(tg, id) in levels {
            let ix = self.fair.gen612.ent_ix(id);
            self.update_load_avg_612(tg, cpu, ix, UPDATE_TG);
            self.se_update_runnable(cpu, ix);
            self.update_cfs_group(tg, cpu, ix);
            self.fair.gen612.ents[ix].slice = slice;
            let r = self.fair.gen612.rq_ix(tg, cpu);
            slice = self.fair.gen612.min_slice(r);
            self.fair.gen612.h_nr_delayed[r] = self.fair.gen612.h_nr_delayed[r].wrapping_add_signed(delayed);
            let cfs = self.cfs_mut(tg, cpu);
            cfs.h_nr_running = cfs.h_nr_running.wrapping_add_signed(queued);
        }
    }

    /// `enqueue_entity` at level `tg`: charge the running entity, bring the
    /// entity's load up to date (attaching it if it arrives from another
    /// CPU), reweight a group entity, place it by its lag, account it.
    fn enqueue_entity_612(&mut self, tg: u32, cpu: CpuId, ix: usize, initial: bool, migrated: bool) {
        let (base, features) = (self.base_slice(), self.fair.gen612.features);
        let r = self.fair.gen612.rq_ix(tg, cpu);
        let curr = self.fair.gen612.rqs[r].curr == Some(ix);
        if curr {
            let st = &mut self.fair.gen612;
            place_entity(&mut st.rqs[r], &mut st.ents, ix, initial, base, features);
        }
        self.update_curr_612(tg, cpu);
        self.update_load_avg_612(tg, cpu, ix, UPDATE_TG | DO_ATTACH);
        self.se_update_runnable(cpu, ix);
        self.update_cfs_group(tg, cpu, ix);
        let st = &mut self.fair.gen612;
        if !curr {
            place_entity(&mut st.rqs[r], &mut st.ents, ix, initial, base, features);
        }
        let weight = st.ents[ix].weight;
        st.rqs[r].nr_running += 1;
        if !curr {
            eevdf::enqueue_timeline(&mut st.rqs[r], &st.ents, ix);
        }
        st.ents[ix].on_rq = true;
        let id = st.ent_id(ix);
        let cfs = self.cfs_mut(tg, cpu);
        cfs.load_weight += weight;
        cfs.nr_running += 1;
        if cfs.nr_running == 1 {
            self.list_add_leaf_cfs_rq_612(tg, cpu);
        }
        let se = self.shared_ent_mut(id);
        se.on_rq = true;
        if migrated {
            // No longer cache-hot where it arrives.
            se.exec_start = SimTime::ZERO;
        }
    }

    /// `list_add_leaf_cfs_rq`: group `tg`'s runqueue on `cpu`, and each above
    /// it, join the CPU's list of runqueues whose load the balancer decays.
    pub(super) fn list_add_leaf_cfs_rq_612(&mut self, tg: u32, cpu: CpuId) {
        let mut t = tg;
        while t != 0 {
            let r = self.fair.gen612.rq_ix(t, cpu);
            if self.fair.gen612.on_list[r] {
                return;
            }
            self.fair.gen612.on_list[r] = true;
            t = self.fair.tgs[t as usize].parent.unwrap_or(0);
        }
    }

    /// `dequeue_task_fair` (fair.c 7270–7295) for `pid` leaving `cpu` as
    /// `flags` say: the root's estimate loses the task's unless it is a
    /// delayed task on the move (it lost it when it slept), a sleep samples
    /// its utilization, and the walk follows. False if the task stays
    /// queued, delayed.
    pub(crate) fn dequeue_task_fair_612(&mut self, pid: Pid, cpu: CpuId, flags: DequeueFlags) -> bool {
        {
            let st = &mut self.fair.gen612;
            let (ix, root) = (st.ensure_task(pid), st.rq_ix(0, cpu));
            if !st.ents[ix].sched_delayed || flags.sleep {
                util_est_dequeue(&mut st.rq_avgs[root].avg, &st.avgs[ix]);
            }
            util_est_update(&mut st.avgs[ix], flags.sleep, super::pelt::SCHED_CAPACITY_SCALE);
        }
        let chain = self.chain(pid, cpu);
        self.dequeue_entities_612(&chain, cpu, true, flags)
    }

    /// `dequeue_entities` (fair.c 7163–7268) from `chain[0]`, a task's entity
    /// (`task`) or a group's: each level the entity leaves empty is dequeued
    /// in turn (a group entity may itself be delayed there, which ends the
    /// walk); a sleeping task makes its group the next buddy above; the
    /// levels still queued are brought up to date. False if the task's own
    /// entity was delayed. Finishing a delayed task's dequeue (`flags.delayed`)
    /// blocks it on the core's side (`Core::block_delayed`, as `__block_task`).
    pub(super) fn dequeue_entities_612(
        &mut self,
        chain: &[(u32, EntId)],
        cpu: CpuId,
        task: bool,
        mut flags: DequeueFlags,
    ) -> bool {
        let (task_sleep, task_delayed) = (flags.sleep, flags.delayed);
        let first = self.fair.gen612.ent_ix(chain[0].1);
        let h_queued = u32::from(task);
        let h_delayed = u32::from(task && !task_sleep && !task_delayed && self.fair.gen612.ents[first].sched_delayed);
        let mut slice = u64::MAX;
        let mut i = 0;
        while i < chain.len() {
            let (tg, id) = chain[i];
            let ix = self.fair.gen612.ent_ix(id);
            let r = self.fair.gen612.rq_ix(tg, cpu);
            if !self.dequeue_entity_612(tg, cpu, ix, flags, task && i == 0 && !task_sleep) {
                if task && i == 0 {
                    return false;
                }
                slice = self.fair.gen612.min_slice(r);
                break;
            }
            self.cfs_mut(tg, cpu).h_nr_running -= h_queued;
            self.fair.gen612.h_nr_delayed[r] -= h_delayed;
            i += 1;
            if self.cfs_of(tg, cpu).load_weight > 0 {
                slice = self.fair.gen612.min_slice(r);
                if task_sleep && i < chain.len() {
                    self.set_next_buddy(&chain[i..], cpu);
                }
                break;
            }
            flags = DequeueFlags { sleep: true, ..DequeueFlags::default() };
        }
        self.update_levels_above(&chain[i..], cpu, slice, -(h_queued as i32), -(h_delayed as i32));
        self.core.rqs[cpu.idx()].nr_running -= h_queued;
        if task && task_delayed {
            self.core.block_delayed(cpu, ent_pid(chain[0].1));
        }
        true
    }

    /// `dequeue_entity` at level `tg` (fair.c 5548–5621): charge the running
    /// entity; an ineligible sleeper stays queued, delayed, its load brought
    /// up to date; otherwise update the load (detaching a task that moves
    /// with its runqueue's lock held), save the lag, keep the deadline
    /// relative across a move, account, and end a delay (DELAY_ZERO).
    fn dequeue_entity_612(&mut self, tg: u32, cpu: CpuId, ix: usize, dq: DequeueFlags, migrating: bool) -> bool {
        let (tick, features) = (self.tick_nsec(), self.fair.gen612.features);
        self.update_curr_612(tg, cpu);
        self.clear_next_buddy(tg, cpu, ix);
        let r = self.fair.gen612.rq_ix(tg, cpu);
        if delay_dequeue::delays(&self.fair.gen612.rqs[r], &self.fair.gen612.ents, ix, dq, features) {
            self.update_load_avg_612(tg, cpu, ix, 0);
            self.set_delayed_612(cpu, ix);
            return false;
        }
        let flags = if migrating { UPDATE_TG | DO_DETACH } else { UPDATE_TG };
        self.update_load_avg_612(tg, cpu, ix, flags);
        self.se_update_runnable(cpu, ix);
        let st = &mut self.fair.gen612;
        delay_dequeue::dequeue_entity(&mut st.rqs[r], &mut st.ents, ix, dq, tick, features);
        if st.put_back[r] == Some(ix) {
            st.put_back[r] = None;
        }
        let weight = st.ents[ix].weight;
        let id = st.ent_id(ix);
        let cfs = self.cfs_mut(tg, cpu);
        cfs.load_weight -= weight;
        cfs.nr_running -= 1;
        self.shared_ent_mut(id).on_rq = false;
        self.update_cfs_group(tg, cpu, ix);
        if dq.delayed {
            self.clear_delayed_counts_612(cpu, ix);
        }
        true
    }

    /// `set_next_buddy` for the entities of `chain` (each its level's).
    fn set_next_buddy(&mut self, chain: &[(u32, EntId)], cpu: CpuId) {
        for &(tg, id) in chain {
            let st = &mut self.fair.gen612;
            let ix = st.ent_ix(id);
            if !st.ents[ix].on_rq {
                return;
            }
            let r = st.rq_ix(tg, cpu);
            st.next[r] = Some(ix);
        }
    }

    /// `update_curr` on every level of the running task's chain.
    pub(crate) fn update_curr_fair_612(&mut self, cpu: CpuId) {
        let Some(pid) = self.core.rqs[cpu.idx()].curr_task else { return };
        for (tg, _) in self.chain(pid, cpu) {
            self.update_curr_612(tg, cpu);
        }
    }

    /// `task_tick_fair`: `entity_tick` at every level (charge, load, shares).
    /// The reschedule, if any, is `update_curr`'s.
    pub(crate) fn task_tick_fair_612(&mut self, pid: Pid, cpu: CpuId) -> bool {
        for (tg, id) in self.chain(pid, cpu) {
            let ix = self.fair.gen612.ent_ix(id);
            self.update_curr_612(tg, cpu);
            self.update_load_avg_612(tg, cpu, ix, UPDATE_TG);
            self.update_cfs_group(tg, cpu, ix);
        }
        self.core.rqs[cpu.idx()].need_resched
    }

    /// `check_preempt_wakeup_fair`: at the level where the two ancestries
    /// meet, the wakee preempts if it is what EEVDF would pick now (a wakee
    /// with a shorter request, eligible, first cancels the running entity's
    /// protected slice: PREEMPT_SHORT).
    pub(crate) fn check_preempt_wakeup_fair_612(&mut self, cpu: CpuId, p: Pid) -> bool {
        let Some(curr) = self.core.rqs[cpu.idx()].curr_task else { return true };
        if curr == p || self.core.rqs[cpu.idx()].need_resched {
            return false;
        }
        let (c_chain, p_chain) = (self.chain(curr, cpu), self.chain(p, cpu));
        let (mut ci, mut pi) = (c_chain.len() - 1, p_chain.len() - 1);
        while ci > 0 && pi > 0 && c_chain[ci].1 == p_chain[pi].1 {
            ci -= 1;
            pi -= 1;
        }
        let (tg, se) = c_chain[ci];
        let pse = p_chain[pi].1;
        // se_is_idle: a task entity of SCHED_IDLE (a group's idle setting is not modelled). A non-idle entity
        // preempts an idle one; otherwise neither preempts the other, and BATCH and IDLE wakees never preempt
        // (check_preempt_wakeup_fair, fair.c 8907–8928 of 6.12).
        let idle_ent =
            |id| !crate::sched::entity::is_group(id) && self.core.tasks[ent_pid(id).idx()].policy == SchedPolicy::Idle;
        let (cse_idle, pse_idle) = (idle_ent(se), idle_ent(pse));
        if cse_idle && !pse_idle {
            let six = self.fair.gen612.ent_ix(se);
            let ent = &mut self.fair.gen612.ents[six];
            if eevdf::protect_slice(ent) {
                // cancel_protect_slice: the idle entity keeps no protected slice against a non-idle one.
                ent.vlag = ent.deadline as i64 + 1;
            }
            return true;
        }
        if cse_idle != pse_idle || self.core.tasks[p.idx()].policy != SchedPolicy::Normal {
            return false;
        }
        self.update_curr_612(tg, cpu);
        let features = self.fair.gen612.features;
        let st = &mut self.fair.gen612;
        let (six, pix, r) = (st.ent_ix(se), st.ent_ix(pse), st.rq_ix(tg, cpu));
        if do_preempt_short(st, r, pix, six) && eevdf::protect_slice(&st.ents[six]) {
            // cancel_protect_slice
            st.ents[six].vlag = st.ents[six].deadline as i64 + 1;
        }
        eevdf::pick_eevdf(&st.rqs[r], &st.ents, features) == Some(pix)
    }

    /// `yield_task_fair`: an eligible task gives up the rest of its request
    /// (its vruntime moves to its deadline, and it gets the next request).
    pub(crate) fn yield_task_fair_612(&mut self, pid: Pid, cpu: CpuId) {
        if self.core.rqs[cpu.idx()].nr_running() == 1 {
            return;
        }
        let tg = self.core.tasks[pid.idx()].tg;
        let ix = self.fair.gen612.ent_ix(crate::sched::entity::task_ent_id(pid));
        self.clear_next_buddy(tg, cpu, ix);
        self.update_curr_612(tg, cpu);
        let base = self.base_slice();
        let st = &mut self.fair.gen612;
        let r = st.rq_ix(tg, cpu);
        if eevdf::entity_eligible(&st.rqs[r], &st.ents, ix) {
            st.ents[ix].vruntime = st.ents[ix].deadline;
            update_deadline(&mut st.rqs[r], &mut st.ents, ix, base);
        }
    }
}

/// `do_preempt_short`: the wakee asks for a shorter request than the running
/// entity, is eligible, and is ahead of it or it is not eligible.
fn do_preempt_short(st: &super::state::State612, r: usize, pse: usize, se: usize) -> bool {
    let (rq, ents) = (&st.rqs[r], &st.ents);
    if ents[pse].slice >= ents[se].slice || !eevdf::entity_eligible(rq, ents, pse) {
        return false;
    }
    // entity_before: an earlier deadline.
    (ents[pse].deadline.wrapping_sub(ents[se].deadline) as i64) < 0 || !eevdf::entity_eligible(rq, ents, se)
}

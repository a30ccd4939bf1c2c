//! The fair class over the group hierarchy (`enqueue_task_fair`,
//! `dequeue_task_fair`, `pick_next_task_fair`, `put_prev_task_fair`,
//! `task_tick_fair`, `check_preempt_wakeup` with `find_matching_se`,
//! `update_cfs_shares`, `task_h_load`). Each walks the levels between a
//! task's own runqueue and its CPU's root runqueue, calling the one-level
//! functions of `sched::fair`.
//!
//! `FairClass` is the fair class behind `SchedClass`; its strategy (CFS 4.1
//! or EEVDF) is fixed per `static` (`CFS`, `EEVDF`) and handed to every
//! one-level function. PFS / DW-CFS weights (`sim::fair::weight_policy`) and Group
//! Identity (`sim::fair::group_identity`) are options of it, read from the policy.
//! Its balancer and placement are its kernel generation's (`FairGeneration`,
//! `generation.rs`; 4.1's in `linux41/`): periodic, newly idle, NOHZ and the
//! stopper's push, reached through `SchedClass::balance`, and
//! `select_task_rq`.
//!
//! ```text
//!   level tg (the task's group) ──gse(tg, cpu)──► level parent(tg) ── … ──► root (tg 0)
//! ```

use crate::sched::cfs_rq::CfsRq;
use crate::sched::eevdf;
use crate::sched::entity::{ent_pid, is_group, EntId};
use crate::sched::fair::{self, EnqueueKind, FairStrategy, TickVerdict};
use crate::sched::identity::{wakeup_verdict, Identity};
use crate::sched::policy::SchedPolicy;
use crate::sim::fair::cx::level;
use crate::sim::fair::cx::FairCx;
use crate::sim::fair::generation::generation;
use crate::time::{CpuId, Pid};

/// The fair class with one pick-and-placement strategy over one kernel
/// generation's balancer and placement.
#[derive(Debug)]
pub struct FairClass {
    pub strategy: FairStrategy,
}

/// The fair class as Linux 4.1 runs it (also under PFS and DW-CFS weights).
pub static CFS: FairClass = FairClass { strategy: FairStrategy::Cfs };
/// EEVDF's pick and placement (Linux 6.6+) on 4.1's balancer and load
/// tracking: a mixture no kernel shipped, kept so that today's `eevdf`
/// scenarios and links reproduce (issue 40).
pub static EEVDF: FairClass = FairClass { strategy: FairStrategy::Eevdf };

impl FairCx<'_> {
    /// `enqueue_task_fair`: enqueue the task, then each group entity that
    /// was not queued yet; count it in every level's h_nr_running; refresh
    /// the groups' shares on the way up.
    pub(super) fn fair_enqueue(&mut self, st: FairStrategy, pid: Pid, cpu: CpuId, kind: EnqueueKind) {
        let now = self.core.now;
        // A new task's debit; a forked child instead arrives with its vruntime relative to the parent's
        // runqueue (task_fork_fair), made absolute here on the target's (enqueue_entity adds min_vruntime
        // before update_curr when the enqueue is not a wakeup).
        let mut debit = (kind == EnqueueKind::New).then(|| self.task_vslice(pid, cpu));
        if kind == EnqueueKind::New {
            if let Some(rel) = self.core.tasks[pid.idx()].fork_vruntime.take() {
                let min = self.cfs_of(self.core.tasks[pid.idx()].tg, cpu).min_vruntime;
                self.core.tasks[pid.idx()].se.vruntime = min + rel;
                debit = None;
            }
        }
        let mut kind = kind;
        let mut enqueueing = true;
        // The task's class follows its group's (forked children included).
        self.core.tasks[pid.idx()].se.identity = self.fair.tgs[self.core.tasks[pid.idx()].tg as usize].identity;
        let (base_slice, task_slice) = self.eevdf_slices(st, pid);
        self.core.tasks[pid.idx()].se.slice = task_slice;
        for (tg, id) in self.chain(pid, cpu) {
            if enqueueing && !self.ent(id).on_rq {
                if kind == EnqueueKind::New {
                    generation!(self, new_task_load(tg, cpu, id));
                }
                generation!(self, enqueue_load(tg, cpu, id, kind == EnqueueKind::Wakeup));
                let (cfs, mut ents) = level!(self, tg, cpu);
                if is_group(id) {
                    ents.se_mut(id).slice = base_slice;
                }
                fair::enqueue_entity(cfs, &mut ents, id, kind, now, debit, &self.fair.tunables, st);
                cfs.h_nr_running += 1;
                if cfs.nr_running == 1 {
                    generation!(self, leaf_cfs_rq_queued(tg, cpu));
                }
                if tg != 0 {
                    generation!(self, update_group_shares(st, tg, cpu));
                }
                kind = EnqueueKind::Wakeup;
            } else {
                // Queued already: count the task, reweight, refresh the entity's load.
                enqueueing = false;
                let (cfs, mut ents) = level!(self, tg, cpu);
                if is_group(id) {
                    ents.se_mut(id).slice = base_slice;
                }
                cfs.h_nr_running += 1;
                if tg != 0 {
                    generation!(self, update_group_shares(st, tg, cpu));
                }
                generation!(self, refresh_load(tg, cpu, id));
            }
        }
        // add_nr_running: a runqueue reaching two tasks marks the root domain overloaded.
        self.core.rqs[cpu.idx()].nr_running += 1;
        if self.core.rqs[cpu.idx()].nr_running() == 2 {
            self.fair.lb.rd_overload = true;
        }
    }

    /// `dequeue_task_fair`: dequeue the task, and each group entity left
    /// empty; a sleeping task makes its group the next buddy above.
    pub(super) fn fair_dequeue(&mut self, st: FairStrategy, pid: Pid, cpu: CpuId, sleeping: bool) {
        let now = self.core.now;
        let mut dequeuing = true;
        let chain = self.chain(pid, cpu);
        for (i, &(tg, id)) in chain.iter().enumerate() {
            if dequeuing {
                // Only the task's own dequeue may be a move; a group entity left empty sleeps.
                generation!(self, dequeue_load(tg, cpu, id, sleeping || i > 0));
                self.clear_buddies(&chain[i..], cpu);
                let (cfs, mut ents) = level!(self, tg, cpu);
                fair::dequeue_entity(cfs, &mut ents, id, now, st);
                cfs.h_nr_running -= 1;
                if cfs.load_weight > 0 {
                    dequeuing = false;
                    if sleeping && i + 1 < chain.len() {
                        self.set_buddy_chain(&chain[i + 1..], cpu, true);
                    }
                }
                if tg != 0 {
                    generation!(self, update_group_shares(st, tg, cpu));
                }
            } else {
                let (cfs, _) = level!(self, tg, cpu);
                cfs.h_nr_running -= 1;
                if tg != 0 {
                    generation!(self, update_group_shares(st, tg, cpu));
                }
                generation!(self, refresh_load(tg, cpu, id));
            }
        }
        self.core.rqs[cpu.idx()].nr_running -= 1;
    }

    /// `clear_buddies` (fair.c 3099–3142) for the entity `chain[0]`: each of
    /// its runqueue's last, next and skip buddies that is the entity is
    /// cleared, and that buddy again at each level above for as long as it
    /// is the entity's ancestor there.
    fn clear_buddies(&mut self, chain: &[(u32, EntId)], cpu: CpuId) {
        let slots: [fn(&mut CfsRq) -> &mut Option<EntId>; 3] = [|c| &mut c.last, |c| &mut c.next, |c| &mut c.skip];
        for slot in slots {
            for &(tg, id) in chain {
                let (cfs, _) = level!(self, tg, cpu);
                let buddy = slot(cfs);
                if *buddy != Some(id) {
                    break;
                }
                *buddy = None;
            }
        }
    }

    /// `set_next_buddy` / `set_last_buddy`: mark the entity at each level.
    fn set_buddy_chain(&mut self, chain: &[(u32, EntId)], cpu: CpuId, next: bool) {
        for &(tg, id) in chain {
            let (cfs, _) = level!(self, tg, cpu);
            if next {
                cfs.next = Some(id);
            } else {
                cfs.last = Some(id);
            }
        }
    }

    /// `reweight_task`: a task's own weight changes (a thread-weight policy).
    /// A queued task is charged at its old weight first, its runqueue's load
    /// follows, and its group's shares are refreshed.
    pub(crate) fn reweight_task(&mut self, st: FairStrategy, pid: Pid, weight: u64) {
        let task = &self.core.tasks[pid.idx()];
        if task.se.weight == weight.max(1) {
            return;
        }
        if !task.se.on_rq {
            self.core.tasks[pid.idx()].se.set_weight(weight);
            return;
        }
        let (cpu, tg) = (task.cpu, task.tg);
        if self.core.rqs[cpu.idx()].curr_task == Some(pid) {
            self.fair_update_curr(st, cpu);
        }
        let (cfs, ents) = level!(self, tg, cpu);
        fair::reweight_entity(cfs, &mut ents.tasks[pid.idx()].se, weight);
        if tg != 0 {
            generation!(self, update_group_shares(st, tg, cpu));
        }
    }

    /// EEVDF slices (0 under CFS): the base slice, for group entities, and
    /// the task's own (its process's custom slice, else the base slice).
    fn eevdf_slices(&self, st: FairStrategy, pid: Pid) -> (u64, u64) {
        if st != FairStrategy::Eevdf {
            return (0, 0);
        }
        let base = self.fair.tunables.min_granularity_ns;
        let custom = self.core.policy.slices.get(self.core.tasks[pid.idx()].tgid as usize).copied().unwrap_or(0);
        (base, if custom > 0 { custom } else { base })
    }

    /// The task's slice over the whole hierarchy (`sched_slice`), wall time.
    fn task_slice(&self, pid: Pid, cpu: CpuId) -> u64 {
        let chain = self.chain(pid, cpu);
        let (tg0, id0) = chain[0];
        let mut slice =
            fair::sched_slice(self.cfs_of(tg0, cpu), &self.core.tasks[ent_pid(id0).idx()].se, &self.fair.tunables);
        for &(tg, id) in &chain[1..] {
            slice = fair::level_share(slice, self.cfs_of(tg, cpu), self.ent(id));
        }
        slice
    }

    /// `task_fork_fair`: the child starts at max(the running entity's
    /// vruntime, min_vruntime + vslice) of the parent's runqueue on the
    /// parent's CPU (the vslice through that CPU's hierarchy, START_DEBIT),
    /// kept relative to that runqueue's min_vruntime until `enqueue_task` adds
    /// the target's: so a child sent to another CPU keeps its place relative
    /// to the queue it was made on, not the parent's absolute vruntime.
    /// EEVDF places a new task by its lag instead.
    pub(super) fn task_fork_fair(&mut self, st: FairStrategy, child: Pid, cpu: CpuId) {
        if st == FairStrategy::Eevdf {
            return;
        }
        let cfs = self.cfs_of(self.core.tasks[child.idx()].tg, cpu);
        let min = cfs.min_vruntime;
        let curr = cfs.curr.map(|e| self.ent(e).vruntime);
        let debit = if self.fair.tunables.features.start_debit { self.task_vslice(child, cpu) } else { 0 };
        let v = curr.unwrap_or(0).max(min + debit);
        self.core.tasks[child.idx()].fork_vruntime = Some(v - min);
    }

    /// `sched_vslice`: the slice in the task's virtual time.
    fn task_vslice(&self, pid: Pid, cpu: CpuId) -> u64 {
        fair::calc_delta_fair(self.task_slice(pid, cpu), &self.core.tasks[pid.idx()].se)
    }

    /// `pick_next_task_fair` (curr already put back): descend from the root,
    /// picking at each level, until a task is reached.
    pub(super) fn fair_pick_next(&mut self, st: FairStrategy, cpu: CpuId) -> Option<Pid> {
        let now = self.core.now;
        let allow_under = !self.smt_expelled(cpu);
        let mut tg = 0;
        loop {
            let (cfs, ents) = level!(self, tg, cpu);
            let id = fair::pick_next_entity(cfs, &ents, &self.fair.tunables, allow_under, st)?;
            // set_next_entity refreshes the load of the entity it takes, before it is curr.
            generation!(self, refresh_load(tg, cpu, id));
            let (cfs, mut ents) = level!(self, tg, cpu);
            fair::set_next_entity(cfs, &mut ents, id, now);
            if is_group(id) {
                tg = self.tg_of_gse(id);
            } else {
                return Some(ent_pid(id));
            }
        }
    }

    /// `put_prev_task_fair`: every level's curr goes back (if still queued).
    pub(super) fn fair_put_prev(&mut self, st: FairStrategy, pid: Pid, cpu: CpuId) {
        let now = self.core.now;
        for (tg, id) in self.chain(pid, cpu) {
            if self.cfs_of(tg, cpu).curr != Some(id) {
                continue;
            }
            if self.ent(id).on_rq {
                // put_prev_entity: the load of an entity still queued is refreshed while it is curr.
                generation!(self, refresh_load(tg, cpu, id));
            }
            let (cfs, mut ents) = level!(self, tg, cpu);
            fair::put_prev_entity(cfs, &mut ents, id, now, st);
        }
    }

    /// `update_curr` on every level of the running task's chain.
    pub(super) fn fair_update_curr(&mut self, st: FairStrategy, cpu: CpuId) {
        let Some(pid) = self.core.rqs[cpu.idx()].curr_task else { return };
        let now = self.core.now;
        for (tg, _) in self.chain(pid, cpu) {
            let (cfs, mut ents) = level!(self, tg, cpu);
            fair::update_curr(cfs, &mut ents, now, st);
        }
    }

    /// `task_tick_fair`: `entity_tick` at every level; true if some level
    /// found that its curr used up its slice.
    pub(super) fn fair_task_tick(&mut self, st: FairStrategy, pid: Pid, cpu: CpuId) -> bool {
        let now = self.core.now;
        let mut resched = false;
        let chain = self.chain(pid, cpu);
        for (i, &(tg, id)) in chain.iter().enumerate() {
            {
                let (cfs, mut ents) = level!(self, tg, cpu);
                fair::update_curr(cfs, &mut ents, now, st);
            }
            // entity_tick: the load averages are refreshed at every tick, the group's forced.
            generation!(self, tick_load(tg, cpu, id));
            if tg != 0 {
                generation!(self, update_group_shares(st, tg, cpu));
            }
            if self.cfs_of(tg, cpu).nr_running <= 1 {
                // EEVDF resched is due only while others are queued.
                let (cfs, _) = level!(self, tg, cpu);
                cfs.deadline_passed = false;
            } else {
                // The entity's slice: its level's share, scaled by every level above.
                let mut ideal = fair::sched_slice(self.cfs_of(tg, cpu), self.ent(id), &self.fair.tunables);
                for &(utg, uid) in &chain[i + 1..] {
                    ideal = fair::level_share(ideal, self.cfs_of(utg, cpu), self.ent(uid));
                }
                let (cfs, ents) = level!(self, tg, cpu);
                match fair::check_preempt_tick(cfs, &ents, ideal, &self.fair.tunables, st) {
                    TickVerdict::Keep => {}
                    TickVerdict::Resched => resched = true,
                    TickVerdict::SliceUsed => {
                        self.clear_buddies(&chain[i..], cpu);
                        resched = true;
                    }
                }
            }
        }
        resched
    }

    /// `check_preempt_wakeup`: compare the woken task with the running one at
    /// the level where their ancestries meet (`find_matching_se`). Sets the
    /// buddies as the kernel does; true = preempt.
    pub(super) fn check_preempt_wakeup(&mut self, st: FairStrategy, cpu: CpuId, p: Pid, is_fork: bool) -> bool {
        let Some(curr) = self.core.rqs[cpu.idx()].curr_task else { return true };
        if curr == p {
            return false;
        }
        let now = self.core.now;
        let t = self.fair.tunables.clone();
        let curr_tg = self.core.tasks[curr.idx()].tg;
        let scale = self.cfs_of(curr_tg, cpu).nr_running as u64 >= t.nr_latency;
        let p_chain = self.chain(p, cpu);
        let (curr_policy, p_policy) = (self.core.tasks[curr.idx()].policy, self.core.tasks[p.idx()].policy);
        let mut next_marked = false;
        // An idle-policy task is never made a buddy (set_next_buddy / set_last_buddy, fair.c 4986–5002).
        if t.features.next_buddy && scale && !is_fork && p_policy != SchedPolicy::Idle {
            self.set_buddy_chain(&p_chain, cpu, true);
            next_marked = true;
        }
        if self.core.rqs[cpu.idx()].need_resched {
            // curr is already to be rescheduled (test_tsk_need_resched, fair.c 5048): no verdict is
            // needed, and curr must not become the last buddy.
            return false;
        }
        // SCHED_IDLE gives way to any other wakee at once; SCHED_BATCH and SCHED_IDLE wakees never
        // preempt, the tick does (fair.c 5052–5061).
        if curr_policy == SchedPolicy::Idle && p_policy != SchedPolicy::Idle {
            return true;
        }
        if p_policy != SchedPolicy::Normal || !t.features.wakeup_preemption {
            return false;
        }
        let c_chain = self.chain(curr, cpu);
        // Both chains end at the root: walk down from there while the two
        // ancestries share the same entity; where they part, compare.
        let (mut ci, mut pi) = (c_chain.len() - 1, p_chain.len() - 1);
        while ci > 0 && pi > 0 && c_chain[ci].1 == p_chain[pi].1 {
            ci -= 1;
            pi -= 1;
        }
        let (tg, se) = c_chain[ci];
        let (_, pse) = p_chain[pi];
        let (cfs, mut ents) = level!(self, tg, cpu);
        fair::update_curr(cfs, &mut ents, now, st);
        if st == FairStrategy::Eevdf {
            // EEVDF: preempt if the wakee is what pick_eevdf would run now.
            return eevdf::pick_eevdf(cfs, &ents, true) == Some(pse);
        }
        if self.core.policy.group_identity {
            let (ci, wi) = (ents.se(se).identity, ents.se(pse).identity);
            match wakeup_verdict(ci, wi) {
                Some(false) => return false,
                Some(true) => {
                    if wi == Identity::Highclass {
                        // Preempt now, and make the pick take the wakee at every level.
                        for &(ltg, lid) in &p_chain[pi..] {
                            let (cfs, _) = level!(self, ltg, cpu);
                            cfs.id_preempt = Some(lid);
                        }
                    }
                    return true;
                }
                None => {}
            }
        }
        if fair::wakeup_preempt_entity(ents.se(se), ents.se(pse), &t) != 1 {
            return false;
        }
        if !next_marked {
            self.set_buddy_chain(&p_chain[pi..], cpu, true);
        }
        if t.features.last_buddy && scale && !is_group(se) && self.ent(se).on_rq {
            self.set_buddy_chain(&c_chain[ci..], cpu, false);
        }
        true
    }

    /// `yield_task_fair`: the task becomes the skip buddy at every level, so
    /// the next pick prefers anyone else close enough.
    pub(super) fn fair_yield(&mut self, st: FairStrategy, pid: Pid, cpu: CpuId) {
        if self.core.rqs[cpu.idx()].nr_running() == 1 {
            // Alone on its CPU the yield marks nothing (yield_task_fair, fair.c 5247).
            return;
        }
        self.fair_update_curr(st, cpu);
        let chain = self.chain(pid, cpu);
        // The task's own buddies go, and above it only those that lead to it (yield_task_fair's
        // clear_buddies); then it is the skip buddy at every level.
        self.clear_buddies(&chain[..], cpu);
        for (tg, id) in chain {
            let (cfs, mut ents) = level!(self, tg, cpu);
            if cfs.id_preempt == Some(id) {
                cfs.id_preempt = None;
            }
            let se = ents.se_mut(id);
            if st == FairStrategy::Eevdf {
                // EEVDF's yield: give up the rest of this request.
                se.deadline += eevdf::vslice(se);
            } else {
                cfs.skip = Some(id);
            }
        }
    }
}

#[cfg(test)]
#[path = "class_test.rs"]
mod class_test;

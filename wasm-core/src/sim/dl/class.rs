//! The deadline class behind `SchedClass` (deadline.c of 4.1): EDF over each
//! CPU's queue, each task a constant bandwidth server (`cbs.rs`) throttled
//! when its runtime is spent and replenished by a timer at its deadline,
//! global EDF by push and pull (`push.rs`). Every function works on `DlCx`:
//! the core and this class's own state, nothing of another class.

use super::cbs::DlEntity;
use super::grub::{self, DlRqBw};
use super::server::FairServer;
use super::state::DlState;
use crate::balance::placement::PlaceKind;
use crate::config::Kernel;
use crate::sched::fair::EnqueueKind;
use crate::sim::class::{Balance, SchedClass};
use crate::sim::dispatch::{Others, Room, Sched};
use crate::sim::events::Event;
use crate::sim::misses::{DeadlineMiss, MissKind};
use crate::sim::Core;
use crate::time::{CpuId, Pid, SimTime};

#[derive(Debug)]
pub struct DlClass;
/// `dl_sched_class`.
pub static DL: DlClass = DlClass;

/// The deadline class's context for one call.
pub(super) struct DlCx<'a> {
    pub(super) core: &'a mut Core,
    others: Others<'a>,
    class: &'static dyn SchedClass,
}

fn state<'s>(others: &'s mut Others<'_>) -> &'s mut DlState {
    others.box_of_mut(Room::Dl).as_deref_mut().and_then(|d| d.as_any_mut().downcast_mut()).expect("the DL class runs")
}

impl<'a> DlCx<'a> {
    pub(super) fn of(s: &'a mut Sched<'_>) -> Self {
        let (core, others, class, room) = s.split_own();
        debug_assert_eq!(room, Room::Dl);
        DlCx { core, others, class }
    }

    pub(super) fn sched(&mut self) -> Sched<'_> {
        Sched::from_own(self.core, self.others.reborrow(), self.class, Room::Dl)
    }

    pub(super) fn parts(&mut self) -> (&mut Core, &mut DlState) {
        (&mut *self.core, state(&mut self.others))
    }

    pub(super) fn st(&mut self) -> &mut DlState {
        state(&mut self.others)
    }

    pub(super) fn deadline(&mut self, pid: Pid) -> u64 {
        self.st().ent(pid).deadline
    }

    pub(super) fn migratory(&self, pid: Pid) -> bool {
        self.core.tasks[pid.idx()].allowed.weight() > 1
    }

    /// The running task, if it is a deadline task.
    pub(super) fn dl_curr(&self, cpu: CpuId) -> Option<Pid> {
        self.core.rqs[cpu.idx()].curr_task.filter(|c| self.core.tasks[c.idx()].policy.is_dl())
    }

    fn update_dlo(&mut self, cpu: CpuId) {
        let st = self.st();
        if st.rqs[cpu.idx()].overloaded {
            st.dlo_mask.set(cpu);
        } else {
            st.dlo_mask.clear(cpu);
        }
    }

    /// `enqueue_dl_entity` and the counts: into the tree by deadline, pushable unless running.
    fn enqueue_entity(&mut self, pid: Pid, cpu: CpuId) {
        let migratory = self.migratory(pid);
        let running = self.core.rqs[cpu.idx()].curr_task == Some(pid);
        let (core, st) = self.parts();
        let deadline = st.ent(pid).deadline;
        st.rqs[cpu.idx()].enqueue(deadline, pid, migratory);
        if !running && migratory {
            st.rqs[cpu.idx()].enqueue_pushable(deadline, pid);
        }
        core.rqs[cpu.idx()].nr_running += 1;
        core.touch(cpu);
        self.update_dlo(cpu);
    }

    /// `__dequeue_task_dl`: out of the tree if it is there.
    fn dequeue_entity(&mut self, pid: Pid, cpu: CpuId) {
        let migratory = self.migratory(pid);
        let (core, st) = self.parts();
        if st.rqs[cpu.idx()].dequeue(pid, migratory) {
            core.rqs[cpu.idx()].nr_running -= 1;
            core.touch(cpu);
        }
        self.update_dlo(cpu);
    }

    /// `update_curr_dl`: charge the running deadline task; spent, it is
    /// throttled off the queue until its deadline's replenishment timer.
    pub(super) fn update_curr_dl(&mut self, cpu: CpuId) {
        let Some(pid) = self.dl_curr(cpu) else { return };
        let now = self.core.now;
        let se = &mut self.core.tasks[pid.idx()].se;
        let delta = now.since(se.exec_start);
        if delta == 0 {
            return;
        }
        se.sum_exec_runtime += delta;
        se.exec_start = now;
        let missed = self.st().ent(pid).misses;
        // SCHED_FLAG_RECLAIM (6.12): the run time is charged scaled by the active bandwidth (`dl_scaled_delta_exec`).
        let charged = match self.st().ent(pid).params.reclaim {
            true => {
                let bw = self.st().ent(pid).params.bw();
                self.st().bw[cpu.idx()].grub_reclaim(delta, bw)
            }
            false => delta,
        };
        let spent = self.st().ent_mut(pid).charge(charged, now.0);
        let ent = self.st().ent(pid);
        if ent.misses > missed {
            // The charge found the deadline passed with runtime owed: one record for the lanes.
            let deadline = SimTime(ent.deadline);
            let miss = DeadlineMiss { at: now, pid, cpu, deadline, kind: MissKind::Deadline };
            self.core.misses.push(miss);
        }
        if !spent {
            return;
        }
        self.st().ent_mut(pid).throttled = true;
        self.dequeue_entity(pid, cpu);
        self.start_dl_timer(pid, cpu);
        self.core.rqs[cpu.idx()].need_resched = true;
    }

    /// `start_dl_timer`: the replenishment at the deadline; one already past
    /// replenishes at once (`enqueue_task_dl(…, ENQUEUE_REPLENISH)`).
    fn start_dl_timer(&mut self, pid: Pid, cpu: CpuId) {
        let now = self.core.now.0;
        let at = self.deadline(pid);
        if at <= now {
            self.st().ent_mut(pid).replenish(now);
            self.enqueue_entity(pid, cpu);
            return;
        }
        let timers = &mut self.st().timers;
        let i = timers.partition_point(|&(t, _)| t <= at);
        timers.insert(i, (at, pid));
        self.core.push(SimTime(at), Event::ClassTimer(Room::Dl));
    }

    /// `dl_task_timer` for every timer due: replenish; a task still queued
    /// goes back on its CPU's tree and may preempt there.
    pub(super) fn fire_timers(&mut self) -> bool {
        let now = self.core.now.0;
        let due: Vec<Pid> = {
            let timers = &mut self.st().timers;
            let n = timers.partition_point(|&(t, _)| t <= now);
            timers.drain(..n).map(|(_, p)| p).collect()
        };
        for &pid in &due {
            if !self.core.tasks[pid.idx()].policy.is_dl() || !self.st().ent(pid).throttled {
                continue;
            }
            self.st().ent_mut(pid).replenish(now);
            if !self.core.tasks[pid.idx()].se.on_rq {
                continue;
            }
            let cpu = self.core.tasks[pid.idx()].cpu;
            self.enqueue_entity(pid, cpu);
            let preempt = match self.dl_curr(cpu) {
                Some(curr) => self.deadline(pid) < self.deadline(curr),
                None => true,
            };
            if preempt {
                self.core.rqs[cpu.idx()].need_resched = true;
            }
            if self.st().rqs[cpu.idx()].has_pushable() {
                self.push_dl_task(cpu);
            }
            self.sched().resched_if_needed(cpu);
        }
        !due.is_empty()
    }
}

impl SchedClass for DlClass {
    fn name(&self) -> &'static str {
        "deadline"
    }

    fn init(&self, s: &mut Sched<'_>) {
        let mut st = DlState::new(s.core.rqs.len());
        if s.core.kernel == Kernel::Linux612 {
            // fair_server_init on every CPU (core.c 8582); each starts with its fair class's first task.
            st.servers = vec![Some(FairServer::new()); s.core.rqs.len()];
            s.mark_fair_server();
            // GRUB's counts: each server's bandwidth is its CPU's (`dl_server_apply_params`, deadline.c 1916) and
            // is admitted on the root domain (`__dl_server_attach_root`).
            st.bw = vec![DlRqBw::new(); s.core.rqs.len()];
            let online: Vec<usize> = s.core.online.iter().map(|c| c.idx()).collect();
            for (c, server) in st.servers.iter_mut().enumerate() {
                let ent = &mut server.as_mut().expect("a server per CPU").ent;
                grub::attach(ent, &mut st.bw, c);
                grub::admit(&mut st.bw, online.iter().copied(), ent.params.bw(), true);
            }
        }
        s.set_state(Box::new(st));
    }

    /// `__setparam_dl` at the task's start: a new server (set up at its first enqueue).
    fn task_new(&self, s: &mut Sched<'_>, pid: Pid) {
        let params = s.core.tasks[pid.idx()].dl.expect("a deadline task has its reservation");
        let mut cx = DlCx::of(s);
        let online: Vec<usize> = cx.core.online.iter().map(|c| c.idx()).collect();
        let st = cx.st();
        if st.ents.len() <= pid.idx() {
            st.ents.resize(pid.idx() + 1, None);
        }
        st.ents[pid.idx()] = Some(DlEntity::new(params));
        if !st.bw.is_empty() {
            // Admitted (`sched_dl_overflow` → `__dl_add`): its share leaves every CPU's unreserved bandwidth.
            grub::admit(&mut st.bw, online.into_iter(), params.bw(), true);
        }
    }

    /// Leaving the class (`switched_from_dl`): its bandwidth leaves GRUB's counts and admission (6.12).
    fn switched_from(&self, s: &mut Sched<'_>, pid: Pid) {
        DlCx::of(s).grub_release(pid);
    }

    /// `task_dead_dl`: under 6.12 a dying task stays active until its 0-lag time (`task_non_contending` with
    /// TASK_DEAD), then its bandwidth is released.
    fn task_dead(&self, s: &mut Sched<'_>, pid: Pid) {
        let mut cx = DlCx::of(s);
        if cx.st().bw.is_empty() {
            return;
        }
        let now = cx.core.now.0;
        let (core, st) = cx.parts();
        let ent = st.ents[pid.idx()].as_mut().expect("a deadline task");
        match grub::stop_contending(ent, &mut st.bw, now) {
            Some(at) => {
                ent.grub.dead = true;
                let i = st.inactive.partition_point(|&(t, _)| t <= at);
                st.inactive.insert(i, (at, pid));
                core.push(SimTime(at), Event::ClassTimer(Room::Dl));
            }
            None if !ent.grub.non_contending => cx.grub_release(pid),
            None => cx.st().ent_mut(pid).grub.dead = true,
        }
    }

    /// After `sched_setattr` to SCHED_DEADLINE: a new server, set up at its
    /// next enqueue. 4.1 marks every task's server new at fork (`__sched_fork`,
    /// core.c 1786), so a first switch matches; a task coming back keeps its
    /// old deadline in 4.1 (`__setparam_dl` 3246–3276), which the model does not.
    fn switched_to(&self, s: &mut Sched<'_>, pid: Pid) {
        self.task_new(s, pid);
    }

    /// `enqueue_task_dl`: a throttled task waits for its timer, counted
    /// queued by the core but not on the tree (`activate_task` marks it
    /// on_rq whatever the class does).
    fn enqueue_task(&self, s: &mut Sched<'_>, pid: Pid, cpu: CpuId, kind: EnqueueKind) {
        let mut cx = DlCx::of(s);
        cx.core.tasks[pid.idx()].se.on_rq = true;
        let now = cx.core.now.0;
        let st = cx.st();
        if !st.bw.is_empty() {
            // task_contending (6.12): active on this CPU, throttled or not; a move brings its bandwidth along.
            let ent = st.ents[pid.idx()].as_mut().expect("a deadline task");
            grub::contend(ent, &mut st.bw, cpu.idx());
        }
        let ent = cx.st().ent_mut(pid);
        if ent.throttled {
            return;
        }
        if ent.new || matches!(kind, EnqueueKind::Wakeup | EnqueueKind::New) {
            ent.update_at_wakeup(now);
        }
        cx.enqueue_entity(pid, cpu);
    }

    /// A block (6.12) starts the task's way out of the active bandwidth (`task_non_contending`).
    fn dequeue_task(&self, s: &mut Sched<'_>, pid: Pid, cpu: CpuId, sleeping: bool) {
        let mut cx = DlCx::of(s);
        cx.update_curr_dl(cpu);
        cx.dequeue_entity(pid, cpu);
        cx.core.tasks[pid.idx()].se.on_rq = false;
        if sleeping && !cx.st().bw.is_empty() {
            cx.grub_block(pid);
        }
    }

    /// `yield_task_dl`: give up the rest of this runtime; the next replenishment comes at the deadline.
    fn yield_task(&self, s: &mut Sched<'_>, pid: Pid, cpu: CpuId) {
        let mut cx = DlCx::of(s);
        cx.update_curr_dl(cpu);
        if cx.st().ent(pid).throttled {
            return;
        }
        cx.st().ent_mut(pid).runtime = 0;
        cx.st().ent_mut(pid).throttled = true;
        cx.dequeue_entity(pid, cpu);
        cx.start_dl_timer(pid, cpu);
        cx.core.rqs[cpu.idx()].need_resched = true;
    }

    /// `check_preempt_curr_dl`: an earlier deadline preempts (the core settled other classes).
    fn check_preempt_curr(&self, s: &mut Sched<'_>, cpu: CpuId, pid: Pid, _is_fork: bool) -> bool {
        let mut cx = DlCx::of(s);
        let Some(curr) = cx.core.rqs[cpu.idx()].curr_task else { return true };
        if cx.st().ent(pid).throttled {
            return false;
        }
        cx.deadline(pid) < cx.deadline(curr)
    }

    /// `pick_next_task_dl`: pull first after a deadline task was put back; the leftmost runs. Under 6.12 the
    /// fair server takes part (`__pick_task_dl`, deadline.c 2612–2636): when its deadline is the earliest, the
    /// fair class picks, and a server with nothing to pick stops and the pick goes on.
    fn pick_next_task(&self, s: &mut Sched<'_>, cpu: CpuId) -> Option<Pid> {
        let mut cx = DlCx::of(s);
        if std::mem::take(&mut cx.st().pull_due[cpu.idx()]) {
            cx.pull_dl_task(cpu);
        }
        if let Some(server) = cx.server_deadline(cpu) {
            // The tree's order between equal deadlines is arrival; the server is drawn after the tasks.
            if cx.st().rqs[cpu.idx()].earliest().is_none_or(|d| server < d) {
                match cx.sched().pick_run_class(cpu) {
                    Some(pid) => return Some(pid),
                    None => cx.dl_server_stop(cpu),
                }
            }
        }
        let now = cx.core.now;
        let (core, st) = cx.parts();
        let pid = st.rqs[cpu.idx()].first()?;
        st.rqs[cpu.idx()].dequeue_pushable(pid);
        core.tasks[pid.idx()].se.exec_start = now;
        Some(pid)
    }

    fn put_prev_task(&self, s: &mut Sched<'_>, pid: Pid, cpu: CpuId) {
        let mut cx = DlCx::of(s);
        cx.update_curr_dl(cpu);
        let queued = cx.st().rqs[cpu.idx()].queued().any(|(_, p)| p == pid);
        if queued && cx.migratory(pid) {
            let d = cx.deadline(pid);
            cx.st().rqs[cpu.idx()].enqueue_pushable(d, pid);
        }
        cx.st().pull_due[cpu.idx()] = true;
    }

    fn update_curr(&self, s: &mut Sched<'_>, cpu: CpuId) {
        DlCx::of(s).update_curr_dl(cpu);
    }

    /// `task_tick_dl`: charge (HRTICK is off in 4.1, so a runtime is found spent at a tick).
    fn task_tick(&self, s: &mut Sched<'_>, _pid: Pid, cpu: CpuId) -> bool {
        DlCx::of(s).update_curr_dl(cpu);
        false
    }

    /// `select_task_rq_dl`: away from a CPU running a deadline task it would
    /// not preempt (or that cannot move), to `find_later_rq`'s CPU.
    fn select_task_rq(&self, s: &mut Sched<'_>, pid: Pid, waker: CpuId, kind: PlaceKind) -> CpuId {
        let mut cx = DlCx::of(s);
        let mut cpu = if kind == PlaceKind::Fork { waker } else { cx.core.tasks[pid.idx()].cpu };
        if matches!(kind, PlaceKind::Wakeup | PlaceKind::SyncWakeup | PlaceKind::Fork) && cx.migratory(pid) {
            if let Some(curr) = cx.dl_curr(cpu) {
                // The wakee's deadline is not yet renewed here, as in the kernel (update_dl_entity runs at enqueue).
                if !cx.migratory(curr) || cx.deadline(pid) >= cx.deadline(curr) {
                    if let Some(target) = cx.find_later_rq(pid, Some(waker)) {
                        cpu = target;
                    }
                }
            }
        }
        if cx.core.online.test(cpu) && cx.core.tasks[pid.idx()].allowed.test(cpu) {
            cpu
        } else {
            cx.core.select_fallback_rq(pid, cpu)
        }
    }

    /// `task_woken_dl`: a wakee that waits behind an earlier deadline is pushed at once.
    fn task_woken(&self, s: &mut Sched<'_>, pid: Pid, cpu: CpuId) {
        let mut cx = DlCx::of(s);
        let rq = &cx.core.rqs[cpu.idx()];
        if rq.curr_task == Some(pid) || rq.need_resched || !cx.migratory(pid) {
            return;
        }
        let Some(curr) = cx.dl_curr(cpu) else { return };
        if !cx.st().rqs[cpu.idx()].has_pushable() || cx.st().ent(pid).throttled {
            return;
        }
        if !cx.migratory(curr) || cx.deadline(pid) >= cx.deadline(curr) {
            cx.push_dl_tasks(cpu);
        }
    }

    /// `post_schedule_dl`: after the class picked a task, push what else waits. The fair server (6.12) notes
    /// the switch: idle time ends or begins, a fair task is charged from here.
    fn task_switched(&self, s: &mut Sched<'_>, cpu: CpuId, prev: Option<Pid>, next: Option<Pid>) {
        DlCx::of(s).server_switched(cpu, prev, next);
        if next.is_none_or(|n| !s.core.tasks[n.idx()].policy.is_dl()) {
            return;
        }
        let mut cx = DlCx::of(s);
        if cx.st().rqs[cpu.idx()].has_pushable() {
            cx.push_dl_tasks(cpu);
        }
    }

    fn timer(&self, s: &mut Sched<'_>) -> bool {
        let mut cx = DlCx::of(s);
        let tasks = cx.fire_timers();
        let inactive = cx.fire_inactive_timers();
        cx.fire_server_timers() || tasks || inactive
    }

    /// A CPU going offline stops its fair server (`sched_cpu_dying`, core.c 8368 in 6.12).
    fn cpus_changed(&self, s: &mut Sched<'_>) {
        let mut cx = DlCx::of(s);
        for c in 0..cx.st().servers.len() {
            let cpu = CpuId(c as u32);
            if !cx.core.online.test(cpu) {
                cx.dl_server_stop(cpu);
            }
        }
    }

    fn fair_class_woke(&self, s: &mut Sched<'_>, cpu: CpuId) {
        DlCx::of(s).fair_class_woke(cpu);
    }

    fn fair_ran(&self, s: &mut Sched<'_>, cpu: CpuId) {
        DlCx::of(s).dl_server_update(cpu);
    }

    /// The deadline class balances by push and pull, never periodically.
    fn balance(&self, _s: &mut Sched<'_>, _cpu: CpuId, _why: Balance) -> bool {
        false
    }
}

/// GRUB's events of a task (6.12), at the class's points.
impl DlCx<'_> {
    /// `task_non_contending` at a block: the inactive timer at its 0-lag time, if that is still ahead.
    fn grub_block(&mut self, pid: Pid) {
        let now = self.core.now.0;
        let (core, st) = self.parts();
        let ent = st.ents[pid.idx()].as_mut().expect("a deadline task");
        if let Some(at) = grub::stop_contending(ent, &mut st.bw, now) {
            let i = st.inactive.partition_point(|&(t, _)| t <= at);
            st.inactive.insert(i, (at, pid));
            core.push(SimTime(at), Event::ClassTimer(Room::Dl));
        }
    }

    /// The task's bandwidth leaves GRUB's counts and the admitted sum (`__dl_sub`).
    fn grub_release(&mut self, pid: Pid) {
        let online: Vec<usize> = self.core.online.iter().map(|c| c.idx()).collect();
        let st = self.st();
        if st.bw.is_empty() {
            return;
        }
        let Some(ent) = st.ents.get_mut(pid.idx()).and_then(|e| e.as_mut()) else { return };
        let bw = ent.params.bw();
        grub::detach(ent, &mut st.bw);
        grub::admit(&mut st.bw, online.into_iter(), bw, false);
    }

    /// `inactive_task_timer` for every task whose 0-lag time came while it slept; a dead one is released.
    fn fire_inactive_timers(&mut self) -> bool {
        let now = self.core.now.0;
        let st = self.st();
        let n = st.inactive.partition_point(|&(t, _)| t <= now);
        let due: Vec<Pid> = st.inactive.drain(..n).map(|(_, p)| p).collect();
        for &pid in &due {
            let st = self.st();
            let Some(ent) = st.ents.get_mut(pid.idx()).and_then(|e| e.as_mut()) else { continue };
            if ent.grub.inactive_at.is_none_or(|t| t > now) {
                continue;
            }
            grub::inactive_timer(ent, &mut st.bw);
            if ent.grub.dead {
                self.grub_release(pid);
            }
        }
        !due.is_empty()
    }
}

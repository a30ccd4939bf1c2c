//! The real-time class behind `SchedClass` (rt.c of 4.1): FIFO lists per
//! priority with a bitmap, RR's slice, wakeup placement by cpupri, push and
//! pull (`push.rs`), throttling (`bandwidth.rs`). Every function works on
//! `RtCx`: the core and this class's own state, nothing of another class.

use super::state::RtState;
use crate::balance::placement::PlaceKind;
use crate::sched::fair::EnqueueKind;
use crate::sim::class::{Balance, SchedClass};
use crate::sim::dispatch::{Others, Room, Sched};
use crate::sim::Core;
use crate::task::TaskState;
use crate::time::{CpuId, Pid};

#[derive(Debug)]
pub struct RtClass;
/// `rt_sched_class`.
pub static RT: RtClass = RtClass;

/// The real-time class's context for one call.
pub(super) struct RtCx<'a> {
    pub(super) core: &'a mut Core,
    /// The class's box among the rest, handed back to the core's dispatch.
    others: Others<'a>,
    class: &'static dyn SchedClass,
}

/// The class's state in its room.
fn state<'s>(others: &'s mut Others<'_>) -> &'s mut RtState {
    others.box_of_mut(Room::Rt).as_deref_mut().and_then(|d| d.as_any_mut().downcast_mut()).expect("the RT class runs")
}

impl<'a> RtCx<'a> {
    pub(super) fn of(s: &'a mut Sched<'_>) -> Self {
        let (core, others, class, room) = s.split_own();
        debug_assert_eq!(room, Room::Rt);
        RtCx { core, others, class }
    }

    /// The core's dispatch, with this class's state handed back.
    pub(super) fn sched(&mut self) -> Sched<'_> {
        Sched::from_own(self.core, self.others.reborrow(), self.class, Room::Rt)
    }

    /// The state and the core at once.
    pub(super) fn parts(&mut self) -> (&mut Core, &mut RtState) {
        (&mut *self.core, state(&mut self.others))
    }

    pub(super) fn st(&mut self) -> &mut RtState {
        state(&mut self.others)
    }

    pub(super) fn prio(&self, pid: Pid) -> u32 {
        self.core.tasks[pid.idx()].prio
    }

    /// `p->nr_cpus_allowed > 1`.
    pub(super) fn migratory(&self, pid: Pid) -> bool {
        self.core.tasks[pid.idx()].allowed.weight() > 1
    }

    /// `rq->curr`'s prio, the idle task's (MAX_PRIO, 140) when nothing runs.
    /// A deadline task's is −1 (MAX_DL_PRIO − 1), more urgent than any
    /// real-time prio; 0 compares the same way against a real-time task's
    /// (never `<`, always `<=`), so it stands for it here.
    pub(super) fn curr_prio(&self, cpu: CpuId) -> u32 {
        self.core.rqs[cpu.idx()].curr_task.map_or(140, |c| {
            if self.core.tasks[c.idx()].policy.is_dl() {
                0
            } else {
                self.prio(c)
            }
        })
    }

    /// `rt_task(rq->curr)`: a prio below MAX_RT_PRIO, which a deadline task's is too.
    pub(super) fn curr_is_rt(&self, cpu: CpuId) -> bool {
        self.core.rqs[cpu.idx()].curr_task.is_some_and(|c| self.core.tasks[c.idx()].above_fair())
    }

    /// The overload mask follows the runqueue's flag (`rt_set_overload` / `rt_clear_overload`).
    fn update_rto(&mut self, cpu: CpuId) {
        let st = self.st();
        if st.rqs[cpu.idx()].overloaded {
            st.rto_mask.set(cpu);
        } else {
            st.rto_mask.clear(cpu);
        }
    }

    /// `enqueue_task_rt`: into the array; counted in `rq->nr_running` unless
    /// the runqueue is throttled (`enqueue_top_rt_rq`); pushable unless running.
    fn enqueue(&mut self, pid: Pid, cpu: CpuId, head: bool) {
        let (prio, migratory) = (self.prio(pid), self.migratory(pid));
        let running = self.core.rqs[cpu.idx()].curr_task == Some(pid);
        let (core, st) = self.parts();
        let rt_rq = &mut st.rqs[cpu.idx()];
        rt_rq.enqueue(prio, pid, head, migratory);
        if !rt_rq.throttled {
            core.rqs[cpu.idx()].nr_running += 1;
        }
        if !running && migratory {
            rt_rq.enqueue_pushable(prio, pid);
        }
        core.tasks[pid.idx()].se.on_rq = true;
        self.update_rto(cpu);
        // inc_rt_group: the bandwidth timer runs while there is real-time work.
        self.start_rt_bandwidth();
    }

    /// `dequeue_task_rt`.
    fn dequeue(&mut self, pid: Pid, cpu: CpuId) {
        self.update_curr_rt(cpu);
        let migratory = self.migratory(pid);
        let (core, st) = self.parts();
        let rt_rq = &mut st.rqs[cpu.idx()];
        if rt_rq.dequeue(pid, migratory) && !rt_rq.throttled {
            core.rqs[cpu.idx()].nr_running -= 1;
        }
        core.tasks[pid.idx()].se.on_rq = false;
        self.update_rto(cpu);
    }
}

impl SchedClass for RtClass {
    fn name(&self) -> &'static str {
        "rt"
    }

    fn init(&self, s: &mut Sched<'_>) {
        let mut st = RtState::new(s.core.rqs.len(), s.core.tick_ns);
        // RT_RUNTIME_SHARE: on in 4.1 (features.h), off by default since 4.18 (6.12's features.h 119); and 6.12
        // without RT_GROUP_SCHED (Debian's build) has no real-time bandwidth to share or enforce.
        let linux41 = s.core.kernel == crate::config::Kernel::Linux41;
        st.runtime_share = linux41;
        st.bandwidth = linux41;
        s.set_state(Box::new(st));
    }

    fn task_new(&self, s: &mut Sched<'_>, pid: Pid) {
        // __sched_fork: a new task starts with a whole RR slice.
        let slice = RtCx::of(s).st().rr_timeslice;
        s.core.tasks[pid.idx()].rt_time_slice = slice;
    }

    fn enqueue_task(&self, s: &mut Sched<'_>, pid: Pid, cpu: CpuId, _kind: EnqueueKind) {
        RtCx::of(s).enqueue(pid, cpu, false);
    }

    fn dequeue_task(&self, s: &mut Sched<'_>, pid: Pid, cpu: CpuId, _sleeping: bool) {
        RtCx::of(s).dequeue(pid, cpu);
    }

    /// `yield_task_rt`: to the tail of its priority's list.
    fn yield_task(&self, s: &mut Sched<'_>, pid: Pid, cpu: CpuId) {
        RtCx::of(s).st().rqs[cpu.idx()].requeue(pid, false);
    }

    /// `check_preempt_curr_rt` (the core has settled preemption across classes).
    fn check_preempt_curr(&self, s: &mut Sched<'_>, cpu: CpuId, pid: Pid, _is_fork: bool) -> bool {
        let mut cx = RtCx::of(s);
        let Some(curr) = cx.core.rqs[cpu.idx()].curr_task else { return true };
        let (p, c) = (cx.prio(pid), cx.prio(curr));
        if p < c {
            return true;
        }
        p == c && !cx.core.rqs[cpu.idx()].need_resched && cx.check_preempt_equal_prio(cpu, pid, curr)
    }

    /// `pick_next_task_rt`: pull first if the last real-time task left the
    /// runqueue less urgent than it; nothing while throttled.
    fn pick_next_task(&self, s: &mut Sched<'_>, cpu: CpuId) -> Option<Pid> {
        let mut cx = RtCx::of(s);
        if std::mem::take(&mut cx.st().rqs[cpu.idx()].pull_due) {
            cx.pull_rt_task(cpu);
        }
        let now = cx.core.now;
        let (core, st) = cx.parts();
        let rt_rq = &mut st.rqs[cpu.idx()];
        if rt_rq.throttled {
            return None;
        }
        let pid = rt_rq.first()?;
        rt_rq.dequeue_pushable(pid);
        core.tasks[pid.idx()].se.exec_start = now;
        Some(pid)
    }

    /// `put_prev_task_rt`: charged, pushable again if still queued; a task
    /// that leaves its runqueue less urgent asks the next pick to pull.
    fn put_prev_task(&self, s: &mut Sched<'_>, pid: Pid, cpu: CpuId) {
        let mut cx = RtCx::of(s);
        cx.update_curr_rt(cpu);
        let (prio, migratory) = (cx.prio(pid), cx.migratory(pid));
        let queued = cx.core.tasks[pid.idx()].se.on_rq;
        let rt_rq = &mut cx.st().rqs[cpu.idx()];
        if queued && migratory {
            rt_rq.enqueue_pushable(prio, pid);
        }
        rt_rq.pull_due = rt_rq.highest_prio() > prio;
    }

    fn update_curr(&self, s: &mut Sched<'_>, cpu: CpuId) {
        RtCx::of(s).update_curr_rt(cpu);
    }

    /// `task_tick_rt`: charge; an RR task that used up its slice goes to the
    /// back of its list if another task shares it.
    fn task_tick(&self, s: &mut Sched<'_>, pid: Pid, cpu: CpuId) -> bool {
        let mut cx = RtCx::of(s);
        cx.update_curr_rt(cpu);
        let task = &mut cx.core.tasks[pid.idx()];
        if task.policy != crate::sched::policy::SchedPolicy::Rr {
            return false;
        }
        task.rt_time_slice = task.rt_time_slice.saturating_sub(1);
        if task.rt_time_slice > 0 {
            return false;
        }
        let prio = task.prio;
        let slice = cx.st().rr_timeslice;
        cx.core.tasks[pid.idx()].rt_time_slice = slice;
        let rt_rq = &mut cx.st().rqs[cpu.idx()];
        if rt_rq.at_prio(prio) > 1 {
            rt_rq.requeue(pid, false);
            return true;
        }
        false
    }

    /// `select_task_rq_rt`: a wakee or child stays where it was unless a
    /// real-time task runs there that it would not preempt (or that cannot
    /// move); then the lowest CPU cpupri finds, if it runs something less urgent.
    fn select_task_rq(&self, s: &mut Sched<'_>, pid: Pid, waker: CpuId, kind: PlaceKind) -> CpuId {
        let mut cx = RtCx::of(s);
        let mut cpu = if kind == PlaceKind::Fork { waker } else { cx.core.tasks[pid.idx()].cpu };
        if matches!(kind, PlaceKind::Wakeup | PlaceKind::SyncWakeup | PlaceKind::Fork) && cx.curr_is_rt(cpu) {
            let curr = cx.core.rqs[cpu.idx()].curr_task.expect("real-time curr");
            if !cx.migratory(curr) || cx.curr_prio(cpu) <= cx.prio(pid) {
                if let Some(target) = cx.find_lowest_rq(pid, Some(waker)) {
                    if cx.prio(pid) < cx.st().rqs[target.idx()].highest_prio() {
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

    /// `task_woken_rt`: a wakee that must wait behind a real-time task it
    /// does not preempt is pushed elsewhere at once.
    fn task_woken(&self, s: &mut Sched<'_>, pid: Pid, cpu: CpuId) {
        let mut cx = RtCx::of(s);
        let rq = &cx.core.rqs[cpu.idx()];
        let Some(curr) = rq.curr_task else { return };
        if curr == pid || rq.need_resched || !cx.st().rqs[cpu.idx()].has_pushable() || !cx.migratory(pid) {
            return;
        }
        if cx.curr_is_rt(cpu) && (!cx.migratory(curr) || cx.curr_prio(cpu) <= cx.prio(pid)) {
            cx.push_rt_tasks(cpu);
        }
    }

    fn task_dead(&self, _s: &mut Sched<'_>, _pid: Pid) {}

    /// `post_schedule_rt`: after the class picked a task, push what else waits.
    fn task_switched(&self, s: &mut Sched<'_>, cpu: CpuId, _prev: Option<Pid>, next: Option<Pid>) {
        if next.is_none_or(|n| !s.core.tasks[n.idx()].in_rt_class()) {
            return;
        }
        let mut cx = RtCx::of(s);
        if cx.st().rqs[cpu.idx()].has_pushable() {
            cx.push_rt_tasks(cpu);
        }
    }

    /// The bandwidth period (`sched_rt_period_timer`).
    fn timer(&self, s: &mut Sched<'_>) -> bool {
        RtCx::of(s).period_timer()
    }

    /// The real-time class balances by push and pull, never periodically.
    fn balance(&self, _s: &mut Sched<'_>, _cpu: CpuId, _why: Balance) -> bool {
        false
    }
}

impl RtCx<'_> {
    /// A queued task that is neither running nor asleep (for the asserts of push and pull).
    pub(super) fn waiting(&self, pid: Pid) -> bool {
        self.core.tasks[pid.idx()].state == TaskState::Runnable
    }
}

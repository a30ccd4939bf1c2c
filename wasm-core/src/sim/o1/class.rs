//! The O(1) scheduler as its own class (policy.kind "o1"; the structures are
//! in `sched::o1`): `O1Class` behind `SchedClass`, its runqueues and task
//! records an `O1State` in the simulator's class data (created by `init`),
//! its balancer `sim::o1::balance` behind `SchedClass::balance`.
//!
//! As in 2.6, the running task stays queued in its array; when its timeslice
//! runs out it is requeued with a fresh slice — in the expired array, unless
//! it is TASK_INTERACTIVE and the expired tasks are not starving
//! (EXPIRED_STARVING) — and when the active array empties the two swap.
//!
//! Balancing by nr_running is in `sim::o1::balance`. Simplified [our
//! reading]: a new task goes to the least loaded allowed CPU; a new task starts with sleep_avg 0 and a full
//! timeslice (the fork split of the parent's slice is not modelled); all
//! sleeps are interruptible.

use crate::balance::placement::PlaceKind;
use crate::sched::fair::EnqueueKind;
use crate::sched::o1::*;
use crate::sim::class::{Balance, SchedClass};
use crate::sim::dispatch::{Others, Room, Sched};
use crate::sim::Core;
use crate::time::{CpuId, Pid};

/// The O(1) class (stateless; its state is the run's `O1State`).
#[derive(Debug)]
pub struct O1Class;

pub static O1: O1Class = O1Class;

impl SchedClass for O1Class {
    fn name(&self) -> &'static str {
        "o1"
    }

    fn init(&self, s: &mut Sched<'_>) {
        let rqs = (0..s.core.rqs.len()).map(|_| O1Rq::new()).collect();
        s.set_state(Box::new(O1State { rqs, tasks: Vec::new() }));
    }

    /// A task arriving from another class starts as a new one would (no
    /// sleep credit, a full timeslice); the enqueue that follows puts it in
    /// the active array.
    fn switched_to(&self, s: &mut Sched<'_>, pid: Pid) {
        let cx = &mut O1Cx::of(s);
        let (now, tick, nice) = (cx.core.now.ns(), cx.core.tick_ns, cx.core.tasks[pid.idx()].nice);
        let t = cx.o1_task(pid);
        t.static_prio = static_prio(nice);
        t.time_slice_ns = task_timeslice(t.static_prio, tick);
        t.prio = effective_prio(t.static_prio, t.sleep_avg_ns);
        t.timestamp_ns = now;
    }

    fn enqueue_task(&self, s: &mut Sched<'_>, pid: Pid, cpu: CpuId, kind: EnqueueKind) {
        let cx = &mut O1Cx::of(s);
        cx.o1_enqueue(pid, cpu, kind);
    }

    fn dequeue_task(&self, s: &mut Sched<'_>, pid: Pid, cpu: CpuId, _sleeping: bool) {
        let cx = &mut O1Cx::of(s);
        cx.o1_dequeue(pid, cpu);
    }

    fn yield_task(&self, s: &mut Sched<'_>, pid: Pid, cpu: CpuId) {
        let cx = &mut O1Cx::of(s);
        cx.o1_yield(pid, cpu);
    }

    fn check_preempt_curr(&self, s: &mut Sched<'_>, cpu: CpuId, pid: Pid, _is_fork: bool) -> bool {
        let cx = &mut O1Cx::of(s);
        cx.o1_preempts_curr(cpu, pid)
    }

    fn pick_next_task(&self, s: &mut Sched<'_>, cpu: CpuId) -> Option<Pid> {
        let cx = &mut O1Cx::of(s);
        cx.o1_pick(cpu)
    }

    fn put_prev_task(&self, s: &mut Sched<'_>, pid: Pid, cpu: CpuId) {
        let cx = &mut O1Cx::of(s);
        cx.o1_put_prev(pid, cpu);
    }

    fn update_curr(&self, s: &mut Sched<'_>, cpu: CpuId) {
        let cx = &mut O1Cx::of(s);
        cx.o1_update_curr(cpu);
    }

    fn task_tick(&self, s: &mut Sched<'_>, pid: Pid, cpu: CpuId) -> bool {
        let cx = &mut O1Cx::of(s);
        cx.o1_tick(pid, cpu)
    }

    /// No wakeup balancing: a woken task stays where it slept (if it still
    /// may), a new task goes to the least loaded CPU. An exec stays too: the
    /// model leaves out 2.6's `sched_balance_exec`.
    fn select_task_rq(&self, s: &mut Sched<'_>, pid: Pid, _waker: CpuId, kind: PlaceKind) -> CpuId {
        let cx = &mut O1Cx::of(s);
        let prev = cx.core.tasks[pid.idx()].cpu;
        let usable = |c: CpuId| cx.core.online.test(c) && cx.core.tasks[pid.idx()].allowed.test(c);
        match (kind == PlaceKind::Fork, cx.o1_select_fork_cpu(pid)) {
            (true, Some(c)) => c,
            _ if usable(prev) => prev,
            _ => cx.core.select_fallback_rq(pid, prev),
        }
    }

    fn balance(&self, s: &mut Sched<'_>, cpu: CpuId, why: Balance) -> bool {
        let cx = &mut O1Cx::of(s);
        match why {
            Balance::Tick => {
                cx.o1_rebalance_tick(cpu);
                false
            }
            Balance::NewlyIdle => cx.o1_load_balance(cpu, true),
            // The 4.1 balancer's kicks and pushes: none is ever asked for
            // under O(1) (one left from a class switch is dropped).
            Balance::NohzKick | Balance::Stopper { .. } => false,
        }
    }
}

/// The O(1) class's context for one call: the core and its own state.
pub(in crate::sim) struct O1Cx<'a> {
    pub(in crate::sim) core: &'a mut Core,
    /// The class's box (holding its `O1State`) among the rest, handed back to the core's dispatch.
    others: Others<'a>,
    class: &'static dyn SchedClass,
    room: Room,
}

impl<'a> O1Cx<'a> {
    pub(in crate::sim) fn of(s: &'a mut Sched<'_>) -> Self {
        let (core, others, class, room) = s.split_own();
        O1Cx { core, others, class, room }
    }

    /// The core's dispatch, with the O(1) state handed back.
    pub(in crate::sim) fn sched(&mut self) -> Sched<'_> {
        Sched::from_own(self.core, self.others.reborrow(), self.class, self.room)
    }
}

impl O1Cx<'_> {
    pub(in crate::sim) fn o1_state(&self) -> &O1State {
        self.others.box_of(self.room).as_deref().and_then(|d| d.as_any().downcast_ref()).expect("O(1) runs")
    }

    pub(in crate::sim) fn o1_state_mut(&mut self) -> &mut O1State {
        self.others.box_of_mut(self.room).as_deref_mut().and_then(|d| d.as_any_mut().downcast_mut()).expect("O(1) runs")
    }

    fn o1_task(&mut self, pid: Pid) -> &mut O1Task {
        let o1 = self.o1_state_mut();
        if o1.tasks.len() <= pid.idx() {
            o1.tasks.resize(pid.idx() + 1, O1Task::default());
        }
        &mut o1.tasks[pid.idx()]
    }

    /// A CPU for a new task: the allowed online CPU with the fewest tasks.
    fn o1_select_fork_cpu(&self, pid: Pid) -> Option<CpuId> {
        let allowed = &self.core.tasks[pid.idx()].allowed;
        self.core
            .rqs
            .iter()
            .filter(|rq| rq.online && allowed.test(rq.cpu))
            .min_by_key(|rq| (rq.nr_running(), rq.cpu))
            .map(|rq| rq.cpu)
    }

    fn o1_enqueue_array(&mut self, cpu: CpuId, pid: Pid, expired: bool) {
        let prio = self.o1_task(pid).prio;
        let o1 = self.o1_state_mut();
        let rq = &mut o1.rqs[cpu.idx()];
        let idx = if expired { 1 - rq.active } else { rq.active };
        rq.arrays[idx].enqueue(prio, pid);
        o1.tasks[pid.idx()].array = Some(idx);
    }

    fn o1_dequeue_array(&mut self, cpu: CpuId, pid: Pid) {
        let t = self.o1_task(pid).clone();
        if let Some(idx) = t.array {
            let o1 = self.o1_state_mut();
            let rq = &mut o1.rqs[cpu.idx()];
            rq.arrays[idx].dequeue(t.prio, pid);
            let was_expired = idx != rq.active;
            let t = &mut o1.tasks[pid.idx()];
            t.array = None;
            t.was_expired = was_expired;
        }
    }

    /// `activate_task`: a new task gets its timeslice; a woken one its sleep
    /// credit (`recalc_task_prio`); both go to the active array.
    fn o1_enqueue(&mut self, pid: Pid, cpu: CpuId, kind: EnqueueKind) {
        if kind == EnqueueKind::Migrate {
            // pull_task: same prio, same kind of array, no sleep credit.
            let expired = self.o1_task(pid).was_expired;
            self.o1_enqueue_array(cpu, pid, expired);
            self.o1_state_mut().rqs[cpu.idx()].nr_running += 1;
            self.core.rqs[cpu.idx()].nr_running += 1;
            self.core.touch(cpu);
            self.core.tasks[pid.idx()].se.on_rq = true;
            return;
        }
        let is_new = kind == EnqueueKind::New;
        let (now, tick, nice) = (self.core.now.ns(), self.core.tick_ns, self.core.tasks[pid.idx()].nice);
        let t = self.o1_task(pid);
        if t.static_prio == 0 {
            // First arrival (a new task, or one whose program began by sleeping).
            t.static_prio = static_prio(nice);
            t.time_slice_ns = task_timeslice(t.static_prio, tick);
        }
        if !is_new {
            // recalc_task_prio: up to 1 s of sleep, weighted by how far the
            // task is from the top bonus; a long sleeper becomes interactive.
            let slept = now.saturating_sub(t.timestamp_ns).min(MAX_SLEEP_AVG_NS);
            if slept > 0 {
                let long = interactive_sleep_ns(nice, tick);
                if slept > long {
                    t.sleep_avg_ns = t.sleep_avg_ns.max(MAX_SLEEP_AVG_NS - DEF_TIMESLICE_NS);
                } else {
                    let weight = (MAX_BONUS - current_bonus(t.sleep_avg_ns)).max(1);
                    t.sleep_avg_ns = (t.sleep_avg_ns + slept * weight).min(MAX_SLEEP_AVG_NS);
                }
            }
            t.activated = 1;
        }
        t.prio = effective_prio(t.static_prio, t.sleep_avg_ns);
        t.timestamp_ns = now;
        self.o1_enqueue_array(cpu, pid, false);
        let o1 = self.o1_state_mut();
        o1.rqs[cpu.idx()].nr_running += 1;
        // rq->nr_running, read by idle_cpu and the statistics.
        self.core.rqs[cpu.idx()].nr_running += 1;
        self.core.touch(cpu);
        self.core.tasks[pid.idx()].se.on_rq = true;
    }

    /// `deactivate_task`: off the arrays (blocking, exiting or moving).
    fn o1_dequeue(&mut self, pid: Pid, cpu: CpuId) {
        self.o1_update_curr(cpu);
        self.o1_dequeue_array(cpu, pid);
        let o1 = self.o1_state_mut();
        o1.rqs[cpu.idx()].nr_running -= 1;
        self.core.rqs[cpu.idx()].nr_running -= 1;
        self.core.touch(cpu);
        self.core.tasks[pid.idx()].se.on_rq = false;
    }

    /// Charges the running task's CPU time (its program's bursts count it).
    fn o1_update_curr(&mut self, cpu: CpuId) {
        let Some(pid) = self.core.rqs[cpu.idx()].curr_task else { return };
        let now = self.core.now;
        let se = &mut self.core.tasks[pid.idx()].se;
        let delta = now.since(se.exec_start);
        se.exec_start = now;
        se.sum_exec_runtime += delta;
    }

    /// `TASK_PREEMPTS_CURR`: the wakee's prio is better than curr's.
    fn o1_preempts_curr(&mut self, cpu: CpuId, pid: Pid) -> bool {
        let Some(curr) = self.core.rqs[cpu.idx()].curr_task else { return true };
        curr != pid && self.o1_task(pid).prio < self.o1_task(curr).prio
    }

    /// `scheduler_tick` for the running task: burn a tick of its slice; at
    /// zero refill it and requeue (expired, or active if interactive and the
    /// expired array is not starving); interactive tasks are also
    /// round-robined within their level every TIMESLICE_GRANULARITY.
    fn o1_tick(&mut self, pid: Pid, cpu: CpuId) -> bool {
        self.o1_update_curr(cpu);
        let (now, tick) = (self.core.now.ns(), self.core.tick_ns);
        let nice = self.core.tasks[pid.idx()].nice;
        let online = self.core.online.weight();
        let t = self.o1_task(pid);
        t.time_slice_ns = t.time_slice_ns.saturating_sub(tick);
        if t.time_slice_ns == 0 {
            self.o1_dequeue_array(cpu, pid);
            let t = self.o1_task(pid);
            t.prio = effective_prio(t.static_prio, t.sleep_avg_ns);
            t.time_slice_ns = task_timeslice(t.static_prio, tick);
            let t = t.clone();
            let starving = self.o1_expired_starving(cpu, t.static_prio);
            let rq = &mut self.o1_state_mut().rqs[cpu.idx()];
            rq.expired_timestamp.get_or_insert(now);
            let expire = !task_interactive(t.prio, t.static_prio, nice) || starving;
            if expire {
                rq.best_expired_prio = rq.best_expired_prio.min(t.static_prio);
            }
            self.o1_enqueue_array(cpu, pid, expire);
            return true;
        }
        let t = t.clone();
        let full = task_timeslice(t.static_prio, tick);
        let gran = timeslice_granularity(t.sleep_avg_ns, online);
        let active = self.o1_state().rqs[cpu.idx()].active;
        if task_interactive(t.prio, t.static_prio, nice)
            && (full - t.time_slice_ns).is_multiple_of(gran)
            && t.time_slice_ns >= gran
            && t.array == Some(active)
        {
            self.o1_dequeue_array(cpu, pid);
            self.o1_enqueue_array(cpu, pid, false);
            return true;
        }
        false
    }

    /// EXPIRED_STARVING: the first expired task has waited STARVATION_LIMIT
    /// per runnable task, or a better static prio waits in the expired array.
    fn o1_expired_starving(&self, cpu: CpuId, curr_static_prio: usize) -> bool {
        let rq = &self.o1_state().rqs[cpu.idx()];
        let waited = rq.expired_timestamp.is_some_and(|ts| {
            self.core.now.ns().saturating_sub(ts) >= STARVATION_LIMIT_NS * rq.nr_running as u64 + self.core.tick_ns
        });
        waited || curr_static_prio > rq.best_expired_prio
    }

    /// The switch-out half of `schedule()`: the previous task's run time is
    /// taken off its sleep_avg (less so the more interactive it is).
    fn o1_put_prev(&mut self, pid: Pid, cpu: CpuId) {
        self.o1_update_curr(cpu);
        let now = self.core.now.ns();
        let t = self.o1_task(pid);
        let ran = now.saturating_sub(t.timestamp_ns).min(MAX_SLEEP_AVG_NS);
        t.sleep_avg_ns = t.sleep_avg_ns.saturating_sub(ran / current_bonus(t.sleep_avg_ns).max(1));
        t.timestamp_ns = now;
    }

    /// The pick of `schedule()`: swap the arrays if active is empty, take the
    /// head of the best level; a freshly woken pick is credited its wait.
    fn o1_pick(&mut self, cpu: CpuId) -> Option<Pid> {
        let now = self.core.now;
        let rq = &mut self.o1_state_mut().rqs[cpu.idx()];
        if rq.nr_running == 0 {
            return None;
        }
        if rq.arrays[rq.active].nr_active == 0 {
            rq.active = 1 - rq.active;
            rq.expired_timestamp = None;
            rq.best_expired_prio = MAX_PRIO;
            // Tasks keep their physical array index; only `active` flips.
            rq.switches += 1;
        }
        let rq = &self.o1_state().rqs[cpu.idx()];
        let prio = rq.active().first_prio()?;
        let pid = *rq.active().queue[prio].front()?;
        let t = self.o1_task(pid).clone();
        if t.activated > 0 {
            // Credit the run-queue wait (30 % for an ordinary wakeup).
            let waited = now.ns().saturating_sub(t.timestamp_ns) * ON_RUNQUEUE_WEIGHT / 100;
            self.o1_dequeue_array(cpu, pid);
            let t = self.o1_task(pid);
            t.sleep_avg_ns = (t.sleep_avg_ns + waited).min(MAX_SLEEP_AVG_NS);
            t.prio = effective_prio(t.static_prio, t.sleep_avg_ns);
            t.activated = 0;
            // schedule() requeues `next` at its new priority and still runs it.
            self.o1_enqueue_array(cpu, pid, false);
        }
        let t = self.o1_task(pid);
        t.timestamp_ns = now.ns();
        self.core.tasks[pid.idx()].se.exec_start = now;
        Some(pid)
    }

    /// `sys_sched_yield` in 2.6: the task moves to the expired array.
    fn o1_yield(&mut self, pid: Pid, cpu: CpuId) {
        self.o1_update_curr(cpu);
        self.o1_dequeue_array(cpu, pid);
        self.o1_enqueue_array(cpu, pid, true);
    }
}

//! The scheduler core: what happens on each event. These mirror the kernel's
//! `scheduler_tick`, `deactivate_task` and `__schedule` (waking a task,
//! `try_to_wake_up`/`wake_up_new_task`, is `wakeup.rs`), calling the run's
//! class through `SchedClass` only (`sim::class`): the core never asks which
//! class runs.
//!
//! The rule that keeps the model honest: a CPU reschedules only when its
//! need_resched flag is set by a mechanism (tick preemption, wakeup
//! preemption, the running task blocking or exiting), never because an
//! outcome is wanted.

use super::class::Balance;
use super::events::{Event, EventClass};
use super::Simulator;
use crate::config::FULL_SPEED_PCT;
use crate::program::Action;

/// How many instantaneous system calls a task may make without taking time
/// (as many as the program's zero-time control steps).
const MAX_SYSCALLS_IN_A_ROW: u32 = crate::program::MAX_ZERO_TIME_STEPS;

/// Where a task's program advances from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum From {
    /// It is running on this CPU (its burst ended).
    Running(CpuId),
    /// It was asleep or blocked (or is new); `waker` is the CPU that woke it;
    /// `sync`: the waker is about to give the CPU up (4.1's WF_SYNC).
    Waking { is_new: bool, waker: Option<CpuId>, sync: bool },
}
use crate::task::{Prelude, TaskState};
use crate::time::{CpuId, Pid, SimTime};
use crate::trace::{RunSlice, TraceKind};

impl Simulator {
    /// Handles one event; None if it was stale (and so does not count).
    pub(super) fn handle(&mut self, event: Event) -> Option<EventClass> {
        match event {
            Event::Tick(cpu) => self.tick_event(cpu),
            Event::BurstEnd { cpu, gen } => {
                if self.core.rqs[cpu.idx()].burst_gen != gen {
                    return None;
                }
                self.burst_end(cpu);
                Some(EventClass::Other)
            }
            Event::Wakeup(pid) => {
                self.timer_wakeup(pid);
                Some(EventClass::Other)
            }
            Event::Spawn(tgid) => {
                let threads = &self.core.procs[tgid as usize].threads;
                if self.core.costs.clone_ns > 0 {
                    // The first thread starts and creates the others, one after another.
                    let (first, others) = (threads[0], threads.len() as u32 - 1);
                    let t = &mut self.core.tasks[first.idx()];
                    (t.threads_to_create, t.next_thread) = (others, 1);
                    self.task_start(first);
                } else {
                    for pid in threads.clone() {
                        self.task_start(pid);
                    }
                }
                Some(EventClass::Other)
            }
            Event::CpuStop(cpu) => {
                self.cpu_stop(cpu);
                Some(EventClass::Other)
            }
            Event::NohzKick(cpu) => {
                self.sched().balance(cpu, Balance::NohzKick);
                Some(EventClass::Other)
            }
            Event::SanityCheck => {
                self.sanity_check();
                Some(EventClass::Other)
            }
            Event::SanityWatchEnd => {
                self.sanity_watch_end();
                Some(EventClass::Other)
            }
            Event::ClassKick(cpu) => {
                self.sched().kick(cpu);
                if let Some(class) = self.core.switch_to.take() {
                    self.switch_class(class);
                }
                Some(EventClass::Other)
            }
            Event::ClassTimer(room) => {
                // A timer the class armed before it ended (a policy that fell back) is stale.
                let live = self.sched().at(room).timer();
                if let Some(class) = self.core.switch_to.take() {
                    self.switch_class(class);
                }
                live.then_some(EventClass::Other)
            }
            Event::LoadAvg => {
                self.sample_load_average();
                self.core.push(self.core.now.after(super::accounting::LOAD_FREQ_NS), Event::LoadAvg);
                Some(EventClass::Other)
            }
            Event::Timed(kind) => {
                self.timed_event(kind);
                self.sched().cpus_changed();
                Some(EventClass::Other)
            }
        }
    }

    /// The running task on `cpu` has consumed its burst: run the next step
    /// of its program (or, if it was spinning at a barrier, block there).
    fn burst_end(&mut self, cpu: CpuId) {
        self.sched().update_curr(cpu);
        let Some(pid) = self.core.rqs[cpu.idx()].curr() else {
            return;
        };
        // The burst holds the prelude: it is done by now.
        self.core.settle_prelude(pid);
        if self.core.tasks[pid.idx()].spin.is_some() {
            self.spin_expired(cpu, pid);
            return;
        }
        self.advance(pid, From::Running(cpu));
    }

    /// A task's first action when its process starts.
    fn task_start(&mut self, pid: Pid) {
        self.core.tasks[pid.idx()].stats.started_at = Some(self.core.now);
        self.advance(pid, From::Waking { is_new: true, waker: None, sync: false });
    }

    fn timer_wakeup(&mut self, pid: Pid) {
        let task = &self.core.tasks[pid.idx()];
        if task.state == TaskState::Sleeping && task.blocked_on.is_none() {
            self.advance(pid, From::Waking { is_new: false, waker: None, sync: false });
        }
    }

    /// Runs the task's program forward until something takes time or blocks.
    /// Instantaneous system calls (wake, lock, barrier…) need the CPU: a
    /// waking task whose next step is one becomes runnable with a 1 ns burst
    /// and carries the call out when it runs.
    pub(crate) fn advance(&mut self, pid: Pid, from: From) {
        let outer = self.core.syscall_cpu;
        if let From::Running(cpu) = from {
            self.core.syscall_cpu = Some(cpu);
        }
        self.advance_inner(pid, from);
        if let From::Running(cpu) = from {
            self.core.syscall_cpu = outer;
            // Back to user space: a preemption the calls asked for happens now.
            if self.core.rqs[cpu.idx()].curr() == Some(pid) && self.core.resched_due(cpu) {
                self.sched().schedule(cpu);
            }
        }
    }

    fn advance_inner(&mut self, pid: Pid, from: From) {
        if let From::Waking { is_new: true, .. } = from {
            self.sched().task_new(pid);
        }
        for _ in 0..MAX_SYSCALLS_IN_A_ROW {
            let action = match self.core.next_action(pid) {
                // A timer step sleeps until its next period starts, or goes on at once if that has come
                // (`timer.rs`).
                Action::Timer(step) => match self.core.timer_sleep(pid, step) {
                    Some(ns) => Action::Sleep(ns),
                    None => continue,
                },
                action => action,
            };
            let cpu = match from {
                From::Waking { is_new, waker, sync } => {
                    match action {
                        Action::Run(ns) => self.core.set_burst(pid, ns),
                        Action::Sleep(ns) => {
                            self.core.tasks[pid.idx()].state = TaskState::Sleeping;
                            self.core.push(self.core.now.after(ns), Event::Wakeup(pid));
                            return;
                        }
                        Action::Exit => {
                            self.exit_sleeping(pid);
                            return;
                        }
                        Action::Stalled => {
                            self.end_stalled(pid, from);
                            return;
                        }
                        other => {
                            self.core.tasks[pid.idx()].pending = Some(other);
                            self.core.set_burst(pid, 1);
                        }
                    }
                    self.sched().try_to_wake_up(pid, is_new, waker, sync);
                    return;
                }
                From::Running(cpu) => cpu,
            };
            match action {
                Action::Run(ns) => {
                    self.core.set_burst(pid, ns);
                    self.core.arm_burst_end(cpu);
                    return;
                }
                Action::Sleep(ns) => {
                    let mut s = self.sched();
                    s.deactivate(cpu, pid, TaskState::Sleeping);
                    s.core.trace.emit(s.core.now, cpu, TraceKind::Sleep { pid, ns });
                    s.core.push(s.core.now.after(ns), Event::Wakeup(pid));
                    s.schedule(cpu);
                    return;
                }
                Action::Exit => {
                    self.exit_running(cpu, pid);
                    return;
                }
                Action::Stalled => {
                    self.end_stalled(pid, from);
                    return;
                }
                other => {
                    if !self.syscall(cpu, pid, other) {
                        return;
                    }
                }
            }
        }
        // A loop of system calls that never takes time would hang the run:
        // the task is ended instead (bad-input rule), and the report says so.
        self.end_stalled(pid, from);
    }

    pub(crate) fn exit_sleeping(&mut self, pid: Pid) {
        let task = &mut self.core.tasks[pid.idx()];
        task.state = TaskState::Exited;
        task.stats.exited_at = Some(self.core.now);
        let cpu = task.cpu;
        self.core.trace.emit(self.core.now, cpu, TraceKind::Exit { pid });
        self.sched().task_dead(pid);
        self.notify_parent(pid, cpu);
    }

    /// The running task exits (`do_exit`): off the CPU for good, its parent
    /// told, the CPU rescheduled.
    pub(crate) fn exit_running(&mut self, cpu: CpuId, pid: Pid) {
        self.core.tasks[pid.idx()].stats.exited_at = Some(self.core.now);
        self.core.trace.emit(self.core.now, cpu, TraceKind::Exit { pid });
        // do_exit → exit_notify wakes a waiting parent while the child is
        // still current and on its runqueue (WF_SYNC: its load is about to
        // go); the final __schedule dequeues it.
        self.notify_parent(pid, cpu);
        let mut s = self.sched();
        s.deactivate(cpu, pid, TaskState::Exited);
        s.task_dead(pid);
        s.schedule(cpu);
    }

    /// The event budget is spent: the run ends at `now`, with the state it
    /// has, not at its duration.
    pub(super) fn stop_at_budget(&mut self) {
        let now = self.core.now;
        self.core.budget_stop = Some(now);
        self.sched().end_run(now);
    }

    /// Ends the run at its duration.
    pub(super) fn finish(&mut self) {
        let end = self.core.duration;
        self.sched().end_run(end);
    }
}

impl super::Core {
    /// `cpu` has a resched pending that may happen now: not inside a system
    /// call there (it waits for the return to user space).
    pub(crate) fn resched_due(&self, cpu: CpuId) -> bool {
        self.syscall_cpu != Some(cpu) && self.rqs[cpu.idx()].need_resched
    }

    /// Schedules the BurstEnd of the task now running on `cpu` (if any).
    pub(crate) fn arm_burst_end(&mut self, cpu: CpuId) {
        let rq = &mut self.rqs[cpu.idx()];
        rq.burst_gen += 1;
        let gen = rq.burst_gen;
        if let Some(pid) = rq.curr() {
            self.rate_burst(pid, self.cpu_speed_pct(cpu));
            let se = &self.tasks[pid.idx()].se;
            let left = self.tasks[pid.idx()].burst_end_exec.saturating_sub(se.sum_exec_runtime);
            self.push(self.now.after(left.max(1)), Event::BurstEnd { cpu, gen });
        }
    }

    pub(crate) fn next_action(&mut self, pid: Pid) -> Action {
        let clone_ns = self.costs.clone_ns;
        let task = &mut self.tasks[pid.idx()];
        if let Some(a) = task.pending.take() {
            return a;
        }
        if task.threads_to_create > 0 {
            task.thread_cost_paid = !task.thread_cost_paid;
            return if task.thread_cost_paid { Action::Run(clone_ns) } else { Action::CreateThread };
        }
        let prog = &self.programs[task.program.program];
        task.program.next_action(prog, &mut self.rng)
    }

    /// `__block_task` for a sleeper its class kept queued: the class has just
    /// finished its dequeue (at a pick, an exit, a class switch), so it
    /// leaves the runqueue's list; it was asleep (or has just died) all along.
    pub(crate) fn block_delayed(&mut self, cpu: CpuId, pid: Pid) {
        debug_assert!(matches!(self.tasks[pid.idx()].state, TaskState::Sleeping | TaskState::Exited));
        self.rqs[cpu.idx()].delist(pid);
        self.touch(cpu);
        self.index.touch_task(pid);
    }

    pub(crate) fn set_burst(&mut self, pid: Pid, ns: u64) {
        let task = &mut self.tasks[pid.idx()];
        task.burst_end_exec = task.se.sum_exec_runtime + ns;
        task.burst_rate_pct = FULL_SPEED_PCT;
    }
}

impl super::dispatch::Sched<'_> {
    /// `deactivate_task` for the running task: it blocks or exits. A class
    /// may keep a blocking task queued (`se.on_rq` still set: DELAY_DEQUEUE,
    /// `block_task`'s dequeue that "fails", core.c 2103–2107): it then stays
    /// on the runqueue's list, asleep, until `Core::block_delayed`.
    pub(crate) fn deactivate(&mut self, cpu: CpuId, pid: Pid, state: TaskState) {
        self.dequeue_task(pid, cpu, state == TaskState::Sleeping);
        if !self.core.tasks[pid.idx()].se.on_rq {
            self.core.rqs[cpu.idx()].delist(pid);
        }
        self.core.tasks[pid.idx()].state = state;
        self.core.touch(cpu);
        self.core.index.touch_task(pid);
        self.core.rqs[cpu.idx()].need_resched = true;
    }

    pub(crate) fn resched_if_needed(&mut self, cpu: CpuId) {
        if self.core.resched_due(cpu) {
            self.schedule(cpu);
        }
    }

    /// `__schedule`: put the previous task back (if still runnable), pick
    /// the next one, and account the context switch.
    pub(crate) fn schedule(&mut self, cpu: CpuId) {
        let now = self.core.now;
        // The running task and the queued tasks' states change here.
        self.core.touch(cpu);
        self.core.rqs[cpu.idx()].need_resched = false;
        let prev = self.core.rqs[cpu.idx()].curr_task;
        if let Some(p) = prev {
            self.core.settle_prelude(p);
            self.put_prev_task(p, cpu);
            let task = &mut self.core.tasks[p.idx()];
            // Still queued: preempted (runnable), or asleep but kept queued by its class.
            if task.se.on_rq && task.state != TaskState::Sleeping {
                task.state = TaskState::Runnable;
                task.stats.wait_start = Some(now);
            }
        }
        self.core.rqs[cpu.idx()].curr_task = None;
        let mut next = self.pick_next_task(cpu);
        if next.is_none() && self.core.rqs[cpu.idx()].online {
            // About to idle: note when, then try to pull work (idle_balance).
            let rq = &mut self.core.rqs[cpu.idx()];
            if rq.idle_stamp.is_none() {
                rq.idle_stamp = Some(now);
            }
            if self.balance(cpu, Balance::NewlyIdle) {
                next = self.pick_next_task(cpu);
            }
        }
        let rq = &mut self.core.rqs[cpu.idx()];
        rq.need_resched = false;
        rq.curr_task = next;
        rq.schedstat.sched_count += 1;
        rq.schedstat.sched_goidle += u64::from(next.is_none());
        self.tick_nohz_switch(cpu, prev, next);
        if let Some(n) = next {
            let fair_list = !self.core.tasks[n.idx()].above_fair();
            let rq = &mut self.core.rqs[cpu.idx()];
            // No longer idle (avg_idle is folded at the next wakeup, ttwu_do_wakeup).
            rq.idle_stamp = None;
            if fair_list {
                rq.cfs_tasks_touch(n);
            }
            let switch_cost = if prev != next { self.core.costs.context_switch_ns } else { 0 };
            // The owed work below is full-speed work: reckon the burst at
            // full speed first (arm_burst_end rates it for this CPU).
            self.core.rate_burst(n, FULL_SPEED_PCT);
            let task = &mut self.core.tasks[n.idx()];
            // Cost model: the switch and any owed cache refill or IPI become
            // extra work in the incoming task's burst.
            task.burst_end_exec += switch_cost + std::mem::take(&mut task.owed_ns);
            let before_own_code = switch_cost + std::mem::take(&mut task.owed_ipi_ns);
            task.state = TaskState::Running;
            task.cpu = cpu;
            if let Some(since) = task.stats.wait_start.take() {
                task.stats.wait_ns += now.since(since);
                if prev != next {
                    // sched_info_arrive: the wait before this run, and one more run.
                    let st = &mut self.core.rqs[cpu.idx()].schedstat;
                    st.run_delay += now.since(since);
                    st.pcount += 1;
                }
            }
            let exec0 = task.se.sum_exec_runtime;
            if let Some(woken) = task.stats.woken_at.take() {
                // The wakeup latency runs until the task's own code runs again,
                // as schbench measures it: the wait, then the owed wakeup IPI (if
                // the wakeup crossed CPUs) and the context switch, at the speeds
                // the CPU runs them (settle_prelude records it). Owed
                // cache-refill work slows the task's own code and is not counted.
                task.prelude = Some(Prelude { woken, work: before_own_code, since: now, exec0 });
                self.core.procs[task.tgid as usize].queued_wakeups += u64::from(now > woken);
            } else if let Some(p) = task.prelude.as_mut() {
                // Preempted before its own code ran: the rest runs from here.
                p.since = now;
                p.exec0 = exec0;
            }
        }
        // The new running task and its state (idle_balance may have read
        // this CPU in between).
        self.core.touch(cpu);
        for p in [prev, next].into_iter().flatten() {
            self.core.index.touch_task(p);
        }
        if prev != next {
            self.context_switch(cpu, prev, next);
        }
        self.core.arm_burst_end(cpu);
        self.task_switched(cpu, prev, next);
    }

    pub(crate) fn context_switch(&mut self, cpu: CpuId, prev: Option<Pid>, next: Option<Pid>) {
        let now = self.core.now;
        let rq = &mut self.core.rqs[cpu.idx()];
        let ran = now.since(rq.slice_start);
        let mut prev_state = TaskState::Runnable;
        match prev {
            Some(p) => {
                rq.busy_ns += ran;
                // sched_info_depart: the run that ends here.
                rq.schedstat.rq_cpu_time += ran;
                let task = &mut self.core.tasks[p.idx()];
                task.stats.longest_run_ns = task.stats.longest_run_ns.max(ran);
                prev_state = task.state;
                if task.state == TaskState::Runnable {
                    task.stats.nivcsw += 1;
                } else {
                    task.stats.nvcsw += 1;
                }
                self.core.trace.close_slice(RunSlice { cpu, pid: p, start: rq.slice_start, end: now });
            }
            None => rq.idle_ns += ran,
        }
        rq.slice_start = now;
        self.core.trace.emit(now, cpu, TraceKind::Switch { prev, next, prev_state });
        if prev.is_some() != next.is_some() {
            self.smt_siblings_changed_speed(cpu);
        }
    }
    /// Accounts up to `at` and charges the running tasks. Open run slices and
    /// waits stay open; views close them at `now` when read.
    pub(super) fn end_run(&mut self, at: SimTime) {
        if self.core.finished {
            return;
        }
        self.core.account_interval(at);
        self.core.now = self.core.now.max(at);
        for cpu in CpuId::all(self.core.rqs.len() as u32) {
            self.update_curr(cpu);
        }
        self.core.finished = true;
    }
}

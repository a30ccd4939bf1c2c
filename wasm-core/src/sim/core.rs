//! The scheduler core: what happens on each event. These mirror the kernel's
//! `scheduler_tick`, `try_to_wake_up`/`wake_up_new_task`, `deactivate_task`
//! and `__schedule`, calling into the CFS class in `sched::fair`.
//!
//! The rule that keeps the model honest: a CPU reschedules only when its
//! need_resched flag is set by a mechanism (tick preemption, wakeup
//! preemption, the running task blocking or exiting), never because an
//! outcome is wanted.

use super::events::{Event, EventClass};
use super::Simulator;
use crate::program::Action;
use crate::sched::fair::{self, EnqueueKind};
use crate::task::TaskState;
use crate::time::{CpuId, Pid, SimTime};
use crate::trace::{RunSlice, TraceKind};

impl Simulator {
    /// Handles one event; None if it was stale (and so does not count).
    pub(super) fn handle(&mut self, event: Event) -> Option<EventClass> {
        match event {
            Event::Tick(cpu) => {
                self.scheduler_tick(cpu);
                Some(EventClass::Tick)
            }
            Event::BurstEnd { cpu, gen } => {
                if self.rqs[cpu as usize].burst_gen != gen {
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
                let threads = self.procs[tgid as usize].threads.clone();
                for pid in threads {
                    self.task_start(pid);
                }
                Some(EventClass::Other)
            }
        }
    }

    /// Charges the running task of `cpu` up to now.
    fn update_curr(&mut self, cpu: CpuId) {
        let now = self.now;
        fair::update_curr(&mut self.rqs[cpu as usize].cfs, &mut self.tasks, now);
    }

    fn scheduler_tick(&mut self, cpu: CpuId) {
        self.push(self.now.after(self.tick_ns), Event::Tick(cpu));
        let rq = &self.rqs[cpu as usize];
        if !rq.online {
            return;
        }
        let Some(curr) = rq.curr() else { return };
        self.update_curr(cpu);
        let rq = &mut self.rqs[cpu as usize];
        if rq.cfs.nr_running > 1 && fair::check_preempt_tick(&mut rq.cfs, &self.tasks, &self.tunables) {
            rq.need_resched = true;
            self.trace.emit(self.now, cpu, TraceKind::TickPreempt { pid: curr });
        }
        self.resched_if_needed(cpu);
    }

    fn resched_if_needed(&mut self, cpu: CpuId) {
        if self.rqs[cpu as usize].need_resched {
            self.schedule(cpu);
        }
    }

    /// The running task on `cpu` has consumed its burst: run the next step
    /// of its program.
    fn burst_end(&mut self, cpu: CpuId) {
        self.update_curr(cpu);
        let Some(pid) = self.rqs[cpu as usize].curr() else {
            return;
        };
        match self.next_action(pid) {
            Action::Run(ns) => {
                let task = &mut self.tasks[pid as usize];
                task.burst_end_exec = task.se.sum_exec_runtime + ns;
                self.arm_burst_end(cpu);
            }
            Action::Sleep(ns) => {
                self.deactivate(cpu, pid, TaskState::Sleeping);
                self.trace.emit(self.now, cpu, TraceKind::Sleep { pid, ns });
                self.push(self.now.after(ns), Event::Wakeup(pid));
                self.schedule(cpu);
            }
            Action::Exit => {
                self.deactivate(cpu, pid, TaskState::Exited);
                self.tasks[pid as usize].stats.exited_at = Some(self.now);
                self.trace.emit(self.now, cpu, TraceKind::Exit { pid });
                self.schedule(cpu);
            }
        }
    }

    fn next_action(&mut self, pid: Pid) -> Action {
        let task = &mut self.tasks[pid as usize];
        let prog = &self.programs[task.program.program];
        task.program.next_action(prog, &mut self.rng)
    }

    /// A task's first action when its process starts.
    fn task_start(&mut self, pid: Pid) {
        self.tasks[pid as usize].stats.started_at = Some(self.now);
        self.after_sleep(pid, true);
    }

    fn timer_wakeup(&mut self, pid: Pid) {
        if self.tasks[pid as usize].state == TaskState::Sleeping {
            self.after_sleep(pid, false);
        }
    }

    /// Runs the task's program forward from a sleep (or from its start).
    fn after_sleep(&mut self, pid: Pid, is_new: bool) {
        match self.next_action(pid) {
            Action::Run(ns) => {
                let task = &mut self.tasks[pid as usize];
                task.burst_end_exec = task.se.sum_exec_runtime + ns;
                self.try_to_wake_up(pid, is_new);
            }
            Action::Sleep(ns) => {
                self.tasks[pid as usize].state = TaskState::Sleeping;
                self.push(self.now.after(ns), Event::Wakeup(pid));
            }
            Action::Exit => {
                let task = &mut self.tasks[pid as usize];
                task.state = TaskState::Exited;
                task.stats.exited_at = Some(self.now);
                let cpu = task.cpu;
                self.trace.emit(self.now, cpu, TraceKind::Exit { pid });
            }
        }
    }

    /// `select_task_rq` before the multicore balancer exists: a waking task
    /// goes back to its previous CPU; a new task to the online CPU with the
    /// fewest runnable tasks (lowest number on ties).
    fn select_task_rq(&self, pid: Pid, is_new: bool) -> CpuId {
        let prev = self.tasks[pid as usize].cpu;
        if !is_new && self.rqs[prev as usize].online {
            return prev;
        }
        self.rqs.iter().filter(|rq| rq.online).min_by_key(|rq| (rq.nr_running(), rq.cpu)).map_or(prev, |rq| rq.cpu)
    }

    /// `try_to_wake_up` / `wake_up_new_task`: choose a CPU, enqueue with the
    /// right placement, and check whether the wakee preempts the running task.
    fn try_to_wake_up(&mut self, pid: Pid, is_new: bool) {
        let target = self.select_task_rq(pid, is_new);
        let prev_cpu = self.tasks[pid as usize].cpu;
        if !is_new && target != prev_cpu {
            // Renormalise vruntime from the old queue's min_vruntime to the new
            // one (task_waking_fair + enqueue), so sleeping elsewhere is neither
            // a gain nor a loss.
            let old_min = self.rqs[prev_cpu as usize].cfs.min_vruntime;
            let new_min = self.rqs[target as usize].cfs.min_vruntime;
            let se = &mut self.tasks[pid as usize].se;
            se.vruntime = (se.vruntime + new_min).saturating_sub(old_min);
        }
        let now = self.now;
        {
            let task = &mut self.tasks[pid as usize];
            task.state = TaskState::Runnable;
            task.cpu = target;
            task.stats.wait_start = Some(now);
        }
        let kind = if is_new { EnqueueKind::New } else { EnqueueKind::Wakeup };
        let rq = &mut self.rqs[target as usize];
        fair::enqueue_entity(&mut rq.cfs, &mut self.tasks, pid, kind, now, &self.tunables);
        let tk = if is_new { TraceKind::WakeupNew { pid } } else { TraceKind::Wakeup { pid } };
        self.trace.emit(now, target, tk);
        let curr = rq.curr();
        let preempt = fair::check_preempt_wakeup(&mut rq.cfs, &mut self.tasks, pid, is_new, now, &self.tunables);
        if preempt {
            rq.need_resched = true;
            if let Some(curr) = curr {
                self.trace.emit(now, target, TraceKind::WakeupPreempt { curr, by: pid });
            }
        }
        self.resched_if_needed(target);
    }

    /// `deactivate_task` for the running task: it blocks or exits.
    fn deactivate(&mut self, cpu: CpuId, pid: Pid, state: TaskState) {
        let now = self.now;
        fair::dequeue_entity(&mut self.rqs[cpu as usize].cfs, &mut self.tasks, pid, now);
        self.tasks[pid as usize].state = state;
        self.rqs[cpu as usize].need_resched = true;
    }

    /// `__schedule`: put the previous task back (if still runnable), pick
    /// the next one, and account the context switch.
    pub(super) fn schedule(&mut self, cpu: CpuId) {
        let now = self.now;
        let rq = &mut self.rqs[cpu as usize];
        rq.need_resched = false;
        let prev = rq.cfs.curr;
        if let Some(p) = prev {
            fair::put_prev_entity(&mut rq.cfs, &mut self.tasks, p, now);
            let task = &mut self.tasks[p as usize];
            if task.se.on_rq {
                task.state = TaskState::Runnable;
                task.stats.wait_start = Some(now);
            }
        }
        let next = fair::pick_next_entity(&mut rq.cfs, &self.tasks, &self.tunables);
        if let Some(n) = next {
            fair::set_next_entity(&mut rq.cfs, &mut self.tasks, n, now);
            let task = &mut self.tasks[n as usize];
            task.state = TaskState::Running;
            task.cpu = cpu;
            if let Some(since) = task.stats.wait_start.take() {
                task.stats.wait_ns += now.since(since);
            }
        }
        if prev != next {
            self.context_switch(cpu, prev, next);
        }
        self.arm_burst_end(cpu);
    }

    fn context_switch(&mut self, cpu: CpuId, prev: Option<Pid>, next: Option<Pid>) {
        let now = self.now;
        let rq = &mut self.rqs[cpu as usize];
        let ran = now.since(rq.slice_start);
        let mut prev_state = TaskState::Runnable;
        match prev {
            Some(p) => {
                rq.busy_ns += ran;
                let task = &mut self.tasks[p as usize];
                prev_state = task.state;
                if task.state == TaskState::Runnable {
                    task.stats.nivcsw += 1;
                } else {
                    task.stats.nvcsw += 1;
                }
                self.trace.close_slice(RunSlice { cpu, pid: p, start: rq.slice_start, end: now });
            }
            None => rq.idle_ns += ran,
        }
        rq.slice_start = now;
        self.trace.emit(now, cpu, TraceKind::Switch { prev, next, prev_state });
    }

    /// Schedules the BurstEnd of the task now running on `cpu` (if any).
    fn arm_burst_end(&mut self, cpu: CpuId) {
        let rq = &mut self.rqs[cpu as usize];
        rq.burst_gen += 1;
        let gen = rq.burst_gen;
        if let Some(pid) = rq.curr() {
            let se = &self.tasks[pid as usize].se;
            let left = self.tasks[pid as usize].burst_end_exec.saturating_sub(se.sum_exec_runtime);
            self.push(self.now.after(left.max(1)), Event::BurstEnd { cpu, gen });
        }
    }

    /// Ends the run at its duration and charges the running tasks. Open run
    /// slices and waits stay open; views close them at `now` when read.
    pub(super) fn finish(&mut self) {
        if self.finished {
            return;
        }
        self.now = self.now.max(self.duration);
        for cpu in 0..self.rqs.len() as CpuId {
            self.update_curr(cpu);
        }
        self.finished = true;
    }

    /// The wall-clock instant of the last event (never after `now`).
    pub fn last_event_time(&self) -> SimTime {
        self.queue.now()
    }
}

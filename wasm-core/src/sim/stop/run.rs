//! Queueing a stopper's works and running the stopper.

use super::StopWork;
use crate::sim::class::Balance;
use crate::sim::dispatch::Sched;
use crate::sim::events::Event;
use crate::sim::{Core, Simulator};
use crate::task::TaskState;
use crate::time::CpuId;

impl Core {
    /// `stop_one_cpu_nowait`: queue `work` for `cpu`'s stopper and wake it.
    /// The wakeup preempts whatever runs there (the stop class is above every
    /// class): the stopper runs when the event is taken, at this same instant,
    /// once the work that woke it has finished. An offline CPU's stopper is
    /// parked and takes no work (`cpu_stop_queue_work` refuses it).
    pub(crate) fn stop_one_cpu_nowait(&mut self, cpu: CpuId, work: StopWork) {
        if !self.rqs[cpu.idx()].online {
            return;
        }
        self.rqs[cpu.idx()].stopper.works.push_back(work);
        self.touch(cpu);
        self.push(self.now, Event::CpuStop(cpu));
    }
}

impl Simulator {
    /// `Event::CpuStop`: the stopper woken by `stop_one_cpu_nowait` runs (if
    /// it has not already run its works since).
    pub(in crate::sim) fn cpu_stop(&mut self, cpu: CpuId) {
        if self.core.rqs[cpu.idx()].stopper.queued() {
            self.sched().run_stopper(cpu);
        }
    }
}

impl Sched<'_> {
    /// `stop_one_cpu`: queue `work` for `cpu`'s stopper and wait until it has
    /// run. The caller (a task at execve) is the task the stopper preempts.
    pub(crate) fn stop_one_cpu(&mut self, cpu: CpuId, work: StopWork) {
        self.core.rqs[cpu.idx()].stopper.works.push_back(work);
        self.run_stopper(cpu);
    }

    /// The stopper of `cpu` runs (`cpu_stopper_thread`): `pick_next_task_stop`
    /// preempts the running task, which stays queued like any other; each work
    /// runs in order; the stopper then sleeps and `__schedule` picks below the
    /// stop class. A CPU a work moved a task to reschedules after it, as its
    /// resched IPI lands.
    pub(crate) fn run_stopper(&mut self, cpu: CpuId) {
        self.preempt_curr_for_move(cpu);
        self.core.rqs[cpu.idx()].stopper.runs += 1;
        let mut woke = Vec::new();
        while let Some(work) = self.core.rqs[cpu.idx()].stopper.works.pop_front() {
            self.core.touch(cpu);
            match work {
                StopWork::ActiveBalance { target } => {
                    self.balance(cpu, Balance::Stopper { target });
                    woke.push(target);
                }
                StopWork::Migrate { pid, dest, cause } => {
                    // migration_cpu_stop: only if the task is still queued here, and may run there.
                    let t = &self.core.tasks[pid.idx()];
                    let queued_here = t.cpu == cpu && t.se.on_rq && t.state == TaskState::Runnable;
                    if queued_here && self.core.online.test(dest) && t.allowed.test(dest) {
                        self.move_queued_task(pid, dest, cause);
                        woke.push(dest);
                    }
                }
            }
        }
        self.schedule(cpu);
        for target in woke {
            if self.core.rqs[target.idx()].need_resched {
                self.schedule(target);
            }
        }
    }
}

//! A live task taken off its runqueue for a change and put back: the
//! kernel's sequence around a change of class, prio or task group
//! (`__sched_setscheduler`, core.c 3616–3638 in 4.1; `rt_mutex_setprio`,
//! 3027–3076; `sched_move_task`, 7540–7580): dequeued if it is queued, put
//! back if it runs, the change, `set_curr_task` if it runs, enqueued again,
//! and a preemption check (`check_class_changed`, `check_preempt_curr`).
//! The model puts a running task back before the dequeue (its `put_prev`
//! returns the entity to the queue, the dequeue then takes it out: the
//! kernel's end state), and picks again where the kernel keeps a running
//! task with `set_curr_task`: the pick keeps it when it is still the most
//! urgent. A task whose prio falls joins the tail of its new list, not the
//! head (`ENQUEUE_HEAD`, 3058–3059: docs/fidelity.md says so).

use super::dispatch::Sched;
use crate::sched::fair::EnqueueKind;
use crate::time::{CpuId, Pid};

/// Where the task was before the change: what putting it back undoes.
#[derive(Clone, Copy)]
pub(super) struct OffRq {
    running: bool,
    queued: bool,
}

impl Sched<'_> {
    /// Takes `pid` off `cpu`'s runqueue: its run charged and put back if it runs, dequeued if queued.
    pub(super) fn off_rq(&mut self, pid: Pid, cpu: CpuId) -> OffRq {
        let off = OffRq {
            running: self.core.rqs[cpu.idx()].curr_task == Some(pid),
            queued: self.core.tasks[pid.idx()].se.on_rq,
        };
        if off.running {
            self.update_curr(cpu);
            self.put_prev_task(pid, cpu);
        }
        if off.queued {
            self.dequeue_task(pid, cpu, false);
            self.core.rqs[cpu.idx()].delist(pid);
        }
        off
    }

    /// Queues `pid` again on `cpu`, in whatever class and group it is in now, if it was queued.
    pub(super) fn back_on_rq(&mut self, pid: Pid, cpu: CpuId, off: OffRq) {
        if off.queued {
            self.enqueue_task(pid, cpu, EnqueueKind::Migrate);
            let upper = self.core.tasks[pid.idx()].above_fair();
            self.core.rqs[cpu.idx()].enlist(pid, upper);
            self.core.touch(cpu);
            self.core.index.touch_task(pid);
        }
    }

    /// `cpu` picks again if the task ran, or now preempts what runs.
    pub(super) fn repick_after(&mut self, pid: Pid, cpu: CpuId, off: OffRq) {
        if off.queued {
            if off.running || self.wakeup_preempts(cpu, pid, false) {
                self.core.rqs[cpu.idx()].need_resched = true;
            }
            self.resched_if_needed(cpu);
        }
    }
}

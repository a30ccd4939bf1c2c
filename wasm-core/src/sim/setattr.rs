//! A live task's class or prio changes: `sched_setattr` (a program step) and
//! `rt_mutex_setprio` (`pi.rs`) share the kernel's sequence (core.c
//! 3027–3076 and 3616–3638 in 4.1): off its queue (`requeue.rs`),
//! `switched_from` its class if it leaves it, the change, `switched_to` the
//! new class, onto the new class's queue, and a pick if it runs or now
//! preempts what does.

use super::Simulator;
use crate::config::Kernel;
use crate::sched::policy::{nice_prio, rt_prio, SchedAttr, SchedPolicy, MAX_RT_PRIO};
use crate::task::{Task, TaskState};
use crate::time::Pid;

/// The class a task with this policy and prio is in (`Room` without the run's class's detail).
fn class_key(policy: SchedPolicy, prio: u32) -> u8 {
    if policy.is_dl() {
        2
    } else if prio < MAX_RT_PRIO {
        1
    } else {
        0
    }
}

/// `__sched_setscheduler`'s early return (core.c 3533–3548 in 4.1,
/// syscalls.c 620–639 in 6.12): the same policy with the same parameters
/// leaves the task where it is, with no dequeue, enqueue or pick. A step
/// without a nice keeps the task's, so only one naming another differs; 6.12 also
/// compares `sched_runtime` with `se.slice`, and a step asks for no custom
/// slice (0) while the slice is never 0, so a fair step on 6.12 always
/// goes on to the change. A step has no `sched_flags` for
/// `dl_param_changed` (3400) to see.
fn changes_nothing(task: &Task, attr: &SchedAttr, kernel: Kernel) -> bool {
    if attr.policy != task.policy {
        return false;
    }
    if attr.policy.is_rt() {
        attr.rt_priority == task.rt_priority
    } else if attr.policy.is_dl() {
        attr.dl == task.dl
    } else {
        kernel == Kernel::Linux41 && attr.nice.is_none_or(|n| n == task.nice)
    }
}

impl Simulator {
    /// Changes `pid` with `change` (which sets `policy`, parameters and `prio`)
    /// where its class and queue can see it, as `__sched_setscheduler` and
    /// `rt_mutex_setprio` do. A running task is put back and its CPU picks
    /// again (the kernel keeps it with `set_curr_task`; the pick keeps it
    /// when it is still the most urgent). A task that never started or has
    /// exited only takes the change.
    pub(super) fn change_sched(&mut self, pid: Pid, policy: SchedPolicy, prio: u32, change: impl FnOnce(&mut Task)) {
        let task = &self.core.tasks[pid.idx()];
        let cpu = task.cpu;
        if task.state == TaskState::Exited || task.stats.started_at.is_none() {
            change(&mut self.core.tasks[pid.idx()]);
            return;
        }
        let mut s = self.sched();
        let off = s.off_rq(pid, cpu);
        let before = {
            let t = &s.core.tasks[pid.idx()];
            class_key(t.policy, t.prio)
        };
        let crosses = class_key(policy, prio) != before;
        if crosses {
            s.switched_from(pid);
        }
        change(&mut s.core.tasks[pid.idx()]);
        debug_assert_eq!((s.core.tasks[pid.idx()].policy, s.core.tasks[pid.idx()].prio), (policy, prio));
        if crosses {
            s.switched_to(pid);
        }
        s.back_on_rq(pid, cpu, off);
        s.repick_after(pid, cpu, off);
    }

    /// `sched_setattr` by `pid` on itself (`__sched_setscheduler`, core.c
    /// 3414–3640 in 4.1): its policy, real-time priority and deadline
    /// reservation from now on, at the prio they give unless a PI mutex
    /// lends it a more urgent one (`rt_mutex_get_effective_prio`, 3319).
    /// Validation has checked the parameters, the class's availability and
    /// the deadline class's admission.
    pub(super) fn sched_setattr(&mut self, pid: Pid, attr: SchedAttr) {
        let task = &self.core.tasks[pid.idx()];
        if changes_nothing(task, &attr, self.core.kernel) {
            return;
        }
        let nice = attr.nice.unwrap_or(task.nice);
        let normal = if attr.policy.is_rt() { rt_prio(attr.rt_priority) } else { nice_prio(nice) };
        let prio = self.pi_top_waiter_prio(pid).map_or(normal, |lent| lent.min(normal));
        self.change_sched(pid, attr.policy, prio, |t| {
            if nice != t.nice {
                // `static_prio` and `set_load_weight`: the weight of the new nice (SCHED_IDLE's is set below).
                t.nice = nice;
                let fair = crate::sched::entity::SchedEntity::for_nice(nice);
                (t.se.weight, t.se.inv_weight) = (fair.weight, fair.inv_weight);
            }
            t.set_policy(attr.policy, attr.rt_priority);
            t.prio = prio;
            t.dl = attr.dl;
        });
    }
}

//! A running thread moves itself to another cgroup (the `set_cgroup` step):
//! `sched_move_task` (core.c 7540–7580 in 4.1, 9012–9045 in 6.12) takes it
//! off its queue (put back first: it runs), changes its task group, and
//! queues it again, now under the new group's runqueue of the same CPU.
//!
//! 4.1 (`task_move_group_fair`, fair.c 7997–8040, for a queued task): the
//! dequeue made vruntime relative to the old runqueue's min_vruntime and the
//! enqueue makes it absolute on the new one's; the task's load leaves the old
//! runqueue's runnable load and joins the new one's with the dequeue and the
//! enqueue. 6.12 (`task_change_group_fair`, fair.c 13433–13446): the
//! dequeue and enqueue carry DEQUEUE_MOVE/ENQUEUE_MOVE, so the lag is kept and
//! the task placed by it in the new runqueue, and its PELT signals are
//! detached from the old runqueue and attached to the new
//! (`detach_task_cfs_rq`, `attach_task_cfs_rq`). The model does both as it
//! moves a queued task between CPUs (`move_queued_task`), here between two
//! runqueues of one CPU.

use super::Simulator;
use crate::time::Pid;

impl Simulator {
    /// The `set_cgroup` step of `pid`: into the scenario's cgroup `group`
    /// (its index), or the root (the process's autogroup when autogroup is
    /// on, as `autogroup_task_group` gives it).
    pub(super) fn sched_move_task(&mut self, pid: Pid, group: Option<u32>) {
        let task = &self.core.tasks[pid.idx()];
        let tg = group.map_or(self.core.procs[task.tgid as usize].root_tg, |i| i + 1);
        if task.tg == tg {
            // The cgroup core skips a task already in the destination.
            return;
        }
        let cpu = task.cpu;
        let mut s = self.sched();
        // The dequeue and enqueue are a move between two runqueues of the CPU, not a sleep and a wakeup.
        s.core.migrating = Some(pid);
        let off = s.off_rq(pid, cpu);
        let old = s.core.tasks[pid.idx()].tg;
        s.core.tasks[pid.idx()].tg = tg;
        // 4.1's fair class carries the vruntime over (the real-time and deadline classes have nothing to do, and
        // 6.12's task_change_group_fair is the detach and attach the move's dequeue and enqueue make).
        s.task_move_group(pid, old);
        s.back_on_rq(pid, cpu, off);
        s.core.migrating = None;
        // 6.12 reschedules the CPU (the new group may be throttled); 4.1's set_curr_task keeps the task, which
        // the pick does here unless another is now more urgent.
        s.repick_after(pid, cpu, off);
    }
}

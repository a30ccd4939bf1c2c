//! Moving tasks between runqueues (`detach_task` + `attach_task`,
//! `move_queued_task`), with vruntime renormalised from the old queue's
//! min_vruntime to the new one's so a move is neither a gain nor a loss.

use super::Simulator;
use crate::sched::fair::EnqueueKind;
use crate::task::TaskState;
use crate::time::{CpuId, Pid};
use crate::trace::{MigrateCause, TraceKind};

impl Simulator {}

impl super::Core {
    /// `se.nr_migrations` and the machine's total: bumped wherever 4.1's
    /// `set_task_cpu` moves a task to another CPU.
    pub(crate) fn count_migration(&mut self, pid: Pid) {
        self.tasks[pid.idx()].stats.migrations += 1;
        self.stats.migrations += 1;
    }

    /// `select_fallback_rq`: an online CPU the task may use, preferring the
    /// node of `near`; if none is allowed, any online CPU (the kernel then
    /// widens the task's affinity, and so do we).
    pub(crate) fn select_fallback_rq(&mut self, pid: Pid, near: CpuId) -> CpuId {
        let node = self.machine.node_of(near);
        let allowed = &self.tasks[pid.idx()].allowed;
        let online = &self.online;
        let usable = |c: CpuId| online.test(c) && allowed.test(c);
        if let Some(c) = self.machine.node_cpus(node).find(|&c| usable(c)) {
            return c;
        }
        if let Some(c) = online.iter().find(|&c| usable(c)) {
            return c;
        }
        let any = online.first().unwrap_or(CpuId(0));
        self.tasks[pid.idx()].allowed = self.online.clone();
        self.index.forget_task_mask(pid);
        any
    }
}

impl super::dispatch::Sched<'_> {
    /// Moves a queued task that is not running to `to`, then checks whether
    /// it preempts what runs there.
    pub(crate) fn move_queued_task(&mut self, pid: Pid, to: CpuId, cause: MigrateCause) {
        let now = self.core.now;
        let from = self.core.tasks[pid.idx()].cpu;
        // Runnable, or asleep but still queued (DELAY_DEQUEUE): such a task moves
        // as it is and stays asleep on its new runqueue (can_migrate_task does not skip it).
        debug_assert!(self.core.tasks[pid.idx()].se.on_rq && self.core.tasks[pid.idx()].state != TaskState::Running);
        self.core.migrating = Some(pid);
        self.dequeue_task(pid, from, false);
        self.core.rqs[from.idx()].delist(pid);
        self.core.touch(from);
        self.migrate_task_rq(pid, from, to);
        self.core.charge_migration(pid, from, to);
        let task = &mut self.core.tasks[pid.idx()];
        task.cpu = to;
        self.enqueue_task(pid, to, EnqueueKind::Migrate);
        self.core.migrating = None;
        let upper = self.core.tasks[pid.idx()].above_fair();
        self.core.rqs[to.idx()].enlist(pid, upper);
        self.core.touch(to);
        self.core.index.touch_task(pid);
        self.core.trace.emit(now, to, TraceKind::Migrate { pid, from, cause });
        self.check_preempt_curr(to, pid);
    }

    /// `check_preempt_curr` after a task arrived on `cpu`.
    pub(crate) fn check_preempt_curr(&mut self, cpu: CpuId, pid: Pid) {
        if self.wakeup_preempts(cpu, pid, false) {
            self.core.rqs[cpu.idx()].need_resched = true;
        }
    }

    /// Takes the running task of `cpu` off the CPU (it stays queued), as the
    /// stopper or hotplug do before moving it. Counts as an involuntary switch.
    pub(crate) fn preempt_curr_for_move(&mut self, cpu: CpuId) -> Option<Pid> {
        let curr = self.core.rqs[cpu.idx()].curr()?;
        let now = self.core.now;
        self.put_prev_task(curr, cpu);
        // Leaving the CPU ends (or pauses) the work before its own code, as any switch out does.
        self.core.settle_prelude(curr);
        self.core.rqs[cpu.idx()].curr_task = None;
        let task = &mut self.core.tasks[curr.idx()];
        task.state = TaskState::Runnable;
        task.stats.wait_start = Some(now);
        self.core.touch(cpu);
        self.core.index.touch_task(curr);
        self.context_switch(cpu, Some(curr), None);
        self.core.rqs[cpu.idx()].burst_gen += 1;
        Some(curr)
    }
}

impl super::Core {
    /// A migration's bookkeeping: the cost model's cache refill (a migrated
    /// task owes extra work, more when it crossed nodes) and the counts. Every
    /// path that moves a task calls it once, except a fork's placement, which
    /// is only counted (`count_migration`).
    pub(crate) fn charge_migration(&mut self, pid: Pid, from: CpuId, to: CpuId) {
        let remote = self.machine.node_of(from) != self.machine.node_of(to);
        let cost = if remote { self.costs.migration_cold_remote_ns } else { self.costs.migration_cold_ns };
        self.tasks[pid.idx()].owed_ns += cost;
        self.count_migration(pid);
    }
}

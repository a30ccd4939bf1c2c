//! Waking a task: `try_to_wake_up` for a sleeper and `wake_up_new_task` for
//! a new one. The class picks the CPU (`select_task_rq`); a move to another
//! CPU is counted and traced where 4.1's `set_task_cpu` counts it; the wakee
//! is enqueued and may preempt what runs there. Split from `core.rs`, which
//! calls it when a task's program advances out of a sleep.

use crate::balance::placement::PlaceKind;
use crate::sched::fair::EnqueueKind;
use crate::task::TaskState;
use crate::time::{CpuId, Pid};
use crate::trace::{MigrateCause, TraceKind};

impl super::Core {
    /// The CPU that wakes or forks the task: a timer fires where the task
    /// slept (its previous CPU, if still online); a process's threads are
    /// forked on the first CPU its affinity allows.
    fn waker_cpu(&mut self, pid: Pid, is_new: bool) -> CpuId {
        let task = &self.tasks[pid.idx()];
        let candidate = if is_new { task.allowed.iter().find(|&c| self.online.test(c)) } else { Some(task.cpu) };
        match candidate {
            Some(c) if self.online.test(c) => c,
            _ => self.select_fallback_rq(pid, task.cpu),
        }
    }
}

/// One context for the whole wakeup: the class is reached through it several times.
impl super::dispatch::Sched<'_> {
    /// `try_to_wake_up` / `wake_up_new_task`: choose a CPU, enqueue with the
    /// right placement, and check whether the wakee preempts the running task.
    pub(super) fn try_to_wake_up(&mut self, pid: Pid, is_new: bool, waker: Option<CpuId>, sync: bool) {
        let waker = match waker {
            Some(c) if self.core.online.test(c) => c,
            _ => self.core.waker_cpu(pid, is_new),
        };
        if !is_new && self.core.tasks[pid.idx()].se.on_rq {
            self.ttwu_runnable(pid, waker);
            return;
        }
        let kind = match (is_new, sync) {
            (true, _) => PlaceKind::Fork,
            (false, true) => PlaceKind::SyncWakeup,
            (false, false) => PlaceKind::Wakeup,
        };
        if is_new {
            self.core.tasks[pid.idx()].cpu = waker;
        }
        let target = self.select_task_rq(pid, waker, kind);
        if is_new && target != waker && self.core.kernel.new_task_placement_migrates() {
            if self.core.tasks[pid.idx()].parent.is_some() {
                // task_fork_fair stores the child's vruntime relative to the
                // parent's queue; it is rebased on the queue it lands on.
                self.migrate_task_rq(pid, waker, target);
            }
            // wake_up_new_task's set_task_cpu: a child placed away from the
            // CPU that forked it counts as migrated and is traced so. It owes
            // no cache refill: it has not run, so it left no cache behind.
            self.core.count_migration(pid);
            self.core.trace.emit(
                self.core.now,
                target,
                TraceKind::Migrate { pid, from: waker, cause: MigrateCause::Fork },
            );
        }
        if !is_new {
            self.core.ttwu_stat(waker, target);
        }
        let prev_cpu = self.core.tasks[pid.idx()].cpu;
        let now = self.core.now;
        if !is_new && target != prev_cpu {
            // task_waking_fair + enqueue: sleeping elsewhere is neither a gain
            // nor a loss of vruntime.
            self.migrate_task_rq(pid, prev_cpu, target);
            self.core.charge_migration(pid, prev_cpu, target);
            self.core.trace.emit(now, target, TraceKind::Migrate { pid, from: prev_cpu, cause: MigrateCause::Wakeup });
        }
        {
            let task = &mut self.core.tasks[pid.idx()];
            task.state = TaskState::Runnable;
            task.cpu = target;
            task.stats.wait_start = Some(now);
            task.stats.woken_at = Some(now);
        }
        if waker != target {
            // The wakeup crosses CPUs: an IPI the wakee pays for. The target
            // CPU takes it before it can switch to the wakee, so it is also
            // part of the wakee's wakeup latency (kept apart from a migration's
            // cache refill, which slows the task's own code instead).
            let task = &mut self.core.tasks[pid.idx()];
            task.owed_ns += self.core.costs.wakeup_ipi_ns;
            task.owed_ipi_ns += self.core.costs.wakeup_ipi_ns;
        }
        let kind = if is_new { EnqueueKind::New } else { EnqueueKind::Wakeup };
        self.enqueue_task(pid, target, kind);
        let upper = self.core.tasks[pid.idx()].above_fair();
        self.core.rqs[target.idx()].enlist(pid, upper);
        self.core.touch(target);
        self.core.index.touch_task(pid);
        let tk = if is_new { TraceKind::WakeupNew { pid } } else { TraceKind::Wakeup { pid } };
        self.core.trace.emit(now, target, tk);
        let curr = self.core.rqs[target.idx()].curr();
        let preempt = self.wakeup_preempts(target, pid, is_new);
        if preempt {
            self.core.rqs[target.idx()].need_resched = true;
            if let Some(curr) = curr {
                self.core.trace.emit(now, target, TraceKind::WakeupPreempt { curr, by: pid });
            }
        }
        // ttwu_do_wakeup and wake_up_new_task: the class's task_woken (a real-time push).
        self.task_woken(pid, target);
        if !is_new {
            self.core.fold_avg_idle(target);
        }
        self.resched_if_needed(target);
    }
}

impl super::dispatch::Sched<'_> {
    /// `ttwu_runnable` (core.c 3759–3782) for a sleeper its class kept queued
    /// (DELAY_DEQUEUE): no CPU is chosen and nothing moves; the class requeues
    /// it in place (`EnqueueKind::Delayed`), then it may preempt what runs
    /// there. Only `try_to_wake_up`'s count (`ttwu_stat`) is the full path's;
    /// `avg_idle` is not folded (that is `ttwu_do_activate`'s). A cross-CPU
    /// waker reaches the task's CPU by an IPI only if the wakee preempts (the
    /// reschedule it sends); the task's runqueue is taken directly, not
    /// through the wake list.
    fn ttwu_runnable(&mut self, pid: Pid, waker: CpuId) {
        let now = self.core.now;
        let cpu = self.core.tasks[pid.idx()].cpu;
        self.enqueue_task(pid, cpu, EnqueueKind::Delayed);
        self.core.ttwu_stat(waker, cpu);
        let task = &mut self.core.tasks[pid.idx()];
        task.state = TaskState::Runnable;
        task.stats.wait_start = Some(now);
        task.stats.woken_at = Some(now);
        self.core.touch(cpu);
        self.core.index.touch_task(pid);
        self.core.trace.emit(now, cpu, TraceKind::Wakeup { pid });
        let curr = self.core.rqs[cpu.idx()].curr();
        if self.wakeup_preempts(cpu, pid, false) {
            self.core.rqs[cpu.idx()].need_resched = true;
            if let Some(curr) = curr {
                self.core.trace.emit(now, cpu, TraceKind::WakeupPreempt { curr, by: pid });
            }
            if waker != cpu {
                let task = &mut self.core.tasks[pid.idx()];
                task.owed_ns += self.core.costs.wakeup_ipi_ns;
                task.owed_ipi_ns += self.core.costs.wakeup_ipi_ns;
            }
        }
        self.resched_if_needed(cpu);
    }
}

impl super::Core {
    /// `ttwu_do_wakeup`'s `avg_idle`: a wakeup onto a CPU that went idle
    /// through `idle_balance` folds that idle time into the running average
    /// (`update_avg`: an eighth of the difference), then caps it at twice the
    /// dearest idle balance. A new task's wakeup does not come here.
    fn fold_avg_idle(&mut self, cpu: CpuId) {
        let now = self.now;
        let rq = &mut self.rqs[cpu.idx()];
        if let Some(stamp) = rq.avg_idle_stamp.take() {
            let delta = now.since(stamp) as i64;
            let avg = rq.avg_idle_ns as i64;
            // An arithmetic shift, as the kernel's, rounds a fall down.
            let avg = (avg + ((delta - avg) >> 3)) as u64;
            rq.avg_idle_ns = avg.min(2 * rq.max_idle_balance_cost_ns);
        }
    }

    /// `ttwu_stat`: the waking CPU counts the wakeup, as local or as remote on its lowest domain spanning the
    /// wakee's CPU (a new task's first wakeup is not counted: wake_up_new_task does not call it).
    fn ttwu_stat(&mut self, waker: CpuId, target: CpuId) {
        let rq = &mut self.rqs[waker.idx()];
        rq.schedstat.ttwu_count += 1;
        if waker == target {
            rq.schedstat.ttwu_local += 1;
        } else if let Some(sd) = rq.domains.iter_mut().find(|sd| sd.span.test(target)) {
            sd.schedstat.ttwu_wake_remote += 1;
        }
    }
}

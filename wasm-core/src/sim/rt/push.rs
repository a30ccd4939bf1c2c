//! Moving real-time tasks between CPUs (rt.c of 4.1): `find_lowest_rq`
//! over cpupri, `push_rt_task` (a waiting task goes to a CPU that runs
//! something less urgent), and the pull, which under RT_PUSH_IPI (on in 4.1
//! wherever irq_work exists) asks each overloaded CPU in turn to push one
//! task (`tell_cpu_to_push`, `try_to_push_tasks`). The IPI's flight is not
//! modelled: the push happens at the instant of the pull.

use super::class::RtCx;
use super::cpupri;
use crate::time::{CpuId, Pid};
use crate::trace::MigrateCause;

impl RtCx<'_> {
    /// Each CPU's cpupri level.
    fn levels(&mut self) -> Vec<i32> {
        let online = self.core.online.clone();
        let st = self.st();
        st.rqs
            .iter()
            .enumerate()
            .map(
                |(cpu, rq)| {
                    if online.test(CpuId(cpu as u32)) {
                        cpupri::level_of(rq.highest_prio())
                    } else {
                        cpupri::INVALID
                    }
                },
            )
            .collect()
    }

    /// `cpupri_find` for `pid`.
    fn lowest_mask(&mut self, pid: Pid) -> Option<crate::topology::cpumask::CpuMask> {
        let levels = self.levels();
        let task = &self.core.tasks[pid.idx()];
        cpupri::find(&levels, task.prio, &task.allowed)
    }

    /// `find_lowest_rq`: the task's own CPU if it is among the lowest, else
    /// `this_cpu` or the first lowest CPU of the nearest wake-affine domain,
    /// else any lowest one.
    pub(super) fn find_lowest_rq(&mut self, pid: Pid, this_cpu: Option<CpuId>) -> Option<CpuId> {
        if !self.migratory(pid) {
            return None;
        }
        let lowest = self.lowest_mask(pid)?;
        let cpu = self.core.tasks[pid.idx()].cpu;
        if lowest.test(cpu) {
            return Some(cpu);
        }
        let this_cpu = this_cpu.filter(|&c| lowest.test(c));
        for sd in &self.core.rqs[cpu.idx()].domains {
            if !sd.flags.wake_affine {
                continue;
            }
            if let Some(this) = this_cpu.filter(|&c| sd.span.test(c)) {
                return Some(this);
            }
            if let Some(best) = lowest.iter_and(&sd.span).next() {
                return Some(best);
            }
        }
        this_cpu.or_else(|| lowest.first())
    }

    /// `find_lock_lowest_rq`: a CPU whose most urgent task is less urgent
    /// than `pid`. The kernel tries up to RT_MAX_TRIES times because taking
    /// the second runqueue's lock may let the picture change; here nothing
    /// moves between the look and the move, so one try decides.
    fn find_lock_lowest_rq(&mut self, pid: Pid, cpu: CpuId) -> Option<CpuId> {
        let target = self.find_lowest_rq(pid, Some(cpu))?;
        if target == cpu {
            return None;
        }
        (self.st().rqs[target.idx()].highest_prio() > self.prio(pid)).then_some(target)
    }

    /// `push_rt_task`: the most urgent pushable task goes to the lowest CPU
    /// that runs something less urgent; one more urgent than what runs here
    /// preempts here instead. True if a task moved.
    pub(super) fn push_rt_task(&mut self, cpu: CpuId) -> bool {
        if !self.st().rqs[cpu.idx()].overloaded {
            return false;
        }
        let Some(next) = self.st().rqs[cpu.idx()].pushable().next() else { return false };
        debug_assert!(self.waiting(next) && self.core.tasks[next.idx()].cpu == cpu);
        if self.prio(next) < self.curr_prio(cpu) {
            self.core.rqs[cpu.idx()].need_resched = true;
            return false;
        }
        let Some(target) = self.find_lock_lowest_rq(next, cpu) else { return false };
        // deactivate, set_task_cpu, activate, resched_curr(lowest_rq): the core's move does each.
        self.sched().move_queued_task(next, target, MigrateCause::RtPush);
        self.core.rqs[target.idx()].need_resched = true;
        self.sched().resched_if_needed(target);
        true
    }

    /// `push_rt_tasks`: push until nothing moves.
    pub(super) fn push_rt_tasks(&mut self, cpu: CpuId) {
        while self.push_rt_task(cpu) {}
    }

    /// `pull_rt_task` under RT_PUSH_IPI: each overloaded CPU after this one,
    /// in turn and wrapping round, pushes one task (`rto_next_cpu`).
    pub(super) fn pull_rt_task(&mut self, this_cpu: CpuId) {
        let rto = self.st().rto_mask.clone();
        if rto.is_empty() {
            return;
        }
        let n = self.core.rqs.len() as u32;
        for k in 1..n {
            let cpu = CpuId((this_cpu.0 + k) % n);
            if rto.test(cpu) && self.st().rqs[cpu.idx()].has_pushable() {
                self.push_rt_task(cpu);
            }
        }
    }

    /// `check_preempt_equal_prio`: a wakee as urgent as what runs preempts
    /// only if it cannot go elsewhere while the running task can.
    pub(super) fn check_preempt_equal_prio(&mut self, cpu: CpuId, pid: Pid, curr: Pid) -> bool {
        if !self.migratory(curr) || self.lowest_mask(curr).is_none() {
            return false;
        }
        if self.migratory(pid) && self.lowest_mask(pid).is_some() {
            return false;
        }
        self.st().rqs[cpu.idx()].requeue(pid, true);
        true
    }
}

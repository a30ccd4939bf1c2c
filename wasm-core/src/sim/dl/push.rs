//! Global EDF across CPUs (deadline.c and cpudeadline.c of 4.1):
//! `find_later_rq` over cpudl (a CPU with no deadline task, else the one
//! whose earliest deadline is latest, if the task's is earlier),
//! `push_dl_task` after a deadline pick and at wakeup, and `pull_dl_task`
//! when a CPU that ran a deadline task picks again.

use super::class::DlCx;
use crate::time::{CpuId, Pid};
use crate::topology::cpumask::CpuMask;
use crate::trace::MigrateCause;

impl DlCx<'_> {
    /// `cpudl_find`: the later mask (allowed CPUs with no deadline task; else
    /// the CPU whose earliest deadline is the latest, if `pid`'s is earlier).
    fn later_mask(&mut self, pid: Pid) -> Option<CpuMask> {
        let online = self.core.online.clone();
        let allowed = self.core.tasks[pid.idx()].allowed.clone();
        let deadline = self.deadline(pid);
        let st = self.st();
        let mut free = CpuMask::new();
        for cpu in online.iter_and(&allowed) {
            if st.rqs[cpu.idx()].nr_running() == 0 {
                free.set(cpu);
            }
        }
        if !free.is_empty() {
            return Some(free);
        }
        // cpudl_maximum: the online CPU whose earliest deadline is the latest (the heap's root).
        let max =
            online.iter().max_by_key(|c| (st.rqs[c.idx()].earliest().unwrap_or(u64::MAX), std::cmp::Reverse(c.0)))?;
        let latest = st.rqs[max.idx()].earliest().unwrap_or(u64::MAX);
        (allowed.test(max) && deadline < latest).then(|| CpuMask::from_cpus([max]))
    }

    /// `find_later_rq`: the task's own CPU if in the later mask, else
    /// `this_cpu` or the best CPU within the nearest wake-affine domain, else any.
    pub(super) fn find_later_rq(&mut self, pid: Pid, this_cpu: Option<CpuId>) -> Option<CpuId> {
        if !self.migratory(pid) {
            return None;
        }
        let later = self.later_mask(pid)?;
        let best = later.first()?;
        let cpu = self.core.tasks[pid.idx()].cpu;
        if later.test(cpu) {
            return Some(cpu);
        }
        let this_cpu = this_cpu.filter(|&c| later.test(c));
        for sd in &self.core.rqs[cpu.idx()].domains {
            if !sd.flags.wake_affine {
                continue;
            }
            if let Some(this) = this_cpu.filter(|&c| sd.span.test(c)) {
                return Some(this);
            }
            if sd.span.test(best) {
                return Some(best);
            }
        }
        this_cpu.or(Some(best))
    }

    /// `push_dl_task`: the earliest pushable task goes to a later CPU; one
    /// earlier than what runs here preempts here instead. True if it moved.
    pub(super) fn push_dl_task(&mut self, cpu: CpuId) -> bool {
        if !self.st().rqs[cpu.idx()].overloaded {
            return false;
        }
        let Some(next) = self.st().rqs[cpu.idx()].pushable().next() else { return false };
        if let Some(curr) = self.dl_curr(cpu) {
            if self.deadline(next) < self.deadline(curr) && self.migratory(curr) {
                self.core.rqs[cpu.idx()].need_resched = true;
                return false;
            }
        }
        // find_lock_later_rq: once (nothing moves between the look and the move here).
        let Some(target) = self.find_later_rq(next, Some(cpu)).filter(|&t| t != cpu) else { return false };
        let d = self.deadline(next);
        if self.st().rqs[target.idx()].earliest().is_some_and(|e| e <= d) {
            return false;
        }
        self.sched().move_queued_task(next, target, MigrateCause::DlPush);
        self.core.rqs[target.idx()].need_resched = true;
        self.sched().resched_if_needed(target);
        true
    }

    pub(super) fn push_dl_tasks(&mut self, cpu: CpuId) {
        while self.push_dl_task(cpu) {}
    }

    /// `pull_dl_task`: from each overloaded CPU, its earliest task that is
    /// not running there, allowed here and earlier than anything here (and
    /// than what this pull took already), unless it is about to run there.
    pub(super) fn pull_dl_task(&mut self, this_cpu: CpuId) {
        let dlo = self.st().dlo_mask.clone();
        let mut dmin = u64::MAX;
        for src in dlo.iter().filter(|&c| c != this_cpu) {
            let (here, src_next, src_n) = {
                let st = self.st();
                (st.rqs[this_cpu.idx()].earliest(), st.rqs[src.idx()].next(), st.rqs[src.idx()].nr_running())
            };
            if here.is_some_and(|h| src_next.is_none_or(|n| h < n)) || src_n <= 1 {
                continue;
            }
            let src_curr = self.core.rqs[src.idx()].curr_task;
            let candidates: Vec<(u64, Pid)> = self.st().rqs[src.idx()].queued().collect();
            let Some((d, p)) = candidates
                .into_iter()
                .find(|&(_, p)| Some(p) != src_curr && self.core.tasks[p.idx()].allowed.test(this_cpu))
            else {
                continue;
            };
            if d >= dmin || here.is_some_and(|h| d >= h) {
                continue;
            }
            if src_curr.is_some_and(|c| self.core.tasks[c.idx()].policy.is_dl() && d < self.deadline(c)) {
                // It is about to preempt there.
                continue;
            }
            self.sched().move_queued_task(p, this_cpu, MigrateCause::DlPush);
            dmin = d;
        }
    }
}

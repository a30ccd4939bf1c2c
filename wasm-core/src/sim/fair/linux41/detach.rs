//! `detach_tasks` (with attach and the LBF_DST_PINNED retry) and
//! `can_migrate_task` of Linux 4.1: which of the busiest CPU's tasks a
//! balancing pass moves. `load_balance.rs` drives them; the stopper's push
//! (`active_balance.rs`) asks `can_migrate_task` too.

use super::load_balance::{DetachFlags, SkipCounts};
use crate::balance::{IdleType, SCHED_NR_MIGRATE};
use crate::sched::entity::task_ent_id;
use crate::sim::fair::cx::FairCx;
use crate::task::TaskState;
use crate::time::{CpuId, Pid};
use crate::topology::cpumask::CpuMask;
use crate::topology::domains::SchedDomain;
use crate::trace::MigrateCause;

impl FairCx<'_> {
    /// `detach_tasks` + `attach_tasks`: walk the busiest CPU's tasks (most
    /// recently run first) and move those that may move until the imbalance
    /// is covered; then load_balance's LBF_DST_PINNED retry toward another CPU
    /// of the local group, which clears this one from `env_cpus`. Returns the
    /// destination the last round had (env.dst_cpu).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn detach_tasks(
        &mut self,
        dst: CpuId,
        src: CpuId,
        sd: &SchedDomain,
        idle: IdleType,
        imbalance: u64,
        local_span: &CpuMask,
        env_cpus: &mut CpuMask,
    ) -> (Vec<Pid>, DetachFlags, SkipCounts, CpuId) {
        let mut flags = DetachFlags { all_pinned: true, some_pinned: false, imbalance_left: imbalance as i64 };
        let mut skips = SkipCounts::default();
        let mut moved = self.fair.lb.pids_storage();
        let loop_max = SCHED_NR_MIGRATE.min(self.core.rqs[src.idx()].nr_running());
        let mut dst_cpu = dst;
        let mut dst_pinned_retry: Option<CpuId> = None;
        let cause = if idle == IdleType::NewlyIdle { MigrateCause::NewIdle } else { MigrateCause::Balance };
        loop {
            let mut loops = 0;
            while flags.imbalance_left > 0 && loops < loop_max {
                let Some(&pid) = self.core.rqs[src.idx()].cfs_tasks.front() else { break };
                loops += 1;
                let ok = self.can_migrate_task(
                    pid,
                    src,
                    dst_cpu,
                    sd,
                    idle,
                    local_span,
                    &*env_cpus,
                    &mut flags,
                    &mut skips,
                    &mut dst_pinned_retry,
                );
                // 4.1 reads a task's h_load only once it may move (the read refreshes the jiffy's h_load).
                let load = if ok { self.task_h_load(pid, src) } else { 0 };
                if ok && load / 2 <= flags.imbalance_left as u64 {
                    self.sched().move_queued_task(pid, dst_cpu, cause);
                    moved.push(pid);
                    flags.imbalance_left -= load as i64;
                    // Only a CONFIG_PREEMPT kernel stops a newly-idle pass after its first task.
                    if idle == IdleType::NewlyIdle && self.core.preempt == crate::config::PreemptModel::Full {
                        break;
                    }
                    continue;
                }
                if ok {
                    skips.too_heavy += 1;
                }
                let rq = &mut self.core.rqs[src.idx()];
                if rq.cfs_tasks.front() == Some(&pid) {
                    rq.cfs_tasks.pop_front();
                    rq.cfs_tasks.push_back(pid);
                }
            }
            // LBF_DST_PINNED: tasks this CPU may not take but another CPU of its group may. Whenever imbalance is
            // left, go again over the same busiest CPU on that CPU's behalf, this CPU no longer a candidate.
            match dst_pinned_retry.take() {
                Some(other) if flags.imbalance_left > 0 => {
                    env_cpus.clear(dst_cpu);
                    dst_cpu = other;
                }
                _ => break,
            }
        }
        (moved, flags, skips, dst_cpu)
    }

    #[allow(clippy::too_many_arguments)]
    pub(super) fn can_migrate_task(
        &self,
        pid: Pid,
        src: CpuId,
        dst: CpuId,
        sd: &SchedDomain,
        idle: IdleType,
        local_span: &CpuMask,
        env_cpus: &CpuMask,
        flags: &mut DetachFlags,
        skips: &mut SkipCounts,
        dst_retry: &mut Option<CpuId>,
    ) -> bool {
        let task = &self.core.tasks[pid.idx()];
        if !task.allowed.test(dst) {
            flags.some_pinned = true;
            skips.pinned += 1;
            if idle != IdleType::NewlyIdle && dst_retry.is_none() {
                *dst_retry = local_span.iter().find(|&c| c != dst && env_cpus.test(c) && task.allowed.test(c));
            }
            return false;
        }
        flags.all_pinned = false;
        if self.core.rqs[src.idx()].curr() == Some(pid) || task.state != TaskState::Runnable {
            skips.running += 1;
            return false;
        }
        let cfs = self.cfs_of(task.tg, src);
        let buddy = self.fair.tunables.features.cache_hot_buddy
            && self.core.rqs[dst.idx()].nr_running() > 0
            && (cfs.next == Some(task_ent_id(pid)) || cfs.last == Some(task_ent_id(pid)));
        let hot = buddy || self.core.now.since(task.se.exec_start) < self.fair.tunables.migration_cost_ns;
        if !hot || sd.nr_balance_failed > sd.cache_nice_tries {
            skips.hot_gained += u32::from(hot);
            return true;
        }
        skips.hot += 1;
        false
    }
}

//! `active_load_balance_cpu_stop` of Linux 4.1: the stopper of a busiest CPU
//! that failed to give up a task to periodic balancing often enough pushes
//! one task to the CPU that asked (a work of the stop class, `sim::stop`).

use super::load_balance::{DetachFlags, SkipCounts};
use crate::balance::IdleType;
use crate::sim::fair::cx::FairCx;
use crate::time::CpuId;
use crate::trace::MigrateCause;

impl FairCx<'_> {
    /// The stopper of `cpu` runs its work (`active_load_balance_cpu_stop`):
    /// one movable task goes to `target`. The stopper's run (`sim::stop`)
    /// preempted the running task before and reschedules both CPUs after.
    pub(crate) fn active_balance(&mut self, cpu: CpuId, target: CpuId) {
        self.core.rqs[cpu.idx()].active_balance = false;
        // The stopper is itself one of the CPU's runnable tasks: with it, a CPU running one task counts two,
        // so only a CPU with no task of its own left has nothing to push.
        if !self.core.online.test(cpu) || !self.core.online.test(target) || self.core.rqs[cpu.idx()].nr_running() == 0 {
            return;
        }
        // The target's lowest balancing domain that spans this CPU; none, nothing is pushed.
        let Some(level) =
            self.core.rqs[target.idx()].domains.iter().position(|sd| sd.flags.load_balance && sd.span.test(cpu))
        else {
            return;
        };
        // The stopper has preempted the running task (`run_stopper`): it is queued like any other and may move.
        // detach_one_task: the first task of the list that can_migrate_task lets go (as an idle pass).
        let (mut skips, mut retry) = (SkipCounts::default(), Some(target));
        let candidate = {
            let sd = &self.core.rqs[target.idx()].domains[level];
            let local = sd.groups[0].span.clone();
            let env = sd.span.and(&self.core.online);
            let mut flags = DetachFlags { all_pinned: true, some_pinned: false, imbalance_left: 0 };
            self.core.rqs[cpu.idx()].cfs_tasks.iter().copied().find(|&p| {
                self.can_migrate_task(
                    p,
                    cpu,
                    target,
                    sd,
                    IdleType::Idle,
                    &local,
                    &env,
                    &mut flags,
                    &mut skips,
                    &mut retry,
                )
            })
        };
        let st = &mut self.core.rqs[target.idx()].domains[level].schedstat;
        st.lb[crate::topology::schedstat::idle_index(IdleType::Idle)].lb_hot_gained += u64::from(skips.hot_gained);
        st.alb_count += 1;
        if candidate.is_some() {
            st.alb_pushed += 1;
        } else {
            st.alb_failed += 1;
        }
        if let Some(pid) = candidate {
            self.sched().move_queued_task(pid, target, MigrateCause::Active);
        }
    }
}

//! `sched_setaffinity` by a running thread on itself (the `set_cpus` step):
//! the new mask is stored, and when the CPU the thread runs on is not in it
//! the CPU's stopper (`stop_one_cpu` → `migration_cpu_stop`, a work of the
//! stop class, `sim::stop`) preempts it and moves it to a CPU of the mask, as
//! an exec's move does (`exec.rs`).
//!
//! 4.1 (`set_cpus_allowed_ptr`, core.c 4788–4827): a mask with no active CPU
//! fails (EINVAL); the destination is the mask's first active CPU
//! (`cpumask_any_and`). 6.12 (`__set_cpus_allowed_ptr_locked`, core.c
//! 3033–3107, then `affine_move_task`, 2886): the destination is picked
//! before the CPU is tested, by `cpumask_any_and_distribute`, which starts
//! after the CPU it last picked when called on this CPU (a per-CPU cursor),
//! so threads narrowing to one mask from one CPU spread over it. An
//! unchanged mask does nothing in either. Cpusets are not modelled: the mask
//! is not narrowed by one.

use super::stop::StopWork;
use super::Simulator;
use crate::sim::kernel::Kernel;
use crate::time::{CpuId, Pid};
use crate::topology::cpumask::CpuMask;
use crate::trace::MigrateCause;

impl Simulator {
    /// The `set_cpus` step of `pid`, running on `cpu`, with its program's
    /// mask `mask`. True when the task stays and its program goes straight on.
    pub(super) fn sched_setaffinity(&mut self, cpu: CpuId, pid: Pid, mask: usize) -> bool {
        let task = &self.core.tasks[pid.idx()];
        let new_mask: CpuMask = self.core.programs[task.program.program].cpumask(mask).clone();
        if task.allowed == new_mask {
            return true;
        }
        let Some(dest) = self.affinity_dest(cpu, &new_mask) else {
            // EINVAL: every CPU of the mask is offline (hotplug); the thread keeps its mask.
            return true;
        };
        let task = &mut self.core.tasks[pid.idx()];
        task.allowed = new_mask;
        let stays = task.allowed.test(task.cpu);
        self.core.index.forget_task_mask(pid);
        if stays {
            return true;
        }
        // stop_one_cpu(migration_cpu_stop) → __migrate_task → move_queued_task, the stop class's work; the
        // program goes on once the task runs again (a 1 ns burst, as after an exec's move).
        let mut s = self.sched();
        s.core.set_burst(pid, 1);
        s.stop_one_cpu(cpu, StopWork::Migrate { pid, dest, cause: MigrateCause::Affinity });
        false
    }

    /// The CPU a task leaving `cpu` for `mask` would go to, as the run's
    /// kernel picks it; None when no CPU of the mask is active.
    fn affinity_dest(&mut self, cpu: CpuId, mask: &CpuMask) -> Option<CpuId> {
        let online = &self.core.online;
        match self.core.kernel {
            Kernel::Linux41 => mask.iter_and(online).next(),
            Kernel::Linux612 => {
                // find_next_and_bit_wrap from the cursor + 1: the first pick skips CPU 0.
                let rq = &mut self.core.rqs[cpu.idx()];
                let start = rq.distribute_cpu_mask_prev + 1;
                let usable = mask.and(online);
                let next = usable.iter().find(|c| c.0 >= start).or_else(|| usable.first())?;
                rq.distribute_cpu_mask_prev = next.0;
                Some(next)
            }
        }
    }
}

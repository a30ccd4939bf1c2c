//! `sched_exec` (Linux 4.1.15, core.c 2418–2438): at execve the running task
//! is placed again through its class's `select_task_rq` with SD_BALANCE_EXEC.
//! The fair class walks the domains that carry that flag as it does for a
//! fork (`find_idlest_group`, `find_idlest_cpu`, with `forkexec_idx`), the
//! task's own load still counted on its CPU. When another CPU is chosen, the
//! CPU's stopper (`stop_one_cpu` → `migration_cpu_stop`, the stop class:
//! `sim::stop`) preempts the task and moves it there; the new image runs when the task next runs.

use super::stop::StopWork;
use super::Simulator;
use crate::balance::placement::PlaceKind;
use crate::time::{CpuId, Pid};
use crate::trace::MigrateCause;

impl Simulator {
    /// The exec step of `pid`, running on `cpu`. True when the task stays and
    /// its program goes straight on.
    pub(super) fn sched_exec(&mut self, cpu: CpuId, pid: Pid) -> bool {
        let mut s = self.sched();
        let dest = s.select_task_rq(pid, cpu, PlaceKind::Exec);
        if dest == cpu || !s.core.online.test(dest) {
            return true;
        }
        // The program goes on once the task runs again (a 1 ns burst, as after a yield).
        s.core.set_burst(pid, 1);
        s.stop_one_cpu(cpu, StopWork::Migrate { pid, dest, cause: MigrateCause::Exec });
        false
    }
}

#[cfg(test)]
#[path = "exec_test.rs"]
mod exec_test;

//! The thread-weight policies (PFS, DW-CFS; `sched::thread_weight`) applied
//! to the running simulation: a process's threads are reweighted whenever
//! its live thread count Nt changes (a thread starts or exits) and, for
//! DW-CFS, whenever the online CPU count No changes (hotplug).
//!
//! Nt counts the process's threads that have started and not exited —
//! running, runnable or asleep — not only the runnable ones: DW-CFS and PFS
//! both speak of a process's threads [kernel-model.md 6; RECALL for PFS].

use crate::config::PolicyKind;
use crate::sched::fair::FairStrategy;
use crate::sched::thread_weight::{dwcfs_weight, pfs_weight};
use crate::sched::weights::nice_to_weight;
use crate::sim::fair::cx::FairCx;
use crate::task::TaskState;

impl FairCx<'_> {
    /// Recomputes the weight of every live thread of process `tgid`.
    pub(crate) fn refresh_thread_weights(&mut self, st: FairStrategy, tgid: u32) {
        if !matches!(self.core.policy.kind, PolicyKind::Pfs | PolicyKind::DwCfs) {
            return;
        }
        let live: Vec<_> = self.core.procs[tgid as usize]
            .threads
            .iter()
            .copied()
            .filter(|&p| {
                let t = &self.core.tasks[p.idx()];
                t.stats.started_at.is_some() && t.state != TaskState::Exited
            })
            .collect();
        let nt = live.len() as u32;
        let no = self.core.online.weight();
        for pid in live {
            let base = nice_to_weight(self.core.tasks[pid.idx()].nice);
            let w = match self.core.policy.kind {
                PolicyKind::Pfs => pfs_weight(base, nt),
                _ => dwcfs_weight(base, self.core.policy.alpha, self.core.policy.beta_milli, nt, no),
            };
            self.reweight_task(st, pid, w);
        }
    }

    /// After hotplug: No changed, so every process's DW-CFS weights move.
    pub(crate) fn refresh_all_thread_weights(&mut self, st: FairStrategy) {
        if self.core.policy.kind != PolicyKind::DwCfs {
            return;
        }
        for tgid in 0..self.core.procs.len() as u32 {
            self.refresh_thread_weights(st, tgid);
        }
    }
}

//! Group Identity in the running simulation (`sched::identity` has the
//! rules): identities of the task groups from the scenario's cgroups, the
//! SMT-expeller test used when picking, the kicks of SMT siblings when an
//! expeller starts or stops running, and the idle test (`id_idle_cpu`) that
//! wakeup placement uses for a highclass wakee.

use super::Simulator;
use crate::config::SimConfig;
use crate::sched::identity::Identity;
use crate::time::{CpuId, Pid};

impl Simulator {
    /// Gives each cgroup's task group its identity (children inherit their
    /// parent's) and marks its group entities. Cgroups are the first task
    /// groups built, in scenario order (ids 1..).
    pub(super) fn apply_identities(&mut self, cfg: &SimConfig) {
        if !cfg.policy.group_identity {
            return;
        }
        let n = self.rqs.len();
        for (i, cg) in cfg.cgroups.iter().enumerate() {
            let tg = i + 1;
            let parent = self.tgs[tg].parent.unwrap_or(0) as usize;
            let (identity, expeller) = if parent == 0 {
                (cg.identity, cg.smt_expeller)
            } else {
                (self.tgs[parent].identity, self.tgs[parent].smt_expeller)
            };
            self.tgs[tg].identity = identity;
            self.tgs[tg].smt_expeller = expeller;
            for se in &mut self.gses[(tg - 1) * n..tg * n] {
                se.identity = identity;
            }
        }
    }

    pub(crate) fn is_smt_expeller(&self, pid: Pid) -> bool {
        self.tgs[self.tasks[pid as usize].tg as usize].smt_expeller
    }

    /// True when an SMT expeller runs on another hardware thread of `cpu`'s
    /// core: underclass work may not run on `cpu` now.
    pub(crate) fn smt_expelled(&self, cpu: CpuId) -> bool {
        self.policy.group_identity
            && self
                .machine
                .smt_siblings(cpu)
                .filter(|&s| s != cpu)
                .any(|s| self.rqs[s as usize].curr_task.is_some_and(|p| self.is_smt_expeller(p)))
    }

    /// After `cpu` switched from `prev` to `next`: an expeller that starts
    /// running reschedules siblings running underclass tasks (an IPI); one
    /// that stops lets idle siblings with queued work pick again.
    pub(crate) fn smt_expel_siblings(&mut self, cpu: CpuId, prev: Option<Pid>, next: Option<Pid>) {
        if !self.policy.group_identity || prev == next {
            return;
        }
        let starts = next.is_some_and(|p| self.is_smt_expeller(p));
        let stops = prev.is_some_and(|p| self.is_smt_expeller(p)) && !starts;
        if !starts && !stops {
            return;
        }
        for s in self.machine.smt_siblings(cpu).filter(|&s| s != cpu) {
            let rq = &self.rqs[s as usize];
            if !rq.online {
                continue;
            }
            let kick = match rq.curr_task {
                Some(c) => starts && self.tasks[c as usize].se.identity == Identity::Underclass,
                None => stops && rq.nr_running() > 0,
            };
            if kick {
                self.rqs[s as usize].need_resched = true;
                self.resched_if_needed(s);
            }
        }
    }
}

impl Simulator {
    /// `id_idle_cpu` as the wakeup placement reads it: whether `cpu` counts
    /// as idle for the wakee `pid`. A truly idle CPU (`idle_cpu`) always
    /// does. With Group Identity on, a highclass wakee also counts a CPU on
    /// which nothing but underclass work is queued or running (kernel-model.md
    /// 7.1: "It treats CPUs running only UNDERCLASS tasks as idle when choosing
    /// a CPU"): it preempts that work at once. The kernel's other clause (not
    /// idle for p if p would be expelled there) cannot apply to a highclass
    /// wakee, and other wakees keep the plain test, so without Group Identity
    /// this is exactly `idle_cpu`. IDLE_SEEKER (the SIS_PROP scan limit) and
    /// ID_EXPELLER_SHARE_CORE are not modelled: 4.1's select_idle_sibling has
    /// no scan limit, and two expellers may share a core here.
    pub(crate) fn id_idle_cpu(&self, pid: Pid, cpu: CpuId) -> bool {
        let rq = &self.rqs[cpu as usize];
        if rq.is_idle() {
            return true;
        }
        self.policy.group_identity
            && self.tgs[self.tasks[pid as usize].tg as usize].identity == Identity::Highclass
            && rq.online
            && rq.cfs.tree.is_empty()
            && rq.cfs.curr.is_none_or(|e| self.ent(e).identity == Identity::Underclass)
    }
}

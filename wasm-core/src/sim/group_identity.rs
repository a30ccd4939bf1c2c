//! Group Identity in the running simulation (`sched::identity` has the
//! rules): identities of the task groups from the scenario's cgroups, the
//! SMT-expeller test used when picking, and the kicks of SMT siblings when an
//! expeller starts or stops running.

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
    /// `id_idle_cpu`: a CPU counts as idle for a highclass wakee if nothing
    /// but underclass work is queued or running there (Group Identity
    /// placement, kernel-model.md 7.1).
    fn id_idle_cpu(&self, cpu: CpuId) -> bool {
        let rq = &self.rqs[cpu as usize];
        rq.online && rq.cfs.tree.is_empty() && rq.cfs.curr.is_none_or(|e| self.ent(e).identity == Identity::Underclass)
    }

    /// `select_idle_sibling` as Group Identity runs it for a highclass
    /// wakee, after `select_task_rq_fair` chose `target`: with id_idle_cpu in
    /// place of idle_cpu — target, else the previous CPU (same LLC), else the
    /// first core of target's LLC whose other CPUs all count as idle, else an
    /// SMT sibling of target. Without Group Identity, or for other wakees,
    /// the target stands.
    pub(crate) fn id_select_idle_sibling(&self, pid: Pid, target: CpuId) -> CpuId {
        let task = &self.tasks[pid as usize];
        if !self.policy.group_identity
            || self.tgs[task.tg as usize].identity != Identity::Highclass
            || self.id_idle_cpu(target)
        {
            return target;
        }
        let m = &self.machine;
        let prev = task.cpu;
        if m.node_of(prev) == m.node_of(target) && task.allowed.test(prev) && self.id_idle_cpu(prev) {
            return prev;
        }
        let node = m.node_cpus(m.node_of(target));
        let cores = node.clone().step_by(m.threads_per_core as usize).map(|c| m.smt_siblings(c));
        for core in cores {
            if core.clone().all(|c| c == target || self.id_idle_cpu(c)) {
                if let Some(c) = core.clone().find(|&c| c != target && task.allowed.test(c)) {
                    return c;
                }
            }
        }
        m.smt_siblings(target).find(|&c| c != target && task.allowed.test(c) && self.id_idle_cpu(c)).unwrap_or(target)
    }
}

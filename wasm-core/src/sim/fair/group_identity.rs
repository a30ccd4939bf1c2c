//! Group Identity in the running simulation (`sched::identity` has the
//! rules): identities of the task groups from the scenario's cgroups, the
//! SMT-expeller test used when picking, the kicks of SMT siblings when an
//! expeller starts or stops running, and the idle test (`id_idle_cpu`) that
//! wakeup placement uses: wider for a highclass wakee, narrower for an
//! underclass one beside an expeller.

use crate::sched::identity::Identity;
use crate::sim::events::Event;
use crate::sim::fair::cx::FairCx;
use crate::time::{CpuId, Pid};

impl FairCx<'_> {
    pub(crate) fn is_smt_expeller(&self, pid: Pid) -> bool {
        self.fair.tgs[self.core.tasks[pid.idx()].tg as usize].smt_expeller
    }

    /// True when an SMT expeller runs on another hardware thread of `cpu`'s
    /// core: underclass work may not run on `cpu` now.
    pub(crate) fn smt_expelled(&self, cpu: CpuId) -> bool {
        self.core.policy.group_identity
            && self
                .core
                .machine
                .smt_siblings(cpu)
                .filter(|&s| s != cpu)
                .any(|s| self.core.rqs[s.idx()].curr_task.is_some_and(|p| self.is_smt_expeller(p)))
    }

    /// After `cpu` switched from `prev` to `next`: an expeller that starts
    /// running reschedules siblings running underclass tasks; one that stops
    /// lets idle siblings with queued work pick again. Either is a reschedule
    /// of another CPU, sent as an IPI: it lands `costs.wakeup_ipi_ns` later
    /// (`expel_kick`), and until then an expelled sibling keeps running.
    pub(crate) fn smt_expel_siblings(&mut self, cpu: CpuId, prev: Option<Pid>, next: Option<Pid>) {
        if !self.core.policy.group_identity || prev == next {
            return;
        }
        let starts = next.is_some_and(|p| self.is_smt_expeller(p));
        let stops = prev.is_some_and(|p| self.is_smt_expeller(p)) && !starts;
        if !starts && !stops {
            return;
        }
        let ipi = self.core.costs.wakeup_ipi_ns;
        for s in self.core.machine.smt_siblings(cpu).filter(|&s| s != cpu) {
            if self.expel_kick_due(s) {
                if ipi == 0 {
                    self.expel_kick(s);
                } else {
                    self.core.push(self.core.now.after(ipi), Event::ClassKick(s));
                }
            }
        }
    }

    /// Whether sibling `s` must pick again: it runs underclass work beside a
    /// running expeller, or it idles with work queued and no expeller beside it.
    fn expel_kick_due(&self, s: CpuId) -> bool {
        let rq = &self.core.rqs[s.idx()];
        rq.online
            && match rq.curr_task {
                Some(c) => self.core.tasks[c.idx()].se.identity == Identity::Underclass && self.smt_expelled(s),
                None => rq.nr_running() > 0 && !self.smt_expelled(s),
            }
    }

    /// The expel IPI reaches `s`: it reschedules if that is still due (the
    /// expeller may have stopped, or the sibling switched, meanwhile).
    pub(crate) fn expel_kick(&mut self, s: CpuId) {
        if self.expel_kick_due(s) {
            self.core.rqs[s.idx()].need_resched = true;
            self.sched().resched_if_needed(s);
        }
    }
}

impl FairCx<'_> {
    /// `id_idle_cpu` as the wakeup placement reads it: whether `cpu` counts
    /// as idle for the wakee `pid`. Without Group Identity this is exactly
    /// `idle_cpu`; with it (kernel-model.md 7.1) two clauses bend it by the
    /// wakee's identity:
    /// * a highclass wakee also counts a CPU on which nothing but underclass
    ///   work is queued or running ("It treats CPUs running only UNDERCLASS
    ///   tasks as idle when choosing a CPU"): it preempts that work at once;
    /// * an underclass wakee does not count a CPU whose SMT sibling runs an
    ///   expeller (`smt_expelled`): the modern `id_idle_cpu` is false "if p
    ///   would be expelled there" (`task_will_be_expelled`, its SMT-expel
    ///   case), since the wakee could not be picked there until the expeller
    ///   stops. Only the running expeller is read, as picking reads it.
    ///
    /// Normal wakees keep `idle_cpu`. Not modelled: the expel_list
    /// bookkeeping behind the kernel's test (`rq->on_expel`, expellees moved
    /// off the tree at pick time; here `smt_expelled` is read live), the
    /// backup CPU the modern `select_idle_cpu` keeps when every idle CPU it
    /// saw was refused, IDLE_SEEKER (the SIS_PROP scan limit: 4.1's
    /// select_idle_sibling has none) and ID_EXPELLER_SHARE_CORE (its clause
    /// for an expeller wakee: two expellers may share a core here). Forks
    /// keep `idle_cpu`: the kernel asks `id_idle_cpu` only on the wakeup fast
    /// path (select_idle_sibling and its scans); its `find_idlest_cpu` (4.1)
    /// or `find_idlest_group_cpu` (modern) tests plain idleness.
    pub(crate) fn id_idle_cpu(&self, pid: Pid, cpu: CpuId) -> bool {
        let rq = &self.core.rqs[cpu.idx()];
        if !self.core.policy.group_identity {
            return rq.is_idle();
        }
        match self.fair.tgs[self.core.tasks[pid.idx()].tg as usize].identity {
            Identity::Normal => rq.is_idle(),
            Identity::Underclass => rq.is_idle() && !self.smt_expelled(cpu),
            Identity::Highclass => {
                rq.is_idle()
                    || (rq.online
                        && rq.cfs.tree.is_empty()
                        && rq.cfs.curr.is_none_or(|e| self.ent(e).identity == Identity::Underclass))
            }
        }
    }
}

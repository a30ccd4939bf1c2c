//! Where a waking, forked or exec'ing task goes under Linux 6.12
//! (`select_task_rq_fair`, fair.c 8696–8760), over the machine state: the
//! waker's domains from the lowest up; a wakeup that may be affine stops at
//! the first domain spanning both CPUs and asks `wake_affine` (`wake_affine.rs`)
//! whether to come near the waker, then looks for an idle CPU in that
//! target's LLC (`select_idle_sibling`, `idle_sibling.rs`); a fork or exec
//! (or a wakeup that is not affine, through SD_BALANCE_WAKE, which 6.12's
//! domains do not set) walks down from the highest domain with its flag
//! through the idlest group and CPU (`find_dst.rs`). The LLC's idle-core
//! hint is kept here (`update_idle_core`), and the hierarchical load a task
//! weighs from the root (`task_h_load`).
//!
//! Energy-aware placement is off (the model's CPUs are symmetric, so the
//! root domain is never `!overutilized` under EAS): as in 6.12 on such a machine.

use super::idle_sibling::{select_idle_sibling, IdleView};
use super::pelt::SCHED_CAPACITY_SCALE;
use super::wake_affine::{wake_affine, AffineFeatures, AffineInputs};
use crate::balance::placement::{PlaceKind, PlacePath, Placement};
use crate::sched::policy::SchedPolicy;
use crate::sim::fair::cx::FairCx;
use crate::time::{CpuId, Pid};
use crate::topology::cpumask::CpuMask;

impl FairCx<'_> {
    /// `sched_idle_cpu` (fair.c 6970–6981): a CPU whose runnable tasks are all SCHED_IDLE (`rq->nr_running ==
    /// cfs.idle_h_nr_running`, a delayed sleeper counted on both sides), which placement treats as idle.
    pub(super) fn sched_idle_cpu(&self, cpu: CpuId) -> bool {
        if !self.core.idle_policy {
            return false;
        }
        let rq = &self.core.rqs[cpu.idx()];
        let n = rq.nr_running();
        n > 0 && rq.queued().filter(|p| self.core.tasks[p.idx()].policy == SchedPolicy::Idle).count() as u32 == n
    }

    /// `available_idle_cpu`: running the idle task with nothing queued (a
    /// wakeup already sent there is queued at once in the model).
    pub(super) fn available_idle_cpu(&self, cpu: CpuId) -> bool {
        let rq = &self.core.rqs[cpu.idx()];
        rq.online && rq.curr_task.is_none() && rq.nr_running() == 0
    }

    /// `capacity_of`: 6.12 gives every CPU of a symmetric machine the full
    /// scale; SMT threads no longer divide a core's capacity.
    pub(super) fn capacity_of_612(&self, _cpu: CpuId) -> u64 {
        SCHED_CAPACITY_SCALE
    }

    /// `cpu_load`: the root runqueue's PELT load average.
    pub(super) fn cpu_load_612(&self, cpu: CpuId) -> u64 {
        let st = &self.fair.gen612;
        st.rq_avgs[st.rq_ix(0, cpu)].avg.load_avg
    }

    /// `cpu_smt_mask`: the CPU's SMT siblings, itself included.
    pub(super) fn smt_mask(&self, cpu: CpuId) -> &CpuMask {
        &self.fair.gen612.smt[cpu.idx()]
    }

    /// `sd_llc_id`: the first CPU of the LLC (the CPU itself without one).
    pub(super) fn llc_id(&self, cpu: CpuId) -> u32 {
        self.fair.gen612.llc_id[cpu.idx()]
    }

    /// `select_task_rq` (core.c) over `select_task_rq_fair`: a task allowed
    /// on one CPU goes there; a choice it may not run on falls back.
    /// The choice is recorded for the inspector with the CPUs its path could consider.
    pub(crate) fn select_task_rq_fair_612(&mut self, pid: Pid, this_cpu: CpuId, kind: PlaceKind) -> CpuId {
        let prev = self.core.tasks[pid.idx()].cpu;
        let allowed = &self.core.tasks[pid.idx()].allowed;
        let (mut cpu, mut path) = if allowed.weight() == 1 {
            (allowed.first().unwrap_or(this_cpu), Path::OneAllowed)
        } else {
            self.select_cpu_612(pid, this_cpu, kind)
        };
        if !(self.core.online.test(cpu) && self.core.tasks[pid.idx()].allowed.test(cpu)) {
            cpu = self.core.select_fallback_rq(pid, cpu);
            path = Path::Fallback;
        }
        let mut considered = self.fair.lb.placement_mask();
        self.considered_612(&mut considered, pid, prev, this_cpu, cpu, path);
        let p = Placement {
            at: self.core.now,
            pid,
            kind,
            prev,
            waker: this_cpu,
            chosen: cpu,
            path: path.kind(),
            considered,
        };
        self.fair.lb.record_placement(p);
        cpu
    }

    /// The CPUs a placement's path could look at: the target's LLC with the
    /// previous and the waking CPU for `select_idle_sibling`; the domain
    /// walked down from for the fork and exec path; every allowed online CPU
    /// for the fallback; the chosen CPU alone otherwise.
    fn considered_612(&self, m: &mut CpuMask, pid: Pid, prev: CpuId, waker: CpuId, chosen: CpuId, path: Path) {
        m.clone_from(&CpuMask::new());
        match path {
            Path::IdleSibling => {
                if let Some((_, llc)) = &self.fair.gen612.llc[chosen.idx()] {
                    m.clone_from(llc);
                }
                m.set(prev);
                m.set(waker);
            }
            Path::FindDst(level) => m.clone_from(&self.core.rqs[waker.idx()].domains[level].span),
            Path::Fallback => {
                m.clone_from(&self.core.tasks[pid.idx()].allowed);
                m.and_with(&self.core.online);
                m.trim();
            }
            Path::OneAllowed | Path::NoDomain => {}
        }
        m.set(chosen);
    }

    fn select_cpu_612(&mut self, pid: Pid, this_cpu: CpuId, kind: PlaceKind) -> (CpuId, Path) {
        let prev = self.core.tasks[pid.idx()].cpu;
        let wakeup = kind.is_wakeup();
        let sync = kind == PlaceKind::SyncWakeup;
        let mut new_cpu = prev;
        let mut want_affine = false;
        if wakeup {
            self.record_wakee(pid, this_cpu);
            want_affine = !self.wake_wide_612(pid, this_cpu) && self.core.tasks[pid.idx()].allowed.test(this_cpu);
        }
        let mut sd = None;
        for (level, d) in self.core.rqs[this_cpu.idx()].domains.iter().enumerate() {
            if want_affine && d.flags.wake_affine && d.span.test(prev) {
                if this_cpu != prev {
                    new_cpu = self.wake_affine_612(level, pid, this_cpu, prev, sync);
                }
                sd = None;
                break;
            }
            let flag = match kind {
                PlaceKind::Wakeup | PlaceKind::SyncWakeup => d.flags.balance_wake,
                PlaceKind::Fork => d.flags.balance_fork,
                PlaceKind::Exec => d.flags.balance_exec,
            };
            if flag {
                sd = Some(level);
            } else if !want_affine {
                break;
            }
        }
        match sd {
            Some(level) => (self.find_dst_cpu_612(level, pid, this_cpu, prev, kind), Path::FindDst(level)),
            None if wakeup => (self.select_idle_sibling_612(pid, prev, new_cpu), Path::IdleSibling),
            None => (new_cpu, Path::NoDomain),
        }
    }

    /// `wake_wide`: the waker and wakee flip between more partners than the
    /// LLC holds CPUs (the larger count at least the LLC size times the smaller).
    fn wake_wide_612(&self, wakee: Pid, this_cpu: CpuId) -> bool {
        let factor = self.fair.gen612.llc[this_cpu.idx()].as_ref().map_or(1, |(_, s)| s.weight());
        let mut master = self.core.rqs[this_cpu.idx()].curr().map_or(0, |w| self.core.tasks[w.idx()].wakee_flips);
        let mut slave = self.core.tasks[wakee.idx()].wakee_flips;
        if master < slave {
            std::mem::swap(&mut master, &mut slave);
        }
        !(slave < factor || master < slave * factor)
    }

    /// `wake_affine` in the domain at `level` of the waker's CPU.
    fn wake_affine_612(&mut self, level: usize, pid: Pid, this_cpu: CpuId, prev: CpuId, sync: bool) -> CpuId {
        let waker = self.core.rqs[this_cpu.idx()].curr();
        let x = AffineInputs {
            sync,
            this_idle: self.available_idle_cpu(this_cpu),
            prev_idle: self.available_idle_cpu(prev),
            share_cache: self.llc_id(this_cpu) == self.llc_id(prev),
            this_nr_running: self.core.rqs[this_cpu.idx()].nr_running(),
            this_h_nr_delayed: self.fair.gen612.h_nr_delayed[self.fair.gen612.rq_ix(0, this_cpu)],
            this_load: self.cpu_load_612(this_cpu),
            prev_load: self.cpu_load_612(prev),
            waker_h_load: waker.map_or(0, |w| self.task_h_load_612(w)),
            wakee_h_load: self.task_h_load_612(pid),
            this_capacity: self.capacity_of_612(this_cpu),
            prev_capacity: self.capacity_of_612(prev),
            imbalance_pct: self.core.rqs[this_cpu.idx()].domains[level].imbalance_pct,
        };
        if wake_affine(&x, AffineFeatures::default()).to_this() {
            self.core.rqs[this_cpu.idx()].domains[level].schedstat.ttwu_move_affine += 1;
            this_cpu
        } else {
            prev
        }
    }

    /// `select_idle_sibling` on the machine as it stands.
    fn select_idle_sibling_612(&mut self, pid: Pid, prev: CpuId, target: CpuId) -> CpuId {
        // The index's idle set is `available_idle_cpu` over the online CPUs.
        self.core.sync_index();
        self.fair.gen612.ensure_task(pid);
        let st = &self.fair.gen612;
        let llc = st.llc_id[target.idx()] as usize;
        let (mut shared, mut recent) = (st.llc_shared[llc], st.recent_used_cpu[pid.idx()]);
        // Only the target's LLC is read (prev and the recently used CPU count only when they share it).
        let mut sched_idle = CpuMask::new();
        if self.core.idle_policy {
            let llc = self.fair.gen612.llc[target.idx()]
                .as_ref()
                .map_or_else(|| CpuMask::from_cpus([target]), |(_, s)| s.clone());
            for c in llc.iter().filter(|&c| self.sched_idle_cpu(c)) {
                sched_idle.set(c);
            }
        }
        let st = &self.fair.gen612;
        let view = IdleView {
            idle: &self.core.index.idle,
            sched_idle: &sched_idle,
            smt: &st.smt,
            llc_id: &st.llc_id,
            llc_span: st.llc[target.idx()].as_ref().map(|(_, s)| s),
            smt_active: st.smt_active,
            sis_util: true,
        };
        let allowed = &self.core.tasks[pid.idx()].allowed;
        let cpu = select_idle_sibling(&view, &mut shared, allowed, &mut recent, prev, target);
        self.fair.gen612.llc_shared[llc] = shared;
        self.fair.gen612.recent_used_cpu[pid.idx()] = recent;
        cpu
    }

    /// `__update_idle_core`: a CPU going idle whose SMT siblings are all idle
    /// tells its LLC that an idle core may be found there.
    pub(crate) fn update_idle_core(&mut self, cpu: CpuId) {
        let smt = self.smt_mask(cpu);
        if smt.weight() < 2 {
            return;
        }
        let llc = self.llc_id(cpu) as usize;
        if self.fair.gen612.llc_shared[llc].has_idle_cores {
            return;
        }
        if smt.iter().all(|c| c == cpu || self.available_idle_cpu(c)) {
            self.fair.gen612.llc_shared[llc].has_idle_cores = true;
        }
    }

    /// `task_h_load`: the task's load as its CPU's root runqueue sees it.
    pub(crate) fn task_h_load_612(&mut self, pid: Pid) -> u64 {
        let (tg, cpu) = (self.core.tasks[pid.idx()].tg, self.core.tasks[pid.idx()].cpu);
        self.update_cfs_rq_h_load(tg, cpu);
        let st = &mut self.fair.gen612;
        let ix = st.ensure_task(pid);
        let r = st.rq_ix(tg, cpu);
        st.avgs[ix].load_avg * st.h_load[r] / (st.rq_avgs[r].avg.load_avg + 1)
    }

    /// `update_cfs_rq_h_load`: the hierarchical load of group `tg`'s runqueue
    /// on `cpu`, computed top-down from the nearest level already brought up
    /// to date this jiffy (or the root).
    fn update_cfs_rq_h_load(&mut self, tg: u32, cpu: CpuId) {
        let now = self.core.jiffies();
        let mut path = Vec::new();
        let mut t = tg;
        loop {
            let r = self.fair.gen612.rq_ix(t, cpu);
            if self.fair.gen612.last_h_load_update[r] == Some(now) {
                break;
            }
            path.push(t);
            if t == 0 {
                let st = &mut self.fair.gen612;
                st.h_load[r] = st.rq_avgs[r].avg.load_avg;
                st.last_h_load_update[r] = Some(now);
                path.pop();
                break;
            }
            t = self.fair.tgs[t as usize].parent.unwrap_or(0);
        }
        // `path` runs from `tg` up to just below the level already current; fill it top-down.
        while let Some(child) = path.pop() {
            let parent = self.fair.tgs[child as usize].parent.unwrap_or(0);
            let gse = self.gse_id(child, cpu);
            let st = &mut self.fair.gen612;
            let (pr, cr, gix) = (st.rq_ix(parent, cpu), st.rq_ix(child, cpu), st.ent_ix(gse));
            st.h_load[cr] = st.h_load[pr] * st.avgs[gix].load_avg / (st.rq_avgs[pr].avg.load_avg + 1);
            st.last_h_load_update[cr] = Some(now);
        }
    }
}

/// Which part of 6.12's `select_task_rq` decided, with the domain level the
/// fork and exec path walked down from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Path {
    IdleSibling,
    FindDst(usize),
    OneAllowed,
    NoDomain,
    Fallback,
}

impl Path {
    fn kind(self) -> PlacePath {
        match self {
            Path::IdleSibling => PlacePath::IdleSibling,
            Path::FindDst(_) => PlacePath::FindDstGroup,
            Path::OneAllowed => PlacePath::OneAllowed,
            Path::NoDomain => PlacePath::NoDomain,
            Path::Fallback => PlacePath::Fallback,
        }
    }
}

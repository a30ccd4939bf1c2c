//! Where a waking or new task goes (`select_task_rq_fair`, Linux 4.1).
//!
//! Wakeups: at the lowest domain spanning both the waker's CPU and the
//! task's previous CPU, `wake_affine` may pull the wakee to the waker's CPU;
//! then `select_idle_sibling` looks for an idle core *only inside the target's
//! LLC* (its node). That confinement is the Overload-on-Wakeup bug: a node's
//! wakees pile up on its busy cores while other nodes idle. The fix (paper
//! section 3.4): the previous CPU if it is idle, else the CPU idle for the
//! longest time, else the original path — for forks too, as the patch
//! places it at the top of select_task_rq_fair.
//!
//! Group Identity: a wakeup's idle tests are `id_idle_cpu` (a highclass wakee
//! counts a CPU running only underclass work as idle; an underclass wakee
//! does not count an idle CPU whose SMT sibling runs an expeller), inside
//! select_idle_sibling and the fix alike; without Group Identity, or for
//! normal wakees, they are `idle_cpu`.
//!
//! Fork: from the highest domain with SD_BALANCE_FORK down,
//! `find_idlest_group` then `find_idlest_cpu`.

use crate::balance::placement::{PlaceKind, PlacePath, Placement};
use crate::balance::stats::{source_load_of, target_load_of, CpuLoad};
use crate::sim::fair::cx::FairCx;
use crate::time::{CpuId, Pid};
use crate::topology::cpumask::CpuMask;
use crate::topology::domains::{GroupIndex, SchedDomain, SchedGroup, SCHED_CAPACITY_SCALE};

impl FairCx<'_> {
    /// What the balancer reads of one CPU.
    pub(crate) fn cpu_load(&self, cpu: CpuId) -> CpuLoad {
        let rq = &self.core.rqs[cpu.idx()];
        let capacity = if rq.online { self.core.cpu_capacity } else { 1 };
        let util = rq.cfs.utilization_load_avg.max(0) as u64;
        CpuLoad {
            weighted: rq.weighted_cpuload(),
            cpu_load: rq.cpu_load,
            nr_running: rq.nr_running(),
            usage: if util >= SCHED_CAPACITY_SCALE { capacity } else { util * capacity / SCHED_CAPACITY_SCALE },
            capacity,
            idle: rq.online && rq.is_idle(),
        }
    }

    /// The loads a balancing pass reads (`cpus` and `this_cpu`; the other
    /// entries are stale), read into a reused buffer at the pass's first
    /// round. Nothing moves before a redo, so the redo reads them again from
    /// `kept` (the self-check verifies that); the pass gives the buffer back
    /// to `cpu_load_buf`.
    pub(crate) fn pass_loads<'a>(
        &mut self,
        kept: &'a mut Option<Vec<CpuLoad>>,
        cpus: &CpuMask,
        this_cpu: CpuId,
    ) -> &'a [CpuLoad] {
        if let Some(loads) = kept {
            if self.core.index_check() {
                for c in cpus.iter().chain([this_cpu]) {
                    assert_eq!(loads[c.idx()], self.cpu_load(c), "CPU {c}'s load changed before a redo");
                }
            }
        } else {
            let mut loads = std::mem::take(&mut self.fair.lb.cpu_load_buf);
            loads.resize(self.core.rqs.len(), CpuLoad::default());
            for c in cpus.iter().chain([this_cpu]) {
                loads[c.idx()] = self.cpu_load(c);
            }
            *kept = Some(loads);
        }
        kept.as_deref().expect("filled")
    }

    fn usable(&self, pid: Pid, cpu: CpuId) -> bool {
        self.core.online.test(cpu) && self.core.tasks[pid.idx()].allowed.test(cpu)
    }

    /// `select_task_rq_fair`. `this_cpu` is the CPU doing the wakeup or fork.
    pub(crate) fn select_task_rq_fair(&mut self, pid: Pid, this_cpu: CpuId, kind: PlaceKind) -> CpuId {
        if kind.is_wakeup() {
            self.record_wakee(pid, this_cpu);
        }
        // The idle CPUs select_idle_sibling may start from.
        self.core.sync_index();
        let prev = self.core.tasks[pid.idx()].cpu;
        let (cpu, path) = self.select_cpu(pid, prev, this_cpu, kind);
        // The oldest record's mask is reused once the log is full.
        let mut considered = self.fair.lb.placement_mask();
        self.search_space(&mut considered, pid, prev, this_cpu, cpu, path);
        self.fair.lb.record_placement(Placement {
            at: self.core.now,
            pid,
            kind,
            prev,
            waker: this_cpu,
            chosen: cpu,
            path,
            considered,
        });
        cpu
    }

    fn select_cpu(&mut self, pid: Pid, prev: CpuId, this_cpu: CpuId, kind: PlaceKind) -> (CpuId, PlacePath) {
        // The wastedcores patch puts the fix at the top of select_task_rq_fair,
        // so it applies to forks as well as wakeups (kernel-model.md 3.3).
        if !self.core.bugs.overload_on_wakeup {
            if let Some(c) = self.wakeup_fix(pid, prev, kind) {
                return (c, PlacePath::IdleAnywhere);
            }
        }
        let (cpu, path) = match kind {
            PlaceKind::Wakeup | PlaceKind::SyncWakeup => {
                let sync = kind == PlaceKind::SyncWakeup;
                let (cpu, affine_level) = self.select_wakeup(pid, prev, this_cpu, sync);
                if let Some(level) = affine_level {
                    self.core.rqs[this_cpu.idx()].domains[level].schedstat.ttwu_move_affine += 1;
                }
                (cpu, PlacePath::IdleSibling)
            }
            PlaceKind::Fork | PlaceKind::Exec => (self.select_fork(pid, this_cpu, kind), PlacePath::IdlestGroup),
        };
        if self.usable(pid, cpu) {
            (cpu, path)
        } else {
            (self.core.select_fallback_rq(pid, cpu), PlacePath::Fallback)
        }
    }

    /// The CPUs the chosen path could look at (the paper's figure 5 marks
    /// these): every allowed CPU for the fix; the waker, the previous CPU
    /// and the target's LLC for select_idle_sibling; the highest fork
    /// domain's span for find_idlest_group.
    fn search_space(&self, m: &mut CpuMask, pid: Pid, prev: CpuId, waker: CpuId, chosen: CpuId, path: PlacePath) {
        let allowed = &self.core.tasks[pid.idx()].allowed;
        let only = |m: &mut CpuMask, c: CpuId| {
            m.clone_from(&CpuMask::new());
            m.set(c);
        };
        match path {
            PlacePath::IdleAnywhere | PlacePath::Fallback => {
                m.clone_from(allowed);
                m.and_with(&self.core.online);
                m.trim();
            }
            PlacePath::IdleSibling => {
                match self.core.rqs[chosen.idx()].domains.iter().rfind(|sd| sd.flags.share_pkg_resources) {
                    Some(sd) => m.clone_from(&sd.span),
                    None => only(m, chosen),
                }
                m.set(prev);
                m.set(waker);
            }
            PlacePath::IdlestGroup => match self.core.rqs[waker.idx()].domains.iter().rfind(|sd| sd.flags.balance_fork)
            {
                Some(sd) => m.clone_from(&sd.span),
                None => only(m, waker),
            },
            // 6.12's paths; 4.1 never takes them.
            PlacePath::FindDstGroup | PlacePath::OneAllowed | PlacePath::NoDomain => only(m, chosen),
        }
        m.set(chosen);
    }

    /// The Overload-on-Wakeup fix: previous CPU if idle, else the allowed CPU
    /// idle for the longest time. A wakeup tests idleness as
    /// select_idle_sibling does (`id_idle_cpu`: with Group Identity a
    /// highclass wakee stays on a previous CPU running only underclass work,
    /// an underclass wakee passes over CPUs beside a running expeller; a CPU
    /// running work has no idle stamp, so CPUs that idle come first).
    /// A fork keeps `idle_cpu`: Group Identity's test is the wakeup path's.
    fn wakeup_fix(&self, pid: Pid, prev: CpuId, kind: PlaceKind) -> Option<CpuId> {
        let idle = |c: CpuId| match kind {
            PlaceKind::Wakeup | PlaceKind::SyncWakeup => self.id_idle_cpu(pid, c),
            PlaceKind::Fork | PlaceKind::Exec => self.core.rqs[c.idx()].is_idle(),
        };
        if self.usable(pid, prev) && idle(prev) {
            return Some(prev);
        }
        let scan = || {
            self.core
                .rqs
                .iter()
                .filter(|rq| self.usable(pid, rq.cpu) && idle(rq.cpu))
                .min_by_key(|rq| (rq.idle_stamp.map_or(u64::MAX, |t| t.ns()), rq.cpu))
                .map(|rq| rq.cpu)
        };
        if kind.is_wakeup() && self.core.policy.group_identity {
            return scan();
        }
        // Plain idle_cpu: the idle CPUs longest idle first (the index's order).
        let found =
            self.core.index.idle_since.iter().map(|&(_, c)| c).find(|&c| self.core.tasks[pid.idx()].allowed.test(c));
        if self.core.index_check() {
            assert_eq!(found, scan(), "the longest-idle CPU at {:?}", self.core.now);
        }
        found
    }

    /// `wake_wide` (4.1): a waker that flips between many wakees (more than
    /// the LLC size times the wakee's own flips) is left alone: its wakees
    /// are not pulled next to it.
    fn wake_wide(&self, wakee: Pid, this_cpu: CpuId) -> bool {
        let factor = self.core.rqs[this_cpu.idx()]
            .domains
            .iter()
            .rfind(|sd| sd.flags.share_pkg_resources)
            .map_or(1, |sd| sd.span.weight());
        let wakee_flips = self.core.tasks[wakee.idx()].wakee_flips;
        if wakee_flips <= factor {
            return false;
        }
        let waker_flips = self.core.rqs[this_cpu.idx()].curr().map_or(0, |w| self.core.tasks[w.idx()].wakee_flips);
        waker_flips > factor * wakee_flips
    }

    /// The wakee's CPU, and the level of the waker's domain whose `wake_affine` pulled it, if one did.
    fn select_wakeup(&self, pid: Pid, prev: CpuId, this_cpu: CpuId, sync: bool) -> (CpuId, Option<usize>) {
        let mut target = prev;
        let mut affine_level = None;
        let want_affine = !self.wake_wide(pid, this_cpu) && self.core.tasks[pid.idx()].allowed.test(this_cpu);
        if want_affine && this_cpu != prev && self.core.online.test(this_cpu) {
            let affine_sd =
                self.core.rqs[this_cpu.idx()].domains.iter().position(|sd| sd.flags.wake_affine && sd.span.test(prev));
            if let Some(level) = affine_sd {
                let sd = &self.core.rqs[this_cpu.idx()].domains[level];
                if self.wake_affine(pid, this_cpu, prev, sd.wake_idx, sd.imbalance_pct, sync) {
                    target = this_cpu;
                    affine_level = Some(level);
                }
            }
        }
        (self.select_idle_sibling(pid, target), affine_level)
    }

    /// `select_idle_sibling`: the target if idle; the previous CPU if it
    /// shares the cache and is idle; else the first group (core, then CPU) of
    /// the target's LLC domain whose CPUs are all idle. "Idle" is
    /// `id_idle_cpu` for the wakee: with Group Identity a highclass wakee
    /// counts CPUs running only underclass work as idle, so it stays on such
    /// a previous CPU rather than leave for a whole idle core; an underclass
    /// wakee does not count an idle CPU beside a running expeller.
    fn select_idle_sibling(&self, pid: Pid, target: CpuId) -> CpuId {
        let idle = |c: CpuId| self.id_idle_cpu(pid, c);
        if self.core.rqs[target.idx()].online && idle(target) {
            return target;
        }
        let prev = self.core.tasks[pid.idx()].cpu;
        let llc = |c: CpuId| self.core.machine.node_of(c);
        if prev != target && llc(prev) == llc(target) && self.core.rqs[prev.idx()].online && idle(prev) {
            return prev;
        }
        let doms = &self.core.rqs[target.idx()].domains;
        let Some(top) = doms.iter().rposition(|sd| sd.flags.share_pkg_resources) else { return target };
        let allowed = &self.core.tasks[pid.idx()].allowed;
        let scan = |sd: &SchedDomain| {
            sd.groups.iter().filter(|g| g.span.intersects(allowed)).find_map(|g| {
                if g.span.iter().all(|i| i != target && idle(i)) {
                    g.span.iter().find(|&c| allowed.test(c))
                } else {
                    None
                }
            })
        };
        // Plain idle_cpu: a group the walk takes is all idle and holds a CPU
        // the task may use, so with no idle allowed CPU in the LLC (an
        // overloaded machine's usual wakeup) every level comes back empty.
        if !self.core.policy.group_identity && !any_in_all(&self.core.index.idle, &doms[top].span, allowed) {
            if self.core.index_check() {
                let found = doms[..=top].iter().rev().find_map(scan);
                assert_eq!(found, None, "select_idle_sibling found an idle group at {:?}", self.core.now);
            }
            return target;
        }
        for sd in doms[..=top].iter().rev() {
            let found = match (&sd.group_index, self.core.policy.group_identity) {
                // Plain idle_cpu: start from the idle CPUs instead of every group.
                (Some(index), false) => {
                    let c = self.first_idle_group(sd, index, target, allowed);
                    if self.core.index_check() {
                        assert_eq!(c, scan(sd), "select_idle_sibling's fast walk at {:?}", self.core.now);
                    }
                    c
                }
                _ => scan(sd),
            };
            if let Some(c) = found {
                return c;
            }
        }
        target
    }

    /// select_idle_sibling's walk over one level's groups, when its groups
    /// follow each other in CPU order and idle means `idle_cpu`: the first
    /// group (in `groups` order, which starts at the target's group) whose
    /// CPUs are all idle and none is the target, and which has a CPU the task
    /// may use. Such a group holds an idle allowed CPU, so only those are
    /// visited, in the order of their groups: the first that qualifies is the
    /// one the walk over every group finds.
    fn first_idle_group(
        &self,
        sd: &SchedDomain,
        index: &GroupIndex,
        target: CpuId,
        allowed: &CpuMask,
    ) -> Option<CpuId> {
        let idle = &self.core.index.idle;
        let start = sd.groups[0].span.first()?;
        let (idle_w, allowed_w, span_w) = (idle.words(), allowed.words(), sd.span.words());
        let word = |w: usize| {
            let get = |v: &[u64]| v.get(w).copied().unwrap_or(0);
            get(idle_w) & get(allowed_w) & get(span_w)
        };
        let words = span_w.len();
        // From the target's group's first CPU to the end, then from the start.
        let first = start.idx() / 64;
        let visit = (first..words).chain(0..=first);
        for (k, w) in visit.enumerate() {
            let mut bits = word(w);
            if k == 0 {
                bits &= u64::MAX << (start.0 % 64);
            } else if w == first {
                bits &= !(u64::MAX << (start.0 % 64));
            }
            while bits != 0 {
                let c = CpuId(w as u32 * 64 + bits.trailing_zeros());
                bits &= bits - 1;
                let g = &sd.groups[index.group_of(c)?];
                if !g.span.test(target) && g.span.is_subset_of(idle) {
                    return g.span.iter().find(|&c| allowed.test(c));
                }
            }
        }
        None
    }

    /// Fork placement: walk down from the highest SD_BALANCE_FORK domain.
    /// Nothing changes during the walk; the groups' loads are the kept sums
    /// (`group_loads.rs`), the idlest group's CPUs are read from their
    /// runqueues.
    fn select_fork(&mut self, pid: Pid, this_cpu: CpuId, kind: PlaceKind) -> CpuId {
        // sd_flag: SD_BALANCE_EXEC for sched_exec, SD_BALANCE_FORK otherwise.
        let flagged =
            |sd: &SchedDomain| if kind == PlaceKind::Exec { sd.flags.balance_exec } else { sd.flags.balance_fork };
        let mut level = self.core.rqs[this_cpu.idx()].domains.iter().rposition(flagged);
        let (mut cpu, mut new_cpu) = (this_cpu, this_cpu);
        while let Some(li) = level {
            let down = li.checked_sub(1);
            // The kept sums natively; the wasm build scans (the same answer,
            // the self-check proves it): their code would cost the bundle
            // about 2 KB of its budget for under 2 % of a fork-heavy run.
            #[cfg(not(target_arch = "wasm32"))]
            let group = self.idlest_group_kept(pid, cpu, li);
            #[cfg(target_arch = "wasm32")]
            let group = self.find_idlest_group(pid, cpu, li);
            let Some(group) = group else {
                level = down;
                continue;
            };
            let sd = &self.core.rqs[cpu.idx()].domains[li];
            let found = self.find_idlest_cpu(pid, &sd.groups[group].span, cpu);
            if found == cpu {
                level = down;
                continue;
            }
            new_cpu = found;
            let weight = sd.span.weight();
            cpu = found;
            level = self.core.rqs[cpu.idx()].domains.iter().rposition(|d| d.span.weight() < weight && flagged(d));
        }
        new_cpu
    }

    /// `find_idlest_group` for the fork walk: with `forkexec_idx` 0 the
    /// groups' loads are the kept sums (`group_loads`), else the scan.
    #[cfg(not(target_arch = "wasm32"))]
    pub(super) fn idlest_group_kept(&mut self, pid: Pid, this_cpu: CpuId, level: usize) -> Option<usize> {
        if self.core.rqs[this_cpu.idx()].domains[level].forkexec_idx != 0 {
            return self.find_idlest_group(pid, this_cpu, level);
        }
        let (kept, rqs) = (&mut self.fair.lb.group_loads, &self.core.rqs);
        kept.sync(rqs);
        kept.prepare(this_cpu, level, &rqs[this_cpu.idx()].domains[level]);
        let kept = &self.fair.lb.group_loads;
        let loads = kept.level_loads(this_cpu, level);
        // A task allowed every CPU (the usual affinity) meets every group.
        let meets_all = allows_all(&self.core.tasks[pid.idx()].allowed, self.core.rqs.len());
        let found = self.idlest_group_by(pid, this_cpu, level, meets_all, |gi, _, _| loads.group(gi));
        if self.core.index_check() {
            for (gi, g) in self.core.rqs[this_cpu.idx()].domains[level].groups.iter().enumerate() {
                let recount: u64 = g.span.iter().map(|c| self.core.rqs[c.idx()].weighted_cpuload()).sum();
                assert_eq!(loads.group(gi), recount, "group {gi}'s kept load at {:?}", self.core.now);
            }
            assert_eq!(found, self.find_idlest_group(pid, this_cpu, level), "the idlest group at {:?}", self.core.now);
        }
        found
    }

    /// `find_idlest_group`, each CPU's load read from its runqueue.
    pub(crate) fn find_idlest_group(&self, pid: Pid, this_cpu: CpuId, level: usize) -> Option<usize> {
        let sd = &self.core.rqs[this_cpu.idx()].domains[level];
        self.idlest_group_by(pid, this_cpu, level, false, |_, g, local| {
            g.span
                .iter()
                .map(|i| {
                    let rq = &self.core.rqs[i.idx()];
                    let (weighted, history) = (rq.weighted_cpuload(), &rq.cpu_load);
                    // The local group is where the task would leave from: its low guess; a remote group
                    // its high guess, so a new task stays local unless elsewhere is clearly lighter.
                    if local {
                        source_load_of(weighted, history, sd.forkexec_idx)
                    } else {
                        target_load_of(weighted, history, sd.forkexec_idx)
                    }
                })
                .sum()
        })
    }

    /// `find_idlest_group`: the least loaded allowed group, unless the local
    /// one is within half the imbalance margin. `group_load(index, group,
    /// local)` is a group's summed load; `meets_all` says that every group
    /// holds a CPU the task may use.
    fn idlest_group_by(
        &self,
        pid: Pid,
        this_cpu: CpuId,
        level: usize,
        meets_all: bool,
        group_load: impl Fn(usize, &SchedGroup, bool) -> u64,
    ) -> Option<usize> {
        let sd = &self.core.rqs[this_cpu.idx()].domains[level];
        let allowed = &self.core.tasks[pid.idx()].allowed;
        let imbalance = 100 + (sd.imbalance_pct as u64 - 100) / 2;
        let (mut idlest, mut min_load, mut this_load) = (None, u64::MAX, 0);
        for (gi, g) in sd.groups.iter().enumerate() {
            if !meets_all && !g.span.intersects(allowed) {
                continue;
            }
            let local = g.span.test(this_cpu);
            let avg = group_load(gi, g, local) * SCHED_CAPACITY_SCALE / g.capacity.max(1);
            if local {
                this_load = avg;
            } else if avg < min_load {
                min_load = avg;
                idlest = Some(gi);
            }
        }
        let idlest = idlest?;
        (100 * this_load >= imbalance * min_load).then_some(idlest)
    }

    /// `find_idlest_cpu`: the most recently idled CPU if any is idle (no
    /// cpuidle states are modelled, so all idle CPUs are equally shallow),
    /// else the least loaded.
    fn find_idlest_cpu(&self, pid: Pid, span: &CpuMask, this_cpu: CpuId) -> CpuId {
        let allowed = &self.core.tasks[pid.idx()].allowed;
        let (mut least, mut min_load) = (this_cpu, u64::MAX);
        let (mut shallowest, mut latest_stamp) = (None, 0u64);
        for i in span.iter_and(allowed).filter(|&c| self.core.online.test(c)) {
            let rq = &self.core.rqs[i.idx()];
            if rq.is_idle() {
                let stamp = rq.idle_stamp.map_or(0, |t| t.ns());
                if shallowest.is_none() || stamp > latest_stamp {
                    latest_stamp = stamp;
                    shallowest = Some(i);
                }
            } else if shallowest.is_none() {
                let load = rq.weighted_cpuload();
                if load < min_load || (load == min_load && i == this_cpu) {
                    min_load = load;
                    least = i;
                }
            }
        }
        shallowest.unwrap_or(least)
    }
}

/// Whether some CPU is in all three sets.
fn any_in_all(a: &CpuMask, b: &CpuMask, c: &CpuMask) -> bool {
    a.words().iter().zip(b.words()).zip(c.words()).any(|((x, y), z)| x & y & z != 0)
}

/// Whether `mask` holds CPUs 0 to `n` − 1.
#[cfg(not(target_arch = "wasm32"))]
fn allows_all(mask: &CpuMask, n: usize) -> bool {
    // CPUs 64·w to 64·w + bits − 1 are in the mask.
    let full = |w: usize, bits: usize| {
        let low = u64::MAX >> (64 - bits);
        mask.words().get(w).is_some_and(|&x| x & low == low)
    };
    (0..n / 64).all(|w| full(w, 64)) && (n.is_multiple_of(64) || full(n / 64, n % 64))
}

#[cfg(test)]
#[path = "idlest_group_test.rs"]
mod idlest_group_test;

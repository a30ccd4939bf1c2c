//! `find_busiest_group` across one load_balance pass and its redos.
//!
//! When every task of the busiest CPU was pinned, load_balance drops that CPU
//! from the candidates and runs find_busiest_group again (`goto redo`), up to
//! once per CPU of the domain. Nothing moved in between, so only the groups
//! that contained the dropped CPU have different statistics: a redo
//! recomputes those and finds the busiest group in a ranking, instead of
//! recomputing every group (on a flat 1,024-CPU domain a newly idle pass could
//! redo hundreds of times over 1,024 groups). The answers are the ones a
//! fresh find_busiest_group gives; the self-check (`set_index_check`)
//! compares every redo with one.
//!
//! As 4.1.15's `update_sd_lb_stats`, every group that holds the destination
//! CPU is local (in a NUMA domain the overlapping groups may hold it more than
//! once): none of them can be the busiest, each adds to the domain's totals,
//! and the local statistics the verdict reads are the last one's.

use super::decision::{GroupStats, GroupType, Why};
use super::stats::{decide, group_stats, pick_busiest, BusiestGroup, FbgInput};
use crate::time::CpuId;
use crate::topology::cpumask::CpuMask;
use crate::topology::domains::SCHED_CAPACITY_SCALE;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// Non-local groups ordered as `update_sd_pick_busiest` prefers them: worse
/// type, then higher average load, then earlier position; the greatest is
/// the busiest.
type Rank = (Option<GroupType>, u64, Reverse<usize>);

#[derive(Clone, Debug, Default)]
pub struct BusiestSearch {
    /// Every group's statistics over `env` (prefer_sibling applied).
    groups: Vec<GroupStats>,
    /// The positions of the groups holding the destination CPU, in order.
    locals: Vec<usize>,
    /// The candidate CPUs the statistics were taken over.
    env: CpuMask,
    total_load: u64,
    total_capacity: u64,
    /// Built at the first redo: the non-local groups' ranks, a max-heap whose
    /// entries go stale when a group's statistics change (skipped when on top).
    ranking: BinaryHeap<Rank>,
    /// The CPUs the last redo dropped.
    lost: Vec<CpuId>,
    /// The busiest group as the last verdict adjusted it (calculate_imbalance).
    last_busiest: Option<(usize, GroupStats)>,
}

fn rank(gi: usize, s: &GroupStats) -> Rank {
    (s.group_type, s.avg_load, Reverse(gi))
}

impl BusiestSearch {
    /// Makes this a new search (as `default()`) that fills `groups`
    /// (emptied) with the statistics, keeping the memory of its other
    /// buffers: a balancing pass reuses the last pass's search.
    pub fn reset(&mut self, mut groups: Vec<GroupStats>) {
        groups.clear();
        self.groups = groups;
        self.locals.clear();
        self.env.clone_from(&CpuMask::new());
        (self.total_load, self.total_capacity) = (0, 0);
        self.ranking.clear();
        self.lost.clear();
        self.last_busiest = None;
    }

    /// The groups' statistics of the last call, as the decision record
    /// keeps them, taken out (the search keeps its other buffers).
    pub fn take_groups(&mut self) -> Vec<GroupStats> {
        if let Some((b, s)) = self.last_busiest.take() {
            self.groups[b] = s;
        }
        std::mem::take(&mut self.groups)
    }

    /// find_busiest_group for `inp`. The first call reads every group; a later
    /// call must differ only by fewer candidate CPUs (a redo).
    pub fn run(&mut self, inp: &FbgInput) -> BusiestGroup {
        self.lost.clear();
        for (w, &old) in self.env.words().iter().enumerate() {
            let mut gone = old & !inp.env_cpus.words().get(w).copied().unwrap_or(0);
            while gone != 0 {
                self.lost.push(CpuId(w as u32 * 64 + gone.trailing_zeros()));
                gone &= gone - 1;
            }
        }
        let lost_local = self.locals.iter().any(|&l| self.lost.iter().any(|&c| inp.sd.groups[l].span.test(c)));
        let busiest = if self.groups.is_empty() || lost_local { self.read_all(inp) } else { self.redo(inp) };
        self.env.clone_from(inp.env_cpus);
        let domain_avg_load = SCHED_CAPACITY_SCALE * self.total_load / self.total_capacity.max(1);
        let mut out = BusiestGroup { busiest, domain_avg_load, imbalance: None, why: None };
        self.last_busiest = None;
        let Some(b) = busiest else {
            out.why = Some(Why::NoOtherGroup);
            return out;
        };
        let mut bs = self.groups[b].clone();
        let local = *self.locals.last().expect("the CPU's own group is local");
        (out.imbalance, out.why) = decide(&self.groups[local], &mut bs, domain_avg_load, inp);
        self.last_busiest = Some((b, bs));
        out
    }

    /// The groups' statistics of the last call, as the decision record keeps them.
    pub fn into_groups(mut self) -> Vec<GroupStats> {
        if let Some((b, s)) = self.last_busiest.take() {
            self.groups[b] = s;
        }
        self.groups
    }

    /// The statistics of the last local group before position `gi`.
    fn local_before(&self, gi: usize) -> Option<&GroupStats> {
        self.locals.iter().rev().find(|&&l| l < gi).map(|&l| &self.groups[l])
    }

    /// Every group, in order, picking the busiest as the kernel's loop does.
    fn read_all(&mut self, inp: &FbgInput) -> Option<usize> {
        self.groups.clear();
        self.locals.clear();
        self.ranking.clear();
        (self.total_load, self.total_capacity) = (0, 0);
        let mut busiest: Option<usize> = None;
        for gi in 0..inp.sd.groups.len() {
            let local = inp.sd.groups[gi].span.test(inp.dst_cpu);
            let s = group_stats(inp, gi, local, self.local_before(gi));
            if local {
                self.locals.push(gi);
            } else if busiest.is_none_or(|b| pick_busiest(&s, &self.groups[b])) {
                busiest = Some(gi);
            }
            self.total_load += s.group_load;
            self.total_capacity += s.group_capacity;
            self.groups.push(s);
        }
        busiest
    }

    /// A redo: only the non-local groups that lost candidate CPUs change.
    fn redo(&mut self, inp: &FbgInput) -> Option<usize> {
        if self.ranking.is_empty() {
            let ranks: Vec<Rank> =
                self.groups.iter().enumerate().filter(|(_, s)| !s.local).map(|(gi, s)| rank(gi, s)).collect();
            self.ranking = BinaryHeap::from(ranks);
        }
        let groups = &inp.sd.groups;
        // The dropped CPU came from the last busiest group; in a domain whose
        // groups do not overlap it is in no other.
        let last = self.last_busiest.as_ref().map(|(b, _)| *b);
        for i in 0..self.lost.len() {
            let cpu = self.lost[i];
            let only = last.filter(|&b| !inp.sd.flags.overlap && groups[b].span.test(cpu));
            let changed = |gi: usize, me: &mut Self| {
                let s = group_stats(inp, gi, false, me.local_before(gi));
                let old = std::mem::replace(&mut me.groups[gi], s);
                me.total_load = me.total_load - old.group_load + me.groups[gi].group_load;
                me.ranking.push(rank(gi, &me.groups[gi]));
            };
            match only {
                Some(b) => changed(b, self),
                None => {
                    // No local group lost a CPU (else every group is read again).
                    for (gi, g) in groups.iter().enumerate().skip(1) {
                        if g.span.test(cpu) && !self.groups[gi].local {
                            changed(gi, self);
                        }
                    }
                }
            }
        }
        // Drop entries older than their group's statistics.
        while let Some(&(t, avg, Reverse(gi))) = self.ranking.peek() {
            if (t, avg) == (self.groups[gi].group_type, self.groups[gi].avg_load) {
                return Some(gi);
            }
            self.ranking.pop();
        }
        None
    }
}

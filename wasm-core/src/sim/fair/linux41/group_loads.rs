//! The loads `find_idlest_group` sums, kept per group instead of summed
//! over every CPU at each fork.
//!
//! With `sd->forkexec_idx` 0 (every topology builds it so) the local group's
//! `source_load` and a remote group's `target_load` are both the CPUs'
//! instantaneous `weighted_cpuload`, so a group's load is the sum of its
//! CPUs' root runnable loads: on 256 CPUs a fork read all of them once per
//! domain level. Here each distinct group span has a running sum. A change
//! of a CPU's root load only marks the CPU (`touch`, one bit); the next fork
//! re-reads the marked CPUs and moves each one's sums by its change, so
//! the sums are the recount's exactly (integers, no rounding) at the moment
//! the walk reads them. A history index (forkexec_idx ≠ 0) reads `cpu_load[]`,
//! which moves at every tick: that case keeps the per-CPU scan.
//!
//! ```text
//!   root runnable_load_avg changes ──touch(cpu)──► dirty bits
//!   fork: sync (dirty CPUs' deltas into their spans' sums) ─► per level, each group's slot ─► sums
//! ```
//!
//! A level's groups are found by span: each CPU's copy of a level keeps its
//! groups' spans (`Arc`s, held so that an address is never reused while
//! kept) with their slots; a domain rebuild hands out new spans, which the
//! pointer test notices, and the level is looked up again by content. A
//! rebuild also drops the sums (`Simulator::rebuild_domains`), so only the
//! spans of the domains in force hold slots.

use crate::sim::runqueue::Rq;
use crate::time::CpuId;
use crate::topology::cpumask::CpuMask;
use crate::topology::domains::SchedDomain;
use std::collections::HashMap;
use std::sync::Arc;

/// One CPU's copy of one level: its groups' spans, in `groups` order, and
/// the slot of each.
#[derive(Clone, Debug, Default)]
struct LevelSlots {
    spans: Vec<Arc<CpuMask>>,
    slots: Vec<u32>,
}

#[derive(Clone, Debug, Default)]
pub(crate) struct GroupLoads {
    /// CPUs whose root load may have changed since the last sync, one bit
    /// each; empty until the first fork builds the sums (nothing to keep up
    /// to date before).
    dirty: Vec<u64>,
    /// Per CPU: the `weighted_cpuload` the sums hold for it.
    counted: Vec<u64>,
    /// Per slot (one distinct group span): the sum of `counted` over it.
    sums: Vec<u64>,
    /// Per CPU: the slots whose span holds it.
    cpu_slots: Vec<Vec<u32>>,
    /// Slot by span content.
    by_span: HashMap<CpuMask, u32>,
    /// By CPU, then level.
    levels: Vec<Vec<LevelSlots>>,
}

impl GroupLoads {
    /// `cpu`'s root runqueue load may have changed.
    #[inline]
    pub(crate) fn touch(&mut self, cpu: CpuId) {
        if let Some(w) = self.dirty.get_mut(cpu.idx() / 64) {
            *w |= 1 << (cpu.0 % 64);
        }
    }

    /// Brings the sums up to date with the runqueues: the first time, every
    /// CPU is read; after that the marked ones.
    pub(crate) fn sync(&mut self, rqs: &[Rq]) {
        if self.dirty.is_empty() {
            self.dirty = vec![0; rqs.len().div_ceil(64)];
            self.counted = rqs.iter().map(Rq::weighted_cpuload).collect();
            self.cpu_slots = vec![Vec::new(); rqs.len()];
            self.levels = vec![Vec::new(); rqs.len()];
            return;
        }
        for wi in 0..self.dirty.len() {
            let mut bits = std::mem::take(&mut self.dirty[wi]);
            while bits != 0 {
                let c = wi * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let now = rqs[c].weighted_cpuload();
                let delta = now.wrapping_sub(self.counted[c]);
                if delta == 0 {
                    continue;
                }
                self.counted[c] = now;
                for &s in &self.cpu_slots[c] {
                    let sum = &mut self.sums[s as usize];
                    *sum = sum.wrapping_add(delta);
                }
            }
        }
    }

    /// Makes sure `cpu`'s copy of level `level` (`sd`) has its groups'
    /// slots. Call after `sync`: a new slot's sum is counted from the loads
    /// the sums hold.
    pub(crate) fn prepare(&mut self, cpu: CpuId, level: usize, sd: &SchedDomain) {
        let levels = &mut self.levels[cpu.idx()];
        if levels.len() <= level {
            levels.resize(level + 1, LevelSlots::default());
        }
        let kept = &levels[level];
        let same = kept.spans.len() == sd.groups.len()
            && kept.spans.iter().zip(&sd.groups).all(|(k, g)| Arc::ptr_eq(k, &g.span));
        if !same {
            let spans: Vec<Arc<CpuMask>> = sd.groups.iter().map(|g| g.span.clone()).collect();
            let slots = spans.iter().map(|s| self.slot_of(s)).collect();
            self.levels[cpu.idx()][level] = LevelSlots { spans, slots };
        }
    }

    /// The slot counting `span`, made (and counted) at first sight.
    fn slot_of(&mut self, span: &CpuMask) -> u32 {
        if let Some(&s) = self.by_span.get(span) {
            return s;
        }
        let s = self.sums.len() as u32;
        let mut sum = 0u64;
        for c in span.iter() {
            sum = sum.wrapping_add(self.counted[c.idx()]);
            self.cpu_slots[c.idx()].push(s);
        }
        self.sums.push(sum);
        self.by_span.insert(span.clone(), s);
        s
    }

    /// The kept loads of the groups of `cpu`'s copy of level `level`, once `prepare`d.
    pub(crate) fn level_loads(&self, cpu: CpuId, level: usize) -> LevelLoads<'_> {
        LevelLoads { slots: &self.levels[cpu.idx()][level].slots, sums: &self.sums }
    }
}

#[cfg(test)]
impl GroupLoads {
    /// How many distinct group spans have a running sum.
    pub(crate) fn slot_count(&self) -> usize {
        self.sums.len()
    }
}

/// One level's group loads, by position in `groups`.
pub(crate) struct LevelLoads<'a> {
    slots: &'a [u32],
    sums: &'a [u64],
}

impl LevelLoads<'_> {
    pub(crate) fn group(&self, gi: usize) -> u64 {
        self.sums[self.slots[gi] as usize]
    }
}

#[cfg(test)]
mod tests {
    use crate::config::TimedEventKind;
    use crate::sim::fair::cx::fair_cx;
    use crate::sim::test_config::{config, hog};
    use crate::sim::Simulator;
    use crate::time::CpuId;

    /// Forks on each side of every hotplug event, CPUs 1 to 3 taken out and
    /// back in turn: the sums hold only the spans of the domains in force.
    #[test]
    fn hotplug_cycles_do_not_pile_up_slots() {
        let mut sim = Simulator::new(&config(2, 2, 1, 250, false, vec![hog("P", 1_000_000, None)]));
        let pid = sim.processes()[0].threads[0];
        let fork_walk = |sim: &mut Simulator| {
            for level in 0..sim.core.rqs[0].domains.len() {
                fair_cx(sim).idlest_group_kept(pid, CpuId(0), level);
            }
        };
        fork_walk(&mut sim);
        let fresh = sim.fair.lb.group_loads.slot_count();
        assert!(fresh > 0, "the fork walk counted its groups");
        for round in 0..20 {
            let cpu = 1 + round % 3;
            sim.timed_event(TimedEventKind::CpuOffline(cpu));
            fork_walk(&mut sim);
            sim.timed_event(TimedEventKind::CpuOnline(cpu));
            fork_walk(&mut sim);
            assert_eq!(sim.fair.lb.group_loads.slot_count(), fresh, "slots after round {round}");
        }
    }
}

//! Scheduling domains and groups, built per CPU as Linux 4.1 does
//! (`build_sched_domains`, `build_sched_groups`, `build_overlap_sched_groups`,
//! `sd_init`), then degenerate levels removed (`sd_degenerate`).
//!
//! ```text
//!   CPU c:  SMT  (its core's threads; groups = single CPUs)
//!            MC   (its node = LLC;     groups = cores)
//!            NUMA d1 (nodes within distance d1; groups = child spans, overlapping)
//!            NUMA d2 ...                         (one level per distinct SLIT distance)
//! ```
//!
//! Two switches reproduce bugs of the Wasted Cores paper at their source:
//! `groups_from_each_cpu` (false = 4.1: overlapping NUMA groups are built by
//! walking the span from its lowest CPU, so every CPU sees the same groups;
//! true = the fix: a CPU's own child span comes first), and `with_numa`
//! (false = the topology table without NUMA levels, which is what a hotplug
//! rebuild produced in 4.1 before the Missing Scheduling Domains fix).

use super::cpumask::CpuMask;
use crate::machine::Machine;
use crate::time::{CpuId, SimTime};
use std::collections::HashMap;
use std::sync::Arc;

/// SMT sibling capacity in 4.1: smt_gain 1178 shared by the threads of a core.
pub const SMT_GAIN: u64 = 1178;
pub const SCHED_CAPACITY_SCALE: u64 = 1024;
/// Distances above this lose BALANCE_FORK/EXEC and WAKE_AFFINE.
pub const RECLAIM_DISTANCE: u32 = 30;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LevelKind {
    Smt,
    Mc,
    Numa(u32),
}

impl LevelKind {
    pub fn name(self) -> String {
        match self {
            LevelKind::Smt => "SMT".into(),
            LevelKind::Mc => "MC".into(),
            LevelKind::Numa(d) => format!("NUMA({d})"),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DomainFlags {
    pub load_balance: bool,
    pub balance_newidle: bool,
    pub balance_exec: bool,
    pub balance_fork: bool,
    pub balance_wake: bool,
    pub wake_affine: bool,
    pub share_cpucapacity: bool,
    pub share_pkg_resources: bool,
    pub prefer_sibling: bool,
    pub serialize: bool,
    pub overlap: bool,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SchedGroup {
    /// Identifies the group across CPUs (same level and span = same group),
    /// for state the kernel shares through `sched_group_capacity`.
    pub id: usize,
    /// Shared by every CPU's copy of the group (and by the balancing
    /// decisions that record it): cloning it copies no bits.
    pub span: Arc<CpuMask>,
    /// The CPUs that may balance on behalf of this group (`sched_group_mask`).
    pub balance_mask: Arc<CpuMask>,
    pub capacity: u64,
    /// The span's CPU count.
    pub weight: u32,
}

impl SchedGroup {
    /// `group_balance_cpu`.
    pub fn balance_cpu(&self) -> Option<CpuId> {
        self.balance_mask.first().or_else(|| self.span.first())
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SchedDomain {
    pub kind: LevelKind,
    pub span: CpuMask,
    /// groups[0] is the local group (`sd->groups`); the rest follow in the
    /// kernel's circular-list order.
    pub groups: Vec<SchedGroup>,
    pub flags: DomainFlags,
    pub imbalance_pct: u32,
    pub cache_nice_tries: u32,
    pub busy_idx: usize,
    pub idle_idx: usize,
    pub newidle_idx: usize,
    pub wake_idx: usize,
    pub forkexec_idx: usize,
    pub min_interval_ms: u64,
    pub max_interval_ms: u64,
    pub busy_factor: u64,
    // Balancing state of this CPU's copy of the domain.
    pub balance_interval_ms: u64,
    pub last_balance: SimTime,
    pub nr_balance_failed: u32,
    /// `sd->max_newidle_lb_cost`: the dearest newly-idle pass of this domain
    /// (modelled cost, `balance::newidle_pass_cost_ns`), decayed about 1 % a
    /// second by `rebalance_domains`.
    pub max_newidle_lb_cost_ns: u64,
    /// `sd->next_decay_max_lb_cost`: the jiffy after which it decays again.
    pub next_decay_max_lb_cost: u64,
    /// For a level whose groups do not overlap, follow each other in CPU
    /// order and are many: each CPU's group (its index in `groups`, which
    /// starts at this CPU's own group), for scans that start from a CPU
    /// instead of walking every group. Shared by the CPUs of the span.
    pub group_index: Option<GroupIndex>,
    /// This CPU's schedstat counters of the domain (4.1's `sd->lb_count[]` …).
    pub schedstat: super::schedstat::SdSchedstat,
}

/// Where a CPU's group sits in a domain's `groups` (see `SchedDomain::group_index`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GroupIndex {
    /// By CPU: the group's position before the local group was put first
    /// (u32::MAX outside the span).
    pos: Arc<Vec<u32>>,
    /// The local group's position in that order, and how many groups.
    rot: u32,
    groups: u32,
}

impl GroupIndex {
    /// The position in `groups` of the group holding `cpu`, if in the span.
    pub fn group_of(&self, cpu: CpuId) -> Option<usize> {
        let p = *self.pos.get(cpu as usize)?;
        (p != u32::MAX).then(|| ((p + self.groups - self.rot) % self.groups) as usize)
    }
}

/// Levels with more groups than this get a `GroupIndex`.
const GROUP_INDEX_MIN: usize = 4;

/// The CPU-to-group table of a non-overlapping level, if its groups follow
/// each other in CPU order (positions never decrease along the span).
fn group_positions(groups: &[SchedGroup], nr_cpus: u32) -> Option<Arc<Vec<u32>>> {
    let mut pos = vec![u32::MAX; nr_cpus as usize];
    for (gi, g) in groups.iter().enumerate() {
        for c in g.span.iter() {
            pos[c as usize] = gi as u32;
        }
    }
    let along: Vec<u32> = pos.iter().copied().filter(|&p| p != u32::MAX).collect();
    along.windows(2).all(|w| w[0] <= w[1]).then(|| Arc::new(pos))
}

impl SchedDomain {
    pub fn name(&self) -> String {
        self.kind.name()
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DomainOptions {
    pub groups_from_each_cpu: bool,
    pub with_numa: bool,
}

/// The capacity of one CPU (1024, or 589 for each of two SMT siblings).
pub fn cpu_capacity(machine: &Machine) -> u64 {
    if machine.threads_per_core > 1 {
        SMT_GAIN / machine.threads_per_core as u64
    } else {
        SCHED_CAPACITY_SCALE
    }
}

/// The topology levels (before degenerate removal) and each CPU's span at them.
fn level_spans(machine: &Machine, online: &CpuMask, opts: &DomainOptions) -> Vec<(LevelKind, Vec<CpuMask>)> {
    let n = machine.nr_cpus();
    let mut levels = Vec::new();
    levels.push((LevelKind::Smt, (0..n).map(|c| CpuMask::from_range(machine.smt_siblings(c)).and(online)).collect()));
    levels.push((
        LevelKind::Mc,
        (0..n).map(|c| CpuMask::from_range(machine.node_cpus(machine.node_of(c))).and(online)).collect(),
    ));
    if opts.with_numa {
        let mut dists: Vec<u32> = machine.distance.iter().flatten().copied().filter(|&d| d > 10).collect();
        dists.sort_unstable();
        dists.dedup();
        for d in dists {
            let spans = (0..n)
                .map(|c| {
                    let home = machine.node_of(c) as usize;
                    let mut m = CpuMask::new();
                    for node in 0..machine.nodes {
                        if machine.distance[home][node as usize] <= d {
                            m = m.or(&CpuMask::from_range(machine.node_cpus(node)));
                        }
                    }
                    m.and(online)
                })
                .collect();
            levels.push((LevelKind::Numa(d), spans));
        }
    }
    levels
}

/// Builds every online CPU's domain hierarchy, lowest level first. Offline
/// CPUs get none.
pub fn build_domains(machine: &Machine, online: &CpuMask, opts: &DomainOptions) -> Vec<Vec<SchedDomain>> {
    let levels = level_spans(machine, online, opts);
    let cap = cpu_capacity(machine);
    // Each group once, by (level, span): its id (in order of first sight),
    // span and balance mask, shared by every CPU that has it.
    type Interned = (usize, Arc<CpuMask>, Arc<CpuMask>);
    let mut registry: HashMap<(usize, CpuMask), Interned> = HashMap::new();
    let mut tables: HashMap<(usize, CpuMask), Option<Arc<Vec<u32>>>> = HashMap::new();
    let mut out = Vec::new();
    for cpu in 0..machine.nr_cpus() {
        if !online.test(cpu) {
            out.push(Vec::new());
            continue;
        }
        let mut doms: Vec<SchedDomain> = Vec::new();
        for (li, (kind, spans)) in levels.iter().enumerate() {
            let span = &spans[cpu as usize];
            let overlap = matches!(kind, LevelKind::Numa(_));
            // The span of CPU i one level down: what a group is made of.
            let child_span = |i: CpuId| -> std::borrow::Cow<CpuMask> {
                if li == 0 {
                    std::borrow::Cow::Owned(CpuMask::from_cpus([i]))
                } else {
                    std::borrow::Cow::Borrowed(&levels[li - 1].1[i as usize])
                }
            };
            let mut groups = Vec::new();
            let mut covered = CpuMask::new();
            let mut order: Vec<CpuId> = span.iter().collect();
            if overlap && opts.groups_from_each_cpu {
                // The fix: build the CPU's own group first.
                order.retain(|&i| i != cpu);
                order.insert(0, cpu);
            }
            let mut local = None;
            for i in order {
                if covered.test(i) {
                    continue;
                }
                let gspan = child_span(i);
                covered.or_with(&gspan);
                let next_id = registry.len();
                let (id, span, balance_mask) = registry
                    .entry((li, gspan.clone().into_owned()))
                    .or_insert_with(|| {
                        let span = Arc::new(gspan.clone().into_owned());
                        let balance_mask = if overlap {
                            // build_group_mask: CPUs whose own child span is this group.
                            Arc::new(CpuMask::from_cpus(gspan.iter().filter(|&j| *child_span(j) == *gspan)))
                        } else {
                            span.clone()
                        };
                        (next_id, span, balance_mask)
                    })
                    .clone();
                let weight = span.weight();
                let g = SchedGroup { id, capacity: cap * weight as u64, weight, span, balance_mask };
                let is_local = if overlap {
                    (local.is_none() && g.span.test(cpu)) || g.balance_cpu() == Some(cpu)
                } else {
                    g.span.test(cpu)
                };
                if is_local {
                    local = Some(groups.len());
                }
                groups.push(g);
            }
            let mut index = None;
            if !overlap && groups.len() > GROUP_INDEX_MIN {
                let table =
                    tables.entry((li, span.clone())).or_insert_with(|| group_positions(&groups, machine.nr_cpus()));
                let (rot, n) = (local.unwrap_or(0) as u32, groups.len() as u32);
                index = table.clone().map(|pos| GroupIndex { pos, rot, groups: n });
            }
            if let Some(l) = local {
                groups.rotate_left(l);
            }
            let mut sd = sd_init(*kind, span.clone(), groups, machine);
            sd.group_index = index;
            doms.push(sd);
        }
        out.push(remove_degenerate(doms));
    }
    out
}

/// `sd_degenerate` / `sd_parent_degenerate`: a level spanning one CPU, or
/// spanning exactly what its child spans, adds nothing and is dropped.
fn remove_degenerate(doms: Vec<SchedDomain>) -> Vec<SchedDomain> {
    let mut kept: Vec<SchedDomain> = Vec::new();
    for d in doms {
        if d.span.weight() <= 1 || d.groups.len() <= 1 {
            continue;
        }
        if kept.last().is_some_and(|prev| prev.span == d.span) {
            continue;
        }
        kept.push(d);
    }
    kept
}

/// `sd_init`: per-level flags and parameters (kernel-model.md 3.2).
fn sd_init(kind: LevelKind, span: CpuMask, groups: Vec<SchedGroup>, machine: &Machine) -> SchedDomain {
    let weight = span.weight() as u64;
    let mut flags = DomainFlags {
        load_balance: true,
        balance_newidle: true,
        balance_exec: true,
        balance_fork: true,
        balance_wake: false,
        wake_affine: true,
        share_cpucapacity: false,
        share_pkg_resources: false,
        prefer_sibling: false,
        serialize: false,
        overlap: false,
    };
    let (mut imbalance_pct, mut cache_nice_tries, mut busy_idx, mut idle_idx) = (125, 0, 0, 0);
    match kind {
        LevelKind::Smt => {
            flags.share_cpucapacity = true;
            flags.prefer_sibling = true;
            imbalance_pct = 110;
        }
        LevelKind::Mc => {
            flags.share_pkg_resources = true;
            imbalance_pct = 117;
            cache_nice_tries = 1;
            busy_idx = 2;
        }
        LevelKind::Numa(d) => {
            flags.serialize = true;
            flags.overlap = true;
            cache_nice_tries = 2;
            busy_idx = 3;
            idle_idx = 2;
            if d > RECLAIM_DISTANCE {
                flags.balance_exec = false;
                flags.balance_fork = false;
                flags.wake_affine = false;
            }
        }
    }
    let _ = machine;
    SchedDomain {
        kind,
        span,
        groups,
        flags,
        imbalance_pct,
        cache_nice_tries,
        busy_idx,
        idle_idx,
        newidle_idx: 0,
        wake_idx: 0,
        forkexec_idx: 0,
        min_interval_ms: weight,
        max_interval_ms: 2 * weight,
        busy_factor: 32,
        balance_interval_ms: weight,
        last_balance: SimTime::ZERO,
        nr_balance_failed: 0,
        max_newidle_lb_cost_ns: 0,
        next_decay_max_lb_cost: 0,
        group_index: None,
        schedstat: Default::default(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doms(preset: &str, opts: DomainOptions) -> Vec<Vec<SchedDomain>> {
        let m = Machine::preset(preset).unwrap();
        let online = CpuMask::from_range(0..m.nr_cpus());
        build_domains(&m, &online, &opts)
    }

    const BUGGY: DomainOptions = DomainOptions { groups_from_each_cpu: false, with_numa: true };
    const FIXED: DomainOptions = DomainOptions { groups_from_each_cpu: true, with_numa: true };

    fn node_list(g: &SchedGroup) -> Vec<u32> {
        let mut nodes: Vec<u32> = g.span.iter().map(|c| c / 8).collect();
        nodes.dedup();
        nodes
    }

    #[test]
    fn opteron_has_the_papers_four_levels() {
        let d = doms("opteron-6272-8n", BUGGY);
        let names: Vec<String> = d[0].iter().map(|s| s.name()).collect();
        assert_eq!(names, ["SMT", "MC", "NUMA(16)", "NUMA(22)"]);
        let sizes: Vec<u32> = d[0].iter().map(|s| s.span.weight()).collect();
        assert_eq!(sizes, [2, 8, 40, 64]);
        assert_eq!(d[0][0].groups[0].capacity, 589);
    }

    #[test]
    fn buggy_top_level_groups_are_the_same_for_every_cpu() {
        // Paper: from any CPU the top-level groups are {0,1,2,4,6} and {1,2,3,4,5,7}.
        let d = doms("opteron-6272-8n", BUGGY);
        for cpu in [0u32, 8, 16, 40] {
            let mut groups: Vec<Vec<u32>> = d[cpu as usize][3].groups.iter().map(node_list).collect();
            groups.sort();
            assert_eq!(groups, vec![vec![0, 1, 2, 4, 6], vec![1, 2, 3, 4, 5, 7]], "cpu {cpu}");
        }
    }

    #[test]
    fn fixed_top_level_starts_from_the_cpus_own_view() {
        let d = doms("opteron-6272-8n", FIXED);
        // CPU 16 is on node 2, whose one-hop set is {0, 2, 3, 4, 6}.
        let local = node_list(&d[16][3].groups[0]);
        assert_eq!(local, vec![0, 2, 3, 4, 6]);
    }

    #[test]
    fn without_numa_levels_only_the_node_remains() {
        let d = doms("opteron-6272-8n", DomainOptions { groups_from_each_cpu: false, with_numa: false });
        let names: Vec<String> = d[0].iter().map(|s| s.name()).collect();
        assert_eq!(names, ["SMT", "MC"]);
    }

    #[test]
    fn small_machines() {
        assert!(doms("uniprocessor", BUGGY)[0].is_empty());
        let lap: Vec<String> = doms("laptop-2c4t", BUGGY)[0].iter().map(|s| s.name()).collect();
        assert_eq!(lap, ["SMT", "MC"]);
        let xeon: Vec<String> = doms("xeon-gold-5218-2s", BUGGY)[0].iter().map(|s| s.name()).collect();
        assert_eq!(xeon, ["SMT", "MC", "NUMA(21)"]);
    }
}

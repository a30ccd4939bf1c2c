//! Scheduling domains and groups, built per CPU as Linux 4.1 does
//! (`build_sched_domains`, `build_sched_groups`, `build_overlap_sched_groups`
//! in `overlap.rs`, the generation's `sd_init` through `DomainRules`), then degenerate levels removed
//! as `cpu_attach_domain` does (`degenerate.rs`).
//!
//! ```text
//!   CPU c:  SMT  (its core's threads; groups = single CPUs)
//!            MC   (its node = LLC;     groups = cores)
//!            DIE  (its node again in 4.1: always degenerate here, passing
//!                  SD_PREFER_SIBLING down to MC; absent from x86's table
//!                  when a package spans several nodes)
//!            NUMA d1 (nodes within distance d1; groups = child spans, overlapping)
//!            NUMA d2 ...            (one level per distinct distance of node 0's SLIT row)
//! ```
//! A CPU stops climbing at the first level whose span is every online CPU.
//!
//! The levels come from the topology table in use (`table.rs`): a hotplug
//! rebuild on a machine whose packages span nodes loses the NUMA levels (the
//! Missing Scheduling Domains bug, from x86's `set_cpu_sibling_map`).
//! `groups_from_each_cpu` is the Scheduling Group Construction fix: false =
//! 4.1, overlapping NUMA groups are built by walking the span from its lowest
//! CPU, so every CPU sees the same groups; true = a CPU's own child span
//! comes first.

use super::cpumask::CpuMask;
use super::degenerate::remove_degenerate;
use super::overlap::{build_overlap_groups, DomainTree, GroupKey, GroupRegistry, OverlapLevel};
use super::table::{self, TopologyTable};
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
    /// default_topology's `cpu_cpu_mask` level: the CPU's node in 4.1.
    Die,
    Numa(u32),
}

impl std::fmt::Display for LevelKind {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        match self {
            LevelKind::Smt => f.write_str("SMT"),
            LevelKind::Mc => f.write_str("MC"),
            LevelKind::Die => f.write_str("DIE"),
            LevelKind::Numa(d) => write!(f, "NUMA({d})"),
        }
    }
}

impl LevelKind {
    pub fn name(self) -> String {
        self.to_string()
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
    /// SD_NUMA (a level `sched_init_numa` added).
    pub numa: bool,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SchedGroup {
    /// Its `sched_group_capacity` across CPUs, for the state the kernel
    /// shares through it: one per span at a non-overlapping level, one per
    /// building CPU at a NUMA level (`overlap::GroupKey`), so with the Group
    /// Construction fix two CPUs' copies of one span may differ.
    pub id: usize,
    /// Shared by every CPU's copy of the group (and by the balancing
    /// decisions that record it): cloning it copies no bits.
    pub span: Arc<CpuMask>,
    /// `sched_group_mask`: with `span`, which CPUs may balance on behalf of
    /// this group (for a NUMA group, 4.1's `build_group_mask`: the builder's
    /// domain, which may hold CPUs outside the group).
    pub balance_mask: Arc<CpuMask>,
    pub capacity: u64,
    /// The span's CPU count.
    pub weight: u32,
}

impl SchedGroup {
    /// `group_balance_cpu`: the group's first CPU in its mask.
    pub fn balance_cpu(&self) -> Option<CpuId> {
        super::overlap::group_balance_cpu(self)
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
        let p = *self.pos.get(cpu.idx())?;
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
            pos[c.idx()] = gi as u32;
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
    /// The Scheduling Group Construction fix.
    pub groups_from_each_cpu: bool,
    /// The topology table in use (`sched_domain_topology`).
    pub table: TopologyTable,
    /// The kernel generation's flags and parameters per level.
    pub rules: DomainRules,
}

/// What a generation's `sd_init` sets on a level beyond its flags.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LevelParams {
    pub imbalance_pct: u32,
    pub cache_nice_tries: u32,
    /// The `cpu_load[]` indices periodic balancing reads (0 where a generation has none).
    pub busy_idx: usize,
    pub idle_idx: usize,
    pub busy_factor: u64,
}

impl SchedDomain {
    /// A new domain of `kind` over `span` with its `groups`: the generation's
    /// flags and parameters, intervals of one to two jiffies per CPU of the
    /// span, and its balancing state at rest (`sd_init`'s common part).
    pub(super) fn init(
        kind: LevelKind,
        span: CpuMask,
        groups: Vec<SchedGroup>,
        flags: DomainFlags,
        p: LevelParams,
    ) -> Self {
        let weight = span.weight() as u64;
        SchedDomain {
            kind,
            span,
            groups,
            flags,
            imbalance_pct: p.imbalance_pct,
            cache_nice_tries: p.cache_nice_tries,
            busy_idx: p.busy_idx,
            idle_idx: p.idle_idx,
            newidle_idx: 0,
            wake_idx: 0,
            forkexec_idx: 0,
            min_interval_ms: weight,
            max_interval_ms: 2 * weight,
            busy_factor: p.busy_factor,
            balance_interval_ms: weight,
            last_balance: SimTime::ZERO,
            nr_balance_failed: 0,
            max_newidle_lb_cost_ns: 0,
            next_decay_max_lb_cost: 0,
            group_index: None,
            schedstat: Default::default(),
        }
    }
}

/// A kernel generation's `sd_init`: what it sets on a domain of each level.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum DomainRules {
    /// Linux 4.1.15's (`linux41.rs`).
    #[default]
    Linux41,
    /// Linux 6.12's (`linux612.rs`, with its NUMA groups from `overlap612.rs`).
    Linux612,
}

impl DomainRules {
    /// The domain of level `kind` over `span` with its `groups`.
    fn sd_init(self, kind: LevelKind, span: CpuMask, groups: Vec<SchedGroup>) -> SchedDomain {
        match self {
            DomainRules::Linux41 => super::linux41::sd_init(kind, span, groups),
            DomainRules::Linux612 => super::linux612::sd_init(kind, span, groups),
        }
    }

    /// The flags `sd_degenerate` counts only in a domain of two groups or more.
    pub(super) fn needs_groups(self, f: &DomainFlags) -> bool {
        match self {
            DomainRules::Linux41 => super::linux41::needs_groups(f),
            DomainRules::Linux612 => super::linux612::needs_groups(f),
        }
    }

    /// `sd_parent_degenerate`: the flags of a one-group parent set aside.
    pub(super) fn set_aside_group_flags(self, f: &mut DomainFlags, nr_nodes: u32) {
        match self {
            DomainRules::Linux41 => super::linux41::clear_group_flags(f, nr_nodes),
            DomainRules::Linux612 => super::linux612::clear_group_flags(f),
        }
    }
}

/// The capacity of one CPU (1024, or 589 for each of two SMT siblings).
pub fn cpu_capacity(machine: &Machine) -> u64 {
    if machine.threads_per_core > 1 {
        SMT_GAIN / machine.threads_per_core as u64
    } else {
        SCHED_CAPACITY_SCALE
    }
}

/// Builds every online CPU's domain hierarchy, lowest level first
/// (`build_sched_domains`, then `cpu_attach_domain`'s pruning). Offline CPUs
/// get none.
pub fn build_domains(machine: &Machine, online: &CpuMask, opts: &DomainOptions) -> Vec<Vec<SchedDomain>> {
    let levels = table::level_spans(machine, online, &opts.table, opts.rules == DomainRules::Linux612);
    let cap = cpu_capacity(machine);
    // A CPU climbs the table until its domain spans every CPU of the map.
    let depth: Vec<usize> = CpuId::all(machine.nr_cpus())
        .map(|c| match online.test(c) {
            false => 0,
            true => levels.iter().position(|(_, s)| same(&s[c.idx()], online)).map_or(levels.len(), |p| p + 1),
        })
        .collect();
    // Each group's capacity once, shared by every CPU whose domain holds it.
    let mut registry = GroupRegistry::default();
    let mut tables: HashMap<(usize, CpuMask), Option<Arc<Vec<u32>>>> = HashMap::new();
    let mut out = Vec::new();
    for cpu in CpuId::all(machine.nr_cpus()) {
        let mut doms: Vec<SchedDomain> = Vec::new();
        for (li, (kind, spans)) in levels.iter().enumerate().take(depth[cpu.idx()]) {
            let span = &spans[cpu.idx()];
            let child = (li > 0).then(|| levels[li - 1].1.as_slice());
            let (mut groups, local, index) = if matches!(kind, LevelKind::Numa(_)) {
                let built = |i: CpuId| depth[i.idx()] > li;
                let tree = DomainTree { spans: &levels[..=li], depth: &depth };
                let lvl = OverlapLevel { level: li, child, built: &built, cpu_capacity: cap, tree: Some(tree) };
                let (groups, local) = match opts.rules {
                    DomainRules::Linux41 => {
                        build_overlap_groups(cpu, span, &lvl, opts.groups_from_each_cpu, &mut registry)
                    }
                    DomainRules::Linux612 => {
                        (super::overlap612::build_overlap_groups(cpu, span, &lvl, &mut registry), 0)
                    }
                };
                (groups, local, None)
            } else {
                let (groups, local) = build_sched_groups(cpu, span, li, child, cap, &mut registry);
                let mut index = None;
                if groups.len() > GROUP_INDEX_MIN {
                    let table =
                        tables.entry((li, span.clone())).or_insert_with(|| group_positions(&groups, machine.nr_cpus()));
                    let (rot, n) = (local as u32, groups.len() as u32);
                    index = table.clone().map(|pos| GroupIndex { pos, rot, groups: n });
                }
                (groups, local, index)
            };
            groups.rotate_left(local);
            let mut sd = opts.rules.sd_init(*kind, span.clone(), groups);
            sd.group_index = index;
            doms.push(sd);
        }
        out.push(remove_degenerate(opts.rules, doms, machine.nodes));
    }
    out
}

fn same(a: &CpuMask, b: &CpuMask) -> bool {
    a.is_subset_of(b) && b.is_subset_of(a)
}

/// `build_sched_groups`: the child spans covering `span`, in CPU order (the
/// list the span's first CPU builds), and the position of `cpu`'s own.
fn build_sched_groups(
    cpu: CpuId,
    span: &CpuMask,
    li: usize,
    child: Option<&[CpuMask]>,
    cap: u64,
    reg: &mut GroupRegistry,
) -> (Vec<SchedGroup>, usize) {
    let mut groups = Vec::new();
    let mut covered = CpuMask::new();
    let mut local = 0;
    for i in span.iter() {
        if covered.test(i) {
            continue;
        }
        let gspan = match child {
            Some(c) => c[i.idx()].clone(),
            None => CpuMask::from_cpus([i]),
        };
        covered.or_with(&gspan);
        let g = reg.get(li, GroupKey::Span(gspan.clone()), &gspan, |s| s.clone(), cap);
        if g.span.test(cpu) {
            local = groups.len();
        }
        groups.push(g);
    }
    (groups, local)
}

#[cfg(test)]
#[path = "domains_test.rs"]
mod tests;

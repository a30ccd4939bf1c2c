//! The groups of a NUMA level as 4.1.15 builds them
//! (`build_overlap_sched_groups`, `build_group_mask`, `group_balance_cpu`).
//!
//! A CPU's domain at a NUMA level is covered by groups, each the child-level
//! span of some CPU `i` of the domain, taken in CPU order from the lowest
//! (4.1) or from the CPU itself first (the Scheduling Group Construction fix).
//! Groups overlap, and a group may reach outside the domain.
//!
//! A group's `sched_group_capacity` is the one of CPU `i` at that level, shared
//! by every copy of the group built from `i`; its mask is set once, by the
//! first CPU (in build order: CPUs ascending) to build such a group. In 4.1
//! that mask is every CPU of *that builder's domain* whose own domain at this
//! level was built (a CPU stops climbing once its domain spans the whole map),
//! not the CPUs whose child span is the group (a later kernel's fix, 4.13).
//! `group_balance_cpu` is the first CPU of the group in the mask; the CPU it
//! names also makes the group its local group, even when an earlier group
//! already held the CPU.

use super::cpumask::CpuMask;
use super::domains::SchedGroup;
use crate::time::CpuId;
use std::collections::HashMap;
use std::sync::Arc;

/// The groups' `sched_group_capacity` of one build, by (level, key), in the
/// order they were first built: a group's id, span and balance mask.
#[derive(Default)]
pub struct GroupRegistry {
    by_key: HashMap<(usize, GroupKey), Interned>,
}

/// A capacity's id, its group's span and its mask.
type Interned = (usize, Arc<CpuMask>, Arc<CpuMask>);

/// What names a group's capacity: for overlapping groups the CPU whose child
/// span made it (`sdd->sgc` of that CPU), for the others their span (the sgc
/// of its first CPU: one per span).
#[derive(Clone, PartialEq, Eq, Hash)]
pub enum GroupKey {
    Cpu(CpuId),
    Span(CpuMask),
}

impl GroupRegistry {
    /// The group for `key` at `level`, made from `span` and, the first time,
    /// the mask `mask()` gives.
    pub fn get(
        &mut self,
        level: usize,
        key: GroupKey,
        span: &CpuMask,
        mask: impl FnOnce(&Arc<CpuMask>) -> Arc<CpuMask>,
        cpu_capacity: u64,
    ) -> SchedGroup {
        let next = self.by_key.len();
        let (id, span, balance_mask) = self
            .by_key
            .entry((level, key))
            .or_insert_with(|| {
                let span = Arc::new(span.clone());
                let m = mask(&span);
                (next, span, m)
            })
            .clone();
        let weight = span.weight();
        SchedGroup { id, capacity: cpu_capacity * weight as u64, weight, span, balance_mask }
    }
}

/// What `build_overlap_sched_groups` reads of the level being built.
pub struct OverlapLevel<'a> {
    pub level: usize,
    /// Every CPU's span at the level below (None at the lowest level: a
    /// group is then one CPU).
    pub child: Option<&'a [CpuMask]>,
    /// Whether CPU i's domain at this level was built (its span holds i).
    pub built: &'a dyn Fn(CpuId) -> bool,
    pub cpu_capacity: u64,
    /// Every level's spans up to this one and each CPU's depth, for 6.12's
    /// `find_descended_sibling` (None: the group is always the sibling's child).
    pub tree: Option<DomainTree<'a>>,
}

/// The whole table of spans below a level, as `build_sched_domains` has
/// made them before any pruning: `spans[l][cpu]` is `cpu`'s span at level
/// `l`, which exists where `l < depth[cpu]`.
#[derive(Clone, Copy)]
pub struct DomainTree<'a> {
    pub spans: &'a [(super::domains::LevelKind, Vec<CpuMask>)],
    pub depth: &'a [usize],
}

/// `build_overlap_sched_groups` for `cpu`'s domain `span`: the groups in the
/// kernel's list order, and the position of `sd->groups` (the local group).
/// `own_first` is the Group Construction fix (the CPU's own group first).
pub fn build_overlap_groups(
    cpu: CpuId,
    span: &CpuMask,
    lvl: &OverlapLevel,
    own_first: bool,
    reg: &mut GroupRegistry,
) -> (Vec<SchedGroup>, usize) {
    let mut groups = Vec::new();
    let mut covered = CpuMask::new();
    let mut local: Option<usize> = None;
    let order = own_first.then_some(cpu).into_iter().chain(span.iter());
    for i in order {
        if covered.test(i) || !(lvl.built)(i) {
            continue;
        }
        let gspan = match lvl.child {
            Some(child) => child[i.idx()].clone(),
            None => CpuMask::from_cpus([i]),
        };
        covered.or_with(&gspan);
        // build_group_mask, run by the first builder of this capacity: the
        // CPUs of the builder's own domain whose domain at this level exists.
        let mask = |_: &Arc<CpuMask>| Arc::new(CpuMask::from_cpus(span.iter().filter(|&j| (lvl.built)(j))));
        let g = reg.get(lvl.level, GroupKey::Cpu(i), &gspan, mask, lvl.cpu_capacity);
        if (local.is_none() && g.span.test(cpu)) || group_balance_cpu(&g) == Some(cpu) {
            local = Some(groups.len());
        }
        groups.push(g);
    }
    (groups, local.unwrap_or(0))
}

/// `group_balance_cpu`: the first CPU of the group that is in its mask.
pub fn group_balance_cpu(g: &SchedGroup) -> Option<CpuId> {
    g.span.iter_and(&g.balance_mask).next()
}

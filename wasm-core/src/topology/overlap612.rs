//! The groups of a NUMA level as Linux 6.12 builds them
//! (`build_overlap_sched_groups`, topology.c 1041–1131, with
//! `build_balance_mask` 927–964 and `init_overlap_sched_group` 987–1014).
//!
//! Where 4.1 (`overlap.rs`) walked the domain's span from its first CPU, so
//! that every CPU got the groups node 0 would build, 6.12 walks it from the
//! building CPU and wraps (`for_each_cpu_wrap`): each CPU's first group, its
//! local group, is its own child domain (the repair of the paper's
//! Scheduling Group Construction bug, 2017). A group's balance mask holds the
//! CPUs whose own child domain is exactly the group, and its capacity is the
//! one of the mask's first CPU, so every CPU building the same group shares
//! one `sched_group_capacity`.
//!
//! On a machine whose NUMA diameter is three hops or more, a sibling's
//! child domain may reach outside the domain being built; the group is then
//! built from the sibling's proper descendant (`find_descended_sibling`,
//! 1016–1038): the first level down whose child fits, skipping levels that
//! `cpu_attach_domain` would prune for spanning what their child spans.

use super::cpumask::CpuMask;
use super::domains::SchedGroup;
use super::overlap::{DomainTree, GroupKey, GroupRegistry, OverlapLevel};
use crate::time::CpuId;
use std::sync::Arc;

/// The CPUs of `span` from `cpu` upwards, then from the lowest (`for_each_cpu_wrap`).
fn wrap_from(span: &CpuMask, cpu: CpuId) -> impl Iterator<Item = CpuId> + '_ {
    span.iter().filter(move |c| c.0 >= cpu.0).chain(span.iter().filter(move |c| c.0 < cpu.0))
}

/// `build_overlap_sched_groups` for `cpu`'s domain `span`: the groups in list
/// order, the local group first.
pub fn build_overlap_groups(
    cpu: CpuId,
    span: &CpuMask,
    lvl: &OverlapLevel,
    reg: &mut GroupRegistry,
) -> Vec<SchedGroup> {
    let mut groups = Vec::new();
    let mut covered = CpuMask::new();
    for i in wrap_from(span, cpu) {
        // A sibling whose domain tree stopped below this level (asymmetric depth) builds nothing here.
        if covered.test(i) || !(lvl.built)(i) {
            continue;
        }
        let (level, gspan, mask) = match (lvl.tree, lvl.child) {
            (Some(tree), Some(_)) => {
                let level = descended_sibling(&tree, lvl.level, i, span);
                let (gspan, mask) = group_of(&tree, level, i);
                (level, gspan, mask)
            }
            (None, Some(child)) => {
                let gspan = child[i.idx()].clone();
                // build_balance_mask: the group's CPUs whose own child domain is the group.
                let mask = CpuMask::from_cpus(gspan.iter().filter(|&j| (lvl.built)(j) && child[j.idx()] == gspan));
                (lvl.level, gspan, mask)
            }
            (_, None) => (lvl.level, CpuMask::from_cpus([i]), CpuMask::from_cpus([i])),
        };
        covered.or_with(&gspan);
        // The group's capacity is its builder level's (sgc across levels, as the kernel shares it).
        let key = GroupKey::Cpu(mask.first().unwrap_or(i));
        groups.push(reg.get(level, key, &gspan, |_| Arc::new(mask), lvl.cpu_capacity));
    }
    groups
}

/// `find_descended_sibling` when it is called (topology.c 1104–1106): the
/// level of `i`'s domain the group is built from. The sibling at `level`
/// stands unless its child reaches outside `span`; else the walk goes down
/// to the first domain whose child fits, then past domains whose child spans
/// as much as they do (they would be pruned).
fn descended_sibling(tree: &DomainTree<'_>, level: usize, i: CpuId, span: &CpuMask) -> usize {
    let at = |l: usize| &tree.spans[l].1[i.idx()];
    let mut l = level;
    if l == 0 || at(l - 1).is_subset_of(span) {
        return l;
    }
    while l > 0 && !at(l - 1).is_subset_of(span) {
        l -= 1;
    }
    while l > 0 && at(l - 1) == at(l) {
        l -= 1;
    }
    l
}

/// The group `i`'s domain at `level` gives (`build_group_from_child_sched_domain`):
/// its child's span, and the balance mask `build_balance_mask` makes of it at
/// that level (927–964): the CPUs of the span whose own domain there has
/// exactly that child.
fn group_of(tree: &DomainTree<'_>, level: usize, i: CpuId) -> (CpuMask, CpuMask) {
    if level == 0 {
        let one = CpuMask::from_cpus([i]);
        return (one.clone(), one);
    }
    let child = &tree.spans[level - 1].1;
    let gspan = child[i.idx()].clone();
    let mask = CpuMask::from_cpus(gspan.iter().filter(|&j| tree.depth[j.idx()] > level && child[j.idx()] == gspan));
    (gspan, mask)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Four nodes in a ring (0–1–2–3–0, one CPU each): at the level of one
    /// hop, CPU 2's domain is {1, 2, 3}. 6.12 starts from CPU 2 itself: its own
    /// child {2}, then 3's {3}, then 1's {1} (wrapping); 4.1 started from 1.
    /// Each group's mask is the CPU whose child is the group.
    #[test]
    fn the_walk_starts_at_the_building_cpu_and_wraps() {
        let child: Vec<CpuMask> = (0..4).map(|c| CpuMask::from_cpus([CpuId(c)])).collect();
        let built = |_: CpuId| true;
        let lvl = OverlapLevel { level: 1, child: Some(&child), built: &built, cpu_capacity: 1024, tree: None };
        let mut reg = GroupRegistry::default();
        let span = CpuMask::from_cpus([CpuId(1), CpuId(2), CpuId(3)]);
        let groups = build_overlap_groups(CpuId(2), &span, &lvl, &mut reg);
        let spans: Vec<Vec<u32>> = groups.iter().map(|g| g.span.iter().map(|c| c.0).collect()).collect();
        assert_eq!(spans, [vec![2], vec![3], vec![1]]);
        let masks: Vec<Vec<u32>> = groups.iter().map(|g| g.balance_mask.iter().map(|c| c.0).collect()).collect();
        assert_eq!(masks, [vec![2], vec![3], vec![1]]);
        // CPU 1 builds its {0, 1, 2} domain: the {2} group is the same capacity as CPU 2's.
        let span1 = CpuMask::from_cpus([CpuId(0), CpuId(1), CpuId(2)]);
        let g1 = build_overlap_groups(CpuId(1), &span1, &lvl, &mut reg);
        let id_of = |gs: &[SchedGroup], c: u32| gs.iter().find(|g| g.span.test(CpuId(c))).map(|g| g.id);
        assert_eq!(id_of(&g1, 2), id_of(&groups, 2));
    }

    /// Two-node children: a group's mask keeps only the CPUs whose own child
    /// domain is the whole group (a CPU whose child is wider is left out).
    #[test]
    fn the_mask_holds_the_cpus_whose_child_is_the_group() {
        let a = CpuMask::from_cpus([CpuId(0), CpuId(1)]);
        let b = CpuMask::from_cpus([CpuId(0), CpuId(1), CpuId(2)]);
        // CPU 0's and 1's child is {0, 1}; CPU 2's is {0, 1, 2}; CPU 3's is {3}.
        let child = vec![a.clone(), a.clone(), b.clone(), CpuMask::from_cpus([CpuId(3)])];
        let built = |_: CpuId| true;
        let lvl = OverlapLevel { level: 2, child: Some(&child), built: &built, cpu_capacity: 1024, tree: None };
        let mut reg = GroupRegistry::default();
        let span = CpuMask::from_range(0..4);
        let groups = build_overlap_groups(CpuId(3), &span, &lvl, &mut reg);
        assert_eq!(groups[0].span.iter().map(|c| c.0).collect::<Vec<_>>(), [3]);
        // From 3, wrapping to 0: {0, 1}, whose mask is 0 and 1 (their child is the group); then 2, not yet
        // covered: its child {0, 1, 2}, whose mask is 2 alone (0's and 1's child is narrower).
        let spans: Vec<Vec<u32>> = groups.iter().map(|g| g.span.iter().map(|c| c.0).collect()).collect();
        assert_eq!(spans, [vec![3], vec![0, 1], vec![0, 1, 2]]);
        assert_eq!(groups[1].balance_mask.iter().map(|c| c.0).collect::<Vec<_>>(), [0, 1]);
        assert_eq!(groups[2].balance_mask.iter().map(|c| c.0).collect::<Vec<_>>(), [2]);
    }
}

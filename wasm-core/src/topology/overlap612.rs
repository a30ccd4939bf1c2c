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
//! Not modelled: `find_descended_sibling` (a NUMA diameter above two, where a
//! sibling's child reaches outside the domain being built): the group is then
//! the sibling's child span, as 4.1's.

use super::cpumask::CpuMask;
use super::domains::SchedGroup;
use super::overlap::{GroupKey, GroupRegistry, OverlapLevel};
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
        let gspan = match lvl.child {
            Some(child) => child[i.idx()].clone(),
            None => CpuMask::from_cpus([i]),
        };
        covered.or_with(&gspan);
        // build_balance_mask: the group's CPUs whose own child domain is the group.
        let mask = match lvl.child {
            Some(child) => CpuMask::from_cpus(gspan.iter().filter(|&j| (lvl.built)(j) && child[j.idx()] == gspan)),
            None => gspan.clone(),
        };
        let key = GroupKey::Cpu(mask.first().unwrap_or(i));
        groups.push(reg.get(lvl.level, key, &gspan, |_| Arc::new(mask), lvl.cpu_capacity));
    }
    groups
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
        let lvl = OverlapLevel { level: 1, child: Some(&child), built: &built, cpu_capacity: 1024 };
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
        let lvl = OverlapLevel { level: 2, child: Some(&child), built: &built, cpu_capacity: 1024 };
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

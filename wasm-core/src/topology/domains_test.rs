//! The domains of the built-in machines (`build_sched_domains`, `sd_init`,
//! `cpu_attach_domain`), and hand-worked 4.1.15 cases of the overlapping
//! NUMA groups (`build_overlap_sched_groups`, `build_group_mask`,
//! `group_balance_cpu`).

use super::*;

/// The domains at boot (the table boot leaves); `fixed` = the Group Construction fix.
fn doms(preset: &str, fixed: bool) -> Vec<Vec<SchedDomain>> {
    let m = Machine::preset(preset).unwrap();
    let online = CpuMask::from_range(0..m.nr_cpus());
    let opts = DomainOptions {
        groups_from_each_cpu: fixed,
        table: TopologyTable::at_boot(&m, &online),
        rules: Default::default(),
    };
    build_domains(&m, &online, &opts)
}

const BUGGY: bool = false;
const FIXED: bool = true;

fn node_list(g: &SchedGroup) -> Vec<u32> {
    let mut nodes: Vec<u32> = g.span.iter().map(|c| c.0 / 8).collect();
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
    let m = Machine::preset("opteron-6272-8n").unwrap();
    let online = CpuMask::from_range(0..m.nr_cpus());
    let table = TopologyTable { die: false, numa: false };
    let d =
        build_domains(&m, &online, &DomainOptions { groups_from_each_cpu: false, table, rules: Default::default() });
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

#[test]
fn intel_packages_keep_die_and_its_prefer_sibling_reaches_mc() {
    // One node per package: SMT, MC, DIE, NUMA(21); DIE spans the node as MC
    // does and is pruned, leaving MC with DIE's SD_PREFER_SIBLING.
    let xeon = doms("xeon-gold-5218-2s", BUGGY);
    assert!(xeon[0][1].flags.prefer_sibling, "Xeon MC inherits SD_PREFER_SIBLING");
    // The Opteron's packages hold two nodes: SMT, MC, NUMA levels, no DIE.
    let opteron = doms("opteron-6272-8n", BUGGY);
    assert!(!opteron[0][1].flags.prefer_sibling, "Opteron MC has no DIE above it");
    assert!(opteron[0][0].flags.prefer_sibling && xeon[0][0].flags.prefer_sibling, "SMT prefers siblings");
}

#[test]
fn buggy_top_level_balance_cpus_are_each_groups_first_cpu() {
    // 4.1's build_group_mask: CPU 0 builds both top-level capacities first, so
    // their masks are its whole domain and group_balance_cpu is each group's
    // first CPU: 0 for {0,1,2,4,6}, 8 for {1,2,3,4,5,7} (built from CPU 24).
    // CPU 8 therefore takes the second group as its local one, though the
    // first holds it too; CPU 9 keeps the first.
    let d = doms("opteron-6272-8n", BUGGY);
    let first = |cpu: usize| (node_list(&d[cpu][3].groups[0]), d[cpu][3].groups[0].balance_cpu());
    assert_eq!(first(0), (vec![0, 1, 2, 4, 6], Some(CpuId(0))));
    assert_eq!(first(8), (vec![1, 2, 3, 4, 5, 7], Some(CpuId(8))));
    assert_eq!(first(9), (vec![0, 1, 2, 4, 6], Some(CpuId(0))));
    assert_eq!(first(24), (vec![1, 2, 3, 4, 5, 7], Some(CpuId(8))));
}

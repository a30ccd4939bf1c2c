//! The DIE level and its SD_PREFER_SIBLING, hand-worked on 4.1.15: two nodes
//! of two single-threaded cores (CPUs 0-1 on node 0, 2-3 on node 1), at
//! distance 20, as two one-node packages (an Intel-like machine) or as one
//! package of two nodes (an Opteron-like one).
//!
//! Table (x86 `set_cpu_sibling_map`): one node per package keeps
//! default_topology, SMT/MC/DIE; a package spanning both nodes switches to
//! numa_inside_package_topology, SMT/MC. `sched_init_numa` appends NUMA(20).
//!
//! `sd_init`: DIE (no topology flag) gets SD_PREFER_SIBLING; MC does not.
//! `cpu_attach_domain`: DIE spans the node (`cpu_cpu_mask`), as MC does, with
//! one group, so `sd_parent_degenerate` removes it and its SD_PREFER_SIBLING
//! passes down to MC; the one-CPU SMT level goes too (`sd_degenerate`).
//! Both machines end with MC, NUMA(20); only the first's MC prefers siblings.
//!
//! `update_sd_lb_stats` at NUMA(20) for CPU 1, newly idle: CPU 0 runs one
//! nice -20 task (weight 88761), CPU 2 two nice-0 tasks, CPU 3 nothing.
//!   local  {0,1}: load 88761, avg 88761·1024/2048 = 44380, one task on two CPUs (has capacity)
//!   remote {2,3}: load 2048,  avg 1024, two tasks on two CPUs (not overloaded by itself)
//! With the child preferring siblings, the remote group (more than one task,
//! the local group with room) is marked without capacity: overloaded. Then
//! `find_busiest_group` forces the balance (newly idle, local has capacity,
//! busiest has none). Without it, the local average is above the remote one:
//! balanced.

use schedlab_core::balance::stats::{find_busiest_group, CpuLoad, FbgInput};
use schedlab_core::balance::IdleType;
use schedlab_core::machine::Machine;
use schedlab_core::time::CpuId;
use schedlab_core::topology::cpumask::CpuMask;
use schedlab_core::topology::domains::{build_domains, DomainOptions, SchedDomain};
use schedlab_core::topology::table::TopologyTable;

fn machine(nodes_per_package: u32) -> Machine {
    let mut m = Machine::uniform("two-nodes", 2, 2, 1, 20);
    m.nodes_per_package = nodes_per_package;
    m
}

fn domains(nodes_per_package: u32) -> Vec<Vec<SchedDomain>> {
    let m = machine(nodes_per_package);
    let online = CpuMask::from_range(0..4);
    let table = TopologyTable::at_boot(&m, &online);
    build_domains(&m, &online, &DomainOptions { groups_from_each_cpu: false, table, rules: Default::default() })
}

#[test]
fn the_table_follows_the_packages() {
    let online = CpuMask::from_range(0..4);
    assert_eq!(TopologyTable::at_boot(&machine(1), &online), TopologyTable { die: true, numa: true });
    assert_eq!(TopologyTable::at_boot(&machine(2), &online), TopologyTable { die: false, numa: true });
}

#[test]
fn a_degenerate_die_passes_prefer_sibling_to_mc() {
    for (npp, prefers) in [(1, true), (2, false)] {
        let d = domains(npp);
        let names: Vec<String> = d[1].iter().map(|s| s.name()).collect();
        assert_eq!(names, ["MC", "NUMA(20)"], "{npp} node(s) per package");
        assert_eq!(d[1][0].flags.prefer_sibling, prefers, "{npp} node(s) per package");
        assert!(!d[1][1].flags.prefer_sibling);
    }
}

fn loads() -> Vec<CpuLoad> {
    let cpu = |weighted: u64, nr_running: u32| CpuLoad {
        weighted,
        cpu_load: [weighted; 5],
        nr_running,
        usage: if nr_running > 0 { 1024 } else { 0 },
        capacity: 1024,
        idle: nr_running == 0,
    };
    vec![cpu(88761, 1), cpu(0, 0), cpu(2048, 2), cpu(0, 0)]
}

/// find_busiest_group at CPU 1's NUMA(20) domain, newly idle, as
/// load_balance reads it (the child's flag from the CPU's own hierarchy).
fn newly_idle_pass(nodes_per_package: u32) -> (Option<u64>, bool) {
    let d = domains(nodes_per_package);
    let (child, sd) = (&d[1][0], &d[1][1]);
    let (l, env, imbalanced) = (loads(), CpuMask::from_range(0..4), vec![false; 64]);
    let inp = FbgInput {
        loads: &l,
        sd,
        dst_cpu: CpuId(1),
        child_prefers_sibling: child.flags.prefer_sibling,
        env_cpus: &env,
        idle: IdleType::NewlyIdle,
        sgc_imbalance: &imbalanced,
        min_load_fix: false,
        dst_load_per_task: 0,
        dst_load: 0,
    };
    let (fbg, groups) = find_busiest_group(&inp);
    assert_eq!((groups[0].avg_load, groups[1].avg_load), (44380, 1024));
    assert_eq!(fbg.busiest, Some(1), "the remote node is the only candidate");
    (fbg.imbalance, groups[1].group_no_capacity)
}

#[test]
fn prefer_sibling_spreads_where_the_die_level_gave_it() {
    let (imbalance, no_capacity) = newly_idle_pass(1);
    assert!(no_capacity, "two tasks on the remote node, room on the local one: overloaded");
    assert!(imbalance.is_some(), "forced balance toward the idle sibling node");
    let (imbalance, no_capacity) = newly_idle_pass(2);
    assert!(!no_capacity);
    assert_eq!(imbalance, None, "the local average is above the remote one: balanced");
}

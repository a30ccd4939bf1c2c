//! Overlapping NUMA groups as 4.1.15 builds and reads them, on a hand-worked
//! machine: a ring of four nodes with one CPU each (CPU c on node c),
//! neighbours at distance 20, the opposite node at 30.
//!
//! `build_sched_domains`: SMT, MC and DIE each span one CPU and are pruned
//! (`sd_degenerate`), leaving NUMA(20) = {c-1, c, c+1} and NUMA(30) = all.
//!
//! `build_overlap_sched_groups` at NUMA(30), walking the span from CPU 0:
//! i = 0 gives A = NUMA(20) of CPU 0 = {0,1,3}; CPU 2 is left, so i = 2 gives
//! B = {1,2,3}. Both capacities are first built by CPU 0, so 4.1's
//! `build_group_mask` gives both CPU 0's whole domain {0,1,2,3}, and
//! `group_balance_cpu` is the first CPU of each group: A → 0, B → 1.
//! The local group (`sd->groups`) is the first group holding the CPU, unless
//! a later group's balance CPU is the CPU itself:
//!   CPU 0: A    CPU 1: B (its balance CPU)    CPU 2: B    CPU 3: A
//! (With the post-4.13 mask, B's mask would be {2}, the CPUs whose own
//! NUMA(20) span is B, and CPU 1 would keep A.)
//!
//! `update_sd_lb_stats`: every group holding the destination CPU is local.
//! CPUs 1 and 3 are in both A and B, so at NUMA(30) they find no busiest
//! group at all; CPU 0 finds B.

use schedlab_core::balance::stats::{find_busiest_group, CpuLoad, FbgInput};
use schedlab_core::balance::IdleType;
use schedlab_core::machine::Machine;
use schedlab_core::time::CpuId;
use schedlab_core::topology::cpumask::CpuMask;
use schedlab_core::topology::domains::{build_domains, DomainOptions, SchedDomain};
use schedlab_core::topology::table::TopologyTable;

fn ring4() -> Machine {
    let distance = vec![vec![10, 20, 30, 20], vec![20, 10, 20, 30], vec![30, 20, 10, 20], vec![20, 30, 20, 10]];
    Machine { name: "ring4".into(), nodes: 4, cores_per_node: 1, threads_per_core: 1, distance, nodes_per_package: 1 }
}

fn domains(fixed: bool) -> Vec<Vec<SchedDomain>> {
    let m = ring4();
    let online = CpuMask::from_range(0..4);
    let table = TopologyTable::at_boot(&m, &online);
    build_domains(&m, &online, &DomainOptions { groups_from_each_cpu: fixed, table, rules: Default::default() })
}

fn spans(sd: &SchedDomain) -> Vec<Vec<u32>> {
    sd.groups.iter().map(|g| g.span.iter().map(|c| c.0).collect()).collect()
}

#[test]
fn the_ring_keeps_two_numa_levels() {
    let d = domains(false);
    for (cpu, doms) in d.iter().enumerate() {
        let names: Vec<String> = doms.iter().map(|s| s.name()).collect();
        assert_eq!(names, ["NUMA(20)", "NUMA(30)"], "cpu {cpu}");
    }
    assert_eq!(spans(&d[1][0]), [vec![1], vec![2], vec![0]], "NUMA(20) of CPU 1: single CPUs, its own first");
}

#[test]
fn group_balance_cpu_follows_the_41_mask() {
    let d = domains(false);
    let top = |cpu: usize| &d[cpu][1];
    let balance: Vec<Option<u32>> = top(1).groups.iter().map(|g| g.balance_cpu().map(|c| c.0)).collect();
    // build_group_mask: CPU 0's domain, so each group's first CPU balances for it.
    assert_eq!(spans(top(1)), [vec![1, 2, 3], vec![0, 1, 3]], "CPU 1's local group is B, whose balance CPU it is");
    assert_eq!(balance, [Some(1), Some(0)]);
    assert_eq!(spans(top(0)), [vec![0, 1, 3], vec![1, 2, 3]]);
    assert_eq!(spans(top(2)), [vec![1, 2, 3], vec![0, 1, 3]]);
    assert_eq!(spans(top(3)), [vec![0, 1, 3], vec![1, 2, 3]], "CPU 3 keeps the first group holding it");
    // Every CPU's copy of B shares one capacity (built from CPU 2's child span).
    assert_eq!(top(0).groups[1].id, top(1).groups[0].id);
}

#[test]
fn the_fix_builds_each_cpus_own_group_first() {
    let d = domains(true);
    // CPU 1: its own NUMA(20) span {0,1,2}, then CPU 3's {0,2,3}.
    assert_eq!(spans(&d[1][1]), [vec![0, 1, 2], vec![0, 2, 3]]);
    assert_eq!(spans(&d[2][1]), [vec![1, 2, 3], vec![0, 1, 3]]);
}

/// CPU 2 runs three tasks, the others none.
fn loads() -> Vec<CpuLoad> {
    let idle = CpuLoad { capacity: 1024, idle: true, ..Default::default() };
    let busy = CpuLoad { weighted: 3072, cpu_load: [3072; 5], nr_running: 3, usage: 1024, capacity: 1024, idle: false };
    vec![idle.clone(), idle.clone(), busy, idle]
}

fn busiest_at_top(d: &[Vec<SchedDomain>], cpu: u32) -> Option<Vec<u32>> {
    let sd = &d[cpu as usize][1];
    let env = CpuMask::from_range(0..4);
    let l = loads();
    let imbalanced = vec![false; 64];
    let inp = FbgInput {
        loads: &l,
        sd,
        dst_cpu: CpuId(cpu),
        child_prefers_sibling: d[cpu as usize][0].flags.prefer_sibling,
        env_cpus: &env,
        idle: IdleType::Idle,
        sgc_imbalance: &imbalanced,
        min_load_fix: false,
        dst_load_per_task: 0,
        dst_load: 0,
    };
    let (fbg, groups) = find_busiest_group(&inp);
    let locals: Vec<bool> = groups.iter().map(|g| g.local).collect();
    let expect_local: Vec<bool> = sd.groups.iter().map(|g| g.span.test(CpuId(cpu))).collect();
    assert_eq!(locals, expect_local, "update_sd_lb_stats: a group is local when it holds the destination CPU");
    fbg.busiest.map(|b| sd.groups[b].span.iter().map(|c| c.0).collect())
}

#[test]
fn every_group_holding_the_cpu_is_local() {
    let d = domains(false);
    assert_eq!(busiest_at_top(&d, 0), Some(vec![1, 2, 3]), "CPU 0 holds only A: B is a candidate");
    assert_eq!(busiest_at_top(&d, 1), None, "CPU 1 is in A and B: both local, no busiest group");
    assert_eq!(busiest_at_top(&d, 3), None, "CPU 3 is in A and B: both local, no busiest group");
}

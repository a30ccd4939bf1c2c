//! Hand-worked cases of 6.12's `sd_init` and degenerate rules
//! (kernel/sched/topology.c, Debian 6.12.117), beside 4.1's on the same
//! machines. Each figure is read from the source: the defaults at
//! topology.c 1612–1640, the behaviour of each topology flag at 1666–1687,
//! x86's level flags at smpboot.c 480–535 and topology.h 39–63.

use crate::machine::Machine;
use crate::topology::cpumask::CpuMask;
use crate::topology::domains::{build_domains, DomainOptions, DomainRules, SchedDomain};
use crate::topology::table::TopologyTable;

fn doms(m: &Machine, rules: DomainRules) -> Vec<Vec<SchedDomain>> {
    let online = CpuMask::from_range(0..m.nr_cpus());
    let opts = DomainOptions { groups_from_each_cpu: true, table: TopologyTable::at_boot(m, &online), rules };
    build_domains(m, &online, &opts)
}

/// (name, imbalance_pct, cache_nice_tries, busy_factor, min_interval, max_interval) of CPU 0's levels.
fn params(d: &[SchedDomain]) -> Vec<(String, u32, u32, u64, u64, u64)> {
    d.iter()
        .map(|sd| {
            (sd.name(), sd.imbalance_pct, sd.cache_nice_tries, sd.busy_factor, sd.min_interval_ms, sd.max_interval_ms)
        })
        .collect()
}

#[test]
fn opteron_levels_take_6_12s_parameters() {
    let m = Machine::preset("opteron-6272-8n").unwrap();
    let d = doms(&m, DomainRules::Linux612);
    // SMT: SHARE_CPUCAPACITY → imbalance_pct 110, cache_nice_tries stays 0.
    // MC: SHARE_LLC → 117 and 1. NUMA: 117 from the defaults, cache_nice_tries 2.
    // Every level: busy_factor 16, intervals weight .. 2 × weight.
    assert_eq!(
        params(&d[0]),
        [
            ("SMT".to_string(), 110, 0, 16, 2, 4),
            ("MC".to_string(), 117, 1, 16, 8, 16),
            ("NUMA(16)".to_string(), 117, 2, 16, 40, 80),
            ("NUMA(22)".to_string(), 117, 2, 16, 64, 128),
        ]
    );
    // The same machine under 4.1: busy_factor 32, NUMA levels at the default 125.
    let old = doms(&m, DomainRules::Linux41);
    assert_eq!(
        params(&old[0]),
        [
            ("SMT".to_string(), 110, 0, 32, 2, 4),
            ("MC".to_string(), 117, 1, 32, 8, 16),
            ("NUMA(16)".to_string(), 125, 2, 32, 40, 80),
            ("NUMA(22)".to_string(), 125, 2, 32, 64, 128),
        ]
    );
}

#[test]
fn prefer_sibling_is_on_below_numa_and_off_at_it() {
    let m = Machine::preset("opteron-6272-8n").unwrap();
    let d = doms(&m, DomainRules::Linux612);
    let prefer: Vec<bool> = d[0].iter().map(|sd| sd.flags.prefer_sibling).collect();
    // 6.12 sets SD_PREFER_SIBLING on every level, and SD_NUMA clears it (topology.c 1677).
    assert_eq!(prefer, [true, true, false, false]);
    // 4.1 set it on SMT and DIE only (linux41.rs), and this machine's table has no DIE level to pass it
    // down to MC.
    let old: Vec<bool> = doms(&m, DomainRules::Linux41)[0].iter().map(|sd| sd.flags.prefer_sibling).collect();
    assert_eq!(old, [true, false, false, false]);
    // SMT shares capacity and the LLC, MC the LLC; NUMA levels serialize and overlap; at distances 16 and 22
    // (≤ node_reclaim_distance, 30) fork, exec and wake_affine stay on.
    let f = |i: usize| &d[0][i].flags;
    assert!(f(0).share_cpucapacity && f(0).share_pkg_resources);
    assert!(!f(1).share_cpucapacity && f(1).share_pkg_resources);
    for i in [2, 3] {
        assert!(f(i).numa && f(i).serialize && f(i).overlap);
        assert!(f(i).balance_fork && f(i).balance_exec && f(i).wake_affine);
        assert!(!f(i).share_pkg_resources);
    }
}

#[test]
fn beyond_the_reclaim_distance_numa_stops_fork_exec_and_wake_affine() {
    // Two nodes 40 apart, more than node_reclaim_distance (30): topology.c 1679–1683.
    let m = Machine::uniform("far-2n", 2, 4, 2, 40);
    let d = doms(&m, DomainRules::Linux612);
    let top = d[0].last().expect("a NUMA level");
    assert_eq!(top.name(), "NUMA(40)");
    assert!(!top.flags.balance_fork && !top.flags.balance_exec && !top.flags.wake_affine);
    assert!(top.flags.balance_newidle && top.flags.load_balance);
    assert_eq!(top.cache_nice_tries, 2);
}

#[test]
fn a_one_package_machine_keeps_smt_and_mc() {
    // The package level spans what MC spans with one group: sd_parent_degenerate sets aside every flag that
    // needs groups (SD_DEGENERATE_GROUPS_MASK) and finds nothing MC lacks, so it goes (topology.c 188–207).
    let m = Machine::preset("laptop-2c4t").unwrap();
    let d = doms(&m, DomainRules::Linux612);
    let names: Vec<String> = d[0].iter().map(|sd| sd.name()).collect();
    assert_eq!(names, ["SMT", "MC"]);
    assert!(d[0][1].flags.prefer_sibling);
    assert_eq!(d[0][1].imbalance_pct, 117);
}

/// A machine of one-CPU nodes with the given SLIT rows.
fn slit(rows: &[&[u32]]) -> Machine {
    let mut m = Machine::uniform("slit", rows.len() as u32, 1, 1, 20);
    m.distance = rows.iter().map(|r| r.to_vec()).collect();
    m
}

/// CPU `cpu`'s groups at its domain named `level`, as lists of CPUs.
fn groups_at(d: &[Vec<SchedDomain>], cpu: usize, level: &str) -> Vec<Vec<u32>> {
    let sd = d[cpu].iter().find(|sd| sd.name() == level).unwrap_or_else(|| panic!("no {level} at CPU {cpu}"));
    sd.groups.iter().map(|g| g.span.iter().map(|c| c.0).collect()).collect()
}

/// Four nodes in a line, 0 – 1 – 2 – 3 (SLIT 10/20/30/40): diameter three,
/// the smallest where a sibling's child reaches outside the domain being
/// built (topology.c 1073–1098 draws this machine). CPU 0's NUMA(30) domain
/// is {0, 1, 2}; CPU 2's child there, NUMA(20), is {1, 2, 3}, outside it, so
/// 6.12 descends (`find_descended_sibling`, 1016–1038) to CPU 2's NUMA(20)
/// domain, whose child is {2}: the groups are {0, 1} and {2}. 4.1 took the
/// child as it was, a group outside its own domain.
#[test]
fn a_sibling_whose_child_reaches_outside_descends() {
    let m = slit(&[&[10, 20, 30, 40], &[20, 10, 20, 30], &[30, 20, 10, 20], &[40, 30, 20, 10]]);
    let d = doms(&m, DomainRules::Linux612);
    assert_eq!(groups_at(&d, 0, "NUMA(30)"), [vec![0, 1], vec![2]]);
    assert_eq!(groups_at(&d, 3, "NUMA(30)"), [vec![2, 3], vec![1]]);
    // Where children fit, nothing changes: CPU 1's NUMA(30) domain is the machine, its groups its own
    // NUMA(20) span {0, 1, 2}, then CPU 3's, {2, 3}.
    assert_eq!(groups_at(&d, 1, "NUMA(30)"), [vec![0, 1, 2], vec![2, 3]]);
    let old = doms(&m, DomainRules::Linux41);
    assert!(groups_at(&old, 0, "NUMA(30)").contains(&vec![1, 2, 3]), "4.1 builds the group that reaches outside");
}

/// A SLIT where node 0 does not see every distance: 0 is 20 from both 1 and
/// 2, which are 30 apart. 6.12 collects distances over every pair
/// (`sched_init_numa`, topology.c 1873–1906) and builds NUMA(30), where CPU 1
/// spans the machine; 4.1 read node 0's row only, and CPU 1's top domain,
/// NUMA(20), holds {0, 1}: nodes 1 and 2 never balance directly.
#[test]
fn numa_levels_come_from_every_pair_of_nodes() {
    let m = slit(&[&[10, 20, 20], &[20, 10, 30], &[20, 30, 10]]);
    let top = |d: &[Vec<SchedDomain>], cpu: usize| {
        let sd = d[cpu].last().expect("a domain");
        (sd.name(), sd.span.iter().map(|c| c.0).collect::<Vec<_>>())
    };
    let d = doms(&m, DomainRules::Linux612);
    assert_eq!(top(&d, 1), ("NUMA(30)".to_string(), vec![0, 1, 2]));
    let old = doms(&m, DomainRules::Linux41);
    assert_eq!(top(&old, 1), ("NUMA(20)".to_string(), vec![0, 1]));
}

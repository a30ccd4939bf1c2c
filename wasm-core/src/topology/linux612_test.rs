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

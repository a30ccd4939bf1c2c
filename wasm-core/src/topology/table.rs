//! The topology table 4.1 builds domains from (`sched_domain_topology`), and
//! which table x86 ends up with.
//!
//! ```text
//!   default_topology              SMT, MC, DIE          (kernel/sched/core.c)
//!   numa_inside_package_topology  SMT, MC               (arch/x86/kernel/smpboot.c)
//!   + sched_init_numa             ..., NUMA(d1), NUMA(d2), ...  one per distance of node 0's SLIT row
//! ```
//!
//! x86's `set_cpu_sibling_map` runs for every CPU that comes up, at boot and at
//! every hotplug online. When it finds an already set-up CPU in the same
//! package (`match_die`) on another node, it calls
//! `primarily_use_numa_for_topology`, which installs the SMT/MC table. At boot
//! that happens before `sched_init_numa`, which then appends the NUMA levels
//! to it. At a later online it replaces the extended table, NUMA levels
//! included: the Missing Scheduling Domains bug, on machines whose packages
//! span several nodes (the paper's Opteron). The paper's fix makes the switch
//! only while `sched_max_numa_distance` is still unset, i.e. before
//! `sched_init_numa` ran.
//!
//! Per level, a CPU's span is `tl->mask(cpu)` within the CPUs online:
//! SMT = its core's threads, MC = its LLC (here its node), DIE =
//! `cpu_cpu_mask`, which in 4.1 is the CPU's node (not its package), NUMA(d)
//! = the nodes within distance d of its node.

use super::cpumask::CpuMask;
use super::domains::LevelKind;
use crate::machine::Machine;
use crate::time::CpuId;

/// The levels of `sched_domain_topology` as the run currently has it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TopologyTable {
    /// default_topology's DIE level (absent from numa_inside_package_topology).
    pub die: bool,
    /// The levels `sched_init_numa` appended.
    pub numa: bool,
}

impl TopologyTable {
    /// What boot leaves on x86: every CPU came up through `set_cpu_sibling_map`,
    /// so the SMT/MC table is in use if some package holds online CPUs of two
    /// nodes; `sched_init_numa` then appends the NUMA levels (if the SLIT has
    /// any distance beyond the local one).
    pub fn at_boot(machine: &Machine, online: &CpuMask) -> TopologyTable {
        let split = online.iter().any(|c| package_spans_nodes(machine, online, c));
        TopologyTable { die: !split, numa: !numa_distances(machine).is_empty() }
    }
}

/// `set_cpu_sibling_map`'s test for `cpu` coming up: is some set-up (online)
/// CPU of its package on another node?
pub fn package_spans_nodes(machine: &Machine, online: &CpuMask, cpu: CpuId) -> bool {
    let (pkg, node) = (machine.package_of(cpu), machine.node_of(cpu));
    online.iter().any(|o| machine.package_of(o) == pkg && machine.node_of(o) != node)
}

/// `sched_init_numa`'s distances: the distinct ones of node 0's row above the
/// local distance, ascending (it assumes node 0 sees every distance).
pub fn numa_distances(machine: &Machine) -> Vec<u32> {
    let local = machine.distance.first().and_then(|r| r.first()).copied().unwrap_or(10);
    let mut d: Vec<u32> =
        machine.distance.first().map_or(Vec::new(), |r| r.iter().copied().filter(|&x| x > local).collect());
    d.sort_unstable();
    d.dedup();
    d
}

/// 6.12's `sched_init_numa` distances (topology.c 1873–1906): the distinct
/// ones of every pair of nodes, ascending, above the local distance. 4.1 read
/// node 0's row alone; on a SLIT where node 0 does not see every distance
/// (three nodes, 0 at 20 from both others, which are 30 apart), 4.1 lacks a
/// level and the top domains of nodes 1 and 2 never span the machine.
pub fn numa_distances_all_pairs(machine: &Machine) -> Vec<u32> {
    let local = machine.distance.first().and_then(|r| r.first()).copied().unwrap_or(10);
    let mut d: Vec<u32> = machine.distance.iter().flatten().copied().filter(|&x| x > local).collect();
    d.sort_unstable();
    d.dedup();
    d
}

/// Every level of `table` (bottom up) with each CPU's span among the online
/// CPUs, as `build_sched_domain` sets it: `tl->mask(cpu)` and the CPU map,
/// widened to the child's span if the table is not nested ("arch topology
/// borken"). Offline CPUs get empty spans. `all_pairs`: the NUMA distances
/// as 6.12 finds them (`numa_distances_all_pairs`), else as 4.1 does.
pub fn level_spans(
    machine: &Machine,
    online: &CpuMask,
    table: &TopologyTable,
    all_pairs: bool,
) -> Vec<(LevelKind, Vec<CpuMask>)> {
    let n = machine.nr_cpus();
    let node_mask = |node: u32| CpuMask::from_cpus(machine.node_cpus(node));
    let mut kinds = vec![LevelKind::Smt, LevelKind::Mc];
    if table.die {
        kinds.push(LevelKind::Die);
    }
    if table.numa {
        let distances = if all_pairs { numa_distances_all_pairs(machine) } else { numa_distances(machine) };
        kinds.extend(distances.into_iter().map(LevelKind::Numa));
    }
    let mut levels: Vec<(LevelKind, Vec<CpuMask>)> = Vec::new();
    for kind in kinds {
        let spans = CpuId::all(n)
            .map(|c| {
                if !online.test(c) {
                    return CpuMask::new();
                }
                let home = machine.node_of(c);
                let mask = match kind {
                    LevelKind::Smt => CpuMask::from_cpus(machine.smt_siblings(c)),
                    LevelKind::Mc | LevelKind::Die => node_mask(home),
                    LevelKind::Numa(d) => {
                        let mut m = CpuMask::new();
                        for node in (0..machine.nodes).filter(|&k| machine.distance[home as usize][k as usize] <= d) {
                            m.or_with(&node_mask(node));
                        }
                        m
                    }
                };
                let span = mask.and(online);
                match levels.last() {
                    Some((_, below)) => span.or(&below[c.idx()]),
                    None => span,
                }
            })
            .collect();
        levels.push((kind, spans));
    }
    levels
}

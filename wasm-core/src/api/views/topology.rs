//! The topology view's data: the machine (nodes, cores, SMT threads, node
//! distances with hop counts), which CPUs are online, and the recent
//! migrations (from the trace's `sched_migrate_task` records) for arrows.

use crate::sim::Simulator;
use crate::time::{CpuId, Pid};
use crate::trace::TraceKind;
use serde::Serialize;

#[derive(Serialize)]
#[cfg_attr(any(test, feature = "gen"), derive(ts_rs::TS))]
pub struct TopologyView {
    pub name: String,
    pub nodes: u32,
    pub cores_per_node: u32,
    pub threads_per_core: u32,
    /// Nodes per package (socket).
    pub nodes_per_package: u32,
    /// Node distances (ACPI SLIT, 10 on the diagonal).
    pub distance: Vec<Vec<u32>>,
    /// Hops between nodes: 0 on the diagonal, then 1 for the nearest
    /// distance, 2 for the next, … (the ranks of the distinct distances).
    pub hops: Vec<Vec<u32>>,
    /// Per CPU: its node, core (machine-wide) and SMT thread index.
    pub cpus: Vec<CpuPlace>,
}

#[derive(Serialize)]
#[cfg_attr(any(test, feature = "gen"), derive(ts_rs::TS))]
pub struct CpuPlace {
    pub cpu: CpuId,
    /// Its package (`phys_proc_id`).
    pub package: u32,
    pub node: u32,
    pub core: u32,
    pub thread: u32,
    pub online: bool,
}

pub fn topology(sim: &Simulator) -> TopologyView {
    let m = sim.machine();
    let mut remote: Vec<u32> = m.distance.iter().flatten().copied().filter(|&d| d != 10).collect();
    remote.sort_unstable();
    remote.dedup();
    let hops = m
        .distance
        .iter()
        .enumerate()
        .map(|(i, row)| {
            row.iter()
                .enumerate()
                .map(|(j, d)| if i == j { 0 } else { remote.iter().position(|r| r == d).map_or(1, |p| p as u32 + 1) })
                .collect()
        })
        .collect();
    TopologyView {
        name: m.name.clone(),
        nodes: m.nodes,
        cores_per_node: m.cores_per_node,
        threads_per_core: m.threads_per_core,
        nodes_per_package: m.nodes_per_package,
        distance: m.distance.clone(),
        hops,
        cpus: CpuId::all(m.nr_cpus())
            .map(|cpu| CpuPlace {
                cpu,
                package: m.package_of(cpu),
                node: m.node_of(cpu),
                core: m.core_of(cpu),
                thread: cpu.0 % m.threads_per_core,
                online: sim.online().test(cpu),
            })
            .collect(),
    }
}

#[derive(Serialize)]
#[cfg_attr(any(test, feature = "gen"), derive(ts_rs::TS))]
pub struct MigrationView {
    pub t_ns: u64,
    pub pid: Pid,
    pub from: CpuId,
    pub to: CpuId,
    pub cause: &'static str,
}

/// Migrations among the trace's recent records at or after `since_ns`,
/// oldest first, at most `n` (the latest ones).
pub fn recent_migrations(sim: &Simulator, since_ns: u64, n: usize) -> Vec<MigrationView> {
    // The trace keeps a bounded ring of recent records (a few hundred).
    let recent: Vec<_> = sim.trace().recent(usize::MAX).collect();
    let mut out: Vec<MigrationView> = recent
        .into_iter()
        .rev()
        .take_while(|r| r.at.ns() >= since_ns)
        .filter_map(|r| match r.kind {
            TraceKind::Migrate { pid, from, cause } => {
                Some(MigrationView { t_ns: r.at.ns(), pid, from, to: r.cpu, cause: cause.as_str() })
            }
            _ => None,
        })
        .take(n)
        .collect();
    out.reverse();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn opteron_has_one_and_two_hop_links_and_adjacent_smt_siblings() {
        let p = crate::api::presets::find("group-imbalance-make").unwrap();
        let mut sim = Simulator::new(&crate::api::scenario::load_scenario(p.json).unwrap());
        let t = topology(&sim);
        assert_eq!((t.nodes, t.cores_per_node, t.threads_per_core, t.cpus.len()), (8, 4, 2, 64));
        assert_eq!(t.hops[0][1], 1);
        assert_eq!(t.hops[0][3], 2);
        assert_eq!((t.cpus[5].core, t.cpus[5].thread, t.cpus[9].node), (2, 1, 1));
        sim.run_until(crate::time::SimTime(300_000_000));
        let m = recent_migrations(&sim, 0, 50);
        assert!(!m.is_empty(), "make -j64 migrates tasks");
        assert!(m.iter().all(|v| v.from != v.to && v.to < CpuId(64)));
    }
}

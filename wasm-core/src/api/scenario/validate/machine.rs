//! Validation of the machine (a preset or a custom shape, with its NUMA
//! distances) and of where each process may run on it (`cpus`, `nodes`).
//! Part of `validate`.

use crate::api::scenario::diagnostic::Checker;
use crate::api::scenario::file::{MachineSpec, ProcessFile};
use crate::api::text::escape_controls as shown;
use crate::machine::{Machine, MAX_CPUS};
use crate::topology::cpumask::CpuMask;

pub(super) fn machine_of(m: &MachineSpec, c: &mut Checker) -> Option<Machine> {
    let custom = m.nodes.is_some() || m.cores_per_node.is_some() || m.threads_per_core.is_some();
    match (&m.preset, custom) {
        (Some(_), true) => {
            c.fail("machine", "give either a preset or nodes/cores_per_node/threads_per_core, not both");
            None
        }
        (Some(name), false) => {
            let found = if name == crate::machine::HOST_PRESET {
                Machine::host().map_err(|e| c.fail("machine.preset", e)).ok()
            } else {
                let found = Machine::preset(name);
                if found.is_none() {
                    c.fail(
                        "machine.preset",
                        format!(
                            "unknown machine '{}' (known: {}, and {} for the native CLI)",
                            shown(name),
                            Machine::preset_names().join(", "),
                            crate::machine::HOST_PRESET
                        ),
                    );
                }
                found
            };
            found.map(|mut mach| {
                if let Some(d) = &m.distance {
                    if check_distance(d, mach.nodes, c) {
                        mach.distance = d.clone();
                    }
                }
                if let Some(p) = m.nodes_per_package {
                    if check_packages(p, mach.nodes, c) {
                        mach.nodes_per_package = p;
                    }
                }
                mach
            })
        }
        (None, _) => {
            let nodes = m.nodes.unwrap_or(1);
            let cores = m.cores_per_node.unwrap_or(1);
            let threads = m.threads_per_core.unwrap_or(1);
            c.range("machine.nodes", nodes, 1, 64);
            c.range("machine.cores_per_node", cores, 1, MAX_CPUS);
            c.range("machine.threads_per_core", threads, 1, 8);
            let total = nodes as u64 * cores as u64 * threads as u64;
            if total > MAX_CPUS as u64 {
                c.fail("machine", format!("{total} CPUs; the limit is {MAX_CPUS}"));
                return None;
            }
            let mut mach = Machine::uniform("custom", nodes, cores, threads, 20);
            if let Some(d) = &m.distance {
                if check_distance(d, nodes, c) {
                    mach.distance = d.clone();
                }
            }
            if let Some(p) = m.nodes_per_package {
                if check_packages(p, nodes, c) {
                    mach.nodes_per_package = p;
                }
            }
            Some(mach)
        }
    }
}

/// A package holds whole nodes, the same number in each (nodes are numbered
/// package by package).
fn check_packages(p: u32, nodes: u32, c: &mut Checker) -> bool {
    let ok = p >= 1 && p <= nodes && nodes.is_multiple_of(p);
    if !ok {
        c.fail(
            "machine.nodes_per_package",
            format!("must divide the machine's {nodes} node(s) into packages of equal size (1 to {nodes}), not {p}"),
        );
    }
    ok
}

fn check_distance(d: &[Vec<u32>], nodes: u32, c: &mut Checker) -> bool {
    let before = c.found();
    if d.len() != nodes as usize {
        c.fail("machine.distance", format!("must have {nodes} rows (one per node), has {}", d.len()));
        return false;
    }
    for (i, row) in d.iter().enumerate() {
        if row.len() != nodes as usize {
            c.fail(format!("machine.distance[{i}]"), format!("must have {nodes} entries"));
            continue;
        }
        for (j, &v) in row.iter().enumerate() {
            let ok = if i == j { v == 10 } else { (11..=254).contains(&v) && d[j].get(i) == Some(&v) };
            if !ok {
                c.fail(
                    format!("machine.distance[{i}][{j}]"),
                    "must be 10 on the diagonal, 11 to 254 elsewhere, and symmetric",
                );
            }
        }
    }
    c.found() == before
}

/// A process's allowed CPUs: a taskset list and/or NUMA nodes (intersected).
pub(super) fn affinity_of(p: &ProcessFile, m: &Machine, at: &str, c: &mut Checker) -> Option<CpuMask> {
    let mut mask: Option<CpuMask> = None;
    if let Some(list) = &p.cpus {
        match CpuMask::parse_list(list, m.nr_cpus()) {
            Some(cpus) if !cpus.is_empty() => mask = Some(cpus),
            _ => {
                c.fail(format!("{at}.cpus"), format!("must be a CPU list like \"0-3,8\" within 0-{}", m.nr_cpus() - 1))
            }
        }
    }
    if let Some(nodes) = &p.nodes {
        let mut cpus = CpuMask::new();
        for (j, &n) in nodes.iter().enumerate() {
            if n >= m.nodes {
                c.fail(format!("{at}.nodes[{j}]"), format!("node {n} does not exist (the machine has {})", m.nodes));
            } else {
                cpus = cpus.or(&CpuMask::from_cpus(m.node_cpus(n)));
            }
        }
        mask = Some(match mask {
            Some(prev) => prev.and(&cpus),
            None => cpus,
        });
        if mask.as_ref().is_some_and(|m| m.is_empty()) {
            c.fail(format!("{at}.nodes"), "leaves no CPU to run on");
        }
    }
    mask
}

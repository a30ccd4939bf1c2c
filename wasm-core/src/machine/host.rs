//! The machine the native CLI runs on, read from sysfs, as the engine's
//! machine model (nodes × cores × SMT threads, siblings adjacent).
//!
//! Linux numbers CPUs as the firmware lists them: on a two-socket Intel box
//! the first hardware threads of every core come first and their siblings
//! from n/2 on (`cpu0` and `cpu32` share a core). The engine numbers
//! node-major, then core, then thread. `HostMachine::host_cpu` maps one to
//! the other: model CPU i is host CPU `host_cpu[i]`.
//!
//! ```text
//!   host (2 nodes, siblings at +4):  node0 = 0,1,4,5  node1 = 2,3,6,7  cores {0,4} {1,5} {2,6} {3,7}
//!   model:                           cpu 0 1 2 3 4 5 6 7
//!                                    host 0 4 1 5 2 6 3 7
//! ```
//!
//! Only online CPUs count. Nodes without online CPUs (memory-only) are left
//! out, and the distance matrix with them. Cores are the sets in
//! `thread_siblings_list`, ordered by their lowest CPU; a node's cores and a
//! core's threads must all be equally many, as the model needs (otherwise
//! reading the host fails with a message saying what differs).

use super::{Machine, MAX_CPUS};
use std::path::Path;

/// The host as the engine sees it, and where each model CPU really is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HostMachine {
    pub machine: Machine,
    /// Model CPU → host CPU number.
    pub host_cpu: Vec<u32>,
}

impl HostMachine {
    /// The model CPU of a host CPU, if it is one of the machine's.
    pub fn model_cpu(&self, host: u32) -> Option<u32> {
        self.host_cpu.iter().position(|&h| h == host).map(|i| i as u32)
    }

    /// Whether the numbering is the identity (then the report needs no note).
    pub fn is_identity(&self) -> bool {
        self.host_cpu.iter().enumerate().all(|(i, &h)| i as u32 == h)
    }
}

/// Reads `/sys/devices/system`.
pub fn read_host() -> Result<HostMachine, String> {
    from_sysfs(Path::new("/sys/devices/system"))
}

/// A kernel CPU list ("0-3,8,10-11") as numbers.
pub fn parse_cpu_list(s: &str) -> Option<Vec<u32>> {
    let mut out = Vec::new();
    for part in s.trim().split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let (lo, hi): (u32, u32) = match part.split_once('-') {
            Some((a, b)) => (a.parse().ok()?, b.parse().ok()?),
            None => {
                let v = part.parse().ok()?;
                (v, v)
            }
        };
        if lo > hi || hi >= 1 << 20 {
            return None;
        }
        out.extend(lo..=hi);
    }
    out.sort_unstable();
    out.dedup();
    Some(out)
}

fn read(path: &Path) -> Result<String, String> {
    std::fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))
}

fn read_list(path: &Path) -> Result<Vec<u32>, String> {
    let text = read(path)?;
    parse_cpu_list(&text).ok_or_else(|| format!("{}: not a CPU list: {:?}", path.display(), text.trim()))
}

/// The host machine from a sysfs tree rooted at `root` (`/sys/devices/system`).
pub fn from_sysfs(root: &Path) -> Result<HostMachine, String> {
    let online = read_list(&root.join("cpu/online"))?;
    if online.is_empty() {
        return Err("no online CPU listed in cpu/online".into());
    }
    // Nodes with online CPUs, by node id.
    let mut nodes: Vec<(u32, Vec<u32>)> = Vec::new();
    if let Ok(dir) = std::fs::read_dir(root.join("node")) {
        for entry in dir.flatten() {
            let name = entry.file_name().to_string_lossy().to_string();
            let Some(id) = name.strip_prefix("node").and_then(|n| n.parse::<u32>().ok()) else { continue };
            let cpus: Vec<u32> =
                read_list(&entry.path().join("cpulist"))?.into_iter().filter(|c| online.contains(c)).collect();
            if !cpus.is_empty() {
                nodes.push((id, cpus));
            }
        }
    }
    nodes.sort();
    if nodes.is_empty() {
        // A kernel without NUMA support: one node holding every CPU.
        nodes.push((0, online.clone()));
    }
    let listed: usize = nodes.iter().map(|(_, c)| c.len()).sum();
    if listed != online.len() {
        return Err(format!("the nodes list {listed} online CPUs, cpu/online {}", online.len()));
    }
    let mut host_cpu = Vec::new();
    let (mut cores_per_node, mut threads_per_core) = (None, None);
    for (node, cpus) in &nodes {
        let mut cores: Vec<Vec<u32>> = Vec::new();
        for &cpu in cpus {
            let siblings = read_list(&root.join(format!("cpu/cpu{cpu}/topology/thread_siblings_list")))?;
            let core: Vec<u32> = siblings.into_iter().filter(|c| cpus.contains(c)).collect();
            if !core.contains(&cpu) {
                return Err(format!("cpu{cpu}: thread_siblings_list does not list the CPU itself"));
            }
            if !cores.contains(&core) {
                cores.push(core);
            }
        }
        cores.sort_by_key(|c| c[0]);
        for core in &cores {
            let seen = *threads_per_core.get_or_insert(core.len());
            if core.len() != seen {
                return Err(format!(
                    "the host's cores differ in hardware threads ({seen} and {}: CPUs {core:?}); the engine's \
                     machine model needs the same number in every core",
                    core.len()
                ));
            }
            host_cpu.extend_from_slice(core);
        }
        let seen = *cores_per_node.get_or_insert(cores.len());
        if cores.len() != seen {
            return Err(format!(
                "the host's nodes differ in cores ({seen} and {} in node {node}); the engine's machine model needs \
                 the same number in every node",
                cores.len()
            ));
        }
    }
    let nr = host_cpu.len() as u32;
    if nr > MAX_CPUS || nodes.len() > 64 || threads_per_core.unwrap_or(1) > 8 {
        return Err(format!("the host ({nr} CPUs, {} nodes) is larger than the engine's limits", nodes.len()));
    }
    let distance = distances(root, &nodes)?;
    let machine = Machine {
        name: "host".into(),
        nodes: nodes.len() as u32,
        cores_per_node: cores_per_node.unwrap_or(1) as u32,
        threads_per_core: threads_per_core.unwrap_or(1) as u32,
        distance,
        // sysfs's physical_package_id is not read: one node per package.
        nodes_per_package: 1,
    };
    Ok(HostMachine { machine, host_cpu })
}

/// The SLIT rows of the nodes kept (the `distance` file lists every node's, memory-only ones included).
fn distances(root: &Path, nodes: &[(u32, Vec<u32>)]) -> Result<Vec<Vec<u32>>, String> {
    if nodes.len() == 1 {
        return Ok(vec![vec![10]]);
    }
    let ids: Vec<u32> = nodes.iter().map(|(id, _)| *id).collect();
    // Every node directory, to find each kept node's column in a row.
    let mut all: Vec<u32> = std::fs::read_dir(root.join("node"))
        .map_err(|e| format!("cannot list {}: {e}", root.join("node").display()))?
        .flatten()
        .filter_map(|e| e.file_name().to_string_lossy().strip_prefix("node").and_then(|n| n.parse().ok()))
        .collect();
    all.sort_unstable();
    let mut rows = Vec::new();
    for &id in &ids {
        let path = root.join(format!("node/node{id}/distance"));
        let row: Vec<u32> = read(&path)?.split_whitespace().filter_map(|v| v.parse().ok()).collect();
        if row.len() != all.len() {
            return Err(format!("{}: {} entries for {} nodes", path.display(), row.len(), all.len()));
        }
        rows.push(ids.iter().map(|j| row[all.iter().position(|a| a == j).unwrap_or(0)]).collect::<Vec<u32>>());
    }
    for (i, row) in rows.iter().enumerate() {
        for (j, &v) in row.iter().enumerate() {
            let ok = if i == j { v == 10 } else { (11..=254).contains(&v) && rows[j][i] == v };
            if !ok {
                return Err(format!(
                    "the host's node distances are not a valid SLIT (node {} to {}: {v})",
                    ids[i], ids[j]
                ));
            }
        }
    }
    Ok(rows)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    /// A fake `/sys/devices/system` tree.
    struct Tree(std::path::PathBuf);

    impl Tree {
        fn new(tag: &str) -> Tree {
            let dir = std::env::temp_dir().join(format!("schedlab-sysfs-{tag}-{}", std::process::id()));
            let _ = fs::remove_dir_all(&dir);
            Tree(dir)
        }
        fn put(&self, rel: &str, text: &str) {
            let p = self.0.join(rel);
            fs::create_dir_all(p.parent().unwrap()).unwrap();
            fs::write(p, text).unwrap();
        }
        fn cpu(&self, cpu: u32, siblings: &str) {
            self.put(&format!("cpu/cpu{cpu}/topology/thread_siblings_list"), siblings);
        }
    }

    impl Drop for Tree {
        fn drop(&mut self) {
            let _ = fs::remove_dir_all(&self.0);
        }
    }

    #[test]
    fn cpu_lists_parse_as_the_kernel_prints_them() {
        assert_eq!(parse_cpu_list("0-3,8,10-11\n"), Some(vec![0, 1, 2, 3, 8, 10, 11]));
        assert_eq!(parse_cpu_list("5"), Some(vec![5]));
        assert_eq!(parse_cpu_list("3-1"), None);
        assert_eq!(parse_cpu_list("x"), None);
    }

    #[test]
    fn siblings_far_apart_are_made_adjacent_node_by_node() {
        // Two sockets of two cores × two threads, Intel numbering.
        let t = Tree::new("intel");
        t.put("cpu/online", "0-7\n");
        t.put("node/node0/cpulist", "0-1,4-5\n");
        t.put("node/node1/cpulist", "2-3,6-7\n");
        t.put("node/node0/distance", "10 21\n");
        t.put("node/node1/distance", "21 10\n");
        for (cpu, sib) in
            [(0, "0,4"), (1, "1,5"), (2, "2,6"), (3, "3,7"), (4, "0,4"), (5, "1,5"), (6, "2,6"), (7, "3,7")]
        {
            t.cpu(cpu, sib);
        }
        let h = from_sysfs(&t.0).unwrap();
        assert_eq!((h.machine.nodes, h.machine.cores_per_node, h.machine.threads_per_core), (2, 2, 2));
        assert_eq!(h.host_cpu, vec![0, 4, 1, 5, 2, 6, 3, 7]);
        assert_eq!(h.machine.distance, vec![vec![10, 21], vec![21, 10]]);
        assert_eq!(h.model_cpu(6), Some(5));
        assert!(!h.is_identity());
    }

    #[test]
    fn no_node_directory_is_one_node_and_offline_cpus_are_left_out() {
        let t = Tree::new("flat");
        t.put("cpu/online", "0-1,3\n");
        for cpu in [0, 1, 3] {
            t.cpu(cpu, &cpu.to_string());
        }
        let h = from_sysfs(&t.0).unwrap();
        assert_eq!((h.machine.nodes, h.machine.cores_per_node, h.machine.threads_per_core), (1, 3, 1));
        assert_eq!(h.host_cpu, vec![0, 1, 3]);
    }

    #[test]
    fn memory_only_nodes_drop_out_of_the_distances() {
        let t = Tree::new("memnode");
        t.put("cpu/online", "0-1\n");
        t.put("node/node0/cpulist", "0\n");
        t.put("node/node1/cpulist", "\n");
        t.put("node/node2/cpulist", "1\n");
        t.put("node/node0/distance", "10 20 30\n");
        t.put("node/node1/distance", "20 10 20\n");
        t.put("node/node2/distance", "30 20 10\n");
        t.cpu(0, "0");
        t.cpu(1, "1");
        let h = from_sysfs(&t.0).unwrap();
        assert_eq!(h.machine.distance, vec![vec![10, 30], vec![30, 10]]);
    }

    #[test]
    fn uneven_cores_are_refused_with_the_reason() {
        let t = Tree::new("uneven");
        t.put("cpu/online", "0-2\n");
        t.cpu(0, "0-1");
        t.cpu(1, "0-1");
        t.cpu(2, "2");
        let err = from_sysfs(&t.0).unwrap_err();
        assert!(err.contains("hardware threads"), "{err}");
    }

    #[test]
    fn this_host_reads_when_sysfs_is_there() {
        // A host the model cannot describe (hybrid cores…) is refused with the reason.
        match read_host() {
            Ok(h) => assert_eq!(h.machine.nr_cpus() as usize, h.host_cpu.len()),
            Err(e) => assert!(e.contains("differ") || e.contains("cannot read") || e.contains("limits"), "{e}"),
        }
    }
}

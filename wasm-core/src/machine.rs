//! The machine: packages, NUMA nodes, cores, SMT threads and the node
//! distance matrix (ACPI SLIT), plus the built-in machine presets.
//!
//! A package (socket) holds `nodes_per_package` consecutive nodes: one on an
//! Intel Xeon, two on the AMD Opteron 6272 (two dies in one socket). The
//! scheduler's domains never span a package in 4.1 (its DIE level is the
//! node), but whether a package spans several nodes decides which x86
//! topology table 4.1 uses, and so whether a hotplug rebuild loses the NUMA
//! levels (`topology::table`).
//!
//! CPU numbering is node-major then core then thread:
//! `cpu = node × cores_per_node × threads_per_core + core × threads_per_core + thread`,
//! so SMT siblings are adjacent (as the paper's Opteron numbers its module
//! pairs) and each node's CPUs form one contiguous range.
//!
//! ```text
//!   node 0: core 0 [cpu0 cpu1]  core 1 [cpu2 cpu3] ...   (threads_per_core = 2)
//!   node 1: ...
//! ```

use crate::time::CpuId;

/// The host's topology from sysfs (native only: the CLI's preset "host").
#[cfg(not(target_arch = "wasm32"))]
pub mod host;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Machine {
    pub name: String,
    pub nodes: u32,
    pub cores_per_node: u32,
    pub threads_per_core: u32,
    /// distance[i][j] between nodes; 10 on the diagonal.
    pub distance: Vec<Vec<u32>>,
    /// Nodes in one package (divides `nodes`); 1 when the machine says nothing.
    pub nodes_per_package: u32,
}

/// The preset name of the machine the native CLI runs on (`Machine::host`).
pub const HOST_PRESET: &str = "host";

/// Hard limit on machine size (bad-input rule: no runaway runs).
pub const MAX_CPUS: u32 = 1024;

impl Machine {
    pub fn nr_cpus(&self) -> u32 {
        self.nodes * self.cores_per_node * self.threads_per_core
    }

    pub fn cpus_per_node(&self) -> u32 {
        self.cores_per_node * self.threads_per_core
    }

    pub fn node_of(&self, cpu: CpuId) -> u32 {
        cpu.0 / self.cpus_per_node()
    }

    pub fn core_of(&self, cpu: CpuId) -> u32 {
        cpu.0 / self.threads_per_core
    }

    /// The SMT siblings of `cpu`, itself included.
    pub fn smt_siblings(&self, cpu: CpuId) -> impl Iterator<Item = CpuId> + Clone {
        let first = self.core_of(cpu) * self.threads_per_core;
        (first..first + self.threads_per_core).map(CpuId)
    }

    /// The CPUs of NUMA node `node`, in increasing order.
    pub fn node_cpus(&self, node: u32) -> impl Iterator<Item = CpuId> + Clone {
        let n = self.cpus_per_node();
        (node * n..(node + 1) * n).map(CpuId)
    }

    /// The package (`phys_proc_id`) of `cpu`.
    pub fn package_of(&self, cpu: CpuId) -> u32 {
        self.node_of(cpu) / self.nodes_per_package.max(1)
    }

    pub fn packages(&self) -> u32 {
        self.nodes / self.nodes_per_package.max(1)
    }

    /// A machine whose nodes are all at `remote` distance from each other.
    pub fn uniform(name: &str, nodes: u32, cores_per_node: u32, threads_per_core: u32, remote: u32) -> Machine {
        let distance = (0..nodes).map(|i| (0..nodes).map(|j| if i == j { 10 } else { remote }).collect()).collect();
        Machine { name: name.to_string(), nodes, cores_per_node, threads_per_core, distance, nodes_per_package: 1 }
    }

    /// The names of the built-in machines.
    pub fn preset_names() -> &'static [&'static str] {
        &["uniprocessor", "laptop-2c4t", "xeon-gold-5218-2s", "opteron-6272-8n"]
    }

    /// The machine the native CLI runs on (preset `"host"`, not among
    /// `preset_names`: it is not a fixed machine), read from sysfs and mapped
    /// to this numbering (`machine::host`). Refused in the browser.
    pub fn host() -> Result<Machine, String> {
        #[cfg(not(target_arch = "wasm32"))]
        {
            host::read_host().map(|h| h.machine)
        }
        #[cfg(target_arch = "wasm32")]
        {
            Err("the host machine exists only for the native CLI".into())
        }
    }

    pub fn preset(name: &str) -> Option<Machine> {
        Some(match name {
            "uniprocessor" => Machine::uniform(name, 1, 1, 1, 10),
            // The DW-CFS paper's platform: 2 cores × 2 hardware threads.
            "laptop-2c4t" => Machine::uniform(name, 1, 2, 2, 10),
            // The Group Identity article's machine: 2 sockets × 16 cores × 2 threads.
            "xeon-gold-5218-2s" => Machine::uniform(name, 2, 16, 2, 21),
            // The Wasted Cores paper's AMD Bulldozer box: 8 nodes × 8 cores, the
            // two cores of a module as SMT siblings, the SLIT reconstructed in
            // kernel-model.md 4.2 (1 hop = 16, 2 hops = 22); four sockets of
            // two dies, each die a node.
            "opteron-6272-8n" => Machine {
                name: name.to_string(),
                nodes: 8,
                cores_per_node: 4,
                threads_per_core: 2,
                distance: opteron_slit(),
                nodes_per_package: 2,
            },
            _ => return None,
        })
    }
}

/// Node distances of the 8-node Opteron 6272 as reconstructed in
/// shared/reference/kernel-model.md section 4.2 (configurable by scenarios).
fn opteron_slit() -> Vec<Vec<u32>> {
    const D: [[u32; 8]; 8] = [
        [10, 16, 16, 22, 16, 22, 16, 22],
        [16, 10, 22, 16, 22, 16, 22, 16],
        [16, 22, 10, 16, 16, 22, 16, 22],
        [22, 16, 16, 10, 16, 16, 22, 16],
        [16, 22, 16, 16, 10, 16, 16, 22],
        [22, 16, 22, 16, 16, 10, 22, 16],
        [16, 22, 16, 22, 16, 22, 10, 16],
        [22, 16, 22, 16, 22, 16, 16, 10],
    ];
    D.iter().map(|r| r.to_vec()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presets_have_the_documented_sizes() {
        let n: Vec<u32> = Machine::preset_names().iter().map(|p| Machine::preset(p).unwrap().nr_cpus()).collect();
        assert_eq!(n, vec![1, 4, 64, 64]);
    }

    #[test]
    fn siblings_are_adjacent() {
        let m = Machine::preset("opteron-6272-8n").unwrap();
        assert_eq!(m.smt_siblings(CpuId(5)).collect::<Vec<_>>(), [CpuId(4), CpuId(5)]);
        assert_eq!(m.node_of(CpuId(9)), 1);
        assert!(m.node_cpus(2).map(|c| c.0).eq(16..24));
        assert_eq!((m.package_of(CpuId(15)), m.package_of(CpuId(16)), m.packages()), (0, 1, 4));
    }
}

//! Configurations for the engine's own unit tests, built without the
//! scenario reader (`api` sits above `sim`; `tests/it/module_layers.rs`).

use crate::config::{BugSwitches, CostModel, PolicyConfig, PreemptModel, ProcessSpec, SimConfig, DEFAULT_EVENT_BUDGET};
use crate::program::{Dist, Op};
use crate::sched::tunables::{CfsFeatures, CfsKnobs};
use crate::time::CpuId;
use crate::topology::cpumask::CpuMask;

/// A thread that runs `run_ns` at a time for ever, on `cpus` (None = all).
pub(crate) fn hog(name: &str, run_ns: u64, cpus: Option<&[CpuId]>) -> ProcessSpec {
    ProcessSpec {
        name: name.into(),
        nice: 0,
        sched_policy: Default::default(),
        rt_priority: 0,
        dl: None,
        threads: 1,
        start_ns: 0,
        program: vec![Op::Repeat { times: None, body: vec![Op::Run(Dist::Fixed(run_ns))] }],
        affinity: cpus.map(|c| CpuMask::from_cpus(c.iter().copied())),
        session: None,
        cgroup: None,
        job_pool: 0,
        address_space: None,
    }
}

/// Linux 4.1's defaults under CFS on `nodes` × `cores` × `threads` CPUs (remote nodes at distance 20).
pub(crate) fn config(
    nodes: u32,
    cores: u32,
    threads: u32,
    hz: u32,
    autogroup: bool,
    processes: Vec<ProcessSpec>,
) -> SimConfig {
    SimConfig {
        name: "unit".into(),
        kernel: crate::config::Kernel::Linux41,
        seed: 1,
        duration_ns: 100_000_000,
        hz,
        machine: crate::machine::Machine::uniform("unit", nodes, cores, threads, 20),
        knobs: CfsKnobs::linux_4_1(),
        features: CfsFeatures::linux_4_1(),
        policy: PolicyConfig::cfs(),
        bugs: BugSwitches::linux_4_1(),
        autogroup,
        pi_mutexes: false,
        costs: CostModel::defaults(),
        nohz: true,
        preempt: PreemptModel::Voluntary,
        sanity: None,
        cgroups: Vec::new(),
        processes,
        events: Vec::new(),
        event_budget: DEFAULT_EVENT_BUDGET,
    }
}

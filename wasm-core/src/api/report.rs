//! The metrics report (`schedsim run --json`, `metrics_json` in wasm).

use crate::sim::Simulator;
use serde::Serialize;

#[derive(Serialize, Debug)]
pub struct Report {
    pub scenario: String,
    pub seed: u64,
    pub sim_time_ns: u64,
    pub events: u64,
    pub trace_hash: String,
    pub cpus: Vec<CpuReport>,
    pub processes: Vec<ProcessReport>,
}

#[derive(Serialize, Debug)]
pub struct CpuReport {
    pub cpu: u32,
    pub busy_ns: u64,
    pub idle_ns: u64,
}

#[derive(Serialize, Debug)]
pub struct ProcessReport {
    pub tgid: u32,
    pub name: String,
    pub threads: usize,
    pub cpu_time_ns: u64,
    /// CPU time over (elapsed time × CPUs): the fraction of the machine used.
    pub share: f64,
    pub wait_time_ns: u64,
    pub nvcsw: u64,
    pub nivcsw: u64,
}

pub fn report(sim: &Simulator) -> Report {
    let now = sim.now();
    let capacity = now.ns() as f64 * sim.rqs().len() as f64;
    let tasks = sim.tasks();
    let processes = sim
        .processes()
        .iter()
        .map(|p| {
            let threads = p.threads.iter().map(|&pid| &tasks[pid as usize]);
            let cpu_time_ns: u64 = threads.clone().map(|t| t.se.sum_exec_runtime).sum();
            ProcessReport {
                tgid: p.tgid,
                name: p.name.clone(),
                threads: p.threads.len(),
                cpu_time_ns,
                share: if capacity > 0.0 { cpu_time_ns as f64 / capacity } else { 0.0 },
                wait_time_ns: threads.clone().map(|t| t.stats.wait_ns_at(now)).sum(),
                nvcsw: threads.clone().map(|t| t.stats.nvcsw).sum(),
                nivcsw: threads.map(|t| t.stats.nivcsw).sum(),
            }
        })
        .collect();
    Report {
        scenario: sim.name().to_string(),
        seed: sim.seed(),
        sim_time_ns: now.ns(),
        events: sim.events_processed(),
        trace_hash: format!("{:016x}", sim.trace().hash()),
        cpus: sim
            .rqs()
            .iter()
            .map(|rq| CpuReport { cpu: rq.cpu, busy_ns: rq.busy_ns_at(now), idle_ns: rq.idle_ns_at(now) })
            .collect(),
        processes,
    }
}

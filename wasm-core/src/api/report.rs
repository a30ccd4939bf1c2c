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
    /// Σ over CPUs of time idle while a thread allowed there was waiting.
    pub wasted_core_ns: u64,
    /// The longest unbroken stretch one CPU idled while a thread allowed
    /// there waited elsewhere: (cpu, from ns, length ns), if any.
    pub longest_wasted_idle: Option<(u32, u64, u64)>,
    /// Set when the run stopped early because it spent its event budget: the
    /// simulated time it stopped at (ns).
    pub event_budget_stop_ns: Option<u64>,
    /// Load averages (1, 5, 15 minutes), the kernel's fixed-point formula.
    pub loadavg: [f64; 3],
    /// Jain's fairness index over the threads' CPU times (1 = all equal).
    pub jain_fairness_threads: f64,
    pub migrations: u64,
    pub balance_decisions: u64,
    /// The sanity checker's reports: when detected and confirmed (ns), the
    /// idle CPUs and the waiting threads (the first 4,096 reports, each
    /// naming at most 64 CPUs and 64 threads; the totals count them all).
    pub sanity_violations: Vec<ViolationReport>,
    pub sanity_violations_total: u64,
    pub cpus: Vec<CpuReport>,
    pub processes: Vec<ProcessReport>,
}

#[derive(Serialize, Debug)]
pub struct ViolationReport {
    pub detected_ns: u64,
    pub confirmed_ns: u64,
    pub idle_cpus: Vec<u32>,
    pub idle_cpus_total: usize,
    pub waiting_threads: Vec<String>,
    pub waiting_threads_total: usize,
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
    pub migrations: u64,
    /// When the last thread exited, from the process start (None if running).
    pub completion_ns: Option<u64>,
    /// Wakeup latency percentiles (wakeup to running), ns: p50, p90, p99, max.
    pub wakeup_latency_ns: Option<[u64; 4]>,
}

/// Jain's index (Σx)² / (n·Σx²).
pub fn jain(xs: &[f64]) -> f64 {
    let sum: f64 = xs.iter().sum();
    let sq: f64 = xs.iter().map(|x| x * x).sum();
    if sq == 0.0 {
        1.0
    } else {
        sum * sum / (xs.len() as f64 * sq)
    }
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
                nivcsw: threads.clone().map(|t| t.stats.nivcsw).sum(),
                migrations: threads.clone().map(|t| t.stats.migrations).sum(),
                completion_ns: threads
                    .clone()
                    .map(|t| t.stats.exited_at)
                    .collect::<Option<Vec<_>>>()
                    .and_then(|ends| ends.into_iter().max())
                    .map(|end| end.since(p.start_at)),
                wakeup_latency_ns: {
                    let lat = &p.wakeup_latency;
                    (!lat.is_empty()).then(|| {
                        let q = lat.percentiles(&[50.0, 90.0, 99.0]);
                        [q[0], q[1], q[2], lat.max()]
                    })
                },
            }
        })
        .collect();
    Report {
        scenario: sim.name().to_string(),
        seed: sim.seed(),
        sim_time_ns: now.ns(),
        events: sim.events_processed(),
        trace_hash: format!("{:016x}", sim.trace().hash()),
        wasted_core_ns: sim.machine_stats().wasted_core_ns,
        event_budget_stop_ns: sim.budget_stop().map(|t| t.ns()),
        longest_wasted_idle: sim.machine_stats().longest_wasted_idle.map(|l| (l.cpu, l.from.ns(), l.ns)),
        loadavg: sim.machine_stats().loadavg_f64(),
        jain_fairness_threads: jain(&tasks.iter().map(|t| t.se.sum_exec_runtime as f64).collect::<Vec<_>>()),
        migrations: tasks.iter().map(|t| t.stats.migrations).sum(),
        balance_decisions: sim.decisions_total(),
        sanity_violations: sim
            .sanity_violations()
            .iter()
            .map(|v| ViolationReport {
                detected_ns: v.detected.ns(),
                confirmed_ns: v.confirmed.ns(),
                idle_cpus: v.idle_cpus.clone(),
                idle_cpus_total: v.idle_cpus_total,
                waiting_threads: v.waiting.iter().map(|&p| tasks[p as usize].name.clone()).collect(),
                waiting_threads_total: v.waiting_total,
            })
            .collect(),
        sanity_violations_total: sim.sanity_violations_total(),
        cpus: sim
            .rqs()
            .iter()
            .map(|rq| CpuReport { cpu: rq.cpu, busy_ns: rq.busy_ns_at(now), idle_ns: rq.idle_ns_at(now) })
            .collect(),
        processes,
    }
}

//! A simulation's report, read at its current time: the figures the engine
//! kept (CPU times, waits, switches, migrations, latencies, wasted time,
//! violations), Jain's fairness index over the threads, and the run's notes.

use super::notes::notes;
use super::run_report::{CpuReport, ProcessReport, Report};
use super::schedstat::schedstats;
use super::violation::ViolationReport;
use crate::sim::dl::state::DlState;
use crate::sim::Simulator;
use crate::time::Pid;

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

/// The deadlines `pid`'s server missed (none if it is no deadline task).
fn dl_misses(sim: &Simulator, pid: Pid) -> u64 {
    let ent = sim.class_state::<DlState>().and_then(|st| st.ents.get(pid.idx())?.as_ref());
    ent.map_or(0, |e| e.misses)
}

/// The whole report, every CPU's schedstats included (the CLI and exports).
pub fn report(sim: &Simulator) -> Report {
    report_parts(sim, true)
}

/// The report the lab's frames carry: without the schedstats, which the page
/// reads for its selected CPU alone (`schedstat::cpu_schedstat`).
pub fn page_report(sim: &Simulator) -> Report {
    report_parts(sim, false)
}

fn report_parts(sim: &Simulator, with_schedstat: bool) -> Report {
    let now = sim.now();
    let capacity = now.ns() as f64 * sim.rqs().len() as f64;
    let tasks = sim.tasks();
    let processes = sim
        .processes()
        .iter()
        .map(|p| {
            let threads = p.threads.iter().map(|&pid| &tasks[pid.idx()]);
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
                longest_run_ns: threads.clone().map(|t| t.stats.longest_run_ns).max().unwrap_or(0),
                migrations: threads.clone().map(|t| t.stats.migrations).sum(),
                timer_overruns: threads.clone().map(|t| t.stats.timer_overruns).sum(),
                deadline_misses: p.threads.iter().map(|&pid| dl_misses(sim, pid)).sum(),
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
        notes: notes(sim),
        longest_wasted_idle: sim.machine_stats().longest_wasted_idle.map(|l| (l.cpu, l.from.ns(), l.ns)),
        loadavg: sim.machine_stats().loadavg_f64(),
        jain_fairness_threads: jain(&tasks.iter().map(|t| t.se.sum_exec_runtime as f64).collect::<Vec<_>>()),
        migrations: sim.machine_stats().migrations,
        balance_decisions: sim.decisions_total(),
        sanity_violations: sim.sanity_violations().iter().map(|v| ViolationReport::of_sim(v, tasks)).collect(),
        sanity_violations_total: sim.sanity_violations_total(),
        cpus: sim
            .rqs()
            .iter()
            .map(|rq| CpuReport { cpu: rq.cpu, busy_ns: rq.busy_ns_at(now), idle_ns: rq.idle_ns_at(now) })
            .collect(),
        processes,
        schedstat: if with_schedstat { schedstats(sim) } else { Vec::new() },
        exercise: None,
    }
}

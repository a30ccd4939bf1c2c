//! The metrics report (`schedsim run --json`, `metrics_json` in wasm) and
//! its text form (`schedsim run`).

use super::text::escape_controls as shown;
use crate::config::MAX_THREADS;
use crate::program::MAX_ZERO_TIME_STEPS;
use crate::sim::notes::HotplugIgnored;
use crate::sim::Simulator;
use crate::time::{CpuId, Pid, SimTime};
use serde::Serialize;

#[derive(Serialize, Debug)]
#[cfg_attr(any(test, feature = "gen"), derive(ts_rs::TS))]
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
    pub longest_wasted_idle: Option<(CpuId, u64, u64)>,
    /// Set when the run stopped early because it spent its event budget: the
    /// simulated time it stopped at (ns).
    pub event_budget_stop_ns: Option<u64>,
    /// What the run did that the scenario did not ask for (threads ended
    /// for never taking time, forks refused at the thread limit, hotplug
    /// events not carried out), one sentence each; empty in a normal run.
    pub notes: Vec<String>,
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
    /// 4.1's schedstat counters per CPU and per domain (`schedsim run --schedstat` prints them as
    /// /proc/schedstat); empty in `page_report`.
    pub schedstat: Vec<super::schedstat::CpuSchedstat>,
    /// The scenario's exercise judged from these figures (`api::exercise`);
    /// the simulator does not hold the scenario's exercise, so whoever has
    /// both sets it (`with_exercise`).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(any(test, feature = "gen"), ts(optional))]
    pub exercise: Option<super::exercise::Verdict>,
}

#[derive(Serialize, Debug)]
#[cfg_attr(any(test, feature = "gen"), derive(ts_rs::TS))]
pub struct ViolationReport {
    pub detected_ns: u64,
    pub confirmed_ns: u64,
    pub idle_cpus: Vec<CpuId>,
    pub idle_cpus_total: usize,
    pub waiting_threads: Vec<String>,
    pub waiting_threads_total: usize,
}

#[derive(Serialize, Debug)]
#[cfg_attr(any(test, feature = "gen"), derive(ts_rs::TS))]
pub struct CpuReport {
    pub cpu: CpuId,
    pub busy_ns: u64,
    pub idle_ns: u64,
}

#[derive(Serialize, Debug, Clone)]
#[cfg_attr(any(test, feature = "gen"), derive(ts_rs::TS))]
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

/// The run's notes (`sim::notes`) as sentences.
pub fn notes(sim: &Simulator) -> Vec<String> {
    let n = sim.notes();
    let name = |pid: Pid| sim.tasks().get(pid.idx()).map_or("?", |t| t.name.as_str()).to_string();
    let cases = |list: &[(Pid, SimTime)], count: u64| {
        let shown: Vec<String> =
            list.iter().map(|&(pid, at)| format!("{} at {:.3} ms", shown(&name(pid)), ms(at.ns()))).collect();
        let more = count.saturating_sub(list.len() as u64);
        if more > 0 {
            format!("{} and {more} more", shown.join(", "))
        } else {
            shown.join(", ")
        }
    };
    let mut out = Vec::new();
    if n.stalled_count > 0 {
        out.push(format!(
            "{} thread(s) ended because their program made {MAX_ZERO_TIME_STEPS} steps in a row that took no time \
             (zero-length runs or sleeps, or calls that return at once): {}",
            n.stalled_count,
            cases(&n.stalled, n.stalled_count)
        ));
    }
    if n.forks_refused_count > 0 {
        out.push(format!(
            "{} fork(s) failed: the run had made its limit of {MAX_THREADS} threads; as fork() fails with EAGAIN, \
             the program went on without a child: {}",
            n.forks_refused_count,
            cases(&n.forks_refused, n.forks_refused_count)
        ));
    }
    for &(at, what) in &n.hotplug_ignored {
        let why = match what {
            HotplugIgnored::AlreadyOffline(cpu) => format!("CPU {cpu} offline not done: it was not online"),
            HotplugIgnored::LastOnline(cpu) => format!("CPU {cpu} offline not done: it was the last online CPU"),
            HotplugIgnored::AlreadyOnline(cpu) => format!("CPU {cpu} online not done: it was not offline"),
        };
        out.push(format!("at {:.3} ms: {why}", ms(at.ns())));
    }
    let more = n.hotplug_ignored_count.saturating_sub(n.hotplug_ignored.len() as u64);
    if more > 0 {
        out.push(format!("{more} more hotplug event(s) not done"));
    }
    if let Some((at, why)) = &n.policy_fallback {
        out.push(format!("at {:.3} ms: sched_ext {why}", ms(at.ns())));
    }
    if let Some((at, why)) = &n.policy_error {
        out.push(format!("at {:.3} ms: the sched_ext policy failed and the run stopped there: {why}", ms(at.ns())));
    }
    out
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
        notes: notes(sim),
        longest_wasted_idle: sim.machine_stats().longest_wasted_idle.map(|l| (l.cpu, l.from.ns(), l.ns)),
        loadavg: sim.machine_stats().loadavg_f64(),
        jain_fairness_threads: jain(&tasks.iter().map(|t| t.se.sum_exec_runtime as f64).collect::<Vec<_>>()),
        migrations: sim.machine_stats().migrations,
        balance_decisions: sim.decisions_total(),
        sanity_violations: sim
            .sanity_violations()
            .iter()
            .map(|v| ViolationReport {
                detected_ns: v.detected.ns(),
                confirmed_ns: v.confirmed.ns(),
                idle_cpus: v.idle_cpus.clone(),
                idle_cpus_total: v.idle_cpus_total,
                waiting_threads: v.waiting.iter().map(|&p| tasks[p.idx()].name.clone()).collect(),
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
        schedstat: if with_schedstat { super::schedstat::schedstats(sim) } else { Vec::new() },
        exercise: None,
    }
}

/// The report with the scenario's exercise (if any) judged from its figures.
pub fn with_exercise(mut r: Report, ex: Option<&super::exercise::ExerciseFile>, sim: &Simulator) -> Report {
    r.exercise = ex.map(|ex| super::exercise::verdict(ex, &r, sim.finished(), sim.duration().ns()));
    r
}

fn ms(ns: u64) -> f64 {
    ns as f64 / 1e6
}

/// The report as text for a terminal (`schedsim run`), with the wall time the
/// run took; names are shown with their control characters escaped
/// (validation refuses them; this is the second guard).
pub fn text_report(r: &Report, wall_ms: f64) -> String {
    let mut out = format!(
        "scenario {} (seed {}): {:.3} ms simulated, {} events, {:.1} ms wall, trace {}\n\n",
        shown(&r.scenario),
        r.seed,
        ms(r.sim_time_ns),
        r.events,
        wall_ms,
        r.trace_hash
    );
    out += &format!(
        "wasted core time {:.3} ms, migrations {}, balance decisions {}, load average {:.2} {:.2} {:.2}, Jain fairness (threads) {:.4}\n\n",
        ms(r.wasted_core_ns),
        r.migrations,
        r.balance_decisions,
        r.loadavg[0],
        r.loadavg[1],
        r.loadavg[2],
        r.jain_fairness_threads
    );
    if let Some(at) = r.event_budget_stop_ns {
        out += &format!("stopped early at {:.3} ms: the run used up its event budget ({} events)\n", ms(at), r.events);
    }
    for note in &r.notes {
        out += &format!("note: {}\n", shown(note));
    }
    if let Some((cpu, from, ns)) = r.longest_wasted_idle {
        out +=
            &format!("longest a CPU idled while work waited: CPU {cpu} for {:.3} ms from {:.3} ms\n", ms(ns), ms(from));
    }
    if let Some(v) = &r.exercise {
        out += &super::exercise::verdict_line(v);
        out += "\n";
    }
    out += &format!("sanity checker: {} violation(s)\n", r.sanity_violations.len());
    for v in r.sanity_violations.iter().take(5) {
        out += &format!(
            "  at {:.3} ms (confirmed {:.3} ms): CPUs {:?} idle while {} thread(s) wait, e.g. {}\n",
            ms(v.detected_ns),
            ms(v.confirmed_ns),
            v.idle_cpus,
            v.waiting_threads.len(),
            shown(v.waiting_threads.first().map_or("-", String::as_str))
        );
    }
    out += "\n";
    out += &process_table(&r.processes);
    out += "\ncpu      busy ms      idle ms\n";
    for c in &r.cpus {
        out += &format!("{:<4} {:>12.3} {:>12.3}\n", c.cpu, ms(c.busy_ns), ms(c.idle_ns));
    }
    out.trim_end().to_string()
}

/// The report's table of processes (CPU time and share, wait, switches, migrations, completion, p99 wakeup
/// latency), one row each, names escaped; `schedsim real` prints the host kernel's run with it too.
pub fn process_table(processes: &[ProcessReport]) -> String {
    let mut out = format!(
        "{:<24} {:>7} {:>12} {:>8} {:>12} {:>8} {:>8} {:>6} {:>12} {:>10}\n",
        "process", "threads", "cpu ms", "share", "wait ms", "nvcsw", "nivcsw", "migr", "done at ms", "p99 wake"
    );
    for p in processes {
        let done = p.completion_ns.map_or("-".to_string(), |c| format!("{:.3}", ms(c)));
        let p99 = p.wakeup_latency_ns.map_or("-".to_string(), |l| format!("{:.1}us", l[2] as f64 / 1e3));
        out += &format!(
            "{:<24} {:>7} {:>12.3} {:>7.2}% {:>12.3} {:>8} {:>8} {:>6} {:>12} {:>10}\n",
            shown(&p.name),
            p.threads,
            ms(p.cpu_time_ns),
            p.share * 100.0,
            ms(p.wait_time_ns),
            p.nvcsw,
            p.nivcsw,
            p.migrations,
            done,
            p99
        );
    }
    out
}

//! The report as a terminal shows it (`schedsim run`; `schedsim real` prints
//! its process table too). Names are shown with their control characters
//! escaped: validation refuses them, and this is the second guard.

use super::run_report::{ProcessReport, Report};
use super::verdict::verdict_line;
use crate::api::text::escape_controls as shown;

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
        out += &verdict_line(v);
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
    let late: Vec<String> = r
        .processes
        .iter()
        .filter(|p| p.timer_overruns > 0)
        .map(|p| format!("{} {}", shown(&p.name), p.timer_overruns))
        .collect();
    if !late.is_empty() {
        out += &format!("timer overruns (a period over before its timer step): {}\n", late.join(", "));
    }
    let missed: Vec<String> = r
        .processes
        .iter()
        .filter(|p| p.deadline_misses > 0)
        .map(|p| format!("{} {}", shown(&p.name), p.deadline_misses))
        .collect();
    if !missed.is_empty() {
        out += &format!("deadline misses (a server's deadline passed with runtime owed): {}\n", missed.join(", "));
    }
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

/// Nanoseconds as milliseconds.
pub(super) fn ms(ns: u64) -> f64 {
    ns as f64 / 1e6
}

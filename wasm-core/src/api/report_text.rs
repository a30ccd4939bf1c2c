//! The report's tables as text (`schedsim run`, and `schedsim real` for the
//! host kernel's run, so the two read alike).

use super::report::ProcessReport;

fn ms(ns: u64) -> f64 {
    ns as f64 / 1e6
}

/// One row per process: CPU time and share, wait, switches, migrations, completion, p99 wakeup latency.
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
            p.name,
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

//! The metrics report as CSV for spreadsheets (`metrics_csv` in wasm,
//! `schedsim run FILE --csv`): three tables one after the other, separated by
//! a blank line — the headline figures (metric,value), one row per process,
//! one row per CPU.
//!
//! Names come from scenario files, which are untrusted: control characters
//! (line breaks, tabs, ESC…; validation refuses them in names) are written as
//! escapes (`\n`, `\u{1b}`), every text cell is quoted when it holds a comma
//! or quote (RFC 4180), and a cell that a spreadsheet would read as a formula
//! (leading `=`, `+`, `-`, `@`) is prefixed with `'` (OWASP's advice for CSV
//! injection; a leading tab or carriage return is already an escape). Numbers
//! are written by us and never prefixed.

use crate::api::report::report;
use crate::api::text::escape_controls;
use crate::sim::Simulator;

/// One text cell, escaped, defused and quoted as needed.
pub fn text_cell(s: &str) -> String {
    // Control characters never reach the file: a line break would start a
    // row for any line-based reader, an ESC would drive a terminal.
    let s = escape_controls(s);
    let defused = if s.starts_with(['=', '+', '-', '@']) { format!("'{s}") } else { s.into_owned() };
    if defused.contains([',', '"']) {
        format!("\"{}\"", defused.replace('"', "\"\""))
    } else {
        defused
    }
}

fn ms(ns: u64) -> String {
    format!("{:.6}", ns as f64 / 1e6)
}

fn us(ns: u64) -> String {
    format!("{:.3}", ns as f64 / 1e3)
}

fn opt(v: Option<String>) -> String {
    v.unwrap_or_default()
}

pub fn metrics_csv(sim: &Simulator) -> String {
    let r = report(sim);
    let mut out = String::from("metric,value\n");
    let mut row = |k: &str, v: String| {
        out.push_str(k);
        out.push(',');
        out.push_str(&v);
        out.push('\n');
    };
    row("scenario", text_cell(&r.scenario));
    row("seed", r.seed.to_string());
    row("sim_time_ms", ms(r.sim_time_ns));
    row("events", r.events.to_string());
    row("trace_hash", r.trace_hash.clone());
    row("wasted_core_ms", ms(r.wasted_core_ns));
    row("longest_wasted_idle_ms", opt(r.longest_wasted_idle.map(|(_, _, ns)| ms(ns))));
    row("longest_wasted_idle_cpu", opt(r.longest_wasted_idle.map(|(cpu, _, _)| cpu.to_string())));
    row("migrations", r.migrations.to_string());
    row("balance_decisions", r.balance_decisions.to_string());
    row("sanity_violations", r.sanity_violations.len().to_string());
    row("loadavg_1", format!("{:.4}", r.loadavg[0]));
    row("loadavg_5", format!("{:.4}", r.loadavg[1]));
    row("loadavg_15", format!("{:.4}", r.loadavg[2]));
    row("jain_fairness_threads", format!("{:.6}", r.jain_fairness_threads));
    row("event_budget_stop_ms", opt(r.event_budget_stop_ns.map(ms)));
    for note in &r.notes {
        row("note", text_cell(note));
    }

    out.push_str(
        "\nprocess,tgid,threads,completion_ms,cpu_time_ms,share,wait_ms,wakeups,\
         wakeup_p50_us,wakeup_p95_us,wakeup_p99_us,wakeup_max_us,nvcsw,nivcsw,migrations\n",
    );
    for (p, proc_) in r.processes.iter().zip(sim.processes()) {
        let lat = &proc_.wakeup_latency;
        // One sort of the samples for all four figures.
        let qs = lat.percentiles(&[50.0, 95.0, 99.0, 100.0]);
        let q = |k: usize| if lat.is_empty() { String::new() } else { us(qs[k]) };
        let cells = [
            text_cell(&p.name),
            p.tgid.to_string(),
            p.threads.to_string(),
            opt(p.completion_ns.map(ms)),
            ms(p.cpu_time_ns),
            format!("{:.6}", p.share),
            ms(p.wait_time_ns),
            lat.len().to_string(),
            q(0),
            q(1),
            q(2),
            q(3),
            p.nvcsw.to_string(),
            p.nivcsw.to_string(),
            p.migrations.to_string(),
        ];
        out.push_str(&cells.join(","));
        out.push('\n');
    }

    out.push_str("\ncpu,busy_ms,idle_ms,busy_share\n");
    for c in &r.cpus {
        let total = c.busy_ns + c.idle_ns;
        let share = if total > 0 { c.busy_ns as f64 / total as f64 } else { 0.0 };
        out.push_str(&format!("{},{},{},{:.6}\n", c.cpu, ms(c.busy_ns), ms(c.idle_ns), share));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::scenario::load_scenario;

    #[test]
    fn cells_are_quoted_and_formulas_defused() {
        assert_eq!(text_cell("plain"), "plain");
        assert_eq!(text_cell("a,b"), "\"a,b\"");
        assert_eq!(text_cell("say \"hi\""), "\"say \"\"hi\"\"\"");
        assert_eq!(text_cell("two\nlines"), "two\\nlines");
        assert_eq!(text_cell("\tx\u{1b}[2J,y"), "\"\\tx\\u{1b}[2J,y\"");
        assert_eq!(text_cell("=HYPERLINK(\"x\")"), "\"'=HYPERLINK(\"\"x\"\")\"");
        assert_eq!(text_cell("+1"), "'+1");
        assert_eq!(text_cell("-cmd"), "'-cmd");
        assert_eq!(text_cell("@SUM(A1)"), "'@SUM(A1)");
        assert_eq!(text_cell("a=b"), "a=b");
    }

    #[test]
    fn tables_match_the_report() {
        let p = crate::api::presets::find("cfs-nice-levels").unwrap();
        let mut cfg = load_scenario(p.json).unwrap();
        // Validation refuses '/' in a process name; the CSV defuses whatever names the engine holds.
        let hog = cfg.processes.iter_mut().find(|p| p.name == "hog-nice0").unwrap();
        hog.name = "=cmd|' /C calc'!A0,x".into();
        let mut sim = Simulator::new(&cfg);
        sim.run_until(crate::time::SimTime(1_000_000_000));
        let csv = metrics_csv(&sim);
        let tables: Vec<&str> = csv.trim_end().split("\n\n").collect();
        assert_eq!(tables.len(), 3);
        let procs: Vec<&str> = tables[1].lines().collect();
        let header: Vec<&str> = procs[0].split(',').collect();
        assert_eq!(header.len(), 15);
        assert_eq!(procs.len(), 1 + sim.processes().len());
        assert!(procs[1].starts_with("\"'=cmd|' /C calc'!A0,x\","), "{}", procs[1]);
        // The sleeper is woken: its percentiles are filled and ordered.
        let sleeper: Vec<&str> = procs.iter().find(|l| l.starts_with("sleeper,")).unwrap().split(',').collect();
        let p: Vec<f64> = (8..12).map(|i| sleeper[i].parse().unwrap()).collect();
        assert!(p[3] > 0.0 && p.windows(2).all(|w| w[0] <= w[1]), "{p:?}");
        let rep = report(&sim);
        let cpu_ms: f64 = sleeper[4].parse().unwrap();
        let want = rep.processes.iter().find(|p| p.name == "sleeper").unwrap().cpu_time_ns as f64 / 1e6;
        assert!((cpu_ms - want).abs() < 1e-6);
        assert_eq!(tables[2].lines().count(), 1 + sim.rqs().len());
    }
}

//! `schedsim`: the native command line for researchers.
//!
//!   schedsim run FILE [--json | --csv | --schedstat] [--perfetto OUT]
//!                                run a scenario file and print the metrics report (text,
//!                                JSON or CSV) or its /proc/schedstat (version 15) at the
//!                                end; --perfetto also writes the run as Chrome / Perfetto
//!                                trace JSON to OUT
//!   schedsim real FILE [--json] [--save-trace OUT]
//!                                run the scenario's workload on this host's kernel (root, tracefs)
//!                                and print the same report from its sched tracepoints
//!   schedsim real-trace TRACE [--json]   the report of a trace saved by `real --save-trace`
//!   schedsim fidelity FILE [--json]      the model's report beside the host kernel's
//!   schedsim list                list the built-in presets
//!   schedsim preset NAME         print a preset's scenario JSON
//!
//! Invalid input exits non-zero with a message naming the field.

use schedlab_core::api::{metrics_csv, perfetto, presets, report, report_text, scenario, schedstat};
use schedlab_core::sim::Simulator;
use std::process::ExitCode;

const USAGE: &str = "usage: schedsim run FILE [--json | --csv | --schedstat] [--perfetto OUT] | schedsim list | \
                     schedsim preset NAME | schedsim real FILE [--json] [--save-trace OUT] | schedsim real-trace \
                     TRACE [--json] | schedsim fidelity FILE [--json]";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(out) => {
            println!("{out}");
            ExitCode::SUCCESS
        }
        Err(msg) => {
            eprintln!("schedsim: {msg}");
            ExitCode::from(2)
        }
    }
}

fn run(args: &[String]) -> Result<String, String> {
    match args.first().map(String::as_str) {
        Some("list") => {
            Ok(presets::PRESETS.iter().map(|p| format!("{:<28} {}", p.name, p.title)).collect::<Vec<_>>().join("\n"))
        }
        Some("preset") => {
            let name = args.get(1).ok_or(USAGE)?;
            presets::find(name)
                .map(|p| p.json.trim_end().to_string())
                .ok_or_else(|| format!("unknown preset '{name}' (see: schedsim list)"))
        }
        Some("run") => {
            let file = args.get(1).ok_or(USAGE)?;
            let (mut json, mut csv, mut proc_schedstat, mut perfetto_out) = (false, false, false, None);
            let mut opts = args.iter().skip(2);
            while let Some(a) = opts.next() {
                match a.as_str() {
                    "--json" => json = true,
                    "--csv" => csv = true,
                    "--schedstat" => proc_schedstat = true,
                    "--perfetto" => perfetto_out = Some(opts.next().ok_or(USAGE)?.clone()),
                    bad => return Err(format!("unknown option '{bad}'\n{USAGE}")),
                }
            }
            let text = std::fs::read_to_string(file).map_err(|e| format!("cannot read {file}: {e}"))?;
            let cfg = scenario::load_scenario(&text).map_err(|diags| {
                let lines: Vec<String> = diags.iter().map(|d| format!("  {d}")).collect();
                format!("invalid scenario {file}:\n{}", lines.join("\n"))
            })?;
            let mut sim = Simulator::new(&cfg);
            // The export replays the run from its start: keep it only when asked for.
            let start = perfetto_out.as_ref().map(|_| sim.clone());
            let started = std::time::Instant::now();
            sim.run_to_end();
            let wall = started.elapsed();
            if let (Some(out), Some(start)) = (perfetto_out, start) {
                let t = perfetto::chrome_trace(&start, sim.events_processed(), perfetto::DEFAULT_MAX_EVENTS);
                std::fs::write(&out, &t.json).map_err(|e| format!("cannot write {out}: {e}"))?;
                let cut = t.truncated_at_ns.map_or(String::new(), |at| {
                    format!(" (cut at {:.3} ms: the export's cap is {} events)", ms(at), perfetto::DEFAULT_MAX_EVENTS)
                });
                eprintln!("schedsim: wrote {} trace events to {out}{cut}", t.events);
            }
            let rep = report::report(&sim);
            if proc_schedstat {
                Ok(schedstat::proc_schedstat(&sim).trim_end().to_string())
            } else if csv {
                Ok(metrics_csv::metrics_csv(&sim).trim_end().to_string())
            } else if json {
                serde_json::to_string_pretty(&rep).map_err(|e| e.to_string())
            } else {
                Ok(text_report(&rep, wall))
            }
        }
        #[cfg(not(target_arch = "wasm32"))]
        Some(cmd @ ("real" | "real-trace" | "fidelity")) => schedlab_core::real::cli::command(cmd, &args[1..]),
        _ => Err(USAGE.to_string()),
    }
}

fn ms(ns: u64) -> f64 {
    ns as f64 / 1e6
}

fn text_report(r: &report::Report, wall: std::time::Duration) -> String {
    let mut out = format!(
        "scenario {} (seed {}): {:.3} ms simulated, {} events, {:.1} ms wall, trace {}\n\n",
        r.scenario,
        r.seed,
        ms(r.sim_time_ns),
        r.events,
        wall.as_secs_f64() * 1e3,
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
    if let Some((cpu, from, ns)) = r.longest_wasted_idle {
        out +=
            &format!("longest a CPU idled while work waited: CPU {cpu} for {:.3} ms from {:.3} ms\n", ms(ns), ms(from));
    }
    out += &format!("sanity checker: {} violation(s)\n", r.sanity_violations.len());
    for v in r.sanity_violations.iter().take(5) {
        out += &format!(
            "  at {:.3} ms (confirmed {:.3} ms): CPUs {:?} idle while {} thread(s) wait, e.g. {}\n",
            ms(v.detected_ns),
            ms(v.confirmed_ns),
            v.idle_cpus,
            v.waiting_threads.len(),
            v.waiting_threads.first().map_or("-", String::as_str)
        );
    }
    out += "\n";
    out += &report_text::process_table(&r.processes);
    out += "\ncpu      busy ms      idle ms\n";
    for c in &r.cpus {
        out += &format!("{:<4} {:>12.3} {:>12.3}\n", c.cpu, ms(c.busy_ns), ms(c.idle_ns));
    }
    out.trim_end().to_string()
}

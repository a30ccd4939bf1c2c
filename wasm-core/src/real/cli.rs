//! The CLI's real-kernel commands:
//!
//! ```text
//!   schedsim real FILE [--json] [--save-trace OUT]   run the workload on this host's kernel, report
//!   schedsim real-trace TRACE [--json]               the report of a trace saved by --save-trace
//!   schedsim fidelity FILE [--json]                  the model and this host's kernel side by side
//! ```

use super::{runner, text};
use crate::api::{report, scenario};
use crate::sim::Simulator;

pub const USAGE: &str = "schedsim real FILE [--json] [--save-trace OUT] | schedsim real-trace TRACE [--json] | \
                         schedsim fidelity FILE [--json]";

fn load(file: &str, read: &dyn Fn(&str) -> Result<String, String>) -> Result<crate::config::SimConfig, String> {
    let text = read(file)?;
    scenario::load_scenario(&text).map_err(|diags| {
        let lines: Vec<String> = diags.iter().map(|d| format!("  {d}")).collect();
        format!("invalid scenario {file}:\n{}", lines.join("\n"))
    })
}

struct Opts {
    json: bool,
    save: Option<String>,
}

fn opts(args: &[String], save_allowed: bool) -> Result<Opts, String> {
    let mut o = Opts { json: false, save: None };
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--json" => o.json = true,
            "--save-trace" if save_allowed => o.save = Some(it.next().ok_or(USAGE)?.clone()),
            bad => return Err(format!("unknown option '{bad}'\nusage: {USAGE}")),
        }
    }
    Ok(o)
}

fn json(v: &impl serde::Serialize) -> Result<String, String> {
    serde_json::to_string_pretty(v).map_err(|e| e.to_string())
}

/// Runs one of the commands above (`cmd` is its name, `args` what follows it); `read` reads a
/// scenario file as the CLI reads one (its size checked first).
pub fn command(cmd: &str, args: &[String], read: &dyn Fn(&str) -> Result<String, String>) -> Result<String, String> {
    let file = args.first().ok_or_else(|| format!("usage: {USAGE}"))?;
    match cmd {
        "real" => {
            let o = opts(&args[1..], true)?;
            let run = runner::run_real(&load(file, read)?)?;
            if let Some(out) = &o.save {
                std::fs::write(out, &run.trace).map_err(|e| format!("cannot write {out}: {e}"))?;
                let shown = crate::api::text::escape_controls(out);
                eprintln!("schedsim: wrote the trace ({} bytes) to {shown}", run.trace.len());
            }
            if o.json {
                json(
                    &serde_json::json!({ "report": run.report, "notes": run.notes, "schedstat_delta": run.schedstat.ok() }),
                )
            } else {
                Ok(text::real_text(&run.report, &run.notes, &run.schedstat))
            }
        }
        "real-trace" => {
            let o = opts(&args[1..], false)?;
            let t = std::fs::read_to_string(file).map_err(|e| format!("cannot read {file}: {e}"))?;
            let r = super::report_from_trace(&t).map_err(|e| format!("{file}: {e}"))?;
            if o.json {
                json(&r)
            } else {
                Ok(text::real_text(&r, &[], &Err("not in a saved trace".into())))
            }
        }
        "fidelity" => {
            let o = opts(&args[1..], false)?;
            let cfg = load(file, read)?;
            let mut sim = Simulator::new(&cfg);
            sim.run_to_end();
            let model = report::report(&sim);
            let run = runner::run_real(&cfg)?;
            if o.json {
                json(&serde_json::json!({ "model": model, "real": run.report, "notes": run.notes }))
            } else {
                Ok(text::fidelity_text(&model, &run))
            }
        }
        _ => Err(format!("usage: {USAGE}")),
    }
}

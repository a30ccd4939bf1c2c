//! The CLI's real-kernel commands:
//!
//! ```text
//!   schedsim real FILE [--json] [--save-trace OUT]   run the workload on this host's kernel, report
//!   schedsim real-trace TRACE [--json] [--cpus N | --machine PRESET] [--comm A,B]
//!                                                    the report of a real trace: a --save-trace file,
//!                                                    ftrace text, trace-cmd report or perf script
//!   schedsim fidelity FILE [--json]                  the model and this host's kernel side by side
//! ```

use super::output_file::OutputFile;
use super::{import, runner, text};
use crate::api::sweep::rows::run_failure;
use crate::api::{report, scenario};
use crate::machine::{Machine, MAX_CPUS};
use crate::sim::Simulator;

pub const USAGE: &str = "schedsim real FILE [--json] [--save-trace OUT] | schedsim real-trace TRACE [--json] \
                         [--cpus N | --machine PRESET] [--comm A,B] | schedsim fidelity FILE [--json]";

fn load(file: &str, read: &dyn Fn(&str) -> Result<String, String>) -> Result<crate::config::SimConfig, String> {
    let text = read(file)?;
    scenario::load_scenario(&text).map_err(|diags| {
        let lines: Vec<String> = diags.iter().map(|d| format!("  {d}")).collect();
        format!("invalid scenario {file}:\n{}", lines.join("\n"))
    })
}

/// The scenario for `fidelity`'s model: as written if it names its kernel,
/// else on the generation nearest this host's (one the scenario is refused
/// on, such as O(1) on 6.12, stays on 4.1); with the note that says which.
fn load_for_host(
    file: &str,
    read: &dyn Fn(&str) -> Result<String, String>,
) -> Result<(crate::config::SimConfig, String), String> {
    let cfg = load(file, read)?;
    let host = super::sys::kernel_release();
    let text = read(file)?;
    let named = serde_json::from_str::<serde_json::Value>(&text).ok().is_some_and(|v| v.get("kernel").is_some());
    let nearest = super::generation::nearest_generation(&host);
    if named || nearest.is_none_or(|k| k == cfg.kernel) {
        return Ok((cfg.clone(), super::generation::generation_note(cfg.kernel, !named, &host)));
    }
    let mut v: serde_json::Value = serde_json::from_str(&text).map_err(|e| format!("{file}: {e}"))?;
    let k = nearest.expect("checked above");
    v["kernel"] = super::generation::generation_release(k).into();
    // 6.12 runs as it ships: 4.1's bug switches do not apply.
    if let Some(o) = v.as_object_mut() {
        o.remove("bugs");
    }
    match scenario::load_scenario(&v.to_string()) {
        Ok(c) => Ok((c, super::generation::generation_note(k, true, &host))),
        Err(d) => Ok((
            cfg.clone(),
            format!(
                "{} (refused on {}: {})",
                super::generation::generation_note(cfg.kernel, false, &host),
                super::generation::generation_release(k),
                d.first().map_or(String::new(), |d| d.to_string())
            ),
        )),
    }
}

struct Opts {
    json: bool,
    save: Option<String>,
    choices: import::Choices,
}

fn opts(args: &[String], save_allowed: bool) -> Result<Opts, String> {
    let mut o = Opts { json: false, save: None, choices: import::Choices::default() };
    let mut it = args.iter();
    let trace = !save_allowed;
    while let Some(a) = it.next() {
        match a.as_str() {
            "--json" => o.json = true,
            "--save-trace" if save_allowed => o.save = Some(it.next().ok_or(USAGE)?.clone()),
            "--cpus" if trace => {
                let n = it.next().ok_or(USAGE)?;
                o.choices.cpus = Some(
                    n.parse()
                        .ok()
                        .filter(|&c| (1..=MAX_CPUS).contains(&c))
                        .ok_or_else(|| format!("--cpus takes a CPU count from 1 to {MAX_CPUS}, not {n:?}"))?,
                );
            }
            "--machine" if trace => {
                let name = it.next().ok_or(USAGE)?;
                let m = Machine::preset(name).ok_or_else(|| {
                    format!("unknown machine {name:?}; one of: {}", Machine::preset_names().join(", "))
                })?;
                o.choices.cpus = Some(m.nr_cpus());
            }
            "--comm" if trace => {
                let list = it.next().ok_or(USAGE)?;
                o.choices.comms = Some(list.split(',').map(str::to_string).collect());
            }
            bad => return Err(format!("unknown option '{bad}'\nusage: {USAGE}")),
        }
    }
    Ok(o)
}

/// `--save-trace OUT` written after the run, said on stderr.
fn save_trace(f: OutputFile, trace: &[u8]) -> Result<(), String> {
    let shown = crate::api::text::escape_controls(f.path()).into_owned();
    f.write(trace)?;
    eprintln!("schedsim: wrote the trace ({} bytes) to {shown}", trace.len());
    Ok(())
}

fn json(v: &impl serde::Serialize) -> Result<String, String> {
    serde_json::to_string_pretty(v).map_err(|e| e.to_string())
}

/// How a command that got past its input failed, said after its report (if it has one).
#[derive(Debug, PartialEq, Eq)]
pub enum Late {
    /// A run failed: the model's sched_ext policy did not load or stopped its run (the CLI's status 3).
    RunFailed(String),
    /// A file written after the run (the saved trace) could not be (status 1).
    WriteFailed(String),
}

/// Runs one of the commands above (`cmd` is its name, `args` what follows it); `read` reads a
/// scenario file as the CLI reads one (its size checked first). The report, if there is one, and a
/// failure that came after the input was accepted, to be printed after it.
pub fn command(
    cmd: &str,
    args: &[String],
    read: &dyn Fn(&str) -> Result<String, String>,
) -> Result<(Option<String>, Option<Late>), String> {
    let file = args.first().ok_or_else(|| format!("usage: {USAGE}"))?;
    match cmd {
        "real" => {
            let o = opts(&args[1..], true)?;
            let cfg = load(file, read)?;
            // Opened before the run: an unwritable path must not cost the run (a real run cannot be replayed).
            let save = o.save.as_deref().map(OutputFile::open).transpose()?;
            let run = runner::run_real(&cfg)?;
            let late = save.and_then(|f| save_trace(f, run.trace.as_bytes()).err()).map(Late::WriteFailed);
            let report = if o.json {
                json(
                    &serde_json::json!({ "report": run.report, "notes": run.notes, "schedstat_delta": run.schedstat.ok() }),
                )?
            } else {
                text::real_text(&run.report, &run.notes, &run.schedstat)
            };
            Ok((Some(report), late))
        }
        "real-trace" => {
            let o = opts(&args[1..], false)?;
            let t = import::read_capped(file).map_err(|e| format!("{file}: {e}"))?;
            let name = std::path::Path::new(file).file_name().map_or(file.clone(), |n| n.to_string_lossy().into());
            let (format, r, notes) = import::report_noted(&t, &name, &o.choices).map_err(|e| format!("{file}: {e}"))?;
            if o.json {
                // The JSON is the page's report exactly (`ReadReport`): the notes go to stderr.
                for n in &notes {
                    eprintln!("schedsim: note: {}", crate::api::text::escape_controls(n));
                }
                json(&crate::trace_import::analysis::ReadReport { format: format.name(), report: &r })
                    .map(|t| (Some(t), None))
            } else {
                let notes: Vec<String> = [format!("read as {}", format.name())].into_iter().chain(notes).collect();
                Ok((Some(text::real_text(&r, &notes, &Err("not in a trace file".into()))), None))
            }
        }
        "fidelity" => {
            let o = opts(&args[1..], false)?;
            let (cfg, note) = load_for_host(file, read)?;
            let mut sim = Simulator::new(&cfg);
            sim.run_to_end();
            // A model cut short by its policy has no figures to set beside the kernel's (they would read
            // as zeros): said, with the run's status, before the host is made to run anything.
            if let Some(why) = run_failure(&sim) {
                let msg =
                    format!("{file}: the model's run failed: {why}; nothing to compare (the real run was not started)");
                return Ok((None, Some(Late::RunFailed(msg))));
            }
            let model = report::report(&sim);
            let mut run = runner::run_real(&cfg)?;
            run.notes.insert(0, note);
            if o.json {
                json(&serde_json::json!({ "model": model, "real": run.report, "notes": run.notes }))
                    .map(|t| (Some(t), None))
            } else {
                Ok((Some(text::fidelity_text(&model, &run)), None))
            }
        }
        _ => Err(format!("usage: {USAGE}")),
    }
}

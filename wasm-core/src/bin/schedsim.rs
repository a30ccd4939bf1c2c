//! `schedsim`: the native command line for researchers.
//!
//!   schedsim run FILE [--json | --csv | --schedstat] [--perfetto OUT]
//!                                run a scenario file and print the metrics report (text,
//!                                JSON or CSV) or its /proc/schedstat (version 15) at the
//!                                end; --perfetto also writes the run as Chrome / Perfetto
//!                                trace JSON to OUT
//!   schedsim sweep FILE [--seeds A..B] [--set PATH=V1,V2,...]... [--json | --csv] [--jobs N]
//!                                run the scenario for every seed of A..B (both included;
//!                                default its own) and every combination of the --set
//!                                values (a dotted JSON path such as processes.0.nice, each
//!                                value JSON or else a string), up to 10,000 runs, in
//!                                parallel on N threads (default: every core); one row per
//!                                run, in that order whatever finishes first
//!   schedsim real FILE [--json] [--save-trace OUT]
//!                                run the scenario's workload on this host's kernel (root, tracefs)
//!                                and print the same report from its sched tracepoints
//!   schedsim real-trace TRACE [--json]   the report of a trace saved by `real --save-trace`
//!   schedsim fidelity FILE [--json]      the model's report beside the host kernel's
//!   schedsim rtapp-export FILE   a scenario as rt-app JSON (the subset rt-app can say)
//!   schedsim rtapp-import FILE [--machine PRESET] [--policy KIND] [--duration-ms N]
//!                                rt-app JSON as a scenario (what does not map is named)
//!   schedsim list                list the built-in presets
//!   schedsim preset NAME         print a preset's scenario JSON
//!
//! Invalid input exits with status 2 and a message naming the field; a failed
//! write exits with status 1 and one line, a closed pipe quietly with 0
//! (`shared/out.rs`); a run whose sched_ext policy failed prints its report
//! (a sweep, every row, the failed ones marked; `fidelity`, nothing, and
//! the host runs nothing) and exits with status 3. A policy that asks for
//! more memory at once than its limit allows cannot be refused gracefully:
//! one line names its callback and the limit, and the status is 4
//! (`schedsim/policy_memory.rs`).

#[path = "shared/input.rs"]
mod input;
#[path = "shared/out.rs"]
mod out;
#[path = "shared/parallel.rs"]
mod parallel;
#[path = "schedsim/policy_memory.rs"]
mod policy_memory;
#[path = "schedsim/run_failure.rs"]
mod run_failure;
#[path = "schedsim/sweep.rs"]
mod sweep;
#[path = "schedsim/sweep_print.rs"]
mod sweep_print;

use schedlab_core::api::exports::{metrics_csv, perfetto};
use schedlab_core::api::report::schedstat;
use schedlab_core::api::rtapp::{export as rtapp_export, import as rtapp_import};
use schedlab_core::api::{presets, report, scenario};
use schedlab_core::config::SimConfig;
use schedlab_core::real::output_file::OutputFile;
use schedlab_core::sim::Simulator;
use std::process::ExitCode;

const USAGE: &str = "usage: schedsim run FILE [--json | --csv | --schedstat] [--perfetto OUT] | schedsim sweep FILE \
                     [--seeds A..B] [--set PATH=V1,V2,...]... [--json | --csv] [--jobs N] | schedsim list | \
                     schedsim preset NAME | schedsim real FILE [--json] [--save-trace OUT] | schedsim real-trace \
                     TRACE [--json] | schedsim fidelity FILE [--json] | schedsim rtapp-export FILE | schedsim rtapp-import FILE \
                     [--machine PRESET] [--policy KIND] [--duration-ms N]";

#[global_allocator]
static ALLOC: schedlab_core::sim::ext::policy_heap::Counting = policy_memory::ALLOCATOR;

/// The stack of the thread that runs a command and of a sweep's workers:
/// a policy's engine recurses in Rust where JavaScript reads through a
/// chain of objects; the pages are only touched as used.
const STACK_BYTES: usize = 256 << 20;

fn main() -> ExitCode {
    schedlab_core::sim::ext::guard::set_memory_probe(
        schedlab_core::sim::ext::policy_heap::policy_bytes,
        schedlab_core::sim::ext::policy_heap::reset,
    );
    let args: Vec<String> = std::env::args().skip(1).collect();
    let worker =
        std::thread::Builder::new().name("schedsim".into()).stack_size(STACK_BYTES).spawn(move || main_on(&args));
    match worker.map(|w| w.join()) {
        Ok(Ok(code)) => code,
        Ok(Err(panic)) => std::panic::resume_unwind(panic),
        Err(e) => {
            out::warn("schedsim", &format!("cannot start the main thread: {e}"));
            ExitCode::FAILURE
        }
    }
}

fn main_on(args: &[String]) -> ExitCode {
    match run(args) {
        Ok(done) => out::finish_done("schedsim", &done),
        Err(msg) => {
            out::warn("schedsim", &msg);
            ExitCode::from(out::INVALID_INPUT)
        }
    }
}

fn run(args: &[String]) -> Result<out::Done, String> {
    match args.first().map(String::as_str) {
        Some("run") => run_command(args),
        Some("sweep") => sweep::command(&args[1..]),
        #[cfg(not(target_arch = "wasm32"))]
        Some(cmd @ ("real" | "real-trace" | "fidelity")) => {
            use schedlab_core::real::cli::{command, Late};
            let (text, late) = command(cmd, &args[1..], &input::read_scenario)?;
            let failure = late.map(|l| match l {
                Late::RunFailed(msg) => (out::RUN_FAILED, msg),
                Late::WriteFailed(msg) => (out::WRITE_FAILED, msg),
            });
            Ok(out::Done { text, failure })
        }
        _ => other_command(args).map(out::Done::from),
    }
}

/// `schedsim run`: the report, then any late failure (the run's policy, the Perfetto file's write).
fn run_command(args: &[String]) -> Result<out::Done, String> {
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
    let (text, cfg) = load_file(file)?;
    // Opened before the run: an unwritable path is refused before any simulation time is spent.
    let perfetto_file = perfetto_out.as_deref().map(OutputFile::open).transpose()?;
    // Read again for its exercise, which the simulator does not carry (load_file accepted the text).
    let exercise = scenario::parse_scenario(&text).ok().and_then(|s| s.exercise);
    let mut sim = Simulator::new(&cfg);
    // The export replays the run from its start: built afresh, since a clone would share a sched_ext
    // policy's JavaScript engine with the run.
    let start = perfetto_out.as_ref().map(|_| Simulator::new(&cfg));
    let started = std::time::Instant::now();
    sim.run_to_end();
    let wall = started.elapsed();
    let mut late = None;
    if let (Some(path), Some(file), Some(start)) = (perfetto_out.as_ref(), perfetto_file, start) {
        let t = perfetto::chrome_trace(&start, sim.events_processed(), perfetto::DEFAULT_MAX_EVENTS);
        match file.write(t.json.as_bytes()) {
            Ok(()) => {
                let cut = t.truncated_at_ns.map_or(String::new(), |at| {
                    format!(" (cut at {:.3} ms: the export's cap is {} events)", ms(at), perfetto::DEFAULT_MAX_EVENTS)
                });
                out::warn("schedsim", &format!("wrote {} trace events to {path}{cut}", t.events));
            }
            Err(e) => late = Some((out::WRITE_FAILED, e)),
        }
    }
    let rep = report::with_exercise(report::report(&sim), exercise.as_ref(), &sim);
    let text = if proc_schedstat {
        schedstat::proc_schedstat(&sim).trim_end().to_string()
    } else if csv {
        metrics_csv::metrics_csv(&sim).trim_end().to_string()
    } else if json {
        serde_json::to_string_pretty(&rep).map_err(|e| e.to_string())?
    } else {
        report::text_report(&rep, wall.as_secs_f64() * 1e3)
    };
    // A failed policy outranks a failed write: the figures themselves are not a result.
    if let Some(why) = run_failure::of(&sim) {
        late = Some((out::RUN_FAILED, format!("{file}: the run failed: {why}")));
    }
    Ok(out::Done { text: Some(text), failure: late })
}

fn other_command(args: &[String]) -> Result<String, String> {
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
        Some("rtapp-export") => {
            let file = args.get(1).ok_or(USAGE)?;
            let text = input::read_scenario(file)?;
            let s = scenario::parse_scenario(&text).map_err(|d| format!("invalid scenario {file}:\n  {d}"))?;
            let rt = rtapp_export::export(&s).map_err(|e| format!("{file}: {e}"))?;
            serde_json::to_string_pretty(&rt).map_err(|e| e.to_string())
        }
        Some("rtapp-import") => {
            let file = args.get(1).ok_or(USAGE)?;
            let stem = std::path::Path::new(file).file_stem().map(|s| s.to_string_lossy().into_owned());
            let mut d = rtapp_import::Defaults { name: stem.unwrap_or_default(), ..Default::default() };
            let mut opts = args.iter().skip(2);
            while let Some(a) = opts.next() {
                let v = opts.next().ok_or(USAGE)?;
                match a.as_str() {
                    "--machine" => d.machine = v.clone(),
                    "--policy" => d.policy = v.clone(),
                    "--duration-ms" => {
                        d.duration_ms = v.parse().map_err(|_| format!("--duration-ms {v:?}: not a number"))?
                    }
                    bad => return Err(format!("unknown option '{bad}'\n{USAGE}")),
                }
            }
            let text = input::read_scenario(file)?;
            let (s, notes) = rtapp_import::import(&text, &d).map_err(|e| format!("{file}: {e}"))?;
            for n in notes {
                out::warn("schedsim", &format!("{file}: {n}"));
            }
            let json = serde_json::to_string_pretty(&s).map_err(|e| e.to_string())?;
            scenario::load_scenario(&json).map_err(|diags| {
                let lines: Vec<String> = diags.iter().map(|d| format!("  {d}")).collect();
                format!("{file}: the imported scenario is not valid:\n{}", lines.join("\n"))
            })?;
            Ok(json)
        }
        _ => Err(USAGE.to_string()),
    }
}

/// The scenario file's text and configuration, refused as `run` refuses
/// it: its size first, then every problem with its field.
fn load_file(file: &str) -> Result<(String, SimConfig), String> {
    let text = input::read_scenario(file)?;
    let cfg = scenario::load_scenario(&text).map_err(|diags| {
        let lines: Vec<String> = diags.iter().map(|d| format!("  {d}")).collect();
        format!("invalid scenario {file}:\n{}", lines.join("\n"))
    })?;
    Ok((text, cfg))
}

fn ms(ns: u64) -> f64 {
    ns as f64 / 1e6
}

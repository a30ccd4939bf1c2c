//! `bench`: native engine throughput on the built-in presets (or given
//! scenario files): events per second and simulated time per wall time,
//! best of N runs, with the trace's heap bytes at the end of the run and the
//! process's peak resident memory. `--json` prints one JSON object per
//! scenario for scripts/bench.mjs, which compares against the wasm build.
//! Each row is written as soon as it is measured; a failed write ends the run
//! as `shared/out.rs` says (a closed pipe quietly). `--scaling`,
//! `--scaling-scenario` and `--targets` print issue 16's scaling table and
//! speed targets (`shared/scaling.rs`).

#[path = "shared/input.rs"]
mod input;
#[path = "shared/out.rs"]
mod out;
#[path = "shared/scaling.rs"]
mod scaling;

use schedlab_core::api::{presets, scenario};
use schedlab_core::sim::Simulator;
use std::io::Write;
use std::process::ExitCode;
use std::time::Instant;

/// Why the benchmark stopped early.
enum Stop {
    Input(String),
    Write(std::io::Error),
}

impl From<std::io::Error> for Stop {
    fn from(e: std::io::Error) -> Stop {
        Stop::Write(e)
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match bench(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(Stop::Input(msg)) => {
            out::warn("bench", &msg);
            ExitCode::from(2)
        }
        Err(Stop::Write(e)) => out::write_failed("bench", &e),
    }
}

fn bench(args: &[String]) -> Result<(), Stop> {
    if scaling::run(args, &mut std::io::stdout().lock())? {
        return Ok(());
    }
    let json = args.iter().any(|a| a == "--json");
    let repeat: usize =
        args.iter().position(|a| a == "--repeat").and_then(|i| args.get(i + 1)?.parse().ok()).unwrap_or(5);
    let mut inputs: Vec<(String, String)> = Vec::new();
    for f in args.iter().filter(|a| a.ends_with(".json")) {
        let text = input::read_scenario(f).map_err(Stop::Input)?;
        inputs.push((f.clone(), text));
    }
    if inputs.is_empty() {
        inputs = presets::PRESETS.iter().map(|p| (p.name.to_string(), p.json.to_string())).collect();
    }
    let mut stdout = std::io::stdout().lock();
    if !json {
        writeln!(
            stdout,
            "{:<32} {:>10} {:>12} {:>14} {:>12} {:>10} {:>10}",
            "scenario", "sim ms", "events", "events/s", "sim/wall", "trace MB", "peak MB"
        )?;
    }
    for (name, text) in inputs {
        let cfg = scenario::load_scenario(&text).map_err(|diags| {
            let lines: Vec<String> = diags.iter().map(|d| format!("  {d}")).collect();
            Stop::Input(format!("invalid scenario {name}:\n{}", lines.join("\n")))
        })?;
        let mut best = f64::MAX;
        let mut events = 0;
        let mut trace_bytes = 0;
        for _ in 0..repeat.max(1) {
            let mut sim = Simulator::new(&cfg);
            let t = Instant::now();
            sim.run_to_end();
            best = best.min(t.elapsed().as_secs_f64());
            events = sim.events_processed();
            trace_bytes =
                sim.trace().heap_bytes() + sim.processes().iter().map(|p| p.wakeup_latency.heap_bytes()).sum::<usize>();
        }
        let peak_rss = peak_rss_bytes();
        let sim_s = cfg.duration_ns as f64 / 1e9;
        if json {
            writeln!(
                stdout,
                "{{\"scenario\":\"{name}\",\"sim_s\":{sim_s},\"events\":{events},\"wall_s\":{best},\"cpus\":{},\"threads\":{},\"trace_bytes\":{trace_bytes},\"peak_rss_bytes\":{peak_rss}}}",
                cfg.machine.nr_cpus(),
                cfg.processes.iter().map(|p| p.threads as u64).sum::<u64>()
            )?;
        } else {
            writeln!(
                stdout,
                "{:<32} {:>10.0} {:>12} {:>14.0} {:>11.1}x {:>10.1} {:>10.1}",
                name,
                sim_s * 1e3,
                events,
                events as f64 / best,
                sim_s / best,
                trace_bytes as f64 / 1e6,
                peak_rss as f64 / 1e6
            )?;
        }
        stdout.flush()?;
    }
    Ok(())
}

/// VmHWM from /proc/self/status (Linux); 0 where unavailable.
fn peak_rss_bytes() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            let line = s.lines().find(|l| l.starts_with("VmHWM:"))?;
            line.split_whitespace().nth(1)?.parse::<u64>().ok()
        })
        .map_or(0, |kb| kb * 1024)
}

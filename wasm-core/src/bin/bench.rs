//! `bench`: native engine throughput on the built-in presets (or given
//! scenario files): events per second and simulated time per wall time,
//! best of N runs. `--json` prints one JSON object per scenario for
//! scripts/bench.mjs, which compares against the wasm build.

use schedlab_core::api::{presets, scenario};
use schedlab_core::sim::Simulator;
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let json = args.iter().any(|a| a == "--json");
    let repeat: usize =
        args.iter().position(|a| a == "--repeat").and_then(|i| args.get(i + 1)?.parse().ok()).unwrap_or(5);
    let files: Vec<&String> = args.iter().filter(|a| a.ends_with(".json")).collect();
    let mut inputs: Vec<(String, String)> =
        files.iter().map(|f| (f.to_string(), std::fs::read_to_string(f).unwrap_or_default())).collect();
    if inputs.is_empty() {
        inputs = presets::PRESETS.iter().map(|p| (p.name.to_string(), p.json.to_string())).collect();
    }
    if !json {
        println!("{:<32} {:>10} {:>12} {:>14} {:>12}", "scenario", "sim ms", "events", "events/s", "sim/wall");
    }
    for (name, text) in inputs {
        let cfg = match scenario::load_scenario(&text) {
            Ok(c) => c,
            Err(e) => {
                eprintln!("{name}: invalid scenario: {e:?}");
                std::process::exit(2);
            }
        };
        let mut best = f64::MAX;
        let mut events = 0;
        for _ in 0..repeat.max(1) {
            let mut sim = Simulator::new(&cfg);
            let t = Instant::now();
            sim.run_to_end();
            best = best.min(t.elapsed().as_secs_f64());
            events = sim.events_processed();
        }
        let sim_s = cfg.duration_ns as f64 / 1e9;
        if json {
            println!(
                "{{\"scenario\":\"{name}\",\"sim_s\":{sim_s},\"events\":{events},\"wall_s\":{best},\"cpus\":{}}}",
                cfg.machine.nr_cpus()
            );
        } else {
            println!(
                "{:<32} {:>10.0} {:>12} {:>14.0} {:>11.1}x",
                name,
                sim_s * 1e3,
                events,
                events as f64 / best,
                sim_s / best
            );
        }
    }
}

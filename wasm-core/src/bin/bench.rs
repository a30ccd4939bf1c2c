//! `bench`: native engine throughput.
//!
//!   bench [--repeat N] [--json] [FILE.json ...]
//!        the built-in presets (or the given scenario files): events per
//!        second and simulated time per wall time, best of N runs, with the
//!        trace's heap bytes at the end of the run and the process's peak
//!        resident memory. `--json` prints one JSON object per scenario for
//!        scripts/bench.mjs, which compares against the wasm build.
//!   bench --scaling [--json] [--sim-ms N]
//!        issue 16's scaling table: threads that run and sleep (exponential
//!        3 ms / 1 ms), two per CPU, 2 simulated seconds, on 4 to 1,024 CPUs,
//!        as one node and as 16-core nodes; events, ns per event, simulated
//!        per wall time, and the ratio of ns per event at 1,024 CPUs to 16.
//!   bench --scaling-scenario CPUS SHAPE
//!        prints that workload's scenario (SHAPE "node" or "nodes16").
//!   bench --targets
//!        the scaling table, then each speed target with its figure and
//!        whether it holds.

use schedlab_core::api::{presets, scenario};
use schedlab_core::sim::Simulator;
use std::time::Instant;

/// The machine sizes of the scaling table.
const SIZES: [u32; 5] = [4, 16, 64, 256, 1024];
/// The machine shapes: every CPU on one node, or nodes of (at most) 16 cores.
const SHAPES: [&str; 2] = ["node", "nodes16"];
/// ns per event at 1,024 CPUs over ns per event at 16: the target.
const RATIO_TARGET: f64 = 2.0;
/// group-imbalance-make, 10 simulated seconds: at least this much faster than real time.
const GIM_TARGET: f64 = 500.0;
/// The 256-CPU / 10,000-thread stress scenario: at least this much faster than real time.
const STRESS_TARGET: f64 = 10.0;
const STRESS: &str = include_str!("../../bench/stress-256cpu-10k.json");

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let has = |f: &str| args.iter().any(|a| a == f);
    let json = has("--json");
    if let Some(i) = args.iter().position(|a| a == "--scaling-scenario") {
        let cpus = args.get(i + 1).and_then(|n| n.parse().ok()).unwrap_or(16);
        println!("{}", scaling_scenario(cpus, args.get(i + 2).map_or("node", String::as_str)));
        return;
    }
    if has("--scaling") || has("--targets") {
        // --sim-ms N shortens the runs (for slow builds); the table's figures are for 2 s.
        let sim_ms = args.iter().position(|a| a == "--sim-ms").and_then(|i| args.get(i + 1)?.parse().ok());
        let rows = scaling(json, sim_ms);
        if has("--targets") {
            targets(&rows);
        }
        return;
    }
    let repeat: usize =
        args.iter().position(|a| a == "--repeat").and_then(|i| args.get(i + 1)?.parse().ok()).unwrap_or(5);
    let files: Vec<&String> = args.iter().filter(|a| a.ends_with(".json")).collect();
    let mut inputs: Vec<(String, String)> =
        files.iter().map(|f| (f.to_string(), std::fs::read_to_string(f).unwrap_or_default())).collect();
    if inputs.is_empty() {
        inputs = presets::PRESETS.iter().map(|p| (p.name.to_string(), p.json.to_string())).collect();
    }
    if !json {
        println!(
            "{:<32} {:>10} {:>12} {:>14} {:>12} {:>10} {:>10}",
            "scenario", "sim ms", "events", "events/s", "sim/wall", "trace MB", "peak MB"
        );
    }
    for (name, text) in inputs {
        let cfg = load(&name, &text);
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
            println!(
                "{{\"scenario\":\"{name}\",\"sim_s\":{sim_s},\"events\":{events},\"wall_s\":{best},\"cpus\":{},\"threads\":{},\"trace_bytes\":{trace_bytes},\"peak_rss_bytes\":{peak_rss}}}",
                cfg.machine.nr_cpus(),
                cfg.processes.iter().map(|p| p.threads as u64).sum::<u64>()
            );
        } else {
            println!(
                "{:<32} {:>10.0} {:>12} {:>14.0} {:>11.1}x {:>10.1} {:>10.1}",
                name,
                sim_s * 1e3,
                events,
                events as f64 / best,
                sim_s / best,
                trace_bytes as f64 / 1e6,
                peak_rss as f64 / 1e6
            );
        }
    }
}

fn load(name: &str, text: &str) -> schedlab_core::config::SimConfig {
    scenario::load_scenario(text).unwrap_or_else(|e| {
        eprintln!("{name}: invalid scenario: {e:?}");
        std::process::exit(2);
    })
}

/// Issue 16's workload: two threads per CPU that run and sleep (exponential
/// 3 ms / 1 ms), 2 simulated seconds, HZ 1000, on `cpus` CPUs as one node
/// ("node") or as nodes of 16 cores ("nodes16").
fn scaling_scenario(cpus: u32, shape: &str) -> String {
    let nodes = if shape == "nodes16" { (cpus / 16).max(1) } else { 1 };
    format!(
        r#"{{"version":1,"name":"scaling-{cpus}-{shape}","seed":1,"duration_ms":2000,"hz":1000,
  "machine":{{"nodes":{nodes},"cores_per_node":{},"threads_per_core":1}},
  "processes":[{{"name":"hog","threads":{},"program":[{{"body":[{{"run_us":{{"exp":3000}}}},{{"sleep_us":{{"exp":1000}}}}]}}]}}]}}"#,
        cpus / nodes,
        2 * cpus
    )
}

/// One run of a scenario: (events, wall seconds of the run alone), best of `repeat`.
fn time_run(cfg: &schedlab_core::config::SimConfig, repeat: usize) -> (u64, f64) {
    let mut best = (0, f64::MAX);
    for _ in 0..repeat {
        let mut sim = Simulator::new(cfg);
        let t = Instant::now();
        sim.run_to_end();
        let wall = t.elapsed().as_secs_f64();
        if wall < best.1 {
            best = (sim.events_processed(), wall);
        }
    }
    best
}

struct Row {
    shape: &'static str,
    cpus: u32,
    ns_per_event: f64,
    sim_per_wall: f64,
}

fn scaling(json: bool, sim_ms: Option<u64>) -> Vec<Row> {
    if !json {
        println!("issue 16 scaling: 2 run/sleep threads per CPU (exp 3 ms / 1 ms), 2 simulated s, HZ 1000");
        println!("{:<8} {:>6} {:>10} {:>10} {:>10}", "shape", "cpus", "events", "ns/event", "sim/wall");
    }
    let mut rows = Vec::new();
    for shape in SHAPES {
        for cpus in SIZES {
            let mut cfg = load("scaling", &scaling_scenario(cpus, shape));
            if let Some(ms) = sim_ms {
                cfg.duration_ns = ms * 1_000_000;
            }
            let (events, wall) = time_run(&cfg, if cpus <= 64 { 3 } else { 1 });
            let row = Row {
                shape,
                cpus,
                ns_per_event: wall * 1e9 / events as f64,
                sim_per_wall: cfg.duration_ns as f64 / 1e9 / wall,
            };
            if json {
                println!(
                    "{{\"shape\":\"{shape}\",\"cpus\":{cpus},\"events\":{events},\"wall_s\":{wall},\"ns_per_event\":{:.1}}}",
                    row.ns_per_event
                );
            } else {
                println!(
                    "{:<8} {:>6} {:>10} {:>10.0} {:>9.2}x",
                    shape, cpus, events, row.ns_per_event, row.sim_per_wall
                );
            }
            rows.push(row);
        }
    }
    rows
}

fn verdict(ok: bool) -> &'static str {
    if ok {
        "holds"
    } else {
        "NOT met"
    }
}

fn targets(rows: &[Row]) {
    let ns = |shape: &str, cpus: u32| rows.iter().find(|r| r.shape == shape && r.cpus == cpus).map(|r| r.ns_per_event);
    for shape in SHAPES {
        if let (Some(big), Some(small)) = (ns(shape, 1024), ns(shape, 16)) {
            let ratio = big / small;
            println!(
                "target scaling ({shape}): ns/event at 1,024 CPUs / at 16 CPUs <= {RATIO_TARGET}x: {big:.0} / {small:.0} = {ratio:.2}x ({})",
                verdict(ratio <= RATIO_TARGET)
            );
        }
    }
    let gim = presets::find("group-imbalance-make").expect("preset");
    let mut cfg = load(gim.name, gim.json);
    cfg.duration_ns = 10_000_000_000;
    let (events, wall) = time_run(&cfg, 3);
    let x = 10.0 / wall;
    println!(
        "target group-imbalance-make, 10 simulated s natively >= {GIM_TARGET}x real time: {events} events in {:.1} ms = {x:.0}x ({})",
        wall * 1e3,
        verdict(x >= GIM_TARGET)
    );
    let cfg = load("stress-256cpu-10k", STRESS);
    let (events, wall) = time_run(&cfg, 1);
    let x = cfg.duration_ns as f64 / 1e9 / wall;
    println!(
        "target stress-256cpu-10k (256 CPUs, 10,000 threads) natively >= {STRESS_TARGET}x real time: {events} events in {:.0} ms = {x:.1}x ({})",
        wall * 1e3,
        verdict(x >= STRESS_TARGET)
    );
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

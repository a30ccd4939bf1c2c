//! Issue 16's scaling table and speed targets, for `bench`:
//!
//!   bench --scaling [--json] [--sim-ms N]
//!        threads that run and sleep (exponential 3 ms / 1 ms), two per CPU,
//!        2 simulated seconds, HZ 1000, on 4 to 1,024 CPUs, as one node and as
//!        16-core nodes: events, ns per event, simulated per wall time.
//!   bench --scaling-scenario CPUS SHAPE
//!        prints that workload's scenario (SHAPE "node" or "nodes16").
//!   bench --targets
//!        the table, then each speed target with its figure and whether it holds.

use schedlab_core::api::{presets, scenario};
use schedlab_core::config::SimConfig;
use schedlab_core::sim::Simulator;
use std::io::{self, Write};
use std::time::Instant;

/// The machine sizes of the table.
const SIZES: [u32; 5] = [4, 16, 64, 256, 1024];
/// The machine shapes: every CPU on one node, or nodes of (at most) 16 cores.
const SHAPES: [&str; 2] = ["node", "nodes16"];
/// ns per event at 1,024 CPUs over ns per event at 16: the target.
const RATIO_TARGET: f64 = 2.0;
/// group-imbalance-make, 10 simulated seconds: at least this much faster than real time.
const GIM_TARGET: f64 = 500.0;
/// The 256-CPU / 10,000-thread stress scenario: at least this much faster than real time.
const STRESS_TARGET: f64 = 10.0;
const STRESS: &str = include_str!("../../../bench/stress-256cpu-10k.json");

/// Runs the scaling modes if `args` asks for one; false if it asks for none.
pub fn run(args: &[String], out: &mut impl Write) -> io::Result<bool> {
    let has = |f: &str| args.iter().any(|a| a == f);
    if let Some(i) = args.iter().position(|a| a == "--scaling-scenario") {
        let cpus = args.get(i + 1).and_then(|n| n.parse().ok()).unwrap_or(16);
        writeln!(out, "{}", scenario_text(cpus, args.get(i + 2).map_or("node", String::as_str)))?;
        return Ok(true);
    }
    if !has("--scaling") && !has("--targets") {
        return Ok(false);
    }
    // --sim-ms N shortens the runs (for slow builds); the table's figures are for 2 s.
    let sim_ms = args.iter().position(|a| a == "--sim-ms").and_then(|i| args.get(i + 1)?.parse().ok());
    let rows = table(has("--json"), sim_ms, out)?;
    if has("--targets") {
        targets(&rows, out)?;
    }
    Ok(true)
}

/// Issue 16's workload on `cpus` CPUs as one node ("node") or as nodes of
/// 16 cores ("nodes16").
pub fn scenario_text(cpus: u32, shape: &str) -> String {
    let nodes = if shape == "nodes16" { (cpus / 16).max(1) } else { 1 };
    format!(
        r#"{{"version":1,"name":"scaling-{cpus}-{shape}","seed":1,"duration_ms":2000,"hz":1000,
  "machine":{{"nodes":{nodes},"cores_per_node":{},"threads_per_core":1}},
  "processes":[{{"name":"hog","threads":{},"program":[{{"body":[{{"run_us":{{"exp":3000}}}},{{"sleep_us":{{"exp":1000}}}}]}}]}}]}}"#,
        cpus / nodes,
        2 * cpus
    )
}

fn load(text: &str) -> SimConfig {
    scenario::load_scenario(text).expect("the benchmark's own scenarios are valid")
}

/// (events, wall seconds of the run alone), the fastest of `repeat` runs.
fn time_run(cfg: &SimConfig, repeat: usize) -> (u64, f64) {
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

pub struct Row {
    shape: &'static str,
    cpus: u32,
    ns_per_event: f64,
}

fn table(json: bool, sim_ms: Option<u64>, out: &mut impl Write) -> io::Result<Vec<Row>> {
    if !json {
        writeln!(out, "issue 16 scaling: 2 run/sleep threads per CPU (exp 3 ms / 1 ms), 2 simulated s, HZ 1000")?;
        writeln!(out, "{:<8} {:>6} {:>10} {:>10} {:>10}", "shape", "cpus", "events", "ns/event", "sim/wall")?;
    }
    let mut rows = Vec::new();
    for shape in SHAPES {
        for cpus in SIZES {
            let mut cfg = load(&scenario_text(cpus, shape));
            if let Some(ms) = sim_ms {
                cfg.duration_ns = ms * 1_000_000;
            }
            let (events, wall) = time_run(&cfg, if cpus <= 64 { 3 } else { 1 });
            let ns_per_event = wall * 1e9 / events as f64;
            let sim_per_wall = cfg.duration_ns as f64 / 1e9 / wall;
            if json {
                writeln!(
                    out,
                    r#"{{"shape":"{shape}","cpus":{cpus},"events":{events},"wall_s":{wall},"ns_per_event":{ns_per_event:.1}}}"#
                )?;
            } else {
                writeln!(out, "{shape:<8} {cpus:>6} {events:>10} {ns_per_event:>10.0} {sim_per_wall:>9.2}x")?;
            }
            out.flush()?;
            rows.push(Row { shape, cpus, ns_per_event });
        }
    }
    Ok(rows)
}

fn verdict(ok: bool) -> &'static str {
    if ok {
        "holds"
    } else {
        "NOT met"
    }
}

fn targets(rows: &[Row], out: &mut impl Write) -> io::Result<()> {
    let ns = |shape: &str, cpus: u32| rows.iter().find(|r| r.shape == shape && r.cpus == cpus).map(|r| r.ns_per_event);
    for shape in SHAPES {
        if let (Some(big), Some(small)) = (ns(shape, 1024), ns(shape, 16)) {
            let ratio = big / small;
            writeln!(
                out,
                "target scaling ({shape}): ns/event at 1,024 CPUs / at 16 CPUs <= {RATIO_TARGET}x: {big:.0} / {small:.0} = {ratio:.2}x ({})",
                verdict(ratio <= RATIO_TARGET)
            )?;
        }
    }
    let gim = presets::find("group-imbalance-make").expect("preset");
    let mut cfg = load(gim.json);
    cfg.duration_ns = 10_000_000_000;
    let (events, wall) = time_run(&cfg, 3);
    let x = 10.0 / wall;
    writeln!(
        out,
        "target group-imbalance-make, 10 simulated s natively >= {GIM_TARGET}x real time: {events} events in {:.1} ms = {x:.0}x ({})",
        wall * 1e3,
        verdict(x >= GIM_TARGET)
    )?;
    let cfg = load(STRESS);
    let (events, wall) = time_run(&cfg, 1);
    let x = cfg.duration_ns as f64 / 1e9 / wall;
    writeln!(
        out,
        "target stress-256cpu-10k (256 CPUs, 10,000 threads) natively >= {STRESS_TARGET}x real time: {events} events in {:.0} ms = {x:.1}x ({})",
        wall * 1e3,
        verdict(x >= STRESS_TARGET)
    )?;
    out.flush()
}

//! `limits` (`npm run bench:limits`): the largest shapes the scenario limits
//! admit (CPUs × threads × duration, up to the event estimate's cap of
//! `api::scenario::limits`), each run to its end in its own process, with the wall
//! time and the peak resident memory (VmHWM) of each, ending with whether
//! every one stays within the stated bound. A benchmark that prints figures,
//! not a timed test.
//!
//!   limits            run every shape
//!   limits --one N    run shape N in this process and print its figures (JSON)
//!   limits --plan     print each shape's admitted duration and estimate only

use schedlab_core::api::scenario;
use schedlab_core::api::scenario::limits;
use schedlab_core::sim::Simulator;
use std::process::Command;
use std::time::Instant;

/// The bound the README states: every admitted run ends within this wall
/// time and peak memory natively.
const MAX_WALL_S: f64 = 300.0;
const MAX_PEAK_MB: f64 = 1024.0;

struct Shape {
    what: &'static str,
    nodes: u32,
    cores: u32,
    hz: u32,
    threads: u32,
    /// The threads' loop body.
    body: &'static str,
}

const HOG: &str = r#"[{"run_us":100000}]"#;
const RUN_SLEEP: &str = r#"[{"run_us":{"exp":3000}},{"sleep_us":{"exp":1000}}]"#;
const SERVICE: &str = r#"[{"run_us":{"exp":2000}},{"sleep_us":{"exp":8000}}]"#;

const SHAPES: [Shape; 5] = [
    Shape {
        what: "10,000 hogs, 64 nodes x 16 cores, HZ 250",
        nodes: 64,
        cores: 16,
        hz: 250,
        threads: 10_000,
        body: HOG,
    },
    Shape {
        what: "2,048 run/sleep threads, one node of 1,024 cores, HZ 250",
        nodes: 1,
        cores: 1024,
        hz: 250,
        threads: 2048,
        body: RUN_SLEEP,
    },
    Shape {
        what: "2,048 run/sleep threads, 64 nodes x 16 cores, HZ 1000",
        nodes: 64,
        cores: 16,
        hz: 1000,
        threads: 2048,
        body: RUN_SLEEP,
    },
    Shape {
        what: "10,000 service threads (2 ms / 8 ms), 64 x 16 cores, HZ 250",
        nodes: 64,
        cores: 16,
        hz: 250,
        threads: 10_000,
        body: SERVICE,
    },
    Shape {
        what: "10,000 service threads (2 ms / 8 ms), 8 nodes x 32 cores, HZ 250",
        nodes: 8,
        cores: 32,
        hz: 250,
        threads: 10_000,
        body: SERVICE,
    },
];

/// The scenario of `shape` lasting `ms` (threads in processes of 100, one session each).
fn scenario_text(shape: &Shape, ms: u64) -> String {
    let procs: Vec<String> = (0..shape.threads.div_ceil(100))
        .map(|i| {
            let n = (shape.threads - i * 100).min(100);
            format!(r#"{{"name":"p{i}","session":"s{i}","threads":{n},"program":[{{"body":{}}}]}}"#, shape.body)
        })
        .collect();
    format!(
        r#"{{"version":1,"name":"limits","seed":1,"duration_ms":{ms},"hz":{},"machine":{{"nodes":{},"cores_per_node":{},"threads_per_core":1}},"processes":[{}]}}"#,
        shape.hz,
        shape.nodes,
        shape.cores,
        procs.join(",")
    )
}

/// The longest duration (ms, at most the 600 s limit) the work estimate admits.
fn longest_admitted(shape: &Shape) -> u64 {
    let (mut lo, mut hi) = (1u64, scenario::MAX_DURATION_MS);
    if scenario::load_scenario(&scenario_text(shape, hi)).is_ok() {
        return hi;
    }
    while lo + 1 < hi {
        let mid = (lo + hi) / 2;
        if scenario::load_scenario(&scenario_text(shape, mid)).is_ok() {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    lo
}

fn peak_rss_mb() -> f64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| s.lines().find(|l| l.starts_with("VmHWM:"))?.split_whitespace().nth(1)?.parse::<f64>().ok())
        .map_or(0.0, |kb| kb / 1024.0)
}

fn run_one(i: usize) {
    let shape = &SHAPES[i];
    let ms = longest_admitted(shape);
    let cfg = scenario::load_scenario(&scenario_text(shape, ms)).expect("admitted");
    let est = limits::estimate(&cfg);
    let t = Instant::now();
    let mut sim = Simulator::new(&cfg);
    sim.run_to_end();
    let wall = t.elapsed().as_secs_f64();
    println!(
        r#"{{"sim_ms":{ms},"est_events":{},"events":{},"budget_stop":{},"wall_s":{wall:.1},"peak_mb":{:.0}}}"#,
        est.total(),
        sim.events_processed(),
        sim.budget_stop().is_some(),
        peak_rss_mb()
    );
}

fn field(json: &str, key: &str) -> f64 {
    let at = json.find(&format!("\"{key}\":")).map(|i| i + key.len() + 3).unwrap_or(0);
    json[at..].split([',', '}']).next().and_then(|v| v.parse().ok()).unwrap_or(f64::NAN)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let Some(i) = args.iter().position(|a| a == "--one").and_then(|i| args.get(i + 1)?.parse().ok()) {
        run_one(i);
        return;
    }
    if args.iter().any(|a| a == "--plan") {
        for shape in &SHAPES {
            let ms = longest_admitted(shape);
            let e = limits::estimate(&scenario::load_scenario(&scenario_text(shape, ms)).expect("admitted"));
            println!("{:<62} {ms:>7} ms, {} events estimated", shape.what, e.total());
        }
        return;
    }
    println!(
        "the largest shapes the limits admit (estimated at most {} events), each in its own process:",
        limits::MAX_ESTIMATED_EVENTS
    );
    println!("{:<62} {:>7} {:>12} {:>12} {:>8} {:>8}", "shape", "sim s", "est events", "events", "wall s", "peak MB");
    let me = std::env::current_exe().expect("own path");
    let mut all_ok = true;
    for (i, shape) in SHAPES.iter().enumerate() {
        let out = Command::new(&me).args(["--one", &i.to_string()]).output().expect("run a shape");
        let line = String::from_utf8_lossy(&out.stdout).trim().to_string();
        let (wall, peak) = (field(&line, "wall_s"), field(&line, "peak_mb"));
        let ok = out.status.success() && wall <= MAX_WALL_S && peak <= MAX_PEAK_MB;
        all_ok &= ok;
        println!(
            "{:<62} {:>7.0} {:>12} {:>12} {:>8.1} {:>8.0}{}",
            shape.what,
            field(&line, "sim_ms") / 1e3,
            field(&line, "est_events"),
            field(&line, "events"),
            wall,
            peak,
            if line.contains(r#""budget_stop":true"#) { "  (stopped at the event budget)" } else { "" }
        );
    }
    println!(
        "bound: every admitted shape ends within {MAX_WALL_S:.0} s and {MAX_PEAK_MB:.0} MB natively: {}",
        if all_ok { "holds" } else { "NOT met" }
    );
}

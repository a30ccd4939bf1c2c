//! Parameter sweeps over a preset: the same scenario run under each policy
//! and size, one row per run, printable as a table (`bin/sweep.rs`) and
//! serializable for plotting. Each row comes from an ordinary simulation of
//! the varied scenario; nothing is computed outside the engine except the
//! ratios of what it measured. Each sweep lists its points (`*_points`,
//! `*_VARIANTS`, `O1_POLICIES`) so the binary can run them in parallel; the
//! `*_sweep` functions run them one after the other.

use crate::api::presets;
use crate::api::scenario::{load_scenario, parse_scenario, ScenarioFile};
use crate::latency::LatencyRecord;
use crate::sched::thread_weight::{alpha, AlphaFormula};
use crate::sim::Simulator;
use serde::Serialize;

/// The thread counts of process B in the greedy-threads sweep.
pub const GREEDY_M: &[u32] = &[1, 2, 3, 4, 5, 6, 7, 8, 16, 32];
/// The policies compared in the greedy-threads sweep.
pub const GREEDY_POLICIES: &[&str] = &["cfs", "pfs", "dw-cfs"];

/// A built-in preset as an editable scenario.
pub fn preset_file(name: &str) -> ScenarioFile {
    let p = presets::find(name).unwrap_or_else(|| panic!("no preset {name}"));
    parse_scenario(p.json).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// Runs a scenario until `done` says so or its duration ends.
pub fn run_until(file: &ScenarioFile, mut done: impl FnMut(&Simulator) -> bool) -> Simulator {
    let cfg = load_scenario(&serde_json::to_string(file).expect("a scenario serializes"))
        .unwrap_or_else(|e| panic!("{}: {e:?}", file.name));
    let mut sim = Simulator::new(&cfg);
    while !done(&sim) && sim.step_event() {}
    sim
}

fn process_cpu_ns(sim: &Simulator, name: &str) -> u64 {
    let p = sim.processes().iter().find(|p| p.name == name).expect("process exists");
    p.threads.iter().map(|&pid| sim.tasks()[pid.idx()].se.sum_exec_runtime).sum()
}

#[derive(Serialize, Debug, Clone)]
pub struct GreedyRow {
    pub policy: String,
    /// Threads of process B.
    pub m: u32,
    /// When A's single thread finished its 1 s of work (None: not within the run).
    pub a_completion_ms: Option<f64>,
    /// CPU time of A and of B up to A's completion (or the run's end).
    pub a_cpu_ms: f64,
    pub b_cpu_ms: f64,
    /// B's CPU time over A's: B's advantage.
    pub b_over_a: f64,
    /// The weight each of B's threads had (PFS / DW-CFS policy; 1024 under CFS).
    pub b_thread_weight: u64,
}

/// The greedy-threads preset with B at `m` threads under `policy`; with
/// `cpus`, both processes are confined to those CPUs (the others stay online,
/// so DW-CFS's No is unchanged).
pub fn greedy_threads_scenario(policy: &str, m: u32, cpus: Option<&str>) -> ScenarioFile {
    let mut f = preset_file("greedy-threads");
    f.policy.kind = policy.to_string();
    for p in &mut f.processes {
        if p.name == "B" {
            p.threads = m;
        }
        p.cpus = cpus.map(str::to_string);
    }
    f
}

/// One point of the sweep: run until A exits (or the run ends), then compare.
pub fn greedy_threads_point(policy: &str, m: u32) -> GreedyRow {
    greedy_threads_point_on(policy, m, None)
}

/// As `greedy_threads_point`, with both processes confined to `cpus`.
pub fn greedy_threads_point_on(policy: &str, m: u32, cpus: Option<&str>) -> GreedyRow {
    let f = greedy_threads_scenario(policy, m, cpus);
    let a_pid = 0;
    let sim = run_until(&f, |s| s.tasks()[a_pid].stats.exited_at.is_some());
    let a = &sim.tasks()[a_pid];
    let (a_cpu, b_cpu) = (process_cpu_ns(&sim, "A"), process_cpu_ns(&sim, "B"));
    let b_first = sim.processes().iter().find(|p| p.name == "B").expect("B").threads[0];
    GreedyRow {
        policy: policy.to_string(),
        m,
        a_completion_ms: a.stats.exited_at.map(|t| t.ns() as f64 / 1e6),
        a_cpu_ms: a_cpu as f64 / 1e6,
        b_cpu_ms: b_cpu as f64 / 1e6,
        b_over_a: b_cpu as f64 / a_cpu.max(1) as f64,
        b_thread_weight: sim.tasks()[b_first.idx()].se.weight,
    }
}

/// The greedy-threads sweep's points in its rows' order: every policy × every m.
pub fn greedy_threads_points() -> Vec<(&'static str, u32)> {
    GREEDY_POLICIES.iter().flat_map(|&p| GREEDY_M.iter().map(move |&m| (p, m))).collect()
}

pub fn greedy_threads_sweep() -> Vec<GreedyRow> {
    greedy_threads_points().into_iter().map(|(p, m)| greedy_threads_point(p, m)).collect()
}

pub fn greedy_table(rows: &[GreedyRow]) -> String {
    let mut out = format!(
        "{:<8} {:>4} {:>14} {:>10} {:>10} {:>8} {:>9}\n",
        "policy", "m", "A done (ms)", "A cpu ms", "B cpu ms", "B/A", "B weight"
    );
    for r in rows {
        let done = r.a_completion_ms.map_or("-".to_string(), |d| format!("{d:.1}"));
        out += &format!(
            "{:<8} {:>4} {:>14} {:>10.1} {:>10.1} {:>8.2} {:>9}\n",
            r.policy, r.m, done, r.a_cpu_ms, r.b_cpu_ms, r.b_over_a, r.b_thread_weight
        );
    }
    out
}

#[derive(Serialize, Debug, Clone)]
pub struct AlphaPoint {
    pub formula: String,
    pub nt: u32,
    pub alpha: f64,
}

/// DW-CFS's α(Nt, No) for Nt = 1..=max_nt under each candidate formula, for plotting.
pub fn alpha_curve(beta_milli: u32, no: u32, max_nt: u32) -> Vec<AlphaPoint> {
    [AlphaFormula::A, AlphaFormula::B, AlphaFormula::C]
        .iter()
        .flat_map(|&f| {
            (1..=max_nt).map(move |nt| AlphaPoint {
                formula: f.name().to_string(),
                nt,
                alpha: alpha(f, beta_milli, nt, no),
            })
        })
        .collect()
}

/// The four set-ups of the gi-colocation comparison.
pub const GI_VARIANTS: &[&str] = &["none", "plain", "pinned", "gi"];

/// The "pinned" variant's offline cpuset (the article's 混部绑核: "offline
/// CPUs limited to a small range, online unrestricted"): one hardware thread
/// of each of node 0's cores 0-7. That is what a small range such as "0-7"
/// means on the article's machine: Linux enumerates a two-socket Xeon's first
/// hardware threads of every core of every socket first, then the second
/// threads (node 0 = CPUs 0-15 and 32-47, CPU n's sibling is n + 32) [RECALL:
/// the usual `lscpu` of such a box]. Our machine numbers SMT siblings
/// adjacently (core k of node 0 = CPUs 2k and 2k+1), so the same eight
/// threads are the even CPUs 0-14; their siblings stay open to online work,
/// which runs there beside an offline hog (SMT contention) — the 超线程干扰 the
/// article names. "0-7" here would be four whole cores with no such sharing.
pub const PINNED_OFFLINE_CPUS: &str = "0,2,4,6,8,10,12,14";

/// gi-colocation as: "none" (online alone), "plain" (both, identities off),
/// "pinned" (identities off, offline confined to `PINNED_OFFLINE_CPUS`: one
/// thread of each of 8 cores) or "gi" (the preset: online highclass + SMT
/// expeller, offline underclass).
pub fn gi_colocation_scenario(variant: &str) -> ScenarioFile {
    let mut f = preset_file("gi-colocation");
    let offline = |name: &str| name.starts_with("offline");
    match variant {
        "none" => {
            f.policy.group_identity = Some(false);
            f.processes.retain(|p| !offline(&p.name));
        }
        "plain" => f.policy.group_identity = Some(false),
        "pinned" => {
            f.policy.group_identity = Some(false);
            for p in f.processes.iter_mut().filter(|p| offline(&p.name)) {
                p.cpus = Some(PINNED_OFFLINE_CPUS.into());
            }
        }
        "gi" => {}
        other => panic!("unknown gi-colocation variant {other}"),
    }
    f
}

#[derive(Serialize, Debug, Clone)]
pub struct ColocationRow {
    pub variant: String,
    /// Wakeup latency of every online worker together, µs: p50, p90, p99, p99.9, max.
    pub online_wakeup_us: [f64; 5],
    /// Their mean, µs, and the fraction of wakeups that waited at all.
    pub online_wakeup_mean_us: f64,
    pub online_waited: f64,
    pub online_cpu_ms: f64,
    pub offline_cpu_ms: f64,
}

pub fn gi_colocation_point(variant: &str) -> ColocationRow {
    colocation_row(variant, &gi_colocation_scenario(variant))
}

/// Runs one (possibly modified) gi-colocation scenario and measures its
/// online wakeups; `variant` only labels the row.
pub fn colocation_row(variant: &str, file: &ScenarioFile) -> ColocationRow {
    let sim = run_until(file, |_| false);
    let mut lat = LatencyRecord::default();
    let (mut on, mut off, mut queued) = (0u64, 0u64, 0u64);
    for p in sim.processes() {
        let cpu: u64 = p.threads.iter().map(|&pid| sim.tasks()[pid.idx()].se.sum_exec_runtime).sum();
        if p.name.starts_with("online") {
            lat.merge(&p.wakeup_latency);
            queued += p.queued_wakeups;
            on += cpu;
        } else {
            off += cpu;
        }
    }
    let us = |ns: u64| ns as f64 / 1e3;
    ColocationRow {
        variant: variant.to_string(),
        online_wakeup_us: {
            let q = lat.percentiles(&[50.0, 90.0, 99.0, 99.9]);
            [us(q[0]), us(q[1]), us(q[2]), us(q[3]), us(lat.max())]
        },
        online_wakeup_mean_us: lat.mean() / 1e3,
        online_waited: queued as f64 / lat.len().max(1) as f64,
        online_cpu_ms: on as f64 / 1e6,
        offline_cpu_ms: off as f64 / 1e6,
    }
}

pub fn gi_colocation_sweep() -> Vec<ColocationRow> {
    GI_VARIANTS.iter().map(|v| gi_colocation_point(v)).collect()
}

pub fn colocation_table(rows: &[ColocationRow]) -> String {
    let mut out = format!(
        "{:<8} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9} {:>8} {:>11} {:>11}\n",
        "variant", "p50 us", "p90 us", "p99 us", "p99.9 us", "max us", "mean us", "waited", "online ms", "offline ms"
    );
    for r in rows {
        let [p50, p90, p99, p999, max] = r.online_wakeup_us;
        out += &format!(
            "{:<8} {p50:>9.1} {p90:>9.1} {p99:>9.1} {p999:>9.1} {max:>9.1} {:>9.2} {:>7.2}% {:>11.1} {:>11.1}\n",
            r.variant,
            r.online_wakeup_mean_us,
            r.online_waited * 100.0,
            r.online_cpu_ms,
            r.offline_cpu_ms
        );
    }
    out
}

/// eevdf-vs-cfs as "cfs", "eevdf-base" (EEVDF, the latency task at the base
/// slice) or "eevdf" (the preset: a 100 µs custom slice).
pub fn eevdf_scenario(variant: &str) -> ScenarioFile {
    let mut f = preset_file("eevdf-vs-cfs");
    match variant {
        "cfs" | "eevdf-base" => {
            if variant == "cfs" {
                f.policy.kind = "cfs".into();
            }
            for p in &mut f.processes {
                p.slice_us = None;
            }
        }
        "eevdf" => {}
        other => panic!("unknown eevdf-vs-cfs variant {other}"),
    }
    f
}

#[derive(Serialize, Debug, Clone)]
pub struct LatencyRow {
    pub variant: String,
    /// The latency task's wakeup latency, µs: p50, p90, p99, max, and mean.
    pub wakeup_us: [f64; 4],
    pub mean_us: f64,
    pub latency_cpu_ms: f64,
    pub hogs_cpu_ms: f64,
}

pub fn eevdf_point(variant: &str) -> LatencyRow {
    let sim = run_until(&eevdf_scenario(variant), |_| false);
    // The latency process has one thread.
    let lat = &sim.processes().iter().find(|p| p.name == "latency").expect("latency task").wakeup_latency;
    let us = |ns: u64| ns as f64 / 1e3;
    let q = lat.percentiles(&[50.0, 90.0, 99.0]);
    LatencyRow {
        variant: variant.to_string(),
        wakeup_us: [us(q[0]), us(q[1]), us(q[2]), us(lat.max())],
        mean_us: lat.mean() / 1e3,
        latency_cpu_ms: process_cpu_ns(&sim, "latency") as f64 / 1e6,
        hogs_cpu_ms: process_cpu_ns(&sim, "hog") as f64 / 1e6,
    }
}

/// The eevdf-vs-cfs set-ups, in the rows' order.
pub const EEVDF_VARIANTS: &[&str] = &["cfs", "eevdf-base", "eevdf"];

pub fn eevdf_sweep() -> Vec<LatencyRow> {
    EEVDF_VARIANTS.iter().map(|v| eevdf_point(v)).collect()
}

pub fn latency_table(rows: &[LatencyRow]) -> String {
    let mut out = format!(
        "{:<11} {:>9} {:>9} {:>9} {:>9} {:>9} {:>12} {:>10}\n",
        "variant", "p50 us", "p90 us", "p99 us", "max us", "mean us", "latency ms", "hogs ms"
    );
    for r in rows {
        let [p50, p90, p99, max] = r.wakeup_us;
        out += &format!(
            "{:<11} {p50:>9.1} {p90:>9.1} {p99:>9.1} {max:>9.1} {:>9.1} {:>12.1} {:>10.1}\n",
            r.variant, r.mean_us, r.latency_cpu_ms, r.hogs_cpu_ms
        );
    }
    out
}

#[derive(Serialize, Debug, Clone)]
pub struct O1Row {
    pub policy: String,
    pub process: String,
    pub cpu_ms: f64,
    pub wait_ms: f64,
    /// Longest time on the CPU without a switch (a run slice), ms.
    pub longest_turn_ms: f64,
    /// Wakeup latency p99 and max, µs.
    pub wakeup_p99_us: f64,
    pub wakeup_max_us: f64,
}

/// The policies o1-vs-cfs compares, in the rows' order: "o1" (the preset) and "cfs".
pub const O1_POLICIES: &[&str] = &["o1", "cfs"];

/// o1-vs-cfs under `policy`: one row per process.
pub fn o1_vs_cfs_point(policy: &str) -> Vec<O1Row> {
    let mut f = preset_file("o1-vs-cfs");
    f.policy.kind = policy.to_string();
    let sim = run_until(&f, |_| false);
    sim.processes()
        .iter()
        .map(|p| {
            // Each process of o1-vs-cfs has one thread.
            let t = &sim.tasks()[p.threads[0].idx()];
            let lat = &p.wakeup_latency;
            O1Row {
                policy: policy.to_string(),
                process: p.name.clone(),
                cpu_ms: t.se.sum_exec_runtime as f64 / 1e6,
                wait_ms: t.stats.wait_ns_at(sim.now()) as f64 / 1e6,
                longest_turn_ms: t.stats.longest_run_ns as f64 / 1e6,
                wakeup_p99_us: lat.percentiles(&[99.0])[0] as f64 / 1e3,
                wakeup_max_us: lat.max() as f64 / 1e3,
            }
        })
        .collect()
}

/// o1-vs-cfs under each of `O1_POLICIES`: one row per process.
pub fn o1_vs_cfs_sweep() -> Vec<O1Row> {
    O1_POLICIES.iter().flat_map(|p| o1_vs_cfs_point(p)).collect()
}

pub fn o1_table(rows: &[O1Row]) -> String {
    let mut out = format!(
        "{:<6} {:<8} {:>9} {:>9} {:>12} {:>11} {:>11}\n",
        "policy", "process", "cpu ms", "wait ms", "longest run", "p99 wake us", "max wake us"
    );
    for r in rows {
        out += &format!(
            "{:<6} {:<8} {:>9.1} {:>9.1} {:>12.1} {:>11.1} {:>11.1}\n",
            r.policy, r.process, r.cpu_ms, r.wait_ms, r.longest_turn_ms, r.wakeup_p99_us, r.wakeup_max_us
        );
    }
    out
}

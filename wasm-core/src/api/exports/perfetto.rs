//! The run as Chrome / Perfetto trace JSON (the Trace Event Format's JSON
//! object form), which opens in ui.perfetto.dev and chrome://tracing.
//!
//! The engine keeps only a bounded number of run slices and a ring of recent
//! scheduling records, so the exporter replays the run from its start (runs are
//! deterministic) up to the cursor and reads each event's new records as they
//! are emitted. The output is streamed into one String and capped at
//! `max_events` trace events: past it the replay stops and `otherData` says
//! where the trace was cut.
//!
//! ```text
//!   process "CPU n" (pid n+1, sorted by n) ─ thread "CPU n" : X slices (who ran), i instants
//!                                          └ counters C "nr_running", "load"
//!   process "machine" (pid nr_cpus+1)      ─ i instants (scope g): sanity-checker violations
//! ```
//! Timestamps are µs with three decimals, so the engine's nanoseconds are exact.

use crate::api::views::view::describe;
use crate::sim::Simulator;
use crate::time::{CpuId, Pid, SimTime};
use crate::trace::{TraceKind, TraceRecord};
use std::fmt::Write;

/// Default cap: about 60 MB of JSON, which a browser tab downloads and
/// Perfetto loads comfortably.
pub const DEFAULT_MAX_EVENTS: usize = 500_000;
/// Waiting threads named in one violation event (the count is always given).
const VIOLATION_NAMES: usize = 16;

pub struct ChromeTrace {
    pub json: String,
    /// Trace events written (metadata included).
    pub events: usize,
    /// Set when the cap cut the trace: the simulated time (ns) it stopped at.
    pub truncated_at_ns: Option<u64>,
}

fn us(ns: u64) -> String {
    format!("{}.{:03}", ns / 1000, ns % 1000)
}

fn jstr(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_else(|_| "\"?\"".to_string())
}

struct Writer {
    out: String,
    events: usize,
    max: usize,
}

impl Writer {
    fn full(&self) -> bool {
        self.events >= self.max
    }

    /// Appends one event object (given without braces).
    fn event(&mut self, body: &str) {
        if self.events > 0 {
            self.out.push(',');
        }
        self.out.push_str("\n{");
        self.out.push_str(body);
        self.out.push('}');
        self.events += 1;
    }
}

fn cpu_pid(cpu: CpuId) -> u32 {
    cpu.0 + 1
}

/// Replays `start` (a simulator at its first event) until it has processed
/// `until_events` events, writing the trace of what happened.
pub fn chrome_trace(start: &Simulator, until_events: u64, max_events: usize) -> ChromeTrace {
    let mut sim = start.clone();
    let nr_cpus = sim.rqs().len() as u32;
    let machine_pid = nr_cpus + 1;
    let mut w = Writer { out: String::from("{\"traceEvents\":["), events: 0, max: max_events.max(1) };
    for cpu in CpuId::all(nr_cpus) {
        let p = cpu_pid(cpu);
        let name = jstr(&format!("CPU {cpu}"));
        w.event(&format!(r#""name":"process_name","ph":"M","ts":0,"pid":{p},"tid":{p},"args":{{"name":{name}}}"#));
        w.event(&format!(
            r#""name":"process_sort_index","ph":"M","ts":0,"pid":{p},"tid":{p},"args":{{"sort_index":{cpu}}}"#
        ));
        w.event(&format!(r#""name":"thread_name","ph":"M","ts":0,"pid":{p},"tid":{p},"args":{{"name":{name}}}"#));
    }
    let m = machine_pid;
    w.event(&format!(r#""name":"process_name","ph":"M","ts":0,"pid":{m},"tid":{m},"args":{{"name":"machine"}}"#));
    w.event(&format!(r#""name":"process_sort_index","ph":"M","ts":0,"pid":{m},"tid":{m},"args":{{"sort_index":-1}}"#));

    let (mut records, mut rq_changes) = (sim.trace().records_total(), sim.trace().rq_changes_total());
    let (mut slices, mut violations) = (0usize, 0usize);
    let mut truncated_at_ns = None;
    let mut lost = (0usize, 0usize);
    while sim.events_processed() < until_events {
        if w.full() {
            truncated_at_ns = Some(sim.now().ns());
            break;
        }
        if !sim.step_event() {
            break;
        }
        let t = sim.trace();
        let new = (t.records_total() - records) as usize;
        let mut seen = 0;
        for r in t.recent(new) {
            instant(&mut w, &sim, r);
            seen += 1;
        }
        // One event (a spawn of thousands of threads) can emit more records
        // than the trace's rings keep: those are counted and said.
        lost.0 += new - seen;
        records = t.records_total();
        let new = (t.rq_changes_total() - rq_changes) as usize;
        lost.1 += new - t.rq_changes(new).count();
        for c in t.rq_changes(new) {
            let (p, ts) = (cpu_pid(c.cpu), us(c.at.ns()));
            w.event(&format!(
                r#""name":"nr_running","ph":"C","ts":{ts},"pid":{p},"tid":{p},"args":{{"nr_running":{}}}"#,
                c.nr_running
            ));
            w.event(&format!(r#""name":"load","ph":"C","ts":{ts},"pid":{p},"tid":{p},"args":{{"load":{}}}"#, c.load));
        }
        rq_changes = t.rq_changes_total();
        for s in t.slices_since(slices) {
            slice(&mut w, &sim, s.cpu, s.pid, s.start, s.end, false);
        }
        slices = t.slices_total();
        for v in &sim.sanity_violations()[violations..] {
            let waiting: Vec<String> =
                v.waiting.iter().take(VIOLATION_NAMES).map(|&p| jstr(&sim.tasks()[p.idx()].name)).collect();
            w.event(&format!(
                r#""name":"sanity violation","cat":"checker","ph":"i","s":"g","ts":{},"pid":{m},"tid":{m},"args":{{"confirmed_us":{},"idle_cpus":{:?},"waiting_threads":{},"waiting_names":[{}]}}"#,
                us(v.detected.ns()),
                us(v.confirmed.ns()),
                v.idle_cpus,
                v.waiting_total,
                waiting.join(",")
            ));
        }
        violations = sim.sanity_violations().len();
    }
    // The slices still running at the cursor end there.
    let now = sim.now();
    for rq in sim.rqs() {
        if let Some(pid) = rq.curr() {
            slice(&mut w, &sim, rq.cpu, pid, rq.slice_start, now, true);
        }
    }
    let events = w.events;
    let mut out = w.out;
    let _ = write!(
        out,
        "\n],\"displayTimeUnit\":\"ns\",\"otherData\":{{\"generator\":\"schedlab\",\"scenario\":{},\"seed\":\"{}\",\"trace_hash\":\"{:016x}\",\"until_us\":\"{}\"",
        jstr(sim.name()),
        sim.seed(),
        sim.trace().hash(),
        us(now.ns())
    );
    if let Some(at) = truncated_at_ns {
        let _ = write!(
            out,
            ",\"truncated\":\"the export stopped at {} ms after {} trace events (its cap); export an earlier cursor or a shorter run for the rest\"",
            us(at / 1000),
            events
        );
    }
    if lost != (0, 0) {
        let _ = write!(
            out,
            ",\"lost\":\"{} scheduling records and {} runqueue changes were left out: single events emitted more than the trace keeps\"",
            lost.0, lost.1
        );
    }
    out.push_str("}}\n");
    ChromeTrace { json: out, events, truncated_at_ns }
}

fn slice(w: &mut Writer, sim: &Simulator, cpu: CpuId, pid: Pid, start: SimTime, end: SimTime, running: bool) {
    let t = &sim.tasks()[pid.idx()];
    let p = cpu_pid(cpu);
    w.event(&format!(
        r#""name":{},"cat":"sched","ph":"X","ts":{},"dur":{},"pid":{p},"tid":{p},"args":{{"pid":{pid},"tgid":{},"nice":{},"running_at_end":{running}}}"#,
        jstr(&t.name),
        us(start.ns()),
        us(end.since(start)),
        t.tgid,
        t.nice
    ));
}

/// A scheduling record as an instant on its CPU's track. Switches and sleeps
/// are already the slices' edges.
fn instant(w: &mut Writer, sim: &Simulator, r: &TraceRecord) {
    let args = match r.kind {
        TraceKind::Switch { .. } | TraceKind::Sleep { .. } => return,
        TraceKind::Wakeup { pid }
        | TraceKind::WakeupNew { pid }
        | TraceKind::Exit { pid }
        | TraceKind::TickPreempt { pid } => {
            format!(r#""pid":{pid}"#)
        }
        TraceKind::WakeupPreempt { curr, by } => format!(r#""curr":{curr},"by":{by}"#),
        TraceKind::Migrate { pid, from, cause } => {
            format!(r#""pid":{pid},"from_cpu":{from},"to_cpu":{},"cause":"{}""#, r.cpu, cause.as_str())
        }
        TraceKind::Balance { level, moved } => format!(r#""level":{level},"moved":{moved}"#),
        TraceKind::Hotplug { offline } => format!(r#""offline":{offline}"#),
        TraceKind::PiSetprio { pid, oldprio, newprio } => {
            format!(r#""pid":{pid},"oldprio":{oldprio},"newprio":{newprio}"#)
        }
    };
    let ev = describe(sim, r);
    let p = cpu_pid(r.cpu);
    w.event(&format!(
        r#""name":"{}","cat":"sched","ph":"i","s":"t","ts":{},"pid":{p},"tid":{p},"args":{{{args},"text":{}}}"#,
        ev.kind,
        us(r.at.ns()),
        jstr(&ev.text)
    ));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::scenario::load_scenario;
    use serde_json::Value;

    fn start(preset: &str) -> Simulator {
        Simulator::new(&load_scenario(crate::api::presets::find(preset).unwrap().json).unwrap())
    }

    #[test]
    fn replays_to_the_cursor_and_writes_valid_json() {
        let s = start("group-imbalance-make");
        let mut live = s.clone();
        live.run_until(SimTime(50_000_000));
        let out = chrome_trace(&s, live.events_processed(), DEFAULT_MAX_EVENTS);
        let v: Value = serde_json::from_str(&out.json).expect("valid JSON");
        let evs = v["traceEvents"].as_array().unwrap();
        assert_eq!(evs.len(), out.events);
        assert_eq!(
            v["otherData"]["trace_hash"],
            format!("{:016x}", live.trace().hash()),
            "replay reached the same state"
        );
        let ph = |p: &str| evs.iter().filter(|e| e["ph"] == p).count();
        assert!(ph("X") > 0 && ph("i") > 0 && ph("C") > 0 && ph("M") > 0);
        // Slices per CPU add up to the CPU's busy time.
        let busy: f64 =
            evs.iter().filter(|e| e["ph"] == "X" && e["pid"] == 1).map(|e| e["dur"].as_f64().unwrap()).sum();
        assert!((busy - live.rqs()[0].busy_ns_at(live.now()) as f64 / 1e3).abs() < 1.0, "busy {busy}");
        // Every migration of the run appears, though the ring kept only the last ones.
        let moved = evs.iter().filter(|e| e["name"] == "sched_migrate_task").count() as u64;
        assert_eq!(moved, live.tasks().iter().map(|t| t.stats.migrations).sum::<u64>());
        assert!(out.truncated_at_ns.is_none());
    }

    #[test]
    fn the_cap_cuts_the_trace_and_says_so() {
        let s = start("cfs-nice-levels");
        let out = chrome_trace(&s, u64::MAX, 200);
        assert!(out.events < 220, "{}", out.events);
        let v: Value = serde_json::from_str(&out.json).unwrap();
        assert!(v["otherData"]["truncated"].as_str().unwrap().contains("cap"));
        assert!(out.truncated_at_ns.is_some());
    }

    #[test]
    fn names_are_escaped() {
        // Validation refuses control characters in names; the export escapes
        // whatever names the engine holds.
        let mut cfg = load_scenario(crate::api::presets::find("cfs-nice-levels").unwrap().json).unwrap();
        cfg.processes[0].name = format!("q\"<x>\n{}", cfg.processes[0].name);
        let s = Simulator::new(&cfg);
        let out = chrome_trace(&s, 2000, DEFAULT_MAX_EVENTS);
        let v: Value = serde_json::from_str(&out.json).expect("valid JSON despite quotes in names");
        assert!(v["traceEvents"]
            .as_array()
            .unwrap()
            .iter()
            .any(|e| e["name"].as_str().is_some_and(|n| n.starts_with("q\"<x>\n"))));
    }
}

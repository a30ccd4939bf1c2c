//! The WebAssembly API: the only file with `#[wasm_bindgen]`. A thin wrapper
//! that turns JS calls into engine calls and engine values into JS objects
//! (typed by their generated TS types, `to_js`) or typed arrays. One long-lived `Simulator` handle stays in Rust; JS never
//! receives a per-event call.
//!
//! Times cross the boundary as JS numbers holding integer nanoseconds (exact
//! up to 2^53 ns ≈ 104 days, far beyond the 600 s scenario limit).

use crate::api::exports::{metrics_csv, perfetto};
use crate::api::scenario::exercise::ExerciseFile;
use crate::api::timeline::{Mark, Timeline};
use crate::api::views::frame::{self, FramePacket, FrameQuery};
use crate::api::views::frame_sim::SimFrame;
use crate::api::views::{inspector, metrics, topology, view};
use crate::api::{editor, report, scenario};
use crate::sim::Simulator as Engine;
use crate::time::SimTime;
use js_sys::Reflect;
use wasm_bindgen::prelude::*;
// The policy host below names the binding crate's types only through here.
use wasm_bindgen::JsCast;

mod policy_host;

fn to_json<T: serde::Serialize>(v: &T) -> String {
    serde_json::to_string(v).unwrap_or_else(|e| format!("{{\"error\":\"{e}\"}}"))
}

/// A value the page reads, handed over as a JS object: written by serde here and read by the JS engine's own
/// `JSON.parse` (the quickest way a nested value crosses). Each method that returns one names its TypeScript type
/// in `unchecked_return_type`; that type is generated from the same struct (`boundary_types.rs`), and
/// tests/unit/engine-reads.test.ts type-checks real answers of every such method against its declared type with tsc.
fn to_js<T: serde::Serialize>(v: &T) -> JsValue {
    js_sys::JSON::parse(&to_json(v)).unwrap_or(JsValue::NULL)
}

fn ns(t: f64) -> SimTime {
    // NaN and negatives become 0; huge values saturate.
    SimTime(if t.is_finite() && t > 0.0 { t as u64 } else { 0 })
}

#[wasm_bindgen(typescript_custom_section)]
const BOUNDARY_TS: &str = r#"
import type {
  Choices, DecisionView, EventView, FrameHeader, LatencyCdf, MigrationView, PlacementView, Problem, ReadReport, Report,
  SimView, TaskView, TopologyView,
} from '../../src/engine/generated/engine';

/** One machine's frame (`Simulator.frame`, `RealTrace.frame`): `header` the frame's small values; the arrays'
 * layouts are `api::views::frame`'s: `cpus` has `frameCpuFields().length` numbers a CPU in that order, `slices` flat
 * quads [cpu, pid, start_ns, end_ns, …], `history` the heatmaps' (bucket-major, `header.history` gives its shape). */
export interface FramePacket {
  header: FrameHeader;
  cpus: Float64Array;
  slices: Float64Array;
  history: { nrRunning: Float32Array; load: Float32Array; migrations: Uint32Array; wasted: Float64Array } | null;
}
"#;

/// The names of a frame's per-CPU numbers, in their order in `FramePacket.cpus`.
#[wasm_bindgen(js_name = frameCpuFields)]
pub fn frame_cpu_fields() -> Vec<String> {
    frame::CPU_FIELDS.iter().map(|f| f.to_string()).collect()
}

fn frame_query(json: &str) -> Result<FrameQuery, JsError> {
    FrameQuery::from_json(json).map_err(|e| JsError::new(&e))
}

/// A frame as one JS object: its header as JSON text, its arrays as typed arrays (the worker transfers them).
fn packet_js(p: FramePacket) -> JsValue {
    let o = js_sys::Object::new();
    let set = |k: &str, v: &JsValue| {
        let _ = Reflect::set(&o, &JsValue::from_str(k), v);
    };
    set("header", &to_js(&p.header));
    set("cpus", &js_sys::Float64Array::from(&p.cpus[..]).into());
    set("slices", &js_sys::Float64Array::from(&p.slices[..]).into());
    let history = match p.history {
        None => JsValue::NULL,
        Some(h) => {
            let a = js_sys::Object::new();
            let put = |k: &str, v: JsValue| {
                let _ = Reflect::set(&a, &JsValue::from_str(k), &v);
            };
            put("nrRunning", js_sys::Float32Array::from(&h.nr_running[..]).into());
            put("load", js_sys::Float32Array::from(&h.load[..]).into());
            put("migrations", js_sys::Uint32Array::from(&h.migrations[..]).into());
            put("wasted", js_sys::Float64Array::from(&h.wasted[..]).into());
            a.into()
        }
    };
    set("history", &history);
    o.into()
}

/// Every problem of a scenario, `[{path, message}]` (empty when it would
/// load), without building a simulation: the editor's inline validation.
#[wasm_bindgen(js_name = validateScenario, unchecked_return_type = "Problem[]")]
pub fn validate_scenario(scenario_json: &str) -> JsValue {
    to_js(&editor::problems(scenario_json))
}

/// The choices the scenario format offers: machine presets with their
/// shape, program templates with their steps, policy kinds, bug profiles.
#[wasm_bindgen(js_name = scenarioChoices, unchecked_return_type = "Choices")]
pub fn scenario_choices() -> JsValue {
    to_js(&editor::choices())
}

/// Registers the worker's host of sched_ext policies: `(runtime, source,
/// nrCpus, seed) => { call, initTask, kicks, error }` (it throws when the
/// policy does not load); the engine builds each run's host with it.
#[wasm_bindgen(js_name = setPolicyHost)]
pub fn set_policy_host(factory: js_sys::Function) {
    policy_host::register(factory);
}

/// A Chrome / Perfetto trace export (`Simulator.chrome_trace`).
#[wasm_bindgen(getter_with_clone)]
pub struct ChromeTraceExport {
    /// The trace JSON.
    pub json: String,
    /// Trace events written (metadata included).
    pub events: u32,
    /// Where the cap cut the export (simulated ns), when it did.
    pub truncated_at_ns: Option<f64>,
}

/// A full copy of a simulation's state (see `Simulator.save`).
#[wasm_bindgen]
pub struct SimSnapshot {
    inner: Timeline,
}

/// A simulation with exact rewind (`api::timeline`): snapshots plus
/// deterministic replay, and the heatmaps' sampled history.
#[wasm_bindgen]
pub struct Simulator {
    inner: Timeline,
    /// The scenario's exercise, judged in every report this simulation gives
    /// (the simulator itself does not carry the scenario).
    exercise: Option<ExerciseFile>,
}

#[wasm_bindgen]
impl Simulator {
    /// Throws an Error naming every invalid field (`processes[0].nice: …`).
    #[wasm_bindgen(constructor)]
    pub fn new(scenario_json: &str) -> Result<Simulator, JsError> {
        let cfg = scenario::load_scenario(scenario_json)
            .map_err(|diags| JsError::new(&diags.iter().map(ToString::to_string).collect::<Vec<_>>().join("\n")))?;
        let exercise = scenario::parse_scenario(scenario_json).ok().and_then(|s| s.exercise);
        Ok(Simulator { inner: Timeline::from_config(&cfg), exercise })
    }

    fn sim(&self) -> &Engine {
        self.inner.sim()
    }

    pub fn step_event(&mut self) -> bool {
        self.inner.step_event()
    }

    pub fn step_tick(&mut self) -> bool {
        self.inner.step_tick()
    }

    pub fn run_until(&mut self, t_ns: f64) {
        self.inner.run_until(ns(t_ns));
    }

    /// As `run_until`, processing at most `max_events` events; true when it got to `t_ns`.
    pub fn run_until_limited(&mut self, t_ns: f64, max_events: u32) -> bool {
        self.inner.run_until_limited(ns(t_ns), u64::from(max_events))
    }

    /// Goes (forward or back, exactly) to the state right after event `n`.
    pub fn seek_event(&mut self, n: f64) {
        self.inner.seek_event(if n.is_finite() && n > 0.0 { n as u64 } else { 0 });
    }

    /// Goes (forward or back, exactly) to simulated time `t_ns`.
    pub fn seek_time(&mut self, t_ns: f64) {
        self.inner.seek_time(ns(t_ns));
    }

    /// Steps to the next (`forward`) or previous `"decision"`, `"migration"`,
    /// `"violation"` or `"tick"`; false when there is none (then it does not move
    /// backward, and forward it has run to the end).
    pub fn step_mark(&mut self, mark: &str, forward: bool) -> Result<bool, JsError> {
        let m = Mark::parse(mark).ok_or_else(|| JsError::new(&format!("unknown mark '{mark}'")))?;
        Ok(if forward { self.inner.next_mark(m) } else { self.inner.prev_mark(m) })
    }

    /// As `step_mark` forward, processing no event after `limit_ns`: 1 found,
    /// 0 the run ended, -1 stopped at the limit (call again from there).
    pub fn step_mark_until(&mut self, mark: &str, limit_ns: f64) -> Result<i32, JsError> {
        let m = Mark::parse(mark).ok_or_else(|| JsError::new(&format!("unknown mark '{mark}'")))?;
        Ok(match self.inner.next_mark_until(m, ns(limit_ns)) {
            Some(true) => 1,
            Some(false) => 0,
            None => -1,
        })
    }

    /// Starts a backward search for the previous mark, carried out one
    /// snapshot window per `prev_mark_continue` call.
    pub fn prev_mark_start(&mut self, mark: &str) -> Result<(), JsError> {
        let m = Mark::parse(mark).ok_or_else(|| JsError::new(&format!("unknown mark '{mark}'")))?;
        self.inner.prev_mark_start(m);
        Ok(())
    }

    /// 1 found (and moved there), 0 none, -1 not yet (call again).
    pub fn prev_mark_continue(&mut self) -> i32 {
        match self.inner.prev_mark_continue() {
            Some(true) => 1,
            Some(false) => 0,
            None => -1,
        }
    }

    /// The event count below which the backward search still looks.
    pub fn prev_mark_searched_to(&self) -> f64 {
        self.inner.prev_mark_searched_to() as f64
    }

    pub fn events(&self) -> f64 {
        self.sim().events_processed() as f64
    }

    pub fn now_ns(&self) -> f64 {
        self.sim().now().ns() as f64
    }

    pub fn duration_ns(&self) -> f64 {
        self.sim().duration().ns() as f64
    }

    pub fn finished(&self) -> bool {
        self.sim().finished()
    }

    /// The whole state at the cursor: every CPU's trees and every task.
    #[wasm_bindgen(unchecked_return_type = "SimView")]
    pub fn view(&self) -> JsValue {
        to_js(&view::sim_view(self.sim()))
    }

    /// The same as JSON text (cheap to post between threads, and compared as text by the equivalence tests).
    pub fn view_json(&self) -> String {
        to_json(&view::sim_view(self.sim()))
    }

    /// One refresh of the lab (`query_json` a `FrameQuery`): see `FramePacket`.
    #[wasm_bindgen(unchecked_return_type = "FramePacket")]
    pub fn frame(&self, query_json: &str) -> Result<JsValue, JsError> {
        let src = SimFrame { timeline: &self.inner, exercise: self.exercise.as_ref() };
        Ok(packet_js(frame::frame(&src, &frame_query(query_json)?)))
    }

    /// Every task.
    #[wasm_bindgen(unchecked_return_type = "TaskView[]")]
    pub fn tasks(&self) -> JsValue {
        to_js(&view::task_views(self.sim()))
    }

    /// Names of tasks `from..`; names never change.
    pub fn task_names(&self, from: u32) -> Vec<String> {
        view::task_names(self.sim(), from as usize).into_iter().map(String::from).collect()
    }

    pub fn nr_tasks(&self) -> u32 {
        self.sim().tasks().len() as u32
    }

    /// The report, with the scenario's exercise judged from it (as `schedsim run --json`).
    #[wasm_bindgen(unchecked_return_type = "Report")]
    pub fn metrics(&self) -> JsValue {
        to_js(&report::with_exercise(report::report(self.sim()), self.exercise.as_ref(), self.sim()))
    }

    /// The report a lab frame carries: without schedstats (a frame carries the queried CPU's).
    #[wasm_bindgen(unchecked_return_type = "Report")]
    pub fn page_metrics(&self) -> JsValue {
        to_js(&report::with_exercise(report::page_report(self.sim()), self.exercise.as_ref(), self.sim()))
    }

    /// The metrics report as CSV (headline, per process, per CPU).
    pub fn metrics_csv(&self) -> String {
        metrics_csv::metrics_csv(self.sim())
    }

    /// The run from its start to the cursor as Chrome / Perfetto trace JSON
    /// (replayed; capped at `perfetto::DEFAULT_MAX_EVENTS` events), with how
    /// many events it holds and where the cap cut it, as fields: the page
    /// never reads them back out of the text.
    pub fn chrome_trace(&self) -> ChromeTraceExport {
        let t =
            perfetto::chrome_trace(&self.inner.start(), self.sim().events_processed(), perfetto::DEFAULT_MAX_EVENTS);
        ChromeTraceExport {
            json: t.json,
            events: t.events as u32,
            truncated_at_ns: t.truncated_at_ns.map(|n| n as f64),
        }
    }

    /// The machine: nodes, cores, SMT threads, distances and hops, online CPUs.
    #[wasm_bindgen(unchecked_return_type = "TopologyView")]
    pub fn topology(&self) -> JsValue {
        to_js(&topology::topology(self.sim()))
    }

    /// Up to `n` migrations at or after `since_ns` among the recent trace records.
    #[wasm_bindgen(unchecked_return_type = "MigrationView[]")]
    pub fn migrations(&self, since_ns: f64, n: u32) -> JsValue {
        to_js(&topology::recent_migrations(self.sim(), ns(since_ns).ns(), n as usize))
    }

    /// Each woken process's wakeup latency quantiles.
    #[wasm_bindgen(unchecked_return_type = "LatencyCdf[]")]
    pub fn latency_cdfs(&self, points: u32) -> JsValue {
        to_js(&metrics::latency_cdfs(self.sim(), points as usize))
    }

    /// The `n` most recent trace events (oldest first).
    #[wasm_bindgen(unchecked_return_type = "EventView[]")]
    pub fn recent_events(&self, n: u32) -> JsValue {
        to_js(&view::recent_events(self.sim(), n as usize))
    }

    /// The `n` most recent load-balancing decisions with their statistics and
    /// an explanation (oldest first); `designated_only` leaves out calls by
    /// CPUs that were not the group's balancer.
    #[wasm_bindgen(unchecked_return_type = "DecisionView[]")]
    pub fn decisions(&self, n: u32, designated_only: bool) -> JsValue {
        to_js(&inspector::recent_decisions(self.sim(), n as usize, designated_only))
    }

    /// The `n` most recent wakeup/fork placements with the CPUs each could
    /// consider (oldest first).
    #[wasm_bindgen(unchecked_return_type = "PlacementView[]")]
    pub fn placements(&self, n: u32) -> JsValue {
        to_js(&inspector::recent_placements(self.sim(), n as usize))
    }

    pub fn trace_hash(&self) -> String {
        format!("{:016x}", self.sim().trace().hash())
    }

    pub fn save(&self) -> SimSnapshot {
        SimSnapshot { inner: self.inner.clone() }
    }

    pub fn restore(&mut self, snapshot: &SimSnapshot) {
        self.inner = snapshot.inner.clone();
    }
}

/// A real trace (ftrace text, trace-cmd report, perf script) read for the lab's views, with a cursor the
/// views are read at: the same shapes as `Simulator`'s, so the page draws it as it draws a simulation.
#[wasm_bindgen]
pub struct RealTrace {
    inner: crate::trace_import::replay::Replay,
    now: u64,
}

#[wasm_bindgen]
impl RealTrace {
    /// Throws the importer's message (a damaged line is named by its number). `cpus` 0: from the file.
    #[wasm_bindgen(constructor)]
    pub fn new(text: &str, name: &str, cpus: u32) -> Result<RealTrace, JsError> {
        if text.len() as u64 > crate::trace_import::replay::MAX_PAGE_TRACE_BYTES {
            return Err(JsError::new("the trace is larger than the page opens"));
        }
        let choices = crate::trace_import::import::Choices { cpus: (cpus > 0).then_some(cpus), comms: None };
        let inner = crate::trace_import::replay::open(text, name, &choices).map_err(|e| JsError::new(&e))?;
        let now = inner.duration_ns;
        Ok(RealTrace { inner, now })
    }

    /// `{format, report}` as `schedsim real-trace --json` prints it.
    #[wasm_bindgen(unchecked_return_type = "ReadReport")]
    pub fn real_report(&self) -> JsValue {
        to_js(&self.read_report())
    }

    /// The same as JSON text, exactly as the CLI prints it (the page's download).
    pub fn real_report_json(&self) -> String {
        to_json(&self.read_report())
    }

    pub fn seek_time(&mut self, t_ns: f64) {
        self.now = ns(t_ns).ns().min(self.inner.duration_ns);
    }

    pub fn now_ns(&self) -> f64 {
        self.now as f64
    }

    pub fn duration_ns(&self) -> f64 {
        self.inner.duration_ns as f64
    }

    /// Records at or before the cursor.
    pub fn events(&self) -> f64 {
        self.inner.events_at(self.now) as f64
    }

    /// The time of record `n` (1-based: the state right after it); the end past the last.
    pub fn time_of_event(&self, n: f64) -> f64 {
        let n = if n.is_finite() && n > 0.0 { n as usize } else { 0 };
        match n {
            0 => 0.0,
            _ => self.inner.records.get(n - 1).map_or(self.inner.duration_ns, |r| r.ts_ns) as f64,
        }
    }

    /// The view at the cursor (counters and current tasks; a trace has no trees).
    #[wasm_bindgen(unchecked_return_type = "SimView")]
    pub fn view(&self) -> JsValue {
        to_js(&self.inner.frame_at(self.now))
    }

    /// The same as JSON text.
    pub fn view_json(&self) -> String {
        to_json(&self.inner.frame_at(self.now))
    }

    /// One refresh of the lab, as `Simulator.frame` gives it.
    #[wasm_bindgen(unchecked_return_type = "FramePacket")]
    pub fn frame(&self, query_json: &str) -> Result<JsValue, JsError> {
        let src = crate::trace_import::replay_frame::ReplayFrame { replay: &self.inner, now: self.now };
        Ok(packet_js(frame::frame(&src, &frame_query(query_json)?)))
    }

    #[wasm_bindgen(unchecked_return_type = "Report")]
    pub fn page_metrics(&self) -> JsValue {
        to_js(&self.inner.page_report())
    }

    #[wasm_bindgen(unchecked_return_type = "LatencyCdf[]")]
    pub fn latency_cdfs(&self, points: u32) -> JsValue {
        to_js(&self.inner.latency_cdfs(points as usize))
    }

    #[wasm_bindgen(unchecked_return_type = "TopologyView")]
    pub fn topology(&self) -> JsValue {
        to_js(&self.inner.topology())
    }

    #[wasm_bindgen(unchecked_return_type = "MigrationView[]")]
    pub fn migrations(&self, since_ns: f64, n: u32) -> JsValue {
        to_js(&self.inner.migrations_between(ns(since_ns).ns(), self.now, n as usize))
    }
}

impl RealTrace {
    fn read_report(&self) -> crate::trace_import::analysis::ReadReport<'_> {
        crate::trace_import::analysis::ReadReport { format: self.inner.format.name(), report: &self.inner.report }
    }
}

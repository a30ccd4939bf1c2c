//! The WebAssembly API: the only file with `#[wasm_bindgen]`. A thin wrapper
//! that turns JS calls into engine calls and engine values into JSON text or
//! typed arrays. One long-lived `Simulator` handle stays in Rust; JS never
//! receives a per-event call.
//!
//! Times cross the boundary as JS numbers holding integer nanoseconds (exact
//! up to 2^53 ns ≈ 104 days, far beyond the 600 s scenario limit).

use crate::api::{inspector, presets, report, scenario, view};
use crate::sim::Simulator as Engine;
use crate::time::SimTime;
use wasm_bindgen::prelude::*;

fn to_json<T: serde::Serialize>(v: &T) -> String {
    serde_json::to_string(v).unwrap_or_else(|e| format!("{{\"error\":\"{e}\"}}"))
}

fn ns(t: f64) -> SimTime {
    // NaN and negatives become 0; huge values saturate.
    SimTime(if t.is_finite() && t > 0.0 { t as u64 } else { 0 })
}

/// `[{name, title, description}]` of the built-in presets.
#[wasm_bindgen(js_name = presetList)]
pub fn preset_list() -> String {
    let list: Vec<serde_json::Value> = presets::PRESETS
        .iter()
        .map(|p| {
            let description = scenario::parse_scenario(p.json).map(|s| s.description).unwrap_or_default();
            serde_json::json!({ "name": p.name, "title": p.title, "description": description })
        })
        .collect();
    to_json(&list)
}

/// The scenario JSON text of a preset.
#[wasm_bindgen(js_name = presetScenario)]
pub fn preset_scenario(name: &str) -> Result<String, JsError> {
    presets::find(name).map(|p| p.json.to_string()).ok_or_else(|| JsError::new(&format!("unknown preset '{name}'")))
}

/// A full copy of a simulation's state (see `Simulator.save`).
#[wasm_bindgen]
pub struct SimSnapshot {
    inner: Engine,
}

#[wasm_bindgen]
pub struct Simulator {
    inner: Engine,
}

#[wasm_bindgen]
impl Simulator {
    /// Throws an Error naming every invalid field (`processes[0].nice: …`).
    #[wasm_bindgen(constructor)]
    pub fn new(scenario_json: &str) -> Result<Simulator, JsError> {
        let cfg = scenario::load_scenario(scenario_json)
            .map_err(|diags| JsError::new(&diags.iter().map(ToString::to_string).collect::<Vec<_>>().join("\n")))?;
        Ok(Simulator { inner: Engine::new(&cfg) })
    }

    pub fn step_event(&mut self) -> bool {
        self.inner.clear_rotations();
        self.inner.step_event()
    }

    pub fn step_tick(&mut self) -> bool {
        self.inner.clear_rotations();
        self.inner.step_tick()
    }

    pub fn run_until(&mut self, t_ns: f64) {
        self.inner.clear_rotations();
        self.inner.run_until(ns(t_ns));
    }

    pub fn now_ns(&self) -> f64 {
        self.inner.now().ns() as f64
    }

    pub fn duration_ns(&self) -> f64 {
        self.inner.duration().ns() as f64
    }

    pub fn finished(&self) -> bool {
        self.inner.finished()
    }

    pub fn view_json(&self) -> String {
        to_json(&view::sim_view(&self.inner))
    }

    pub fn metrics_json(&self) -> String {
        to_json(&report::report(&self.inner))
    }

    /// Flat quads [cpu, pid, start_ns, end_ns, …] of run slices overlapping [t0, t1].
    pub fn slices(&self, t0_ns: f64, t1_ns: f64) -> Vec<f64> {
        view::slices(&self.inner, ns(t0_ns), ns(t1_ns))
    }

    pub fn recent_events(&self, n: u32) -> String {
        to_json(&view::recent_events(&self.inner, n as usize))
    }

    /// The `n` most recent load-balancing decisions with their statistics and
    /// an explanation (JSON `DecisionView[]`, oldest first); `designated_only`
    /// leaves out calls by CPUs that were not the group's balancer.
    pub fn decisions_json(&self, n: u32, designated_only: bool) -> String {
        to_json(&inspector::recent_decisions(&self.inner, n as usize, designated_only))
    }

    /// The `n` most recent wakeup/fork placements with the CPUs each could
    /// consider (JSON `PlacementView[]`, oldest first).
    pub fn placements_json(&self, n: u32) -> String {
        to_json(&inspector::recent_placements(&self.inner, n as usize))
    }

    pub fn trace_hash(&self) -> String {
        format!("{:016x}", self.inner.trace().hash())
    }

    pub fn save(&self) -> SimSnapshot {
        SimSnapshot { inner: self.inner.clone() }
    }

    pub fn restore(&mut self, snapshot: &SimSnapshot) {
        self.inner = snapshot.inner.clone();
    }
}

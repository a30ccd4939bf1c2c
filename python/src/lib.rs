//! `schedlab._engine`: the engine behind the Python package, as thin as the CLI's `run`. Scenarios come in
//! as JSON text (or a file's path, read as the CLI reads it) and reports go out as JSON text, so every serialization happens here at the edge and the
//! Python side (`schedlab/`) only reads JSON; a run is the same (scenario, seed) → trace hash as `schedsim`'s.
//! The simulations run with the GIL released: other Python threads go on meanwhile; a batch runs on every core.
//! They run on threads with `schedsim`'s stack, their sched_ext policies under its memory limit
//! (`engine_threads.rs`), so a hostile policy fails its run instead of ending the process.

use pyo3::create_exception;
use pyo3::exceptions::{PyKeyError, PyValueError};
use pyo3::prelude::*;
use schedlab_edges::api::exports::perfetto;
use schedlab_edges::api::presets;
use schedlab_edges::api::scenario::{load_scenario, Diagnostic};
use schedlab_edges::api::text::escape_controls;
use schedlab_edges::config::SimConfig;
use schedlab_edges::sim::Simulator;

// The CLI's file reader (scenario_file.rs includes it) names the library `schedlab_core`; here it is the edges.
extern crate schedlab_edges as schedlab_core;

mod batch;
mod engine_threads;
mod scenario_file;
mod sweep;

create_exception!(
    _engine,
    InvalidScenario,
    PyValueError,
    "The scenario was refused: args are (message, [(field, reason), ...]), the message the lines `schedsim` prints."
);

/// The configuration of `text`, its seed replaced when one is given (validation does not read the seed, so this
/// is the run `schedsim sweep --seeds S..S` makes), or every problem with its field.
pub(crate) fn configure(text: &str, seed: Option<u64>) -> Result<SimConfig, Vec<Diagnostic>> {
    let mut cfg = load_scenario(text)?;
    if let Some(seed) = seed {
        cfg.seed = seed;
    }
    Ok(cfg)
}

/// The problems as the Python exception: one `field: reason` line each, control characters escaped as
/// `schedsim` escapes its messages, and the pairs for code that reads them.
pub(crate) fn refusal(diags: Vec<Diagnostic>) -> PyErr {
    let message = diags.iter().map(|d| escape_controls(&d.to_string()).into_owned()).collect::<Vec<_>>().join("\n");
    let problems: Vec<(String, String)> = diags.into_iter().map(|d| (d.field, d.reason)).collect();
    InvalidScenario::new_err((message, problems))
}

/// The run's first `events` events as Chrome / Perfetto trace JSON (capped at `schedsim`'s
/// `DEFAULT_MAX_EVENTS` trace events): (json, trace events written, ns where the cap cut it or None).
#[pyfunction]
#[pyo3(signature = (text, seed, events))]
fn chrome_trace(py: Python<'_>, text: &str, seed: Option<u64>, events: u64) -> PyResult<(String, usize, Option<u64>)> {
    let outcome = engine_threads::on_engine_threads(py, || -> Result<_, Vec<Diagnostic>> {
        // The export replays the run from a fresh start, as `schedsim run --perfetto` does.
        let start = Simulator::new(&configure(text, seed)?);
        let t = perfetto::chrome_trace(&start, events, perfetto::DEFAULT_MAX_EVENTS);
        Ok((t.json, t.events, t.truncated_at_ns))
    })?;
    outcome.map_err(refusal)
}

/// The built-in presets in `schedsim list`'s order: (name, title).
#[pyfunction]
fn preset_list() -> Vec<(&'static str, &'static str)> {
    presets::PRESETS.iter().map(|p| (p.name, p.title)).collect()
}

/// A preset's scenario JSON text, as `schedsim preset NAME` prints it.
#[pyfunction]
fn preset_json(name: &str) -> PyResult<&'static str> {
    presets::find(name)
        .map(|p| p.json)
        .ok_or_else(|| PyKeyError::new_err(format!("unknown preset '{name}' (see: schedlab.presets())")))
}

#[pymodule]
fn _engine(m: &Bound<'_, PyModule>) -> PyResult<()> {
    engine_threads::register_policy_memory();
    m.add("InvalidScenario", m.py().get_type::<InvalidScenario>())?;
    m.add_function(wrap_pyfunction!(chrome_trace, m)?)?;
    m.add_function(wrap_pyfunction!(preset_list, m)?)?;
    m.add_function(wrap_pyfunction!(preset_json, m)?)?;
    m.add_function(wrap_pyfunction!(scenario_file::read_scenario, m)?)?;
    batch::register(m)?;
    sweep::register(m)?;
    Ok(())
}

//! `schedlab.run` and `schedlab.run_batch`: scenarios read, checked and run to their end on the engine's threads
//! (`engine_threads.rs`), in one stretch without the GIL. Each run is a pure function of its scenario and seed, so
//! running them at once changes only the wall time: the reports come back in the order of the scenarios, each the
//! report `schedsim run --json` prints for it.

use crate::engine_threads::on_engine_threads;
use crate::scenario_file::{self, FileProblem};
use crate::{configure, refusal};
use pyo3::create_exception;
use pyo3::exceptions::{PyException, PyValueError};
use pyo3::prelude::*;
use rayon::prelude::*;
use schedlab_edges::api::report;
use schedlab_edges::api::scenario::{parse_scenario, Diagnostic};
use schedlab_edges::config::SimConfig;
use schedlab_edges::sim::Simulator;

create_exception!(
    _engine,
    BatchRefused,
    PyException,
    "A scenario of a batch was refused: args are (its index, the exception `run` raises for it alone)."
);

/// Why one scenario cannot run: its file, or its fields.
enum Refusal {
    File(FileProblem),
    Fields(Vec<Diagnostic>),
}

/// The scenario's text (its file read as `schedsim` reads it when `kind` is "file") and its configuration.
fn load(kind: &str, value: &str, seed: Option<u64>) -> Result<(String, SimConfig), Refusal> {
    let text = match kind {
        "file" => scenario_file::read(value).map_err(Refusal::File)?,
        _ => value.to_string(),
    };
    let cfg = configure(&text, seed).map_err(Refusal::Fields)?;
    Ok((text, cfg))
}

/// The run of `cfg` to its end, its report as JSON text: the report of `schedsim run --json`, the exercise's verdict
/// included.
fn report_json(text: &str, cfg: &SimConfig) -> String {
    // The simulator does not carry the scenario's exercise: read it again, as `schedsim run` does.
    let exercise = parse_scenario(text).ok().and_then(|s| s.exercise);
    let mut sim = Simulator::new(cfg);
    sim.run_to_end();
    let rep = report::with_exercise(report::report(&sim), exercise.as_ref(), &sim);
    serde_json::to_string(&rep).expect("a report always serializes")
}

/// Runs every scenario — (kind, value): ("text", JSON text) or ("file", path) — with its seed (None: its own), and
/// returns (text, report JSON) for each, in their order. Every scenario is read and checked before any runs: the
/// first refused, by index, raises `BatchRefused(index, the exception run raises for it)` and nothing runs.
#[pyfunction]
#[pyo3(signature = (scenarios, seeds))]
pub fn run_batch(
    py: Python<'_>,
    scenarios: Vec<(String, String)>,
    seeds: Vec<Option<u64>>,
) -> PyResult<Vec<(String, String)>> {
    if seeds.len() != scenarios.len() {
        return Err(PyValueError::new_err(format!("{} scenarios but {} seeds", scenarios.len(), seeds.len())));
    }
    let outcome = on_engine_threads(py, || -> Result<Vec<(String, String)>, (usize, Refusal)> {
        let loaded: Vec<_> =
            scenarios.par_iter().zip(seeds.par_iter()).map(|((kind, value), &seed)| load(kind, value, seed)).collect();
        let loaded =
            loaded.into_iter().enumerate().map(|(i, l)| l.map_err(|r| (i, r))).collect::<Result<Vec<_>, _>>()?;
        Ok(loaded
            .into_par_iter()
            .map(|(text, cfg)| {
                let report = report_json(&text, &cfg);
                (text, report)
            })
            .collect())
    })?;
    outcome.map_err(|(i, r)| {
        let alone: PyErr = match r {
            Refusal::File(p) => p.into(),
            Refusal::Fields(diags) => refusal(diags),
        };
        BatchRefused::new_err((i, alone.into_value(py)))
    })
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("BatchRefused", m.py().get_type::<BatchRefused>())?;
    m.add_function(wrap_pyfunction!(run_batch, m)?)?;
    Ok(())
}

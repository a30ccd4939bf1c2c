//! `schedlab.sweep`'s engine side: `schedsim sweep`'s own plan (`api::sweep::plan`) and row (`rows::run_row`), so
//! a row here is the CLI's row by construction. A plan travels as what the CLI reads — the scenario text, the seed
//! range and the `--set` arguments — and is rebuilt wherever runs are made (a Dask worker included): the functions
//! are stateless, and their arguments pickle as plain strings and integers.

use crate::engine_threads::on_engine_threads;
use crate::{configure, refusal};
use pyo3::create_exception;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use schedlab_edges::api::sweep::plan::{parse_seeds, parse_set, SweepPlan};
use schedlab_edges::api::sweep::rows::{run_row, SweepRow};
use std::sync::atomic::{AtomicU64, Ordering};

create_exception!(
    _engine,
    SweepError,
    PyValueError,
    "The sweep was refused: the message `schedsim sweep` prints (a bad --set or --seeds, a refused combination)."
);

/// How many runs `sweep_rows` has simulated in this process: what a cache that works saves is visible here.
static RUNS_SIMULATED: AtomicU64 = AtomicU64::new(0);

/// The plan of `text` over `seeds` (None: the scenario's own seed, as the CLI's default) and the `--set` specs.
fn plan_of(text: &str, seeds: Option<(u64, u64)>, specs: &[String]) -> PyResult<SweepPlan> {
    // The scenario itself is loaded first, as `schedsim sweep FILE` loads FILE: its refusal names its fields.
    let cfg = configure(text, None).map_err(refusal)?;
    let axes = specs.iter().map(|s| parse_set(s)).collect::<Result<Vec<_>, _>>().map_err(SweepError::new_err)?;
    SweepPlan::new(text, seeds.unwrap_or((cfg.seed, cfg.seed)), axes).map_err(SweepError::new_err)
}

/// (runs, seed range, --set paths, process names): what `sweep_plan` tells of a plan.
type PlanSummary = (usize, (u64, u64), Vec<String>, Vec<String>);

/// `--seeds`'s argument read as the CLI reads it: `A..B` (both included) or one seed.
#[pyfunction]
pub fn sweep_seeds(spec: &str) -> PyResult<(u64, u64)> {
    parse_seeds(spec).map_err(SweepError::new_err)
}

/// The plan checked as `schedsim sweep` checks it before any run (every combination loaded; the first refusal in
/// plan order raises): (runs, seed range, --set paths, every process name in order of first appearance — the
/// share columns, as the CLI's layout orders them).
#[pyfunction]
#[pyo3(signature = (text, seeds, specs))]
pub fn sweep_plan(py: Python<'_>, text: &str, seeds: Option<(u64, u64)>, specs: Vec<String>) -> PyResult<PlanSummary> {
    let plan = plan_of(text, seeds, &specs)?;
    let names = py.allow_threads(|| -> Result<Vec<String>, String> {
        let mut names: Vec<String> = Vec::new();
        for k in 0..plan.set_combinations() {
            for p in plan.load_combination(k)?.processes {
                if !names.contains(&p.name) {
                    names.push(p.name);
                }
            }
        }
        Ok(names)
    });
    let names = names.map_err(SweepError::new_err)?;
    let paths = plan.axes.iter().map(|a| a.path.clone()).collect();
    Ok((plan.runs(), plan.seeds(), paths, names))
}

/// Each run's scenario as the engine runs it, in plan order: the text with its seed and values written in, in
/// serde_json's compact form with the keys sorted (the cache's key), and its --set values as JSON text.
#[pyfunction]
#[pyo3(signature = (text, seeds, specs))]
pub fn sweep_runs(
    text: &str,
    seeds: Option<(u64, u64)>,
    specs: Vec<String>,
) -> PyResult<Vec<(u64, String, Vec<String>)>> {
    let plan = plan_of(text, seeds, &specs)?;
    (0..plan.runs())
        .map(|i| {
            let run = plan.run(i);
            let (scenario, _) = plan.scenario_text(&run).map_err(SweepError::new_err)?;
            let values = plan.values(&run).map(|(_, v)| v.json.to_string()).collect();
            Ok((run.seed, scenario, values))
        })
        .collect()
}

/// Runs `indices` of the plan one after the other, on one of the engine's threads without the GIL (a sweep's
/// Python threads call this at once), and returns their rows as a JSON array in the order asked: the rows
/// `schedsim sweep --json` prints for those runs.
#[pyfunction]
#[pyo3(signature = (text, seeds, specs, indices))]
pub fn sweep_rows(
    py: Python<'_>,
    text: &str,
    seeds: Option<(u64, u64)>,
    specs: Vec<String>,
    indices: Vec<usize>,
) -> PyResult<String> {
    let plan = plan_of(text, seeds, &specs)?;
    if let Some(&bad) = indices.iter().find(|&&i| i >= plan.runs()) {
        return Err(PyValueError::new_err(format!("run {bad} is not in the plan ({} runs)", plan.runs())));
    }
    let rows = on_engine_threads(py, || {
        let rows: Vec<SweepRow> = indices
            .iter()
            .map(|&i| {
                let row = run_row(&plan, i);
                RUNS_SIMULATED.fetch_add(1, Ordering::Relaxed);
                row
            })
            .collect();
        serde_json::to_string(&rows)
    })?;
    rows.map_err(|e| SweepError::new_err(format!("cannot write the rows as JSON: {e}")))
}

/// How many runs `sweep_rows` has simulated in this process since it started.
#[pyfunction]
pub fn runs_simulated() -> u64 {
    RUNS_SIMULATED.load(Ordering::Relaxed)
}

/// The engine's version: the crate's and a digest of its sources (build.rs), the part of the cache's key that
/// says which engine made a row.
#[pyfunction]
pub fn engine_version() -> &'static str {
    env!("SCHEDLAB_ENGINE_VERSION")
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("SweepError", m.py().get_type::<SweepError>())?;
    m.add_function(wrap_pyfunction!(sweep_seeds, m)?)?;
    m.add_function(wrap_pyfunction!(sweep_plan, m)?)?;
    m.add_function(wrap_pyfunction!(sweep_runs, m)?)?;
    m.add_function(wrap_pyfunction!(sweep_rows, m)?)?;
    m.add_function(wrap_pyfunction!(runs_simulated, m)?)?;
    m.add_function(wrap_pyfunction!(engine_version, m)?)?;
    Ok(())
}

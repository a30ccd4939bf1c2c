//! `schedsim sweep`'s rows: one per run, taken from the run's metrics report
//! (`api::report`, what `schedsim run` prints) — the seed and the varied
//! values, events, trace hash, simulated time, then the report's headline:
//! wasted core time, sanity-checker violations, migrations and each
//! process's CPU share — and, for a run that failed (its sched_ext policy
//! did not load or stopped the run), why. `layout` prints them.
//! `run_row` makes run `i`'s row: `schedsim sweep` and the Python
//! package's `schedlab.sweep` both call it, so their rows are one.

use super::plan::{SweepPlan, SweepRun};
use crate::api::report::{report, Report};
use crate::sim::Simulator;
use serde::ser::{Serialize, SerializeMap, Serializer};
use serde_json::Value;

#[derive(serde::Serialize, Debug, Clone)]
pub struct SweepRow {
    pub seed: u64,
    /// Each --set path and this run's value, in the order given.
    pub set: SetColumns,
    pub events: u64,
    pub trace_hash: String,
    pub sim_time_ns: u64,
    pub wasted_core_ns: u64,
    pub sanity_violations: u64,
    pub migrations: u64,
    pub processes: Vec<ProcessShare>,
    /// Why the run failed (None: it ran to its end). A failed run's figures
    /// stop where it stopped: they are not a result.
    pub error: Option<String>,
}

#[derive(serde::Serialize, Debug, Clone)]
pub struct ProcessShare {
    pub name: String,
    /// CPU time over (elapsed time × CPUs), as the report's.
    pub share: f64,
}

/// (path, value as JSON, value as tables show it), serialized as a JSON
/// object whose keys keep the command line's order.
#[derive(Debug, Clone)]
pub struct SetColumns(pub Vec<(String, Value, String)>);

impl Serialize for SetColumns {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(self.0.len()))?;
        for (path, value, _) in &self.0 {
            map.serialize_entry(path, value)?;
        }
        map.end()
    }
}

impl SweepRow {
    /// The row of `run` from its report; `error`: why the run failed, if it did.
    pub fn new(plan: &SweepPlan, run: &SweepRun, r: &Report, error: Option<String>) -> SweepRow {
        SweepRow {
            seed: r.seed,
            set: set_columns(plan, run),
            events: r.events,
            trace_hash: r.trace_hash.clone(),
            sim_time_ns: r.sim_time_ns,
            wasted_core_ns: r.wasted_core_ns,
            sanity_violations: r.sanity_violations_total,
            migrations: r.migrations,
            processes: r.processes.iter().map(|p| ProcessShare { name: p.name.clone(), share: p.share }).collect(),
            error,
        }
    }

    /// The row of a run that could not start: no figures, only why.
    pub fn not_run(plan: &SweepPlan, run: &SweepRun, error: String) -> SweepRow {
        SweepRow {
            seed: run.seed,
            set: set_columns(plan, run),
            events: 0,
            trace_hash: String::new(),
            sim_time_ns: 0,
            wasted_core_ns: 0,
            sanity_violations: 0,
            migrations: 0,
            processes: Vec::new(),
            error: Some(error),
        }
    }
}

/// Why a finished run failed: its sched_ext policy did not load or stopped
/// the run (the engine ends the run there and says so in its notes), as the
/// report's note words it; None when it ran to its end.
pub fn run_failure(sim: &Simulator) -> Option<String> {
    sim.notes()
        .policy_error
        .as_ref()
        .map(|(at, why)| format!("at {:.3} ms the sched_ext policy failed: {why}", at.ns() as f64 / 1e6))
}

/// Run `i`'s row (`0 <= i < plan.runs()`): the run simulated to its end, its
/// report, and why it failed if it did.
pub fn run_row(plan: &SweepPlan, i: usize) -> SweepRow {
    let run = plan.run(i);
    match plan.load(&run) {
        Ok(cfg) => {
            let mut sim = Simulator::new(&cfg);
            sim.run_to_end();
            SweepRow::new(plan, &run, &report(&sim), run_failure(&sim))
        }
        // A caller checks every combination before the runs, and the seed is not validated: kept as a row all the same.
        Err(e) => SweepRow::not_run(plan, &run, e),
    }
}

fn set_columns(plan: &SweepPlan, run: &SweepRun) -> SetColumns {
    SetColumns(plan.values(run).map(|(a, v)| (a.path.clone(), v.json.clone(), v.shown())).collect())
}

//! A run judged against its scenario's exercise, from the report's own
//! figures (an exercise never adds a measurement of its own). Before the end
//! the verdict is "so far": the figure reached, and whether it is still
//! within the bound; a run that stopped before its duration fails.

use super::run_report::Report;
use super::verdict::Verdict;
use crate::api::scenario::exercise::ExerciseFile;
use crate::sim::Simulator;

/// The report with the scenario's exercise (if any) judged from its figures.
pub fn with_exercise(mut r: Report, ex: Option<&ExerciseFile>, sim: &Simulator) -> Report {
    r.exercise = ex.map(|ex| verdict(ex, &r, sim.finished(), sim.duration().ns()));
    r
}

/// The exercise judged from the report; `finished` and `duration_ns` are the
/// run's (the report has neither).
pub fn verdict(ex: &ExerciseFile, r: &Report, finished: bool, duration_ns: u64) -> Verdict {
    let figure = figure(ex, r);
    let stopped_early_ns = (finished && r.sim_time_ns < duration_ns).then_some(r.sim_time_ns);
    Verdict {
        goal: ex.goal.clone(),
        process: ex.process.clone(),
        bound: ex.max,
        figure,
        pass: stopped_early_ns.is_none() && figure.is_some_and(|f| f <= ex.max),
        finished,
        stopped_early_ns,
    }
}

fn figure(ex: &ExerciseFile, r: &Report) -> Option<f64> {
    let ms = |ns: u64| ns as f64 / 1e6;
    let us = |ns: u64| ns as f64 / 1e3;
    let process = || r.processes.iter().find(|p| Some(&p.name) == ex.process.as_ref());
    match ex.goal.as_str() {
        // No stretch at all is a longest stretch of zero.
        "longest_wasted_idle_ms" => Some(r.longest_wasted_idle.map_or(0.0, |(_, _, ns)| ms(ns))),
        "wasted_core_ms" => Some(ms(r.wasted_core_ns)),
        "p99_wakeup_us" => process()?.wakeup_latency_ns.map(|l| us(l[2])),
        "max_wakeup_us" => process()?.wakeup_latency_ns.map(|l| us(l[3])),
        "completion_ms" => process()?.completion_ns.map(ms),
        _ => None,
    }
}

//! Exercises: a scenario may carry a goal (`"exercise": {"goal", "max",
//! "process"?, "text"?}`) that the run is judged against at its end, from the
//! report's own figures. Before the end the verdict is "so far": the figure
//! the run has reached, and whether it is still within the bound.
//!
//! The goals read figures the report already has, so an exercise never adds
//! a measurement of its own: the longest stretch one CPU idled while a thread
//! allowed there waited (`longest_wasted_idle`), the wasted core time, a
//! process's p99 or longest wakeup latency, a process's completion time.

use super::report::Report;
use super::scenario::{Diagnostic, ProcessFile};
use super::text::{code_point, escape_controls as shown, forbidden_control};
use serde::{Deserialize, Serialize};

/// What a scenario asks of the run.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
#[cfg_attr(
    any(test, feature = "gen"),
    derive(schemars::JsonSchema),
    schemars(rename = "exercise", transform = super::scenario_schema::process_when_per_process)
)]
pub struct ExerciseFile {
    /// longest_wasted_idle_ms: the longest stretch one CPU idled while a thread allowed there waited;
    /// wasted_core_ms: the wasted core time; p99_wakeup_us / max_wakeup_us: a process's p99 / longest wakeup
    /// latency; completion_ms: when a process's last thread exited, from its start.
    #[cfg_attr(any(test, feature = "gen"), schemars(extend("enum" = GOALS.map(|g| g.name))))]
    pub goal: String,
    /// The bound the figure must not exceed, in the goal's unit (ms or µs).
    #[cfg_attr(any(test, feature = "gen"), schemars(range(min = 0)))]
    pub max: f64,
    /// The process a per-process goal measures (p99_wakeup_us, max_wakeup_us, completion_ms; required
    /// there, refused for the machine-wide goals).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub process: Option<String>,
    /// The task in the author's words (line breaks and tabs allowed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
}

/// A goal: its name in the file, its unit, and whether it names a process.
pub struct Goal {
    pub name: &'static str,
    pub unit: &'static str,
    pub per_process: bool,
}

pub const GOALS: [Goal; 5] = [
    Goal { name: "longest_wasted_idle_ms", unit: "ms", per_process: false },
    Goal { name: "wasted_core_ms", unit: "ms", per_process: false },
    Goal { name: "p99_wakeup_us", unit: "µs", per_process: true },
    Goal { name: "max_wakeup_us", unit: "µs", per_process: true },
    Goal { name: "completion_ms", unit: "ms", per_process: true },
];

fn goal(name: &str) -> Option<&'static Goal> {
    GOALS.iter().find(|g| g.name == name)
}

/// Every problem of an exercise, each naming its field (`exercise.max`).
pub fn check(ex: &ExerciseFile, processes: &[ProcessFile]) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let mut fail = |field: &str, reason: String| out.push(Diagnostic { field: field.into(), reason });
    let g = goal(&ex.goal);
    if g.is_none() {
        let known: Vec<&str> = GOALS.iter().map(|g| g.name).collect();
        fail("exercise.goal", format!("unknown goal '{}' (known: {})", shown(&ex.goal), known.join(", ")));
    }
    // A bound below zero could never be met; serde_json reads no NaN or infinity.
    if !(ex.max.is_finite() && ex.max >= 0.0) {
        fail("exercise.max", format!("must be a number of at least 0 (got {})", ex.max));
    }
    match (g.map(|g| g.per_process), &ex.process) {
        (Some(true), None) => fail("exercise.process", format!("goal '{}' measures one process: name it", ex.goal)),
        (Some(false), Some(_)) => {
            fail("exercise.process", format!("goal '{}' is machine-wide: it names no process", ex.goal))
        }
        (_, Some(name)) if !processes.iter().any(|p| &p.name == name) => {
            fail("exercise.process", format!("no process named '{}' in processes", shown(name)))
        }
        _ => {}
    }
    if let Some(ch) = ex.text.as_deref().and_then(|t| forbidden_control(t, &super::validate::DESCRIPTION_CONTROLS)) {
        fail(
            "exercise.text",
            format!(
                "may contain line breaks (U+000A) and tabs (U+0009) but no other control characters ({})",
                code_point(ch)
            ),
        );
    }
    out
}

/// The run judged against its exercise.
#[derive(Clone, Debug, Serialize, PartialEq)]
#[cfg_attr(any(test, feature = "gen"), derive(ts_rs::TS))]
pub struct Verdict {
    pub goal: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(any(test, feature = "gen"), ts(optional))]
    pub process: Option<String>,
    /// The exercise's `max`, in the goal's unit.
    pub bound: f64,
    /// The run's figure so far in the goal's unit; none while there is none
    /// to read (no wakeup measured yet, the process not yet completed).
    pub figure: Option<f64>,
    /// The figure is within the bound; final only once `finished`.
    pub pass: bool,
    /// The run is over: the verdict is final.
    pub finished: bool,
    /// The run ended before its duration (a policy failed, the event budget
    /// ran out), at this time (ns): the exercise then fails.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(any(test, feature = "gen"), ts(optional))]
    pub stopped_early_ns: Option<u64>,
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

/// The verdict in one line (`schedsim run`), e.g.
/// `exercise: PASS — longest idle while work waited 3.2 ms ≤ 4 ms`.
pub fn verdict_line(v: &Verdict) -> String {
    let unit = goal(&v.goal).map_or("", |g| g.unit);
    let who = shown(v.process.as_deref().unwrap_or("")).into_owned();
    let what = match v.goal.as_str() {
        "longest_wasted_idle_ms" => "longest idle while work waited".to_string(),
        "wasted_core_ms" => "wasted core time".to_string(),
        "p99_wakeup_us" => format!("p99 wakeup latency of {who}"),
        "max_wakeup_us" => format!("longest wakeup latency of {who}"),
        "completion_ms" => format!("completion of {who}"),
        other => shown(other).into_owned(),
    };
    let head = match (v.finished, v.pass) {
        (false, _) => "so far",
        (true, true) => "PASS",
        (true, false) => "FAIL",
    };
    let bound = format!("{} {unit}", num(v.bound));
    let body = match (v.stopped_early_ns, v.figure) {
        (Some(at), _) => format!(
            "the run stopped at {} ms, before its end (see the notes); {what} ≤ {bound} not shown",
            num(at as f64 / 1e6)
        ),
        (None, Some(f)) => format!("{what} {} {unit} {} {bound}", num(f), if f <= v.bound { "≤" } else { ">" }),
        (None, None) if v.goal == "completion_ms" => format!("{who} has not completed; bound {bound}"),
        (None, None) => format!("{who} has no wakeup measured; bound {bound}"),
    };
    format!("exercise: {head} — {body}")
}

/// A figure with at most three decimals, trailing zeros dropped (3.2, 4, 0.041).
fn num(x: f64) -> String {
    let s = format!("{x:.3}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" {
        "0".into()
    } else {
        s.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_short() {
        assert_eq!(num(3.2), "3.2");
        assert_eq!(num(4.0), "4");
        assert_eq!(num(0.0413), "0.041");
        assert_eq!(num(1234.5678), "1234.568");
    }
}

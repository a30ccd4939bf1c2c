//! Exercises: a scenario may carry a goal (`"exercise": {"goal", "max",
//! "process"?, "text"?}`) that the run is judged against at its end, from the
//! report's own figures (`report::judge`). Here: the goal as the file writes
//! it, the goals there are, and the exercise's check.
//!
//! The goals read figures the report already has, so an exercise never adds
//! a measurement of its own: the longest stretch one CPU idled while a thread
//! allowed there waited (`longest_wasted_idle`), the wasted core time, a
//! process's p99 or longest wakeup latency, a process's completion time.

use super::diagnostic::Diagnostic;
use crate::api::text::{code_point, escape_controls as shown, forbidden_control, DESCRIPTION_CONTROLS};
use serde::{Deserialize, Serialize};

/// What a scenario asks of the run.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
#[cfg_attr(any(test, feature = "gen"), derive(schemars::JsonSchema), schemars(rename = "exercise"))]
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

pub fn goal(name: &str) -> Option<&'static Goal> {
    GOALS.iter().find(|g| g.name == name)
}

/// Every problem of an exercise, each naming its field (`exercise.max`);
/// `is_process` tells whether the scenario has a process of that name.
pub fn check(ex: &ExerciseFile, is_process: impl Fn(&str) -> bool) -> Vec<Diagnostic> {
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
        (_, Some(name)) if !is_process(name) => {
            fail("exercise.process", format!("no process named '{}' in processes", shown(name)))
        }
        _ => {}
    }
    if let Some(ch) = ex.text.as_deref().and_then(|t| forbidden_control(t, &DESCRIPTION_CONTROLS)) {
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

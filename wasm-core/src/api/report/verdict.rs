//! An exercise's verdict as the report carries it, and in one line for a
//! terminal (`schedsim run`).

use crate::api::scenario::exercise::goal;
use crate::api::text::escape_controls as shown;
use serde::Serialize;

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

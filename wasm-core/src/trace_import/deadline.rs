//! A deadline process in a real run's report: the reservation the run asked
//! for (the trace's `# schedlab deadline` line) and the CPU time its threads
//! got per period, measured from the trace.
//!
//! The measure is the plainest one that needs nothing the trace lacks: the
//! process's CPU time in the window (its `sched_switch` run lengths) over the
//! number of periods its threads lived there (each thread from the process's
//! start, or the window's, to its exit or the window's end, divided by the
//! period). A thread that gets its whole runtime in every period shows the
//! runtime; one throttled less (or starved) shows more (or less). The host's
//! periods start when each thread first asks for its runtime, not at the
//! window's start, so a window holding a part of a period counts that part:
//! over a window of many periods the difference is a fraction of one runtime.

use crate::sched::policy::DlParams;
use serde::Serialize;

/// A deadline process's reservation and what it got.
#[derive(Serialize, Debug, Clone, PartialEq, Eq)]
#[cfg_attr(any(test, feature = "gen"), derive(ts_rs::TS))]
pub struct RealDeadline {
    /// The reservation as the run asked for it (sched_attr's runtime, deadline and period, ns).
    pub runtime_ns: u64,
    pub deadline_ns: u64,
    pub period_ns: u64,
    /// The CPU time its threads got per period, on average: their CPU time in the window over the periods
    /// they lived there (each from the process's start to its exit or the window's end); None if no thread
    /// of it lived in the window.
    pub runtime_per_period_ns: Option<u64>,
}

/// CPU time `cpu_ns` over `lived_ns` of thread lifetime, per `period_ns`.
pub fn runtime_per_period(cpu_ns: u64, lived_ns: u64, period_ns: u64) -> Option<u64> {
    (lived_ns > 0).then(|| (u128::from(cpu_ns) * u128::from(period_ns) / u128::from(lived_ns)) as u64)
}

impl RealDeadline {
    /// The reservation `dl`, with the CPU time `cpu_ns` its threads got over `lived_ns` of their lives.
    pub fn measured(dl: DlParams, cpu_ns: u64, lived_ns: u64) -> RealDeadline {
        RealDeadline {
            runtime_ns: dl.runtime_ns,
            deadline_ns: dl.deadline_ns,
            period_ns: dl.period_ns,
            runtime_per_period_ns: runtime_per_period(cpu_ns, lived_ns, dl.period_ns),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cpu_time_is_shared_out_over_the_periods_lived() {
        // 300 ms of CPU over 3 s lived: 10 ms in each 100 ms period.
        assert_eq!(runtime_per_period(300_000_000, 3_000_000_000, 100_000_000), Some(10_000_000));
        // Two threads of 3 s each, 600 ms between them: 10 ms per period each.
        assert_eq!(runtime_per_period(600_000_000, 6_000_000_000, 100_000_000), Some(10_000_000));
        assert_eq!(runtime_per_period(5, 0, 100), None);
        let dl = DlParams { runtime_ns: 10, deadline_ns: 50, period_ns: 100, reclaim: false };
        let r = RealDeadline::measured(dl, 30, 1_000);
        assert_eq!((r.runtime_ns, r.deadline_ns, r.period_ns, r.runtime_per_period_ns), (10, 50, 100, Some(3)));
    }
}

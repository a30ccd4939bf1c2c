//! Whether a finished run failed: its sched_ext policy did not load (a
//! syntax error, a missing callback) or stopped the run (an exception, a
//! runaway loop, a bad answer). The engine ends such a run where it failed
//! and says why in its notes; every figure after that point is missing, so
//! the CLI must not present the run as a result (`schedsim run` and `sweep`
//! exit with `out::RUN_FAILED`, and a sweep's row carries the reason).

use schedlab_core::sim::Simulator;

/// Why the run failed, as the report's note words it, or None (the sweep's rows say it the same way).
pub fn of(sim: &Simulator) -> Option<String> {
    schedlab_core::api::sweep::rows::run_failure(sim)
}

//! The sanity checker's violation as a report names it: when it was found and
//! confirmed, the idle CPUs and the waiting threads, each list cut at 64 with
//! its total. One record for a simulation (`sim::sanity`'s, named here) and a
//! recorded trace (`trace_import::replay`, which checks the same rule).

use crate::sim::sanity::Violation;
use crate::task::Task;
use crate::time::CpuId;
use serde::Serialize;

/// One violation: detected, then still there a period later (confirmed).
#[derive(Serialize, Debug, Clone, PartialEq, Eq)]
#[cfg_attr(any(test, feature = "gen"), derive(ts_rs::TS))]
pub struct ViolationReport {
    pub detected_ns: u64,
    pub confirmed_ns: u64,
    pub idle_cpus: Vec<CpuId>,
    pub idle_cpus_total: usize,
    pub waiting_threads: Vec<String>,
    pub waiting_threads_total: usize,
}

impl ViolationReport {
    /// A simulation's violation, its waiting threads by name.
    pub fn of_sim(v: &Violation, tasks: &[Task]) -> ViolationReport {
        ViolationReport {
            detected_ns: v.detected.ns(),
            confirmed_ns: v.confirmed.ns(),
            idle_cpus: v.idle_cpus.clone(),
            idle_cpus_total: v.idle_cpus_total,
            waiting_threads: v.waiting.iter().map(|&p| tasks[p.idx()].name.clone()).collect(),
            waiting_threads_total: v.waiting_total,
        }
    }
}

//! The missed deadlines the lanes mark (`sim::misses`): those of the lanes'
//! window and CPUs, each with the task, its lane, the deadline and when the
//! run noticed it.

use crate::sim::misses::{DeadlineMiss, MissKind};
use crate::sim::Simulator;
use crate::time::{CpuId, Pid, SimTime};
use serde::Serialize;

/// At most this many marks a frame (more than a lane has pixels to tell apart).
pub const MAX_MISS_MARKS: usize = 2048;

#[derive(Serialize, Debug, Clone, PartialEq)]
#[cfg_attr(any(test, feature = "gen"), derive(ts_rs::TS))]
pub struct MissView {
    pub pid: Pid,
    /// The lane: where the task was when the run noticed.
    pub cpu: CpuId,
    pub kind: MissKindView,
    /// The absolute deadline missed.
    pub deadline_ns: u64,
    /// When the run noticed it.
    pub at_ns: u64,
}

#[derive(Serialize, Debug, Clone, Copy, PartialEq)]
#[cfg_attr(any(test, feature = "gen"), derive(ts_rs::TS))]
#[serde(rename_all = "lowercase")]
pub enum MissKindView {
    /// A SCHED_DEADLINE server's deadline passed with runtime still owed (seen at its next charge).
    Deadline,
    /// A periodic thread reached its timer step after its period had ended (the job ended at `at_ns`).
    Timer,
}

/// The lanes' misses: those late across `[t0, t1]` on CPUs `cpus`, at most `MAX_MISS_MARKS`, in the order noticed.
pub fn misses_view(sim: &Simulator, t0: SimTime, t1: SimTime, cpus: std::ops::Range<u32>) -> Vec<MissView> {
    let log = sim.deadline_misses();
    log.overlapping(t0, t1).filter(|m| cpus.contains(&m.cpu.0)).take(MAX_MISS_MARKS).map(view).collect()
}

fn view(m: &DeadlineMiss) -> MissView {
    let kind = match m.kind {
        MissKind::Deadline => MissKindView::Deadline,
        MissKind::Timer => MissKindView::Timer,
    };
    MissView { pid: m.pid, cpu: m.cpu, kind, deadline_ns: m.deadline.ns(), at_ns: m.at.ns() }
}

//! The record of where a waking or new task went (`select_task_rq_fair`:
//! Linux 4.1's in `sim::fair::linux41::placement`, 6.12's in
//! `sim::fair::linux612::placement`, which describe the paths), kept for
//! the inspector.

use crate::time::{CpuId, Pid};
use crate::topology::cpumask::CpuMask;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(any(test, feature = "gen"), derive(ts_rs::TS), ts(rename_all = "kebab-case"))]
pub enum PlaceKind {
    Wakeup,
    /// A wakeup with WF_SYNC: the waker is about to give its CPU up.
    SyncWakeup,
    Fork,
    /// `sched_exec`: the running task calls execve and is placed again, as a
    /// fork is, through the domains with SD_BALANCE_EXEC.
    Exec,
}

impl PlaceKind {
    pub fn is_wakeup(self) -> bool {
        matches!(self, PlaceKind::Wakeup | PlaceKind::SyncWakeup)
    }
}

/// Which part of select_task_rq_fair decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlacePath {
    /// The Overload-on-Wakeup fix: idle previous CPU, else longest-idle CPU.
    IdleAnywhere,
    /// wake_affine then select_idle_sibling, confined to the target's LLC.
    IdleSibling,
    /// find_idlest_group / find_idlest_cpu (fork).
    IdlestGroup,
    /// select_fallback_rq (the choice was not allowed or offline).
    Fallback,
    /// 6.12: `sched_balance_find_dst_group` / `_cpu` (fork, exec).
    FindDstGroup,
    /// 6.12: a task allowed on one CPU goes there (`select_task_rq`).
    OneAllowed,
    /// 6.12: no domain of the waker's had the flag; the task keeps its CPU.
    NoDomain,
}

impl PlacePath {
    pub fn as_str(self) -> &'static str {
        match self {
            PlacePath::IdleAnywhere => "idle-anywhere (fix)",
            PlacePath::IdleSibling => "select_idle_sibling",
            PlacePath::IdlestGroup => "find_idlest_group",
            PlacePath::Fallback => "fallback",
            PlacePath::FindDstGroup => "sched_balance_find_dst_group",
            PlacePath::OneAllowed => "its one allowed CPU",
            PlacePath::NoDomain => "no domain to search",
        }
    }
}

/// One placement decision: where a waking or new task went, and which CPUs
/// the decision could consider.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Placement {
    pub at: crate::time::SimTime,
    pub pid: Pid,
    pub kind: PlaceKind,
    pub prev: CpuId,
    pub waker: CpuId,
    pub chosen: CpuId,
    pub path: PlacePath,
    pub considered: CpuMask,
}

/// Placements kept for the inspector (the most recent ones).
pub const PLACEMENT_LOG: usize = 1024;

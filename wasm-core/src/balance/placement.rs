//! Where a waking or new task goes (`select_task_rq_fair`, Linux 4.1).
//!
//! Wakeups: at the lowest domain spanning both the waker's CPU and the
//! task's previous CPU, `wake_affine` may pull the wakee to the waker's CPU;
//! then `select_idle_sibling` looks for an idle core *only inside the target's
//! LLC* (its node). That confinement is the Overload-on-Wakeup bug: a node's
//! wakees pile up on its busy cores while other nodes idle. The fix (paper
//! section 3.4): the previous CPU if it is idle, else the CPU idle for the
//! longest time, else the original path — for forks too, as the patch
//! places it at the top of select_task_rq_fair.
//!
//! Group Identity: a wakeup's idle tests are `id_idle_cpu` (a highclass wakee
//! counts a CPU running only underclass work as idle; an underclass wakee
//! does not count an idle CPU whose SMT sibling runs an expeller), inside
//! select_idle_sibling and the fix alike; without Group Identity, or for
//! normal wakees, they are `idle_cpu`.
//!
//! Fork: from the highest domain with SD_BALANCE_FORK down,
//! `find_idlest_group` then `find_idlest_cpu`.
//!
//! This file holds the record of each placement; the placement itself,
//! which reads and changes the machine state, is the fair class's
//! (`sim::fair_balance::placement`).

use crate::time::{CpuId, Pid};
use crate::topology::cpumask::CpuMask;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlaceKind {
    Wakeup,
    Fork,
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
}

impl PlacePath {
    pub fn as_str(self) -> &'static str {
        match self {
            PlacePath::IdleAnywhere => "idle-anywhere (fix)",
            PlacePath::IdleSibling => "select_idle_sibling",
            PlacePath::IdlestGroup => "find_idlest_group",
            PlacePath::Fallback => "fallback",
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

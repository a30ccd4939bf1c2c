//! The stop class (`stop_sched_class`: stop_task.c in 4.1 and 6.12), the top
//! of the hierarchy: stop, deadline, real-time, fair, idle (`for_each_class`
//! from `sched_class_highest`, sched.h 1230–1232 in 4.1).
//!
//! Each CPU has one stop task, its stopper thread (`migration/N`, `rq->stop`).
//! Code that must run on a CPU with nothing else running there queues a work
//! for that CPU's stopper and wakes it (`stop_one_cpu_nowait`, or
//! `stop_one_cpu`, which also waits for it). The stop class preempts every
//! class and is preempted by none (`check_preempt_curr_stop`, stop_task.c 21 in 4.1; `wakeup_preempt_stop`, 26 in 6.12),
//! so the stopper runs next: its works run in order, then it sleeps and the
//! CPU picks from the classes below as usual.
//!
//! ```text
//!   fair balancer: need_active_balance ─► stop_one_cpu_nowait(busiest, ActiveBalance) ─► Event::CpuStop
//!   sched_exec (at execve)             ─► stop_one_cpu(cpu, Migrate)  (runs at once: the caller waits)
//!   Event::CpuStop / stop_one_cpu      ─► run_stopper: preempt curr (pick_next_task_stop), each work,
//!                                          then __schedule (the stopper sleeps), then the CPUs it moved to
//! ```
//!
//! The works are data in the runqueue (`Rq::stopper`): a snapshot holds them,
//! and the runqueue panel shows a stopper that was woken but has not run yet.
//! What this class leaves out, and why, is in docs/fidelity.md ("The stop
//! class"): the stopper's own run takes no time in the model.

mod run;

use crate::time::{CpuId, Pid};
use crate::trace::MigrateCause;
use std::collections::VecDeque;

/// A work queued for a CPU's stopper (`struct cpu_stop_work` with its function).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StopWork {
    /// `active_load_balance_cpu_stop` (fair.c 7312 in 4.1, 12113 in 6.12): the
    /// busiest CPU pushes one task to `target`, which asked for it.
    ActiveBalance { target: CpuId },
    /// `migration_cpu_stop` (core.c 4926 in 4.1, 2512 in 6.12): `pid`, which ran here, moves
    /// to `dest` if it is still queued here when the stopper runs.
    Migrate { pid: Pid, dest: CpuId, cause: MigrateCause },
}

/// A CPU's stopper (`struct cpu_stopper`): the works queued for it, in order.
#[derive(Clone, Debug, Default)]
pub struct CpuStopper {
    pub works: VecDeque<StopWork>,
    /// How many times it has run (each a switch into the stop class).
    pub runs: u64,
}

impl CpuStopper {
    /// Woken with works to run: the stop task is queued (`task_on_rq_queued(rq->stop)`).
    pub fn queued(&self) -> bool {
        !self.works.is_empty()
    }
}

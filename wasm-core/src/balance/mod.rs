//! The pure parts of Linux 4.1's load balancing (kernel-model.md section 3):
//! group statistics and `find_busiest_group` (stats.rs), the busiest-group
//! search over a pass and its redos (search.rs), and the records a pass and a
//! placement leave (decision.rs, placement.rs). The balancer that drives them
//! over the machine state is the fair class's, `sim::fair::linux41`:
//!
//! ```text
//!   tick ─► trigger_load_balance ─► rebalance_domains ─► load_balance(sd) per due domain
//!   CPU about to idle ─► idle_balance ─► load_balance(sd, NEWLY_IDLE) lowest level first
//!   load_balance: should_we_balance ─► find_busiest_group (stats.rs) ─► find_busiest_queue
//!                 ─► detach_tasks (can_migrate_task) ─► attach, or active balance
//!   wakeup / fork ─► select_task_rq_fair: wake_affine, select_idle_sibling,
//!                    find_idlest_group / find_idlest_cpu
//! ```
//!
//! Every load_balance call leaves a `BalanceDecision` record (decision.rs)
//! that explains in numbers what happened and why. The schedstat counters
//! and `IdleType` live with the domains (`topology::schedstat`) and are
//! re-exported here.

pub mod decision;
pub mod placement;
pub mod search;
pub mod stats;

pub use crate::topology::schedstat::{self, IdleType};

/// Bounded interval between two periodic balance passes of one CPU, in
/// milliseconds, and the pinned-task cap (`MAX_PINNED_INTERVAL`).
pub const MAX_PINNED_INTERVAL_MS: u64 = 512;
/// `sysctl_sched_nr_migrate`: most tasks one pass may move.
pub const SCHED_NR_MIGRATE: u32 = 32;

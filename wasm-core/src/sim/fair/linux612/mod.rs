//! Linux 6.12's fair class, beside `linux41/` (issue 40), run by every
//! scenario that says `"kernel": "6.12"`. Each mechanism is worked by hand
//! against the 6.12 source (a pure module with its tests) before the machine
//! drives it (`hooks.rs`, `walk.rs`, `load.rs`, `placement.rs`, `balance.rs`,
//! `load_balance.rs` with `decision.rs`, `nohz.rs`). The mechanisms:
//! - its per-entity load tracking (`pelt.rs`) and what passes between the
//!   levels of the hierarchy: attach, detach, removed load, propagation and
//!   the group's shares (`load_avg.rs`);
//! - EEVDF on one runqueue (`eevdf.rs`) with DELAY_DEQUEUE (`delay_dequeue.rs`),
//!   driven over the hierarchy by `delayed.rs`; the pick is `pick.rs`;
//! - the balancer: group statistics and the busiest group (`group_stats.rs`),
//!   which CPU balances a domain (`should_balance.rs`), its decision there
//!   (`imbalance.rs`), the runqueue it pulls from (`find_src_rq.rs`), the
//!   tasks it takes (`detach.rs`), and newly-idle balancing (`newidle.rs`);
//! - wakeup placement: near the waker or not (`wake_affine.rs`), then onto an
//!   idle CPU (`idle_sibling.rs`);
//! - fork and exec placement: the idlest group of a domain against the local
//!   one, each summed without the task (`find_dst_group.rs`), then the idlest
//!   CPU of the chosen group (`dst_cpu.rs`);
//! - the NOHZ idle balancer and the idle CPUs' blocked-load updates (`nohz.rs`).
//!
//! The runqueue view reads its EEVDF queues through `queue_view.rs`.
//!
//! The domains' parameters are `topology/linux612.rs`.

mod balance;
mod decision;
pub mod delay_dequeue;
mod delayed;
pub mod detach;
pub mod dst_cpu;
pub mod eevdf;
mod find_dst;
pub mod find_dst_group;
pub mod find_src_rq;
pub mod group_stats;
pub(crate) mod hooks;
pub mod idle_sibling;
pub mod imbalance;
mod load;
pub mod load_avg;
mod load_balance;
pub mod newidle;
pub mod nohz;
pub mod pelt;
mod pick;
mod placement;
pub mod queue_view;
pub mod should_balance;
pub(crate) mod state;
pub mod wake_affine;
mod walk;

#[cfg(test)]
mod delayed_run_test;
#[cfg(test)]
mod nohz_run_test;
#[cfg(test)]
mod run_test;

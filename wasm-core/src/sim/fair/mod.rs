//! The fair class's room: the class (`class.rs`) behind `SchedClass` (`hooks.rs`) with
//! its walk over the group hierarchy (`chain.rs`), its options (`weight_policy.rs`,
//! `group_identity.rs`) and its state (`state.rs`); and, one folder per
//! kernel generation, what that generation brings of its own behind
//! `FairGeneration` (`generation.rs`): `linux41/`, Linux 4.1's load tracking
//! over the hierarchy, balancer and placement; `linux612/`, 6.12's, being built.
//!
//! ```text
//!   class.rs ─► chain.rs (levels)
//!      │
//!      ├── load hooks (enqueue, dequeue, tick, shares…) ─┐
//!      └── balance / select_task_rq ─────────────────────┴─► generation!(…) ─► linux41/ (load, h_load,
//!                                                          shares, load_balance, idle, nohz, active, placement)
//! ```

pub(crate) mod chain;
pub mod class;
pub(crate) mod cx;
pub(crate) mod generation;
mod group_identity;
mod hooks;
pub(crate) mod linux41;
pub mod linux612;
pub(crate) mod state;
mod wakee;
mod weight_policy;

#[cfg(test)]
mod policy_test;

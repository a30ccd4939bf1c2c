//! The fair class's room: the class (`class.rs`) behind `SchedClass` (`hooks.rs`) with
//! its walk over the group hierarchy (`chain.rs`), its load tracking across
//! levels (`load.rs`, `h_load.rs`), its options (`weight_policy.rs`,
//! `group_identity.rs`) and its state (`state.rs`); and, one folder per
//! kernel generation, what that generation brings of its own behind
//! `FairGeneration` (`generation.rs`): `linux41/`, Linux 4.1's balancer,
//! placement and `cpu_load[]`; `linux612/`, 6.12's, being built.
//!
//! ```text
//!   class.rs ─► chain.rs (levels) ─► load.rs / h_load.rs (PELT across levels)
//!      │
//!      └── balance / select_task_rq ─► FairGeneration ─► linux41/ (load_balance, idle, nohz, active,
//!                                                         placement, cpu_load)
//! ```

pub(crate) mod chain;
pub mod class;
pub(crate) mod cx;
pub(crate) mod generation;
mod group_identity;
mod h_load;
#[cfg(test)]
mod h_load_test;
mod hooks;
pub(crate) mod linux41;
pub mod linux612;
mod load;
pub(crate) mod state;
mod weight_policy;

//! The O(1) scheduler's room (Linux 2.6.0–2.6.22, policy.kind "o1"): the
//! class behind `SchedClass` with its runqueue arrays (`class.rs`) and its
//! balancer by runqueue length (`balance.rs`).

mod balance;
pub mod class;

//! Scheduling classes and their per-CPU runqueues.
//!
//! `fair` is CFS as of Linux 4.1; `weights` and `tunables` hold the kernel's
//! constants. Every function takes the runqueue and the task table explicitly
//! (no hidden global state), so the simulator stays a pure function of its input.

pub mod cfs_rq;
pub mod det_math;
pub mod eevdf;
pub mod entity;
pub mod fair;
pub mod group;
pub mod identity;
pub mod load_avg;
pub mod o1;
pub mod pelt;
pub mod thread_weight;
pub mod tunables;
pub mod weights;

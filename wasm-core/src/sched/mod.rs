//! The classes' one-level records and algorithms, acting on one runqueue
//! and handed everything they touch (no machine state), so the simulator
//! stays a pure function of its input. The rooms in `sim/` drive them.
//!
//! - The fair class, shared by its generations: `cfs_rq`, `entity`, `fair`
//!   (CFS's one-level functions), `eevdf`, `group`, `identity`, `weights`,
//!   `tunables`, `thread_weight`, `det_math`.
//! - A generation's own: `linux41/`, 4.1's per-entity load tracking.
//! - The O(1) class: `o1`. sched_ext: `ext/` (the JavaScript runtime).

pub mod cfs_rq;
pub mod det_math;
pub mod eevdf;
pub mod entity;
pub mod fair;
pub mod group;
pub mod identity;
pub mod linux41;
pub mod o1;
pub mod policy;
pub mod thread_weight;
pub mod tunables;
pub mod weights;

//! Linux 4.1's per-entity load tracking on one runqueue: an entity's own
//! sums (`pelt.rs`) and what a runqueue keeps beyond them, its blocked load
//! and its part of a group's load (`load_avg.rs`). The walks over the group
//! hierarchy that call them are the fair class's 4.1 room
//! (`sim/fair/linux41/load.rs`).

pub mod load_avg;
pub mod pelt;

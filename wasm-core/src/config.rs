//! The engine's run configuration: what a validated scenario turns into.
//! Plain Rust types, no serialization (that lives in `api::scenario`).

use crate::machine::Machine;
use crate::program::Op;
use crate::sched::tunables::{CfsFeatures, CfsKnobs};

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SimConfig {
    pub name: String,
    pub seed: u64,
    pub duration_ns: u64,
    /// Scheduler tick frequency (CONFIG_HZ).
    pub hz: u32,
    pub machine: Machine,
    pub knobs: CfsKnobs,
    pub features: CfsFeatures,
    pub processes: Vec<ProcessSpec>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProcessSpec {
    pub name: String,
    pub nice: i32,
    pub threads: u32,
    pub start_ns: u64,
    pub program: Vec<Op>,
}

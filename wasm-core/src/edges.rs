//! The root of the `schedlab-edges` crate (edges/Cargo.toml): the scenario
//! format, views and reports (`api`) and real traces read as the run model
//! (`trace_import`), over the engine. The engine's modules are re-exported
//! here so `crate::sim::…` inside `api` names what it did when they were one
//! crate; `lib.rs` (schedlab-core) re-exports `api` and `trace_import`. A
//! crate of its own so the wasm build can compile it for size and the engine
//! for speed (the `wasm` profile).

pub use schedlab_engine::{
    balance, config, event_queue, latency, machine, program, program_names, rbtree, rng, sched, sim, task, time,
    topology, trace,
};

pub mod api;
/// Real traces (ftrace text, trace-cmd report, perf script) read as the run model: pure text, native and wasm.
pub mod trace_import;

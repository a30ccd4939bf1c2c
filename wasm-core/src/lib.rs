//! schedlab-core: a deterministic discrete-event simulator of the Linux CPU
//! scheduler. Pure Rust; the only WebAssembly bindings live in `wasm/`, and
//! serialization lives only in `api` (scenario format, views, report).
//!
//! ```text
//!   api::scenario (JSON) ─► config::SimConfig ─► sim::Simulator ─► api::{views, report} (JSON)
//!                                                  │ uses
//!                      sched::{fair, cfs_rq, weights, tunables}, rbtree, program, machine,
//!                      event_queue, rng, trace, task, time
//! ```

// Three crates, one library: the engine (`schedlab-engine`, root `engine.rs`), the edges over it
// (`schedlab-edges`, root `edges.rs`: `api`, `trace_import`) and this one (the wasm bindings, the host kernel).
// Split so the wasm build compiles the engine for speed and the edges for size (the `wasm` profile in
// Cargo.toml); every module keeps its path.
pub use schedlab_edges::{api, trace_import};
pub use schedlab_engine::{
    balance, config, event_queue, latency, machine, program, program_names, rbtree, rng, sched, sim, task, time,
    topology, trace,
};
/// The TypeScript types of the wasm API's JSON values, generated and checked (tests only).
#[cfg(test)]
mod boundary_types;
/// The host kernel: its topology, real runs, their traces (native CLI only).
#[cfg(not(target_arch = "wasm32"))]
pub mod real;

#[cfg(target_arch = "wasm32")]
mod wasm;

//! schedlab-core: a deterministic discrete-event simulator of the Linux CPU
//! scheduler. Pure Rust; the only WebAssembly bindings live in `wasm.rs`, and
//! serialization lives only in `api` (scenario format, views, report).
//!
//! ```text
//!   api::scenario (JSON) ─► config::SimConfig ─► sim::Simulator ─► api::{view, report} (JSON)
//!                                                  │ uses
//!                      sched::{fair, cfs_rq, weights, tunables}, rbtree, program, machine,
//!                      event_queue, rng, trace, task, time
//! ```

pub mod api;
pub mod balance;
#[cfg(test)]
mod boundary_types;
pub mod config;
pub mod event_queue;
pub mod latency;
pub mod machine;
pub mod program;
pub mod program_names;
pub mod rbtree;
/// The host kernel: its topology, real runs, their traces (native CLI only).
#[cfg(not(target_arch = "wasm32"))]
pub mod real;
pub mod rng;
pub mod sched;
pub mod sim;
pub mod task;
pub mod time;
pub mod topology;
pub mod trace;
/// Real traces (ftrace text, trace-cmd report, perf script) read as the run model: pure text, native and wasm.
pub mod trace_import;

#[cfg(target_arch = "wasm32")]
mod wasm;

//! The root of the `schedlab-engine` crate (engine/Cargo.toml): the simulated
//! machine and the scheduler, with no serialization but the schedstat records'.
//! `lib.rs` (schedlab-core) re-exports every module here, so the paths
//! `schedlab_core::sim::…` and, inside these modules, `crate::sim::…` are the
//! same as when they were one crate. A crate of its own so the wasm build can
//! compile it for speed and the edges for size (the `wasm` profile).

pub mod balance;
pub mod config;
/// Accessors for the edges (a crate of their own) to two of the Simulator's crate-visible fields.
pub mod edge_access;
pub mod event_queue;
pub mod latency;
pub mod machine;
pub mod program;
pub mod program_names;
pub mod rbtree;
pub mod rng;
pub mod sched;
pub mod sim;
pub mod task;
pub mod time;
pub mod topology;
pub mod trace;

// Every event of a page run goes through the heatmaps' sampler (the timeline samples before each step): it is
// compiled with the engine, for speed (at -Oz it made the wasm engine about 6 % slower), and re-exported where it
// belongs, as `api::history`. The timeline itself stays in the edges: at -O2 it made the wasm 14 KB larger.
#[path = "api/history.rs"]
pub mod history;

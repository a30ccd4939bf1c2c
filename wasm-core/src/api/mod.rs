//! The edges of the engine: everything that is serialized. Engine modules
//! never depend on this module.
//!
//! ```text
//!   sweep/      the presets' comparisons, and `schedsim sweep`'s plan, rows and layout
//!   exports/    Perfetto trace JSON, metrics CSV
//!   views/      what the page draws: SimView, decisions, topology, latency CDFs; one frame per call
//!   timeline    exact rewind (snapshots + replay), with the heatmaps' sampled `history`
//!   report/     a run's metrics report, its exercise verdict, schedstats, text form
//!   editor      the editor's checks and choices, the presets' list     rtapp/  rt-app JSON both ways
//!   scenario/   the file format v1: structs, reading, validation, limits, templates, exercises
//!   presets     the built-in scenarios (data)     text   control characters: refused in names, escaped
//! ```
//!
//! A sub-module imports only those below it (`tests/it/module_layers.rs`
//! fails on a cycle between them, or between any two files of `api`).

pub mod editor;
pub mod exports;
/// Compiled in the engine crate (every event of a page run goes through it), re-exported here.
pub use schedlab_engine::history;
#[cfg(test)]
mod history_tests;
pub mod presets;
pub mod report;
pub mod rtapp;
pub mod scenario;
pub mod sweep;
pub mod text;
pub mod timeline;
pub mod views;

//! The edges of the engine: everything that is serialized. The scenario file
//! format (`scenario`), the built-in presets (`presets`), the views the UI
//! draws (`view`), the metrics report (`report`), and the UI's exact rewind
//! (`timeline`) with the heatmaps' sampled history (`history`), one refresh of the lab
//! read in one call (`frame`, `frame_sim`), and the
//! exports (`perfetto` trace JSON, `metrics_csv`, rt-app JSON both ways: `rtapp_export`,
//! `rtapp_import` over `ordered_json`), and the sweeps (`sweep`: the presets'
//! comparisons; `sweep_plan`, `sweep_rows`: `schedsim sweep`), and the exercises a
//! scenario may carry (`exercise`: the goal, its check, the run's verdict). Engine modules
//! never depend on this module.

pub mod editor;
pub mod event_args;
pub mod frame;
pub mod frame_sim;
/// Compiled in the engine crate (every event of a page run goes through it), re-exported here.
pub use schedlab_engine::history;
#[cfg(test)]
mod history_tests;
pub mod inspector;
pub mod metrics;
pub mod metrics_csv;
pub mod ordered_json;
pub mod perfetto;
pub mod presets;
pub mod report;
pub mod rtapp_export;
pub mod rtapp_import;
pub mod scenario;
pub mod sweep;
pub mod sweep_layout;
pub mod sweep_plan;
pub mod sweep_rows;
pub mod text;
pub mod timeline;
pub mod topology;
pub mod view;

//! The edges of the engine: everything that is serialized. The scenario file
//! format (`scenario`), the built-in presets (`presets`), the views the UI
//! draws (`view`), the metrics report (`report`), and the UI's exact rewind
//! (`timeline`) with the heatmaps' sampled history (`history`), and the
//! exports (`perfetto` trace JSON, `metrics_csv`). Engine modules never
//! depend on this module.

pub mod editor;
pub mod history;
pub mod inspector;
pub mod limits;
pub mod metrics;
pub mod metrics_csv;
pub mod perfetto;
pub mod presets;
pub mod report;
pub mod scenario;
pub mod sweep;
pub mod templates;
pub mod timeline;
pub mod topology;
pub mod validate;
pub mod view;

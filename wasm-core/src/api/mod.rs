//! The edges of the engine: everything that is serialized. The scenario file
//! format (`scenario`), the built-in presets (`presets`), the views the UI
//! draws (`view`) and the metrics report (`report`). Engine modules never
//! depend on this module.

pub mod inspector;
pub mod presets;
pub mod report;
pub mod scenario;
pub mod sweep;
pub mod templates;
pub mod validate;
pub mod view;

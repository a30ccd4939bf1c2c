//! The metrics report of a run (`schedsim run --json`, `metrics_json` in
//! wasm) and its text form (`schedsim run`).
//!
//! ```text
//!   Simulator ──collect──► Report (run_report: figures, violation, schedstat)
//!                             ├──judge──► + the exercise's Verdict (verdict)
//!                             └──terminal──► text; notes: what the run did unasked, worded
//! ```
//!
//! This file only declares and re-exports: the files import one another
//! directly, so the re-exports close no cycle.

pub mod collect;
pub mod judge;
pub mod notes;
pub mod run_report;
pub mod schedstat;
pub mod terminal;
pub mod verdict;
pub mod violation;

pub use collect::{jain, page_report, report};
pub use judge::with_exercise;
pub use run_report::{CpuReport, ProcessReport, Report};
pub use terminal::{process_table, text_report};
pub use verdict::{verdict_line, Verdict};
pub use violation::ViolationReport;

//! Real traces read as the run model: pure text processing, so the native
//! CLI (`schedsim real`, `real-trace`) and the page (wasm, in its worker)
//! read a trace the same way. Nothing here touches the host.
//!
//! ```text
//!   import ─► trace_text | trace_cmd | perf_script     records, line by line
//!          ─► manifest (a `# schedlab` header) | foreign (threads grouped by comm)
//!          ─► analysis                                 the `schedsim run` report's figures
//!               (+ deadline)                           a deadline process's reservation, its runtime per period
//!   replay ─► replay_view                             the page's views of a trace: lanes, heatmaps,
//!                                                      checker, events, tasks at a cursor
//! ```

pub mod analysis;
mod cpu_limit;
pub mod deadline;
pub mod foreign;
pub mod import;
pub mod manifest;
pub mod perf_script;
mod pid_reuse;
pub mod replay;
mod replay_cursor;
pub mod replay_frame;
pub mod replay_view;
mod tid_table;
pub mod trace_cmd;
pub mod trace_text;

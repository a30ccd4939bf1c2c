//! The real kernel beside the model (native only; never compiled to wasm).
//! The trace readers (ftrace text, trace-cmd, perf, the run model) are pure
//! text and live in `crate::trace_import`, which the page uses too; they are
//! re-exported here under their old names.
//!
//! ```text
//!   host            the machine the CLI runs on, as the engine's machine model (preset "host")
//!   plan            a scenario as a real run, or why not (refusals name their field)
//!     plan_dl       deadline processes: pinned or forking ones refused, their reservations noted
//!   runner ─► spawn ─► worker (+ shared, sys)     the workload on the host kernel
//!          ─► tracefs, cgroup, schedstat_delta    recording, groups, counters; all undone at the end
//!          ─► rt_host, dl_host                    the host's real-time bandwidth and deadline admission, read
//!   trace_text ─► analysis (+ manifest)           ftrace text ─► the `schedsim run` report's figures
//!   import ─► trace_text | trace_cmd | perf_script, foreign    traces recorded anywhere (`real-trace`)
//!   text                                          the report, and the model beside it (fidelity)
//!   cli, output_file                              the commands; files written besides a report (--save-trace)
//! ```

pub use crate::trace_import::{analysis, foreign, import, manifest, perf_script, trace_cmd, trace_text};

pub mod cgroup;
pub mod cli;
pub mod flag;
pub mod generation;
/// The host machine reader lives with the machine model (`machine::host`).
pub use crate::machine::host;
pub mod dl_host;
pub mod output_file;
pub mod plan;
pub mod plan_dl;
pub mod rt_host;
pub mod runner;
pub mod schedstat_delta;
pub mod shared;
pub mod spawn;
pub mod sys;
pub mod text;
pub mod tracefs;
pub mod tracefs_mount;
pub mod worker;

#[cfg(test)]
mod fixture_tests;

/// A saved trace (`schedsim real --save-trace`) read back: its report. Read as `real-trace` reads a
/// file: a damaged scheduler line is an error with its number, never a figure quietly left out.
pub fn report_from_trace(text: &str) -> Result<analysis::RealReport, String> {
    let w = manifest::Workload::from_header(text)?;
    let parsed = import::parse(text, import::Format::Ftrace)?;
    Ok(analysis::analyse(&w, &parsed.records, parsed.lost))
}

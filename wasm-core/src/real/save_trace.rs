//! `schedsim real --save-trace OUT`: the file is created before the run and
//! written after it. A real run cannot be replayed, so an unwritable path is
//! refused before the workload starts, and a write that still fails (a full
//! disk) is returned for the CLI to print after the report, never instead of it.

use std::fs::File;
use std::io::Write;

/// `path` created (or truncated) for the trace, or why not.
pub fn create(path: &str) -> Result<File, String> {
    File::create(path).map_err(|e| format!("cannot write {}: {e}", crate::api::text::escape_controls(path)))
}

/// Writes the run's trace into the file `create` opened.
pub fn write(mut file: File, path: &str, trace: &[u8]) -> Result<(), String> {
    let shown = crate::api::text::escape_controls(path);
    file.write_all(trace).and_then(|()| file.flush()).map_err(|e| format!("cannot write {shown}: {e}"))?;
    eprintln!("schedsim: wrote the trace ({} bytes) to {shown}", trace.len());
    Ok(())
}

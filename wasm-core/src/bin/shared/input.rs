//! Reading a scenario file for the native binaries. Its size is checked
//! before anything is read (the engine's `MAX_SCENARIO_BYTES`), so a huge
//! file is refused at once; a pipe or device, which has no size, is read up
//! to one byte past the limit and no further.

// Each binary includes this file and uses part of it.
#![allow(dead_code)]

use schedlab_core::api::scenario::{size_problem, MAX_SCENARIO_BYTES};
use std::io::Read;

/// The text of the scenario file at `path`, or a one-line reason.
pub fn read_scenario(path: &str) -> Result<String, String> {
    let file = std::fs::File::open(path).map_err(|e| format!("cannot read {path}: {e}"))?;
    if let Some(d) = file.metadata().ok().and_then(|m| size_problem(m.len())) {
        return Err(format!("{path} {}", d.reason));
    }
    let mut bytes = Vec::new();
    file.take(MAX_SCENARIO_BYTES as u64 + 1).read_to_end(&mut bytes).map_err(|e| format!("cannot read {path}: {e}"))?;
    if bytes.len() > MAX_SCENARIO_BYTES {
        return Err(format!(
            "{path} is more than {MAX_SCENARIO_BYTES} bytes; the largest scenario accepted is {MAX_SCENARIO_BYTES} bytes ({} MiB)",
            MAX_SCENARIO_BYTES / (1024 * 1024)
        ));
    }
    String::from_utf8(bytes).map_err(|e| {
        format!("cannot read {path}: not UTF-8 text (invalid bytes at offset {})", e.utf8_error().valid_up_to())
    })
}

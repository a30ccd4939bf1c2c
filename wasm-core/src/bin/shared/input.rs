//! Reading a scenario file for the native binaries. Its size is checked
//! before anything is read (the engine's `MAX_SCENARIO_BYTES`), so a huge
//! file is refused at once; a pipe or device, which has no size, is read up
//! to one byte past the limit and no further.

// Each binary includes this file and uses part of it.
#![allow(dead_code)]

#[path = "policy_file.rs"]
mod policy_file;

use policy_file::read_policy_file;
use schedlab_core::api::scenario::{size_problem, without_bom, MAX_SCENARIO_BYTES};
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
    let text = String::from_utf8(bytes).map_err(|e| {
        format!("cannot read {path}: not UTF-8 text (invalid bytes at offset {})", e.utf8_error().valid_up_to())
    })?;
    // The policy's file is found by reading the JSON here, before the engine's reader would skip a BOM.
    with_policy_source(path, without_bom(&text).to_string())
}

/// A sched_ext scenario may name its policy's file (`policy.source_file`,
/// relative to the scenario file) instead of carrying the source: the file is
/// read into `policy.source`, so the engine (which reads no files) gets the
/// same scenario as the browser's, where the source travels inline.
fn with_policy_source(path: &str, text: String) -> Result<String, String> {
    let Ok(mut v) = serde_json::from_str::<serde_json::Value>(&text) else { return Ok(text) };
    let Some(policy) = v.get_mut("policy").and_then(|p| p.as_object_mut()) else { return Ok(text) };
    let Some(file) = policy.get("source_file").and_then(|f| f.as_str()).map(str::to_owned) else { return Ok(text) };
    if policy.contains_key("source") {
        return Ok(text);
    }
    let at = std::path::Path::new(path).parent().unwrap_or(std::path::Path::new(".")).join(&file);
    let source = read_policy_file(&at).map_err(|e| format!("{path}: policy.source_file {file:?}: {e}"))?;
    policy.insert("source".into(), serde_json::Value::String(source));
    serde_json::to_string_pretty(&v).map_err(|e| e.to_string())
}

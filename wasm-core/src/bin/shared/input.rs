//! Reading a scenario file for the native binaries. Its size is checked
//! before anything is read (the engine's `MAX_SCENARIO_BYTES`), so a huge
//! file is refused at once; a pipe or device, which has no size, is read up
//! to one byte past the limit and no further.

// Each binary includes this file and uses part of it.
#![allow(dead_code)]

use schedlab_core::api::scenario::MAX_POLICY_SOURCE;
use schedlab_core::api::scenario::{size_problem, MAX_SCENARIO_BYTES};
use schedlab_core::sim::ext::syntax::check_syntax;
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
    with_policy_source(path, without_bom(text))
}

/// The text without a leading UTF-8 byte order mark, which Windows editors
/// write and JSON parsers refuse ("expected value at line 1 column 1").
fn without_bom(text: String) -> String {
    match text.strip_prefix('\u{feff}') {
        Some(rest) => rest.to_string(),
        None => text,
    }
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

/// A policy file's text. The scenario names the file, so it may name
/// anything readable: a device or FIFO (`/dev/zero` never ends; a FIFO blocks)
/// is refused by its type, a large file by its size before it is read, and
/// at most one byte past the limit is read in any case. A file that is not
/// JavaScript (`/etc/shadow`, `/proc/self/environ`) is refused with the
/// place and kind of its syntax error only: its text is never quoted.
fn read_policy_file(at: &std::path::Path) -> Result<String, String> {
    use std::os::unix::fs::OpenOptionsExt;
    const MAX: usize = MAX_POLICY_SOURCE;
    let regular = |m: &std::fs::Metadata| {
        if !m.is_file() {
            return Err("not a regular file".to_string());
        }
        if m.len() > MAX as u64 {
            return Err(format!("{} bytes; the largest policy source is {MAX} bytes", m.len()));
        }
        Ok(())
    };
    regular(&std::fs::metadata(at).map_err(|e| e.to_string())?)?;
    // O_NONBLOCK: a FIFO swapped in after the check does not hold the open.
    let file =
        std::fs::OpenOptions::new().read(true).custom_flags(libc::O_NONBLOCK).open(at).map_err(|e| e.to_string())?;
    regular(&file.metadata().map_err(|e| e.to_string())?)?;
    let mut bytes = Vec::new();
    file.take(MAX as u64 + 1).read_to_end(&mut bytes).map_err(|e| e.to_string())?;
    if bytes.len() > MAX {
        return Err(format!("more than {MAX} bytes; the largest policy source is {MAX} bytes"));
    }
    let source = String::from_utf8(bytes)
        .map_err(|e| format!("not UTF-8 text (invalid bytes at offset {})", e.utf8_error().valid_up_to()))?;
    check_syntax(&source).map_err(|p| {
        format!(
            "line {}, column {}: {}: the file is not a JavaScript policy (its text is not shown)",
            p.line, p.column, p.kind
        )
    })?;
    Ok(source)
}

//! Scenario text to the engine's configuration: the size refused before
//! parsing, the parse (every type error listed, `parse_problems`), then the
//! semantic checks (`validate`).

use super::diagnostic::Diagnostic;
use super::file::{ScenarioFile, MAX_SCENARIO_BYTES};
use super::parse_problems::{diagnostic_of, every_parse_problem, top_level_problem};
use super::validate::validate;
use crate::config::SimConfig;

/// The refusal of a scenario of `len` bytes, or None if it is within
/// `MAX_SCENARIO_BYTES`.
pub fn size_problem(len: u64) -> Option<Diagnostic> {
    (len > MAX_SCENARIO_BYTES as u64).then(|| Diagnostic {
        field: "scenario".into(),
        reason: format!(
            "is {len} bytes ({:.1} MiB); the largest scenario accepted is {MAX_SCENARIO_BYTES} bytes ({} MiB)",
            len as f64 / (1024.0 * 1024.0),
            MAX_SCENARIO_BYTES / (1024 * 1024)
        ),
    })
}

/// The text without a leading UTF-8 byte order mark, which Windows editors
/// write and JSON does not allow: every reader of a scenario (the page's
/// Open, the CLI, Python) takes the same text.
pub fn without_bom(text: &str) -> &str {
    text.strip_prefix('\u{feff}').unwrap_or(text)
}

/// Parses scenario JSON text; a syntax or type error names its field (the
/// first one found). Text over `MAX_SCENARIO_BYTES` is refused before
/// parsing, and so is a top level that is not a JSON object. A byte order
/// mark at the start is skipped.
pub fn parse_scenario(text: &str) -> Result<ScenarioFile, Diagnostic> {
    let text = without_bom(text);
    if let Some(d) = size_problem(text.len() as u64) {
        return Err(d);
    }
    if let Some(d) = top_level_problem(text) {
        return Err(d);
    }
    serde_json::from_str(text).map_err(|e| diagnostic_of(&e, text, ""))
}

/// Parses and validates: the engine configuration, or every problem found.
/// When parsing fails, every parse problem that can be found is listed
/// (`parse_problems`); the semantic checks need a parsed file and wait.
pub fn load_scenario(text: &str) -> Result<SimConfig, Vec<Diagnostic>> {
    let text = without_bom(text);
    let file = parse_scenario(text).map_err(|first| {
        if size_problem(text.len() as u64).is_some() || top_level_problem(text).is_some() {
            // Too large, or not an object: nothing more to read.
            vec![first]
        } else {
            every_parse_problem(text, first)
        }
    })?;
    validate(&file)
}

//! Scenario files read as `schedsim` reads them. The CLI's own reader (`wasm-core/src/bin/shared/input.rs`, which
//! each of its binaries includes) is compiled in here as well, so a file's size limit, its byte order mark and its
//! `policy.source_file` — read relative to the scenario file into `policy.source` — are this package's exactly.

#[path = "../../wasm-core/src/bin/shared/input.rs"]
mod input;

use crate::InvalidScenario;
use pyo3::exceptions::PyOSError;
use pyo3::prelude::*;

/// Why a scenario file could not be read.
pub(crate) enum FileProblem {
    /// The file itself is not there or not reachable: Python's own `OSError` subclass for it.
    Io(std::io::Error),
    /// The CLI's one-line reason: the file could not be read, is too large or is not UTF-8, or its
    /// `policy.source_file` could not be read (then `field` names it).
    Refused { message: String, field: Option<(String, String)> },
}

/// The text of the scenario file at `path` with its policy's source file read in, as `schedsim run FILE` runs it.
pub(crate) fn read(path: &str) -> Result<String, FileProblem> {
    // The metadata, not an open: a FIFO is opened once, by the reader below.
    std::fs::metadata(path)
        .map_err(|e| FileProblem::Io(std::io::Error::new(e.kind(), format!("cannot read {path}: {e}"))))?;
    input::read_scenario(path).map_err(|message| {
        // input.rs words a policy file's problem "{path}: policy.source_file {file:?}: {reason}".
        let prefix = format!("{path}: policy.source_file ");
        let field = message.strip_prefix(&prefix).map(|rest| ("policy.source_file".to_string(), rest.to_string()));
        FileProblem::Refused { message, field }
    })
}

impl From<FileProblem> for PyErr {
    fn from(p: FileProblem) -> PyErr {
        match p {
            FileProblem::Io(e) => e.into(),
            FileProblem::Refused { message, field: None } if message.starts_with("cannot read ") => {
                PyOSError::new_err(message)
            }
            FileProblem::Refused { message, field } => {
                InvalidScenario::new_err((message, field.into_iter().collect::<Vec<_>>()))
            }
        }
    }
}

/// The scenario file's text as `schedsim` runs it (`policy.source_file` read in), read without the GIL on the
/// engine's threads: the policy file's syntax check is boa's parser, which recurses on every bracket.
#[pyfunction]
pub fn read_scenario(py: Python<'_>, path: &str) -> PyResult<String> {
    Ok(crate::engine_threads::on_engine_threads(py, || read(path))??)
}

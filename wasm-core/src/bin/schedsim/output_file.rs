//! Files a run writes besides its report (`--perfetto OUT`): created before
//! the run, so an unwritable path is refused before any simulation time is
//! spent, and written after it; a write that still fails (a full disk) is
//! reported after the report, which is printed regardless.

use std::fs::File;
use std::io::Write;

/// `path` created (or truncated) for writing, or why not.
pub fn create(path: &str) -> Result<File, String> {
    File::create(path).map_err(|e| format!("cannot write {path}: {e}"))
}

/// Writes `bytes` to the file `create` opened, and flushes it.
pub fn write(mut file: File, path: &str, bytes: &[u8]) -> Result<(), String> {
    file.write_all(bytes).and_then(|()| file.flush()).map_err(|e| format!("cannot write {path}: {e}"))
}

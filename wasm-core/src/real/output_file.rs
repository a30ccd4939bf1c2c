//! Files a CLI command writes besides its report (`real --save-trace OUT`,
//! `run --perfetto OUT`). The path is opened before the run, so an
//! unwritable one is refused before any run time is spent (a real run
//! cannot be replayed); the file is written after it, and a write that still
//! fails (a full disk) is returned for the CLI to print after the report,
//! never instead of it.
//!
//! Opening does not truncate: a run that is then refused or interrupted
//! leaves an existing file as it was, and removes the file if it was the one
//! to create it. Only `write` replaces the contents.

use std::fs::{File, OpenOptions};
use std::io::{ErrorKind, Write};

/// An output path opened for writing, its old contents untouched until `write`.
#[derive(Debug)]
pub struct OutputFile {
    file: File,
    path: String,
    /// Made by `open`: removed if the run ends without writing it.
    created: bool,
    written: bool,
}

fn shown(path: &str) -> String {
    crate::api::text::escape_controls(path).into_owned()
}

impl OutputFile {
    /// `path` opened for writing (created if missing, not truncated), or why not.
    pub fn open(path: &str) -> Result<OutputFile, String> {
        let fail = |e: std::io::Error| format!("cannot write {}: {e}", shown(path));
        // create_new tells atomically whether this run made the file.
        let (file, created) = match OpenOptions::new().write(true).create_new(true).open(path) {
            Ok(f) => (f, true),
            Err(e) if e.kind() == ErrorKind::AlreadyExists => {
                (OpenOptions::new().write(true).open(path).map_err(fail)?, false)
            }
            Err(e) => return Err(fail(e)),
        };
        Ok(OutputFile { file, path: path.to_string(), created, written: false })
    }

    /// Replaces the file's contents with `bytes` and flushes them.
    pub fn write(mut self, bytes: &[u8]) -> Result<(), String> {
        self.written = true;
        // A regular file loses its old contents; a device or pipe (`/dev/null`, `/dev/stdout`) has none to lose.
        let regular = self.file.metadata().is_ok_and(|m| m.is_file());
        let truncate = if regular { self.file.set_len(0) } else { Ok(()) };
        truncate
            .and_then(|()| self.file.write_all(bytes))
            .and_then(|()| self.file.flush())
            .map_err(|e| format!("cannot write {}: {e}", shown(&self.path)))
    }

    pub fn path(&self) -> &str {
        &self.path
    }
}

impl Drop for OutputFile {
    fn drop(&mut self) {
        if self.created && !self.written {
            let _ = std::fs::remove_file(&self.path);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp(tag: &str) -> String {
        let p = std::env::temp_dir().join(format!("schedlab-output-file-{}-{tag}", std::process::id()));
        let _ = std::fs::remove_file(&p);
        p.to_string_lossy().into_owned()
    }

    #[test]
    fn a_run_that_never_writes_leaves_the_path_as_it_was() {
        let fresh = temp("fresh");
        drop(OutputFile::open(&fresh).unwrap());
        assert!(!std::path::Path::new(&fresh).exists(), "made by the open, removed unwritten");
        let old = temp("old");
        std::fs::write(&old, "an earlier trace\n").unwrap();
        drop(OutputFile::open(&old).unwrap());
        assert_eq!(std::fs::read_to_string(&old).unwrap(), "an earlier trace\n", "opened, not truncated");
        let _ = std::fs::remove_file(&old);
    }

    #[test]
    fn a_write_replaces_the_contents() {
        let old = temp("replaced");
        std::fs::write(&old, "an earlier, longer trace\n").unwrap();
        OutputFile::open(&old).unwrap().write(b"new\n").unwrap();
        assert_eq!(std::fs::read_to_string(&old).unwrap(), "new\n");
        let _ = std::fs::remove_file(&old);
        // A device takes the bytes with no truncation to make.
        OutputFile::open("/dev/null").unwrap().write(b"x").unwrap();
        assert!(OutputFile::open("/nonexistent-dir/x").unwrap_err().starts_with("cannot write /nonexistent-dir/x"));
    }
}

//! How the native binaries write: stdout is written in one piece through its
//! lock and flushed, so every write error comes back as a value instead of
//! the panic `println!` raises. A reader that went away (a closed pipe, as in
//! `schedsim preset NAME | head -1`) ends the program quietly with status 0:
//! it took what it wanted. Any other failure (a full disk, `> /dev/full`) is
//! one line on stderr and status 1. Nothing is ever printed with `print!`.

// Each binary includes this file and uses part of it.
#![allow(dead_code)]

use schedlab_core::api::text::escape_controls;
use std::io::{self, Write};
use std::process::ExitCode;

/// Status for a failed write that is not a closed pipe.
pub const WRITE_FAILED: u8 = 1;
/// Status for invalid input (a file, an option, a scenario the engine refuses).
pub const INVALID_INPUT: u8 = 2;
/// Status for a run that ran and failed (its sched_ext policy did not load
/// or stopped the run): its report is printed, but its figures describe a
/// run cut short, which a script must not take for a result.
pub const RUN_FAILED: u8 = 3;

/// What a command printed and, if something went wrong after its output
/// was made, the status and message to end with (the output is printed
/// first, so a late failure never loses it).
pub struct Done {
    /// None: the command printed its output itself (a sweep's rows, as they came).
    pub text: Option<String>,
    pub failure: Option<(u8, String)>,
}

impl From<String> for Done {
    fn from(text: String) -> Done {
        Done { text: Some(text), failure: None }
    }
}

/// Writes `text` and a newline to stdout, then flushes.
pub fn print(text: &str) -> io::Result<()> {
    let mut out = io::stdout().lock();
    out.write_all(text.as_bytes())?;
    out.write_all(b"\n")?;
    out.flush()
}

/// `PROG: message` on stderr. Each line of the message has its control
/// characters escaped (it may quote a file name or argument as given). A
/// failure to write it is ignored: there is nowhere left to report it.
pub fn warn(prog: &str, msg: &str) {
    let lines: Vec<_> = msg.split('\n').map(escape_controls).collect();
    let mut err = io::stderr().lock();
    let _ = writeln!(err, "{prog}: {}", lines.join("\n"));
    let _ = err.flush();
}

/// The exit for a write to stdout that failed.
pub fn write_failed(prog: &str, e: &io::Error) -> ExitCode {
    if e.kind() == io::ErrorKind::BrokenPipe {
        return ExitCode::SUCCESS;
    }
    warn(prog, &format!("cannot write the output: {e}"));
    ExitCode::from(WRITE_FAILED)
}

/// Prints `text` and turns the outcome into the process's exit status.
pub fn finish(prog: &str, text: &str) -> ExitCode {
    match print(text) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => write_failed(prog, &e),
    }
}

/// Prints what a command made, then its late failure, if any, with its status.
pub fn finish_done(prog: &str, done: &Done) -> ExitCode {
    if let Some(Err(e)) = done.text.as_deref().map(print) {
        return write_failed(prog, &e);
    }
    match &done.failure {
        None => ExitCode::SUCCESS,
        Some((status, msg)) => {
            warn(prog, msg);
            ExitCode::from(*status)
        }
    }
}

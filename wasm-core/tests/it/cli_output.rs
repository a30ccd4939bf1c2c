//! The binaries' output paths when stdout cannot take what they write: a
//! reader that went away (a closed pipe) ends the program quietly with
//! status 0; any other write error (`/dev/full`) is one line `PROG: …` on
//! stderr and status 1. Never a panic (status 101, a backtrace).

use crate::common;

use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

const SCHEDSIM: &str = env!("CARGO_BIN_EXE_schedsim");
const SWEEP: &str = env!("CARGO_BIN_EXE_sweep");
const BENCH: &str = env!("CARGO_BIN_EXE_bench");

/// A small valid scenario in a file of its own.
fn scenario_file(tag: &str) -> PathBuf {
    let path = common::temp_path(&format!("cli-output-{tag}.json"));
    let text = r#"{"version":1,"name":"t","duration_ms":20,"machine":{"preset":"uniprocessor"},
        "processes":[{"name":"a","program":[{"run_us":5000}]},{"name":"b","program":[{"run_us":3000}]}]}"#;
    std::fs::write(&path, text).expect("temp file");
    path
}

/// Runs `bin args` with stdout a pipe whose reading end is already closed,
/// so the first write fails with EPIPE whatever the timing.
fn into_closed_pipe(bin: &str, args: &[&str]) -> Output {
    let (reader, writer) = std::io::pipe().expect("pipe");
    drop(reader);
    Command::new(bin).args(args).stdout(writer).stderr(Stdio::piped()).output().expect("spawn")
}

/// Runs `bin args` with stdout `/dev/full` (every write fails with ENOSPC).
fn into_full_device(bin: &str, args: &[&str]) -> Output {
    let full = std::fs::OpenOptions::new().write(true).open("/dev/full").expect("/dev/full");
    Command::new(bin).args(args).stdout(full).stderr(Stdio::piped()).output().expect("spawn")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn assert_quiet_success(o: &Output, what: &str) {
    assert_eq!(o.status.code(), Some(0), "{what}: {}", stderr(o));
    assert_eq!(stderr(o), "", "{what}");
}

fn assert_one_line_failure(o: &Output, prog: &str, what: &str) {
    let err = stderr(o);
    assert_eq!(o.status.code(), Some(1), "{what}: {err}");
    assert!(!err.contains("panicked"), "{what}: {err}");
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 1, "{what}: {err}");
    assert!(lines[0].starts_with(&format!("{prog}: cannot write the output: ")), "{what}: {err}");
}

#[test]
fn a_closed_pipe_ends_schedsim_quietly() {
    let file = scenario_file("pipe");
    let f = file.to_str().expect("utf-8 path");
    for args in [
        vec!["preset", "gi-colocation"],
        vec!["list"],
        vec!["run", f],
        vec!["run", f, "--json"],
        vec!["run", f, "--csv"],
        vec!["sweep", f, "--seeds", "1..3"],
        vec!["sweep", f, "--seeds", "1..3", "--json"],
    ] {
        assert_quiet_success(&into_closed_pipe(SCHEDSIM, &args), &args.join(" "));
    }
    let _ = std::fs::remove_file(file);
}

#[test]
fn a_write_error_is_one_line_and_status_1() {
    let file = scenario_file("full");
    let f = file.to_str().expect("utf-8 path");
    for args in [
        vec!["preset", "gi-colocation"],
        vec!["list"],
        vec!["run", f],
        vec!["run", f, "--csv"],
        vec!["sweep", f, "--seeds", "1..3", "--csv"],
    ] {
        assert_one_line_failure(&into_full_device(SCHEDSIM, &args), "schedsim", &args.join(" "));
    }
    let _ = std::fs::remove_file(file);
}

#[test]
fn sweep_and_bench_handle_write_errors_too() {
    assert_quiet_success(&into_closed_pipe(SWEEP, &["alpha", "2"]), "sweep alpha 2 | closed");
    assert_one_line_failure(&into_full_device(SWEEP, &["alpha", "2"]), "sweep", "sweep alpha 2 > /dev/full");
    let file = scenario_file("bench");
    let f = file.to_str().expect("utf-8 path");
    assert_quiet_success(&into_closed_pipe(BENCH, &["--repeat", "1", f]), "bench | closed");
    assert_one_line_failure(&into_full_device(BENCH, &["--repeat", "1", f]), "bench", "bench > /dev/full");
    let _ = std::fs::remove_file(file);
}

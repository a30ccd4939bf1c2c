//! The CLI on hostile or failing input, through the built binary: a run whose
//! sched_ext policy fails is flagged and exits 3 (`run`, every `sweep`
//! format, `fidelity`), a sweep streams its rows in plan order with progress
//! on stderr only, a policy file is read only if it is a small regular UTF-8
//! file declaring a callback and its text is never quoted, output files are opened before the run (and
//! left as they were by a run that never writes them), and a scenario file
//! may start with a byte order mark.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const SCHEDSIM: &str = env!("CARGO_BIN_EXE_schedsim");

/// A temporary file or directory, removed when dropped.
struct Temp(PathBuf);

impl Drop for Temp {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

impl Temp {
    fn path(&self) -> &str {
        self.0.to_str().expect("utf-8 temp path")
    }
}

fn temp(tag: &str, bytes: &[u8]) -> Temp {
    let path = common::temp_path(&format!("cli-robust-{tag}"));
    std::fs::write(&path, bytes).expect("temp file");
    Temp(path)
}

fn schedsim(args: &[&str]) -> Output {
    Command::new(SCHEDSIM).args(args).output().expect("spawn schedsim")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// One CPU, two hogs, 20 ms, under `policy` (a JSON object).
fn scenario(policy: &str) -> String {
    format!(
        r#"{{"version":1,"name":"robust","seed":1,"duration_ms":20,"machine":{{"preset":"uniprocessor"}},
  "policy":{policy},
  "processes":[{{"name":"a","program":[{{"body":[{{"run_us":1000}}]}}]}},
    {{"name":"b","program":[{{"body":[{{"run_us":700}},{{"sleep_us":300}}]}}]}}]}}"#
    )
}

const BROKEN: &str = r#"{"kind":"ext","source":"this is not ( javascript"}"#;
const FIFO: &str = include_str!("../../policies/global-fifo.js");

#[test]
fn a_run_whose_policy_failed_prints_its_report_and_exits_3() {
    let file = temp("broken.json", scenario(BROKEN).as_bytes());
    let o = schedsim(&["run", file.path()]);
    assert_eq!(o.status.code(), Some(3), "{}", text(&o.stderr));
    assert!(text(&o.stdout).contains("ms simulated"), "the report is printed: {}", text(&o.stdout));
    assert!(text(&o.stderr).contains("the run failed: at 0.000 ms the sched_ext policy failed"), "{}", text(&o.stderr));
    let ok = temp("ok.json", scenario(r#"{"kind":"cfs"}"#).as_bytes());
    assert_eq!(schedsim(&["run", ok.path()]).status.code(), Some(0));
}

/// `fidelity` runs the model first: a model whose policy failed has no figures to compare (they would
/// read as zeros beside the kernel's), so it says so with status 3 and the host runs nothing (this
/// holds without root too: the model fails before the real run's checks).
#[test]
fn fidelity_with_a_failed_model_compares_nothing_and_exits_3() {
    let host = scenario(BROKEN).replace(r#"{"preset":"uniprocessor"}"#, r#"{"preset":"host"}"#);
    let file = temp("fidelity-broken.json", host.as_bytes());
    let o = schedsim(&["fidelity", file.path()]);
    let e = text(&o.stderr);
    assert_eq!(o.status.code(), Some(3), "{e}");
    assert!(e.contains("the model's run failed: at 0.000 ms the sched_ext policy failed"), "{e}");
    assert!(e.contains("the real run was not started"), "{e}");
    assert!(o.stdout.is_empty(), "no comparison: {}", text(&o.stdout));
}

#[test]
fn a_sweep_flags_failed_runs_in_every_format_and_exits_3() {
    // Two policies by --set: the good one's rows have no error, the broken one's say why.
    let file = temp("sweep-broken.json", scenario(r#"{"kind":"cfs"}"#).as_bytes());
    let set = format!("policy={},{BROKEN}", r#"{"kind":"cfs"}"#);
    let json = schedsim(&["sweep", file.path(), "--set", &set, "--json"]);
    assert_eq!(json.status.code(), Some(3), "{}", text(&json.stderr));
    let rows: serde_json::Value = serde_json::from_slice(&json.stdout).expect("JSON rows");
    assert_eq!(rows[0]["error"], serde_json::Value::Null);
    assert!(rows[1]["error"].as_str().is_some_and(|e| e.contains("sched_ext policy failed")), "{rows}");
    assert!(text(&json.stderr).contains("1 of 2 runs failed; the first, row 2 (seed 1)"), "{}", text(&json.stderr));
    let csv = schedsim(&["sweep", file.path(), "--set", &set, "--csv"]);
    assert_eq!(csv.status.code(), Some(3));
    let out = text(&csv.stdout);
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines[0].ends_with(",error") && lines[1].ends_with(','), "{out}");
    assert!(lines[2].contains("sched_ext policy failed"), "{out}");
    let table = schedsim(&["sweep", file.path(), "--set", &set]);
    assert_eq!(table.status.code(), Some(3));
    let out = text(&table.stdout);
    assert!(out.lines().next().is_some_and(|h| h.ends_with("  error")), "{out}");
    assert!(out.lines().nth(2).is_some_and(|l| l.contains("sched_ext policy failed")), "{out}");
}

#[test]
fn a_sweep_prints_progress_on_stderr_only_and_the_same_bytes_at_any_jobs() {
    let file = temp("sweep-stream.json", scenario(r#"{"kind":"cfs"}"#).as_bytes());
    let args = ["sweep", file.path(), "--seeds", "1..6", "--set", "processes.1.nice=0,5", "--csv"];
    let one = schedsim(&[&args[..], &["--jobs", "1"]].concat());
    let four = schedsim(&[&args[..], &["--jobs", "4"]].concat());
    assert_eq!(one.status.code(), Some(0), "{}", text(&one.stderr));
    assert_eq!(one.stdout, four.stdout);
    assert_eq!(text(&one.stdout).lines().count(), 13, "a header and 12 rows");
    assert!(text(&one.stderr).contains("sweep: 12 runs on 1 thread(s)"), "{}", text(&one.stderr));
    assert!(!text(&one.stdout).contains("runs on"), "progress never reaches the data");
}

fn with_policy_file(tag: &str, target: &Path) -> (Temp, Temp) {
    let dir = Temp(common::temp_path(&format!("cli-robust-{tag}-dir")));
    std::fs::create_dir_all(&dir.0).expect("temp dir");
    let link = dir.0.join("policy.js");
    std::os::unix::fs::symlink(target, &link).expect("symlink");
    let policy = r#"{"kind":"ext","source_file":"policy.js"}"#;
    let file = Temp(dir.0.join("s.json"));
    std::fs::write(&file.0, scenario(policy)).expect("scenario");
    (dir, file)
}

#[test]
fn a_policy_file_must_be_a_small_regular_javascript_file_and_is_never_quoted() {
    // A device never ends: refused by its type, unread.
    let (_d, s) = with_policy_file("zero", Path::new("/dev/zero"));
    let o = schedsim(&["run", s.path()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr).contains("policy.source_file \"policy.js\": not a regular file"), "{}", text(&o.stderr));
    // Too large: refused by its size.
    let big = temp("big.js", &vec![b' '; 64 * 1024 + 1]);
    let (_d, s) = with_policy_file("big", &big.0);
    let e = text(&schedsim(&["run", s.path()]).stderr);
    assert!(e.contains("65537 bytes; the largest policy source is 65536 bytes"), "{e}");
    // Not UTF-8.
    let bin = temp("bin.js", b"var a = '\xff';");
    let (_d, s) = with_policy_file("bin", &bin.0);
    let e = text(&schedsim(&["run", s.path()]).stderr);
    assert!(e.contains("not UTF-8 text (invalid bytes at offset 9)"), "{e}");
    // A secret that is not JavaScript: its place and kind, none of its text.
    let secret = temp("shadow", b"root:$6$Zq9secretsalt$hash:19000:0:99999:7:::\n");
    let (_d, s) = with_policy_file("shadow", &secret.0);
    let o = schedsim(&["run", s.path()]);
    let e = text(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{e}");
    assert!(e.contains("line 1, column ") && e.contains("SyntaxError"), "{e}");
    for word in ["root", "Zq9secretsalt", "hash", "19000"] {
        assert!(!e.contains(word) && !text(&o.stdout).contains(word), "{word} quoted: {e}");
    }
    // A file that parses as JavaScript but declares no callback (a token, a hostname) is not run: running it
    // would quote its first word ("ReferenceError: hunter2secret is not defined").
    for (tag, secret) in [("token", "hunter2secret\n"), ("env", "API_KEY = \"abc123xyz\"\n")] {
        let f = temp(tag, secret.as_bytes());
        let (_d, s) = with_policy_file(tag, &f.0);
        let o = schedsim(&["run", s.path(), "--json"]);
        let e = text(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{e}");
        assert!(e.contains("declares none of the sched_ext callbacks"), "{e}");
        for word in ["hunter2secret", "API_KEY", "abc123xyz"] {
            assert!(!e.contains(word) && !text(&o.stdout).contains(word), "{word} quoted: {e}");
        }
    }
    // A real policy file still runs.
    let fifo = temp("fifo.js", FIFO.as_bytes());
    let (_d, s) = with_policy_file("fifo", &fifo.0);
    let o = schedsim(&["run", s.path()]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
}

#[test]
fn an_unwritable_perfetto_path_is_refused_before_the_run() {
    let file = temp("perfetto.json", scenario(r#"{"kind":"cfs"}"#).as_bytes());
    let o = schedsim(&["run", file.path(), "--perfetto", "/nonexistent-dir/x.json"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr).contains("cannot write /nonexistent-dir/x.json"), "{}", text(&o.stderr));
    assert!(o.stdout.is_empty(), "no run, no report");
    // A write that fails after the run (a full disk) still prints the report, then the error.
    if Path::new("/dev/full").exists() {
        let o = schedsim(&["run", file.path(), "--perfetto", "/dev/full"]);
        assert_eq!(o.status.code(), Some(1), "{}", text(&o.stderr));
        assert!(text(&o.stdout).contains("ms simulated"), "{}", text(&o.stdout));
        assert!(text(&o.stderr).contains("cannot write /dev/full"), "{}", text(&o.stderr));
    }
}

/// `real --save-trace OUT` opens OUT before the run without truncating it: a run refused after that
/// (here Group Identity, which no real run has; without root, the root check) leaves an existing file
/// as it was and removes one it made.
#[test]
fn a_refused_real_run_leaves_its_save_trace_path_as_it_was() {
    let file = temp("real-refused.json", scenario(r#"{"kind":"cfs","group_identity":true}"#).as_bytes());
    let old = temp("real-refused.trace.txt", b"an earlier trace\n");
    let o = schedsim(&["real", file.path(), "--save-trace", old.path()]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
    assert_eq!(std::fs::read(&old.0).expect("still there"), b"an earlier trace\n", "{}", text(&o.stderr));
    let fresh = Temp(common::temp_path("cli-robust-real-fresh.trace.txt"));
    let o = schedsim(&["real", file.path(), "--save-trace", fresh.path()]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
    assert!(!fresh.0.exists(), "the file the refused run made is removed");
    // Still opened first: an unwritable path is refused before anything else is tried.
    let o = schedsim(&["real", file.path(), "--save-trace", "/nonexistent-dir/t.txt"]);
    assert!(text(&o.stderr).contains("cannot write /nonexistent-dir/t.txt"), "{}", text(&o.stderr));
}

#[test]
fn a_scenario_file_may_start_with_a_byte_order_mark() {
    let mut bytes = "\u{feff}".as_bytes().to_vec();
    bytes.extend_from_slice(scenario(r#"{"kind":"cfs"}"#).as_bytes());
    let file = temp("bom.json", &bytes);
    let o = schedsim(&["run", file.path()]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let plain = temp("plain.json", scenario(r#"{"kind":"cfs"}"#).as_bytes());
    let hash = |o: &Output| text(&o.stdout).split(", trace ").nth(1).map(|t| t[..16].to_string());
    assert_eq!(hash(&o), hash(&schedsim(&["run", plain.path()])));
}

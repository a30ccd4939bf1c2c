//! The importing commands end to end through the binary: `real-trace` on
//! traces recorded elsewhere (and on damaged ones: exit 2, the line named),
//! `rtapp-export` then `rtapp-import` of a preset (the same trace hash), and an
//! rt-app key with no equivalent (exit 2, the key named). Never a panic.

use crate::common;

use std::path::PathBuf;
use std::process::{Command, Output};

const SCHEDSIM: &str = env!("CARGO_BIN_EXE_schedsim");

fn fixture(name: &str) -> String {
    format!("{}/tests/fixtures/real/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// A temporary file, removed when dropped.
struct Temp(PathBuf);

impl Drop for Temp {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

impl Temp {
    fn to_str(&self) -> Option<&str> {
        self.0.to_str()
    }
}

fn temp(tag: &str, bytes: &[u8]) -> Temp {
    let path = common::temp_path(&format!("cli-imports-{tag}"));
    std::fs::write(&path, bytes).expect("temp file");
    Temp(path)
}

fn schedsim(args: &[&str]) -> Output {
    Command::new(SCHEDSIM).args(args).output().expect("spawn")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

#[test]
fn real_trace_reads_each_format() {
    for (file, format) in [("perf-script.txt", "perf script"), ("trace-cmd-report.txt", "trace-cmd report")] {
        let o = schedsim(&["real-trace", &fixture(file), "--comm", "hog0,hog5,sleeper"]);
        let out = text(&o.stdout);
        assert!(o.status.success(), "{file}: {}", text(&o.stderr));
        assert!(out.contains(&format!("note: read as {format}")) && out.contains("sleeper"), "{out}");
        let j = schedsim(&["real-trace", &fixture(file), "--json", "--machine", "laptop-2c4t"]);
        let v: serde_json::Value = serde_json::from_slice(&j.stdout).expect("json");
        // The trace's own header names 2 CPUs; the machine picked is for traces that do not say.
        assert_eq!(v["report"]["cpus"].as_array().map(Vec::len), Some(2), "{file}");
    }
    let saved = schedsim(&["real-trace", &fixture("wakeups.txt")]);
    assert!(text(&saved.stdout).contains("note: read as ftrace text"));
}

#[test]
fn damaged_traces_are_refused_with_the_line() {
    let mut cut = std::fs::read_to_string(fixture("perf-script.txt")).unwrap();
    let keep = cut.lines().take(40).map(|l| format!("{l}\n")).collect::<String>();
    cut = format!("{keep}            perf 25482 [000] 12586.228620:       sched:sched_switch: prev_comm=perf prev_pid=25482 prev_pr");
    let cut = temp("cut.txt", cut.as_bytes());
    let o = schedsim(&["real-trace", cut.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr).contains("line 41: the file ends mid-line"), "{}", text(&o.stderr));
    let bin = temp("bin.dat", b"PERFILE2\x00\xff\xfe\x01");
    let o = schedsim(&["real-trace", bin.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr).contains("line 1: not text"), "{}", text(&o.stderr));
    let o = schedsim(&["real-trace", &fixture("perf-script.txt"), "--cpus", "1"]);
    assert!(o.status.success(), "the header's 2 CPUs win over --cpus");
}

#[test]
fn rt_app_round_trips_through_the_cli() {
    let preset = schedsim(&["preset", "context-switches"]).stdout;
    let scenario = temp("scenario.json", &preset);
    let exported = schedsim(&["rtapp-export", scenario.to_str().unwrap()]);
    assert!(exported.status.success(), "{}", text(&exported.stderr));
    let rt = temp("rt.json", &exported.stdout);
    let imported = schedsim(&["rtapp-import", rt.to_str().unwrap()]);
    assert!(imported.status.success(), "{}", text(&imported.stderr));
    assert!(text(&imported.stderr).contains("global.calibration: an rt-app setting, ignored"));
    let back = temp("back.json", &imported.stdout);
    let hash = |f: &Temp| {
        let o = schedsim(&["run", f.to_str().unwrap(), "--json"]);
        serde_json::from_slice::<serde_json::Value>(&o.stdout).expect("report")["trace_hash"].clone()
    };
    assert_eq!(hash(&scenario), hash(&back));
    let bad = temp("bad-rt.json", br#"{"tasks":{"t":{"run":100,"policy":"SCHED_DEADLINE"}}}"#);
    let o = schedsim(&["rtapp-import", bad.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr).contains("tasks.t.dl-runtime: SCHED_DEADLINE needs a runtime"), "{}", text(&o.stderr));
}

//! `schedsim sweep` as a user runs it: the built binary on a small scenario
//! file. Its rows are the cross product of the seeds and the --set values in
//! order, the same bytes at any thread count, and each row is the very run
//! `schedsim run` makes of that scenario with that seed and those values.

use crate::common;

use serde_json::Value;
use std::path::PathBuf;
use std::process::{Command, Output};

const SCHEDSIM: &str = env!("CARGO_BIN_EXE_schedsim");

/// Two CPUs, a hog and a sleeper whose exponential sleeps make every seed a
/// different run; 30 ms, so a run is a few hundred events.
const SCENARIO: &str = r#"{"version":1,"name":"sweep-t","seed":7,"duration_ms":30,"hz":1000,
  "machine":{"nodes":1,"cores_per_node":2,"threads_per_core":1},
  "processes":[{"name":"hog","threads":2,"program":[{"body":[{"run_us":4000}]}]},
    {"name":"sleeper","program":[{"body":[{"run_us":300},{"sleep_us":{"exp":2000}}]}]}]}"#;

fn write_temp(tag: &str, text: &str) -> PathBuf {
    let path = common::temp_path(&format!("sweep-cli-{tag}.json"));
    std::fs::write(&path, text).expect("temp file");
    path
}

fn schedsim(args: &[&str]) -> Output {
    Command::new(SCHEDSIM).args(args).output().expect("spawn schedsim")
}

fn stdout_of(o: &Output, what: &str) -> String {
    assert_eq!(o.status.code(), Some(0), "{what}: {}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8(o.stdout.clone()).expect("utf-8")
}

/// The sweep's rows as JSON.
fn sweep_json(file: &str, more: &[&str]) -> Vec<Value> {
    let args: Vec<&str> = ["sweep", file].iter().chain(more).chain(&["--json"]).copied().collect();
    let out = stdout_of(&schedsim(&args), &args.join(" "));
    serde_json::from_str::<Value>(&out).expect("JSON").as_array().expect("an array of rows").clone()
}

const AXES: [&str; 6] = ["--seeds", "3..4", "--set", "duration_ms=20,30", "--set", "processes.1.nice=0,5"];

#[test]
fn rows_are_the_cross_product_in_order() {
    let file = write_temp("order", SCENARIO);
    let rows = sweep_json(file.to_str().unwrap(), &AXES);
    let got: Vec<(u64, u64, i64)> = rows
        .iter()
        .map(|r| {
            let set = &r["set"];
            (
                r["seed"].as_u64().unwrap(),
                set["duration_ms"].as_u64().unwrap(),
                set["processes.1.nice"].as_i64().unwrap(),
            )
        })
        .collect();
    let mut want = Vec::new();
    for seed in 3..=4 {
        for ms in [20, 30] {
            for nice in [0, 5] {
                want.push((seed, ms, nice));
            }
        }
    }
    assert_eq!(got, want);
    for r in &rows {
        assert_eq!(r["sim_time_ns"].as_u64(), r["set"]["duration_ms"].as_u64().map(|ms| ms * 1_000_000));
    }
    // The seed changes the run (the sleeper's exponential sleeps).
    assert_ne!(rows[0]["trace_hash"], rows[4]["trace_hash"]);
    // Without --seeds, the scenario's own seed.
    let own = sweep_json(file.to_str().unwrap(), &["--set", "duration_ms=20"]);
    assert_eq!(own.len(), 1);
    assert_eq!(own[0]["seed"], 7);
    let _ = std::fs::remove_file(file);
}

#[test]
fn output_is_the_same_at_any_thread_count() {
    let file = write_temp("jobs", SCENARIO);
    let f = file.to_str().unwrap();
    for format in [None, Some("--csv"), Some("--json")] {
        let outputs: Vec<String> = ["1", "2"]
            .iter()
            .map(|jobs| {
                let mut args = vec!["sweep", f];
                args.extend(AXES);
                args.extend(["--jobs", jobs]);
                args.extend(format);
                stdout_of(&schedsim(&args), &args.join(" "))
            })
            .collect();
        assert_eq!(outputs[0], outputs[1], "{format:?}");
    }
    let _ = std::fs::remove_file(file);
}

#[test]
fn each_row_is_the_run_schedsim_run_makes() {
    let file = write_temp("same", SCENARIO);
    let rows = sweep_json(file.to_str().unwrap(), &AXES);
    for (i, row) in rows.iter().enumerate() {
        // The scenario with this row's seed and values written in by hand.
        let mut s: Value = serde_json::from_str(SCENARIO).unwrap();
        s["seed"] = row["seed"].clone();
        s["duration_ms"] = row["set"]["duration_ms"].clone();
        s["processes"][1]["nice"] = row["set"]["processes.1.nice"].clone();
        let one = write_temp(&format!("same-{i}"), &s.to_string());
        let out = stdout_of(&schedsim(&["run", one.to_str().unwrap(), "--json"]), "run");
        let report: Value = serde_json::from_str(&out).unwrap();
        assert_eq!(row["trace_hash"], report["trace_hash"], "row {i}");
        assert_eq!(row["events"], report["events"], "row {i}");
        assert_eq!(row["migrations"], report["migrations"], "row {i}");
        let shares: Vec<&Value> = report["processes"].as_array().unwrap().iter().map(|p| &p["share"]).collect();
        let row_shares: Vec<&Value> = row["processes"].as_array().unwrap().iter().map(|p| &p["share"]).collect();
        assert_eq!(row_shares, shares, "row {i}");
        let _ = std::fs::remove_file(one);
    }
    let _ = std::fs::remove_file(file);
}

/// A refusal: status 2, nothing on stdout, one message naming `needle`.
fn assert_refused(args: &[&str], needles: &[&str]) {
    let o = schedsim(args);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
    assert!(o.stdout.is_empty(), "{args:?}");
    assert!(!err.contains("panicked"), "{args:?}: {err}");
    for n in needles {
        assert!(err.contains(n), "{args:?}: {err}");
    }
}

#[test]
fn bad_paths_and_refused_values_stop_before_any_run() {
    let file = write_temp("bad", SCENARIO);
    let f = file.to_str().unwrap();
    assert_refused(&["sweep", f, "--set", "processes.5.nice=1"], &["--set processes.5.nice: processes has 2 entries"]);
    assert_refused(&["sweep", f, "--set", "duration_ms.x=1"], &["--set duration_ms.x: duration_ms is a number"]);
    assert_refused(
        &["sweep", f, "--set", "hz=250", "--set", "processes.0.nice=0,99"],
        &["--set processes.0.nice=99: processes[0].nice: must be between -20 and 19 (got 99)"],
    );
    assert_refused(&["sweep", f, "--set", "machine.nodez=2"], &["--set machine.nodez=2: machine.nodez: unknown field"]);
    assert_refused(&["sweep", f, "--set", "duration_ms=999999999"], &["--set duration_ms=999999999: duration_ms:"]);
    assert_refused(&["sweep", f, "--seeds", "1..20000"], &["20000 runs", "at most 10000"]);
    assert_refused(&["sweep", f, "--seeds", "9..2"], &["--seeds 9..2"]);
    assert_refused(&["sweep", f, "--jobs", "0"], &["--jobs 0"]);
    assert_refused(&["sweep", f, "--set", "seed=1,2"], &["--seeds"]);
    // The file itself is loaded and refused as `schedsim run` refuses it.
    let bad = write_temp("bad-file", &SCENARIO.replace("\"hz\":1000", "\"hz\":7"));
    assert_refused(&["sweep", bad.to_str().unwrap()], &["invalid scenario", "hz"]);
    let _ = std::fs::remove_file(bad);
    let _ = std::fs::remove_file(file);
}

#[test]
fn csv_header_and_json_shape() {
    let file = write_temp("shape", SCENARIO);
    let f = file.to_str().unwrap();
    let csv = stdout_of(
        &schedsim(&["sweep", f, "--seeds", "1..2", "--set", "processes.0.cpus=\"0,1\",\"1\"", "--csv"]),
        "csv",
    );
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(
        lines[0],
        "seed,processes.0.cpus,events,trace_hash,sim_time_ms,wasted_core_ms,sanity_violations,migrations,\
         share:hog,share:sleeper,error"
    );
    assert_eq!(lines.len(), 1 + 4);
    // A value holding a comma is one quoted cell.
    assert!(lines[1].starts_with("1,\"0,1\","), "{}", lines[1]);
    assert!(lines[2].starts_with("1,1,"), "{}", lines[2]);
    assert!(lines.iter().all(|l| l.split(',').count() == 11 + l.matches("\"0,1\"").count()), "{csv}");

    let rows = sweep_json(f, &["--set", "processes.1.nice=1,2", "--set", "duration_ms=20"]);
    assert_eq!(rows.len(), 2);
    let keys: Vec<&str> = rows[0].as_object().unwrap().keys().map(String::as_str).collect();
    let mut want = vec![
        "error",
        "events",
        "migrations",
        "processes",
        "sanity_violations",
        "seed",
        "set",
        "sim_time_ns",
        "trace_hash",
        "wasted_core_ns",
    ];
    want.sort();
    assert_eq!(keys, want);
    let text = stdout_of(
        &schedsim(&["sweep", f, "--set", "processes.1.nice=1,2", "--set", "duration_ms=20", "--json"]),
        "json",
    );
    // --set values keep the command line's order.
    let (nice, dur) = (text.find("\"processes.1.nice\"").unwrap(), text.find("\"duration_ms\"").unwrap());
    assert!(nice < dur, "{text}");
    let procs = rows[0]["processes"].as_array().unwrap();
    assert_eq!(procs.len(), 2);
    assert_eq!(procs[0]["name"], "hog");
    assert!(procs[0]["share"].as_f64().unwrap() > 0.0);

    // The text table: a header and one line per run.
    let table = stdout_of(&schedsim(&["sweep", f, "--seeds", "1..3"]), "table");
    let lines: Vec<&str> = table.lines().collect();
    assert_eq!(lines.len(), 4);
    assert!(
        lines[0].split_whitespace().eq([
            "seed",
            "events",
            "trace_hash",
            "sim_time_ms",
            "wasted_core_ms",
            "sanity_violations",
            "migrations",
            "share:hog",
            "share:sleeper",
            "error"
        ]),
        "{table}"
    );
    let _ = std::fs::remove_file(file);
}

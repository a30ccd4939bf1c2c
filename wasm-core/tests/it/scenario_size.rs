//! The size of a scenario is checked before it is parsed (parsing costs many
//! times the text in memory): text over `MAX_SCENARIO_BYTES` is refused with
//! its size and the cap, by the library (CLI and wasm share it) and by the
//! CLI before it reads the file. Every legitimate scenario fits: 10,000
//! processes written as the editor writes them. And a file full of bad
//! steps lists a bounded number of problems.

use crate::common;

use schedlab_core::api::editor::diagnostics;
use schedlab_core::api::scenario::MAX_DIAGNOSTICS;
use schedlab_core::api::scenario::{
    load_scenario, parse_scenario, DistFile, MachineSpec, OpFile, PolicySpec, ProcessFile, ScenarioFile,
    MAX_SCENARIO_BYTES,
};
use serde_json::json;
use std::process::Command;

use crate::common::scenario::{Process, Scenario};

const SMALL: &str = r#"{"version":1,"name":"t","duration_ms":10,"machine":{"preset":"uniprocessor"},
    "processes":[{"name":"a","program":[{"run_us":5}]}]}"#;

#[test]
fn text_over_the_cap_is_refused_before_parsing_with_its_size_and_the_cap() {
    // Valid JSON padded with whitespace: only its size is wrong.
    let at_cap = format!("{SMALL}{}", " ".repeat(MAX_SCENARIO_BYTES - SMALL.len()));
    assert_eq!(at_cap.len(), MAX_SCENARIO_BYTES);
    assert!(load_scenario(&at_cap).is_ok(), "exactly the cap is accepted");
    let over = format!("{at_cap} ");
    let err = parse_scenario(&over).unwrap_err();
    assert_eq!(err.field, "scenario");
    assert!(err.reason.contains(&format!("is {} bytes", MAX_SCENARIO_BYTES + 1)), "{}", err.reason);
    assert!(
        err.reason.contains(&format!("the largest scenario accepted is {MAX_SCENARIO_BYTES} bytes")),
        "{}",
        err.reason
    );
    // The editor's path (validateScenario) and load_scenario say the same.
    assert_eq!(diagnostics(&over), vec![err.clone()]);
    assert_eq!(load_scenario(&over).unwrap_err(), vec![err]);
}

#[test]
fn ten_thousand_processes_as_the_editor_writes_them_fit_under_the_cap() {
    let process = |i: usize| ProcessFile {
        name: format!("worker-{i:05}"),
        nice: (i % 40) as i32 - 20,
        sched_policy: None,
        rt_priority: None,
        dl_runtime_us: None,
        dl_deadline_us: None,
        dl_period_us: None,
        dl_reclaim: None,
        threads: 1,
        start_ms: (i % 100) as u64,
        cpus: Some("0-63".into()),
        nodes: None,
        session: Some(format!("tty{}", i % 8)),
        cgroup: None,
        slice_us: None,
        address_space: None,
        job_pool: 0,
        template: None,
        program: vec![OpFile {
            repeat: Some(100),
            body: Some(vec![
                OpFile { run_us: Some(DistFile::Uniform { uniform: [1000, 5000] }), ..OpFile::default() },
                OpFile { sleep_us: Some(DistFile::Exponential { exp: 2000 }), ..OpFile::default() },
                OpFile { wake: Some(format!("worker-{:05}", (i + 1) % 10_000)), ..OpFile::default() },
            ]),
            ..OpFile::default()
        }],
    };
    let file = ScenarioFile {
        version: 1,
        name: "ten-thousand".into(),
        description: "A large scenario: ten thousand processes, each a loop of three steps.".into(),
        seed: 1,
        duration_ms: 100,
        kernel: None,
        hz: 250,
        machine: MachineSpec {
            nodes: Some(4),
            cores_per_node: Some(8),
            threads_per_core: Some(2),
            ..MachineSpec::default()
        },
        policy: PolicySpec::default(),
        bugs: None,
        autogroup: true,
        nohz: true,
        preempt: None,
        mutex_protocol: None,
        sanity_checker: None,
        costs: None,
        cgroups: Vec::new(),
        processes: (0..10_000).map(process).collect(),
        events: Vec::new(),
        exercise: None,
    };
    // serde_json's pretty printer indents by two spaces, as the editor's export does.
    let text = serde_json::to_string_pretty(&file).unwrap();
    assert!(text.len() < MAX_SCENARIO_BYTES, "{} bytes", text.len());
    let cfg = load_scenario(&text).unwrap_or_else(|e| panic!("{:?}", &e[..e.len().min(3)]));
    assert_eq!(cfg.processes.len(), 10_000);
}

#[test]
fn a_file_of_bad_steps_lists_a_bounded_number_of_problems() {
    // Twenty processes of 900 empty steps, each a problem.
    let text = Scenario::new("t", 10)
        .machine("uniprocessor")
        .processes((0..20).map(|i| Process::new(&format!("p{i}")).program(vec![json!({}); 900])))
        .build();
    let diags = load_scenario(&text).unwrap_err();
    assert_eq!(diags.len(), MAX_DIAGNOSTICS + 1);
    let last = &diags[MAX_DIAGNOSTICS];
    assert_eq!(last.field, "scenario");
    assert!(last.reason.starts_with(&format!("{} more problems not listed", 20 * 900 - MAX_DIAGNOSTICS)), "{last}");
}

#[test]
fn the_cli_refuses_a_large_file_before_reading_it() {
    let path = common::temp_path("size.json");
    // A sparse file far over the cap: refused from its size, not read.
    let f = std::fs::File::create(&path).unwrap();
    f.set_len(150 * 1024 * 1024).unwrap();
    drop(f);
    let out = Command::new(env!("CARGO_BIN_EXE_schedsim")).arg("run").arg(&path).output().unwrap();
    let _ = std::fs::remove_file(&path);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains(&format!("is {} bytes", 150 * 1024 * 1024)), "{err}");
    assert!(err.contains(&format!("the largest scenario accepted is {MAX_SCENARIO_BYTES} bytes")), "{err}");
}

//! rt-app JSON both ways (`api::rtapp::export`, `api::rtapp::import`): presets
//! built from templates round-trip to an equivalent scenario with the same
//! trace hash, and what does not map is named.

use schedlab_core::api::rtapp::export::export;
use schedlab_core::api::rtapp::import::{import, Defaults};
use schedlab_core::api::scenario::templates::template_program;
use schedlab_core::api::scenario::{parse_scenario, validate, ScenarioFile};
use schedlab_core::api::{presets, report};
use schedlab_core::sim::Simulator;

fn preset(name: &str) -> ScenarioFile {
    parse_scenario(presets::find(name).unwrap().json).unwrap()
}

/// Templates expanded into programs: what a scenario means.
fn expanded(mut s: ScenarioFile) -> ScenarioFile {
    for p in &mut s.processes {
        if let Some(t) = p.template.take() {
            p.program = template_program(&t).unwrap();
        }
    }
    s
}

fn trace_hash(s: &ScenarioFile) -> String {
    let mut sim = Simulator::new(&validate(s).unwrap());
    sim.run_to_end();
    report::report(&sim).trace_hash
}

fn round_trip(s: &ScenarioFile) -> (String, ScenarioFile, Vec<String>) {
    let text = serde_json::to_string_pretty(&export(s).unwrap()).unwrap();
    let (back, notes) = import(&text, &Defaults::default()).unwrap();
    (text, back, notes)
}

#[test]
fn template_presets_round_trip_with_the_same_trace() {
    for name in ["greedy-threads", "context-switches", "cfs-nice-levels"] {
        let s = preset(name);
        let (text, back, notes) = round_trip(&s);
        assert_eq!(back, expanded(s.clone()), "{name}:\n{text}");
        assert_eq!(notes, vec!["global.calibration: an rt-app setting, ignored".to_string()], "{name}");
        assert_eq!(trace_hash(&back), trace_hash(&s), "{name}");
    }
}

#[test]
fn the_export_is_rt_app_s_grammar() {
    let text = serde_json::to_string(&export(&preset("greedy-threads")).unwrap()).unwrap();
    // A's pi: 100 × 10 ms of work; B's eight hogs run forever; events keep their order.
    assert!(text.starts_with(
        r#"{"tasks":{"A":{"instance":1,"policy":"SCHED_OTHER","priority":0,"loop":100,"run":10000},"B":{"instance":8,"policy":"SCHED_OTHER","priority":0,"loop":-1,"run":100000}},"global":{"duration":12,"default_policy":"SCHED_OTHER","calibration":"CPU0","schedlab":{"#
    ), "{text}");
    let sysbench = serde_json::to_string(&export(&preset("context-switches")).unwrap()).unwrap();
    assert!(sysbench.contains(r#""loop":-1,"lock":"m","run":10,"unlock":"m","yield":"""#), "{sysbench}");
}

#[test]
fn a_plain_rt_app_file_imports_with_phases_and_repeated_keys() {
    let text = r#"{
      "tasks": {
        "video": { "instance": 2, "priority": -5, "cpus": [0, 2], "delay": 3000, "loop": 10,
                   "phases": { "warm": { "run": 500 },
                               "steady": { "loop": 4, "run0": 100, "sleep0": 900, "run1": 50, "sleep1": 2000 } } },
        "bg": { "run": 20000 }
      },
      "global": { "duration": 2, "calibration": "CPU0", "logdir": "./" }
    }"#;
    let (s, notes) = import(text, &Defaults { name: "t".into(), ..Default::default() }).unwrap();
    assert_eq!(s.duration_ms, 2_000);
    assert_eq!(notes.len(), 2);
    let v = serde_json::to_value(&s.processes).unwrap();
    assert_eq!(
        v,
        serde_json::json!([
            { "name": "video", "nice": -5, "threads": 2, "start_ms": 3, "cpus": "0,2", "job_pool": 0, "program": [
                { "repeat": 10, "body": [
                    { "run_us": 500 },
                    { "repeat": 4, "body": [{ "run_us": 100 }, { "sleep_us": 900 }, { "run_us": 50 }, { "sleep_us": 2000 }] }
                ] }
            ] },
            { "name": "bg", "nice": 0, "threads": 1, "start_ms": 0, "job_pool": 0, "program": [{ "body": [{ "run_us": 20000 }] }] }
        ])
    );
    validate(&s).unwrap();
}

#[test]
fn unmapped_rt_app_keys_are_named() {
    let text = r#"{
      "tasks": {
        "t1": { "policy": "SCHED_FIFO", "priority": 50, "run": 1000,
                "timer": { "ref": "unique", "period": 16000 }, "runtime": 5, "util_min": 100 },
        "t2": { "phases": { "p": { "cpus": [1], "suspend": "q", "barrier": "b" } } },
        "t3": { "barrier": "b", "delay": 1500 }
      },
      "global": { "duration": -1, "frequency": 3 },
      "resources": {}
    }"#;
    let e = import(text, &Defaults::default()).unwrap_err();
    for named in [
        "resources:",
        "tasks.t1.policy: SCHED_FIFO",
        "tasks.t1.priority:",
        "tasks.t1.timer: a periodic timer",
        "tasks.t1.runtime: wall-clock",
        "tasks.t1.util_min:",
        "tasks.t2.phases.p.cpus:",
        "tasks.t2.phases.p.suspend:",
        "tasks.t3.delay: 1500",
        "barrier \"b\": joins tasks t2, t3",
        "global.frequency:",
    ] {
        assert!(e.contains(named), "{named} not in:\n{e}");
    }
    assert!(import("[1]", &Defaults::default()).unwrap_err().contains("object"));
    assert!(import("{\"tasks\": {", &Defaults::default()).unwrap_err().starts_with("line 1"));
}

#[test]
fn what_rt_app_cannot_say_is_named_on_export() {
    let e = export(&preset("pipe-pingpong")).unwrap_err();
    assert!(e.contains("processes[0].program[0].body[1]: wait/wake"), "{e}");
    let e = export(&preset("eevdf-vs-cfs")).unwrap_err();
    assert!(e.contains("processes[1].slice_us") && e.contains("sleep_us: a random duration"), "{e}");
}

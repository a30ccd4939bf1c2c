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
    for name in ["greedy-threads", "context-switches", "cfs-nice-levels", "rt-fifo-rr-throttling"] {
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
    assert_eq!(notes, ["global.calibration, global.logdir: rt-app's own settings, ignored"]);
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
        "t1": { "policy": "SCHED_DEADLINE", "run": 1000, "mem": 5, "sem_post": "s" },
        "t6": { "policy": "SCHED_DEADLINE", "dl-runtime": 500, "dl-deadline": 300, "run": 10 },
        "t7": { "policy": "SCHED_DEADLINE", "dl-runtime": 500, "cpus": [0], "run": 10 },
        "t2": { "policy": "SCHED_FIFO", "cpus": [0], "phases": { "p": { "cpus": [1], "suspend": "t2", "barrier": "b" } } },
        "t3": { "barrier": "b", "delay": 1500, "priority": 40, "loop": 0 },
        "t4": { "phases": { "empty": { "loop": 2 } } },
        "t5": { "fork": "nobody" }
      },
      "global": { "duration": "long" },
      "resources": { "r": { "type": "lock" } }
    }"#;
    let e = import(text, &Defaults::default()).unwrap_err();
    for named in [
        "tasks.t1.dl-runtime: SCHED_DEADLINE needs a runtime",
        "tasks.t1.mem: memory or I/O work",
        "tasks.t1.sem_post: rt-app's counting semaphores",
        "tasks.t2.phases.p.cpus: an affinity change of a SCHED_FIFO, SCHED_RR or SCHED_DEADLINE thread",
        "tasks.t3.delay: 1500 µs",
        "tasks.t3.priority: 40: a SCHED_OTHER or SCHED_BATCH priority is a nice level",
        "tasks.t3.loop: a loop count is -1",
        "tasks.t4.phases.empty: no events",
        "tasks.t5: fork \"nobody\": no task of that name",
        "tasks.t6.dl-deadline: needs dl-runtime ≤ dl-deadline ≤ dl-period (got 500 ≤ 300 ≤ 500 µs)",
        "tasks.t7.cpus: a SCHED_DEADLINE task may not be pinned",
        "global.duration: whole seconds, or -1",
        "resources.r.type: rt-app knows mutex",
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
    assert!(e.contains("processes[1].program[0].body[0].sleep_us: a random duration"), "{e}");
}

#[test]
fn notes_say_what_was_read_another_way_or_ignored() {
    let text = r#"{
      "tasks": {
        "holder": { "loop": -1, "lock": "m", "run": 100, "suspend": "someone", "sleep": 100 },
        "waiter": { "loop": -1, "unlock": "q", "wait": { "mutex": "q" }, "frob": 1, "util_min": 512 },
        "phased": { "cpus": [1], "run": 5, "phases": { "p": { "cpus": [1], "priority": 0, "run": 10 } } },
        "spare": { "instance": 0, "run": 10 }
      },
      "global": { "duration": 1, "dl": true },
      "resources": { "m": { "type": "mutex" } }
    } trailing words"#;
    let (s, notes) = import(text, &Defaults::default()).unwrap();
    for said in [
        "text after the top-level object: ignored",
        "resources: rt-app's legacy section",
        "global.dl: not an rt-app setting: ignored",
        "tasks.holder.suspend: \"someone\" is not read: rt-app suspends a task on its own name, \"holder\"",
        "tasks.holder: locks \"m\" without unlocking it: the thread deadlocks at its next lock of \"m\"",
        "tasks.waiter: unlocks \"q\" more often than it locks it",
        "tasks.waiter.wait.ref: absent: rt-app names the resource \"unknown\"",
        "tasks.waiter.frob: not an rt-app key: ignored",
        "tasks.waiter.util_min: a utilization clamp: ignored",
        "tasks.phased.run: not read: a task with phases runs only its phases",
        "tasks.spare: instance 0 and no task forks it",
    ] {
        assert!(notes.iter().any(|n| n.starts_with(said)), "{said} not in {notes:#?}");
    }
    // A phase setting the task's own cpus and priority changes nothing: taken.
    let phased = s.processes.iter().find(|p| p.name == "phased").unwrap();
    assert_eq!(phased.cpus.as_deref(), Some("1"));
    assert_eq!(s.processes.len(), 3, "the spare task starts no thread");
}

#[test]
fn a_custom_slice_is_read_where_the_run_models_one() {
    let text = r#"{"tasks": {"t": {"run": 1000, "dl-runtime": 3000}}, "global": {"duration": 1}}"#;
    let (cfs, notes) = import(text, &Defaults::default()).unwrap();
    assert_eq!(cfs.processes[0].slice_us, None);
    assert!(notes
        .iter()
        .any(|n| n.starts_with("tasks.t.dl-runtime: a custom slice (Linux 6.12's sched_runtime): ignored")));
    let (eevdf, _) = import(text, &Defaults { policy: "eevdf".into(), ..Default::default() }).unwrap();
    assert_eq!(eevdf.processes[0].slice_us, Some(3000));
}

#[test]
fn forks_that_cannot_inherit_are_refused() {
    let text = r#"{"tasks": {
        "parent": { "loop": 1, "fork": "child", "fork1": "delayed", "fork2": "meets", "run": 10 },
        "child": { "instance": 0, "priority": 5, "loop": 1, "run": 10 },
        "delayed": { "instance": 0, "delay": 1000, "loop": 1, "run": 10 },
        "meets": { "instance": 0, "loop": 1, "barrier": "b" },
        "ouroboros": { "loop": 1, "fork": "ouroboros" }
    }}"#;
    let e = import(text, &Defaults::default()).unwrap_err();
    for named in [
        "tasks.parent: fork \"child\": its policy, priority",
        "tasks.parent: fork \"delayed\": it has a delay",
        "tasks.parent: fork \"meets\": it names a barrier",
        "tasks.ouroboros: forks itself",
    ] {
        assert!(e.contains(named), "{named} not in:\n{e}");
    }
}

#[test]
fn timers_conditions_and_shared_names_round_trip_with_the_same_trace() {
    let s = parse_scenario(
        r#"{"version": 1, "name": "frames", "duration_ms": 300, "machine": {"preset": "laptop-2c4t"},
        "policy": {"kind": "eevdf"},
        "cgroups": [{"name": "/apps"}, {"name": "/apps/ui", "parent": "/apps"}],
        "processes": [
          {"name": "vsync", "address_space": "rt-app", "program": [{"body": [
            {"timer": "frame", "period_us": 16667, "shared": true},
            {"lock": "c"}, {"cond_broadcast": "c"}, {"unlock": "c"}]}]},
          {"name": "ui", "threads": 2, "cgroup": "/apps/ui", "slice_us": 3000, "address_space": "rt-app",
           "program": [{"body": [
            {"lock": "c"}, {"cond_wait": "c", "mutex": "c"}, {"unlock": "c"}, {"busy_us": 2000},
            {"cond_signal": "done"}, {"timer": "unique-t", "period_us": 5000, "timer_mode": "absolute"}]}]}
        ]}"#,
    )
    .unwrap();
    let (text, back, _) = round_trip(&s);
    // rt-app's spelling: a shared timer by its ref; a thread's own keeps the "unique" prefix; mode on the timer.
    for said in [
        r#""ref": "frame""#,
        r#""ref": "unique-t""#,
        r#""mode": "absolute""#,
        r#""runtime": 2000"#,
        r#""taskgroup": "/apps/ui""#,
    ] {
        assert!(text.contains(said), "{said} not in {text}");
    }
    assert_eq!(back, s, "{text}");
    assert_eq!(trace_hash(&back), trace_hash(&s));
}

#[test]
fn names_rt_app_would_read_as_one_object_are_refused_on_export() {
    let s = parse_scenario(
        r#"{"version": 1, "name": "apart", "duration_ms": 10, "machine": {"preset": "laptop-2c4t"},
        "cgroups": [{"name": "flat", "shares": 2048}],
        "processes": [
          {"name": "a", "cgroup": "flat", "program": [{"lock": "m"}, {"unlock": "m"}, {"barrier": "b"}, {"barrier": "b"}]},
          {"name": "b", "program": [{"lock": "m"}, {"unlock": "m"},
            {"timer": "t", "period_us": 10, "shared": true}, {"timer": "t", "period_us": 10, "shared": true, "timer_mode": "absolute"},
            {"timer": "unique", "period_us": 10, "shared": true}]}
        ]}"#,
    )
    .unwrap();
    let e = export(&s).unwrap_err();
    for named in [
        "processes[0], processes[1]: each names its own mutex \"m\"",
        "processes[0].program: barrier \"b\" is named 2 times",
        "timer \"t\": absolute at one use and relative at another",
        "processes[1].program[4].timer: rt-app reads a ref beginning \"unique\" as each thread's own timer",
        "cgroups[0]: rt-app's taskgroups are paths",
    ] {
        assert!(e.contains(named), "{named} not in:\n{e}");
    }
}

#[test]
fn rt_app_policies_are_the_processes_policies() {
    let text = r#"{
      "tasks": {
        "other": { "policy": "SCHED_OTHER", "priority": -3, "run": 100 },
        "batch": { "policy": "SCHED_BATCH", "priority": 5, "run": 100 },
        "idle": { "policy": "SCHED_IDLE", "run": 100 },
        "fifo": { "policy": "SCHED_FIFO", "priority": 50, "run": 100 },
        "rr": { "run": 100 }
      },
      "global": { "duration": 1, "default_policy": "SCHED_RR" }
    }"#;
    let (s, _) = import(text, &Defaults::default()).unwrap();
    let policies: Vec<(&str, Option<&str>, i32, Option<u32>)> =
        s.processes.iter().map(|p| (p.name.as_str(), p.sched_policy.as_deref(), p.nice, p.rt_priority)).collect();
    // "rr" names no policy: it takes the default one, and rt-app's default real-time priority, 10.
    assert_eq!(
        policies,
        [
            ("other", None, -3, None),
            ("batch", Some("batch"), 5, None),
            ("idle", Some("idle"), 0, None),
            ("fifo", Some("fifo"), 0, Some(50)),
            ("rr", Some("rr"), 0, Some(10)),
        ]
    );
    validate(&s).unwrap();
    let text = text.replace("\"default_policy\": \"SCHED_RR\"", "\"default_policy\": \"SCHED_OTHER\"");
    let (s, _) = import(&text, &Defaults::default()).unwrap();
    assert_eq!((s.processes[4].sched_policy.as_deref(), s.processes[4].rt_priority), (None, None));
    let e = import(r#"{"tasks": {"t": {"policy": "SCHED_FIFO", "priority": 0, "run": 1}}}"#, &Defaults::default())
        .unwrap_err();
    assert!(e.contains("tasks.t.priority: 0: a real-time priority is 1 to 99"), "{e}");
}

#[test]
fn a_deadline_task_takes_its_reservation_with_rt_app_s_defaults() {
    let text = r#"{"tasks": {
        "full": { "policy": "SCHED_DEADLINE", "dl-runtime": 2000, "loop": -1, "run": 1000, "sleep": 9000 },
        "cbs": { "policy": "SCHED_DEADLINE", "dl-runtime": 1000, "dl-deadline": 5000, "dl-period": 10000,
                 "timer": { "ref": "unique", "period": 10000 }, "run": 800 }
      }, "global": { "duration": 1 }}"#;
    let (s, _) = import(text, &Defaults::default()).unwrap();
    let dl = |i: usize| {
        let p = &s.processes[i];
        (p.sched_policy.as_deref(), p.dl_runtime_us, p.dl_deadline_us, p.dl_period_us)
    };
    // rt-app's period is the runtime when absent, its deadline the period; the scenario's period is the deadline.
    assert_eq!(dl(0), (Some("deadline"), Some(2000), Some(2000), None));
    assert_eq!(dl(1), (Some("deadline"), Some(1000), Some(5000), Some(10000)));
    let (text, back, _) = round_trip(&s);
    assert!(text.contains("\"dl-period\": 2000"), "{text}");
    assert_eq!(back, s);
    assert_eq!(trace_hash(&back), trace_hash(&s));
}

/// rt-app's `pi_enabled` makes its mutexes PTHREAD_PRIO_INHERIT: the scenario's `mutex_protocol` "inherit", both
/// ways; a pair of real-time tasks sharing a mutex round-trips to the same trace.
#[test]
fn pi_enabled_is_the_inherit_mutex_protocol() {
    let text = r#"{"tasks": {
        "low": { "policy": "SCHED_FIFO", "priority": 10, "loop": 1, "lock": "m", "run": 5000, "unlock": "m" },
        "high": { "policy": "SCHED_FIFO", "priority": 90, "delay": 1000, "loop": 1, "lock": "m", "run": 100,
                  "unlock": "m" }
      }, "global": { "duration": 1, "pi_enabled": true }}"#;
    let (s, notes) = import(text, &Defaults::default()).unwrap();
    assert_eq!(s.mutex_protocol.as_deref(), Some("inherit"));
    assert!(!notes.iter().any(|n| n.contains("pi_enabled")), "{notes:?}");
    let (s_off, _) = import(&text.replace("true", "false"), &Defaults::default()).unwrap();
    assert_eq!(s_off.mutex_protocol, None);
    let out = serde_json::to_string(&export(&s).unwrap()).unwrap();
    assert!(out.contains(r#""calibration":"CPU0","pi_enabled":true,"schedlab":{"#), "{out}");
    assert!(!out.contains("mutex_protocol"), "{out}");
    let (_, back, _) = round_trip(&s);
    assert_eq!(back, s);
    assert_eq!(trace_hash(&back), trace_hash(&s));
}

fn program_of(s: &ScenarioFile, name: &str) -> serde_json::Value {
    serde_json::to_value(&s.processes.iter().find(|p| p.name == name).unwrap().program).unwrap()
}

/// A phase's policy, priority and dl-* keys are a `sched_setattr` step at its start, where they change what the
/// thread has (rt-app.c's `set_thread_param`): a phase naming no policy takes the thread's current one, a
/// policy named alone its default priority (10 for FIFO and RR), a deadline phase rt-app's defaults (the period
/// is the runtime, the deadline the period). A task that loops needs its first phase's step in later passes,
/// when the last phase left the thread elsewhere; one that runs once starts there.
#[test]
fn a_phase_s_policy_is_a_sched_setattr_step_at_its_start() {
    let text = r#"{"tasks": {
        "once": { "loop": 1, "phases": {
            "fair": { "policy": "SCHED_OTHER", "run": 1000 },
            "rt": { "policy": "SCHED_FIFO", "run": 1000 },
            "boost": { "priority": 20, "run": 1000 },
            "same": { "priority": 20, "run": 1000 },
            "back": { "policy": "SCHED_OTHER", "priority": 0, "run": 1000 }
        } },
        "looped": { "loop": -1, "phases": {
            "fair": { "policy": "SCHED_OTHER", "sleep": 1000 },
            "rr": { "policy": "SCHED_RR", "priority": 5, "run": 1000 }
        } },
        "dl": { "loop": 1, "phases": {
            "cbs": { "policy": "SCHED_DEADLINE", "dl-runtime": 1000, "dl-period": 10000, "run": 500 },
            "short": { "dl-runtime": 2000, "run": 500 },
            "idle": { "policy": "SCHED_IDLE", "run": 500 }
        } }
      }, "global": { "duration": 1 }}"#;
    let (s, _) = import(text, &Defaults::default()).unwrap();
    assert_eq!(
        program_of(&s, "once"),
        serde_json::json!([
            { "run_us": 1000 },
            { "sched_setattr": "fifo", "rt_priority": 10 }, { "run_us": 1000 },
            { "sched_setattr": "fifo", "rt_priority": 20 }, { "run_us": 1000 },
            { "run_us": 1000 },
            { "sched_setattr": "normal", "nice": 0 }, { "run_us": 1000 }
        ])
    );
    assert_eq!(
        program_of(&s, "looped"),
        serde_json::json!([{ "body": [
            { "sched_setattr": "normal", "nice": 0 }, { "sleep_us": 1000 },
            { "sched_setattr": "rr", "rt_priority": 5 }, { "run_us": 1000 }
        ] }])
    );
    assert_eq!(
        program_of(&s, "dl"),
        serde_json::json!([
            { "sched_setattr": "deadline", "dl_runtime_us": 1000, "dl_deadline_us": 10000 }, { "run_us": 500 },
            { "sched_setattr": "deadline", "dl_runtime_us": 2000, "dl_deadline_us": 2000 }, { "run_us": 500 },
            { "sched_setattr": "idle" }, { "run_us": 500 }
        ])
    );
    validate(&s).unwrap();
    let (text, back, _) = round_trip(&s);
    assert!(text.contains(r#""policy": "SCHED_FIFO","#), "{text}");
    assert_eq!(back, s, "{text}");
    assert_eq!(trace_hash(&back), trace_hash(&s));
}

/// What a `sched_setattr` step cannot say in a phase is refused, each named: another custom slice (a step keeps
/// the thread's), and what the scenario refuses beside a real-time or deadline thread (an
/// affinity change, a taskgroup, a pinned deadline thread). dl-* keys rt-app does not read are noted.
#[test]
fn phase_policies_a_step_cannot_say_are_refused() {
    let text = r#"{"tasks": {
        "moves": { "phases": { "a": { "cpus": [1], "run": 10 }, "b": { "policy": "SCHED_RR", "run": 10 } } },
        "grouped": { "taskgroup": "/g", "phases": { "a": { "policy": "SCHED_FIFO", "run": 10 } } },
        "pinned": { "cpus": [0], "phases": { "a": { "policy": "SCHED_DEADLINE", "dl-runtime": 100, "run": 10 } } },
        "nort": { "policy": "SCHED_FIFO", "phases": { "a": { "priority": 0, "run": 10 } } }
      }}"#;
    let e = import(text, &Defaults::default()).unwrap_err();
    for named in [
        "tasks.moves.phases.b: a SCHED_FIFO, SCHED_RR or SCHED_DEADLINE phase in a task whose phases change cpus",
        "tasks.grouped.phases.a: rt-app puts only SCHED_OTHER, SCHED_BATCH and SCHED_IDLE tasks in taskgroups",
        "tasks.pinned.phases.a: a SCHED_DEADLINE thread may not be pinned",
        "tasks.nort.phases.a.priority: 0: a real-time priority is 1 to 99",
    ] {
        assert!(e.contains(named), "{named} not in:\n{e}");
    }
    let text = r#"{"tasks": { "t": { "phases": {
        "a": { "dl-runtime": 3000, "run": 10 },
        "b": { "policy": "SCHED_FIFO", "priority": 10, "dl-period": 500, "run": 10 }
      } } }, "global": { "duration": 1 }}"#;
    let (s, notes) = import(text, &Defaults::default()).unwrap();
    for said in [
        "tasks.t.phases.a.dl-runtime: ignored: without a policy or a priority rt-app sets nothing",
        "tasks.t.phases.b.dl-period: SCHED_DEADLINE's parameter: ignored under this policy",
    ] {
        assert!(notes.iter().any(|n| n.starts_with(said)), "{said} not in {notes:#?}");
    }
    assert_eq!(program_of(&s, "t")[0]["body"][1], serde_json::json!({ "sched_setattr": "fifo", "rt_priority": 10 }));
}

/// A fair phase's priority is its nice level (rt-app's `_set_thread_cfs`): a phase that changes it begins with a
/// `sched_setattr` step carrying the nice, and the export writes it back as the phase's priority.
#[test]
fn a_phase_s_nice_level_is_the_step_s_nice() {
    let text = r#"{"tasks": { "t": { "loop": 1, "phases": {
        "a": { "run": 1000 },
        "b": { "policy": "SCHED_OTHER", "priority": 5, "run": 1000 }
      } } }, "global": { "duration": 1 }}"#;
    let (s, _) = import(text, &Defaults::default()).unwrap();
    assert_eq!(
        program_of(&s, "t"),
        serde_json::json!([{ "run_us": 1000 }, { "sched_setattr": "normal", "nice": 5 }, { "run_us": 1000 }])
    );
    let out: serde_json::Value = serde_json::from_str(&serde_json::to_string(&export(&s).unwrap()).unwrap()).unwrap();
    assert_eq!(out["tasks"]["t"]["phases"]["p2"]["priority"], serde_json::json!(5), "{out:#}");
}

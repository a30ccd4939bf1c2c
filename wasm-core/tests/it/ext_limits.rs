//! A sched_ext policy's limits natively (issue 35, item 4): each hostile
//! policy the red team tried ends with a message naming its callback and
//! the limit, never an abort, a hang or a panic, in `run` and in `sweep`.
//! The limits count steps and bytes, so each trips at the same point on
//! every machine; these tests assert the messages, not times.

use schedlab_core::api::scenario::load_scenario;
use schedlab_core::sim::Simulator;
use serde_json::json;
use std::process::{Command, Output};

const SCHEDSIM: &str = env!("CARGO_BIN_EXE_schedsim");

fn scenario(src: &str) -> String {
    json!({
        "version": 1, "name": "ext-limits", "seed": 1, "duration_ms": 50, "hz": 1000,
        "machine": { "preset": "laptop-2c4t" }, "policy": { "kind": "ext", "source": src },
        "processes": [{ "name": "hog", "threads": 2, "program": [{ "body": [{ "run_us": 1000 }] }] }]
    })
    .to_string()
}

/// The failure a policy's run stops with, run in the library.
fn failure(src: &str) -> String {
    let cfg = load_scenario(&scenario(src)).unwrap_or_else(|e| panic!("{e:?}"));
    let mut sim = Simulator::new(&cfg);
    sim.run_to_end();
    sim.notes().policy_error.clone().expect("the policy fails").1
}

const STEPS: &str = "the policy went past 2000000 steps in one callback";

#[test]
fn a_loop_calling_a_looping_function_is_counted_over_every_frame() {
    // Each loop alone stays under boa's own bound of 10 million rounds.
    let why = failure("function spin() { for (var i = 0; i < 9000000; i++) {} }\nfunction enqueue(p) { for (var j = 0; j < 9000000; j++) spin(); }\n");
    assert!(why.starts_with("enqueue: ") && why.contains(STEPS), "{why}");
    // Calls without a loop: 2^40 of them.
    let why = failure("function f(n) { if (n > 0) { f(n - 1); f(n - 1); } }\nfunction init() { f(40); }\n");
    assert!(why.starts_with("init: ") && why.contains(STEPS), "{why}");
}

#[test]
fn a_catch_does_not_swallow_the_limit() {
    let why = failure("function dispatch(cpu, prev) { while (true) { try { while (true) {} } catch (e) {} } }\n");
    assert!(why.starts_with("dispatch: ") && why.contains(STEPS), "{why}");
}

#[test]
fn builtins_charge_their_size() {
    for src in [
        "function init() { Array(1e9).fill(0); }",
        "function init() { var a = Array(1e6); for (var i = 0; i < 100; i++) a.indexOf(1); }",
        "function init() { var s = 'x'.repeat(2 ** 30); }",
        "function init() { Array(1e7).forEach(function () {}); }",
        "function init() { for (var i = 0; i < 9000000; i++) Promise.resolve(i).then(function () {}); }",
    ] {
        let why = failure(src);
        assert!(why.starts_with("init: ") && why.contains(STEPS), "{src}: {why}");
    }
}

#[test]
fn deep_brackets_regexes_and_code_from_strings_are_refused() {
    let deep = format!("function enqueue(p) {{ var x = {}1{}; }}", "(".repeat(700), ")".repeat(700));
    let why = failure(&deep);
    assert!(why.contains("the policy's brackets nest 701 deep; the most a policy may nest is 64"), "{why}");
    let why = failure("function init() { /(a+)+$/.test('a'.repeat(40) + 'b'); }");
    assert!(why.contains("regular expressions are not available to a policy"), "{why}");
    let why = failure("function init() { 'aaaa'.match('(a+)+$'); }");
    assert!(why.contains("builds a regular expression"), "{why}");
    let why = failure("function init() { Function('while (true) {}')(); }");
    assert!(why.contains("a policy cannot build code from a string"), "{why}");
    let why = failure("function init() { var f = (function () {}).constructor('return 1'); }");
    assert!(why.contains("a policy cannot build code from a string"), "{why}");
}

#[test]
fn chains_that_recurse_in_the_engine_are_bounded() {
    let why = failure("function init() { var o = {}; for (var i = 0; i < 1000000; i++) o = new Proxy(o, {}); o.x; }");
    assert!(why.contains("a chain of Proxy went past 1000 objects"), "{why}");
    let why = failure(
        "function init() { var f = function () {}; for (var i = 0; i < 9000000; i++) f = f.bind(null, 1); f(); }",
    );
    assert!(why.contains("a chain of bind went past 1000 functions"), "{why}");
    let why = failure("var o = { get x() { return this.x; } };\nfunction init() { o.x; }");
    assert!(why.contains("exceeded maximum number of recursive calls"), "{why}");
}

#[test]
fn kicks_that_preempt_on_every_enqueue_stop_at_one_instant() {
    let why = failure(
        "function enqueue(p, f) { scx.dsq_insert(p, scx.DSQ_GLOBAL, 0);\n  for (var c = 0; c < scx.nr_cpu_ids(); c++) scx.kick_cpu(c, scx.KICK_PREEMPT); }\n",
    );
    assert!(why.contains("callbacks ran 200000 times at this instant without time passing"), "{why}");
}

fn schedsim(tag: &str, cmd: &str, src: &str, extra: &[&str]) -> Output {
    let path = crate::common::temp_path(&format!("ext-limits-{tag}.json"));
    std::fs::write(&path, scenario(src)).expect("temp file");
    let mut args = vec![cmd, path.to_str().expect("utf-8 path")];
    args.extend_from_slice(extra);
    let out = Command::new(SCHEDSIM).args(&args).output().expect("spawn schedsim");
    let _ = std::fs::remove_file(&path);
    out
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn the_cli_ends_a_policy_past_its_memory_with_a_message() {
    // Many small objects: the host sees the heap between steps.
    let o = schedsim(
        "objs",
        "run",
        "var keep = [];\nfunction init() { for (var i = 0; i < 1900000; i++) keep.push({ a: i, b: [i] }); }",
        &[],
    );
    let e = stderr(&o);
    assert_eq!(o.status.code(), Some(3), "{e}");
    assert!(e.contains("init: the policy's memory went past its limit of 64 MiB"), "{e}");
    // One request of gigabytes (a string doubled): one line, status 4.
    let o = schedsim("strcat", "run", "function init() { var s = 'x'; for (var i = 0; i < 40; i++) s = s + s; }", &[]);
    let e = stderr(&o);
    assert_eq!(o.status.code(), Some(4), "{e}");
    assert!(
        e.contains("the sched_ext policy failed: init: it asked for 128 MiB at once, past its memory limit of 64 MiB"),
        "{e}"
    );
    assert!(!e.contains("backtrace") && !e.contains("memory allocation of"), "{e}");
}

#[test]
fn the_cli_and_its_sweep_read_through_a_deep_prototype_chain() {
    let src = "var o = {};\nfunction init() { for (var i = 0; i < 100000; i++) o = Object.create(o); o.zz; }";
    let o = schedsim("proto", "run", src, &[]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let o = schedsim("proto-sweep", "sweep", src, &["--seeds", "1..2", "--jobs", "2"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    // Deep brackets on a sweep's threads.
    let deep = format!("function enqueue(p) {{ var x = {}1{}; }}", "(".repeat(200), ")".repeat(200));
    let o = schedsim("parens-sweep", "sweep", &deep, &["--seeds", "1..2", "--jobs", "2"]);
    let e = stderr(&o);
    assert_eq!(o.status.code(), Some(3), "{e}");
    assert!(e.contains("brackets nest 201 deep"), "{e}");
}

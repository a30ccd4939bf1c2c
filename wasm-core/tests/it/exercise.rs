//! Exercises (`api::scenario::exercise`, `api::report::judge`): a scenario's goal judged from the run's own
//! report. Each bound below is set by the mechanism the exercise is about,
//! not by the figures these runs happen to reach; the tests then check that
//! the policies the mechanism says should pass do, and the others do not.

use crate::common;

use schedlab_core::api::report::{report, with_exercise};
use schedlab_core::api::report::{verdict_line, Verdict};
use schedlab_core::api::scenario::{load_scenario, parse_scenario};
use schedlab_core::sim::Simulator;
use schedlab_core::time::SimTime;
use serde_json::{json, Value};

const FIFO: &str = include_str!("../../policies/global-fifo.js");
const VTIME: &str = include_str!("../../policies/weighted-vtime.js");
const SKELETON: &str = include_str!("../../policies/keep-busy-skeleton.js");

/// "No core idles longer than one tick while work waits": at HZ 250 a tick
/// is 4 ms, the longest an idle CPU should take to notice waiting work even
/// if nothing woke it sooner.
const ONE_TICK_AT_HZ_250_MS: f64 = 4.0;

/// "An online request never waits behind offline work": an online worker
/// runs 100 µs per wakeup (the schbench-worker template), so a wakeup that
/// waits only behind other online requests waits about that long, while one
/// queued behind an offline job waits up to its slice (ms). The p99 then
/// stays within one online request's run time.
const ONE_ONLINE_REQUEST_US: f64 = 100.0;

fn preset(name: &str, ms: u64, policy: Option<Value>, exercise: Value) -> String {
    let mut s: Value = serde_json::from_str(schedlab_core::api::presets::find(name).expect("preset").json).unwrap();
    s["duration_ms"] = ms.into();
    if let Some(p) = policy {
        s["policy"] = p;
    }
    s["exercise"] = exercise;
    s.to_string()
}

fn ext(source: &str) -> Value {
    json!({ "kind": "ext", "source": source })
}

/// Runs the scenario to its end (or to `until` ms) and judges it.
fn judged(text: &str, until: Option<u64>) -> Verdict {
    let cfg = load_scenario(text).unwrap_or_else(|e| panic!("{e:?}"));
    let file = parse_scenario(text).unwrap();
    let mut sim = Simulator::new(&cfg);
    match until {
        Some(ms) => sim.run_until(SimTime(ms * 1_000_000)),
        None => sim.run_to_end(),
    }
    let r = with_exercise(report(&sim), file.exercise.as_ref(), &sim);
    r.exercise.expect("the report carries the verdict")
}

fn keep_busy(policy: Option<Value>) -> Verdict {
    let goal = json!({ "goal": "longest_wasted_idle_ms", "max": ONE_TICK_AT_HZ_250_MS });
    // 300 ms: R1 and R2 run from the start, make from 50 ms; the Group
    // Imbalance bug shows in the first balancing passes after that.
    judged(&preset("group-imbalance-make", 300, policy, goal), None)
}

#[test]
fn a_shared_queue_keeps_every_core_busy_where_linux_4_1_does_not() {
    let cfs = keep_busy(None);
    assert!(cfs.finished && !cfs.pass, "{cfs:?}");
    assert!(cfs.figure.unwrap() > ONE_TICK_AT_HZ_250_MS, "{cfs:?}");
    assert!(
        verdict_line(&cfs).starts_with("exercise: FAIL — longest idle while work waited "),
        "{}",
        verdict_line(&cfs)
    );

    let fifo = keep_busy(Some(ext(FIFO)));
    assert!(fifo.finished && fifo.pass, "{fifo:?}");
    assert!(fifo.figure.unwrap() <= ONE_TICK_AT_HZ_250_MS);
    assert!(verdict_line(&fifo).starts_with("exercise: PASS — "), "{}", verdict_line(&fifo));

    // The skeleton as given: per-CPU queues, no stealing.
    let skeleton = keep_busy(Some(ext(SKELETON)));
    assert!(skeleton.finished && !skeleton.pass, "{skeleton:?}");
}

#[test]
fn before_the_end_the_verdict_is_only_so_far() {
    let goal = json!({ "goal": "wasted_core_ms", "max": 1e9 });
    let v = judged(&preset("group-imbalance-make", 300, None, goal), Some(100));
    assert!(!v.finished && v.pass, "{v:?}");
    assert!(verdict_line(&v).starts_with("exercise: so far — wasted core time "), "{}", verdict_line(&v));
    let done =
        judged(&preset("group-imbalance-make", 300, None, json!({ "goal": "wasted_core_ms", "max": 1e9 })), None);
    assert!(done.figure.unwrap() >= v.figure.unwrap(), "wasted time only grows: {v:?} {done:?}");
}

#[test]
fn a_run_that_stops_early_fails_whatever_its_figure() {
    // The policy loops forever at 5 ms: the run stops there, short of its duration.
    let src = "function dispatch(cpu, prev) {\n  if (scx.now() > 5000000) {\n    while (true) {}\n  }\n}\n";
    let goal = json!({ "goal": "wasted_core_ms", "max": 1e9 });
    let v = judged(&preset("group-imbalance-make", 300, Some(ext(src)), goal), None);
    assert!(v.finished && !v.pass, "{v:?}");
    assert!(v.stopped_early_ns.is_some_and(|at| at < 300_000_000), "{v:?}");
    assert!(verdict_line(&v).contains("before its end"), "{}", verdict_line(&v));
}

fn online_latency(policy: Option<Value>) -> Verdict {
    let goal = json!({ "goal": "p99_wakeup_us", "max": ONE_ONLINE_REQUEST_US, "process": "online-0" });
    // 300 ms: the offline jobs join at 100 ms, leaving 200 ms of colocation.
    judged(&preset("gi-colocation", 300, policy, goal), None)
}

#[test]
fn online_wakeups_stay_within_one_request_only_when_online_work_comes_first() {
    // Group Identity (the preset): a highclass wakeup preempts underclass work at once.
    let gi = online_latency(None);
    assert!(gi.finished && gi.pass, "{gi:?}");
    // The same machine without identities: online wakeups queue behind offline jobs.
    let plain = online_latency(Some(json!({ "kind": "cfs" })));
    assert!(plain.finished && !plain.pass, "{plain:?}");
    // The weighted-vtime starter: a waker is at most a slice behind, so it waits behind offline slices.
    let vtime = online_latency(Some(ext(VTIME)));
    assert!(vtime.finished && !vtime.pass, "{vtime:?}");
    assert!(verdict_line(&vtime).contains("p99 wakeup latency of online-0"), "{}", verdict_line(&vtime));
}

fn problems(exercise: Value) -> Vec<(String, String)> {
    let text = preset("cfs-nice-levels", 100, None, exercise);
    match load_scenario(&text) {
        Ok(_) => Vec::new(),
        Err(d) => d.into_iter().map(|d| (d.field, d.reason)).collect(),
    }
}

fn fields(exercise: Value) -> Vec<String> {
    problems(exercise).into_iter().map(|(f, _)| f).collect()
}

#[test]
fn a_wrong_exercise_names_its_field() {
    assert_eq!(fields(json!({ "goal": "wasted_core_ms", "max": 10 })), Vec::<String>::new());
    assert_eq!(fields(json!({ "goal": "fastest", "max": 10 })), ["exercise.goal"]);
    assert_eq!(fields(json!({ "goal": "wasted_core_ms", "max": -1 })), ["exercise.max"]);
    assert_eq!(fields(json!({ "goal": "wasted_core_ms", "max": "ten" })), ["exercise.max"]);
    assert_eq!(fields(json!({ "goal": "wasted_core_ms" })), ["exercise"]);
    assert_eq!(fields(json!({ "goal": "p99_wakeup_us", "max": 10 })), ["exercise.process"]);
    assert_eq!(fields(json!({ "goal": "p99_wakeup_us", "max": 10, "process": "nobody" })), ["exercise.process"]);
    assert_eq!(fields(json!({ "goal": "wasted_core_ms", "max": 10, "process": "nice0" })), ["exercise.process"]);
    assert_eq!(fields(json!({ "goal": "wasted_core_ms", "max": 10, "text": "a\u{1b}b" })), ["exercise.text"]);
    let unknown = problems(json!({ "goal": "wasted_core_ms", "max": 10, "bound": 3 }));
    assert!(unknown.len() == 1 && unknown[0].1.contains("bound"), "{unknown:?}");
    let reason = &problems(json!({ "goal": "fastest", "max": 1 }))[0].1;
    assert!(reason.contains("longest_wasted_idle_ms") && reason.contains("p99_wakeup_us"), "{reason}");
}

#[test]
fn schedsim_prints_the_verdict_and_its_json_carries_it() {
    let text = preset("group-imbalance-make", 200, None, json!({ "goal": "longest_wasted_idle_ms", "max": 4 }));
    let path = common::temp_path("exercise.json");
    std::fs::write(&path, text).unwrap();
    let run = |args: &[&str]| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_schedsim"))
            .arg("run")
            .arg(&path)
            .args(args)
            .output()
            .expect("schedsim runs");
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8(out.stdout).unwrap()
    };
    let text_out = run(&[]);
    let line = text_out.lines().find(|l| l.starts_with("exercise: ")).expect("a verdict line");
    assert!(
        line.starts_with("exercise: FAIL — longest idle while work waited ") && line.ends_with(" > 4 ms"),
        "{line}"
    );
    let v: Value = serde_json::from_str(&run(&["--json"])).unwrap();
    assert_eq!(v["exercise"]["goal"], "longest_wasted_idle_ms");
    assert_eq!(v["exercise"]["bound"], 4.0);
    assert_eq!(v["exercise"]["pass"], false);
    assert_eq!(v["exercise"]["finished"], true);
    let longest_ms = v["longest_wasted_idle"][2].as_f64().unwrap() / 1e6;
    assert_eq!(v["exercise"]["figure"].as_f64().unwrap(), longest_ms, "the figure is the report's own");
    std::fs::remove_file(&path).ok();
}

//! sched_ext policies written in JavaScript (`sim::ext::class`), run natively
//! by boa: the starter policies run the 64-CPU Group Imbalance preset, a
//! shared queue keeps every core busy where 4.1's balancer wastes cores, and
//! the ways a policy ends (an endless loop, an exception, a task starved past
//! the watchdog) each stop or fall back with their reason.

use schedlab_core::api::scenario::load_scenario;
use schedlab_core::sim::Simulator;
use schedlab_core::time::SimTime;

const FIFO: &str = include_str!("../../policies/global-fifo.js");
const RR: &str = include_str!("../../policies/percpu-rr.js");
const VTIME: &str = include_str!("../../policies/weighted-vtime.js");
const SKELETON: &str = include_str!("../../policies/keep-busy-skeleton.js");

/// `group-imbalance-make` (64 CPUs, 8 nodes) for `ms`, under `policy`.
fn group_imbalance(policy: serde_json::Value, ms: u64) -> Simulator {
    let mut s: serde_json::Value =
        serde_json::from_str(include_str!("../../presets/group-imbalance-make.json")).expect("preset");
    s["policy"] = policy;
    s["duration_ms"] = ms.into();
    let cfg = load_scenario(&s.to_string()).unwrap_or_else(|e| panic!("{e:?}"));
    Simulator::new(&cfg)
}

fn ext(source: &str) -> serde_json::Value {
    serde_json::json!({ "kind": "ext", "source": source })
}

fn run(mut sim: Simulator) -> Simulator {
    sim.run_to_end();
    sim
}

#[test]
fn every_starter_policy_runs_the_group_imbalance_machine() {
    for (name, src) in [("fifo", FIFO), ("rr", RR), ("vtime", VTIME), ("skeleton", SKELETON)] {
        let sim = run(group_imbalance(ext(src), 300));
        assert_eq!(sim.notes().policy_error, None, "{name}");
        assert_eq!(sim.notes().policy_fallback, None, "{name}");
        assert_eq!(sim.now(), SimTime(300_000_000), "{name} ran to the end");
        assert_eq!(sim.class().name(), "ext", "{name}");
        let ran: u64 = sim.tasks().iter().map(|t| t.se.sum_exec_runtime).sum();
        assert!(ran > 0, "{name}: tasks ran");
    }
}

#[test]
fn a_shared_queue_wastes_no_core_where_linux_4_1_does() {
    // The mechanism: every waiting task sits in one queue any idle CPU takes
    // from, so no CPU idles while work waits; 4.1's balancer leaves cores
    // idle (the Group Imbalance bug); per-CPU queues without stealing (the
    // skeleton) leave nearly all of them idle.
    let cfs = run(group_imbalance(serde_json::json!({ "kind": "cfs" }), 1000));
    let fifo = run(group_imbalance(ext(FIFO), 1000));
    let skeleton = run(group_imbalance(ext(SKELETON), 1000));
    let wasted = |s: &Simulator| s.machine_stats().wasted_core_ns;
    assert!(wasted(&fifo) < wasted(&cfs) / 10, "fifo {} vs cfs {}", wasted(&fifo), wasted(&cfs));
    assert!(wasted(&skeleton) > wasted(&cfs), "skeleton {} vs cfs {}", wasted(&skeleton), wasted(&cfs));
}

#[test]
fn a_policy_run_is_deterministic() {
    let a = run(group_imbalance(ext(VTIME), 200));
    let b = run(group_imbalance(ext(VTIME), 200));
    assert_eq!(a.trace().hash(), b.trace().hash());
    assert_eq!(a.events_processed(), b.events_processed());
}

#[test]
fn an_endless_loop_stops_the_run_with_the_callback_and_reason() {
    let src = "function dispatch(cpu, prev) {\n  if (scx.now() > 5000000) {\n    while (true) {}\n  }\n}\n";
    let sim = run(group_imbalance(ext(src), 1000));
    let (at, why) = sim.notes().policy_error.clone().expect("the loop is caught");
    assert!(why.starts_with("dispatch:"), "{why}");
    assert!(why.contains("steps in one callback"), "{why}");
    assert!(at > SimTime(5_000_000) && at < SimTime(1_000_000_000), "{at:?}");
    assert_eq!(sim.now(), at, "the run stopped where the policy failed");
}

#[test]
fn an_exception_stops_the_run_naming_its_callback() {
    let src = "function tick(p) {\n  if (scx.now() > 3000000) p.nothing.here = 1;\n}\n";
    let sim = run(group_imbalance(ext(src), 1000));
    let (_, why) = sim.notes().policy_error.clone().expect("the exception is caught");
    assert!(why.starts_with("tick:"), "{why}");
    let syntax = run(group_imbalance(ext("function enqueue(p {"), 100));
    let (_, why) = syntax.notes().policy_error.clone().expect("a syntax error is caught");
    assert!(why.contains("does not load"), "{why}");
}

#[test]
fn a_starved_task_trips_the_watchdog_and_the_fair_class_takes_over() {
    // R2 (pid 2) is queued where no CPU ever looks.
    let src = "function init() { scx.create_dsq(7); }\n\
               function enqueue(p, f) { scx.dsq_insert(p, p.pid === 2 ? 7 : scx.DSQ_GLOBAL, scx.SLICE_DFL, f); }\n";
    let mut policy = ext(src);
    policy["watchdog_ms"] = 100.into();
    let sim = run(group_imbalance(policy, 500));
    let (at, why) = sim.notes().policy_fallback.clone().expect("the watchdog trips");
    assert!(why.contains("R2 (pid 2)") && why.contains("fair class"), "{why}");
    assert!(at >= SimTime(100_000_000) && at < SimTime(200_000_000), "within a timeout and a half: {at:?}");
    assert_eq!(sim.notes().policy_error, None);
    assert_eq!(sim.class().name(), "cfs");
    assert_eq!(sim.now(), SimTime(500_000_000), "the run goes on under the fair class");
    assert!(sim.tasks()[2].se.sum_exec_runtime > 0, "R2 runs once the fair class has it");
}

#[test]
fn a_policy_sees_no_clock_no_unseeded_random_and_runs_strict() {
    // Each fails at its first call: no wall clock, no unseeded random source, and strict mode (a misspelt name
    // is an error, not a new global).
    for (src, callback, words) in [
        (
            "function enqueue(p, f) { scx.dsq_insert(p, scx.DSQ_GLOBAL, Date.now(), f); }",
            "enqueue:",
            "Date is not available",
        ),
        (
            "function select_cpu(p, prev, f) { return Math.floor(Math.random() * 2); }",
            "select_cpu:",
            "use scx.random()",
        ),
        ("function tick(p) { lastSeen = p.pid; }", "tick:", "lastSeen"),
    ] {
        let sim = run(group_imbalance(ext(src), 100));
        let (_, why) = sim.notes().policy_error.clone().unwrap_or_else(|| panic!("{src}: no error"));
        assert!(why.starts_with(callback) && why.contains(words), "{src}: {why}");
    }
}

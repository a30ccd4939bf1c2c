//! A task a sched_ext policy holds in a queue of its own is a waiting task,
//! and a CPU that runs nothing is idle, whatever its runqueue counts: the
//! kernel counts every task enqueued to sched_ext in `rq->nr_running` of the
//! CPU it was enqueued on, so `idle_cpu()` calls a CPU busy while the policy
//! keeps its task in a custom queue and the CPU runs its idle task. The
//! wasted core time, the sanity checker and the exercises judge by what runs.

use schedlab_core::api::report::{report, with_exercise};
use schedlab_core::api::scenario::{load_scenario, parse_scenario};
use schedlab_core::sim::Simulator;
use serde_json::json;

/// `SCX_SLICE_DFL`: each dispatched task's first slice, charged at ticks
/// (HZ 250: 4 ms), so a slice ends at most a tick late.
const SLICE_DFL_MS: u64 = 20;
const TICK_MS: u64 = 4;
const DURATION_MS: u64 = 2000;
const CPUS: u64 = 4;

/// Seven hogs on 4 CPUs (laptop-2c4t) under a policy that queues every task
/// in its own queue 5 and dispatches from it only three times, then never
/// again: after those three slices every thread waits beside 4 idle CPUs.
fn stops_dispatching_after_three() -> String {
    let policy = "var n = 0;\n\
                  function init() { scx.create_dsq(5); }\n\
                  function enqueue(p, f) { scx.dsq_insert(p, 5, scx.SLICE_DFL, f); }\n\
                  function dispatch(cpu, prev) { if (n < 3 && scx.dsq_move_to_local(5)) n++; }\n";
    json!({
        "version": 1, "name": "stops-dispatching", "seed": 1, "duration_ms": DURATION_MS, "hz": 250,
        "machine": { "preset": "laptop-2c4t" },
        "sanity_checker": { "period_ms": 200, "window_ms": 100 },
        "policy": { "kind": "ext", "source": policy },
        "exercise": { "goal": "longest_wasted_idle_ms", "max": 4 },
        "processes": [{ "name": "hog", "threads": 7, "program": [{ "body": [{ "run_us": 1_000_000 }] }] }]
    })
    .to_string()
}

#[test]
fn tasks_held_in_a_policys_queue_wait_beside_idle_cpus() {
    let text = stops_dispatching_after_three();
    let cfg = load_scenario(&text).unwrap_or_else(|e| panic!("{e:?}"));
    let mut sim = Simulator::new(&cfg);
    sim.set_index_check(true);
    sim.run_to_end();
    assert_eq!(sim.notes().policy_error, None);
    assert_eq!(sim.notes().policy_fallback, None, "the watchdog (30 s) does not trip in 2 s");

    // After at most three slices nothing runs again, while seven threads wait.
    let slices = 3 * (SLICE_DFL_MS + TICK_MS);
    let ran: u64 = sim.tasks().iter().map(|t| t.se.sum_exec_runtime).sum();
    assert!(ran <= slices * 1_000_000, "only three slices run: {ran} ns");
    let wasted = sim.machine_stats().wasted_core_ns;
    let floor = CPUS * (DURATION_MS - slices) * 1_000_000;
    assert!(wasted >= floor, "every CPU idles while threads wait: {wasted} ns < {floor} ns");

    // The checker sees the same: every CPU idle, every thread waiting.
    let v = sim.sanity_violations();
    assert!(!v.is_empty(), "the sanity checker reports the held tasks");
    assert_eq!(v[0].idle_cpus_total as u64, CPUS, "{:?}", v[0]);
    assert_eq!(v[0].waiting_total, 7, "{:?}", v[0]);

    // And the keep-busy exercise fails.
    let file = parse_scenario(&text).unwrap();
    let verdict = with_exercise(report(&sim), file.exercise.as_ref(), &sim).exercise.expect("a verdict");
    assert!(verdict.finished && !verdict.pass, "{verdict:?}");
}

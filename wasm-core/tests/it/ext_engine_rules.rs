//! The engine judges a sched_ext policy by its own state, not the policy's:
//! a dispatch outside the task's affinity (by the engine's copy of the mask,
//! whatever the policy wrote in `p.cpus`) or to an offline CPU is refused
//! with a message, and the watchdog runs from a timer of its own, so a
//! policy that never lets anything run is still stopped.

use schedlab_core::api::scenario::load_scenario;
use schedlab_core::sim::Simulator;
use schedlab_core::time::SimTime;
use serde_json::{json, Value};

/// laptop-2c4t (4 CPUs) at HZ 1000 for `ms`, under `policy`, running `processes`.
fn run(policy: Value, processes: Value, events: Value, ms: u64) -> Simulator {
    let text = json!({
        "version": 1, "name": "ext-rules", "seed": 1, "duration_ms": ms, "hz": 1000,
        "machine": { "preset": "laptop-2c4t" }, "policy": policy, "processes": processes, "events": events
    })
    .to_string();
    let cfg = load_scenario(&text).unwrap_or_else(|e| panic!("{e:?}"));
    let mut sim = Simulator::new(&cfg);
    sim.set_index_check(true);
    sim.run_to_end();
    sim
}

fn hogs(name: &str, threads: u32, cpus: Option<&str>) -> Value {
    let mut p = json!({ "name": name, "threads": threads, "program": [{ "body": [{ "run_us": 1_000_000 }] }] });
    if let Some(c) = cpus {
        p["cpus"] = c.into();
    }
    p
}

/// CPU time each CPU ran tasks for, to the end of the run.
fn busy(sim: &Simulator) -> Vec<u64> {
    sim.rqs().iter().map(|rq| rq.busy_ns_at(sim.now())).collect()
}

#[test]
fn a_policy_that_widens_a_pinned_tasks_mask_cannot_run_it_elsewhere() {
    // The policy erases its copy of every task's affinity and kicks an idle CPU for each task it queues, so the
    // runtime's own affinity tests (`scx.pick_idle_cpu`, the global queue's) let CPUs 1-3 take pinned tasks.
    let src = "function init_task(p) { p.cpus = null; }\n\
               function enqueue(p, f) {\n\
                 scx.dsq_insert(p, scx.DSQ_GLOBAL, scx.SLICE_DFL, f);\n\
                 var c = scx.pick_idle_cpu(p);\n\
                 if (c >= 0) scx.kick_cpu(c, 0);\n\
               }\n";
    let sim = run(json!({ "kind": "ext", "source": src }), json!([hogs("pinned", 3, Some("0"))]), json!([]), 200);
    let (_, why) = sim.notes().policy_error.clone().expect("the illegal dispatch is refused");
    assert!(why.starts_with("dispatch: the policy dispatched task pinned"), "{why}");
    assert!(why.contains("outside its allowed CPUs 0"), "{why}");
    assert_eq!(&busy(&sim)[1..], &[0, 0, 0], "no pinned task ran off CPU 0");
}

#[test]
fn a_kick_to_an_offline_cpu_schedules_nothing_there() {
    // CPU 3 goes offline at 10 ms; the policy kicks it at every enqueue. An offline CPU takes no kick, so it never
    // picks from the global queue, and the run goes on.
    let src = "function enqueue(p, f) { scx.dsq_insert(p, scx.DSQ_GLOBAL, 1000000, f); scx.kick_cpu(3, 0); }\n";
    let offline = json!([{ "at_ms": 10, "cpu_offline": 3 }]);
    let sim = run(json!({ "kind": "ext", "source": src }), json!([hogs("hog", 6, None)]), offline, 200);
    assert_eq!(sim.notes().policy_error, None);
    let ran_on_3_after_10ms: u64 = sim
        .trace()
        .slices_since(0)
        .iter()
        .filter(|s| s.cpu.0 == 3 && s.end > SimTime(10_000_000))
        .map(|s| s.end.since(s.start.max(SimTime(10_000_000))))
        .sum();
    assert_eq!(ran_on_3_after_10ms, 0, "CPU 3 ran nothing once offline");
    assert_eq!(sim.rqs()[3].curr(), None, "and runs nothing at the end");
}

#[test]
fn the_watchdog_stops_a_policy_under_which_nothing_ever_runs() {
    // Every task goes to queue 7, which no CPU ever looks at: no task runs, so no task's tick comes.
    let src = "function init() { scx.create_dsq(7); }\n\
               function enqueue(p, f) { scx.dsq_insert(p, 7, scx.SLICE_DFL, f); }\n";
    let policy = json!({ "kind": "ext", "source": src, "watchdog_ms": 100 });
    // Two processes of one thread (a second thread would be created by the first, which never runs).
    let sim = run(policy, json!([hogs("hog", 1, None), hogs("hog2", 1, None)]), json!([]), 500);
    let (at, why) = sim.notes().policy_fallback.clone().expect("the watchdog trips");
    assert!(why.starts_with("watchdog: runnable task hog") && why.contains("fair class"), "{why}");
    // It runs every half timeout: a task starved from about 0 is caught by 150 ms.
    assert!(at >= SimTime(100_000_000) && at <= SimTime(150_000_000), "{at:?}");
    assert_eq!(sim.notes().policy_error, None);
    assert_eq!(sim.class().name(), "cfs");
    assert_eq!(sim.tasks().len(), 2);
    // Every CPU was idle beside the tasks the policy held: they pick under the fair class.
    assert!(sim.tasks().iter().all(|t| t.se.sum_exec_runtime > 0), "the fair class runs every task");
}

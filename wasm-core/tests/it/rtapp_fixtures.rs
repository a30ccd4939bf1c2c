//! rt-app files written as rt-app users write them (`tests/fixtures/rtapp/`,
//! schedlab's own, in rt-app's grammar: comments, repeated keys, timers,
//! condition variables, barriers across tasks, fork, taskgroups, phase
//! policies) imported and run: each file's workload does in the model what
//! rt-app's threads do.

use schedlab_core::api::report::{report, ProcessReport};
use schedlab_core::api::rtapp::import::{import, Defaults};
use schedlab_core::api::scenario::{validate, ScenarioFile};
use schedlab_core::sim::Simulator;
use serde_json::{json, Value};

const MS: u64 = 1_000_000;

fn fixture(name: &str) -> (ScenarioFile, Vec<String>) {
    let path = format!("{}/tests/fixtures/rtapp/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap();
    import(&text, &Defaults { name: name.into(), ..Default::default() }).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// The scenario run to its end with free costs (so hand-worked times are exact).
fn run(mut s: ScenarioFile) -> Simulator {
    s.costs = serde_json::from_value(json!({
        "context_switch_ns": 0, "wakeup_ipi_ns": 0, "migration_cold_ns": 0, "migration_cold_remote_ns": 0, "clone_ns": 0
    }))
    .unwrap();
    let mut sim = Simulator::new(&validate(&s).unwrap());
    sim.run_to_end();
    sim
}

fn proc_report(sim: &Simulator, name: &str) -> ProcessReport {
    report(sim).processes.into_iter().find(|p| p.name == name).unwrap()
}

fn process(s: &ScenarioFile, name: &str) -> Value {
    serde_json::to_value(s.processes.iter().find(|p| p.name == name).unwrap()).unwrap()
}

/// A timer shared by name wakes vsync every 16.667 ms; suspend and resume
/// are condition variables under a mutex, in one address space with the
/// tasks that resume them; the repeated "run" is two runs.
#[test]
fn a_frame_pipeline_wakes_at_each_vsync() {
    let (s, notes) = fixture("frame-pipeline.json");
    assert_eq!(s.duration_ms, 1000);
    assert_eq!(
        process(&s, "vsync")["program"],
        json!([{ "body": [
            { "timer": "frame", "period_us": 16667, "shared": true },
            { "lock": "compositor" }, { "cond_broadcast": "compositor" }, { "unlock": "compositor" }
        ] }])
    );
    assert_eq!(
        process(&s, "client")["program"],
        json!([{ "body": [
            { "lock": "client" }, { "cond_wait": "client", "mutex": "client" }, { "unlock": "client" },
            { "run_us": 2000 }, { "run_us": 1000 }
        ] }])
    );
    for p in &s.processes {
        assert_eq!(p.address_space.as_deref(), Some("rt-app"), "{} shares names with the others", p.name);
    }
    assert_eq!(
        (process(&s, "vsync")["nice"].clone(), process(&s, "client")["threads"].clone()),
        (json!(-10), json!(2))
    );
    assert!(notes.iter().any(|n| n.contains("keys repeat in 1 object(s) (tasks.client: run)")), "{notes:?}");
    let sim = run(s);
    // 59 whole frames in a second (the 60th starts at 1000.02 ms): each a compositor and two client activations.
    let compositor = proc_report(&sim, "compositor");
    assert_eq!(compositor.cpu_time_ns / MS, 59 * 3);
    assert_eq!(proc_report(&sim, "client").cpu_time_ns / MS, 59 * 3 * 2);
    assert_eq!(proc_report(&sim, "vsync").timer_overruns, 0);
}

/// A signal under a mutex wakes the consumer, which busy-loops 1 ms of
/// wall-clock time; both tasks then meet at the barrier (two users: it
/// waits for both), and the consumer forks the helper into its taskgroup.
#[test]
fn a_producer_and_consumer_meet_at_a_barrier_and_fork_a_helper() {
    let (s, _) = fixture("sync-and-fork.json");
    let names: Vec<&str> = s.processes.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, ["producer", "consumer"], "the helper starts no thread of its own");
    let cgroups: Vec<(&str, Option<&str>)> = s.cgroups.iter().map(|g| (g.name.as_str(), g.parent.as_deref())).collect();
    assert_eq!(cgroups, [("/apps", None), ("/apps/media", Some("/apps"))]);
    let consumer = process(&s, "consumer");
    assert_eq!(consumer["cgroup"], "/apps/media");
    assert_eq!(
        consumer["program"],
        json!([{ "repeat": 4, "body": [
            { "lock": "m" }, { "cond_wait": "ready", "mutex": "m" }, { "unlock": "m" }, { "busy_us": 1000 },
            { "barrier": "round" }, { "fork": [{ "run_us": 500 }] }, { "yield": true }
        ] }])
    );
    let sim = run(s);
    // Rounds 6 ms apart: the signal at 5 ms, 1 ms of busy loop, the barrier.
    let (p, c) = (proc_report(&sim, "producer"), proc_report(&sim, "consumer"));
    assert_eq!(p.completion_ns.map(|n| n / MS), Some(24));
    assert_eq!(c.completion_ns.map(|n| n / MS), Some(24));
    assert_eq!(c.threads, 5, "the consumer and the four helpers it forked");
}

/// rt-app's timers reached late: relative mode starts the next period at
/// the late use, absolute catches up (one absolute use makes the timer so).
#[test]
fn timers_reached_late_catch_up_as_their_mode_says() {
    let (s, _) = fixture("timer-modes.json");
    let timer_modes = |name: &str| {
        let text = process(&s, name)["program"].to_string();
        (text.matches("\"timer_mode\":\"absolute\"").count(), text.matches("\"shared\"").count())
    };
    assert_eq!(timer_modes("relative"), (0, 0), "'unique' timers are each thread's own");
    assert_eq!(timer_modes("absolute"), (2, 0));
    let sim = run(s);
    let ends = |name: &str| {
        let r = proc_report(&sim, name);
        (r.completion_ns.map(|n| n / MS), r.timer_overruns)
    };
    assert_eq!(ends("relative"), (Some(35), 1));
    assert_eq!(ends("absolute"), (Some(30), 1));
}

/// A phase's cpus and taskgroup are set as it begins: the mover goes to CPU 1 and /away for its second phase
/// (the stopper moves it, 20 ms in), shares CPU 1 with the hog there, then goes back to its task's CPU 0 for
/// the last phase, which names no cpus, and stays in /away, as rt-app's threads do. It ends at about 20 + 40 +
/// 20 ms (run at HZ 1000, so that CPU 1 changes hands in 1 ms turns), with autogroup or without.
#[test]
fn a_task_s_phases_move_it_between_cpus_and_taskgroups() {
    let (s, _) = fixture("phase-moves.json");
    assert_eq!(
        process(&s, "mover")["program"],
        json!([
            { "run_us": 20000 },
            { "set_cpus": "1" }, { "set_cgroup": "/away" }, { "run_us": 20000 },
            { "set_cpus": "0" }, { "run_us": 20000 }
        ])
    );
    assert_eq!(serde_json::to_value(&s.cgroups).unwrap()[0]["name"], json!("/away"));
    let mut s = s;
    s.hz = 1000;
    let mut flat = s.clone();
    let sim = run(s);
    let mover = proc_report(&sim, "mover");
    assert_eq!(mover.cpu_time_ns / MS, 60);
    // Without autogroup the hog is in the root group, and the turns are the same.
    flat.autogroup = false;
    let flat_done = proc_report(&run(flat), "mover").completion_ns.expect("the mover ends") / MS;
    assert!((79..=81).contains(&flat_done), "{flat_done}");
    assert_eq!(mover.migrations, 2, "to CPU 1 and back, each by the stopper");
    let done = mover.completion_ns.expect("the mover ends") / MS;
    assert!((79..=81).contains(&done), "20 ms alone, 40 ms sharing CPU 1, 20 ms alone: {done}");
}

/// phase-policy.json: a phase's policy and priority are `sched_setattr` steps as the phase begins; the worker
/// shares CPU 0 with the hog while fair and holds it while SCHED_FIFO (run at HZ 1000, so that the fair turns
/// are 1 ms long).
#[test]
fn a_task_s_phases_change_its_policy() {
    let (s, _) = fixture("phase-policy.json");
    assert_eq!(
        process(&s, "worker")["program"],
        json!([
            { "run_us": 20000 },
            { "sched_setattr": "fifo", "rt_priority": 10 }, { "run_us": 20000 },
            { "sched_setattr": "fifo", "rt_priority": 20 }, { "run_us": 10000 },
            { "sched_setattr": "normal", "nice": 0 }, { "run_us": 20000 }
        ])
    );
    let mut s = s;
    s.hz = 1000;
    let sim = run(s);
    let worker = proc_report(&sim, "worker");
    assert_eq!(worker.cpu_time_ns / MS, 70);
    let done = worker.completion_ns.expect("the worker ends") / MS;
    assert!((109..=111).contains(&done), "40 ms sharing, 30 ms alone, 40 ms sharing: {done}");
}

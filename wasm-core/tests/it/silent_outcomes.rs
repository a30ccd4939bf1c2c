//! Nothing a scenario asks for is dropped without a word: what validation
//! can see coming is refused with the reason (a loop forever at one instant,
//! offlining the last CPU, a hotplug event that changes nothing, duplicate
//! process names, '/' in a name, a forked child that waits), and what only
//! the run shows is in the report's notes (a thread ended for never taking
//! time, a fork refused at the 10,000-thread limit, a hotplug event skipped).

use schedlab_core::api::exports::metrics_csv;
use schedlab_core::api::report;
use schedlab_core::api::scenario::{load_scenario, MAX_THREADS};
use schedlab_core::sim::Simulator;

fn scenario(machine: &str, processes: &str, events: &str) -> String {
    format!(
        r#"{{"version":1,"name":"t","duration_ms":1000,"machine":{{"preset":"{machine}"}},"processes":[{processes}],"events":[{events}]}}"#
    )
}

fn messages(text: &str) -> Vec<String> {
    load_scenario(text).err().unwrap_or_default().iter().map(ToString::to_string).collect()
}

fn run(text: &str) -> Simulator {
    let cfg = load_scenario(text).unwrap_or_else(|e| panic!("{e:?}"));
    let mut sim = Simulator::new(&cfg);
    sim.run_to_end();
    sim
}

#[test]
fn a_loop_forever_with_nothing_that_takes_time_is_refused() {
    for body in
        [r#"[]"#, r#"[{"run_us":0}]"#, r#"[{"sleep_us":{"uniform":[0,0]}}]"#, r#"[{"wake":"a"},{"unlock":"m"}]"#]
    {
        let p = format!(r#"{{"name":"a","program":[{{"run_us":5}},{{"body":{body}}}]}}"#);
        let m = messages(&scenario("uniprocessor", &p, ""));
        assert_eq!(m.len(), 1, "{body}: {m:?}");
        assert!(
            m[0].starts_with("processes[0].program[1]: repeats forever (no repeat) but none of its steps takes time"),
            "{m:?}"
        );
    }
    // Nested: the inner loop is the one that never takes time.
    let p = r#"{"name":"a","program":[{"repeat":3,"body":[{"body":[{"run_us":0}]}]}]}"#;
    assert_eq!(messages(&scenario("uniprocessor", p, "")).len(), 1);
    // Anything that may take time, block or end the thread is enough.
    for body in [
        r#"[{"run_us":{"uniform":[0,5]}}]"#,
        r#"[{"sleep_us":{"exp":5}}]"#,
        r#"[{"wait":true}]"#,
        r#"[{"yield":true}]"#,
        r#"[{"wake":"a"},{"body":[{"run_us":1}],"repeat":2}]"#,
    ] {
        let p = format!(r#"{{"name":"a","program":[{{"body":{body}}}]}}"#);
        assert!(load_scenario(&scenario("uniprocessor", &p, "")).is_ok(), "{body}");
    }
}

#[test]
fn a_thread_ended_for_never_taking_time_is_in_the_notes() {
    // Finite loops validation lets through: 100,000 zero-length runs, and
    // 20,000 wakes in a row (instantaneous calls).
    let procs = r#"{"name":"zero","program":[{"run_us":100},{"repeat":100000,"body":[{"run_us":0}]},{"run_us":100}]},
        {"name":"waker","program":[{"run_us":100},{"repeat":20000,"body":[{"wake":"zero"}]},{"run_us":100}]}"#;
    let sim = run(&scenario("uniprocessor", procs, ""));
    assert_eq!(sim.notes().stalled_count, 2);
    let r = report::report(&sim);
    assert_eq!(r.notes.len(), 1, "{:?}", r.notes);
    assert!(
        r.notes[0].starts_with("2 thread(s) ended because their program made 10000 steps in a row that took no time")
    );
    assert!(r.notes[0].contains("zero at ") && r.notes[0].contains("waker at"), "{}", r.notes[0]);
    let text = report::text_report(&r, 1.0);
    assert!(text.contains("\nnote: 2 thread(s) ended"), "{text}");
    let csv = metrics_csv::metrics_csv(&sim);
    assert!(csv.contains("\nnote,\"2 thread(s) ended"), "{csv}");
    // A normal run has no notes.
    let calm = run(&scenario("uniprocessor", r#"{"name":"a","program":[{"run_us":100}]}"#, ""));
    assert!(calm.notes().is_empty() && report::report(&calm).notes.is_empty());
}

#[test]
fn hotplug_events_that_would_change_nothing_are_refused() {
    let one = r#"{"name":"a","program":[{"run_us":100}]}"#;
    assert_eq!(
        messages(&scenario("uniprocessor", one, r#"{"at_ms":5,"cpu_offline":0}"#)),
        ["events[0].cpu_offline: would take CPU 0, the last CPU online, offline at 5 ms; the kernel refuses, so one CPU must stay online"]
    );
    // laptop-2c4t has 4 CPUs; the events are replayed in time order, not as listed.
    let events = r#"{"at_ms":9,"cpu_offline":3},{"at_ms":1,"cpu_offline":0},{"at_ms":2,"cpu_offline":1},{"at_ms":3,"cpu_offline":2},
        {"at_ms":4,"cpu_offline":1},{"at_ms":5,"cpu_online":2},{"at_ms":6,"cpu_online":2}"#;
    assert_eq!(
        messages(&scenario("laptop-2c4t", one, events)),
        [
            "events[4].cpu_offline: CPU 1 is already offline at 4 ms",
            "events[6].cpu_online: CPU 2 is already online at 6 ms",
        ]
    );
    // Under O(1) hotplug is refused as a whole, once.
    let o1 = format!(
        r#"{{"version":1,"name":"t","duration_ms":10,"machine":{{"preset":"uniprocessor"}},"policy":{{"kind":"o1"}},"processes":[{one}],"events":[{{"at_ms":1,"cpu_offline":0}}]}}"#
    );
    assert_eq!(messages(&o1), ["events: CPU hotplug is not modelled under policy 'o1'"]);
    // An event at a time out of range is not replayed as well.
    let late = r#"{"at_ms":900000000,"cpu_offline":1},{"at_ms":5,"cpu_offline":2}"#;
    assert_eq!(
        messages(&scenario("laptop-2c4t", one, late)),
        ["events[0].at_ms: must be between 0 and 600000 (got 900000000)"]
    );
    // Same time: carried out as listed.
    let ok = r#"{"at_ms":5,"cpu_offline":1},{"at_ms":5,"cpu_online":1}"#;
    assert!(load_scenario(&scenario("laptop-2c4t", one, ok)).is_ok());
    let bad = r#"{"at_ms":5,"cpu_online":1},{"at_ms":5,"cpu_offline":1}"#;
    assert_eq!(messages(&scenario("laptop-2c4t", one, bad)), ["events[0].cpu_online: CPU 1 is already online at 5 ms"]);
}

#[test]
fn a_hotplug_event_the_engine_skips_is_in_the_notes() {
    // Built without validation: offline the only CPU, online a CPU that is online.
    let mut cfg = load_scenario(&scenario("uniprocessor", r#"{"name":"a","program":[{"run_us":100}]}"#, "")).unwrap();
    let ev = |at_ns, kind| schedlab_core::config::TimedEvent { at_ns, kind };
    use schedlab_core::config::TimedEventKind::{CpuOffline, CpuOnline};
    cfg.events = vec![ev(1_000_000, CpuOffline(0)), ev(2_000_000, CpuOnline(0))];
    let mut sim = Simulator::new(&cfg);
    sim.run_to_end();
    assert_eq!(
        report::report(&sim).notes,
        [
            "at 1.000 ms: CPU 0 offline not done: it was the last online CPU",
            "at 2.000 ms: CPU 0 online not done: it was not offline",
        ]
    );
}

#[test]
fn process_names_are_unique_and_hold_no_slash() {
    let procs = r#"{"name":"a","program":[{"run_us":1}]},{"name":"b","program":[{"run_us":1}]},{"name":"a","program":[{"run_us":1}]}"#;
    assert_eq!(
        messages(&scenario("uniprocessor", procs, "")),
        ["processes[2].name: 'a' is already the name of processes[0]; names must be unique (a wake step finds its process by name)"]
    );
    let slash = r#"{"name":"db/primary","program":[{"run_us":1}]}"#;
    assert_eq!(
        messages(&scenario("uniprocessor", slash, "")),
        ["processes[0].name: must not contain '/' (a wake step names a thread as 'process/k')"]
    );
}

#[test]
fn forked_children_cannot_be_woken_and_validation_says_so() {
    let p = r#"{"name":"a","program":[{"fork":[{"run_us":5},{"wait":true}]},{"wait_child":true}]}"#;
    assert_eq!(
        messages(&scenario("uniprocessor", p, "")),
        ["processes[0].program[0].fork[1].wait: a forked child cannot be woken (a wake step names only a process's starting threads), so it would wait forever"]
    );
    let p = r#"{"name":"a","threads":2,"program":[{"fork":[{"run_us":5}]},{"wake":"a/2"}]}"#;
    assert_eq!(
        messages(&scenario("uniprocessor", p, "")),
        ["processes[0].program: wake names thread 2 of 'a', which has 2 threads (0 to 1); the threads it forks cannot be named"]
    );
}

#[test]
fn the_thread_limit_holds_at_run_time() {
    // One thread forking 20,000 short-lived children: the first 9,999 are
    // made (10,000 threads with the parent), the rest fail like fork() with
    // EAGAIN, and the parent's program goes on to its end.
    let p = r#"{"name":"forker","program":[{"repeat":20000,"body":[{"fork":[{"run_us":1}]},{"run_us":2}]},{"run_us":1000}]}"#;
    let sim = run(&scenario("uniprocessor", p, ""));
    assert_eq!(sim.tasks().len(), MAX_THREADS as usize);
    assert_eq!(sim.notes().forks_refused_count, 20_000 - (MAX_THREADS as u64 - 1));
    let parent = &sim.tasks()[0];
    assert!(parent.stats.exited_at.is_some(), "the parent ran its program to the end");
    assert!(parent.se.sum_exec_runtime >= 20_000 * 2_000 + 1_000_000);
    let notes = report::report(&sim).notes;
    assert_eq!(notes.len(), 1, "{notes:?}");
    assert!(
        notes[0].starts_with(&format!(
            "10001 fork(s) failed: the run had made its limit of {MAX_THREADS} threads; as fork() fails with EAGAIN, the program went on without a child: forker at "
        )),
        "{}",
        notes[0]
    );
    assert!(notes[0].ends_with("and 9993 more"), "{}", notes[0]);
}

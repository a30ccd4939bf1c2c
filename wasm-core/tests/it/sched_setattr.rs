//! `sched_setattr` as a program step, on one CPU under 4.1, worked by hand.

use schedlab_core::api::report::report;
use schedlab_core::api::scenario::load_scenario;
use serde_json::json;

use crate::common::scenario::{self as step, forever, Process, Scenario};

fn cpu_ms(procs: Vec<Process>, duration_ms: u64) -> Vec<(String, u64)> {
    let mut sim = Scenario::one_bare_cpu("setattr", duration_ms).processes(procs).sim();
    sim.run_to_end();
    report(&sim).processes.into_iter().map(|p| (p.name, p.cpu_time_ns / 1_000_000)).collect()
}

/// 'a' shares the CPU with the fair hog 'b' for its first 50 ms of work (to about 100 ms), then makes itself
/// SCHED_FIFO 50 and holds the CPU for 200 ms of work (to about 300 ms), then makes itself SCHED_OTHER again and
/// shares once more: over 500 ms, b gets about 50 + 0 + 100 ms.
#[test]
fn a_thread_becomes_real_time_and_fair_again() {
    let a = Process::new("a").program([
        step::run(50_000),
        json!({"sched_setattr": "fifo", "rt_priority": 50}),
        step::run(200_000),
        json!({"sched_setattr": "normal"}),
        forever([step::run(10_000)]),
    ]);
    let got = cpu_ms(vec![a, Process::hog("b", 10_000)], 500);
    let b = got[1].1;
    assert!((140..=160).contains(&b), "b ran beside a, not at all while a was FIFO, then beside it: {got:?}");
}

/// 'a' makes itself a deadline task of 10 ms every 100 ms at once: from then on the CBS gives it its 10 ms a
/// period, and the fair hog 'b' the rest: a ≈ 100 ms of 1 s.
#[test]
fn a_thread_takes_a_deadline_reservation() {
    let a = Process::new("a").program([
        json!({"sched_setattr": "deadline", "dl_runtime_us": 10_000, "dl_deadline_us": 100_000}),
        forever([step::run(10_000)]),
    ]);
    let got = cpu_ms(vec![a, Process::hog("b", 10_000)], 1000);
    assert!((99..=101).contains(&got[0].1), "a gets its reservation each period: {got:?}");
    assert!(got[1].1 >= 898, "b has the rest: {got:?}");
}

fn refused(step: serde_json::Value, kernel: &str) -> String {
    let p = Process::new("a").program([step, step::run(1000)]);
    let s = Scenario::new("setattr", 10).machine("uniprocessor").set("kernel", kernel).processes([p]);
    format!("{:?}", load_scenario(&s.build()).expect_err("refused"))
}

#[test]
fn a_setattr_step_is_checked_as_a_process_policy_is() {
    let e = refused(json!({"sched_setattr": "fifo"}), "4.1");
    assert!(e.contains("rt_priority") && e.contains("needs a real-time priority"), "{e}");
    let e = refused(json!({"sched_setattr": "normal", "rt_priority": 5}), "4.1");
    assert!(e.contains("applies to the real-time policies"), "{e}");
    let e = refused(json!({"rt_priority": 5}), "4.1");
    assert!(e.contains("must have exactly one of"), "{e}");
    let e = refused(json!({"run_us": 5, "rt_priority": 5}), "4.1");
    assert!(e.contains("only allowed together with sched_setattr"), "{e}");
    let e = refused(json!({"sched_setattr": "deadline", "dl_runtime_us": 90_000, "dl_deadline_us": 50_000}), "4.1");
    assert!(e.contains("runtime ≤ deadline ≤ period"), "{e}");
    // Admission control: 96 % of the only CPU.
    let e = refused(json!({"sched_setattr": "deadline", "dl_runtime_us": 96_000, "dl_deadline_us": 100_000}), "4.1");
    assert!(e.contains("sched_setattr"), "{e}");
    let e = refused(json!({"sched_setattr": "deadline", "dl_runtime_us": 92_000, "dl_deadline_us": 100_000}), "6.12");
    assert!(e.contains("fair servers"), "6.12's fair servers hold 5 % of the CPU: {e}");
}

/// A `sched_setattr` that changes nothing returns before the task leaves its queue (`__sched_setscheduler`,
/// core.c 3533–3548 in 4.1): 'a', SCHED_FIFO 50, runs first and asks for SCHED_FIFO 50 again after each
/// millisecond of work, while 'b', also FIFO 50, waits for the CPU from 5 ms on. Were 'a' put back on its
/// queue, it would go behind 'b', and 'b', which never gives the CPU up, would have the rest of the run; as
/// the kernel does it, 'a' keeps the CPU for all 100 ms and 'b' never runs.
#[test]
fn a_setattr_that_changes_nothing_keeps_the_task_where_it_is() {
    let fifo = |p: Process| p.set("sched_policy", "fifo").set("rt_priority", 50);
    let a = fifo(Process::new("a"))
        .program([forever([step::run(1_000), json!({"sched_setattr": "fifo", "rt_priority": 50})])]);
    let b = fifo(Process::new("b")).program([step::sleep(5_000), forever([step::run(10_000)])]);
    let got = cpu_ms(vec![a, b], 100);
    assert_eq!((got[0].1, got[1].1), (100, 0), "a kept the CPU: {got:?}");
}

/// The same step with another priority is a change: 'a' (FIFO 50) makes itself FIFO 40 at 10 ms, below 'b'
/// (FIFO 45, waiting since 5 ms), which then holds the CPU.
#[test]
fn a_setattr_that_lowers_the_priority_gives_the_cpu_away() {
    let fifo = |p: Process, prio: u32| p.set("sched_policy", "fifo").set("rt_priority", prio);
    let a = fifo(Process::new("a"), 50).program([
        step::run(10_000),
        json!({"sched_setattr": "fifo", "rt_priority": 40}),
        forever([step::run(1_000)]),
    ]);
    let b = fifo(Process::new("b"), 45).program([step::sleep(5_000), forever([step::run(10_000)])]);
    let got = cpu_ms(vec![a, b], 100);
    assert_eq!((got[0].1, got[1].1), (10, 90), "b ran from a's change on: {got:?}");
}

/// A step's `nice` (sched_attr.sched_nice): 'a' makes itself nice 5 at once beside the nice-0 hog 'b', so it
/// weighs 335 against 1024 and gets 335/1359 of the CPU, about 246 ms of 1 s (CFS on 4.1, EEVDF on 6.12 alike).
#[test]
fn a_step_sets_the_nice_level() {
    for kernel in ["4.1", "6.12"] {
        let a =
            Process::new("a").program([json!({"sched_setattr": "normal", "nice": 5}), forever([step::run(10_000)])]);
        let mut sim = Scenario::new("setattr-nice", 1000)
            .set("kernel", kernel)
            .hz(1000)
            .autogroup(false)
            .free_costs()
            .machine("uniprocessor")
            .processes(vec![a, Process::hog("b", 10_000)])
            .sim();
        sim.run_to_end();
        let got: Vec<u64> = report(&sim).processes.iter().map(|p| p.cpu_time_ns / 1_000_000).collect();
        assert!((236..=256).contains(&got[0]), "{kernel}: a at nice 5 beside a nice-0 hog: {got:?}");
    }
    let e = refused(json!({"sched_setattr": "fifo", "rt_priority": 5, "nice": 3}), "4.1");
    assert!(e.contains("applies to sched_setattr 'normal' or 'batch' only"), "{e}");
}

//! EDF against fixed priorities on one CPU, with periodic tasks as rt-app
//! writes them (work, then a timer that sleeps to the next period's start,
//! released on the absolute grid as TIMER_ABSTIME releases them; a period
//! reached late is an overrun, the job having missed its implicit deadline). The set is worked by hand: 3 ms every 6 ms and 4 ms every 9 ms,
//! utilisation 0.944 (admitted: under 95 %). Rate-monotonic priorities give
//! the 6 ms task the higher priority, and the 9 ms task's worst response is
//! 4 + 2 × 3 = 10 ms > 9: it misses under SCHED_FIFO. EDF meets every deadline
//! of a set under 1 on one CPU: none misses under SCHED_DEADLINE.

use schedlab_core::api::report::report;
use serde_json::{json, Value};

use crate::common::scenario::{self as step, forever, Process, Scenario};

fn periodic(name: &str, c_us: u64, p_us: u64) -> Process {
    Process::new(name).program([forever([
        step::run(c_us),
        json!({ "timer": format!("unique-{name}"), "period_us": p_us, "timer_mode": "absolute" }),
    ])])
}

fn overruns(procs: Vec<Process>) -> Vec<(String, u64, u64)> {
    let mut sim = Scenario::new("edf-vs-rm", 1800)
        .hz(1000)
        .autogroup(false)
        .free_costs()
        .machine("uniprocessor")
        .processes(procs)
        .sim();
    sim.run_to_end();
    report(&sim).processes.into_iter().map(|p| (p.name, p.timer_overruns, p.cpu_time_ns / 1_000_000)).collect()
}

fn with(p: Process, fields: &[(&str, Value)]) -> Process {
    fields.iter().fold(p, |p, (k, v)| p.set(k, v.clone()))
}

#[test]
fn rate_monotonic_priorities_miss_where_edf_does_not() {
    let fifo = overruns(vec![
        with(periodic("t6", 3000, 6000), &[("sched_policy", json!("fifo")), ("rt_priority", json!(20))]),
        with(periodic("t9", 4000, 9000), &[("sched_policy", json!("fifo")), ("rt_priority", json!(10))]),
    ]);
    assert_eq!(fifo[0].1, 0, "the higher priority never misses: {fifo:?}");
    // Released together every 18 ms (the critical instant), the 9 ms task ends its job at 10 ms: one miss
    // per hyperperiod, 100 in 1.8 s.
    assert!(fifo[1].1 >= 90, "the 9 ms task misses under rate-monotonic priorities: {fifo:?}");
    let dl = |c: u64, p: u64| {
        vec![("sched_policy", json!("deadline")), ("dl_runtime_us", json!(c)), ("dl_deadline_us", json!(p))]
    };
    let edf = overruns(vec![
        with(periodic("t6", 3000, 6000), &dl(3000, 6000)),
        with(periodic("t9", 4000, 9000), &dl(4000, 9000)),
    ]);
    assert_eq!((edf[0].1, edf[1].1), (0, 0), "EDF meets every deadline: {edf:?}");
    // Each ran its whole demand: 300 jobs of 3 ms and 200 of 4 ms in 1.8 s.
    assert!(edf[0].2 >= 897 && edf[1].2 >= 796, "{edf:?}");
}

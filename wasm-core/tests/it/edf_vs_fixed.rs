//! EDF against fixed priorities on one CPU, with periodic tasks as rt-app
//! writes them (work, then a timer that sleeps to the next period's start,
//! released on the absolute grid as TIMER_ABSTIME releases them; a period
//! reached late is an overrun, the job having missed its implicit deadline).
//! The presets `edf-vs-fixed-priorities` (SCHED_DEADLINE) and
//! `edf-vs-fixed-priorities-rm` (SCHED_FIFO) run this set, worked by hand:
//!
//! ```text
//!   t6: C = 3 ms, T = D = 6 ms   U = 0.500
//!   t9: C = 4 ms, T = D = 9 ms   U = 0.444      total 0.944 (admitted: under 95 %)
//!
//!   Rate-monotonic bound for n = 2: n(2^(1/n) − 1) = 2(√2 − 1) = 0.828 < 0.944, so the
//!   bound promises nothing; response-time analysis decides. Priorities by period:
//!   t6 above t9. R9 = 4 + ⌈R9/6⌉·3: 4 → 7 → 10 → 10 (fixed point) > 9: t9 misses.
//!
//!   SCHED_FIFO, from the critical instant (both released at 0):
//!    0– 3 t6 job 1        3– 6 t9 (3 of 4 ms)   6 t6 job 2 preempts t9
//!    6– 9 t6              9 t9's deadline passes with 1 ms owed
//!    9–10 t9 ends; its timer step at 10 > 9: the first miss (deadline 9, seen at 10)
//!   10–12 t9 job 2 (absolute mode: its period began at 9, so it goes on at once)
//!   12–15 t6 job 3       15–17 t9 ends (due 18: met)   17–18 idle
//!   18: both released again; lcm(6, 9) = 18, so one miss per 18 ms: deadlines 9 + 18k,
//!   seen at 10 + 18k, 100 in 1.8 s, and 1 ms idle per 18 (100 ms).
//!
//!   SCHED_DEADLINE (runtime C, deadline = period T), EDF:
//!    0– 3 t6 (d 6)        3– 7 t9 (d 9; t6 wakes at 6 with d 12: later, no preemption)
//!    7–10 t6 (d 12)       9 t9 wakes, d 18
//!   10–14 t9 (d 18; t6 wakes at 12 with d 18: not earlier, no preemption)
//!   14–17 t6 (d 18)      17–18 idle; at 18 the same again. Every deadline met: EDF
//!   meets every deadline of a set whose utilisation is at most 1 on one CPU.
//! ```

use schedlab_core::api::report::report;
use schedlab_core::sim::misses::MissKind;
use schedlab_core::time::SimTime;
use serde_json::{json, Value};

use crate::common;
use crate::common::scenario::{self as step, forever, Process, Scenario};

fn periodic(name: &str, c_us: u64, p_us: u64) -> Process {
    Process::new(name).program([forever([
        step::run(c_us),
        json!({ "timer": format!("unique-{name}"), "period_us": p_us, "timer_mode": "absolute" }),
    ])])
}

fn overruns(procs: Vec<Process>) -> Vec<(String, u64, u64)> {
    let mut sim = Scenario::one_bare_cpu("edf-vs-rm", 1800).processes(procs).sim();
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

const MS: u64 = 1_000_000;

/// The presets: under rate-monotonic FIFO priorities each of t9's misses is one record at the deadline worked
/// above (9 + 18k ms, seen when the job ends at 10 + 18k); under SCHED_DEADLINE there is none.
#[test]
fn the_presets_record_each_miss_where_the_hand_work_puts_it() {
    let rm = common::run_preset("edf-vs-fixed-priorities-rm");
    let t9 = rm.processes().iter().find(|p| p.name == "t9").unwrap().threads[0];
    let log = rm.deadline_misses();
    let all: Vec<_> = log.overlapping(SimTime(0), SimTime(1800 * MS)).collect();
    assert_eq!((log.total(MissKind::Timer), log.total(MissKind::Deadline), all.len()), (100, 0, 100));
    for (k, m) in all.iter().enumerate() {
        let k = k as u64;
        assert_eq!((m.pid, m.cpu.0, m.kind), (t9, 0, MissKind::Timer));
        assert_eq!((m.deadline, m.at), (SimTime((9 + 18 * k) * MS), SimTime((10 + 18 * k) * MS)), "miss {k}");
    }
    // A window sees the miss whose lateness crosses it: [9, 10] ms holds the first.
    assert_eq!(log.overlapping(SimTime(9 * MS + 500_000), SimTime(9 * MS + 600_000)).count(), 1);
    let r = report(&rm);
    let late: Vec<_> = r.processes.iter().map(|p| (p.name.as_str(), p.timer_overruns, p.deadline_misses)).collect();
    assert_eq!(late, [("t6", 0, 0), ("t9", 100, 0)]);
    assert_eq!(r.cpus[0].idle_ns, 100 * MS, "1 ms idle per 18");

    let edf = common::run_preset("edf-vs-fixed-priorities");
    assert_eq!(edf.deadline_misses().total(MissKind::Timer) + edf.deadline_misses().total(MissKind::Deadline), 0);
    let r = report(&edf);
    let late: Vec<_> = r.processes.iter().map(|p| (p.name.as_str(), p.timer_overruns, p.deadline_misses)).collect();
    assert_eq!(late, [("t6", 0, 0), ("t9", 0, 0)]);
    // Each ran its whole demand: 300 jobs of 3 ms and 200 of 4 ms.
    assert_eq!(r.processes.iter().map(|p| p.cpu_time_ns / MS).collect::<Vec<_>>(), [900, 800]);
}

//! The deadline class in whole runs under 4.1, each worked out before the
//! run: EDF meets a set rate-monotonic priorities could not, the CBS holds a
//! hog to its bandwidth, the class comes before the real-time one, and
//! global EDF spreads reservations whose sum needs more than one CPU.

use crate::config::ProcessSpec;
use crate::program::{Dist, Op};
use crate::sched::policy::{DlParams, SchedPolicy};
use crate::sim::dl::state::DlState;
use crate::sim::misses::MissKind;
use crate::sim::test_config::{config, hog};
use crate::sim::Simulator;
use crate::time::SimTime;

const MS: u64 = 1_000_000;

fn dl(mut p: ProcessSpec, runtime_ms: u64, period_ms: u64) -> ProcessSpec {
    p.sched_policy = SchedPolicy::Deadline;
    p.dl = Some(DlParams {
        runtime_ns: runtime_ms * MS,
        deadline_ns: period_ms * MS,
        period_ns: period_ms * MS,
        reclaim: false,
    });
    p
}

/// Runs `c` ms of work, then sleeps the rest of its `p` ms period.
fn periodic(name: &str, c: u64, p: u64) -> ProcessSpec {
    let mut t = hog(name, MS, None);
    t.program = vec![Op::Repeat {
        times: None,
        body: vec![Op::Run(Dist::Fixed(c * MS)), Op::Sleep(Dist::Fixed((p - c) * MS))],
    }];
    t
}

fn run(cpus: u32, procs: Vec<ProcessSpec>, ms: u64) -> Simulator {
    let mut cfg = config(1, cpus, 1, 1000, false, procs);
    cfg.duration_ns = ms * MS;
    let mut sim = Simulator::new(&cfg);
    sim.set_index_check(true);
    sim.run_to_end();
    sim
}

fn ran_ms(sim: &Simulator, name: &str) -> u64 {
    sim.core.tasks.iter().find(|t| t.name == name).expect(name).se.sum_exec_runtime / MS
}

fn misses(sim: &Simulator) -> u64 {
    let st = sim.class_state::<DlState>().expect("the deadline class runs");
    st.ents.iter().flatten().map(|e| e.misses).sum()
}

/// 3 ms every 6 and 4 ms every 9 (utilisation 0.944): under rate-monotonic
/// priorities the second's response time is 4 + 2 × 3 = 10 ms > 9, but EDF on
/// one CPU meets every deadline of a set under 1.
#[test]
fn edf_meets_every_deadline_of_a_set_under_one() {
    let sim = run(1, vec![dl(periodic("t6", 3, 6), 3, 6), dl(periodic("t9", 4, 9), 4, 9)], 1800);
    assert_eq!(misses(&sim), 0);
    assert!(ran_ms(&sim, "t6") > 500 && ran_ms(&sim, "t9") > 500, "both ran");
}

/// The same detector on a set no CPU can serve (three of 4 ms every 6, built
/// past admission control, which would refuse it): deadlines pass with
/// runtime owed.
#[test]
fn an_oversubscribed_set_misses_deadlines() {
    let procs = (0..3).map(|i| dl(periodic(&format!("t{i}"), 4, 6), 4, 6)).collect();
    let sim = run(1, procs, 600);
    assert!(misses(&sim) > 10, "{} misses", misses(&sim));
    // Each miss is one record for the lanes: the task, its CPU, the deadline passed, seen after it.
    let log = sim.deadline_misses();
    assert_eq!(log.total(MissKind::Deadline), misses(&sim));
    assert_eq!(log.total(MissKind::Timer), 0);
    let records: Vec<_> = log.overlapping(SimTime(0), SimTime(600 * MS)).collect();
    assert_eq!(records.len() as u64, misses(&sim));
    let st = sim.class_state::<DlState>().unwrap();
    for r in &records {
        assert!(r.deadline < r.at && r.kind == MissKind::Deadline && r.cpu.0 == 0, "{r:?}");
        let owned = records.iter().filter(|o| o.pid == r.pid).count() as u64;
        assert_eq!(owned, st.ent(r.pid).misses, "{:?}'s records are its server's count", r.pid);
    }
}

/// A deadline hog reserving 10 ms per 100 ms beside a fair hog: the CBS
/// throttles it each time its runtime is spent (found at the tick) until the
/// replenishment at its deadline, so it gets about a tenth of the CPU.
#[test]
fn the_server_holds_a_hog_to_its_bandwidth() {
    let sim = run(1, vec![dl(hog("dl", 10_000 * MS, None), 10, 100), hog("fair", 10_000 * MS, None)], 1000);
    let d = ran_ms(&sim, "dl");
    assert!((100..=110).contains(&d), "the deadline hog ran {d} ms");
    assert!(ran_ms(&sim, "fair") >= 885);
}

/// The deadline class comes before the real-time class: a deadline task that
/// wakes every 10 ms preempts a FIFO hog at once.
#[test]
fn a_deadline_wakee_preempts_a_fifo_hog() {
    let mut fifo = hog("fifo", 10_000 * MS, None);
    fifo.sched_policy = SchedPolicy::Fifo;
    fifo.rt_priority = 99;
    let sim = run(1, vec![fifo, dl(periodic("tick", 1, 10), 2, 10)], 500);
    let t = sim.core.tasks.iter().find(|t| t.name == "tick").unwrap();
    assert_eq!(misses(&sim), 0);
    assert!(t.stats.wait_ns < 50 * 20_000, "waited {} ns in 50 wakeups", t.stats.wait_ns);
    assert!((48..=51).contains(&ran_ms(&sim, "tick")));
}

/// Three hogs of 60 ms per 100 ms on two CPUs (1.8 of 1.9 admitted): no CPU
/// can hold two, so global EDF must keep moving them; each gets its 60 %.
#[test]
fn global_edf_spreads_reservations_over_cpus() {
    let procs = (0..3).map(|i| dl(hog(&format!("d{i}"), 10_000 * MS, None), 60, 100)).collect();
    let sim = run(2, procs, 2000);
    for i in 0..3 {
        let r = ran_ms(&sim, &format!("d{i}"));
        assert!(r >= 1100, "d{i} ran {r} ms of its 1200");
    }
    assert!(sim.core.tasks.iter().map(|t| t.stats.migrations).sum::<u64>() > 10, "the tasks move");
}

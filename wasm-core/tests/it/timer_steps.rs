//! Steps measured by the wall clock (`sim/timer.rs`): a periodic timer sleeps
//! until its next period starts (rt-app's `timer`: clock_nanosleep with
//! TIMER_ABSTIME), counting the periods it reaches late; a busy loop spins
//! until a wall-clock time however long it waited for a CPU (rt-app's
//! `runtime`). Costs are off so the hand-worked times are exact.

use schedlab_core::api::report::{report, ProcessReport};
use schedlab_core::api::scenario::load_scenario;
use schedlab_core::sim::Simulator;
use serde_json::{json, Value};

use crate::common::scenario::{self as step, forever, repeat, Process, Scenario};

fn run(procs: Vec<Process>, machine: &str, ms: u64) -> Simulator {
    let mut sim = Scenario::new("timers", ms)
        .hz(1000)
        .autogroup(false)
        .bugs("linux-4.1-fixed")
        .free_costs()
        .machine(machine)
        .processes(procs)
        .sim();
    sim.run_to_end();
    sim
}

fn proc_report(sim: &Simulator, name: &str) -> ProcessReport {
    report(sim).processes.into_iter().find(|p| p.name == name).unwrap()
}

fn timer(name: &str, period_us: u64) -> Value {
    json!({ "timer": name, "period_us": period_us })
}

const MS: u64 = 1_000_000;

/// Mechanism: each timer step sleeps until the end of its period, counted
/// from the process's start, so 2 ms of work per 10 ms period ends its fifth
/// period at exactly 50 ms, having slept the rest.
#[test]
fn a_timer_wakes_the_thread_at_each_period_start() {
    let p = Process::new("periodic").start_ms(3).program([repeat(5, [step::run(2000), timer("tick", 10_000)])]);
    let sim = run(vec![p], "uniprocessor", 100);
    let r = proc_report(&sim, "periodic");
    assert_eq!(r.completion_ns, Some(50 * MS), "five periods from its start at 3 ms");
    assert_eq!(r.cpu_time_ns, 10 * MS);
    assert_eq!((r.nvcsw, r.timer_overruns), (5, 0));
}

/// Mechanism: a thread sharing the one CPU with a hog is preempted in its 5 ms
/// of work, so run + sleep stretches each period past 10 ms; run + timer
/// keeps the period, the timer's sleep absorbing the delay (rt-app's
/// tutorial figure).
#[test]
fn a_timer_keeps_its_period_where_a_sleep_drifts() {
    let periods = |last: Value| {
        let hog = Process::new("hog").program([forever([step::run(100_000)])]);
        let p = Process::new("p").program([repeat(20, [step::run(5000), last])]);
        let sim = run(vec![hog, p], "uniprocessor", 1000);
        let r = proc_report(&sim, "p");
        (r.completion_ns.expect("20 periods end within the run"), r.timer_overruns)
    };
    let (with_timer, overruns) = periods(timer("t", 10_000));
    let (with_sleep, _) = periods(step::sleep(5000));
    assert_eq!((with_timer, overruns), (200 * MS, 0), "the timer's periods stay 10 ms");
    assert!(with_sleep > with_timer + 20 * MS, "sleeps drift: {with_sleep} ns");
}

/// Mechanism: reached after its period ended, a timer step goes on at once
/// and counts an overrun; "relative" starts the next period at that late use,
/// "absolute" keeps the old reference and catches up. A 15 ms run against a
/// 10 ms period, then two 1 ms runs: relative ends at 15 + 10 + 10 = 35 ms,
/// absolute at 30 ms (its periods end at 20 and 30 ms).
#[test]
fn an_overrun_goes_on_at_once_and_the_mode_says_where_the_next_period_starts() {
    let ends = |mode: &str| {
        let t = json!({ "timer": "t", "period_us": 10_000, "timer_mode": mode });
        let p = Process::new("late").program([step::run(15_000), t.clone(), repeat(2, [step::run(1000), t])]);
        let r = proc_report(&run(vec![p], "uniprocessor", 100), "late");
        (r.completion_ns, r.timer_overruns)
    };
    assert_eq!(ends("relative"), (Some(35 * MS), 1));
    assert_eq!(ends("absolute"), (Some(30 * MS), 1));
}

/// Mechanism: a shared timer moves on by a period at each use by any thread,
/// so two threads using it take turns (10, 20, 30, 40 ms) where their own
/// timers would wake both every 10 ms: rt-app's "unique" prefix is there to
/// avoid exactly this.
#[test]
fn a_shared_timer_moves_on_at_each_use_by_any_thread() {
    let last_exit = |shared: bool| {
        let t = json!({ "timer": "t", "period_us": 10_000, "shared": shared });
        let p = Process::new("pair").threads(2).program([repeat(2, [t])]);
        proc_report(&run(vec![p], "laptop-2c4t", 100), "pair").completion_ns
    };
    assert_eq!(last_exit(false), Some(20 * MS));
    assert_eq!(last_exit(true), Some(40 * MS));
}

/// Mechanism: a busy loop ends at a wall-clock time: alone it takes its
/// length of CPU time; sharing the CPU with a hog it ends as soon (it runs at
/// once, is preempted, and is back on the CPU past its end), having run only
/// part of it, where the same amount of work (run_us) ends 8 ms later.
#[test]
fn a_busy_loop_ends_by_the_wall_clock_however_long_it_waited() {
    let alone =
        proc_report(&run(vec![Process::new("b").program([json!({ "busy_us": 10_000 })])], "uniprocessor", 50), "b");
    // It begins when it first runs: 1 ns in (a step reached on waking is made by running).
    assert_eq!((alone.completion_ns, alone.cpu_time_ns), (Some(10 * MS + 1), 10 * MS + 1));
    let shared = |last: Value| {
        let hog = Process::new("hog").program([forever([step::run(100_000)])]);
        let p = Process::new("b").program([last]);
        proc_report(&run(vec![hog, p], "uniprocessor", 100), "b")
    };
    let busy = shared(json!({ "busy_us": 10_000 }));
    let work = shared(step::run(10_000));
    assert_eq!(busy.completion_ns, Some(10 * MS + 1));
    assert_eq!(busy.cpu_time_ns, 6 * MS + 1, "it ran only part of the 10 ms");
    assert_eq!(work.completion_ns, Some(18 * MS), "the same work, all of it run");
}

/// A timer step needs its period, and a timer's keys need a timer.
#[test]
fn timer_steps_are_checked() {
    let problems = |steps: Value| {
        let p = Process::new("p").program(steps.as_array().unwrap().clone());
        let text = Scenario::new("t", 10).machine("uniprocessor").process(p).build();
        load_scenario(&text).unwrap_err().into_iter().map(|d| format!("{}: {}", d.field, d.reason)).collect::<Vec<_>>()
    };
    let e = problems(json!([{ "timer": "t" }]));
    assert!(e[0].starts_with("processes[0].program[0].period_us: a timer needs its period"), "{e:?}");
    let e = problems(json!([{ "timer": "t", "period_us": 0 }]));
    assert!(e[0].starts_with("processes[0].program[0].period_us:"), "{e:?}");
    let e = problems(json!([{ "timer": "t", "period_us": 5, "timer_mode": "late" }]));
    assert!(e[0].contains("timer_mode: unknown mode 'late' (known: relative, absolute)"), "{e:?}");
    let e = problems(json!([{ "run_us": 5, "period_us": 5 }]));
    assert!(e[0].contains("program[0].period_us: only allowed together with timer"), "{e:?}");
    // A loop of nothing but a timer takes time: each period after the first is slept.
    let p = Process::new("p").program([forever([timer("t", 1000)])]);
    assert!(load_scenario(&Scenario::new("t", 10).machine("uniprocessor").process(p).build()).is_ok());
}

/// The run's cost estimate counts a timer as the sleep that fills its period
/// (`api::scenario::limits`): within the factor the presets are held to.
#[test]
fn the_estimate_counts_a_timer_as_the_rest_of_its_period() {
    let cfg = Scenario::new("periodic", 2000)
        .machine("laptop-2c4t")
        .process(Process::new("p").threads(16).program([forever([step::run(1000), timer("t", 10_000)])]))
        .config();
    let est = schedlab_core::api::scenario::limits::estimate(&cfg).total() as f64;
    let mut sim = Simulator::new(&cfg);
    sim.run_to_end();
    let ratio = est / sim.events_processed() as f64;
    assert!((0.5..=4.5).contains(&ratio), "estimated {est}, took {} ({ratio:.2}x)", sim.events_processed());
}

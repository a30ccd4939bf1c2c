//! Thread synchronisation in task programs: futex wait/wake (pipe
//! ping-pong), barriers that spin then block, mutexes, sched_yield.

use schedlab_core::api::report::report;
use schedlab_core::sim::Simulator;
use serde_json::json;

use crate::common::scenario::{self as step, parse_processes, repeat, Process, Scenario};

fn run(machine: &str, procs: Vec<Process>, ms: u64) -> Simulator {
    // Costs off (threads start together): these tests count the work itself.
    let mut sim = Scenario::new("sync", ms)
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

fn proc_report(sim: &Simulator, name: &str) -> schedlab_core::api::report::ProcessReport {
    report(sim).processes.into_iter().find(|p| p.name == name).unwrap()
}

/// Mechanism: each side blocks in wait (a voluntary switch) and is woken by
/// the other (try_to_wake_up from the waker's CPU), like `perf bench sched pipe`.
#[test]
fn pipe_ping_pong_alternates_and_switches_voluntarily() {
    let procs = r#"{"name":"ping","cpus":"0","program":[{"body":[{"run_us":5},{"wake":"pong"},{"wait":true}]}]},
                   {"name":"pong","cpus":"0","program":[{"body":[{"wait":true},{"run_us":5},{"wake":"ping"}]}]}"#;
    let sim = run("laptop-2c4t", parse_processes(procs), 100);
    let (ping, pong) = (proc_report(&sim, "ping"), proc_report(&sim, "pong"));
    // About 100 ms / 10 µs round trips; each side blocks once per round trip.
    assert!(ping.nvcsw > 5_000 && pong.nvcsw > 5_000, "ping {} pong {}", ping.nvcsw, pong.nvcsw);
    assert!(ping.nvcsw.abs_diff(pong.nvcsw) <= 2, "they alternate: {} vs {}", ping.nvcsw, pong.nvcsw);
    assert!(ping.nivcsw < ping.nvcsw / 100, "switches are voluntary");
}

/// Mechanism: a spinning waiter keeps its CPU busy until the barrier opens;
/// a blocking one gives it up. Six threads share two CPUs and meet at a
/// barrier after each 1 ms phase: spinners hold the CPUs that the threads
/// still working need, so the run uses more CPU and takes longer.
#[test]
fn barrier_spinners_burn_cpu_and_blockers_do_not() {
    let app = |spin: u32| {
        let phases = repeat(20, [step::run(1000), json!({ "barrier": "phase", "spin_us": spin })]);
        vec![Process::new("app").threads(6).cpus("0-1").program([phases])]
    };
    let spin = run("laptop-2c4t", app(100_000), 400);
    let block = run("laptop-2c4t", app(0), 400);
    let (s, b) = (proc_report(&spin, "app"), proc_report(&block, "app"));
    assert!(s.completion_ns.is_some() && b.completion_ns.is_some(), "both finish their 20 phases");
    // Blocking: CPU time is just the work, 6 threads × 20 × 1 ms.
    assert!((b.cpu_time_ns as i64 - 120_000_000).abs() < 2_000_000, "blocking cpu {}", b.cpu_time_ns);
    // Spinning: waiters burn CPU while others still work, so more CPU is used
    // and the phases take longer (spinners hold the two CPUs).
    assert!(s.cpu_time_ns > b.cpu_time_ns + 20_000_000, "spin cpu {} vs block {}", s.cpu_time_ns, b.cpu_time_ns);
    assert!(s.completion_ns.unwrap() > b.completion_ns.unwrap(), "spinning is slower here");
}

/// Mechanism: a mutex serialises critical sections: two threads on two CPUs
/// doing 10 × 1 ms under one lock need at least 20 ms.
#[test]
fn a_mutex_serialises_critical_sections() {
    let procs =
        r#"{"name":"m","threads":2,"program":[{"repeat":10,"body":[{"lock":"l"},{"run_us":1000},{"unlock":"l"}]}]}"#;
    let sim = run("laptop-2c4t", parse_processes(procs), 100);
    let m = proc_report(&sim, "m");
    // Each wakeup costs the 1 ns the woken task needs to run its system call.
    assert!(m.cpu_time_ns.abs_diff(20_000_000) < 1_000, "cpu {}", m.cpu_time_ns);
    assert!(m.completion_ns.unwrap() >= 20_000_000, "completion {:?}", m.completion_ns);
    assert!(m.nvcsw > 0, "the loser blocks");
}

/// Mechanism: sched_yield makes the caller the skip buddy and reschedules;
/// the other task is picked only while its vruntime is within the wakeup
/// granularity of the yielder's, so CFS stays fair by vruntime.
#[test]
fn yield_gives_the_cpu_away_but_stays_fair() {
    let procs = r#"{"name":"yielder","cpus":"0","program":[{"body":[{"run_us":100},{"yield":true}]}]},
                   {"name":"hog","cpus":"0","program":[{"body":[{"run_us":100000}]}]}"#;
    let sim = run("laptop-2c4t", parse_processes(procs), 1000);
    let (y, h) = (proc_report(&sim, "yielder"), proc_report(&sim, "hog"));
    assert!(y.nivcsw > 10, "some yields hand the CPU over: {}", y.nivcsw);
    let share = y.cpu_time_ns as f64 / (y.cpu_time_ns + h.cpu_time_ns) as f64;
    assert!((0.3..0.7).contains(&share), "yielder share {share}");
}

/// Mechanism: a job pool shared by the process's threads (make's job
/// server): workers take jobs until none is left, then exit, so the work
/// done is the pool's, however the threads are scheduled.
#[test]
fn a_job_pool_is_shared_and_drained() {
    let procs = r#"{"name":"make","threads":4,"job_pool":10,"program":[{"body":[{"take_job":true},{"run_us":1000}]}]}"#;
    let sim = run("laptop-2c4t", parse_processes(procs), 100);
    let m = proc_report(&sim, "make");
    assert!(m.cpu_time_ns.abs_diff(10_000_000) < 1_000, "ten 1 ms jobs: {}", m.cpu_time_ns);
    assert!(m.completion_ns.is_some(), "every worker exits when the pool is empty");
}

/// Mechanism: fork() starts children in the parent's process, placed by
/// wake_up_new_task from the parent's CPU; wait() blocks until one exits.
#[test]
fn fork_and_wait_keep_n_children_in_flight() {
    let procs = r#"{"name":"make","program":[
        {"repeat":4,"body":[{"fork":[{"run_us":5000}]}]},
        {"repeat":8,"body":[{"wait_child":true},{"fork":[{"run_us":5000}]}]},
        {"repeat":4,"body":[{"wait_child":true}]}]}"#;
    let sim = run("laptop-2c4t", parse_processes(procs), 200);
    let m = proc_report(&sim, "make");
    assert_eq!(m.threads, 13, "make plus 12 children");
    assert!(m.cpu_time_ns.abs_diff(60_000_000) < 100_000, "12 jobs of 5 ms: {}", m.cpu_time_ns);
    // Four CPUs, four jobs in flight: three rounds of 5 ms.
    let done = m.completion_ns.unwrap();
    assert!((15_000_000..17_000_000).contains(&done), "completion {done}");
}

//! SCHED_BATCH and SCHED_IDLE under Linux 6.12, on hand-worked cases.
//!
//! A batch wakee never preempts at wakeup (`check_preempt_wakeup_fair`, fair.c
//! 8925–8929 of 6.12: "BATCH and IDLE tasks do not preempt others"), where a
//! normal one may: one CPU, HZ 1000, a fair hog beside a sleeper that runs
//! 50 µs every 10 ms with a 100 µs slice. Normal, the sleeper's shorter slice
//! preempts the hog at once (PREEMPT_SHORT: eligible, with the earlier
//! deadline); batch, it waits for the hog's next tick at least.
//!
//! SCHED_IDLE weighs 3 (WEIGHT_IDLEPRIO), is preempted by any non-idle wakee at
//! once, and a CPU running only SCHED_IDLE tasks counts as idle for placement
//! (`sched_idle_cpu` in `select_idle_sibling`, fair.c 7960–8000).

use crate::common::scenario::{self as step, forever, Process, Scenario};
use schedlab_core::api::report::report;
use schedlab_core::sim::Simulator;

fn sleeper_p50_us(policy: &str) -> u64 {
    let sleeper = Process::new("sleeper")
        .set("sched_policy", policy)
        .set("slice_us", 100)
        .program([forever([step::run(50), step::sleep(10_000)])]);
    let mut sim = Scenario::one_bare_cpu("batch-612", 2000)
        .set("kernel", "6.12")
        .processes([sleeper, Process::hog("hog", 1_000_000)])
        .sim();
    sim.run_to_end();
    let r = report(&sim);
    r.processes[0].wakeup_latency_ns.expect("the sleeper woke")[0] / 1000
}

#[test]
fn a_batch_wakee_waits_where_a_normal_one_preempts() {
    let (normal, batch) = (sleeper_p50_us("normal"), sleeper_p50_us("batch"));
    assert!(normal < 20, "a normal wakee with a shorter slice preempts at once: {normal} µs");
    assert!(batch > 100, "a batch wakee waits for the running task's tick: {batch} µs");
}

fn run_612(ms: u64, machine: (u32, u32), procs: Vec<Process>) -> Simulator {
    let mut sim = Scenario::new("policies-612", ms)
        .set("kernel", "6.12")
        .hz(1000)
        .autogroup(false)
        .free_costs()
        .topology(1, machine.0, machine.1)
        .processes(procs)
        .sim();
    sim.run_to_end();
    sim
}

/// WEIGHT_IDLEPRIO is 3: beside a nice-0 hog (1024) the idle-policy hog's share is about 3 / 1027 of a CPU.
#[test]
fn an_idle_policy_hog_weighs_three() {
    let sim = run_612(
        2000,
        (1, 1),
        vec![Process::hog("normal", 1_000_000), Process::hog("idle", 1_000_000).set("sched_policy", "idle")],
    );
    let r = report(&sim);
    let idle_ms = r.processes[1].cpu_time_ns / 1_000_000;
    assert!((1..=20).contains(&idle_ms), "the idle-policy hog ran {idle_ms} ms in 2 s");
}

/// Two cores: CPU 0 runs a normal hog, CPU 1 an idle-policy hog, each pinned. A normal sleeper woken by a timer
/// is placed on CPU 1, which `sched_idle_cpu` makes count as idle, and preempts the idle hog at once.
#[test]
fn a_cpu_running_only_sched_idle_tasks_counts_as_idle() {
    let sleeper = Process::new("sleeper").program([forever([step::run(1_000), step::sleep(9_000)])]);
    let sim = run_612(
        1000,
        (2, 1),
        vec![
            Process::hog("normal", 1_000_000).cpus("0"),
            Process::hog("idle", 1_000_000).cpus("1").set("sched_policy", "idle"),
            sleeper,
        ],
    );
    let pid = sim.tasks().iter().position(|t| t.name == "sleeper").expect("the sleeper");
    let on = |cpu: u32| -> u64 {
        sim.trace()
            .slices_since(0)
            .iter()
            .filter(|s| s.pid.idx() == pid && s.cpu.0 == cpu)
            .map(|s| s.end.ns() - s.start.ns())
            .sum()
    };
    let (cpu0, cpu1) = (on(0), on(1));
    // Without the rule both CPUs are busy alike and its wakeups stay on its previous CPU, CPU 0 after its fork;
    // with it, each wakeup's scan of the LLC finds CPU 1 (the balancer may still move it back now and then).
    assert!(cpu1 > 50_000_000 && cpu1 > 4 * cpu0, "the sleeper runs on the SCHED_IDLE CPU: {cpu0} vs {cpu1} ns");
    let p50 = report(&sim).processes[2].wakeup_latency_ns.expect("it woke")[0];
    assert!(p50 < 20_000, "it preempts the idle-policy hog at once: p50 {p50} ns");
}

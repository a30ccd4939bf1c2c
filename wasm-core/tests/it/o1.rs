//! The O(1) scheduler (policy "o1", kernel-model.md 5) on one CPU: its
//! timeslices, the sleep_avg bonus, the expired array and starvation
//! protection. (The timeslice table itself is a unit test in `sched::o1`.)

use crate::common::scenario::{forever, run, sleep, Process, Scenario};
use schedlab_core::api::scenario::load_scenario;
use schedlab_core::sched::o1::{static_prio, task_interactive, O1State};
use schedlab_core::sim::Simulator;
use schedlab_core::task::TaskState;
use schedlab_core::time::{CpuId, Pid};

fn sim(processes: Vec<Process>, duration_ms: u64) -> Simulator {
    Scenario::new("o1", duration_ms)
        .hz(1000)
        .autogroup(false)
        .machine("uniprocessor")
        .policy("o1")
        .processes(processes)
        .sim()
}

/// A 100 ms slice at a time, forever.
fn hog(name: &str) -> Process {
    Process::hog(name, 100_000)
}

/// Mechanism: sleep time raises sleep_avg (bonus up to −5 prio), run time
/// lowers it, so a task that runs 1 ms per 10 ms reaches prio 115 and is
/// TASK_INTERACTIVE, while a hog sinks to 125.
#[test]
fn interactive_sleeper_keeps_a_better_dynamic_prio_than_a_hog() {
    let mut s = sim(vec![hog("hog"), Process::new("sleeper").program([forever([run(1000), sleep(9000)])])], 3000);
    s.run_to_end();
    let (hog, sleeper) = (
        s.class_state::<O1State>().and_then(|o| o.tasks.get(Pid(0).idx())).unwrap().clone(),
        s.class_state::<O1State>().and_then(|o| o.tasks.get(Pid(1).idx())).unwrap().clone(),
    );
    assert_eq!(hog.prio, 125, "hog sleep_avg {} ns", hog.sleep_avg_ns);
    assert!(sleeper.prio <= 116, "sleeper prio {} (sleep_avg {} ns)", sleeper.prio, sleeper.sleep_avg_ns);
    assert!(task_interactive(sleeper.prio, static_prio(0), 0));
    assert!(!task_interactive(hog.prio, static_prio(0), 0));
    let t = &s.tasks()[1];
    assert_eq!(t.stats.nivcsw, 0, "the sleeper is never preempted");
}

/// Mechanism: a hog whose timeslice runs out moves to the expired array and
/// does not run again until the active array is empty and the two swap; two
/// nice-0 hogs therefore take 100 ms turns, one array switch per round.
#[test]
fn expired_hogs_wait_for_the_array_switch() {
    let mut s = sim(vec![hog("a"), hog("b")], 2000);
    s.run_to_end();
    let slices: Vec<u64> =
        s.trace().slices.iter().filter(|r| r.pid <= Pid(1)).map(|r| r.end.ns() - r.start.ns()).collect();
    assert!(slices.len() >= 18, "{} turns", slices.len());
    for len in &slices[..slices.len() - 1] {
        assert!((99_000_000..=101_000_000).contains(len), "a turn lasted {len} ns, not one 100 ms timeslice");
    }
    let switches = s.class_state::<O1State>().map(|o| &o.rqs[CpuId(0).idx()]).unwrap().switches;
    assert!((9..=11).contains(&switches), "{switches} array switches in 2 s");
}

/// Mechanism: an interactive task whose slice runs out is put back into the
/// *active* array, so it can keep an expired hog waiting — until
/// EXPIRED_STARVING (the first expiry is STARVATION_LIMIT × nr_running = 3 s
/// old) sends it to the expired array although it is still interactive. Here
/// a nice −20 task that slept 1.75 s (interactive: sleep_avg 900 ms) turns
/// into a CPU hog beside two nice-0 hogs, waking during the second hog's
/// turn, when the first has already expired. That expired hog does not run
/// before the arrays switch.
#[test]
fn starvation_protection_expires_an_interactive_task() {
    let mut s = sim(
        vec![hog("h"), hog("y"), Process::new("x").nice(-20).program([sleep(1_750_000), forever([run(100_000)])])],
        8000,
    );
    while s.tasks()[2].state != TaskState::Running {
        assert!(s.step_event());
    }
    let rq = s.class_state::<O1State>().map(|o| &o.rqs[CpuId(0).idx()]).unwrap();
    let expired: Vec<Pid> = rq.expired().queue.iter().flatten().copied().collect();
    assert_eq!(expired, vec![Pid(0)], "hog h has expired, y was preempted mid-slice");
    let (since, switches) = (s.now().ns(), rq.switches);
    // Step until x lands in the expired array.
    loop {
        assert!(s.step_event(), "x was never expired");
        let rq = s.class_state::<O1State>().map(|o| &o.rqs[CpuId(0).idx()]).unwrap();
        assert!(
            rq.switches > switches || s.tasks()[0].state != TaskState::Running,
            "the expired hog ran before the array switch"
        );
        let x = s.class_state::<O1State>().and_then(|o| o.tasks.get(Pid(2).idx())).unwrap();
        if x.array.is_some_and(|a| a != rq.active) {
            let after = s.now().ns() - since;
            assert!(
                task_interactive(x.prio, static_prio(-20), -20),
                "still interactive (prio {}): starvation, not decay",
                x.prio
            );
            assert!((3_000_000_000..3_900_000_000).contains(&after), "expired after {after} ns of running");
            break;
        }
    }
}

/// Mechanism (preset o1-vs-cfs): O(1) hands out 100 ms timeslices where CFS
/// slices the 6 ms latency target, and the editor's sleep_avg bonus lets its
/// wakeups preempt the hogs at once (after its first wakeup, when it has no
/// sleep history yet).
#[test]
fn o1_vs_cfs_preset_shows_long_timeslices_and_the_interactivity_bonus() {
    let rows = schedlab_core::api::sweep::preset::o1_vs_cfs_sweep();
    let row = |policy: &str, process: &str| rows.iter().find(|r| r.policy == policy && r.process == process).unwrap();
    assert!(row("o1", "hog-a").longest_turn_ms > 99.0 && row("cfs", "hog-a").longest_turn_ms < 10.0, "{rows:?}");
    // A wakeup latency includes the switch into the task: above it, the wakee queued.
    let switch_us = schedlab_core::config::CostModel::defaults().context_switch_ns as f64 / 1e3;
    assert!(row("o1", "editor").wakeup_p99_us <= switch_us, "{rows:?}");
    assert!(row("cfs", "editor").wakeup_p99_us > switch_us, "{rows:?}");
}

/// Mechanism: O(1) balancing by nr_running. Eight threads that begin by
/// sleeping wake where they were created (CPU 0); idle CPUs, finding CPU 0
/// more than imbalance_pct busier, pull from its arrays until each of the
/// four CPUs runs two.
#[test]
fn nr_running_balancing_spreads_a_pile_of_tasks() {
    let text = r#"{"version":1,"name":"o1-smp","duration_ms":2000,"hz":1000,"autogroup":false,
        "machine":{"preset":"laptop-2c4t"},"policy":{"kind":"o1"},
        "processes":[{"name":"w","threads":8,"program":[{"sleep_us":10000},{"body":[{"run_us":100000}]}]}]}"#;
    let mut s = Simulator::new(&load_scenario(text).unwrap());
    s.run_to_end();
    let moved: u64 = s.tasks().iter().map(|t| t.stats.migrations).sum();
    assert!(moved >= 6, "six of the eight had to leave CPU 0: {moved} migrations");
    let per_cpu: Vec<u32> = s.rqs().iter().map(|rq| rq.nr_running()).collect();
    assert_eq!(per_cpu, vec![2, 2, 2, 2]);
    for t in s.tasks() {
        let ms = t.se.sum_exec_runtime as f64 / 1e6;
        assert!(ms > 700.0, "{} ran {ms} ms of 2 s on a fair half CPU", t.name);
    }
}

//! The kernel's preemption model in 4.1.15's `detach_tasks`: only a
//! CONFIG_PREEMPT kernel stops a newly-idle pass after its first task;
//! distributions ship CONFIG_PREEMPT_VOLUNTARY, which the scenario's
//! `preempt` defaults to.
//!
//! Hand-worked case: on the laptop with core 1 offline, a nice -20 task pinned
//! to CPU 1 weighs so much that four hogs started beside it all stay on CPU 0;
//! at 100 ms it exits and CPU 1 balances newly idle at the SMT level. The
//! sibling group holds about 4 × 1024 of load, so calculate_imbalance asks for
//! about half, about 2 × 1024 (2045): under "voluntary" detach_tasks takes a
//! task (load/2 ≤ imbalance), then a second (the rest, about 1024, still
//! covers half of one), and stops when the imbalance is spent; under "full"
//! it stops after the first.

use crate::common::scenario::{run, Process, Scenario};
use schedlab_core::api::scenario::load_scenario;
use schedlab_core::balance::decision::Outcome;
use schedlab_core::balance::IdleType;
use schedlab_core::time::{CpuId, SimTime};
use serde_json::json;

fn first_newidle_pull(preempt: &str) -> (usize, u64) {
    let mut sim = Scenario::new("newidle", 120)
        .hz(1000)
        .bugs("linux-4.1-fixed")
        .autogroup(false)
        .preempt(preempt)
        .machine("laptop-2c4t")
        .cpu_offline(0, 2)
        .cpu_offline(0, 3)
        .process(Process::new("blocker").nice(-20).cpus("1").program([run(100_000), json!({ "exit": true })]))
        .process(Process::hog("hog", 1_000_000).threads(4).cpus("0-1").start_ms(1))
        .sim();
    sim.run_until(SimTime(120_000_000));
    let d = sim
        .decisions()
        .iter()
        .find(|d| d.cpu == CpuId(1) && d.idle == IdleType::NewlyIdle && d.at.ns() >= 100_000_000)
        .expect("CPU 1 balances newly idle once online");
    match &d.outcome {
        Outcome::Moved { tasks, from } => {
            assert_eq!(*from, CpuId(0));
            (tasks.len(), d.imbalance)
        }
        o => panic!("{o:?}"),
    }
}

#[test]
fn a_newly_idle_pass_stops_after_one_task_only_under_config_preempt() {
    let (voluntary, imbalance) = first_newidle_pull("voluntary");
    assert!((1800..2200).contains(&imbalance), "about half of 4 × 1024: {imbalance}");
    assert_eq!(voluntary, 2, "voluntary: the imbalance takes two tasks");
    assert_eq!(first_newidle_pull("full").0, 1, "CONFIG_PREEMPT: one task");
    // The default is what distributions ship.
    let default = load_scenario(r#"{"version":1,"name":"d","duration_ms":1,"machine":{"preset":"uniprocessor"},"processes":[{"name":"p","program":[{"run_us":1}]}]}"#).unwrap();
    assert_eq!(default.preempt, schedlab_core::config::PreemptModel::Voluntary);
}

#[test]
fn an_unknown_preemption_model_is_refused_with_the_choices() {
    let e = load_scenario(r#"{"version":1,"name":"d","duration_ms":1,"preempt":"rt","machine":{"preset":"uniprocessor"},"processes":[{"name":"p","program":[{"run_us":1}]}]}"#)
        .unwrap_err();
    assert!(e.iter().any(|d| d.to_string().contains("preempt") && d.to_string().contains("voluntary")), "{e:?}");
}

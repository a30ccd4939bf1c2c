//! Priority inversion, and inheritance bounding it, on one CPU under 4.1,
//! worked by hand. 'low' (SCHED_OTHER) takes mutex m at 0 and holds it for
//! 20 ms of work; 'high' (FIFO 90) starts at 5 ms, wants m, then works 1 ms;
//! 'medium' (FIFO 50) starts at 6 ms and works 200 ms without the mutex.
//! - No protocol: high sleeps on m; at 6 ms medium preempts low (a real-time
//!   task beats the fair class) and runs its 200 ms, under the 950 ms of
//!   real-time runtime a second; low ends its section at about 221 ms and
//!   high ends at about 222 ms: it waited for medium, which it outranks.
//! - Inherit: from 5 ms low runs at high's prio, so medium, less urgent,
//!   cannot preempt it; low unlocks at about 20 ms, its prio falls back,
//!   high takes m and ends at about 21 ms. Its wait is bounded by what was
//!   left of low's section (15 ms), and medium runs after.

use schedlab_core::api::report::report;
use serde_json::json;

use crate::common::scenario::{self as step, Process, Scenario};

/// (name, completion ms since its start) of each process; `protocol` is the mutexes'.
fn inversion(protocol: &str) -> Vec<(String, u64)> {
    // One address space, as rt-app's threads share one: a mutex is named within it.
    let low = Process::new("low").set("address_space", "app").program([
        json!({"lock": "m"}),
        step::run(20_000),
        json!({"unlock": "m"}),
    ]);
    let high = Process::new("high")
        .set("address_space", "app")
        .start_ms(5)
        .set("sched_policy", "fifo")
        .set("rt_priority", 90)
        .program([json!({"lock": "m"}), step::run(1000), json!({"unlock": "m"})]);
    let medium = Process::new("medium")
        .set("address_space", "app")
        .start_ms(6)
        .set("sched_policy", "fifo")
        .set("rt_priority", 50)
        .program([step::run(200_000)]);
    let mut sim =
        Scenario::one_bare_cpu("pi", 400).set("mutex_protocol", protocol).processes([low, high, medium]).sim();
    sim.run_to_end();
    report(&sim)
        .processes
        .into_iter()
        .map(|p| (p.name, p.completion_ns.expect("every process ends in the run") / 1_000_000))
        .collect()
}

fn completion(of: &[(String, u64)], name: &str) -> u64 {
    of.iter().find(|(n, _)| n == name).map(|&(_, ms)| ms).unwrap()
}

#[test]
fn without_inheritance_the_high_task_waits_for_the_medium_one() {
    let got = inversion("none");
    // high started at 5 ms; it ends after medium's 200 ms and the rest of low's section.
    let high = completion(&got, "high");
    assert!(high >= 200 + 14, "high is held up by medium, which it outranks: {got:?}");
    assert!(completion(&got, "medium") <= 201, "medium ran at once and to its end: {got:?}");
}

#[test]
fn inheritance_bounds_the_high_tasks_wait_by_the_critical_section() {
    let got = inversion("inherit");
    // high waits at most for what is left of low's 20 ms section (15 ms), then works 1 ms.
    let high = completion(&got, "high");
    assert!((15..=17).contains(&high), "high waits for low's section only: {got:?}");
    // low ends its section at high's prio, before medium runs.
    assert!(completion(&got, "low") <= 21, "{got:?}");
    // medium starts after high is done: 6 + its wait + 200 ms.
    assert!(completion(&got, "medium") >= 200 + 14, "{got:?}");
}

#[test]
fn a_mutex_protocol_is_none_or_inherit() {
    let text = Scenario::new("pi", 10)
        .machine("uniprocessor")
        .set("mutex_protocol", "ceiling")
        .processes([Process::hog("a", 1000)])
        .build();
    let err = schedlab_core::api::scenario::load_scenario(&text).unwrap_err();
    assert!(format!("{err:?}").contains("mutex_protocol"), "{err:?}");
}

/// A chain: 'high' waits for b, held by 'mid', which waits for a, held by 'low'. The boost passes along it
/// (`rt_mutex_adjust_prio_chain`): low runs at high's prio, so 'hog' (FIFO 50, above mid's own 30) cannot
/// preempt it. low ends its 30 ms section at about 30 ms, mid takes a, works 1 ms and unlocks both, and high
/// ends at about 32 ms. Were the boost to stop at the first link, low would run at mid's prio (69), the hog
/// would preempt it at 5 ms, and high would wait past the hog's 100 ms.
#[test]
fn a_boost_passes_along_a_chain_of_owners() {
    let lock = |m: &str| json!({ "lock": m });
    let unlock = |m: &str| json!({ "unlock": m });
    let rt = |p: Process, prio: u32| p.set("address_space", "app").set("sched_policy", "fifo").set("rt_priority", prio);
    let procs = [
        Process::new("low").set("address_space", "app").program([lock("a"), step::run(30_000), unlock("a")]),
        rt(Process::new("mid").start_ms(2), 30).program([
            lock("b"),
            lock("a"),
            step::run(1000),
            unlock("a"),
            unlock("b"),
        ]),
        rt(Process::new("high").start_ms(4), 90).program([lock("b"), step::run(1000), unlock("b")]),
        rt(Process::new("hog").start_ms(5), 50).program([step::run(100_000)]),
    ];
    let mut sim = Scenario::one_bare_cpu("pi-chain", 300).set("mutex_protocol", "inherit").processes(procs).sim();
    sim.run_to_end();
    let done: Vec<(String, u64)> =
        report(&sim).processes.into_iter().map(|p| (p.name, p.completion_ns.unwrap() / 1_000_000)).collect();
    // high started at 4 ms and ends at about 33 ms: 29 ms after its start.
    let high = completion(&done, "high");
    assert!((27..=30).contains(&high), "the boost reached low through mid: {done:?}");
    assert!(completion(&done, "hog") >= 100 + 26, "the hog waited for the chain: {done:?}");
}

//! Condition variables (`sim/condvar.rs`: pthread_cond_wait, _signal,
//! _broadcast) and address spaces shared by processes (the threads of one
//! rt-app run): their mutexes, condition variables and barriers are one
//! object per name. Costs are off so the hand-worked times are exact.

use schedlab_core::api::report::{report, ProcessReport};
use schedlab_core::api::scenario::load_scenario;
use schedlab_core::sim::Simulator;
use serde_json::{json, Value};

use crate::common::scenario::{self as step, repeat, Process, Scenario};

const MS: u64 = 1_000_000;
/// What a system call reached on waking costs: the 1 ns the task must run to make it.
const CALL: u64 = 1;

fn run(procs: Vec<Process>, ms: u64) -> Simulator {
    let mut sim = Scenario::new("conds", ms)
        .hz(1000)
        .autogroup(false)
        .bugs("linux-4.1-fixed")
        .free_costs()
        .machine("laptop-2c4t")
        .processes(procs)
        .sim();
    sim.run_to_end();
    sim
}

fn proc_report(sim: &Simulator, name: &str) -> ProcessReport {
    report(sim).processes.into_iter().find(|p| p.name == name).unwrap()
}

fn lock(m: &str) -> Value {
    json!({ "lock": m })
}
fn unlock(m: &str) -> Value {
    json!({ "unlock": m })
}
fn wait(cond: &str, mutex: &str) -> Value {
    json!({ "cond_wait": cond, "mutex": mutex })
}
fn signal(cond: &str) -> Value {
    json!({ "cond_signal": cond })
}
fn broadcast(cond: &str) -> Value {
    json!({ "cond_broadcast": cond })
}
fn in_space(p: Process) -> Process {
    p.set("address_space", "app")
}

/// Mechanism: a waiter sleeps until a signal; the signaller holds the mutex
/// for 2 ms more, so the woken waiter goes on only at the unlock (it waits in
/// the mutex's queue, not awake). The producer's rounds take 7 ms (a 5 ms
/// sleep, then 2 ms holding the mutex): the consumer's last 1 ms of work ends
/// at 21 + 1 = 22 ms, and it slept through every 2 ms the signaller held on.
#[test]
fn a_signal_wakes_the_waiter_which_goes_on_once_it_holds_the_mutex_again() {
    let consumer = in_space(
        Process::new("consumer").program([repeat(3, [lock("m"), wait("q", "m"), unlock("m"), step::run(1000)])]),
    );
    let producer = in_space(
        Process::new("producer")
            .program([repeat(3, [step::sleep(5000), lock("m"), signal("q"), step::run(2000), unlock("m")])]),
    );
    let sim = run(vec![consumer, producer], 100);
    let c = proc_report(&sim, "consumer");
    // Its first lock, and each unlock after a wakeup, are calls made on waking.
    assert_eq!(c.completion_ns, Some(22 * MS + 4 * CALL));
    assert_eq!(c.cpu_time_ns, 3 * MS + 4 * CALL, "it ran only its own work");
    assert_eq!(c.nvcsw, 4, "one sleep per round and its exit: never woken to find the mutex held");
}

/// Mechanism: a signal with nobody waiting is lost (unlike a futex wake), so
/// a waiter that comes after it waits on.
#[test]
fn a_signal_nobody_waits_for_is_lost() {
    let late = in_space(Process::new("late").program([step::sleep(5000), lock("m"), wait("q", "m"), unlock("m")]));
    let early = in_space(Process::new("early").program([lock("m"), signal("q"), unlock("m")]));
    let sim = run(vec![late, early], 50);
    assert_eq!(proc_report(&sim, "late").completion_ns, None, "it waits for a signal already sent");
}

/// Mechanism: broadcast wakes every waiter, signal the longest one only.
#[test]
fn broadcast_wakes_every_waiter_and_signal_one() {
    let exited = |wake: Value| {
        let waiters = in_space(Process::new("w").threads(3).program([lock("m"), wait("q", "m"), unlock("m")]));
        let waker = in_space(Process::new("waker").program([step::sleep(5000), lock("m"), wake, unlock("m")]));
        let sim = run(vec![waiters, waker], 50);
        let w = proc_report(&sim, "w");
        sim.tasks().iter().filter(|t| t.tgid == w.tgid && t.stats.exited_at.is_some()).count()
    };
    assert_eq!(exited(broadcast("q")), 3);
    assert_eq!(exited(signal("q")), 1);
}

/// Mechanism: processes naming one address space lock one mutex per name:
/// two 5 ms critical sections on two CPUs take turns (10 ms) instead of
/// running side by side as two processes' own mutexes would.
#[test]
fn an_address_space_shares_its_mutexes_between_processes() {
    let last = |shared: bool| {
        let p = |name: &str| {
            let p = Process::new(name).program([lock("m"), step::run(5000), unlock("m")]);
            if shared {
                in_space(p)
            } else {
                p
            }
        };
        let sim = run(vec![p("a"), p("b")], 50);
        proc_report(&sim, "a").completion_ns.max(proc_report(&sim, "b").completion_ns)
    };
    assert_eq!(last(false), Some(5 * MS + CALL));
    assert_eq!(last(true), Some(10 * MS + CALL));
}

/// Mechanism: a barrier of an address space opens after as many arrivals
/// as its steps there times their processes' threads (rt-app counts its
/// users so): a's two threads wait for b, which arrives at 5 ms; on their
/// own, a's barrier would open with its two threads at 1 ms.
#[test]
fn a_shared_barrier_waits_for_every_user_in_the_space() {
    let a_end = |shared: bool| {
        let space = |p: Process| if shared { in_space(p) } else { p };
        let a = space(Process::new("a").threads(2).program([
            step::sleep(1000),
            json!({ "barrier": "b" }),
            step::run(1000),
        ]));
        let b = space(Process::new("b").program([step::sleep(5000), json!({ "barrier": "b" })]));
        proc_report(&run(vec![a, b], 50), "a").completion_ns
    };
    assert_eq!(a_end(false), Some(2 * MS + CALL));
    assert_eq!(a_end(true), Some(6 * MS + CALL));
}

/// cond_wait needs its mutex; an address space takes no job pool or flags.
#[test]
fn condition_and_address_space_fields_are_checked() {
    let problems = |p: Process| {
        let text = Scenario::new("t", 10).machine("uniprocessor").process(p).build();
        load_scenario(&text).unwrap_err().into_iter().map(|d| format!("{}: {}", d.field, d.reason)).collect::<Vec<_>>()
    };
    let e = problems(Process::new("p").program([json!({ "cond_wait": "q" })]));
    assert_eq!(
        e,
        ["processes[0].program[0].mutex: cond_wait needs the mutex it releases while it waits (a lock name)"]
    );
    let e = problems(Process::new("p").program([json!({ "cond_signal": "q", "mutex": "m" })]));
    assert_eq!(e, ["processes[0].program[0].mutex: only allowed together with cond_wait"]);
    let e = problems(in_space(Process::new("p").job_pool(3).program([json!({ "take_job": true })])));
    assert!(e[0].starts_with("processes[0].job_pool: a process in a shared address space"), "{e:?}");
    let e = problems(in_space(Process::new("p").threads(2).program([json!({ "post": "f" }), json!({ "await": "f" })])));
    assert!(e[0].starts_with("processes[0].program: post and await name threads"), "{e:?}");
}

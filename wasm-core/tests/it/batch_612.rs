//! SCHED_BATCH under Linux 6.12: a batch wakee never preempts at wakeup
//! (`check_preempt_wakeup_fair`, fair.c 8925–8929 of 6.12: "BATCH and IDLE
//! tasks do not preempt others"), where a normal one may.
//!
//! One CPU, HZ 1000, a fair hog beside a sleeper that runs 50 µs every 10 ms
//! with a 100 µs slice. Normal, the sleeper's shorter slice preempts the hog at
//! once (PREEMPT_SHORT: eligible, with the earlier deadline); batch, it waits
//! for the hog's next tick at least, so its median wakeup latency is a good
//! part of a tick.

use crate::common::scenario::{self as step, forever, Process, Scenario};
use schedlab_core::api::report::report;

fn sleeper_p50_us(policy: &str) -> u64 {
    let sleeper = Process::new("sleeper")
        .set("sched_policy", policy)
        .set("slice_us", 100)
        .program([forever([step::run(50), step::sleep(10_000)])]);
    let mut sim = Scenario::new("batch-612", 2000)
        .set("kernel", "6.12")
        .hz(1000)
        .autogroup(false)
        .free_costs()
        .machine("uniprocessor")
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

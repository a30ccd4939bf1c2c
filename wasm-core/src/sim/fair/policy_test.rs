//! SCHED_BATCH and SCHED_IDLE under 4.1's fair class, in whole runs on one
//! CPU: an idle-policy hog weighs 3 against a nice-0 hog's 1024, and a batch
//! wakee never preempts at wakeup (the tick does), where a normal one does.

use crate::config::ProcessSpec;
use crate::program::{Dist, Op};
use crate::sched::policy::SchedPolicy;
use crate::sim::test_config::{config, hog};
use crate::sim::Simulator;

const MS: u64 = 1_000_000;

fn with(mut p: ProcessSpec, policy: SchedPolicy) -> ProcessSpec {
    p.sched_policy = policy;
    p
}

fn run(procs: Vec<ProcessSpec>, ms: u64) -> Simulator {
    let mut cfg = config(1, 1, 1, 1000, false, procs);
    cfg.duration_ns = ms * MS;
    let mut sim = Simulator::new(&cfg);
    sim.run_to_end();
    sim
}

/// WEIGHT_IDLEPRIO is 3: the idle-policy hog's share is about 3 / 1027, a
/// few ms in a second; a nice-19 hog (weight 15) would get five times that.
#[test]
fn an_idle_policy_hog_weighs_three() {
    let sim =
        run(vec![hog("normal", 10_000 * MS, None), with(hog("idle", 10_000 * MS, None), SchedPolicy::Idle)], 2000);
    let idle = sim.core.tasks[1].se.sum_exec_runtime;
    assert_eq!(sim.core.tasks[1].se.weight, 3);
    assert!(idle > 0 && idle < 20 * MS, "the idle-policy hog ran {idle} ns in 2 s");
}

/// A sleeper that runs 1 ms every 10 ms beside a hog: as SCHED_NORMAL its
/// wakeups preempt the hog at once; as SCHED_BATCH each waits for the hog's
/// next tick (up to 1 ms at HZ=1000) or its slice's end.
#[test]
fn a_batch_wakee_waits_for_the_tick() {
    let sleeper = |policy| {
        let mut p = hog("sleeper", MS, None);
        p.program =
            vec![Op::Repeat { times: None, body: vec![Op::Run(Dist::Fixed(MS)), Op::Sleep(Dist::Fixed(9 * MS))] }];
        with(p, policy)
    };
    let waits = |policy| {
        let sim = run(vec![hog("hog", 10_000 * MS, None), sleeper(policy)], 1000);
        let t = &sim.core.tasks[1];
        (t.stats.wait_ns, t.stats.nivcsw + t.stats.nvcsw)
    };
    let (normal, _) = waits(SchedPolicy::Normal);
    let (batch, switches) = waits(SchedPolicy::Batch);
    assert!(switches >= 90, "the batch sleeper still runs every period ({switches} switches)");
    assert!(normal < 100 * 20_000, "normal wakees preempt at once: {normal} ns in 100 wakeups");
    assert!(batch > 10 * normal && batch > 20 * MS, "batch wakees wait for the tick: {batch} ns vs {normal} ns");
}

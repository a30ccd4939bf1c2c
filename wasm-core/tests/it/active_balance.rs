//! Active balancing as Linux 4.1's `load_balance`, `need_active_balance` and
//! `active_load_balance_cpu_stop` do it, on a hand-worked case: two hogs run on
//! the two hardware threads of core 0 of the 2-core, 4-thread laptop while core
//! 1 (CPUs 2 and 3) comes online idle at 100 ms (bugs fixed, HZ 1000, no
//! autogroup, no NOHZ: each idle CPU balances from its own tick, CPU 2's first
//! in each jiffy). Worked by hand from the 4.1 source:
//! - At the MC level an idle CPU of core 1 finds core 0 overloaded (SMT's
//!   prefer-sibling caps its capacity at one task), and its busiest CPU runs a
//!   single task: `load_balance` does not try to detach (nr_running ≤ 1), so
//!   ld_moved = 0 and the pass fails: `nr_balance_failed++`, the interval stays
//!   at min_interval = the domain's weight, 4 ms. The rebuild at 100 ms starts
//!   the new domains' intervals there (`sd_init`), so the first pass is at 104.
//! - MC's cache_nice_tries is 1, so `need_active_balance` holds once
//!   nr_balance_failed > 3: the fourth failed pass, at 116 ms, kicks the busiest
//!   CPU's stopper, resets nr_balance_failed to cache_nice_tries + 1 and doubles
//!   the interval.
//! - The stopper counts itself in nr_running (2 > 1), preempts the hog and
//!   pushes it (the only queued task, cache-hot but nr_balance_failed >
//!   cache_nice_tries) to the CPU that asked.
//! - CPU 3 fails the same way, but its fourth failure finds the push pending
//!   (`busiest->active_balance`): no second stopper.
//!
//! (Under NOHZ, 4.1.15 would leave core 1 idle here: on a one-package machine
//! the LLC is the top domain, so `sd_busy` is NULL, and no CPU runs two tasks,
//! so `nohz_kick_needed` never kicks the idle CPUs, whose ticks are stopped.)

use crate::common::scenario::{Process, Scenario};
use schedlab_core::balance::decision::{Outcome, Why};
use schedlab_core::sim::Simulator;
use schedlab_core::time::{CpuId, SimTime};
use schedlab_core::trace::{MigrateCause, TraceKind};

/// The case above, unrun: two hogs allowed `hog_cpus`, core 1 online at 100 ms.
pub(crate) fn smt_pair_scenario(hog_cpus: &str, ms: u64) -> Scenario {
    Scenario::new("smt-active", ms)
        .hz(1000)
        .bugs("linux-4.1-fixed")
        .autogroup(false)
        .nohz(false)
        .machine("laptop-2c4t")
        .cpu_offline(0, 2)
        .cpu_offline(0, 3)
        .cpu_online(100, 2)
        .cpu_online(100, 3)
        .process(Process::hog("hog", 1_000_000).threads(2).cpus(hog_cpus))
}

fn smt_pair(hog_cpus: &str, ms: u64) -> Simulator {
    let mut sim = smt_pair_scenario(hog_cpus, ms).sim();
    sim.run_until(SimTime(ms * 1_000_000));
    sim
}

/// CPU `cpu`'s MC-level passes after core 1 came online: (time in ms, outcome).
fn mc_passes(sim: &Simulator, cpu: u32) -> Vec<(u64, Outcome)> {
    sim.decisions()
        .iter()
        .filter(|d| d.cpu == CpuId(cpu) && d.level.name() == "MC" && d.at.ns() >= 100_000_000)
        .map(|d| (d.at.ns() / 1_000_000, d.outcome.clone()))
        .collect()
}

fn single_task_from(o: &Outcome) -> Option<CpuId> {
    match o {
        Outcome::NothingMoved { from, why: Why::SingleTask } => Some(*from),
        _ => None,
    }
}

#[test]
fn the_fourth_failed_pass_kicks_the_stopper_which_pushes_the_running_task() {
    let sim = smt_pair("0-3", 200);
    let passes = mc_passes(&sim, 2);
    assert!(passes.len() >= 4, "{passes:?}");
    let times: Vec<u64> = passes.iter().take(4).map(|p| p.0).collect();
    assert_eq!(times, [104, 108, 112, 116], "failed passes stay at min_interval (4 ms)");
    let from = single_task_from(&passes[0].1).expect("the first pass fails on a single-task busiest CPU");
    assert!(from < CpuId(2), "the busiest CPU is a thread of core 0");
    for p in &passes[1..3] {
        assert_eq!(single_task_from(&p.1), Some(from), "{p:?}");
    }
    assert_eq!(passes[3].1, Outcome::ActiveBalance { from });
    // The stopper pushed the hog that was running there, at once, to CPU 2.
    let pushes: Vec<_> = sim
        .trace()
        .recent(usize::MAX)
        .filter(|r| matches!(r.kind, TraceKind::Migrate { cause: MigrateCause::Active, .. }))
        .map(|r| (r.at.ns() / 1_000_000, r.cpu, r.kind))
        .collect();
    assert_eq!(pushes.len(), 1, "{pushes:?}");
    let (at, to, TraceKind::Migrate { from: pushed_from, .. }) = pushes[0] else { unreachable!() };
    assert_eq!((at, to, pushed_from), (116, CpuId(2), from));
    // One hog per core from then on.
    let running: Vec<u32> = sim.rqs().iter().map(|rq| rq.nr_running()).collect();
    assert_eq!(running[0] + running[1], 1, "{running:?}");
    assert_eq!(running[2] + running[3], 1, "{running:?}");
    // CPU 3 failed as often, but found the push pending: no second stopper.
    let cpu3 = mc_passes(&sim, 3);
    assert_eq!(cpu3.iter().take(4).map(|p| p.0).collect::<Vec<_>>(), [104, 108, 112, 116]);
    assert!(cpu3.iter().take(4).all(|p| single_task_from(&p.1).is_some()), "{cpu3:?}");
}

/// The same machine with both hogs pinned to core 0: the fourth failure finds a
/// running task that may not move (`out_one_pinned`): no stopper, the failure
/// count stands and the interval doubles at every further failure, up to
/// MAX_PINNED_INTERVAL.
#[test]
fn a_pinned_running_task_backs_the_interval_off_without_a_stopper() {
    let sim = smt_pair("0-1", 400);
    let passes = mc_passes(&sim, 3);
    let times: Vec<u64> = passes.iter().map(|p| p.0).collect();
    // 104, 108, 112 at min_interval; from the fourth failure (116) on the interval doubles: 8, 16, 32, 64, 128.
    assert_eq!(times, [104, 108, 112, 116, 124, 140, 172, 236, 364], "{passes:?}");
    assert!(passes.iter().all(|p| single_task_from(&p.1).is_some()), "{passes:?}");
    assert_eq!(sim.rqs()[2].nr_running() + sim.rqs()[3].nr_running(), 0);
}

//! `wake_affine` as 4.1.15 weighs a wakee: its `se.load.weight`, seen through
//! its group by `effective_load` (fair.c 4478–4529), which takes off each group
//! entity's *weight* (`se->load.weight`, 4519), not its PELT contribution.
//!
//! Hand-worked on 2 CPUs (MC imbalance_pct 117, so the previous CPU's side is
//! weighed by 108), the waker on CPU 0 with root load 800, the wakee P (nice 0,
//! weight 1024, load_avg_contrib 300) last on CPU 1 with root load 1200, P in
//! its autogroup G (shares 1024, load_avg 2048): on CPU 0 G's runqueue weighs
//! 1024 with tg_load_contrib 1024 and G's entity weighs 512 (its PELT
//! contribution, 700, is not read); on CPU 1 G's runqueue is empty,
//! tg_load_contrib 1024, and its entity weighs MIN_SHARES = 2, what
//! `calc_cfs_shares` gives an empty queue (its contribution, 500, not read).
//!
//! effective_load(G, CPU 0, 1024, 1024): G's weight as CPU 0 sees it is
//! 2048 − 1024 + 1024 = 2048; W = 3072, w = 2048, so G's entity would weigh
//! 2048 × 1024 / 3072 = 682: a change of 682 − 512 = 170.
//! effective_load(G, CPU 1, 0, 1024): W = 1024 + (2048 − 1024 + 0) = 2048, w = 0,
//! so the entity would weigh 0, raised to MIN_SHARES 2: 2 − 2 = 0.
//! this_eff = 100 × 1024 × (800 + 170) = 99,328,000 against prev_eff = 108 ×
//! 1024 × (1200 + 0) = 132,710,400: balanced, P is pulled to CPU 0. (With the
//! contributions taken off instead, as the model did before: 682 − 700 = −18
//! and 2 − 500 = −498, so 100 × 1024 × 782 = 80,076,800 against 108 × 1024 ×
//! 702 = 77,635,584: P stayed.)
//! Without a group, effective_load is the weight itself: 100 × 1024 × 1824 =
//! 186,777,600 > 132,710,400, not balanced.
//!
//! WF_SYNC (a child's exit waking its parent, `__wake_up_parent`): the waker W
//! running on CPU 0 (weight 1024, no group) is about to go, so its weight comes
//! off first: this_load = 800 + effective_load(root, CPU 0, −1024, −1024) =
//! −224, load = 1200 + 0. With this_load not above 0 the loads are not
//! weighed at all: 100 × 1024 ≤ 108 × 1024, balanced: P is pulled to CPU 0.

use crate::sim::fair::cx::fair_cx;
use crate::sim::test_config::{config, hog};
use crate::sim::Simulator;
use crate::time::{CpuId, Pid};

fn two_cpus(autogroup: bool) -> (Simulator, Pid) {
    let procs = vec![hog("P", 1_000_000, None), hog("W", 1_000_000, None)];
    let mut sim = Simulator::new(&config(1, 2, 1, 250, autogroup, procs));
    let pid = sim.processes()[0].threads[0];
    sim.core.rqs[0].cfs.runnable_load_avg = 800;
    sim.core.rqs[1].cfs.runnable_load_avg = 1200;
    let p = &mut sim.core.tasks[pid.idx()];
    assert_eq!(p.se.weight, 1024);
    p.se.avg.load_avg_contrib = 300;
    (sim, pid)
}

#[test]
fn the_wakee_weighs_its_weight_through_its_group() {
    let (mut sim, pid) = two_cpus(true);
    let tg = sim.core.tasks[pid.idx()].tg;
    assert_ne!(tg, 0);
    assert_eq!(sim.fair.tgs[tg as usize].shares, 1024);
    sim.fair.tgs[tg as usize].load_avg = 2048;
    let (g0, g1) = (fair_cx(&mut sim).gidx(tg, CpuId(0)), fair_cx(&mut sim).gidx(tg, CpuId(1)));
    sim.fair.gcfs[g0].load_weight = 1024;
    sim.fair.gcfs[g0].tg_load_contrib = 1024;
    sim.fair.gses[g0].set_weight(512);
    sim.fair.gses[g0].avg.load_avg_contrib = 700;
    sim.fair.gcfs[g1].load_weight = 0;
    sim.fair.gcfs[g1].tg_load_contrib = 1024;
    sim.fair.gses[g1].set_weight(2);
    sim.fair.gses[g1].avg.load_avg_contrib = 500;
    assert_eq!(fair_cx(&mut sim).effective_load(tg, CpuId(0), 1024, 1024), 170);
    assert_eq!(fair_cx(&mut sim).effective_load(tg, CpuId(1), 0, 1024), 0);
    assert!(fair_cx(&mut sim).wake_affine(pid, CpuId(0), CpuId(1), 0, 117, false), "P is pulled to CPU 0");
}

#[test]
fn without_a_group_the_wakee_weighs_its_weight() {
    let (mut sim, pid) = two_cpus(false);
    assert_eq!(sim.core.tasks[pid.idx()].tg, 0);
    assert_eq!(fair_cx(&mut sim).effective_load(0, CpuId(0), 1024, 1024), 1024);
    assert!(!fair_cx(&mut sim).wake_affine(pid, CpuId(0), CpuId(1), 0, 117, false));
}

#[test]
fn a_sync_wakeup_takes_the_waker_off_first() {
    let (mut sim, pid) = two_cpus(false);
    let w = sim.processes()[1].threads[0];
    sim.core.rqs[0].curr_task = Some(w);
    assert_eq!(sim.core.tasks[w.idx()].se.weight, 1024);
    assert!(!fair_cx(&mut sim).wake_affine(pid, CpuId(0), CpuId(1), 0, 117, false), "without WF_SYNC, as above");
    assert!(
        fair_cx(&mut sim).wake_affine(pid, CpuId(0), CpuId(1), 0, 117, true),
        "with WF_SYNC, P is pulled next to its exiting waker"
    );
}

//! 4.1.15's blocked load through the hierarchy (`dequeue_entity_load_avg`,
//! `update_blocked_averages`, `migrate_task_rq_fair`), on one thread T in
//! its autogroup G, pinned to CPU 0, that runs 2 ms and sleeps 20 ms.
//!
//! At T's sleep (a DEQUEUE_SLEEP), its contribution c moves from G's
//! runnable load to G's blocked load and T is stamped with G's decay
//! counter. runnable + blocked is unchanged, so G's load_avg (what the
//! balancer and the shares of G's other CPUs read) keeps c: 4.1 does not
//! forget a sleeper. Nothing updates G's runqueue while CPU 0 idles, until
//! `update_blocked_averages` (a balancing pass): n periods of 2^20 ns after
//! the last decay, blocked = c · yⁿ, passed on forced. Woken on CPU 1
//! instead, T leaves its decayed contribution in `removed_load`, taken off
//! at the next update, and carries minus the periods it was decayed by.

use crate::config::ProcessSpec;
use crate::program::{Dist, Op};
use crate::sched::linux41::pelt::decay_load;
use crate::sim::fair::cx::fair_cx;
use crate::sim::test_config::{config, hog};
use crate::sim::Simulator;
use crate::time::{CpuId, Pid, SimTime};

fn sleeper() -> ProcessSpec {
    let mut p = hog("T", 0, Some(&[CpuId(0)]));
    p.program = vec![Op::Repeat {
        times: None,
        body: vec![Op::Run(Dist::Fixed(2_000_000)), Op::Sleep(Dist::Fixed(20_000_000))],
    }];
    p
}

/// T asleep since 46 ms (it ran 44–46 ms after two 22 ms rounds), seen at 50 ms.
fn asleep() -> (Simulator, Pid, usize) {
    let mut sim = Simulator::new(&config(1, 2, 1, 1000, true, vec![sleeper()]));
    sim.run_until(SimTime(50_000_000));
    let pid = sim.processes()[0].threads[0];
    let tg = sim.core.tasks[pid.idx()].tg;
    assert_ne!(tg, 0, "T is in its autogroup");
    assert!(!sim.core.tasks[pid.idx()].se.on_rq, "T sleeps at 50 ms");
    let gi = fair_cx(&mut sim).gidx(tg, CpuId(0));
    (sim, pid, gi)
}

#[test]
fn a_sleeper_stays_in_its_groups_load() {
    let (sim, pid, gi) = asleep();
    let (g, t) = (&sim.fair.gcfs[gi], &sim.core.tasks[pid.idx()].se.avg);
    let tg = &sim.fair.tgs[g.tg as usize];
    assert_eq!(g.runnable_load_avg, 0);
    assert!(t.load_avg_contrib > 0);
    assert_eq!(g.blocked_load_avg, t.load_avg_contrib, "the sleeper's contribution is blocked load");
    assert_eq!(t.decay_count, g.decay_counter as i64, "stamped with its runqueue's count");
    assert_eq!(g.tg_load_contrib, g.blocked_load_avg as i64, "runnable + blocked, as last passed on");
    assert_eq!(tg.load_avg, g.tg_load_contrib, "the group keeps the sleeper's load (CPU 1 never had G)");
}

#[test]
fn blocked_load_decays_at_a_balancing_pass() {
    let (mut sim, _, gi) = asleep();
    let before = sim.fair.gcfs[gi].blocked_load_avg;
    let last = sim.fair.gcfs[gi].last_decay;
    let counter = sim.fair.gcfs[gi].decay_counter;
    // 40 periods after the last decay, a balancing pass on CPU 0.
    sim.core.now = SimTime((last + 40) << 20);
    fair_cx(&mut sim).update_blocked_averages(CpuId(0));
    let g = &sim.fair.gcfs[gi];
    assert_eq!(g.blocked_load_avg, decay_load(before, 40));
    assert_eq!(g.decay_counter, counter + 40);
    assert_eq!(g.tg_load_contrib, g.blocked_load_avg as i64, "forced: passed on however small the change");
    assert_eq!(sim.fair.tgs[g.tg as usize].load_avg, g.tg_load_contrib);
}

#[test]
fn a_sleeper_woken_elsewhere_leaves_its_load_to_be_removed() {
    let (mut sim, pid, gi) = asleep();
    let c = sim.core.tasks[pid.idx()].se.avg.load_avg_contrib;
    // Three decay periods counted on G's runqueue since T slept.
    sim.fair.gcfs[gi].decay_counter += 3;
    fair_cx(&mut sim).migrate_task_load(pid, CpuId(0));
    let decayed = decay_load(c, 3);
    assert_eq!(sim.core.tasks[pid.idx()].se.avg.load_avg_contrib, decayed);
    assert_eq!(sim.core.tasks[pid.idx()].se.avg.decay_count, -3);
    assert_eq!(sim.fair.gcfs[gi].removed_load, decayed);
    let (blocked, tg) = (sim.fair.gcfs[gi].blocked_load_avg, sim.fair.gcfs[gi].tg);
    let periods = (sim.core.now.ns() >> 20) - sim.fair.gcfs[gi].last_decay;
    fair_cx(&mut sim).update_cfs_rq_blocked_load(tg, CpuId(0), true);
    assert_eq!(sim.fair.gcfs[gi].removed_load, 0);
    assert_eq!(sim.fair.gcfs[gi].blocked_load_avg, decay_load(blocked - decayed, periods), "removed, then decayed");
}

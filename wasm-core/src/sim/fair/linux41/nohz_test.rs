//! The NOHZ kick as 4.1.15's `nohz_kick_needed` / `nohz_balancer_kick` /
//! `nohz_idle_balance` decide it.
//!
//! Hand-worked on 2 nodes × 4 cores, no SMT: the LLC domain (MC) spans a
//! node and has one group per CPU; `sd_busy`, its parent (NUMA), has one
//! group per node. With one task each on CPUs 0 and 1, CPU 0's tick sees two
//! busy CPUs in its `sd_busy` group (node 0) and kicks; the MC group holding
//! CPU 0 alone (the model before) saw one. With the second task on CPU 4
//! (node 1) instead, node 0 has one busy CPU: no kick. On one node, the LLC
//! is the top domain, `sd_busy` is NULL, and no busy count kicks.
//!
//! `nohz.next_balance`: a kick moves it on by one jiffy (no second kick in
//! that jiffy); the kicked balancer leaves it at the earliest `next_balance`
//! among itself and the idle CPUs it went through.

use crate::sim::fair::cx::fair_cx;
use crate::sim::test_config::{config, hog};
use crate::sim::Simulator;
use crate::time::{CpuId, SimTime};

fn two_busy(nodes: u32, cpus: [CpuId; 2]) -> Simulator {
    let procs = vec![hog("a", 1_000_000_000, Some(&[cpus[0]])), hog("b", 1_000_000_000, Some(&[cpus[1]]))];
    let mut sim = Simulator::new(&config(nodes, 4, 1, 250, false, procs));
    sim.run_until(SimTime(20_000_000));
    assert!(sim.core.rqs[(cpus[0]).idx()].curr_task.is_some() && sim.core.rqs[(cpus[1]).idx()].curr_task.is_some());
    sim.fair.lb.nohz_next_balance = 0;
    sim
}

#[test]
fn sd_busy_is_the_parent_of_the_llc() {
    assert!(
        fair_cx(&mut two_busy(2, [CpuId(0), CpuId(1)])).nohz_kick_needed(CpuId(0)),
        "two busy CPUs in CPU 0's node"
    );
    assert!(
        !fair_cx(&mut two_busy(2, [CpuId(0), CpuId(4)])).nohz_kick_needed(CpuId(0)),
        "one busy CPU in CPU 0's node"
    );
    assert!(!fair_cx(&mut two_busy(1, [CpuId(0), CpuId(1)])).nohz_kick_needed(CpuId(0)), "one node: no sd_busy");
}

#[test]
fn nohz_next_balance_gates_the_kick() {
    let mut sim = two_busy(2, [CpuId(0), CpuId(1)]);
    assert!(fair_cx(&mut sim).nohz_kick_needed(CpuId(0)));
    let jiffies = sim.jiffies();
    sim.fair.lb.nohz_next_balance = jiffies;
    fair_cx(&mut sim).nohz_kick();
    assert_eq!(sim.fair.lb.nohz_next_balance, jiffies + 1, "a kick moves it on by one jiffy");
    assert!(!fair_cx(&mut sim).nohz_kick_needed(CpuId(0)), "no second kick in that jiffy");

    // The balancer (CPU 2, the first idle CPU) goes through the idle CPUs 3, 5, 6, 7 (4 idles too); none is
    // due, so none balances, and the earliest next_balance among them and itself is left.
    let mut sim = two_busy(2, [CpuId(0), CpuId(1)]);
    let j = sim.jiffies();
    for (cpu, ahead) in [(2, 9), (3, 5), (4, 8), (5, 3), (6, 7), (7, 6)] {
        sim.core.rqs[cpu].next_balance = j + ahead;
    }
    fair_cx(&mut sim).nohz_idle_balance(CpuId(2));
    assert_eq!(sim.fair.lb.nohz_next_balance, j + 3);
}

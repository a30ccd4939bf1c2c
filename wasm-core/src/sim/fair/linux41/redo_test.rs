//! `load_balance` asks `should_we_balance` again at `redo:` (Linux 4.1.15),
//! for the destination as an LBF_DST_PINNED retry left it.
//!
//! Hand-worked on 2 cores × 2 threads, stock 4.1 (should_we_balance applies):
//! CPU 0 holds 40 tasks, 39 pinned to it and T, allowed on CPUs 0 and 3,
//! 29th in its cfs_tasks list; CPU 3 runs B (pinned there); CPUs 1 and 2 idle.
//! CPU 2's periodic MC pass (local group {2,3}, CPU 2 its first idle CPU, so
//! it balances) finds CPU 0 the busiest. `detach_tasks` (loop_max = min(32,
//! 40) = 32) visits the first 32 tasks: none may run on CPU 2; T may run on
//! CPU 3 of the local group, so LBF_DST_PINNED names CPU 3. The retry clears
//! CPU 2 from env.cpus and visits 32 tasks again from the list's new front:
//! the 8 not yet seen, then the first 24 seen, which T (now 37th) is not among,
//! so every task was pinned. LBF_ALL_PINNED clears CPU 0 and goes to `redo:`,
//! where should_we_balance asks for env.dst_cpu = 3: the local group's CPUs
//! left in env.cpus (3) hold no idle one, so its balance CPU is
//! group_balance_cpu = 2, not 3: `out_balanced`, and balancing stops here
//! (*continue_balancing = 0).

use crate::balance::decision::Outcome;
use crate::balance::IdleType;
use crate::sim::fair::cx::fair_cx;
use crate::sim::test_config::{config, hog};
use crate::sim::Simulator;
use crate::time::{CpuId, SimTime};

#[test]
fn a_redo_after_a_retry_asks_for_the_new_destination() {
    let mut procs: Vec<_> = (0..39).map(|i| hog(&format!("P{i}"), 1_000_000_000, Some(&[CpuId(0)]))).collect();
    procs.push(hog("T", 1_000_000_000, Some(&[CpuId(0)])));
    procs.push(hog("B", 1_000_000_000, Some(&[CpuId(3)])));
    let mut sim = Simulator::new(&config(1, 2, 2, 1000, false, procs));
    sim.core.bugs.group_construction = true;
    sim.run_until(SimTime(1));
    let t = sim.processes()[39].threads[0];
    let b = sim.processes()[40].threads[0];
    assert_eq!(sim.core.rqs[3].curr(), Some(b));
    assert_eq!(sim.core.rqs[0].nr_running(), 40);
    assert!(sim.core.rqs[1].is_idle() && sim.core.rqs[2].is_idle());
    assert_ne!(sim.core.rqs[0].curr(), Some(t));
    // T may now also run on CPU 3, and sits 29th (index 28) in CPU 0's list.
    sim.core.tasks[t.idx()].allowed.set(CpuId(3));
    let list = &mut sim.core.rqs[0].cfs_tasks;
    list.retain(|&p| p != t);
    list.insert(28, t);
    let mc = sim.core.rqs[2].domains.iter().position(|d| d.span.weight() == 4).expect("the MC domain");

    let (moved, cont) = fair_cx(&mut sim).load_balance(CpuId(2), mc, IdleType::Idle);
    assert_eq!((moved, cont), (0, false), "nothing moves, and balancing stops above");
    let d = sim.decisions().back().unwrap();
    assert_eq!(d.outcome, Outcome::NotDesignated { balance_cpu: CpuId(2) });
    assert_eq!(d.busiest_cpu, Some(CpuId(0)), "the first pass found CPU 0");
    assert_eq!(sim.core.tasks[t.idx()].cpu, CpuId(0), "T stayed");
}

//! `task_h_load` as 4.1.15's `update_cfs_rq_h_load` computes it: a
//! runqueue's h_load is worked out top-down once per jiffy and kept for the
//! rest of it, while the task's own part (its load_avg_contrib over its
//! runqueue's runnable load) uses the current figures.
//!
//! Hand-worked: one task T in an autogroup on CPU 0. At jiffy J the root's
//! runnable load is 3000, the group entity's contrib 2000, the group
//! runqueue's runnable load 1500 and T's contrib 500:
//!   h_load(group) = 3000 × 2000 / (3000 + 1) = 1999
//!   task_h_load(T) = 500 × 1999 / (1500 + 1) = 665
//! Later in J the group entity's contrib falls to 1000 and the group
//! runqueue's load to 1000: the kept h_load stands (1999) and T's part is
//! 500 × 1999 / 1001 = 998 — not 500 × 999 / 1001 = 499, a fresh walk's
//! figure (3000 × 1000 / 3001 = 999). At jiffy J + 1 the walk runs again:
//! 999, and T's part 499.

use crate::sim::fair::cx::fair_cx;
use crate::sim::test_config::{config, hog};
use crate::sim::Simulator;
use crate::time::{CpuId, Pid, SimTime};

fn set_loads(sim: &mut Simulator, pid: Pid, root: i64, gse: u64, group: i64, task: u64) {
    let tg = sim.core.tasks[pid.idx()].tg;
    assert_ne!(tg, 0, "T runs in its autogroup");
    sim.core.rqs[0].cfs.runnable_load_avg = root;
    let gi = fair_cx(sim).gidx(tg, CpuId(0));
    sim.fair.gcfs[gi].runnable_load_avg = group;
    sim.fair.gses[gi].avg.load_avg_contrib = gse;
    sim.core.tasks[pid.idx()].se.avg.load_avg_contrib = task;
}

#[test]
fn h_load_is_kept_for_the_rest_of_its_jiffy() {
    let mut sim = Simulator::new(&config(1, 2, 1, 250, true, vec![hog("T", 100_000_000, Some(&[CpuId(0)]))]));
    sim.run_until(SimTime(10_000_000));
    let pid = sim.processes()[0].threads[0];
    let jiffy = sim.jiffies();
    set_loads(&mut sim, pid, 3000, 2000, 1500, 500);
    assert_eq!(fair_cx(&mut sim).task_h_load(pid, CpuId(0)), 665);
    set_loads(&mut sim, pid, 3000, 1000, 1000, 500);
    assert_eq!(fair_cx(&mut sim).task_h_load(pid, CpuId(0)), 998, "the jiffy's h_load stands");
    sim.core.now = SimTime((jiffy + 1) * sim.core.tick_ns);
    assert_eq!(fair_cx(&mut sim).task_h_load(pid, CpuId(0)), 499, "a new jiffy walks again");
}

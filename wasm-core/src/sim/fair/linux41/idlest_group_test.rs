//! `find_idlest_group` (4.1.15, fork and exec placement) reads the local
//! group with `source_load` (the low guess: min of history and now) and the
//! others with `target_load` (the high guess: max), so a new task stays where
//! it was forked unless another group is clearly lighter. 4.1's domains set
//! `forkexec_idx` to 0, where both are the instantaneous load; the sides
//! matter with a history index, as here.
//!
//! Hand-worked (2 nodes × 2 CPUs, the NUMA level's two groups, forkexec_idx
//! 1): the local CPUs 0 and 1 carry 1024 each now but 0 in cpu_load[0] (they
//! just got busy); the remote CPUs 2 and 3 carry 0 now but 1024 in history
//! (they just emptied). Local: min(0, 1024) = 0 each, avg 0. Remote:
//! max(1024, 0) = 1024 each, avg 2048 × 1024 / capacity. 100 × 0 is below
//! imbalance × that, so there is no idlest group: the task stays local. With
//! the sides swapped (the model before) the local group read 2048 and the
//! remote 0, and the task left.

use crate::sim::fair::cx::fair_cx;
use crate::sim::test_config::{config, hog};
use crate::sim::Simulator;
use crate::time::CpuId;

/// Sets each CPU's load now (the root's runnable load) and its history (`cpu_load[]`).
fn set_loads(sim: &mut Simulator, loads: [(i64, u64); 4]) {
    for (rq, (now, history)) in sim.core.rqs.iter_mut().zip(loads) {
        rq.cfs.runnable_load_avg = now;
        rq.cpu_load = [history; 5];
    }
}

#[test]
fn the_local_group_is_read_low_and_the_others_high() {
    let mut sim = Simulator::new(&config(2, 2, 1, 250, false, vec![hog("P", 1_000_000, None)]));
    let level = sim.core.rqs[0].domains.len() - 1;
    assert_eq!(sim.core.rqs[0].domains[level].groups.len(), 2, "the NUMA level: one group per node");
    sim.core.rqs[0].domains[level].forkexec_idx = 1;
    set_loads(&mut sim, [(1024, 0), (1024, 0), (0, 1024), (0, 1024)]);
    let pid = sim.processes()[0].threads[0];
    assert_eq!(fair_cx(&mut sim).find_idlest_group(pid, CpuId(0), level), None, "the fork stays in the local group");
    // A remote node light now and in its history is the idlest group (local 1024 each, remote 0).
    set_loads(&mut sim, [(1024, 1024), (1024, 1024), (0, 0), (0, 0)]);
    assert_eq!(fair_cx(&mut sim).find_idlest_group(pid, CpuId(0), level), Some(1), "an idle node is the idlest group");
}

/// The fork walk skips the per-group affinity test for a task allowed every
/// CPU: the test of that must not take a mask missing one CPU for a full one.
#[test]
fn allows_all_needs_every_cpu() {
    use crate::topology::cpumask::CpuMask;
    let upto = |n: u32| CpuMask::from_cpus((0..n).map(CpuId));
    for n in [1, 63, 64, 65, 128, 200, 256] {
        assert!(super::allows_all(&upto(n as u32), n), "0..{n}");
        assert!(!super::allows_all(&upto(n as u32 - 1), n), "0..{n} but the last");
        let mut holed = upto(n as u32);
        holed.clear(CpuId(0));
        assert!(!super::allows_all(&holed, n), "0..{n} but CPU 0");
    }
    assert!(super::allows_all(&upto(70), 64), "more CPUs than asked");
}

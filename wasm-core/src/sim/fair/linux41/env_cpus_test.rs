//! `load_balance`'s candidate CPUs are every active CPU (`cpumask_copy(cpus,
//! cpu_active_mask)`, Linux 4.1.15 fair.c 6941), not the domain's span: at a
//! NUMA level an overlapping group can reach past the span, and
//! `update_sg_lb_stats` and `find_busiest_queue` read its CPUs there too.
//!
//! Hand-worked on a line of four one-CPU nodes, 0 — 1 — 2 — 3, neighbours at
//! distance 20, two hops 30, the ends 40. SMT, MC and DIE span one CPU and are
//! pruned; CPU 0 keeps NUMA(20) = {0,1}, NUMA(30) = {0,1,2}, NUMA(40) = all.
//! `build_overlap_sched_groups` at CPU 0's NUMA(30) walks its span: CPU 0's
//! NUMA(20), A = {0,1}; then CPU 2's NUMA(20), B = {1,2,3}, which holds CPU 3,
//! outside the span.
//!
//! Four hogs wait on CPU 3. CPU 0's newly-idle pass at NUMA(30) (a newly-idle
//! pass always balances: no should_we_balance gate): A holds nothing; B holds
//! 4 tasks, its average load far above A's 0 and past the imbalance margin,
//! so B is the busiest group and CPU 3 its busiest CPU. Read over the span
//! alone, B would hold nothing and the domain would look balanced.

use crate::balance::IdleType;
use crate::machine::Machine;
use crate::sim::fair::cx::fair_cx;
use crate::sim::test_config::{config, hog};
use crate::sim::Simulator;
use crate::time::{CpuId, SimTime};

fn line4() -> Machine {
    let distance = vec![vec![10, 20, 30, 40], vec![20, 10, 20, 30], vec![30, 20, 10, 20], vec![40, 30, 20, 10]];
    Machine { name: "line4".into(), nodes: 4, cores_per_node: 1, threads_per_core: 1, distance, nodes_per_package: 1 }
}

#[test]
fn a_group_reaching_past_the_span_counts_its_cpus_there() {
    let procs = (0..4).map(|i| hog(&format!("H{i}"), 1_000_000_000, Some(&[CpuId(3)]))).collect();
    let mut cfg = config(4, 1, 1, 1000, false, procs);
    cfg.machine = line4();
    let mut sim = Simulator::new(&cfg);
    // Pinned for 50 ms, so that CPU 3's load history (cpu_load[], read by the idle index) fills.
    sim.run_until(SimTime(50_000_000));
    assert_eq!(sim.core.rqs[3].nr_running(), 4);
    for p in 0..4 {
        let pid = sim.processes()[p].threads[0];
        sim.core.tasks[pid.idx()].allowed = crate::topology::cpumask::CpuMask::from_range(0..4);
    }
    let names: Vec<String> = sim.core.rqs[0].domains.iter().map(|d| d.name()).collect();
    assert_eq!(names, ["NUMA(20)", "NUMA(30)", "NUMA(40)"]);
    let groups: Vec<Vec<u32>> =
        sim.core.rqs[0].domains[1].groups.iter().map(|g| g.span.iter().map(|c| c.0).collect()).collect();
    assert_eq!(groups, [vec![0, 1], vec![1, 2, 3]]);

    fair_cx(&mut sim).load_balance(CpuId(0), 1, IdleType::NewlyIdle);
    let d = sim.decisions().back().expect("a decision");
    assert_eq!(d.busiest_group, Some(1), "B, read with CPU 3");
    assert_eq!(d.groups[1].sum_nr_running, 4);
    assert_eq!(d.busiest_cpu, Some(CpuId(3)), "{:?}", d.outcome);
}

/// The redo after an LBF_DST_PINNED retry balances toward the new
/// `env.dst_cpu` (fair.c 7031–7047, then `goto redo`): `update_sd_lb_stats`
/// counts as local every group holding it.
///
/// Hand-worked on the same line: CPU 3 holds 40 tasks, 39 pinned to it and T,
/// allowed on CPUs 1 and 3, 29th in its list; CPU 2 runs two hogs and CPU 1
/// one, each pinned there. CPU 0, idle, balances NUMA(30) (a periodic idle
/// pass: a newly-idle one has no dst_grpmask, so no retry; should_we_balance
/// is left out, as with the Group Construction fix, so that the redo runs).
/// B holds 43 tasks on 3 busy CPUs, overloaded, and is the busiest group,
/// CPU 3 its busiest CPU. `detach_tasks` (loop_max 32) moves nothing to CPU
/// 0; T may run on CPU 1 of the local group A, so LBF_DST_PINNED names it.
/// The retry clears CPU 0 from env.cpus and visits 32 tasks from the list's
/// new front, which T (now 37th) is not among: every task was pinned, CPU 3
/// is cleared and the pass is redone for dst = CPU 1. CPU 1 sits in A and in
/// B, so both are local and no group can be the busiest: balanced. (Read for
/// CPU 0 instead, B would be the busiest again through CPU 2's two hogs.)
#[test]
fn a_redo_after_a_retry_reads_the_groups_for_the_new_destination() {
    let mut procs: Vec<_> = (0..39).map(|i| hog(&format!("P{i}"), 1_000_000_000, Some(&[CpuId(3)]))).collect();
    procs.push(hog("T", 1_000_000_000, Some(&[CpuId(3)])));
    procs.push(hog("H1", 1_000_000_000, Some(&[CpuId(1)])));
    procs.push(hog("H2a", 1_000_000_000, Some(&[CpuId(2)])));
    procs.push(hog("H2b", 1_000_000_000, Some(&[CpuId(2)])));
    let mut cfg = config(4, 1, 1, 1000, false, procs);
    cfg.machine = line4();
    let mut sim = Simulator::new(&cfg);
    sim.run_until(SimTime(50_000_000));
    sim.core.bugs.group_construction = false;
    let t = sim.processes()[39].threads[0];
    assert_eq!(sim.core.rqs[3].nr_running(), 40);
    assert_ne!(sim.core.rqs[3].curr(), Some(t));
    sim.core.tasks[t.idx()].allowed.set(CpuId(1));
    let list = &mut sim.core.rqs[3].cfs_tasks;
    list.retain(|&p| p != t);
    list.insert(28, t);

    fair_cx(&mut sim).load_balance(CpuId(0), 1, IdleType::Idle);
    let d = sim.decisions().back().expect("a decision");
    assert_eq!(d.busiest_cpu, Some(CpuId(3)), "the first round found CPU 3, and no round after it a CPU");
    assert!(matches!(d.outcome, crate::balance::decision::Outcome::Balanced { .. }), "{:?}", d.outcome);
    assert_eq!(d.busiest_group, None, "the redo found no busiest group: CPU 1 makes A and B local");
    assert!(d.groups.iter().all(|g| g.local));
    assert_eq!(sim.core.tasks[t.idx()].cpu, CpuId(3), "T stayed");
}

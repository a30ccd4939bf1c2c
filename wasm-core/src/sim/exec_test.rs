//! `sched_exec` (Linux 4.1.15 core.c 2418) through `select_task_rq_fair`
//! with SD_BALANCE_EXEC (fair.c 4834–4900: the domain walk of a fork).
//!
//! Hand-worked on 2 nodes × 2 cores (no SMT): hogs pinned to CPUs 2 and 3
//! keep node 1 busy; P, allowed on CPUs 0 and 1, starts 1 ms in and so is
//! placed on node 0, on a CPU c. P execs after 5 ms of work. The walk starts
//! at the highest domain with SD_BALANCE_EXEC, NUMA {0..3}, where
//! `find_idlest_group` skips node 1 (no CPU P may use): only the local group
//! is left, so no group is returned and the walk goes down to MC {0,1}.
//! There the local group {c} carries P's own load (about 1024: 4.1 does not
//! take the exec'ing task off its CPU) and the other CPU none, so the other
//! CPU is the idlest group (100 × 1024 is not below 112 × 0) and
//! `find_idlest_cpu` returns it. The stopper on c preempts P and moves it
//! there: an exec moves a lone task to an idle sibling, as 4.1 does.

use crate::program::{Dist, Op};
use crate::sim::test_config::{config, hog};
use crate::sim::Simulator;
use crate::time::{CpuId, SimTime};

fn exec_then_run(name: &str, cpus: &[CpuId]) -> crate::config::ProcessSpec {
    let mut p = hog(name, 1_000_000, Some(cpus));
    p.program = vec![Op::Run(Dist::Fixed(5_000_000)), Op::Exec, Op::Run(Dist::Fixed(1_000_000_000))];
    p
}

#[test]
fn an_exec_moves_a_lone_task_to_an_idle_sibling() {
    let mut p = exec_then_run("P", &[CpuId(0), CpuId(1)]);
    p.start_ns = 1_000_000;
    let procs = vec![p, hog("H2", 1_000_000_000, Some(&[CpuId(2)])), hog("H3", 1_000_000_000, Some(&[CpuId(3)]))];
    let mut sim = Simulator::new(&config(2, 2, 1, 1000, false, procs));
    sim.run_until(SimTime(2_000_000));
    let p = sim.processes()[0].threads[0];
    let c = sim.core.tasks[p.idx()].cpu;
    assert!(c == CpuId(0) || c == CpuId(1));
    assert_eq!(sim.core.rqs[c.idx()].curr(), Some(p));
    let before = sim.core.tasks[p.idx()].stats.migrations;
    sim.run_until(SimTime(7_000_000));
    let sibling = CpuId(1 - c.0);
    assert_eq!(sim.core.tasks[p.idx()].cpu, sibling, "placed again at its exec");
    assert_eq!(sim.core.rqs[sibling.idx()].curr(), Some(p), "and runs there");
    assert!(sim.core.rqs[c.idx()].is_idle());
    assert_eq!(sim.core.tasks[p.idx()].stats.migrations, before + 1, "the exec's move is a migration");
}

#[test]
fn an_exec_with_nowhere_better_stays() {
    // P may run only on CPU 0: the placement has no other CPU, so it stays and goes straight on.
    let procs = vec![exec_then_run("P", &[CpuId(0)])];
    let mut sim = Simulator::new(&config(2, 2, 1, 1000, false, procs));
    let p = sim.processes()[0].threads[0];
    sim.run_until(SimTime(6_000_000));
    assert_eq!(sim.core.tasks[p.idx()].cpu, CpuId(0));
    assert_eq!(sim.core.tasks[p.idx()].stats.migrations, 0);
}

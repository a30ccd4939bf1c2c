//! A forked child's vruntime as 4.1.15's `task_fork_fair` makes it: on the
//! parent's runqueue — max(the running entity's vruntime, min_vruntime +
//! vslice), the vslice being the child's slice on that runqueue (START_DEBIT)
//! — kept relative to that runqueue's min_vruntime, and made absolute by
//! `wake_up_new_task`'s enqueue on the target CPU without placing it again.
//!
//! Hand-worked (2 CPUs, no autogroup, CFS, sched_latency 6 ms × (1 + log2 2)
//! = 12 ms): P (nice 0) runs alone on CPU 1 from 0 ms, so P's vruntime is
//! CPU 1's min_vruntime. B (nice 5, weight 335), pinned to CPU 0, runs from
//! 250 ms. At 300 ms P forks C (nice 0); fork balancing sends C to CPU 0
//! (100 × 1024 on CPU 1 is not below 112 × 335 on CPU 0). On CPU 1, C's
//! slice is 12 ms × 1024 / (1024 + 1024) = 6 ms, its vslice 6 ms (nice 0):
//! C's vruntime is max(0, 6 ms) = 6 ms after min_vruntime, carried to CPU 0,
//! where the enqueue adds CPU 0's min_vruntime as it was before the enqueue
//! updated B. Placing C on CPU 0 instead (the model before) took the slice
//! there, 12 ms × 1024 / (1024 + 335) ≈ 9.04 ms.

use schedlab_core::api::scenario::load_scenario;
use schedlab_core::sim::Simulator;
use schedlab_core::time::{CpuId, SimTime};
use schedlab_core::trace::{MigrateCause, TraceKind};

const SCENARIO: &str = r#"{"version":1,"name":"fork-across","seed":1,"duration_ms":600,"autogroup":false,
  "machine":{"nodes":1,"cores_per_node":2,"threads_per_core":1},
  "processes":[
    {"name":"P","cpus":"0-1","program":[{"run_us":300000},{"fork":[{"run_us":1000000}]},{"run_us":1000000}]},
    {"name":"B","cpus":"0","nice":5,"start_ms":250,"program":[{"run_us":1000000}]}]}"#;

#[test]
fn a_forked_child_takes_its_start_debit_on_the_parents_runqueue() {
    let cfg = load_scenario(SCENARIO).expect("valid scenario");
    let mut sim = Simulator::new(&cfg);
    sim.run_until(SimTime(299_000_000));
    let p = sim.processes().iter().find(|p| p.name == "P").unwrap().threads[0];
    assert_eq!(sim.tasks()[p.idx()].cpu, CpuId(1), "P ran alone on CPU 1");
    // Step to the fork, remembering CPU 0's min_vruntime before each event.
    let (child, min0_before) = loop {
        let min0 = sim.rqs()[0].cfs.min_vruntime;
        assert!(sim.step_event() && sim.now() < SimTime(301_000_000), "P forks at 300 ms");
        if let Some(c) = sim.tasks().iter().find(|t| t.parent == Some(p)) {
            break (c.pid.idx(), min0);
        }
    };
    assert_eq!(sim.tasks()[child].cpu, CpuId(0), "fork balancing sent C to the lighter CPU");
    assert_eq!(sim.tasks()[child].se.vruntime, min0_before + 6_000_000, "one vslice on the parent's runqueue");
    // And it runs: C takes its weight's share of CPU 0 at once (1024 / 1359 ≈ 75 %).
    sim.run_until(SimTime(400_000_000));
    assert!(sim.tasks()[child].se.sum_exec_runtime > 60_000_000);
}

/// 4.1.15's `wake_up_new_task` places the child with `set_task_cpu`, which
/// counts a migration (`se.nr_migrations`) and traces `sched_migrate_task`
/// when the chosen CPU is not the one the child was forked on. C, forked on
/// CPU 1 and sent to CPU 0, has moved once before it has run, with no cache
/// refill owed (the IPI, yes); the record names CPU 1 as its origin and comes just before
/// its `sched_wakeup_new`. P, which stays where it forked, has not moved.
#[test]
fn a_child_placed_away_from_its_parent_counts_one_migration() {
    let cfg = load_scenario(SCENARIO).expect("valid scenario");
    let mut sim = Simulator::new(&cfg);
    sim.run_until(SimTime(299_000_000));
    let p = sim.processes().iter().find(|p| p.name == "P").unwrap().threads[0];
    let (moves_before, p_moves) = (sim.machine_stats().migrations, sim.tasks()[p.idx()].stats.migrations);
    let child = loop {
        assert!(sim.step_event() && sim.now() < SimTime(301_000_000), "P forks at 300 ms");
        if let Some(c) = sim.tasks().iter().find(|t| t.parent == Some(p)) {
            break c.pid;
        }
    };
    let c = &sim.tasks()[child.idx()];
    // It owes the cross-CPU wakeup's IPI and no cache refill.
    assert_eq!((c.cpu, c.stats.migrations, c.owed_ns - c.owed_ipi_ns), (CpuId(0), 1, 0));
    assert_eq!(sim.tasks()[p.idx()].stats.migrations, p_moves, "the parent did not move");
    assert_eq!(sim.machine_stats().migrations, moves_before + 1);
    let recent: Vec<_> = sim.trace().recent(64).filter(|r| r.at == sim.now()).map(|r| (r.cpu, r.kind)).collect();
    let at = recent
        .iter()
        .position(|&(_, k)| k == TraceKind::Migrate { pid: child, from: CpuId(1), cause: MigrateCause::Fork })
        .expect("the placement is traced as a migration");
    assert_eq!(recent[at].0, CpuId(0), "recorded on the destination");
    assert_eq!(recent.get(at + 1).map(|r| r.1), Some(TraceKind::WakeupNew { pid: child }));
}

/// A process's first thread creates the others (`pthread_create`), paying
/// `costs.clone_ns` for each before its own program: with 20 µs and no other
/// costs, T/0 starts at 0, T/1 at 20 µs and T/2 at 40 µs, each placed as a
/// fork from T/0's CPU onto an idle CPU of its own; T/0's own 1 ms of work
/// starts at 40 µs and ends at 1.04 ms.
#[test]
fn the_first_thread_creates_the_others_one_by_one() {
    let text = r#"{"version":1,"name":"create","seed":1,"duration_ms":5,"autogroup":false,
      "costs":{"context_switch_ns":0,"wakeup_ipi_ns":0,"migration_cold_ns":0,"migration_cold_remote_ns":0,"clone_ns":20000},
      "machine":{"nodes":1,"cores_per_node":4,"threads_per_core":1},
      "processes":[{"name":"T","threads":3,"program":[{"run_us":1000}]}]}"#;
    let mut sim = Simulator::new(&load_scenario(text).expect("valid scenario"));
    sim.run_to_end();
    let threads = sim.processes()[0].threads.clone();
    let started: Vec<u64> = threads.iter().map(|&p| sim.tasks()[p.idx()].stats.started_at.unwrap().ns()).collect();
    assert_eq!(started, [0, 20_000, 40_000]);
    let exited: Vec<u64> = threads.iter().map(|&p| sim.tasks()[p.idx()].stats.exited_at.unwrap().ns()).collect();
    assert_eq!(exited, [1_040_000, 1_020_000, 1_040_000], "each ran its 1 ms alone on a CPU");
    let cpus: std::collections::BTreeSet<CpuId> = threads.iter().map(|&p| sim.tasks()[p.idx()].cpu).collect();
    assert_eq!(cpus.len(), 3, "three CPUs: {cpus:?}");
}

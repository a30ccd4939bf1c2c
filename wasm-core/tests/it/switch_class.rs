//! Switching the run's scheduling class mid-run (`Simulator::switch_class`),
//! as sched_ext's enable and disable paths move every task from one class to
//! another at one instant: no task is lost or duplicated, every runqueue's
//! bookkeeping stays consistent after every event, and the tasks go on
//! running under the new class.

use crate::common::scenario::{exp, forever, run, sleep, Process, Scenario};
use schedlab_core::config::{Kernel, PolicyKind};
use schedlab_core::sched::o1::O1State;
use schedlab_core::sim::class::class_for;
use schedlab_core::sim::Simulator;
use schedlab_core::task::TaskState;
use schedlab_core::time::{CpuId, SimTime};
use serde_json::json;

/// Four CPUs; hogs (one in a cgroup, so the fair class has a hierarchy to
/// leave and rebuild), sleepers, and a yielder.
fn scenario(kind: &str) -> Simulator {
    let mut sim = Scenario::new("switch", 600)
        .hz(1000)
        .seed(7)
        .machine("laptop-2c4t")
        .policy(kind)
        .cgroup(json!({ "name": "batch", "shares": 512 }))
        .process(Process::hog("hog", 100_000).threads(3))
        .process(Process::hog("batch", 50_000).threads(2).cgroup("batch"))
        .process(Process::new("sleeper").threads(3).program([forever([run(700), sleep(exp(3000))])]))
        .process(Process::new("yielder").program([forever([run(200), json!({ "yield": true })])]))
        .sim();
    // The whole-machine index is compared with a full scan after every event.
    sim.set_index_check(true);
    sim
}

/// Runqueue bookkeeping that must hold under either class.
fn check(sim: &Simulator) -> Result<(), String> {
    let mut running = std::collections::BTreeSet::new();
    for rq in sim.rqs() {
        if let Some(p) = rq.curr() {
            if !running.insert(p) {
                return Err(format!("task {p} runs on two CPUs"));
            }
            let t = &sim.tasks()[p.idx()];
            if t.cpu != rq.cpu || t.state != TaskState::Running {
                return Err(format!("curr {p} of CPU {} says cpu {} state {:?}", rq.cpu, t.cpu, t.state));
            }
        }
        let here = sim
            .tasks()
            .iter()
            .filter(|t| t.cpu == rq.cpu && matches!(t.state, TaskState::Running | TaskState::Runnable))
            .count() as u32;
        if here != rq.nr_running() || rq.cfs_tasks.len() as u32 != here {
            return Err(format!(
                "CPU {}: nr_running {}, cfs_tasks {}, {here} tasks here",
                rq.cpu,
                rq.nr_running(),
                rq.cfs_tasks.len()
            ));
        }
        // The fair class's levels: entities (tree + curr) match the counts
        // and weights (all zero while O(1) runs).
        for cfs in sim.cfs_rqs_of(rq.cpu) {
            let ents: Vec<schedlab_core::sched::entity::EntId> =
                cfs.tree.iter().into_iter().map(|(_, e)| e).chain(cfs.curr).collect();
            let weight: u64 = ents.iter().map(|&e| sim.entity(e).weight).sum();
            if ents.len() as u32 != cfs.nr_running || weight != cfs.load_weight {
                return Err(format!("CPU {} group {}: entities do not match the counts", rq.cpu, cfs.tg));
            }
            cfs.tree.check_invariants()?;
        }
        // O(1)'s arrays hold exactly the CPU's tasks.
        if let Some(o1) = sim.class_state::<O1State>().map(|o| &o.rqs[rq.cpu.idx()]) {
            let queued: u32 = o1.arrays.iter().map(|a| a.nr_active).sum();
            if queued != here || o1.nr_running != here {
                return Err(format!("CPU {}: O(1) arrays hold {queued}, nr_running {}", rq.cpu, o1.nr_running));
            }
        }
    }
    Ok(())
}

fn run_checked(sim: &mut Simulator, until: SimTime) {
    while sim.next_event_time().is_some_and(|t| t <= until) && sim.step_event() {
        if let Err(e) = check(sim) {
            panic!("at {} under {}: {e}", sim.now(), sim.class().name());
        }
    }
}

/// CPU time of every thread so far.
fn exec(sim: &Simulator) -> Vec<u64> {
    sim.tasks().iter().map(|t| t.se.sum_exec_runtime).collect()
}

/// Every task either ran in the phase or was asleep through it; the hogs ran.
fn all_ran(before: &[u64], after: &[u64], sim: &Simulator, phase: &str) {
    for (pid, (b, a)) in before.iter().zip(after).enumerate() {
        assert!(a > b, "{phase}: task {} ({}) did not run", pid, sim.tasks()[pid].name);
    }
}

/// CFS → O(1) → CFS on four CPUs: the tasks are moved, keep running, and the
/// invariants hold after every event; the run stays deterministic.
#[test]
fn cfs_to_o1_and_back_keeps_every_task_running() {
    let run = || {
        let mut sim = scenario("cfs");
        run_checked(&mut sim, SimTime(100_000_000));
        let queued: Vec<u32> = sim.rqs().iter().map(|rq| rq.nr_running()).collect();
        let before = exec(&sim);
        sim.switch_class(class_for(PolicyKind::O1, Kernel::Linux41));
        assert_eq!(sim.class().name(), "o1");
        check(&sim).unwrap_or_else(|e| panic!("right after the switch to O(1): {e}"));
        assert_eq!(queued, sim.rqs().iter().map(|rq| rq.nr_running()).collect::<Vec<_>>(), "tasks stay on their CPUs");
        assert!(sim.class_state::<O1State>().is_some(), "O(1) set up its arrays");
        // O(1) hands out 100 ms timeslices: long enough for every hog's turn.
        run_checked(&mut sim, SimTime(450_000_000));
        let mid = exec(&sim);
        all_ran(&before, &mid, &sim, "under O(1)");
        sim.switch_class(class_for(PolicyKind::Cfs, Kernel::Linux41));
        assert_eq!(sim.class().name(), "cfs");
        assert!(sim.class_state::<O1State>().map(|o| &o.rqs[CpuId(0).idx()]).is_none(), "O(1)'s state goes with it");
        check(&sim).unwrap_or_else(|e| panic!("right after the switch back to CFS: {e}"));
        run_checked(&mut sim, SimTime(600_000_000));
        sim.run_to_end();
        all_ran(&mid, &exec(&sim), &sim, "back under CFS");
        sim.trace().hash()
    };
    assert_eq!(run(), run(), "a run with switches is a pure function of its scenario");
}

/// O(1) → EEVDF: a run that starts under O(1) moves to the fair class with
/// its EEVDF strategy.
#[test]
fn o1_to_eevdf_keeps_every_task_running() {
    let mut sim = scenario("o1");
    run_checked(&mut sim, SimTime(150_000_000));
    let before = exec(&sim);
    sim.switch_class(class_for(PolicyKind::Eevdf, Kernel::Linux41));
    assert_eq!(sim.class().name(), "eevdf");
    check(&sim).unwrap_or_else(|e| panic!("right after the switch to EEVDF: {e}"));
    run_checked(&mut sim, SimTime(600_000_000));
    sim.run_to_end();
    all_ran(&before, &exec(&sim), &sim, "under EEVDF");
    // The fair class's min_vruntime moved on from where O(1) left it.
    assert!(sim.rqs().iter().any(|rq| rq.cfs.min_vruntime > 0));
}

/// Switching to the class already running changes nothing.
#[test]
fn switching_to_the_running_class_is_a_no_op() {
    let mut a = scenario("cfs");
    let mut b = scenario("cfs");
    a.run_until(SimTime(50_000_000));
    b.run_until(SimTime(50_000_000));
    b.switch_class(class_for(PolicyKind::Cfs, Kernel::Linux41));
    a.run_to_end();
    b.run_to_end();
    assert_eq!(a.trace().hash(), b.trace().hash());
}

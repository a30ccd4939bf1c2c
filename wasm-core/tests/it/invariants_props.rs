//! Property tests over random scenarios (random machines, affinities, sleep
//! patterns, hotplug events): after every event, no task is on two CPUs,
//! every task runs or queues only where its affinity and the online mask
//! allow, time never goes backwards, tasks are never lost, and every
//! runqueue's bookkeeping (nr_running, load weight, tree) is consistent.

use proptest::prelude::*;
use schedlab_core::api::scenario::load_scenario;
use schedlab_core::sim::Simulator;
use schedlab_core::task::TaskState;

use crate::common::scenario::{exp, forever, run, sleep, Process, Scenario};

#[derive(Debug, Clone)]
struct Proc {
    threads: u32,
    nice: i32,
    run_us: u64,
    sleep_us: u64,
    cpus: Option<(u32, u32)>,
}

fn proc_strategy() -> impl Strategy<Value = Proc> {
    (1u32..6, -5i32..6, 100u64..20_000, 0u64..20_000, proptest::option::of((0u32..16, 0u32..16)))
        .prop_map(|(threads, nice, run_us, sleep_us, cpus)| Proc { threads, nice, run_us, sleep_us, cpus })
}

fn scenario(machine: &str, ncpus: u32, procs: &[Proc], hotplug: Option<(u32, u64)>, bugs: bool) -> String {
    let ps = procs.iter().enumerate().map(|(i, p)| {
        let body = if p.sleep_us > 0 { vec![run(p.run_us), sleep(exp(p.sleep_us))] } else { vec![run(p.run_us)] };
        let process = Process::new(&format!("p{i}")).threads(p.threads).nice(p.nice);
        let process = match p.cpus {
            Some((a, b)) => {
                let (lo, hi) = (a.min(b) % ncpus, a.max(b) % ncpus);
                process.cpus(&format!("{}-{}", lo.min(hi), lo.max(hi)))
            }
            None => process,
        };
        process.start_ms(i as u64 * 3).program([forever(body)])
    });
    let s = Scenario::new("prop", 150).hz(1000).with_bugs(bugs).machine(machine).processes(ps);
    match hotplug {
        Some((cpu, at)) => s.cpu_offline(at, cpu % ncpus).cpu_online(at + 40, cpu % ncpus),
        None => s,
    }
    .build()
}

fn check(sim: &Simulator) -> Result<(), String> {
    let mut seen_running = std::collections::BTreeSet::new();
    for rq in sim.rqs() {
        if !rq.online && (rq.nr_running() > 0 || rq.curr().is_some()) {
            return Err(format!("offline CPU {} has tasks", rq.cpu));
        }
        // NO_HZ idle: only an idle CPU's tick stops; leaving idle restarts it.
        if rq.tick_stopped && rq.curr().is_some() {
            return Err(format!("CPU {} runs a task with its tick stopped", rq.cpu));
        }
        if rq.online && rq.curr().is_some() && !rq.tick_pending {
            return Err(format!("CPU {} runs a task with no tick pending", rq.cpu));
        }
        if let Some(p) = rq.curr() {
            if !seen_running.insert(p) {
                return Err(format!("task {p} runs on two CPUs"));
            }
            let t = &sim.tasks()[p.idx()];
            if t.cpu != rq.cpu || t.state != TaskState::Running {
                return Err(format!("curr {p} of CPU {} says cpu {} state {:?}", rq.cpu, t.cpu, t.state));
            }
        }
        // Every level: nr_running and load weight match the entities queued
        // there (tree + curr); the trees keep their invariants.
        for cfs in sim.cfs_rqs_of(rq.cpu) {
            let ents: Vec<schedlab_core::sched::entity::EntId> =
                cfs.tree.iter().into_iter().map(|(_, e)| e).chain(cfs.curr).collect();
            if ents.len() as u32 != cfs.nr_running {
                return Err(format!(
                    "CPU {} group {}: nr_running {} but {} entities",
                    rq.cpu,
                    cfs.tg,
                    cfs.nr_running,
                    ents.len()
                ));
            }
            let weight: u64 = ents.iter().map(|&e| sim.entity(e).weight).sum();
            if weight != cfs.load_weight {
                return Err(format!(
                    "CPU {} group {}: load weight {} but entities weigh {weight}",
                    rq.cpu, cfs.tg, cfs.load_weight
                ));
            }
            cfs.tree.check_invariants()?;
            // PELT: the runnable load is the queued entities' contributions, kept by deltas.
            let contribs: i64 = ents.iter().map(|&e| sim.entity(e).avg.load_avg_contrib as i64).sum();
            if contribs != cfs.runnable_load_avg {
                return Err(format!(
                    "CPU {} group {}: runnable_load_avg {} but queued entities contribute {contribs}",
                    rq.cpu, cfs.tg, cfs.runnable_load_avg
                ));
            }
        }
        let here: u32 = sim
            .tasks()
            .iter()
            .filter(|t| t.cpu == rq.cpu && matches!(t.state, TaskState::Running | TaskState::Runnable))
            .count() as u32;
        if here != rq.nr_running() {
            return Err(format!("CPU {}: nr_running {} but {here} tasks say they are here", rq.cpu, rq.nr_running()));
        }
        if rq.cfs_tasks.len() as u32 != rq.nr_running() {
            return Err(format!("CPU {}: cfs_tasks has {} entries", rq.cpu, rq.cfs_tasks.len()));
        }
        let queued: Vec<schedlab_core::time::Pid> =
            rq.cfs_tasks.iter().copied().filter(|&p| rq.curr() != Some(p)).collect();
        for p in queued {
            let t = &sim.tasks()[p.idx()];
            if t.cpu != rq.cpu || t.state != TaskState::Runnable {
                return Err(format!("queued {p} on CPU {} says cpu {} state {:?}", rq.cpu, t.cpu, t.state));
            }
        }
    }
    // A group's load_avg and runnable_avg are what its runqueues last passed on.
    for tg in sim.task_groups().iter().skip(1) {
        let cfss: Vec<_> = sim.rqs().iter().map(|rq| sim.cfs_rqs_of(rq.cpu)[tg.id as usize]).collect();
        let load: i64 = cfss.iter().map(|c| c.tg_load_contrib).sum();
        let runnable: i64 = cfss.iter().map(|c| c.tg_runnable_contrib).sum();
        if (load, runnable) != (tg.load_avg, tg.runnable_avg) {
            return Err(format!(
                "group {}: load_avg {} runnable_avg {} but its runqueues passed on {load} and {runnable}",
                tg.id, tg.load_avg, tg.runnable_avg
            ));
        }
    }
    for t in sim.tasks() {
        if matches!(t.state, TaskState::Running | TaskState::Runnable) && !t.allowed.test(t.cpu) {
            return Err(format!("task {} on CPU {} outside its affinity {}", t.pid, t.cpu, t.allowed.to_list()));
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]
    #[test]
    fn invariants_hold_after_every_event(
        machine in prop_oneof![Just(("laptop-2c4t", 4u32)), Just(("opteron-6272-8n", 64u32)), Just(("xeon-gold-5218-2s", 64u32))],
        procs in proptest::collection::vec(proc_strategy(), 1..6),
        hotplug in proptest::option::of((0u32..64, 10u64..80)),
        bugs in any::<bool>(),
    ) {
        let text = scenario(machine.0, machine.1, &procs, hotplug, bugs);
        let cfg = load_scenario(&text).map_err(|e| TestCaseError::fail(format!("{e:?}\n{text}")))?;
        let mut sim = Simulator::new(&cfg);
        let total = sim.tasks().len();
        let mut last = sim.now();
        while sim.step_event() {
            prop_assert!(sim.now() >= last, "time went back");
            last = sim.now();
            if let Err(e) = check(&sim) {
                return Err(TestCaseError::fail(format!("at {}: {e}\n{text}", sim.now())));
            }
        }
        prop_assert_eq!(sim.tasks().len(), total);
    }
}

//! The stop class: a CPU's stopper is woken with a work queued, runs above
//! every class at once, and sleeps again; the runqueue panel shows the
//! hierarchy in the kernel's order.
//!
//! The active balance is `active_balance.rs`'s hand-worked case: two hogs on
//! core 0 of the 2-core, 4-thread laptop, core 1 online at 100 ms; CPU 2's
//! fourth failed pass, at 116 ms, wakes the busiest CPU's stopper.

use crate::common::scenario::{self as step, forever, Process, Scenario};
use schedlab_core::api::views::classes::class_rows;
use schedlab_core::api::views::view::frame_view;
use schedlab_core::sim::stop::StopWork;
use schedlab_core::time::{CpuId, SimTime};
use schedlab_core::trace::{MigrateCause, TraceKind};
use serde_json::json;

/// The CPU whose stopper has works queued, and them.
fn woken_stopper(sim: &schedlab_core::sim::Simulator) -> Option<(CpuId, Vec<StopWork>)> {
    sim.rqs().iter().find(|rq| rq.stopper.queued()).map(|rq| (rq.cpu, rq.stopper.works.iter().copied().collect()))
}

#[test]
fn an_active_balance_wakes_the_stopper_which_runs_next_and_sleeps() {
    let mut sim = crate::active_balance::smt_pair_scenario("0-3", 200).sim();
    // Event by event until a stopper holds a work: the balancer's pass woke it and returned.
    let (cpu, works) = loop {
        assert!(sim.step_event(), "the run ended with no stopper woken");
        if let Some(w) = woken_stopper(&sim) {
            break w;
        }
    };
    assert_eq!(sim.now().ns() / 1_000_000, 116);
    assert_eq!(works, [StopWork::ActiveBalance { target: CpuId(2) }]);
    assert!(cpu < CpuId(2), "the busiest CPU is a thread of core 0");
    let hog = sim.rqs()[cpu.idx()].curr().expect("the hog still runs: the stopper has not run yet");
    // What the panel shows meanwhile: the stop class woken, its work listed.
    let view = frame_view(&sim, cpu);
    let detail = &view.cpus[cpu.idx()];
    assert_eq!(detail.stop_works.len(), 1);
    assert_eq!(detail.stop_works[0].kind, "active_balance");
    assert_eq!(detail.classes.as_ref().unwrap()[0].queued, 1, "the stopper is runnable");
    // The stopper runs at the same instant, once the events queued before its wakeup (CPU 3's tick) are
    // taken: the hog, preempted, is pushed to CPU 2.
    let pushed_before = pushes(&sim);
    while sim.rqs()[cpu.idx()].stopper.queued() {
        assert_eq!(sim.rqs()[cpu.idx()].curr(), Some(hog), "nothing runs in between but the hog");
        assert!(sim.step_event());
        assert_eq!(sim.now().ns() / 1_000_000, 116, "the stopper runs in the instant it was woken");
    }
    let rq = &sim.rqs()[cpu.idx()];
    assert_eq!(rq.stopper.runs, 1);
    assert_eq!(pushes(&sim), pushed_before + 1);
    assert_eq!(sim.rqs()[2].curr(), Some(hog), "the pushed hog runs on the CPU that asked");
    assert_eq!(sim.tasks()[hog.idx()].stats.nivcsw, 1, "the stopper's preemption is the hog's involuntary switch");
}

fn pushes(sim: &schedlab_core::sim::Simulator) -> usize {
    sim.trace()
        .recent(usize::MAX)
        .filter(|r| matches!(r.kind, TraceKind::Migrate { cause: MigrateCause::Active, .. }))
        .count()
}

/// An exec that chooses another CPU goes through the stopper too (`stop_one_cpu`: the caller waits, so the
/// stopper runs at once and nothing is left queued). `sim/exec_test.rs`'s hand-worked case: P execs on node 0
/// beside an idle sibling and moves there.
#[test]
fn an_exec_to_another_cpu_is_the_stoppers_migration() {
    let p = Process::new("P").cpus("0-1").start_ms(1).program([
        step::run(5_000),
        json!({"exec": true}),
        forever([step::run(1_000_000)]),
    ]);
    let mut sim = Scenario::new("stop-exec", 20)
        .hz(1000)
        .autogroup(false)
        .nohz(false)
        .topology(2, 2, 1)
        .process(p)
        .process(Process::hog("h2", 1_000_000).cpus("2"))
        .process(Process::hog("h3", 1_000_000).cpus("3"))
        .sim();
    sim.run_until(SimTime(20_000_000));
    let exec_moves = sim
        .trace()
        .recent(usize::MAX)
        .filter(|r| matches!(r.kind, TraceKind::Migrate { cause: MigrateCause::Exec, .. }))
        .count();
    let runs: u64 = sim.rqs().iter().map(|rq| rq.stopper.runs).sum();
    assert!(sim.rqs().iter().all(|rq| !rq.stopper.queued()));
    assert_eq!((exec_moves, runs), (1, 1), "the exec's move is the one run of a stopper");
}

/// A deadline task, a FIFO task and a fair hog on one CPU: the classes in the kernel's order, the deadline task
/// running (EDF's class is above the real-time class), each class's count.
#[test]
fn the_class_rows_follow_the_kernels_order() {
    let dl = Process::hog("dl", 1_000_000)
        .set("sched_policy", "deadline")
        .set("dl_runtime_us", 10_000)
        .set("dl_deadline_us", 100_000);
    let rt = Process::hog("rt", 1_000_000).set("sched_policy", "fifo").set("rt_priority", 10);
    let mut sim = Scenario::new("stop-rows", 5)
        .hz(1000)
        .autogroup(false)
        .machine("uniprocessor")
        .processes([dl, rt, Process::hog("fair", 1_000_000)])
        .sim();
    sim.run_until(SimTime(2_000_000));
    let rows = class_rows(&sim, CpuId(0));
    let got: Vec<(&str, u32, bool)> = rows.iter().map(|r| (r.class, r.queued, r.running)).collect();
    assert_eq!(
        got,
        [("stop", 0, false), ("deadline", 1, true), ("realtime", 1, false), ("cfs", 1, false), ("idle", 1, false)]
    );
}

//! Each CPU's class hierarchy as the runqueue panel draws it: the classes in
//! the kernel's order (`for_each_class`: stop, deadline, real-time, fair,
//! idle), how many of this CPU's tasks each holds and which one runs, and the
//! works a woken stopper has yet to run.

use crate::sim::dl::state::DlState;
use crate::sim::rt::state::RtState;
use crate::sim::stop::StopWork;
use crate::sim::Simulator;
use crate::task::TaskState;
use crate::time::{CpuId, Pid};
use serde::Serialize;

#[derive(Serialize)]
#[cfg_attr(any(test, feature = "gen"), derive(ts_rs::TS))]
pub struct ClassRowView {
    /// "stop", "deadline", "realtime", the run's class at the fair class's place ("cfs", "eevdf", "o1",
    /// "ext"), "idle".
    pub class: &'static str,
    /// Runnable tasks of the class on this CPU, the running one included (the stop class: its stopper, when
    /// woken; the idle class: its idle task, always there).
    pub queued: u32,
    /// The class of what runs on this CPU now.
    pub running: bool,
}

#[derive(Serialize)]
#[cfg_attr(any(test, feature = "gen"), derive(ts_rs::TS))]
pub struct StopWorkView {
    /// "active_balance" (`active_load_balance_cpu_stop`) or "migrate" (`migration_cpu_stop`).
    pub kind: &'static str,
    /// The CPU the work moves a task to.
    pub target: CpuId,
    /// The task it moves ("migrate" only; the active balance picks one when it runs).
    pub pid: Option<Pid>,
}

/// `cpu`'s classes, highest first. A class counts what it has queued for the pick, as `rq->nr_running` does:
/// a deadline task throttled until its replenishment, or a throttled real-time runqueue's tasks, are not counted.
pub fn class_rows(sim: &Simulator, cpu: CpuId) -> Vec<ClassRowView> {
    let rq = &sim.rqs()[cpu.idx()];
    let tasks = sim.tasks();
    let curr = rq.curr();
    let runs = |pred: &dyn Fn(&crate::task::Task) -> bool| curr.is_some_and(|c| pred(&tasks[c.idx()]));
    let dl = sim.class_state::<DlState>().map_or(0, |st| st.rqs[cpu.idx()].nr_running());
    let rt = sim.class_state::<RtState>().map_or(0, |st| {
        let rt_rq = &st.rqs[cpu.idx()];
        if rt_rq.throttled {
            0
        } else {
            rt_rq.nr_running
        }
    });
    // The run's class: its queued tasks; a sleeper 6.12 keeps queued (DELAY_DEQUEUE) is not runnable.
    let fair = rq
        .queued()
        .filter(|p| {
            let t = &tasks[p.idx()];
            !t.above_fair() && t.state != TaskState::Sleeping
        })
        .count() as u32;
    let row = |class, queued, running| ClassRowView { class, queued, running };
    vec![
        row("stop", u32::from(rq.stopper.queued()), false),
        row("deadline", dl, runs(&|t| t.policy.is_dl())),
        row("realtime", rt, runs(&|t| t.in_rt_class())),
        row(sim.run_class_name(), fair, runs(&|t| !t.above_fair())),
        row("idle", 1, curr.is_none()),
    ]
}

/// The works queued for `cpu`'s stopper, in the order it will run them.
pub fn stop_works(sim: &Simulator, cpu: CpuId) -> Vec<StopWorkView> {
    sim.rqs()[cpu.idx()]
        .stopper
        .works
        .iter()
        .map(|w| match *w {
            StopWork::ActiveBalance { target } => StopWorkView { kind: "active_balance", target, pid: None },
            StopWork::Migrate { pid, dest, .. } => StopWorkView { kind: "migrate", target: dest, pid: Some(pid) },
        })
        .collect()
}

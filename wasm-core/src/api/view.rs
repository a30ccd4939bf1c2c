//! What the UI draws at the cursor: per-CPU runqueues with the exact
//! red-black tree shape, the tasks, the last rotations, recent trace records
//! and run slices. Built on demand from the simulator; never stored.

use crate::rbtree::RotationDir;
use crate::sim::Simulator;
use crate::time::{Pid, SimTime};
use crate::trace::{TraceKind, TraceRecord};
use serde::Serialize;

#[derive(Serialize)]
pub struct SimView {
    pub now_ns: u64,
    pub events: u64,
    pub finished: bool,
    pub cpus: Vec<CpuView>,
    pub tasks: Vec<TaskView>,
    pub rotations: Vec<RotationView>,
}

#[derive(Serialize)]
pub struct CpuView {
    pub cpu: u32,
    pub online: bool,
    pub curr: Option<Pid>,
    pub nr_running: u32,
    pub min_vruntime: u64,
    pub load_weight: u64,
    pub tree: TreeView,
}

#[derive(Serialize)]
pub struct TreeView {
    pub root: Option<Pid>,
    pub nodes: Vec<TreeNode>,
}

#[derive(Serialize)]
pub struct TreeNode {
    pub pid: Pid,
    pub name: String,
    pub vruntime: u64,
    pub red: bool,
    pub left: Option<Pid>,
    pub right: Option<Pid>,
}

#[derive(Serialize)]
pub struct RotationView {
    pub cpu: u32,
    pub dir: &'static str,
    pub pivot: Pid,
}

#[derive(Serialize)]
pub struct TaskView {
    pub pid: Pid,
    pub tgid: u32,
    pub name: String,
    pub nice: i32,
    pub weight: u64,
    pub state: &'static str,
    pub cpu: u32,
    pub vruntime: u64,
    pub sum_exec_ns: u64,
    pub wait_ns: u64,
    pub nvcsw: u64,
    pub nivcsw: u64,
}

#[derive(Serialize)]
pub struct EventView {
    pub t_ns: u64,
    pub cpu: u32,
    pub kind: &'static str,
    pub text: String,
}

pub fn sim_view(sim: &Simulator) -> SimView {
    let tasks = sim.tasks();
    let name = |pid: Pid| tasks[pid as usize].name.clone();
    let cpus = sim
        .rqs()
        .iter()
        .map(|rq| {
            let (root, shape) = rq.cfs.tree.shape();
            CpuView {
                cpu: rq.cpu,
                online: rq.online,
                curr: rq.curr(),
                nr_running: rq.nr_running(),
                min_vruntime: rq.cfs.min_vruntime,
                load_weight: rq.cfs.load_weight,
                tree: TreeView {
                    root,
                    nodes: shape
                        .into_iter()
                        .map(|n| TreeNode {
                            pid: n.val,
                            name: name(n.val),
                            vruntime: n.key.0,
                            red: n.red,
                            left: n.left,
                            right: n.right,
                        })
                        .collect(),
                },
            }
        })
        .collect();
    let now = sim.now();
    SimView {
        now_ns: now.ns(),
        events: sim.events_processed(),
        finished: sim.finished(),
        cpus,
        tasks: tasks
            .iter()
            .map(|t| TaskView {
                pid: t.pid,
                tgid: t.tgid,
                name: t.name.clone(),
                nice: t.nice,
                weight: t.se.weight,
                state: t.state.as_str(),
                cpu: t.cpu,
                vruntime: t.se.vruntime,
                sum_exec_ns: t.se.sum_exec_runtime,
                wait_ns: t.stats.wait_ns_at(now),
                nvcsw: t.stats.nvcsw,
                nivcsw: t.stats.nivcsw,
            })
            .collect(),
        rotations: sim
            .rotations()
            .iter()
            .map(|(cpu, r)| RotationView {
                cpu: *cpu,
                dir: if r.dir == RotationDir::Left { "left" } else { "right" },
                pivot: r.pivot,
            })
            .collect(),
    }
}

/// The `n` most recent trace records, oldest first, with readable text.
pub fn recent_events(sim: &Simulator, n: usize) -> Vec<EventView> {
    sim.trace().recent(n).map(|r| describe(sim, r)).collect()
}

fn describe(sim: &Simulator, r: &TraceRecord) -> EventView {
    let tasks = sim.tasks();
    let nm = |p: Option<Pid>| p.map_or("idle".to_string(), |p| format!("{}[{}]", tasks[p as usize].name, p));
    let (kind, text) = match r.kind {
        TraceKind::Switch { prev, next, prev_state } => {
            ("sched_switch", format!("{} ({}) → {}", nm(prev), prev_state.as_str(), nm(next)))
        }
        TraceKind::Wakeup { pid } => ("sched_wakeup", format!("{} woke up", nm(Some(pid)))),
        TraceKind::WakeupNew { pid } => ("sched_wakeup_new", format!("{} started", nm(Some(pid)))),
        TraceKind::Sleep { pid, ns } => ("sleep", format!("{} sleeps {}", nm(Some(pid)), SimTime(ns))),
        TraceKind::Exit { pid } => ("exit", format!("{} exited", nm(Some(pid)))),
        TraceKind::TickPreempt { pid } => ("tick_preempt", format!("tick: {} used its slice", nm(Some(pid)))),
        TraceKind::WakeupPreempt { curr, by } => {
            ("wakeup_preempt", format!("{} preempts {}", nm(Some(by)), nm(Some(curr))))
        }
        TraceKind::Migrate { pid, from, cause } => (
            "sched_migrate_task",
            format!("{} moved from CPU {} to CPU {} ({})", nm(Some(pid)), from, r.cpu, cause.as_str()),
        ),
        TraceKind::Balance { level, moved } => {
            ("load_balance", format!("CPU {} balanced domain level {}: {} task(s) pulled", r.cpu, level, moved))
        }
        TraceKind::Hotplug { offline } => {
            ("hotplug", format!("CPU {} goes {}", r.cpu, if offline { "offline" } else { "online" }))
        }
    };
    EventView { t_ns: r.at.ns(), cpu: r.cpu, kind, text }
}

/// Run slices overlapping [t0, t1] as flat quads [cpu, pid, start, end],
/// the slices still running included (ending at now).
pub fn slices(sim: &Simulator, t0: SimTime, t1: SimTime) -> Vec<f64> {
    let all = &sim.trace().slices;
    let first = all.partition_point(|s| s.end < t0);
    let mut out = Vec::new();
    for s in &all[first..] {
        if s.start <= t1 {
            out.extend([s.cpu as f64, s.pid as f64, s.start.ns() as f64, s.end.ns() as f64]);
        }
    }
    let now = sim.now();
    for rq in sim.rqs() {
        if let Some(pid) = rq.curr() {
            if rq.slice_start <= t1 && now >= t0 {
                out.extend([rq.cpu as f64, pid as f64, rq.slice_start.ns() as f64, now.ns() as f64]);
            }
        }
    }
    out
}

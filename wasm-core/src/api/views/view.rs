//! What the UI draws at the cursor: per-CPU runqueues with the exact
//! red-black tree shape, the tasks, the last rotations, recent trace records
//! and run slices. Built on demand from the simulator; never stored.

use crate::rbtree::RotationDir;
use crate::sched::entity::{ent_pid, is_group, EntId};
use crate::sim::Simulator;
use crate::time::{CpuId, Pid, SimTime};
use crate::trace::{TraceKind, TraceRecord};
use serde::Serialize;

#[derive(Serialize)]
#[cfg_attr(any(test, feature = "gen"), derive(ts_rs::TS))]
pub struct SimView {
    pub now_ns: u64,
    pub events: u64,
    pub finished: bool,
    pub cpus: Vec<CpuView>,
    pub tasks: Vec<TaskView>,
    pub rotations: Vec<RotationView>,
}

#[derive(Serialize)]
#[cfg_attr(any(test, feature = "gen"), derive(ts_rs::TS))]
pub struct CpuView {
    pub cpu: CpuId,
    pub online: bool,
    pub curr: Option<Pid>,
    pub nr_running: u32,
    pub min_vruntime: u64,
    pub load_weight: u64,
    /// The root runqueue's entity running now (a task, or a group entity).
    pub root_curr: Option<EntId>,
    pub tree: TreeView,
    /// Non-empty group runqueues of this CPU.
    pub groups: Vec<GroupRqView>,
    /// PELT load the balancer sees (`weighted_cpuload`).
    pub load: u64,
    /// Group Identity on: the root's underclass tree (picked only when the
    /// normal tree is empty). None when Group Identity is off.
    pub under: Option<TreeView>,
    /// Policy "o1": the priority arrays (detail CPU only). None otherwise.
    pub o1: Option<O1RqView>,
    /// `cpu_load[]` (load_idx 1..5 read index 0..4), detail CPU only: on a
    /// tickless idle CPU, what its last busy tick left.
    pub cpu_load: Option<Vec<u64>>,
    /// The CPU idles tickless (NO_HZ idle): no tick until it leaves idle.
    pub tick_stopped: bool,
    /// Linux 6.12: the EEVDF queues (detail CPU only), the root's first, then
    /// each task group's with an entity on this CPU. None under 4.1.
    pub eevdf: Option<Vec<super::eevdf::EevdfRqView>>,
    /// The real-time class's runqueue (detail CPU only), above the fair
    /// class's in the hierarchy. None when the run has no real-time task.
    pub rt: Option<super::rt::RtRqView>,
    /// The deadline class's runqueue (detail CPU only), above the real-time
    /// class's. None when the run has no deadline task.
    pub dl: Option<super::dl::DlRqView>,
    /// The class hierarchy on this CPU, stop class first (detail CPU only).
    pub classes: Option<Vec<super::classes::ClassRowView>>,
    /// The works a woken stopper has yet to run (they run at the instant it was woken, after the event that
    /// woke it; stepping shows them in between).
    pub stop_works: Vec<super::classes::StopWorkView>,
}

/// An O(1) runqueue: the active and expired arrays and how often they swapped.
#[derive(Serialize)]
#[cfg_attr(any(test, feature = "gen"), derive(ts_rs::TS))]
pub struct O1RqView {
    pub active: O1ArrayView,
    pub expired: O1ArrayView,
    /// Array switches so far.
    pub switches: u64,
    /// The best static priority among the expired tasks (140 if none).
    pub best_expired_prio: usize,
    /// When the first task expired since the last switch (ns), if one did.
    pub expired_timestamp_ns: Option<u64>,
}

/// One `prio_array`: the bitmap's set bits as the kernel holds them, and the
/// non-empty FIFO lists (level, tasks in queue order).
#[derive(Serialize)]
#[cfg_attr(any(test, feature = "gen"), derive(ts_rs::TS))]
pub struct O1ArrayView {
    pub nr_active: u32,
    pub bitmap: Vec<u32>,
    pub levels: Vec<O1LevelView>,
}

#[derive(Serialize)]
#[cfg_attr(any(test, feature = "gen"), derive(ts_rs::TS))]
pub struct O1LevelView {
    pub prio: u32,
    pub tasks: Vec<O1TaskView>,
}

#[derive(Serialize)]
#[cfg_attr(any(test, feature = "gen"), derive(ts_rs::TS))]
pub struct O1TaskView {
    pub pid: Pid,
    pub name: String,
    pub static_prio: usize,
    pub sleep_avg_ns: u64,
    pub time_slice_ns: u64,
}

pub use super::tree::{TreeNode, TreeView};

/// The runqueue of one task group on one CPU (group scheduling's tree of trees).
#[derive(Serialize)]
#[cfg_attr(any(test, feature = "gen"), derive(ts_rs::TS))]
pub struct GroupRqView {
    pub tg: u32,
    pub name: String,
    pub nr_running: u32,
    pub h_nr_running: u32,
    pub load_weight: u64,
    pub min_vruntime: u64,
    pub curr: Option<EntId>,
    pub tree: TreeView,
    /// Group Identity on: this group runqueue's underclass tree.
    pub under: Option<TreeView>,
}

#[derive(Serialize)]
#[cfg_attr(any(test, feature = "gen"), derive(ts_rs::TS))]
pub struct RotationView {
    pub cpu: CpuId,
    #[cfg_attr(any(test, feature = "gen"), ts(as = "crate::rbtree::RotationDir"))]
    pub dir: &'static str,
    // An entity id, as `TreeView::root`.
    pub pivot: EntId,
}

#[derive(Serialize)]
#[cfg_attr(any(test, feature = "gen"), derive(ts_rs::TS))]
pub struct TaskView {
    pub pid: Pid,
    pub tgid: u32,
    pub name: String,
    pub nice: i32,
    /// The scheduling policy ("normal", "fifo", "rr", …) and, real-time, its priority (else 0).
    pub policy: &'static str,
    pub rt_priority: u32,
    pub weight: u64,
    #[cfg_attr(any(test, feature = "gen"), ts(as = "crate::task::TaskState"))]
    pub state: &'static str,
    pub cpu: CpuId,
    pub vruntime: u64,
    pub sum_exec_ns: u64,
    pub wait_ns: u64,
    pub nvcsw: u64,
    pub nivcsw: u64,
}

#[derive(Serialize)]
#[cfg_attr(any(test, feature = "gen"), derive(ts_rs::TS))]
pub struct EventView {
    pub t_ns: u64,
    pub cpu: CpuId,
    pub kind: &'static str,
    /// The record in one English line (CLI, tests).
    pub text: String,
    /// The same record's parts, which the app words in the interface language
    /// (task names as `name[pid]`, "" for the idle task).
    #[cfg_attr(any(test, feature = "gen"), ts(type = "{ [key in string]: string }"))]
    pub args: super::event_args::EventArgs,
}

fn tree_view(sim: &Simulator, tree: &crate::rbtree::RbTree<(u64, EntId), EntId>) -> TreeView {
    let (root, shape) = tree.shape();
    TreeView {
        root,
        nodes: shape
            .into_iter()
            .map(|n| {
                let group = is_group(n.val).then(|| sim.group_of_entity(n.val));
                TreeNode {
                    pid: n.val,
                    name: entity_name(sim, n.val),
                    vruntime: n.key.0,
                    weight: sim.entity(n.val).weight,
                    red: n.red,
                    left: n.left,
                    right: n.right,
                    group,
                }
            })
            .collect(),
    }
}

fn entity_name(sim: &Simulator, id: EntId) -> String {
    if is_group(id) {
        sim.task_groups()[sim.group_of_entity(id) as usize].name.clone()
    } else {
        sim.tasks()[ent_pid(id).idx()].name.clone()
    }
}

pub fn sim_view(sim: &Simulator) -> SimView {
    view_of(sim, |_| true, true)
}

/// What the UI needs every animation frame: every CPU's counters, but the
/// trees of the `detail` CPU only and no task list (the UI fetches tasks, which
/// run to thousands on forking workloads, a few times a second instead).
pub fn frame_view(sim: &Simulator, detail: CpuId) -> SimView {
    view_of(sim, |cpu| cpu == detail, false)
}

fn view_of(sim: &Simulator, trees_of: impl Fn(CpuId) -> bool, with_tasks: bool) -> SimView {
    let empty = || TreeView { root: None, nodes: Vec::new() };
    let gi = sim.policy().group_identity;
    let cpus = sim
        .rqs()
        .iter()
        .map(|rq| CpuView {
            cpu: rq.cpu,
            online: rq.online,
            curr: rq.curr(),
            nr_running: rq.nr_running(),
            min_vruntime: rq.cfs.min_vruntime,
            load_weight: rq.cfs.load_weight,
            root_curr: rq.cfs.curr,
            tree: if trees_of(rq.cpu) { tree_view(sim, &rq.cfs.tree) } else { empty() },
            groups: if trees_of(rq.cpu) { group_rqs(sim, rq.cpu) } else { Vec::new() },
            load: rq.weighted_cpuload(),
            under: (gi && trees_of(rq.cpu)).then(|| tree_view(sim, &rq.cfs.under)),
            o1: if trees_of(rq.cpu) { o1_view(sim, rq.cpu) } else { None },
            cpu_load: trees_of(rq.cpu).then(|| rq.cpu_load.to_vec()),
            tick_stopped: rq.tick_stopped,
            eevdf: if trees_of(rq.cpu) { super::eevdf::eevdf_queues(sim, rq.cpu) } else { None },
            rt: if trees_of(rq.cpu) { super::rt::rt_rq_view(sim, rq.cpu) } else { None },
            dl: if trees_of(rq.cpu) { super::dl::dl_rq_view(sim, rq.cpu) } else { None },
            classes: trees_of(rq.cpu).then(|| super::classes::class_rows(sim, rq.cpu)),
            stop_works: super::classes::stop_works(sim, rq.cpu),
        })
        .collect();
    let now = sim.now();
    SimView {
        now_ns: now.ns(),
        events: sim.events_processed(),
        finished: sim.finished(),
        cpus,
        tasks: if with_tasks { task_views(sim) } else { Vec::new() },
        rotations: sim
            .rotations()
            .iter()
            .map(|(cpu, r)| RotationView { cpu: *cpu, dir: rotation_word(r.dir), pivot: r.pivot })
            .collect(),
    }
}

/// A rotation's direction as the app reads it (its TypeScript type lists these words).
pub fn rotation_word(dir: RotationDir) -> &'static str {
    match dir {
        RotationDir::Left => "left",
        RotationDir::Right => "right",
    }
}

/// The non-empty group runqueues of `cpu` (the root's left out).
fn group_rqs(sim: &Simulator, cpu: CpuId) -> Vec<GroupRqView> {
    sim.cfs_rqs_of(cpu)
        .into_iter()
        .skip(1)
        .filter(|c| c.nr_running > 0)
        .map(|c| GroupRqView {
            tg: c.tg,
            name: sim.task_groups()[c.tg as usize].name.clone(),
            nr_running: c.nr_running,
            h_nr_running: c.h_nr_running,
            load_weight: c.load_weight,
            min_vruntime: c.min_vruntime,
            curr: c.curr,
            tree: tree_view(sim, &c.tree),
            under: sim.policy().group_identity.then(|| tree_view(sim, &c.under)),
        })
        .collect()
}

/// The O(1) arrays of `cpu`, if the O(1) class runs.
fn o1_view(sim: &Simulator, cpu: CpuId) -> Option<O1RqView> {
    let o1 = sim.class_state::<crate::sched::o1::O1State>()?;
    let rq = &o1.rqs[cpu.idx()];
    let array = |a: &crate::sched::o1::PrioArray| O1ArrayView {
        nr_active: a.nr_active,
        bitmap: (0..crate::sched::o1::MAX_PRIO as u32)
            .filter(|&p| a.bitmap[p as usize / 64] >> (p % 64) & 1 == 1)
            .collect(),
        levels: a
            .queue
            .iter()
            .enumerate()
            .filter(|(_, q)| !q.is_empty())
            .map(|(prio, q)| O1LevelView {
                prio: prio as u32,
                tasks: q
                    .iter()
                    .map(|&pid| {
                        let t = o1.tasks.get(pid.idx());
                        O1TaskView {
                            pid,
                            name: sim.tasks()[pid.idx()].name.clone(),
                            static_prio: t.map_or(0, |t| t.static_prio),
                            sleep_avg_ns: t.map_or(0, |t| t.sleep_avg_ns),
                            time_slice_ns: t.map_or(0, |t| t.time_slice_ns),
                        }
                    })
                    .collect(),
            })
            .collect(),
    };
    Some(O1RqView {
        active: array(rq.active()),
        expired: array(rq.expired()),
        switches: rq.switches,
        best_expired_prio: rq.best_expired_prio,
        expired_timestamp_ns: rq.expired_timestamp,
    })
}

/// Every task with its scheduling state and statistics.
pub fn task_views(sim: &Simulator) -> Vec<TaskView> {
    let now = sim.now();
    sim.tasks().iter().map(|t| task_view(t, now)).collect()
}

/// The task table's rows: every task when there are at most `max`, else the
/// first `max` that have not exited (live tasks are what the cursor
/// explains), with the total. A 10,000-thread run so never serialises every
/// task for a table that shows a few hundred.
#[derive(Serialize)]
#[cfg_attr(any(test, feature = "gen"), derive(ts_rs::TS))]
pub struct TaskList {
    pub rows: Vec<TaskView>,
    pub total: usize,
}

pub fn listed_task_views(sim: &Simulator, max: usize) -> TaskList {
    let now = sim.now();
    let tasks = sim.tasks();
    let many = tasks.len() > max;
    let rows = tasks
        .iter()
        .filter(|t| !many || t.state != crate::task::TaskState::Exited)
        .take(max)
        .map(|t| task_view(t, now))
        .collect();
    TaskList { rows, total: tasks.len() }
}

fn task_view(t: &crate::task::Task, now: crate::time::SimTime) -> TaskView {
    TaskView {
        pid: t.pid,
        tgid: t.tgid,
        name: t.name.clone(),
        nice: t.nice,
        policy: t.policy.name(),
        rt_priority: t.rt_priority,
        weight: t.se.weight,
        state: t.state.as_str(),
        cpu: t.cpu,
        vruntime: t.se.vruntime,
        sum_exec_ns: t.se.sum_exec_runtime,
        wait_ns: t.stats.wait_ns_at(now),
        nvcsw: t.stats.nvcsw,
        nivcsw: t.stats.nivcsw,
    }
}

/// The names of tasks `from..` (names never change and pids only grow, so
/// the UI fetches each name once).
pub fn task_names(sim: &Simulator, from: usize) -> Vec<&str> {
    sim.tasks().iter().skip(from).map(|t| t.name.as_str()).collect()
}

/// The `n` most recent trace records, oldest first, with readable text.
pub fn recent_events(sim: &Simulator, n: usize) -> Vec<EventView> {
    sim.trace().recent(n).map(|r| describe(sim, r)).collect()
}

pub(crate) fn describe(sim: &Simulator, r: &TraceRecord) -> EventView {
    let tasks = sim.tasks();
    let name = |p: Option<Pid>| p.map_or(String::new(), |p| format!("{}[{}]", tasks[p.idx()].name, p));
    let shown = |s: &String| if s.is_empty() { "idle".to_string() } else { s.clone() };
    let mut args = super::event_args::EventArgs::default();
    let (kind, text) = match r.kind {
        TraceKind::Switch { prev, next, prev_state } => {
            let (p, n) = (name(prev), name(next));
            let text = format!("{} ({}) → {}", shown(&p), prev_state.as_str(), shown(&n));
            args.insert("prev", p);
            args.insert("prev_state", prev_state.as_str().to_string());
            args.insert("next", n);
            ("sched_switch", text)
        }
        TraceKind::Wakeup { pid } => {
            args.insert("task", name(Some(pid)));
            ("sched_wakeup", format!("{} woke up", name(Some(pid))))
        }
        TraceKind::WakeupNew { pid } => {
            args.insert("task", name(Some(pid)));
            ("sched_wakeup_new", format!("{} started", name(Some(pid))))
        }
        TraceKind::Sleep { pid, ns } => {
            args.insert("task", name(Some(pid)));
            args.insert("dur", SimTime(ns).to_string());
            ("sleep", format!("{} sleeps {}", name(Some(pid)), SimTime(ns)))
        }
        TraceKind::Exit { pid } => {
            args.insert("task", name(Some(pid)));
            ("exit", format!("{} exited", name(Some(pid))))
        }
        TraceKind::TickPreempt { pid } => {
            args.insert("task", name(Some(pid)));
            ("tick_preempt", format!("tick: {} used its slice", name(Some(pid))))
        }
        TraceKind::WakeupPreempt { curr, by } => {
            args.insert("by", name(Some(by)));
            args.insert("curr", name(Some(curr)));
            ("wakeup_preempt", format!("{} preempts {}", name(Some(by)), name(Some(curr))))
        }
        TraceKind::Migrate { pid, from, cause } => {
            args.insert("task", name(Some(pid)));
            args.insert("from", from.to_string());
            args.insert("to", r.cpu.to_string());
            args.insert("cause", cause.as_str().to_string());
            (
                "sched_migrate_task",
                format!("{} moved from CPU {} to CPU {} ({})", name(Some(pid)), from, r.cpu, cause.as_str()),
            )
        }
        TraceKind::Balance { level, moved } => {
            args.insert("level", level.to_string());
            args.insert("moved", moved.to_string());
            ("load_balance", format!("CPU {} balanced domain level {}: {} task(s) pulled", r.cpu, level, moved))
        }
        TraceKind::Hotplug { offline } => {
            let state = if offline { "offline" } else { "online" };
            args.insert("state", state.to_string());
            ("hotplug", format!("CPU {} goes {}", r.cpu, state))
        }
        TraceKind::PiSetprio { pid, oldprio, newprio } => {
            args.insert("task", name(Some(pid)));
            args.insert("oldprio", oldprio.to_string());
            args.insert("newprio", newprio.to_string());
            ("sched_pi_setprio", format!("{}: prio {} → {} (priority inheritance)", name(Some(pid)), oldprio, newprio))
        }
    };
    EventView { t_ns: r.at.ns(), cpu: r.cpu, kind, text, args }
}

/// Run slices overlapping [t0, t1] as flat quads [cpu, pid, start, end],
/// the slices still running included (ending at now).
///
/// `bucket_ns` bounds the answer for a zoomed-out window: a slice shorter than
/// a bucket (about a pixel of the lanes) is drawn as the whole bucket it starts
/// in, once per CPU and bucket, so a run of 2 million microsecond slices comes
/// back as a few thousand per CPU, each pixel painted by the first task that
/// ran there. 0 returns every slice.
pub fn slices(sim: &Simulator, t0: SimTime, t1: SimTime, bucket_ns: u64, cpus: std::ops::Range<u32>) -> Vec<f64> {
    let all = &sim.trace().slices;
    let first = all.partition_point(|s| s.end < t0);
    let mut out = Vec::new();
    let mut last_bucket: Vec<u64> = vec![u64::MAX; sim.rqs().len()];
    for s in &all[first..] {
        if s.start > t1 || !cpus.contains(&s.cpu.0) {
            continue;
        }
        let len = s.end.since(s.start);
        if bucket_ns == 0 || len >= bucket_ns {
            out.extend([f64::from(s.cpu.0), f64::from(s.pid.0), s.start.ns() as f64, s.end.ns() as f64]);
            continue;
        }
        let b = s.start.ns() / bucket_ns;
        let seen = &mut last_bucket[s.cpu.idx()];
        if *seen != b {
            *seen = b;
            out.extend([f64::from(s.cpu.0), f64::from(s.pid.0), (b * bucket_ns) as f64, ((b + 1) * bucket_ns) as f64]);
        }
    }
    let now = sim.now();
    for rq in sim.rqs().iter().filter(|rq| cpus.contains(&rq.cpu.0)) {
        if let Some(pid) = rq.curr() {
            if rq.slice_start <= t1 && now >= t0 {
                out.extend([f64::from(rq.cpu.0), f64::from(pid.0), rq.slice_start.ns() as f64, now.ns() as f64]);
            }
        }
    }
    out
}

//! The deadline class's runqueue of the detail CPU as the page draws it: the
//! red-black tree of queued tasks keyed by absolute deadline (the shape the
//! kernel's `dl_rq->root` would have; keys shown as time left to the
//! deadline), each server's runtime left, throttled tasks waiting for their
//! replenishment, and the deadlines missed.

use super::tree::{TreeNode, TreeView};
use crate::sched::entity::task_ent_id;
use crate::sim::dl::state::DlState;
use crate::sim::Simulator;
use crate::time::{CpuId, Pid};
use serde::Serialize;

#[derive(Serialize)]
#[cfg_attr(any(test, feature = "gen"), derive(ts_rs::TS))]
pub struct DlRqView {
    /// The queue as its tree; a node's `vruntime` field holds the time left to its deadline (ns, 0 if past).
    pub tree: TreeView,
    /// This CPU's deadline tasks, queued ones in deadline order, then those throttled here.
    pub tasks: Vec<DlTaskView>,
    /// `dl_rq->overloaded`: more than one queued, one may move.
    pub overloaded: bool,
    /// Linux 6.12: the CPU's fair server, a deadline entity beside the tasks. None under 4.1.
    pub fair_server: Option<FairServerView>,
    /// Linux 6.12: GRUB's bandwidths on this CPU, in % of a CPU. None under 4.1.
    pub grub: Option<GrubView>,
}

/// GRUB's counts on one CPU (`struct dl_rq`'s `running_bw`, `this_bw`, `extra_bw`), in % of the CPU.
#[derive(Serialize)]
#[cfg_attr(any(test, feature = "gen"), derive(ts_rs::TS))]
pub struct GrubView {
    /// Active: runnable entities, and blocked ones before their 0-lag time.
    pub running_pct: f64,
    /// Every deadline entity of this CPU, the fair server included.
    pub this_pct: f64,
    /// What admission left unreserved.
    pub extra_pct: f64,
}

/// Linux 6.12's fair server on one CPU, in the states deadline.c's own diagram names.
#[derive(Serialize)]
#[cfg_attr(any(test, feature = "gen"), derive(ts_rs::TS))]
pub struct FairServerView {
    /// "init" (not started, or stopped), "zero_laxity_wait" (deferred: the fair class runs on its own and is
    /// charged to it), "running" (queued for the EDF pick: the fair class starved), "replenish_wait" (spent,
    /// waiting for its next period).
    pub state: &'static str,
    pub runtime_left_ns: i64,
    pub runtime_ns: u64,
    pub period_ns: u64,
    /// The absolute deadline minus now.
    pub deadline_in_ns: i64,
    /// When its timer fires, minus now (the zero-laxity time, or the next period), if armed.
    pub timer_in_ns: Option<i64>,
    /// How often it was put on the runqueue because the fair class starved.
    pub activations: u64,
}

#[derive(Serialize)]
#[cfg_attr(any(test, feature = "gen"), derive(ts_rs::TS))]
pub struct DlTaskView {
    pub pid: Pid,
    pub name: String,
    /// The absolute deadline minus now (negative once passed).
    pub deadline_in_ns: i64,
    /// Runtime left in the current reservation (negative after an overrun).
    pub runtime_left_ns: i64,
    pub runtime_ns: u64,
    pub deadline_ns: u64,
    pub period_ns: u64,
    /// Out of runtime, off the tree until the replenishment at its deadline.
    pub throttled: bool,
    /// SCHED_FLAG_RECLAIM (6.12): its run time is charged scaled by GRUB.
    pub reclaim: bool,
    pub misses: u64,
}

/// `cpu`'s deadline runqueue, if the run has deadline tasks.
pub fn dl_rq_view(sim: &Simulator, cpu: CpuId) -> Option<DlRqView> {
    let st: &DlState = sim.class_state::<DlState>()?;
    let rq = &st.rqs[cpu.idx()];
    let now = sim.now().0;
    let tasks = sim.tasks();
    let (root, shape) = rq.tree().shape();
    let tree = TreeView {
        root: root.map(task_ent_id),
        nodes: shape
            .into_iter()
            .map(|n| TreeNode {
                pid: task_ent_id(n.val),
                name: tasks[n.val.idx()].name.clone(),
                vruntime: n.key.0.saturating_sub(now),
                weight: 0,
                red: n.red,
                left: n.left.map(task_ent_id),
                right: n.right.map(task_ent_id),
                group: None,
            })
            .collect(),
    };
    let view = |pid: Pid| {
        let e = st.ent(pid);
        DlTaskView {
            pid,
            name: tasks[pid.idx()].name.clone(),
            deadline_in_ns: e.deadline as i64 - now as i64,
            runtime_left_ns: e.runtime,
            runtime_ns: e.params.runtime_ns,
            deadline_ns: e.params.deadline_ns,
            period_ns: e.params.period_ns,
            throttled: e.throttled,
            reclaim: e.params.reclaim,
            misses: e.misses,
        }
    };
    let mut list: Vec<DlTaskView> = rq.queued().map(|(_, p)| view(p)).collect();
    let throttled_here = st.ents.iter().enumerate().filter_map(|(i, e)| {
        let pid = Pid(i as u32);
        e.as_ref().filter(|e| e.throttled && tasks[i].cpu == cpu && tasks[i].se.on_rq).map(|_| pid)
    });
    list.extend(throttled_here.map(view));
    let fair_server = st.servers.get(cpu.idx()).and_then(|s| s.as_ref()).map(|s| FairServerView {
        state: match (s.active, s.queued, s.ent.throttled, s.defer_armed) {
            (false, ..) => "init",
            (true, true, ..) => "running",
            (true, false, true, true) => "zero_laxity_wait",
            (true, false, ..) => "replenish_wait",
        },
        runtime_left_ns: s.ent.runtime,
        runtime_ns: s.ent.params.runtime_ns,
        period_ns: s.ent.params.period_ns,
        deadline_in_ns: s.ent.deadline as i64 - now as i64,
        timer_in_ns: s.timer_at.map(|t| t as i64 - now as i64),
        activations: s.activations,
    });
    let pct = |bw: u64| bw as f64 * 100.0 / f64::from(1u32 << crate::sched::policy::BW_SHIFT);
    let grub = st.bw.get(cpu.idx()).map(|b| GrubView {
        running_pct: pct(b.running_bw),
        this_pct: pct(b.this_bw),
        extra_pct: pct(b.extra_bw),
    });
    Some(DlRqView { tree, tasks: list, overloaded: rq.overloaded, fair_server, grub })
}

//! The real-time class's runqueue of the detail CPU as the page draws it:
//! the priority array's bitmap and its lists (kernel prio 0–99, lower runs
//! first), the pushable tasks, the overload flag and the bandwidth
//! (`rt_time` against `rt_runtime` in the current period, throttled or not).

use crate::sim::rt::state::RtState;
use crate::sim::Simulator;
use crate::time::{CpuId, Pid};
use serde::Serialize;

#[derive(Serialize)]
#[cfg_attr(any(test, feature = "gen"), derive(ts_rs::TS))]
pub struct RtRqView {
    /// The prios whose list is not empty (`active.bitmap`'s set bits).
    pub bitmap: Vec<u32>,
    /// The queued tasks in pick order, the running one included.
    pub queued: Vec<RtTaskView>,
    /// `rt_rq->overloaded`: more than one queued, one may move.
    pub overloaded: bool,
    pub throttled: bool,
    /// Real-time bandwidth is enforced (4.1); false under 6.12 built without RT_GROUP_SCHED, which neither counts
    /// `rt_time` nor throttles (its fair server bounds real-time tasks instead).
    pub bandwidth: bool,
    pub rt_time_ns: u64,
    pub rt_runtime_ns: u64,
    pub period_ns: u64,
}

#[derive(Serialize)]
#[cfg_attr(any(test, feature = "gen"), derive(ts_rs::TS))]
pub struct RtTaskView {
    pub pid: Pid,
    pub name: String,
    /// The kernel's prio (99 − rt_priority).
    pub prio: u32,
    pub rt_priority: u32,
    /// "fifo" or "rr".
    pub policy: &'static str,
    /// In `pushable_tasks`: waiting, and allowed elsewhere.
    pub pushable: bool,
    /// The prio its own policy gives (`normal_prio`): above `prio` while a PI mutex lends it a more urgent one
    /// (100–139 for a fair task lent a real-time prio).
    pub normal_prio: u32,
}

/// `cpu`'s real-time runqueue, if the run has real-time tasks.
pub fn rt_rq_view(sim: &Simulator, cpu: CpuId) -> Option<RtRqView> {
    let st: &RtState = sim.class_state::<RtState>()?;
    let rq = &st.rqs[cpu.idx()];
    let pushable: Vec<Pid> = rq.pushable().collect();
    let tasks = sim.tasks();
    Some(RtRqView {
        bitmap: (0..crate::sched::policy::MAX_RT_PRIO)
            .filter(|&p| rq.bitmap[p as usize / 64] >> (p % 64) & 1 == 1)
            .collect(),
        queued: rq
            .queued()
            .iter()
            .map(|&(prio, pid)| {
                let t = &tasks[pid.idx()];
                RtTaskView {
                    pid,
                    name: t.name.clone(),
                    prio,
                    rt_priority: t.rt_priority,
                    policy: t.policy.name(),
                    pushable: pushable.contains(&pid),
                    normal_prio: t.normal_prio(),
                }
            })
            .collect(),
        overloaded: rq.overloaded,
        throttled: rq.throttled,
        bandwidth: st.bandwidth,
        rt_time_ns: rq.rt_time,
        rt_runtime_ns: rq.rt_runtime,
        period_ns: st.period_ns,
    })
}

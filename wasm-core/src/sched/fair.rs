//! CFS, the Linux 4.1 fair class, on one `CfsRq`: accounting (`update_curr`),
//! placement (`place_entity`), tick and wakeup preemption, and picking with
//! buddies. Each function follows the kernel function of the same name in
//! `kernel/sched/fair.c`; see shared/reference/kernel-model.md section 1.
//!
//! ```text
//!   wakeup ──► place_entity ──► enqueue ──► [tree] ──► pick ──► set_next (curr)
//!                                              ▲                   │
//!                                              └──── put_prev ◄────┘ (still runnable)
//! ```

use super::cfs_rq::CfsRq;
use super::pelt::SchedAvg;
use super::tunables::CfsTunables;
use super::weights::{calc_delta, inv_weight, nice_to_wmult, NICE_0_LOAD};
use crate::task::Task;
use crate::time::{Pid, SimTime};

/// How an entity arrives on a runqueue; decides its placement.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EnqueueKind {
    /// A new task (fork): placed after a debit of one vslice (START_DEBIT).
    New,
    /// A task waking from sleep: placed with sleeper credit.
    Wakeup,
    /// A runnable task moved from another CPU; its vruntime was already
    /// renormalised against this queue's min_vruntime by the caller.
    Migrate,
}

/// `calc_delta_fair`: wall time → virtual time for an entity of `weight`.
pub fn calc_delta_fair(delta_ns: u64, weight: u64) -> u64 {
    if weight == NICE_0_LOAD {
        delta_ns
    } else {
        calc_delta(delta_ns, NICE_0_LOAD, inv_weight(weight))
    }
}

/// Same as `calc_delta_fair` for a task, using the kernel's tabulated
/// inverse weight (`prio_to_wmult`) rather than a computed one.
fn task_delta_fair(delta_ns: u64, task: &Task) -> u64 {
    if task.se.weight == NICE_0_LOAD {
        delta_ns
    } else {
        calc_delta(delta_ns, NICE_0_LOAD, nice_to_wmult(task.nice))
    }
}

/// `__sched_period`: the latency target, stretched once there are more than
/// nr_latency runnable entities so nobody gets less than min_granularity.
pub fn sched_period(nr_running: u64, t: &CfsTunables) -> u64 {
    if nr_running > t.nr_latency {
        nr_running * t.min_granularity_ns
    } else {
        t.latency_ns
    }
}

/// `sched_slice`: the wall-clock share of the period this entity should get.
/// If it is not queued yet it is counted as if it were.
pub fn sched_slice(cfs: &CfsRq, task: &Task, t: &CfsTunables) -> u64 {
    let queued = task.se.on_rq;
    let nr = cfs.nr_running as u64 + u64::from(!queued);
    let load = cfs.load_weight + if queued { 0 } else { task.se.weight };
    let period = sched_period(nr, t);
    if load == 0 {
        return period;
    }
    calc_delta(period, task.se.weight, inv_weight(load))
}

/// `sched_vslice`: the slice in virtual time.
pub fn sched_vslice(cfs: &CfsRq, task: &Task, t: &CfsTunables) -> u64 {
    task_delta_fair(sched_slice(cfs, task, t), task)
}

/// `update_min_vruntime`: min of curr and leftmost, but never backwards.
pub fn update_min_vruntime(cfs: &mut CfsRq, tasks: &[Task]) {
    let curr_v = cfs.curr.filter(|&p| tasks[p as usize].se.on_rq).map(|p| tasks[p as usize].se.vruntime);
    let left_v = cfs.tree.first().map(|((v, _), _)| v);
    let candidate = match (curr_v, left_v) {
        (Some(c), Some(l)) => Some(c.min(l)),
        (c, l) => c.or(l),
    };
    if let Some(v) = candidate {
        cfs.min_vruntime = cfs.min_vruntime.max(v);
    }
}

/// `update_curr`: charges the running entity for the time since exec_start.
/// Returns the wall-clock delta charged.
pub fn update_curr(cfs: &mut CfsRq, tasks: &mut [Task], now: SimTime) -> u64 {
    let Some(pid) = cfs.curr else { return 0 };
    let task = &mut tasks[pid as usize];
    let delta = now.since(task.se.exec_start);
    if delta == 0 {
        return 0;
    }
    task.se.exec_start = now;
    task.se.sum_exec_runtime += delta;
    task.se.vruntime += task_delta_fair(delta, task);
    update_min_vruntime(cfs, tasks);
    delta
}

/// `place_entity`: a new task starts one vslice after min_vruntime (so
/// forking cannot be used to grab the CPU); a waking sleeper is credited up to
/// half a latency (GENTLE_FAIR_SLEEPERS) but never moved backwards.
pub fn place_entity(cfs: &CfsRq, task: &mut Task, initial: bool, t: &CfsTunables) {
    let mut v = cfs.min_vruntime;
    if initial && t.features.start_debit {
        v += sched_vslice(cfs, task, t);
    }
    if !initial {
        let thresh = if t.features.gentle_fair_sleepers { t.latency_ns / 2 } else { t.latency_ns };
        v = v.saturating_sub(thresh);
    }
    task.se.vruntime = task.se.vruntime.max(v);
}

/// `update_entity_load_avg`: accrues the entity's PELT sums since its last
/// update and folds the change of a queued entity into runnable_load_avg.
pub fn update_entity_load_avg(cfs: &mut CfsRq, task: &mut Task, now: SimTime) {
    let running = cfs.curr == Some(task.pid);
    // Like the kernel, contributions are refreshed only when a period
    // boundary has passed.
    if task.se.avg.accrue(now, task.se.on_rq, running) {
        let old_util = task.se.avg.utilization_avg_contrib as i64;
        let delta = task.se.avg.update_contrib(task.se.weight);
        if task.se.on_rq {
            cfs.runnable_load_avg += delta;
            cfs.utilization_load_avg += task.se.avg.utilization_avg_contrib as i64 - old_util;
        }
    }
}

/// `enqueue_entity_load_avg`: a new task starts with load = weight; a
/// waking one first decays over its sleep; a migrating one was runnable.
fn enqueue_entity_load_avg(cfs: &mut CfsRq, task: &mut Task, kind: EnqueueKind, now: SimTime, t: &CfsTunables) {
    match kind {
        EnqueueKind::New => task.se.avg = SchedAvg::new_task(sched_slice(cfs, task, t), task.se.weight, now),
        EnqueueKind::Wakeup => {
            task.se.avg.accrue(now, false, false);
        }
        EnqueueKind::Migrate => {
            task.se.avg.accrue(now, true, false);
        }
    }
    task.se.avg.update_contrib(task.se.weight);
    cfs.runnable_load_avg += task.se.avg.load_avg_contrib as i64;
    cfs.utilization_load_avg += task.se.avg.utilization_avg_contrib as i64;
}

pub fn enqueue_entity(cfs: &mut CfsRq, tasks: &mut [Task], pid: Pid, kind: EnqueueKind, now: SimTime, t: &CfsTunables) {
    update_curr(cfs, tasks, now);
    match kind {
        EnqueueKind::New => place_entity(cfs, &mut tasks[pid as usize], true, t),
        EnqueueKind::Wakeup => place_entity(cfs, &mut tasks[pid as usize], false, t),
        EnqueueKind::Migrate => {}
    }
    let task = &mut tasks[pid as usize];
    enqueue_entity_load_avg(cfs, task, kind, now, t);
    if cfs.curr != Some(pid) {
        cfs.tree.insert((task.se.vruntime, pid), pid);
    }
    task.se.on_rq = true;
    cfs.nr_running += 1;
    cfs.load_weight += task.se.weight;
}

pub fn dequeue_entity(cfs: &mut CfsRq, tasks: &mut [Task], pid: Pid, now: SimTime) {
    update_curr(cfs, tasks, now);
    cfs.clear_buddies_of(pid);
    let task = &mut tasks[pid as usize];
    update_entity_load_avg(cfs, task, now);
    cfs.runnable_load_avg -= task.se.avg.load_avg_contrib as i64;
    cfs.utilization_load_avg -= task.se.avg.utilization_avg_contrib as i64;
    if cfs.curr != Some(pid) {
        cfs.tree.remove((task.se.vruntime, pid));
    }
    task.se.on_rq = false;
    cfs.nr_running -= 1;
    cfs.load_weight -= task.se.weight;
    update_min_vruntime(cfs, tasks);
}

/// `set_next_entity`: the picked entity leaves the tree and becomes curr.
pub fn set_next_entity(cfs: &mut CfsRq, tasks: &mut [Task], pid: Pid, now: SimTime) {
    let task = &mut tasks[pid as usize];
    cfs.tree.remove((task.se.vruntime, pid));
    update_entity_load_avg(cfs, task, now);
    task.se.exec_start = now;
    task.se.prev_sum_exec_runtime = task.se.sum_exec_runtime;
    cfs.curr = Some(pid);
}

/// `put_prev_entity`: curr stops running; if still runnable it goes back
/// into the tree at its (updated) vruntime.
pub fn put_prev_entity(cfs: &mut CfsRq, tasks: &mut [Task], pid: Pid, now: SimTime) {
    update_curr(cfs, tasks, now);
    let task = &mut tasks[pid as usize];
    if task.se.on_rq {
        cfs.tree.insert((task.se.vruntime, pid), pid);
        update_entity_load_avg(cfs, task, now);
    }
    cfs.curr = None;
}

/// `wakeup_preempt_entity`: −1 if `se` is not ahead of `curr`, +1 if it is
/// ahead by more than the wakeup granularity (converted with se's weight),
/// 0 in between.
pub fn wakeup_preempt_entity(curr: &Task, se: &Task, t: &CfsTunables) -> i32 {
    let vdiff = curr.se.vruntime as i64 - se.se.vruntime as i64;
    if vdiff <= 0 {
        return -1;
    }
    let gran = task_delta_fair(t.wakeup_granularity_ns, se) as i64;
    if vdiff > gran {
        1
    } else {
        0
    }
}

/// `entity_tick`'s accounting: charge curr and refresh its load.
pub fn entity_tick_update(cfs: &mut CfsRq, tasks: &mut [Task], now: SimTime) {
    update_curr(cfs, tasks, now);
    if let Some(pid) = cfs.curr {
        update_entity_load_avg(cfs, &mut tasks[pid as usize], now);
    }
}

/// `check_preempt_tick`: called on the tick when more than one entity is
/// queued. Returns true when curr should be rescheduled.
pub fn check_preempt_tick(cfs: &mut CfsRq, tasks: &[Task], t: &CfsTunables) -> bool {
    let Some(pid) = cfs.curr else { return false };
    let curr = &tasks[pid as usize];
    let ideal = sched_slice(cfs, curr, t);
    let ran = curr.se.sum_exec_runtime - curr.se.prev_sum_exec_runtime;
    if ran > ideal {
        cfs.clear_buddies_of(pid);
        return true;
    }
    if ran < t.min_granularity_ns {
        return false;
    }
    let Some(((left_v, _), _)) = cfs.tree.first() else {
        return false;
    };
    let delta = curr.se.vruntime as i64 - left_v as i64;
    // The kernel compares a virtual-time difference with a wall-clock slice
    // here; we keep that quirk.
    delta > 0 && delta as u64 > ideal
}

/// `check_preempt_wakeup` for a task `p` that was just enqueued on `cfs`.
/// Returns true when curr should be preempted; sets buddies as the kernel does.
pub fn check_preempt_wakeup(
    cfs: &mut CfsRq,
    tasks: &mut [Task],
    p: Pid,
    is_fork: bool,
    now: SimTime,
    t: &CfsTunables,
) -> bool {
    let Some(curr) = cfs.curr else { return true };
    if curr == p {
        return false;
    }
    let scale = cfs.nr_running as u64 >= t.nr_latency;
    let mut next_buddy_marked = false;
    if t.features.next_buddy && scale && !is_fork {
        cfs.next = Some(p);
        next_buddy_marked = true;
    }
    if !t.features.wakeup_preemption {
        return false;
    }
    update_curr(cfs, tasks, now);
    if wakeup_preempt_entity(&tasks[curr as usize], &tasks[p as usize], t) == 1 {
        if !next_buddy_marked {
            cfs.next = Some(p);
        }
        if t.features.last_buddy && scale && tasks[curr as usize].se.on_rq {
            cfs.last = Some(curr);
        }
        return true;
    }
    false
}

/// `pick_next_entity` (with curr already put back in the tree): leftmost,
/// unless a buddy is close enough to it that cache warmth is worth more.
pub fn pick_next_entity(cfs: &mut CfsRq, tasks: &[Task], t: &CfsTunables) -> Option<Pid> {
    let (left_key, left) = cfs.tree.first()?;
    let mut se = left;
    if cfs.skip == Some(se) {
        if let Some((_, second)) = cfs.tree.next_after(left_key) {
            if wakeup_preempt_entity(&tasks[second as usize], &tasks[left as usize], t) < 1 {
                se = second;
            }
        }
    }
    if let Some(last) = cfs.last {
        if tasks[last as usize].se.on_rq && wakeup_preempt_entity(&tasks[last as usize], &tasks[left as usize], t) < 1 {
            se = last;
        }
    }
    if let Some(next) = cfs.next {
        if tasks[next as usize].se.on_rq && wakeup_preempt_entity(&tasks[next as usize], &tasks[left as usize], t) < 1 {
            se = next;
        }
    }
    cfs.clear_buddies_of(se);
    Some(se)
}

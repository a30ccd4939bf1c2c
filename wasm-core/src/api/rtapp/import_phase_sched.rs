//! A phase's policy, priority and dl-* parameters as the `sched_setattr`
//! step it begins with (rt-app.c's `set_thread_param`, called by
//! `thread_body` as each phase begins).
//!
//! ```text
//!   no policy, priority or dl-*     no sched data: the thread keeps what it has
//!   no policy                       the thread's current one, resolved the first
//!                                   time the phase runs and kept from then on
//!   SCHED_FIFO, SCHED_RR            priority (10 when only the policy is named);
//!                                   without either, nothing changes
//!   SCHED_OTHER, SCHED_BATCH        priority is the nice level (0 when only the
//!   SCHED_IDLE                      policy is named); without either, nothing
//!   SCHED_DEADLINE                  dl-runtime, dl-period (the runtime),
//!                                   dl-deadline (the period); priority ignored
//! ```
//!
//! A step sets the policy with its real-time priority, reservation or nice
//! level, and keeps the thread's custom slice, so a phase asking for another
//! slice is refused. A phase gets a step only where what it
//! sets differs from what the thread has as it begins, in the task's first
//! pass or (when the task loops) a later one; a step that changes nothing in
//! some pass returns at once, as `__sched_setscheduler` does.

use super::import_model::{Findings, Phase, PhaseSched, Policy, Props, SchedSet};
use super::import_policy::{check_priority, default_priority, reservation_of, slice_of};

fn real_time(p: Policy) -> bool {
    matches!(p, Policy::Fifo | Policy::Rr | Policy::Deadline)
}

/// The task's own scheduling, as its threads start with it.
fn of_task(t: &Props) -> SchedSet {
    let rt = matches!(t.policy, Policy::Fifo | Policy::Rr);
    let fair = matches!(t.policy, Policy::Other | Policy::Batch);
    SchedSet {
        policy: t.policy,
        rt_priority: rt.then_some(t.priority),
        reservation: t.reservation,
        nice: fair.then_some(t.priority),
    }
}

/// What a phase asking `a` sets when the thread has `policy` as it first
/// begins it; None when it changes nothing whatever the thread has.
fn target(a: &PhaseSched, policy: Policy, task: &Props, at: &str, slices: bool, f: &mut Findings) -> Option<SchedSet> {
    let p = a.policy.unwrap_or(policy);
    // Without a policy or a priority, rt-app's priority is "unchanged", and its FIFO, RR and fair paths do nothing.
    let priority = a.priority.or(a.policy.map(default_priority));
    check_priority(p, priority.unwrap_or(default_priority(p)), a.priority.is_some(), at, f);
    if p != Policy::Deadline {
        for (key, set) in [("dl-period", a.period.is_some()), ("dl-deadline", a.deadline.is_some())] {
            if set {
                f.note(&format!("{at}.{key}"), "SCHED_DEADLINE's parameter: ignored under this policy");
            }
        }
    }
    match p {
        Policy::Deadline => {
            let r = reservation_of(a, at, f)?;
            Some(SchedSet { policy: p, rt_priority: None, reservation: Some(r), nice: None })
        }
        _ if priority.is_none() => {
            if a.runtime.is_some() {
                f.note(
                    &format!("{at}.dl-runtime"),
                    "ignored: without a policy or a priority rt-app sets nothing under a real-time or fair policy",
                );
            }
            None
        }
        Policy::Fifo | Policy::Rr => {
            if a.runtime.is_some() {
                f.note(&format!("{at}.dl-runtime"), "ignored under this policy");
            }
            priority.map(|prio| SchedSet { policy: p, rt_priority: Some(prio), reservation: None, nice: None })
        }
        Policy::Other | Policy::Batch | Policy::Idle => {
            let nice = priority?;
            if slice_of(p, a.runtime, at, slices, f).is_some_and(|s| Some(s) != task.slice_us) {
                f.refuse(
                    &format!("{at}.dl-runtime"),
                    "a custom slice change within a task is not imported (a sched_setattr step keeps the slice)",
                );
            }
            // SCHED_IDLE takes no nice (`__setscheduler_params` sets it for the fair policies only).
            Some(SchedSet {
                policy: p,
                rt_priority: None,
                reservation: None,
                nice: (p != Policy::Idle).then_some(nice),
            })
        }
    }
}

/// Fills each phase's `sched` (the step it begins with) for a task with
/// properties `task` that runs its phases `looped` times; `paths` name the
/// phases; `slices`: the run models custom slices. What a step cannot say,
/// or the scenario refuses with it, is refused.
pub(super) fn resolve(
    task: &Props,
    looped: Option<u32>,
    phases: &mut [Phase],
    paths: &[String],
    slices: bool,
    f: &mut Findings,
) {
    // The first pass resolves each phase's policy against the thread's (rt-app writes it into the phase's data).
    let mut now = of_task(task);
    let mut sets = Vec::with_capacity(phases.len());
    let mut needed = vec![false; phases.len()];
    for (k, ph) in phases.iter().enumerate() {
        let set = ph.props.asked.as_ref().and_then(|a| target(a, now.policy, task, &paths[k], slices, f));
        if let Some(s) = set {
            needed[k] = s != now;
            now = s;
        }
        sets.push(set);
    }
    // A later pass begins where the last one ended.
    if looped != Some(1) {
        for (k, set) in sets.iter().enumerate() {
            if let Some(s) = *set {
                needed[k] |= s != now;
                now = s;
            }
        }
    }
    let mut changes_class = None;
    for (k, ph) in phases.iter_mut().enumerate() {
        ph.props.sched = sets[k].filter(|_| needed[k]);
        if ph.props.sched.is_some_and(|s| real_time(s.policy) && s.policy != task.policy) {
            changes_class.get_or_insert(k);
        }
    }
    let Some(k) = changes_class else { return };
    let at = &paths[k];
    if phases.iter().any(|ph| ph.props.cpus.as_ref().is_some_and(|c| Some(c) != task.cpus.as_ref())) {
        f.refuse(
            at,
            "a SCHED_FIFO, SCHED_RR or SCHED_DEADLINE phase in a task whose phases change cpus: an affinity change \
             of such a thread is not modelled (its class's set_cpus_allowed)",
        );
    }
    if task.taskgroup.is_some() || phases.iter().any(|ph| ph.props.taskgroup.is_some()) {
        f.refuse(at, "rt-app puts only SCHED_OTHER, SCHED_BATCH and SCHED_IDLE tasks in taskgroups");
    }
    let deadline = phases.iter().any(|ph| ph.props.sched.is_some_and(|s| s.policy == Policy::Deadline));
    if deadline && task.cpus.is_some() {
        f.refuse(at, "a SCHED_DEADLINE thread may not be pinned (Linux 4.1's sched_setattr refuses it: EPERM)");
    }
}

//! rt-app's scheduling policies as a process's: SCHED_OTHER is the default
//! (its priority is the nice level, `nice`); SCHED_BATCH keeps the nice level
//! too; SCHED_IDLE has none; SCHED_FIFO and SCHED_RR take their real-time
//! priority (1 to 99) as `rt_priority`; SCHED_DEADLINE its reservation
//! (`dl_runtime_us`, `dl_deadline_us`, and `dl_period_us` when it is not
//! the deadline, the scenario's default). The checks of those parameters
//! that a task and a phase share (priorities, slices, reservations) are
//! here too.

use super::import_model::{Findings, PhaseSched as Sched, Policy, Reservation, Task};
use serde_json::{json, Map, Value};

/// The scenario's `sched_policy` for an rt-app policy; None for SCHED_OTHER,
/// the default, which a process does not write.
pub fn sched_policy_name(p: Policy) -> Option<&'static str> {
    match p {
        Policy::Other => None,
        Policy::Batch => Some("batch"),
        Policy::Idle => Some("idle"),
        Policy::Fifo => Some("fifo"),
        Policy::Rr => Some("rr"),
        Policy::Deadline => Some("deadline"),
    }
}

/// Writes task `t`'s policy and real-time priority into its process `p`
/// (its nice level is written with the rest).
pub fn policy_fields(t: &Task, p: &mut Map<String, Value>, _f: &mut Findings) {
    if let Some(name) = sched_policy_name(t.props.policy) {
        p.insert("sched_policy".into(), json!(name));
    }
    if matches!(t.props.policy, Policy::Fifo | Policy::Rr) {
        p.insert("rt_priority".into(), json!(t.props.priority));
    }
    if let Some(r) = t.props.reservation {
        p.insert("dl_runtime_us".into(), json!(r.runtime_us));
        p.insert("dl_deadline_us".into(), json!(r.deadline_us));
        if r.period_us != r.deadline_us {
            p.insert("dl_period_us".into(), json!(r.period_us));
        }
    }
}

/// A policy's priority when none is given: nice 0, or real-time priority 10 (rt-app's defaults).
pub(super) fn default_priority(p: Policy) -> i64 {
    match p {
        Policy::Fifo | Policy::Rr => 10,
        _ => 0,
    }
}

/// A priority rt-app would set: a nice level, or a real-time priority.
pub(super) fn check_priority(policy: Policy, priority: i64, given: bool, at: &str, f: &mut Findings) {
    let at = format!("{at}.priority");
    match policy {
        Policy::Other | Policy::Batch if !(-20..=19).contains(&priority) => {
            f.refuse(&at, format!("{priority}: a SCHED_OTHER or SCHED_BATCH priority is a nice level, -20 to 19"))
        }
        Policy::Fifo | Policy::Rr if !(1..=99).contains(&priority) => {
            f.refuse(&at, format!("{priority}: a real-time priority is 1 to 99"))
        }
        Policy::Idle if given => f.note(&at, "ignored: rt-app sets no nice level under SCHED_IDLE"),
        Policy::Deadline if given => f.note(&at, "ignored: a SCHED_DEADLINE task has its reservation instead"),
        _ => {}
    }
}

/// A custom slice from sched_runtime: under SCHED_OTHER or SCHED_BATCH, when the run models it.
pub(super) fn slice_of(policy: Policy, runtime: Option<i64>, at: &str, slices: bool, f: &mut Findings) -> Option<u64> {
    let r = runtime.filter(|&r| r != 0)?;
    let at = format!("{at}.dl-runtime");
    if !matches!(policy, Policy::Other | Policy::Batch) {
        f.note(&at, "a fair policy's custom slice: ignored under this policy");
        return None;
    }
    if !slices {
        f.note(&at, "a custom slice (Linux 6.12's sched_runtime): ignored, the run models Linux 4.1's CFS");
        return None;
    }
    match u64::try_from(r) {
        Ok(us) if (100..=100_000).contains(&us) => Some(us),
        _ => {
            f.refuse(&at, format!("{r} µs: a custom slice is 100 to 100,000 µs"));
            None
        }
    }
}

/// SCHED_DEADLINE's reservation with rt-app's defaults (the period is the
/// runtime, the deadline the period), checked as sched_setattr checks it.
pub(super) fn reservation_of(s: &Sched, at: &str, f: &mut Findings) -> Option<Reservation> {
    let runtime = s.runtime.unwrap_or(0);
    let period = s.period.unwrap_or(runtime);
    let deadline = s.deadline.unwrap_or(period);
    let (Ok(runtime_us), Ok(period_us), Ok(deadline_us)) =
        (u64::try_from(runtime), u64::try_from(period), u64::try_from(deadline))
    else {
        f.refuse(at, "a SCHED_DEADLINE reservation's times are not negative");
        return None;
    };
    if runtime_us == 0 {
        f.refuse(&format!("{at}.dl-runtime"), "SCHED_DEADLINE needs a runtime (sched_setattr refuses none)");
        return None;
    }
    if !(runtime_us <= deadline_us && deadline_us <= period_us) {
        f.refuse(
            &format!("{at}.dl-deadline"),
            format!(
                "needs dl-runtime ≤ dl-deadline ≤ dl-period (got {runtime_us} ≤ {deadline_us} ≤ {period_us} µs), as \
                 sched_setattr does"
            ),
        );
        return None;
    }
    Some(Reservation { runtime_us, deadline_us, period_us })
}

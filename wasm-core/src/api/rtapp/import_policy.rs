//! rt-app's scheduling policies as a process's: SCHED_OTHER is the default
//! (its priority is the nice level, `nice`); SCHED_BATCH keeps the nice level
//! too; SCHED_IDLE has none; SCHED_FIFO and SCHED_RR take their real-time
//! priority (1 to 99) as `rt_priority`; SCHED_DEADLINE its reservation
//! (`dl_runtime_us`, `dl_deadline_us`, and `dl_period_us` when it is not
//! the deadline, the scenario's default).

use super::import_model::{Findings, Policy, Task};
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

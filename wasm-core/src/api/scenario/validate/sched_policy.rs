//! A process's `sched_policy` and `rt_priority`: the pair `sched_setscheduler`
//! takes, checked as `__sched_setscheduler` checks it (core.c 3622–3641 in
//! 4.1: a real-time policy needs a priority of 1–99, any other policy 0), and
//! refused where the model does not yet run the class beside the run's policy.

use crate::api::scenario::diagnostic::Checker;
use crate::api::scenario::file::ProcessFile;
use crate::api::text::escape_controls as shown;
use crate::config::{Kernel, PolicyKind};
use crate::sched::policy::{SchedPolicy, MAX_RT_PRIORITY};

/// The process's policy and real-time priority (Normal, 0 when it has a problem).
pub(super) fn sched_policy_of(
    p: &ProcessFile,
    at: &str,
    kernel: Kernel,
    kind: PolicyKind,
    c: &mut Checker,
) -> (SchedPolicy, u32) {
    let policy = match p.sched_policy.as_deref().map(|n| (n, SchedPolicy::from_name(n))) {
        None => SchedPolicy::Normal,
        Some((_, Some(policy))) => policy,
        Some((name, None)) => {
            let known = SchedPolicy::NAMES.join(", ");
            c.fail(format!("{at}.sched_policy"), format!("unknown policy '{}' (known: {known})", shown(name)));
            return (SchedPolicy::Normal, 0);
        }
    };
    let field = format!("{at}.rt_priority");
    let rt_priority = match (policy.is_rt(), p.rt_priority) {
        (true, Some(prio)) if (1..=MAX_RT_PRIORITY).contains(&prio) => prio,
        (true, Some(prio)) => {
            c.fail(field, format!("must be 1 to {MAX_RT_PRIORITY} (got {prio})"));
            return (SchedPolicy::Normal, 0);
        }
        (true, None) => {
            c.fail(field, format!("'{}' needs a real-time priority, 1 to {MAX_RT_PRIORITY}", policy.name()));
            return (SchedPolicy::Normal, 0);
        }
        (false, Some(_)) => {
            c.fail(
                field,
                "applies to the real-time policies 'fifo' and 'rr' only (a fair task's priority is its nice)",
            );
            return (SchedPolicy::Normal, 0);
        }
        (false, None) => 0,
    };
    if let Some(why) = not_modelled(policy, kernel, kind) {
        c.fail(format!("{at}.sched_policy"), why);
        return (SchedPolicy::Normal, 0);
    }
    (policy, rt_priority)
}

/// Why the model cannot run `policy` in this run yet, if it cannot.
fn not_modelled(policy: SchedPolicy, kernel: Kernel, kind: PolicyKind) -> Option<&'static str> {
    match policy {
        SchedPolicy::Normal => None,
        SchedPolicy::Batch | SchedPolicy::Idle => match (kernel, kind) {
            (Kernel::Linux612, _) => Some(
                "SCHED_BATCH and SCHED_IDLE run under kernel 4.1 for now: 6.12 also places and preempts by an \
                 entity's idle policy (sched_idle_cpu, se_is_idle), which the model does not have yet",
            ),
            (_, PolicyKind::O1) => Some("O(1) has no SCHED_BATCH or SCHED_IDLE (they came with CFS)"),
            (_, PolicyKind::Ext) => Some("sched_ext policies run every fair task themselves; use 'normal'"),
            (_, PolicyKind::Pfs | PolicyKind::DwCfs) if policy == SchedPolicy::Idle => {
                Some("PFS and DW-CFS set every thread's weight from its nice and thread count, over SCHED_IDLE's")
            }
            _ => None,
        },
        SchedPolicy::Fifo | SchedPolicy::Rr => match (kernel, kind) {
            (Kernel::Linux612, _) => Some(
                "real-time tasks run under kernel 4.1 for now: 6.12 gives the fair class its share beside them \
                 through the fair server, a deadline server the model does not have yet",
            ),
            (_, PolicyKind::O1) => Some("O(1) keeps real-time tasks in its own arrays, which are not modelled"),
            (_, PolicyKind::Ext) => Some("the real-time class beside a sched_ext policy is not modelled yet"),
            _ => None,
        },
    }
}

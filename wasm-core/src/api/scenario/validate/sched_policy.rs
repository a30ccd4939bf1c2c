//! A process's `sched_policy`, `rt_priority` and deadline reservation: what
//! `sched_setattr` takes, checked as `__sched_setscheduler` checks it (4.1: a
//! real-time policy needs a priority of 1–99, any other policy 0;
//! `__checkparam_dl`, core.c 3354–3382: runtime ≤ deadline ≤ period), the
//! deadline class's admission control (`dl_overflow`, `deadline.rs`
//! beside this file), and refused where the model does not yet run the class
//! beside the run's policy.

use crate::api::scenario::diagnostic::Checker;
use crate::api::scenario::file::ProcessFile;
use crate::api::text::escape_controls as shown;
use crate::config::{Kernel, PolicyKind};
use crate::sched::policy::{DlParams, SchedPolicy, MAX_RT_PRIORITY};

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

/// The deadline reservation of a process (`__setparam_dl`: a period of 0 is
/// the deadline), checked as `__checkparam_dl` checks it; None when the
/// process is not a deadline one (its fields refused if given) or has a problem.
pub(super) fn dl_params_of(p: &ProcessFile, at: &str, policy: SchedPolicy, c: &mut Checker) -> Option<DlParams> {
    let given =
        [("dl_runtime_us", p.dl_runtime_us), ("dl_deadline_us", p.dl_deadline_us), ("dl_period_us", p.dl_period_us)];
    if !policy.is_dl() {
        for (field, v) in given {
            if v.is_some() {
                c.fail(format!("{at}.{field}"), "applies to sched_policy 'deadline' only");
            }
        }
        return None;
    }
    let (Some(runtime), Some(deadline)) = (p.dl_runtime_us, p.dl_deadline_us) else {
        c.fail(
            format!("{at}.sched_policy"),
            "'deadline' needs dl_runtime_us and dl_deadline_us (dl_period_us defaults to the deadline)",
        );
        return None;
    };
    let period = p.dl_period_us.unwrap_or(deadline);
    // DL_SCALE: the kernel keeps runtimes in units of 2^10 ns, so a runtime must be at least that (about 1 µs).
    if runtime.saturating_mul(1000) < 1 << 10 {
        c.fail(format!("{at}.dl_runtime_us"), "must be at least 2 µs (the kernel's 2^10 ns)");
        return None;
    }
    if deadline < runtime || period < deadline {
        c.fail(
            format!("{at}.dl_deadline_us"),
            format!(
                "needs runtime ≤ deadline ≤ period (got {runtime} ≤ {deadline} ≤ {period} µs), as __checkparam_dl does"
            ),
        );
        return None;
    }
    if p.cpus.is_some() || p.nodes.is_some() {
        // __sched_setscheduler (core.c 3568–3577 in 4.1): a deadline task must be allowed every CPU of its root domain.
        c.fail(format!("{at}.cpus"), "a deadline task may not be pinned: 4.1 refuses SCHED_DEADLINE to a task whose affinity leaves out CPUs of its root domain (EPERM)");
        return None;
    }
    let us = 1000;
    Some(DlParams { runtime_ns: runtime * us, deadline_ns: deadline * us, period_ns: period * us })
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
        SchedPolicy::Deadline => match (kernel, kind) {
            (Kernel::Linux612, _) => Some(
                "deadline tasks run under kernel 4.1 for now: 6.12's deadline class also serves the fair class \
                 (the fair server), which the model does not have yet",
            ),
            (_, PolicyKind::O1) => Some("O(1) has no deadline class (SCHED_DEADLINE came in 3.14)"),
            (_, PolicyKind::Ext) => Some("the deadline class beside a sched_ext policy is not modelled yet"),
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

//! A process's `sched_policy`, `rt_priority` and deadline reservation: what
//! `sched_setattr` takes, checked as `__sched_setscheduler` checks it (4.1: a
//! real-time policy needs a priority of 1–99, any other policy 0;
//! `__checkparam_dl`, core.c 3354–3382: runtime ≤ deadline ≤ period), the
//! deadline class's admission control (`dl_overflow`, `deadline.rs`
//! beside this file), and refused where the model does not yet run the class
//! beside the run's policy.

use crate::api::scenario::diagnostic::Checker;
use crate::api::scenario::file::ProcessFile;
use crate::api::scenario::steps::OpFile;
use crate::api::text::escape_controls as shown;
use crate::config::{Kernel, PolicyKind};
use crate::sched::policy::{DlParams, SchedAttr, SchedPolicy, MAX_RT_PRIORITY};

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
    let Some(rt_priority) = rt_priority_of(policy, p.rt_priority, &format!("{at}.rt_priority"), c) else {
        return (SchedPolicy::Normal, 0);
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
pub(super) fn dl_params_of(
    p: &ProcessFile,
    at: &str,
    policy: SchedPolicy,
    kernel: Kernel,
    c: &mut Checker,
) -> Option<DlParams> {
    let given =
        [("dl_runtime_us", p.dl_runtime_us), ("dl_deadline_us", p.dl_deadline_us), ("dl_period_us", p.dl_period_us)];
    let reclaim = p.dl_reclaim == Some(true);
    if reclaim && !policy.is_dl() {
        c.fail(format!("{at}.dl_reclaim"), "applies to sched_policy 'deadline' only");
    } else if reclaim && kernel == Kernel::Linux41 {
        c.fail(
            format!("{at}.dl_reclaim"),
            "GRUB reclaiming came in Linux 4.13: 4.1 has no SCHED_FLAG_RECLAIM (use kernel 6.12)",
        );
        return None;
    }
    let dl = dl_reservation(policy, "sched_policy", given, at, c)?;
    if p.cpus.is_some() || p.nodes.is_some() {
        c.fail(format!("{at}.cpus"), PINNED_DEADLINE);
        return None;
    }
    Some(DlParams { reclaim, ..dl })
}

/// __sched_setscheduler (core.c 3568–3577 in 4.1): a deadline task must be allowed every CPU of its root domain.
pub(super) const PINNED_DEADLINE: &str = "a deadline task may not be pinned: 4.1 refuses SCHED_DEADLINE to a task \
     whose affinity leaves out CPUs of its root domain (EPERM)";

/// A real-time priority as `__sched_setscheduler` checks it: 1–99 for FIFO
/// and RR, none for any other policy (None when it has a problem).
pub(super) fn rt_priority_of(policy: SchedPolicy, given: Option<u32>, field: &str, c: &mut Checker) -> Option<u32> {
    match (policy.is_rt(), given) {
        (true, Some(prio)) if (1..=MAX_RT_PRIORITY).contains(&prio) => Some(prio),
        (true, Some(prio)) => {
            c.fail(field, format!("must be 1 to {MAX_RT_PRIORITY} (got {prio})"));
            None
        }
        (true, None) => {
            c.fail(field, format!("'{}' needs a real-time priority, 1 to {MAX_RT_PRIORITY}", policy.name()));
            None
        }
        (false, Some(_)) => {
            c.fail(
                field,
                "applies to the real-time policies 'fifo' and 'rr' only (a fair task's priority is its nice)",
            );
            None
        }
        (false, None) => Some(0),
    }
}

/// A deadline reservation (`__setparam_dl`: a period of 0 is the deadline),
/// checked as `__checkparam_dl` checks it, from the `dl_*_us` fields beside
/// `policy_key`; None when the policy is not deadline (the fields refused if
/// given) or they have a problem.
pub(super) fn dl_reservation(
    policy: SchedPolicy,
    policy_key: &str,
    given: [(&str, Option<u64>); 3],
    at: &str,
    c: &mut Checker,
) -> Option<DlParams> {
    if !policy.is_dl() {
        for (field, v) in given {
            if v.is_some() {
                c.fail(format!("{at}.{field}"), format!("applies to {policy_key} 'deadline' only"));
            }
        }
        return None;
    }
    let [(_, Some(runtime)), (_, Some(deadline)), (_, period)] = given else {
        c.fail(
            format!("{at}.{policy_key}"),
            "'deadline' needs dl_runtime_us and dl_deadline_us (dl_period_us defaults to the deadline)",
        );
        return None;
    };
    let period = period.unwrap_or(deadline);
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
    let us = 1000;
    Some(DlParams { runtime_ns: runtime * us, deadline_ns: deadline * us, period_ns: period * us, reclaim: false })
}

/// Why the model cannot run `policy` in this run yet, if it cannot.
pub(super) fn not_modelled(policy: SchedPolicy, kernel: Kernel, kind: PolicyKind) -> Option<&'static str> {
    match policy {
        SchedPolicy::Normal => None,
        SchedPolicy::Batch | SchedPolicy::Idle => match (kernel, kind) {
            (_, PolicyKind::O1) => Some("O(1) has no SCHED_BATCH or SCHED_IDLE (they came with CFS)"),
            (_, PolicyKind::Ext) => Some("sched_ext policies run every fair task themselves; use 'normal'"),
            (_, PolicyKind::Pfs | PolicyKind::DwCfs) if policy == SchedPolicy::Idle => {
                Some("PFS and DW-CFS set every thread's weight from its nice and thread count, over SCHED_IDLE's")
            }
            _ => None,
        },
        SchedPolicy::Deadline => match (kernel, kind) {
            (_, PolicyKind::O1) => Some("O(1) has no deadline class (SCHED_DEADLINE came in 3.14)"),
            (_, PolicyKind::Ext) => Some("the deadline class beside a sched_ext policy is not modelled yet"),
            _ => None,
        },
        SchedPolicy::Fifo | SchedPolicy::Rr => match (kernel, kind) {
            (_, PolicyKind::O1) => Some("O(1) keeps real-time tasks in its own arrays, which are not modelled"),
            (_, PolicyKind::Ext) => Some("the real-time class beside a sched_ext policy is not modelled yet"),
            _ => None,
        },
    }
}

/// A `sched_setattr` step's policy and parameters, checked as a process's
/// are; whether the run can take the policy, and admission, are checked
/// with the process (`program_attrs`).
pub(super) fn setattr_of(op: &OpFile, name: &str, at: &str, c: &mut Checker) -> Option<SchedAttr> {
    let Some(policy) = SchedPolicy::from_name(name) else {
        let known = SchedPolicy::NAMES.join(", ");
        c.fail(format!("{at}.sched_setattr"), format!("unknown policy '{}' (known: {known})", shown(name)));
        return None;
    };
    let rt_priority = rt_priority_of(policy, op.rt_priority, &format!("{at}.rt_priority"), c)?;
    let given =
        [("dl_runtime_us", op.dl_runtime_us), ("dl_deadline_us", op.dl_deadline_us), ("dl_period_us", op.dl_period_us)];
    let dl = dl_reservation(policy, "sched_setattr", given, at, c);
    if policy.is_dl() && dl.is_none() {
        return None;
    }
    // __setscheduler_params sets the nice of the fair policies only (`fair_policy`: normal and batch).
    let nice = match op.nice {
        Some(_) if !matches!(policy, SchedPolicy::Normal | SchedPolicy::Batch) => {
            c.fail(format!("{at}.nice"), "applies to sched_setattr 'normal' or 'batch' only");
            return None;
        }
        Some(n) if !(-20..=19).contains(&n) => {
            c.fail(format!("{at}.nice"), format!("must be -20 to 19 (got {n})"));
            return None;
        }
        given => given,
    };
    Some(SchedAttr { policy, rt_priority, dl, nice })
}

/// The process's `sched_setattr` steps where the run is known: each policy
/// must be one the run can take, a deadline one unpinned; each deadline
/// reservation joins admission control as the process's own would (its
/// threads all holding it at once: the model checks admission once, at load).
pub(super) fn program_attrs(
    p: &ProcessFile,
    attrs: &[SchedAttr],
    at: &str,
    kernel: Kernel,
    kind: PolicyKind,
    reservations: &mut Vec<(String, u32, DlParams)>,
    c: &mut Checker,
) {
    for attr in attrs {
        if let Some(why) = not_modelled(attr.policy, kernel, kind) {
            c.fail(format!("{at}.program"), format!("sched_setattr '{}': {why}", attr.policy.name()));
        }
        if let Some(dl) = attr.dl {
            if p.cpus.is_some() || p.nodes.is_some() {
                c.fail(format!("{at}.program"), format!("sched_setattr 'deadline': {PINNED_DEADLINE}"));
            }
            reservations.push((format!("{at}.program (sched_setattr)"), p.threads, dl));
        }
    }
}

//! The kernel generation a scenario runs on (`kernel`), and what a
//! generation refuses: the policies and switches that are patches of
//! another kernel, and the 4.1 tunables and feature bits 6.12 no longer has.
//! Each refusal names its field and says why.

use crate::api::scenario::diagnostic::Checker;
use crate::api::scenario::file::ScenarioFile;
use crate::api::text::escape_controls as shown;
use crate::config::{Kernel, PolicyKind};

/// The name a scenario gives a generation.
pub fn kernel_name(k: Kernel) -> &'static str {
    match k {
        Kernel::Linux41 => "4.1",
        Kernel::Linux612 => "6.12",
    }
}

/// `kernel`: 4.1 when absent (every scenario written before the field).
pub(super) fn kernel_of(k: Option<&str>, c: &mut Checker) -> Kernel {
    match k {
        None | Some("4.1") => Kernel::Linux41,
        Some("6.12") => Kernel::Linux612,
        Some(other) => {
            c.fail("kernel", format!("must be \"4.1\" or \"6.12\" (got \"{}\")", shown(other)));
            Kernel::Linux41
        }
    }
}

/// What 6.12 refuses of a scenario written for 4.1.
pub(super) fn check_generation(kernel: Kernel, f: &ScenarioFile, kind: PolicyKind, c: &mut Checker) {
    if kernel != Kernel::Linux612 {
        return;
    }
    let refused = match kind {
        PolicyKind::O1 => Some("O(1) is the scheduler of Linux 2.6.0–2.6.22; 6.12 has no such class (use \"4.1\")"),
        PolicyKind::Pfs | PolicyKind::DwCfs => {
            Some("a patch of Linux 4.1's CFS; it does not apply to 6.12 (use \"4.1\")")
        }
        PolicyKind::Cfs | PolicyKind::Eevdf | PolicyKind::Ext => None,
    };
    if let Some(why) = refused {
        c.fail("policy.kind", format!("'{}' under kernel 6.12: {why}", shown(&f.policy.kind)));
    }
    if f.policy.group_identity == Some(true) {
        c.fail(
            "policy.group_identity",
            "Group Identity is a patch of Alibaba Cloud Linux 4.19, not of 6.12 (use \"4.1\")",
        );
    }
    if f.bugs.is_some() {
        c.fail(
            "bugs",
            "the paper's bug switches are Linux 4.1 and its patches; 6.12 runs as it ships (remove 'bugs', or use \"4.1\")",
        );
    }
    if let Some(t) = &f.policy.tunables {
        for (field, set) in [
            ("sched_latency_us", t.sched_latency_us.is_some()),
            ("sched_wakeup_granularity_us", t.sched_wakeup_granularity_us.is_some()),
            ("sched_nr_latency", t.sched_nr_latency.is_some()),
        ] {
            if set {
                c.fail(format!("policy.tunables.{field}"), "a CFS tunable EEVDF removed (6.6); 6.12 has no such knob");
            }
        }
    }
    if let Some(ft) = &f.policy.features {
        for (field, set) in [
            ("gentle_fair_sleepers", ft.gentle_fair_sleepers.is_some()),
            ("start_debit", ft.start_debit.is_some()),
            ("last_buddy", ft.last_buddy.is_some()),
        ] {
            if set {
                c.fail(format!("policy.features.{field}"), "a CFS feature EEVDF removed (6.6); 6.12 has no such bit");
            }
        }
        if ft.next_buddy == Some(true) {
            c.fail("policy.features.next_buddy", "NEXT_BUDDY is not modelled under 6.12 yet (its default, off, is)");
        }
    }
}

#[cfg(test)]
#[path = "kernel_test.rs"]
mod kernel_test;

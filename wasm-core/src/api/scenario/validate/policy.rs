//! The policy section: its kind (`policy_kind`'s table), DW-CFS's alpha and
//! beta, Group Identity, a sched_ext policy's source and watchdog, the CFS
//! tunables and feature bits.

use crate::api::scenario::diagnostic::Checker;
use crate::api::scenario::file::{FeaturesSpec, PolicySpec, TunablesSpec};
use crate::api::scenario::policy_kind::{policy_kind, POLICY_KIND_NAMES};
use crate::api::text::escape_controls as shown;
use crate::config::{ExtPolicy, PolicyConfig, PolicyKind};
use crate::sched::thread_weight::AlphaFormula;
use crate::sched::tunables::{CfsFeatures, CfsKnobs};
use crate::time::NSEC_PER_USEC;

/// The longest policy source a scenario may carry (share links carry it too).
pub const MAX_POLICY_SOURCE: usize = 64 * 1024;

pub(super) fn policy_of(p: &PolicySpec, c: &mut Checker) -> PolicyConfig {
    let mut out = PolicyConfig::cfs();
    out.kind = policy_kind(&p.kind).unwrap_or_else(|| {
        let known = POLICY_KIND_NAMES.join(", ");
        c.fail("policy.kind", format!("unknown policy '{}' (known: {known})", shown(&p.kind)));
        PolicyKind::Cfs
    });
    if out.kind != PolicyKind::DwCfs && (p.alpha.is_some() || p.beta.is_some()) {
        c.fail("policy", "alpha and beta apply only to kind 'dw-cfs'");
    }
    match p.alpha.as_deref() {
        None | Some("A") => {}
        Some("B") => out.alpha = AlphaFormula::B,
        Some("C") => out.alpha = AlphaFormula::C,
        Some(other) => c.fail("policy.alpha", format!("must be 'A', 'B' or 'C' (got '{}')", shown(other))),
    }
    if let Some(beta) = p.beta {
        // β < 2 keeps the penalty factor 2 − β positive; β > 1 makes Nt = No a reward.
        if !(1.0..2.0).contains(&beta) {
            c.fail("policy.beta", format!("must be at least 1 and below 2 (got {beta})"));
        } else {
            out.beta_milli = (beta * 1000.0).round() as u32;
        }
    }
    out.group_identity = p.group_identity.unwrap_or(false);
    if out.kind == PolicyKind::Ext {
        match (&p.source, &p.source_file) {
            (Some(src), _) if src.len() > MAX_POLICY_SOURCE => {
                c.fail("policy.source", format!("is {} bytes; at most {MAX_POLICY_SOURCE}", src.len()))
            }
            (Some(src), _) => {
                let watchdog_ms = p.watchdog_ms.unwrap_or(30_000.0);
                if !(watchdog_ms.is_finite() && (1.0..=600_000.0).contains(&watchdog_ms)) {
                    c.fail("policy.watchdog_ms", format!("must be from 1 to 600000 ms (got {watchdog_ms})"));
                }
                let watchdog_ns = (watchdog_ms.clamp(1.0, 600_000.0) * 1e6).round() as u64;
                out.ext = Some(ExtPolicy { source: src.clone(), watchdog_ns });
            }
            (None, Some(file)) => c.fail(
                "policy.source_file",
                format!("'{}' is read by schedsim next to the scenario file; here give `source`", shown(file)),
            ),
            (None, None) => c.fail("policy.source", "kind 'ext' needs the policy's JavaScript source"),
        }
    } else if p.source.is_some() || p.source_file.is_some() || p.watchdog_ms.is_some() {
        c.fail("policy", "source, source_file and watchdog_ms apply only to kind 'ext'");
    }
    // Group Identity is modelled on CFS's wakeup and tick rules (and PFS /
    // DW-CFS, which only change weights); EEVDF's pick and O(1)'s arrays
    // would bypass half of it.
    if out.group_identity && matches!(out.kind, PolicyKind::Eevdf | PolicyKind::O1) {
        c.fail("policy.group_identity", "applies only to kinds 'cfs', 'pfs' and 'dw-cfs'");
    }
    out
}

pub(super) fn knobs_of(t: Option<&TunablesSpec>, c: &mut Checker) -> CfsKnobs {
    let mut k = CfsKnobs::linux_4_1();
    let Some(t) = t else { return k };
    let p = "policy.tunables";
    // A given value is checked as written (in µs), then converted.
    let mut us = |v: Option<u64>, default_ns: u64, name: &str, lo: u64| match v {
        None => default_ns,
        Some(v) => {
            c.range(&format!("{p}.{name}"), v, lo, 1_000_000);
            v.saturating_mul(NSEC_PER_USEC)
        }
    };
    k.latency_ns = us(t.sched_latency_us, k.latency_ns, "sched_latency_us", 100);
    k.min_granularity_ns = us(t.sched_min_granularity_us, k.min_granularity_ns, "sched_min_granularity_us", 100);
    k.wakeup_granularity_ns =
        us(t.sched_wakeup_granularity_us, k.wakeup_granularity_ns, "sched_wakeup_granularity_us", 0);
    k.migration_cost_ns = us(t.sched_migration_cost_us, k.migration_cost_ns, "sched_migration_cost_us", 0);
    k.nr_latency = t.sched_nr_latency.unwrap_or(k.nr_latency);
    c.range(&format!("{p}.sched_nr_latency"), k.nr_latency, 1, 1_000);
    match t.tunable_scaling.as_deref() {
        None | Some("log") => {}
        Some("none") => k.log_scaling = false,
        Some(other) => {
            c.fail(format!("{p}.tunable_scaling"), format!("must be 'log' or 'none' (got '{}')", shown(other)))
        }
    }
    k
}

pub(super) fn features_of(f: Option<&FeaturesSpec>) -> CfsFeatures {
    let mut out = CfsFeatures::linux_4_1();
    let Some(f) = f else { return out };
    let set = |slot: &mut bool, v: Option<bool>| {
        if let Some(v) = v {
            *slot = v;
        }
    };
    set(&mut out.gentle_fair_sleepers, f.gentle_fair_sleepers);
    set(&mut out.start_debit, f.start_debit);
    set(&mut out.next_buddy, f.next_buddy);
    set(&mut out.last_buddy, f.last_buddy);
    set(&mut out.cache_hot_buddy, f.cache_hot_buddy);
    set(&mut out.wakeup_preemption, f.wakeup_preemption);
    out
}

//! The run's switches: the bugs (a profile or one switch per bug), the
//! scheduling costs, the sanity checker and the preemption model.

use crate::api::scenario::diagnostic::Checker;
use crate::api::scenario::file::{BugsSpec, CostsFile, SanityFile, MAX_DURATION_MS};
use crate::api::text::escape_controls as shown;
use crate::config::{BugSwitches, CostModel, PreemptModel};
use crate::sim::sanity::SanityConfig;
use crate::time::NSEC_PER_MSEC;

/// The kernel's preemption model (`preempt`); voluntary when absent.
pub(super) fn preempt_of(p: Option<&str>, c: &mut Checker) -> PreemptModel {
    match p {
        None | Some("voluntary") => PreemptModel::Voluntary,
        Some("none") => PreemptModel::None,
        Some("full") => PreemptModel::Full,
        Some(other) => {
            c.fail("preempt", format!("must be \"none\", \"voluntary\" or \"full\" (got {other:?})"));
            PreemptModel::Voluntary
        }
    }
}

/// The mutexes' protocol (`mutex_protocol`): true for priority inheritance.
pub(super) fn pi_mutexes_of(p: Option<&str>, c: &mut Checker) -> bool {
    match p {
        None | Some("none") => false,
        Some("inherit") => true,
        Some(other) => {
            c.fail("mutex_protocol", format!("must be \"none\" or \"inherit\" (got \"{}\")", shown(other)));
            false
        }
    }
}

pub(super) fn bugs_of(b: Option<&BugsSpec>, c: &mut Checker) -> BugSwitches {
    match b {
        None => BugSwitches::linux_4_1(),
        Some(BugsSpec::Profile(p)) => match p.as_str() {
            "linux-4.1" => BugSwitches::linux_4_1(),
            "linux-4.1-fixed" => BugSwitches::all_fixed(),
            other => {
                c.fail("bugs", format!("unknown profile '{}' (known: linux-4.1, linux-4.1-fixed)", shown(other)));
                BugSwitches::linux_4_1()
            }
        },
        Some(BugsSpec::Switches(s)) => {
            let d = BugSwitches::linux_4_1();
            BugSwitches {
                group_imbalance: s.group_imbalance.unwrap_or(d.group_imbalance),
                group_construction: s.group_construction.unwrap_or(d.group_construction),
                overload_on_wakeup: s.overload_on_wakeup.unwrap_or(d.overload_on_wakeup),
                missing_domains: s.missing_domains.unwrap_or(d.missing_domains),
            }
        }
    }
}

pub(super) fn costs_of(f: Option<&CostsFile>, c: &mut Checker) -> CostModel {
    let d = CostModel::defaults();
    let Some(f) = f else { return d };
    let mut pick = |v: Option<u64>, def: u64, name: &str| {
        let v = v.unwrap_or(def);
        c.range(&format!("costs.{name}"), v, 0, 10_000_000);
        v
    };
    CostModel {
        clone_ns: pick(f.clone_ns, d.clone_ns, "clone_ns"),
        context_switch_ns: pick(f.context_switch_ns, d.context_switch_ns, "context_switch_ns"),
        wakeup_ipi_ns: pick(f.wakeup_ipi_ns, d.wakeup_ipi_ns, "wakeup_ipi_ns"),
        migration_cold_ns: pick(f.migration_cold_ns, d.migration_cold_ns, "migration_cold_ns"),
        migration_cold_remote_ns: pick(
            f.migration_cold_remote_ns,
            d.migration_cold_remote_ns,
            "migration_cold_remote_ns",
        ),
        smt_sibling_speed_pct: {
            let v = f.smt_sibling_speed_pct.unwrap_or(d.smt_sibling_speed_pct as u64);
            c.range("costs.smt_sibling_speed_pct", v, 10, 100);
            v.clamp(10, 100) as u32
        },
    }
}

pub(super) fn sanity_of(f: Option<&SanityFile>, c: &mut Checker) -> Option<SanityConfig> {
    let (period, window) = match f {
        None | Some(SanityFile::Enabled(true)) => (1000, 100),
        Some(SanityFile::Enabled(false)) => return None,
        Some(SanityFile::Settings { period_ms, window_ms }) => (*period_ms, *window_ms),
    };
    c.range("sanity_checker.period_ms", period, 1, MAX_DURATION_MS);
    if window == 0 {
        c.fail("sanity_checker.window_ms", "must be at least 1 (got 0)");
    } else if period > 0 && window > period {
        c.fail("sanity_checker.window_ms", format!("must be at most period_ms, {period} (got {window})"));
    }
    Some(SanityConfig { period_ns: period * NSEC_PER_MSEC, window_ns: window * NSEC_PER_MSEC })
}

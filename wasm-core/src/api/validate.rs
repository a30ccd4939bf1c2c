//! Semantic validation of a parsed scenario into the engine's `SimConfig`.
//! Every problem is reported with the JSON path of its field; hard limits
//! (CPUs, threads, duration, program size) bound what a run can cost.

use super::policy_kind::{policy_kind, POLICY_KIND_NAMES};
use super::scenario::*;
use super::text::{code_point, escape_controls as shown, forbidden_control, DESCRIPTION_CONTROLS};
use super::validate_cgroup::{cgroups_of, CgroupNames};
use super::validate_events::events_of;
use super::validate_machine::{affinity_of, machine_of};
use super::validate_program::{check_wake_targets, count_steps, ops_of, ProcessNames};
use crate::config::{BugSwitches, CostModel, ExtPolicy, PolicyConfig, PolicyKind, ProcessSpec, SimConfig};
use crate::sched::thread_weight::AlphaFormula;
use crate::sched::tunables::{CfsFeatures, CfsKnobs};
use crate::time::{NSEC_PER_MSEC, NSEC_PER_USEC};

/// At most this many problems are listed; the rest are counted in one last
/// line (a file of a million bad steps must not make a million messages).
pub const MAX_DIAGNOSTICS: usize = 100;

pub(super) struct Checker {
    diags: Vec<Diagnostic>,
    /// Problems found past `MAX_DIAGNOSTICS`.
    omitted: usize,
}

impl Checker {
    pub(super) fn fail(&mut self, field: impl Into<String>, reason: impl Into<String>) {
        if self.diags.len() < MAX_DIAGNOSTICS {
            self.diags.push(Diagnostic { field: field.into(), reason: reason.into() });
        } else {
            self.omitted += 1;
        }
    }

    /// A name or other one-line text from the file: no control characters
    /// (they would reach terminals and tables as they are).
    pub(super) fn one_line(&mut self, field: &str, s: &str) {
        if let Some(ch) = forbidden_control(s, &[]) {
            self.fail(field, format!("must not contain control characters ({})", code_point(ch)));
        }
    }

    /// Problems found so far, listed or not.
    pub(super) fn found(&self) -> usize {
        self.diags.len() + self.omitted
    }

    fn into_diagnostics(mut self) -> Vec<Diagnostic> {
        if self.omitted > 0 {
            self.diags.push(Diagnostic {
                field: "scenario".into(),
                reason: format!("{} more problems not listed (only the first {MAX_DIAGNOSTICS} are)", self.omitted),
            });
        }
        self.diags
    }

    pub(super) fn range<T: PartialOrd + std::fmt::Display>(&mut self, field: &str, v: T, lo: T, hi: T) {
        if v < lo || v > hi {
            self.fail(field, format!("must be between {lo} and {hi} (got {v})"));
        }
    }
}

/// Checks a parsed scenario; the engine configuration, or every problem found.
pub fn validate(f: &ScenarioFile) -> Result<SimConfig, Vec<Diagnostic>> {
    let mut c = Checker { diags: Vec::new(), omitted: 0 };
    if f.version != SCENARIO_VERSION {
        c.fail("version", format!("unsupported version {} (this build reads version {SCENARIO_VERSION})", f.version));
    }
    if f.name.is_empty() || f.name.chars().count() > MAX_NAME_LEN {
        c.fail("name", format!("must be 1 to {MAX_NAME_LEN} characters"));
    }
    c.one_line("name", &f.name);
    // The description is prose shown as text: it may break lines and use tabs.
    if let Some(ch) = forbidden_control(&f.description, &DESCRIPTION_CONTROLS) {
        c.fail(
            "description",
            format!(
                "may contain line breaks (U+000A) and tabs (U+0009) but no other control characters ({})",
                code_point(ch)
            ),
        );
    }
    c.range("duration_ms", f.duration_ms, 1, MAX_DURATION_MS);
    c.range("hz", f.hz, 10, 10_000);
    let machine = machine_of(&f.machine, &mut c);
    let mut policy = policy_of(&f.policy, &mut c);
    let knobs = knobs_of(f.policy.tunables.as_ref(), &mut c);
    let features = features_of(f.policy.features.as_ref());
    let mut total_threads: u64 = 0;
    let mut processes = Vec::new();
    if f.processes.is_empty() {
        c.fail("processes", "must list at least one process");
    }
    let names = ProcessNames::of(&f.processes);
    let cgroup_names = CgroupNames::of(&f.cgroups);
    for (i, p) in f.processes.iter().enumerate() {
        let at = format!("processes[{i}]");
        if p.name.is_empty() || p.name.chars().count() > MAX_NAME_LEN {
            c.fail(format!("{at}.name"), format!("must be 1 to {MAX_NAME_LEN} characters"));
        }
        c.one_line(&format!("{at}.name"), &p.name);
        if let Some(first) = names.first(&p.name).filter(|&first| first != i) {
            c.fail(
                format!("{at}.name"),
                format!(
                    "'{}' is already the name of processes[{first}]; names must be unique (a wake step finds its \
                     process by name)",
                    shown(&p.name)
                ),
            );
        }
        if p.name.contains('/') {
            c.fail(format!("{at}.name"), "must not contain '/' (a wake step names a thread as 'process/k')");
        }
        if let Some(session) = &p.session {
            c.one_line(&format!("{at}.session"), session);
        }
        c.range(&format!("{at}.nice"), p.nice, -20, 19);
        c.range(&format!("{at}.threads"), p.threads, 1, MAX_THREADS);
        c.range(&format!("{at}.start_ms"), p.start_ms, 0, MAX_DURATION_MS);
        c.range(&format!("{at}.job_pool"), p.job_pool, 0, 10_000_000);
        total_threads += p.threads as u64;
        if let Some(us) = p.slice_us {
            if policy.kind != PolicyKind::Eevdf {
                c.fail(format!("{at}.slice_us"), "a custom slice needs policy.kind 'eevdf'");
            }
            c.range(&format!("{at}.slice_us"), us, 100, 100_000);
        }
        policy.slices.push(p.slice_us.unwrap_or(0).saturating_mul(NSEC_PER_USEC));
        let mut count = 0;
        let steps = match (&p.template, p.program.is_empty()) {
            (Some(t), true) => super::templates::template_program(t).unwrap_or_else(|| {
                c.fail(
                    format!("{at}.template"),
                    format!("unknown template '{}' (known: {})", shown(t), super::templates::TEMPLATE_NAMES.join(", ")),
                );
                Vec::new()
            }),
            (Some(_), false) => {
                c.fail(&at, "give either a template or a program, not both");
                Vec::new()
            }
            (None, _) => p.program.clone(),
        };
        // Counted first: an over-long program is one problem, not a thousand.
        let all = count_steps(&steps);
        let program = if all > MAX_PROGRAM_OPS {
            c.fail(format!("{at}.program"), format!("has {all} steps; the limit is {MAX_PROGRAM_OPS}"));
            Vec::new()
        } else {
            ops_of(&steps, &format!("{at}.program"), 1, false, &mut count, &mut c)
        };
        check_wake_targets(&program, &f.processes, &names, &format!("{at}.program"), &mut c);
        let affinity = machine.as_ref().and_then(|m| affinity_of(p, m, &at, &mut c));
        if let Some(cg) = &p.cgroup {
            if !cgroup_names.contains(cg) {
                c.fail(format!("{at}.cgroup"), format!("no cgroup named '{}' in cgroups", shown(cg)));
            }
        }
        processes.push(ProcessSpec {
            affinity,
            session: p.session.clone(),
            job_pool: p.job_pool,
            cgroup: p.cgroup.clone(),
            name: p.name.clone(),
            nice: p.nice,
            threads: p.threads,
            start_ns: p.start_ms.saturating_mul(NSEC_PER_MSEC),
            program,
        });
    }
    if total_threads > MAX_THREADS as u64 {
        c.fail("processes", format!("{total_threads} threads in all; the limit is {MAX_THREADS}"));
    }
    let bugs = bugs_of(f.bugs.as_ref(), &mut c);
    let cgroups = cgroups_of(&f.cgroups, &cgroup_names, &mut c);
    let costs = costs_of(f.costs.as_ref(), &mut c);
    // Under O(1) hotplug is refused as a whole (below): its events' CPUs are not checked.
    let cpus_to_check = machine.as_ref().map(|m| m.nr_cpus()).filter(|_| policy.kind != PolicyKind::O1);
    let events = events_of(&f.events, cpus_to_check, &mut c);
    if policy.kind == PolicyKind::O1 && !f.events.is_empty() {
        // CPU hotplug is not modelled for the O(1) class.
        c.fail("events", "CPU hotplug is not modelled under policy 'o1'");
    }
    let preempt = match f.preempt.as_deref() {
        None | Some("voluntary") => crate::config::PreemptModel::Voluntary,
        Some("none") => crate::config::PreemptModel::None,
        Some("full") => crate::config::PreemptModel::Full,
        Some(other) => {
            c.fail("preempt", format!("must be \"none\", \"voluntary\" or \"full\" (got {other:?})"));
            crate::config::PreemptModel::Voluntary
        }
    };
    // Checked before the early return so its problems are reported too.
    let sanity = sanity_of(f.sanity_checker.as_ref(), &mut c);
    // The run does not need the exercise (it is judged from the report), but a wrong one is refused here too.
    for d in f.exercise.iter().flat_map(|ex| super::exercise::check(ex, &f.processes)) {
        c.fail(d.field, d.reason);
    }
    if c.found() > 0 {
        return Err(c.into_diagnostics());
    }
    super::limits::admit(SimConfig {
        event_budget: crate::config::DEFAULT_EVENT_BUDGET,
        autogroup: f.autogroup,
        costs,
        nohz: f.nohz,
        preempt,
        sanity,
        cgroups,
        bugs,
        events,
        name: f.name.clone(),
        seed: f.seed,
        duration_ns: f.duration_ms * NSEC_PER_MSEC,
        hz: f.hz,
        machine: machine.expect("machine is valid when there are no diagnostics"),
        knobs,
        features,
        policy,
        processes,
    })
}

/// The longest policy source a scenario may carry (share links carry it too).
pub const MAX_POLICY_SOURCE: usize = 64 * 1024;

fn policy_of(p: &PolicySpec, c: &mut Checker) -> PolicyConfig {
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

fn knobs_of(t: Option<&TunablesSpec>, c: &mut Checker) -> CfsKnobs {
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

fn features_of(f: Option<&FeaturesSpec>) -> CfsFeatures {
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

fn bugs_of(b: Option<&BugsSpec>, c: &mut Checker) -> BugSwitches {
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

fn costs_of(f: Option<&CostsFile>, c: &mut Checker) -> CostModel {
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

fn sanity_of(f: Option<&SanityFile>, c: &mut Checker) -> Option<crate::sim::sanity::SanityConfig> {
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
    Some(crate::sim::sanity::SanityConfig { period_ns: period * NSEC_PER_MSEC, window_ns: window * NSEC_PER_MSEC })
}

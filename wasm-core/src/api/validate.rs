//! Semantic validation of a parsed scenario into the engine's `SimConfig`.
//! Every problem is reported with the JSON path of its field; hard limits
//! (CPUs, threads, duration, program size) bound what a run can cost.

use super::scenario::*;
use crate::config::{
    BugSwitches, CgroupSpec, CostModel, PolicyConfig, PolicyKind, ProcessSpec, SimConfig, TimedEvent, TimedEventKind,
};
use crate::machine::{Machine, MAX_CPUS};
use crate::program::{Dist, Op};
use crate::sched::identity::Identity;
use crate::sched::thread_weight::AlphaFormula;
use crate::sched::tunables::{CfsFeatures, CfsKnobs};
use crate::time::{NSEC_PER_MSEC, NSEC_PER_USEC};
use crate::topology::cpumask::CpuMask;

struct Checker {
    diags: Vec<Diagnostic>,
}

impl Checker {
    fn fail(&mut self, field: impl Into<String>, reason: impl Into<String>) {
        self.diags.push(Diagnostic { field: field.into(), reason: reason.into() });
    }

    fn range<T: PartialOrd + std::fmt::Display>(&mut self, field: &str, v: T, lo: T, hi: T) {
        if v < lo || v > hi {
            self.fail(field, format!("must be between {lo} and {hi} (got {v})"));
        }
    }
}

/// Checks a parsed scenario; the engine configuration, or every problem found.
pub fn validate(f: &ScenarioFile) -> Result<SimConfig, Vec<Diagnostic>> {
    let mut c = Checker { diags: Vec::new() };
    if f.version != SCENARIO_VERSION {
        c.fail("version", format!("unsupported version {} (this build reads version {SCENARIO_VERSION})", f.version));
    }
    if f.name.is_empty() || f.name.chars().count() > MAX_NAME_LEN {
        c.fail("name", format!("must be 1 to {MAX_NAME_LEN} characters"));
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
    for (i, p) in f.processes.iter().enumerate() {
        let at = format!("processes[{i}]");
        if p.name.is_empty() || p.name.chars().count() > MAX_NAME_LEN {
            c.fail(format!("{at}.name"), format!("must be 1 to {MAX_NAME_LEN} characters"));
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
                    format!("unknown template '{t}' (known: {})", super::templates::TEMPLATE_NAMES.join(", ")),
                );
                Vec::new()
            }),
            (Some(_), false) => {
                c.fail(&at, "give either a template or a program, not both");
                Vec::new()
            }
            (None, _) => p.program.clone(),
        };
        let program = ops_of(&steps, &format!("{at}.program"), 1, &mut count, &mut c);
        check_wake_targets(&program, f, &format!("{at}.program"), &mut c);
        if count > MAX_PROGRAM_OPS {
            c.fail(format!("{at}.program"), format!("has {count} steps; the limit is {MAX_PROGRAM_OPS}"));
        }
        let affinity = machine.as_ref().and_then(|m| affinity_of(p, m, &at, &mut c));
        if let Some(cg) = &p.cgroup {
            if !f.cgroups.iter().any(|g| &g.name == cg) {
                c.fail(format!("{at}.cgroup"), format!("no cgroup named '{cg}' in cgroups"));
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
    let cgroups = cgroups_of(&f.cgroups, &mut c);
    let costs = costs_of(f.costs.as_ref(), &mut c);
    let nr_cpus = machine.as_ref().map_or(1, |m| m.nr_cpus());
    let mut events = Vec::new();
    for (i, e) in f.events.iter().enumerate() {
        let at = format!("events[{i}]");
        c.range(&format!("{at}.at_ms"), e.at_ms, 0, MAX_DURATION_MS);
        let kind = match (e.cpu_offline, e.cpu_online) {
            (Some(cpu), None) => TimedEventKind::CpuOffline(cpu),
            (None, Some(cpu)) => TimedEventKind::CpuOnline(cpu),
            _ => {
                c.fail(&at, "must have exactly one of cpu_offline or cpu_online");
                continue;
            }
        };
        let (TimedEventKind::CpuOffline(cpu) | TimedEventKind::CpuOnline(cpu)) = kind;
        if cpu >= nr_cpus {
            c.fail(&at, format!("CPU {cpu} does not exist (the machine has {nr_cpus})"));
        }
        events.push(TimedEvent { at_ns: e.at_ms.saturating_mul(NSEC_PER_MSEC), kind });
    }
    if policy.kind == PolicyKind::O1 && !f.events.is_empty() {
        // CPU hotplug is not modelled for the O(1) class.
        c.fail("events", "CPU hotplug is not modelled under policy 'o1'");
    }
    // Checked before the early return so its problems are reported too.
    let sanity = sanity_of(f.sanity_checker.as_ref(), &mut c);
    if !c.diags.is_empty() {
        return Err(c.diags);
    }
    super::limits::admit(SimConfig {
        event_budget: crate::config::DEFAULT_EVENT_BUDGET,
        autogroup: f.autogroup,
        costs,
        nohz: f.nohz,
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

fn machine_of(m: &MachineSpec, c: &mut Checker) -> Option<Machine> {
    let custom = m.nodes.is_some() || m.cores_per_node.is_some() || m.threads_per_core.is_some();
    match (&m.preset, custom) {
        (Some(_), true) => {
            c.fail("machine", "give either a preset or nodes/cores_per_node/threads_per_core, not both");
            None
        }
        (Some(name), false) => {
            let found = Machine::preset(name);
            if found.is_none() {
                c.fail(
                    "machine.preset",
                    format!("unknown machine '{name}' (known: {})", Machine::preset_names().join(", ")),
                );
            }
            found.map(|mut mach| {
                if let Some(d) = &m.distance {
                    if check_distance(d, mach.nodes, c) {
                        mach.distance = d.clone();
                    }
                }
                mach
            })
        }
        (None, _) => {
            let nodes = m.nodes.unwrap_or(1);
            let cores = m.cores_per_node.unwrap_or(1);
            let threads = m.threads_per_core.unwrap_or(1);
            c.range("machine.nodes", nodes, 1, 64);
            c.range("machine.cores_per_node", cores, 1, MAX_CPUS);
            c.range("machine.threads_per_core", threads, 1, 8);
            let total = nodes as u64 * cores as u64 * threads as u64;
            if total > MAX_CPUS as u64 {
                c.fail("machine", format!("{total} CPUs; the limit is {MAX_CPUS}"));
                return None;
            }
            let mut mach = Machine::uniform("custom", nodes, cores, threads, 20);
            if let Some(d) = &m.distance {
                if check_distance(d, nodes, c) {
                    mach.distance = d.clone();
                }
            }
            Some(mach)
        }
    }
}

fn check_distance(d: &[Vec<u32>], nodes: u32, c: &mut Checker) -> bool {
    let before = c.diags.len();
    if d.len() != nodes as usize {
        c.fail("machine.distance", format!("must have {nodes} rows (one per node), has {}", d.len()));
        return false;
    }
    for (i, row) in d.iter().enumerate() {
        if row.len() != nodes as usize {
            c.fail(format!("machine.distance[{i}]"), format!("must have {nodes} entries"));
            continue;
        }
        for (j, &v) in row.iter().enumerate() {
            let ok = if i == j { v == 10 } else { (11..=254).contains(&v) && d[j].get(i) == Some(&v) };
            if !ok {
                c.fail(
                    format!("machine.distance[{i}][{j}]"),
                    "must be 10 on the diagonal, 11 to 254 elsewhere, and symmetric",
                );
            }
        }
    }
    c.diags.len() == before
}

fn policy_of(p: &PolicySpec, c: &mut Checker) -> PolicyConfig {
    let mut out = PolicyConfig::cfs();
    out.kind = match p.kind.as_str() {
        "cfs" => PolicyKind::Cfs,
        "pfs" => PolicyKind::Pfs,
        "dw-cfs" => PolicyKind::DwCfs,
        "eevdf" => PolicyKind::Eevdf,
        "o1" => PolicyKind::O1,
        other => {
            c.fail("policy.kind", format!("unknown policy '{other}' (known: cfs, pfs, dw-cfs, eevdf, o1)"));
            PolicyKind::Cfs
        }
    };
    if out.kind != PolicyKind::DwCfs && (p.alpha.is_some() || p.beta.is_some()) {
        c.fail("policy", "alpha and beta apply only to kind 'dw-cfs'");
    }
    match p.alpha.as_deref() {
        None | Some("A") => {}
        Some("B") => out.alpha = AlphaFormula::B,
        Some("C") => out.alpha = AlphaFormula::C,
        Some(other) => c.fail("policy.alpha", format!("must be 'A', 'B' or 'C' (got '{other}')")),
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
    let us = |v: Option<u64>, d: u64| v.map_or(d, |v| v.saturating_mul(NSEC_PER_USEC));
    k.latency_ns = us(t.sched_latency_us, k.latency_ns);
    k.min_granularity_ns = us(t.sched_min_granularity_us, k.min_granularity_ns);
    k.wakeup_granularity_ns = us(t.sched_wakeup_granularity_us, k.wakeup_granularity_ns);
    k.migration_cost_ns = us(t.sched_migration_cost_us, k.migration_cost_ns);
    k.nr_latency = t.sched_nr_latency.unwrap_or(k.nr_latency);
    let p = "policy.tunables";
    c.range(&format!("{p}.sched_latency_us"), k.latency_ns / NSEC_PER_USEC, 100, 1_000_000);
    c.range(&format!("{p}.sched_min_granularity_us"), k.min_granularity_ns / NSEC_PER_USEC, 100, 1_000_000);
    c.range(&format!("{p}.sched_wakeup_granularity_us"), k.wakeup_granularity_ns / NSEC_PER_USEC, 0, 1_000_000);
    c.range(&format!("{p}.sched_migration_cost_us"), k.migration_cost_ns / NSEC_PER_USEC, 0, 1_000_000);
    c.range(&format!("{p}.sched_nr_latency"), k.nr_latency, 1, 1_000);
    match t.tunable_scaling.as_deref() {
        None | Some("log") => {}
        Some("none") => k.log_scaling = false,
        Some(other) => c.fail(format!("{p}.tunable_scaling"), format!("must be 'log' or 'none' (got '{other}')")),
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

const MAX_US: u64 = MAX_DURATION_MS * 1_000;

fn dist_of(d: &DistFile, field: &str, c: &mut Checker) -> Dist {
    let ns = |us: u64| us.saturating_mul(NSEC_PER_USEC);
    match *d {
        DistFile::Fixed(us) => {
            c.range(field, us, 0, MAX_US);
            Dist::Fixed(ns(us))
        }
        DistFile::Uniform { uniform: [lo, hi] } => {
            if lo > hi || hi > MAX_US {
                c.fail(field, format!("uniform bounds must satisfy 0 <= lo <= hi <= {MAX_US}"));
            }
            Dist::Uniform(ns(lo), ns(hi))
        }
        DistFile::Exponential { exp } => {
            c.range(field, exp, 1, MAX_US);
            Dist::Exponential { mean: ns(exp) }
        }
    }
}

fn ops_of(ops: &[OpFile], at: &str, depth: usize, count: &mut usize, c: &mut Checker) -> Vec<Op> {
    if depth > MAX_PROGRAM_DEPTH {
        c.fail(at, format!("loops nest deeper than {MAX_PROGRAM_DEPTH}"));
        return Vec::new();
    }
    let mut out = Vec::new();
    for (i, op) in ops.iter().enumerate() {
        *count += 1;
        if *count > MAX_PROGRAM_OPS {
            return out;
        }
        let field = format!("{at}[{i}]");
        let kinds = [
            op.run_us.is_some(),
            op.sleep_us.is_some(),
            op.body.is_some(),
            op.exit.is_some(),
            op.wait.is_some(),
            op.wake.is_some(),
            op.barrier.is_some(),
            op.lock.is_some(),
            op.unlock.is_some(),
            op.yield_cpu.is_some(),
            op.take_job.is_some(),
            op.fork.is_some(),
            op.wait_child.is_some(),
        ];
        if kinds.iter().filter(|k| **k).count() != 1 {
            c.fail(&field, "must have exactly one of run_us, sleep_us, body (with optional repeat), exit, wait, wake, barrier (with optional spin_us), lock, unlock, yield, take_job, fork or wait_child");
            continue;
        }
        if op.spin_us.is_some() && op.barrier.is_none() {
            c.fail(format!("{field}.spin_us"), "only allowed together with barrier");
        }
        for (flag, name) in
            [(op.wait, "wait"), (op.yield_cpu, "yield"), (op.take_job, "take_job"), (op.wait_child, "wait_child")]
        {
            if flag == Some(false) {
                c.fail(format!("{field}.{name}"), "must be true (omit the step otherwise)");
            }
        }
        if op.exit == Some(false) {
            c.fail(format!("{field}.exit"), "must be true (omit the step to keep running)");
        }
        if op.repeat.is_some() && op.body.is_none() {
            c.fail(format!("{field}.repeat"), "only allowed together with body");
        }
        if let Some(d) = &op.run_us {
            out.push(Op::Run(dist_of(d, &format!("{field}.run_us"), c)));
        } else if let Some(d) = &op.sleep_us {
            out.push(Op::Sleep(dist_of(d, &format!("{field}.sleep_us"), c)));
        } else if op.wait.is_some() {
            out.push(Op::Wait);
        } else if let Some(target) = &op.wake {
            let (process, thread) = match target.rsplit_once('/') {
                Some((p, k)) => match k.parse::<u32>() {
                    Ok(k) => (p.to_string(), k),
                    Err(_) => {
                        c.fail(format!("{field}.wake"), "must be \"process\" or \"process/thread-index\"");
                        continue;
                    }
                },
                None => (target.clone(), 0),
            };
            out.push(Op::Wake { process, thread });
        } else if let Some(name) = &op.barrier {
            let spin = op.spin_us.as_ref().map_or(Dist::Fixed(0), |d| dist_of(d, &format!("{field}.spin_us"), c));
            out.push(Op::Barrier { name: name.clone(), spin });
        } else if let Some(name) = &op.lock {
            out.push(Op::Lock(name.clone()));
        } else if let Some(name) = &op.unlock {
            out.push(Op::Unlock(name.clone()));
        } else if op.yield_cpu.is_some() {
            out.push(Op::Yield);
        } else if op.take_job.is_some() {
            out.push(Op::TakeJob);
        } else if op.wait_child.is_some() {
            out.push(Op::WaitChild);
        } else if let Some(child) = &op.fork {
            let child = ops_of(child, &format!("{field}.fork"), depth + 1, count, c);
            out.push(Op::Fork(child));
        } else if let Some(body) = &op.body {
            let body = ops_of(body, &format!("{field}.body"), depth + 1, count, c);
            out.push(Op::Repeat { times: op.repeat, body });
        } else {
            out.push(Op::Exit);
        }
    }
    out
}

fn bugs_of(b: Option<&BugsSpec>, c: &mut Checker) -> BugSwitches {
    match b {
        None => BugSwitches::linux_4_1(),
        Some(BugsSpec::Profile(p)) => match p.as_str() {
            "linux-4.1" => BugSwitches::linux_4_1(),
            "linux-4.1-fixed" => BugSwitches::all_fixed(),
            other => {
                c.fail("bugs", format!("unknown profile '{other}' (known: linux-4.1, linux-4.1-fixed)"));
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

/// A process's allowed CPUs: a taskset list and/or NUMA nodes (intersected).
fn affinity_of(p: &ProcessFile, m: &Machine, at: &str, c: &mut Checker) -> Option<CpuMask> {
    let mut mask: Option<CpuMask> = None;
    if let Some(list) = &p.cpus {
        match CpuMask::parse_list(list, m.nr_cpus()) {
            Some(cpus) if !cpus.is_empty() => mask = Some(cpus),
            _ => {
                c.fail(format!("{at}.cpus"), format!("must be a CPU list like \"0-3,8\" within 0-{}", m.nr_cpus() - 1))
            }
        }
    }
    if let Some(nodes) = &p.nodes {
        let mut cpus = CpuMask::new();
        for (j, &n) in nodes.iter().enumerate() {
            if n >= m.nodes {
                c.fail(format!("{at}.nodes[{j}]"), format!("node {n} does not exist (the machine has {})", m.nodes));
            } else {
                cpus = cpus.or(&CpuMask::from_range(m.node_cpus(n)));
            }
        }
        mask = Some(match mask {
            Some(prev) => prev.and(&cpus),
            None => cpus,
        });
        if mask.as_ref().is_some_and(|m| m.is_empty()) {
            c.fail(format!("{at}.nodes"), "leaves no CPU to run on");
        }
    }
    mask
}

/// Cgroups: unique names, parents defined earlier, shares in the kernel's range.
fn cgroups_of(list: &[CgroupFile], c: &mut Checker) -> Vec<CgroupSpec> {
    if list.len() > 256 {
        c.fail("cgroups", "at most 256 cgroups");
    }
    let mut out: Vec<CgroupSpec> = Vec::new();
    for (i, g) in list.iter().enumerate() {
        let at = format!("cgroups[{i}]");
        if g.name.is_empty() || g.name.chars().count() > MAX_NAME_LEN || out.iter().any(|o| o.name == g.name) {
            c.fail(format!("{at}.name"), "must be a unique name of 1 to 200 characters");
        }
        c.range(&format!("{at}.shares"), g.shares, 2, 262_144);
        if let Some(p) = &g.parent {
            if !out.iter().any(|o| &o.name == p) {
                c.fail(format!("{at}.parent"), format!("no cgroup named '{p}' defined before this one"));
            }
        }
        let identity = match g.identity.as_deref() {
            None | Some("normal") => Identity::Normal,
            Some("highclass") => Identity::Highclass,
            Some("underclass") => Identity::Underclass,
            Some(other) => {
                c.fail(format!("{at}.identity"), format!("must be highclass, normal or underclass (got '{other}')"));
                Identity::Normal
            }
        };
        if g.parent.is_some() && (g.identity.is_some() || g.smt_expeller.is_some()) {
            c.fail(format!("{at}.identity"), "only top-level cgroups carry an identity; children inherit it");
        }
        let smt_expeller = g.smt_expeller.unwrap_or(false);
        if smt_expeller && identity != Identity::Highclass {
            c.fail(format!("{at}.smt_expeller"), "only a highclass cgroup can be an SMT expeller");
        }
        out.push(CgroupSpec {
            name: g.name.clone(),
            shares: g.shares,
            parent: g.parent.clone(),
            identity,
            smt_expeller,
        });
    }
    out
}

/// Every `wake` names an existing process and one of its threads.
fn check_wake_targets(ops: &[Op], f: &ScenarioFile, at: &str, c: &mut Checker) {
    for op in ops {
        match op {
            Op::Wake { process, thread } => match f.processes.iter().find(|p| &p.name == process) {
                None => c.fail(at, format!("wake names no process '{process}'")),
                Some(p) if *thread >= p.threads => {
                    c.fail(at, format!("wake names thread {thread} of '{process}', which has {} threads", p.threads))
                }
                Some(_) => {}
            },
            Op::Repeat { body, .. } | Op::Fork(body) => check_wake_targets(body, f, at, c),
            _ => {}
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
    c.range("sanity_checker.window_ms", window, 1, period);
    Some(crate::sim::sanity::SanityConfig { period_ns: period * NSEC_PER_MSEC, window_ns: window * NSEC_PER_MSEC })
}

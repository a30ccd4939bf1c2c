//! A program cut into rt-app's phases for the export, with the properties
//! each phase sets as it begins.
//!
//! ```text
//!   [{repeat, body}]           the task's loop over one phase run once a pass
//!   steps, {repeat, body}, …   a loop whose body has no loop is a phase with
//!                              that count; the steps between loops phases run once
//! ```
//!
//! A `set_cpus`, `sched_setattr` or `set_cgroup` step begins a phase (a phase
//! run once is cut there), and those just before a loop belong to the loop's
//! phase: rt-app sets a phase's `cpus`, policy and `taskgroup` each time it
//! begins it (rt-app.c's `thread_body`). rt-app's phase `cpus` fall back to the task's
//! where a phase has none, where the scenario's stay as the last step set
//! them: each phase gets the cpus it runs on whenever they differ from the
//! task's. A taskgroup and a policy stay in both, so a phase names one only
//! where a step set it.

use super::ordered_json::Json;
use crate::api::scenario::OpFile;
use crate::topology::cpumask::CpuMask;

/// A phase: its loop, the property steps it begins with (each with its
/// path), its other steps, the path of the list they are in and the index of
/// the first there.
pub(super) struct PhaseSteps<'a> {
    pub looped: Option<u32>,
    pub props: Vec<(&'a OpFile, String)>,
    pub steps: &'a [OpFile],
    pub path: String,
    pub first: usize,
}

/// A step that sets a phase's property.
fn is_prop(op: &OpFile) -> bool {
    op.set_cpus.is_some() || op.set_cgroup.is_some() || op.sched_setattr.is_some()
}

/// A `sched_setattr` step as a phase's policy keys: the priority is the
/// process's nice level under SCHED_OTHER and SCHED_BATCH (a step keeps it,
/// and rt-app sets the phase's), the real-time priority under SCHED_FIFO and
/// SCHED_RR; SCHED_DEADLINE's reservation is written whole (rt-app's period
/// defaults to the runtime, the scenario's to the deadline).
fn policy_keys(op: &OpFile, nice: i32, at: &str, bad: &mut Vec<String>) -> Vec<(String, Json)> {
    let int = |n: i64| Json::Number(n.into());
    let (policy, priority) = match op.sched_setattr.as_deref() {
        Some("normal") => ("SCHED_OTHER", Some(i64::from(op.nice.unwrap_or(nice)))),
        Some("batch") => ("SCHED_BATCH", Some(i64::from(op.nice.unwrap_or(nice)))),
        Some("idle") => ("SCHED_IDLE", None),
        Some("fifo") => ("SCHED_FIFO", op.rt_priority.map(i64::from)),
        Some("rr") => ("SCHED_RR", op.rt_priority.map(i64::from)),
        Some("deadline") => ("SCHED_DEADLINE", None),
        other => {
            bad.push(format!("{at}.sched_setattr: {other:?} is no policy rt-app knows"));
            return Vec::new();
        }
    };
    let mut keys = vec![("policy".to_string(), Json::String(policy.into()))];
    if let Some(p) = priority {
        keys.push(("priority".into(), int(p)));
    }
    if let (Some(runtime), Some(deadline)) = (op.dl_runtime_us, op.dl_deadline_us) {
        keys.push(("dl-runtime".into(), Json::Number(runtime.into())));
        keys.push(("dl-deadline".into(), Json::Number(deadline.into())));
        keys.push(("dl-period".into(), Json::Number(op.dl_period_us.unwrap_or(deadline).into())));
    }
    keys
}

/// A flat loop: `{repeat, body}` whose body has no loop.
fn flat_loop(op: &OpFile) -> Option<(&[OpFile], Option<u32>)> {
    let body = op.body.as_deref()?;
    (!body.iter().any(|b| b.body.is_some())).then_some((body, op.repeat))
}

/// A phase of `steps` (the list at `path`, from `first` on) with `looped`: its leading property steps apart.
fn phase_of<'a>(looped: Option<u32>, steps: &'a [OpFile], path: &str, first: usize) -> PhaseSteps<'a> {
    let n = steps.iter().take_while(|op| is_prop(op)).count();
    let props = steps[..n].iter().enumerate().map(|(k, op)| (op, format!("{path}[{}]", first + k))).collect();
    PhaseSteps { looped, props, steps: &steps[n..], path: path.to_string(), first: first + n }
}

/// Steps run once, cut into phases where a property step follows another step.
fn once<'a>(steps: &'a [OpFile], path: &str, first: usize, out: &mut Vec<PhaseSteps<'a>>) {
    let mut start = 0;
    for i in 1..=steps.len() {
        if i == steps.len() || (is_prop(&steps[i]) && !is_prop(&steps[i - 1])) {
            out.push(phase_of(Some(1), &steps[start..i], path, first + start));
            start = i;
        }
    }
}

/// (task loop, phases) of a program at `at`.
pub(super) fn phases<'a>(program: &'a [OpFile], at: &str) -> (Option<u32>, Vec<PhaseSteps<'a>>) {
    if let [only] = program {
        if let Some((body, repeat)) = flat_loop(only) {
            let mut out = Vec::new();
            once(body, &format!("{at}[0].body"), 0, &mut out);
            return (repeat, out);
        }
    }
    let mut out: Vec<PhaseSteps> = Vec::new();
    let mut start = 0;
    for (i, op) in program.iter().enumerate() {
        if let Some((body, repeat)) = flat_loop(op) {
            once(&program[start..i], at, start, &mut out);
            let mut ph = phase_of(repeat, body, &format!("{at}[{i}].body"), 0);
            // Property steps just before the loop begin its phase.
            if let Some(last) = out.last_mut().filter(|p| p.steps.is_empty()) {
                let mut props = std::mem::take(&mut last.props);
                props.append(&mut ph.props);
                ph.props = props;
                out.pop();
            }
            out.push(ph);
            start = i + 1;
        }
    }
    once(&program[start..], at, start, &mut out);
    (Some(1), out)
}

/// The mask a `set_cpus` value stands for (None: every CPU).
fn mask_of(list: &str) -> Option<CpuMask> {
    (list != "all").then(|| CpuMask::parse_list(list, crate::machine::MAX_CPUS).unwrap_or_default())
}

fn cpus_json(m: &CpuMask) -> Json {
    Json::Array(m.iter().map(|c| Json::Number(u64::from(c.0).into())).collect())
}

/// Each phase's `cpus`, policy and `taskgroup` keys, in phase order, for a task whose own cpus are `task_cpus`,
/// whose nice level is `nice` and which runs its phases `task_loop` times; what rt-app cannot say goes to `bad`.
pub(super) fn phase_keys(
    phases: &[PhaseSteps],
    task_cpus: Option<&str>,
    nice: i32,
    task_loop: Option<u32>,
    bad: &mut Vec<String>,
) -> Vec<Vec<(String, Json)>> {
    let initial = task_cpus.and_then(mask_of);
    let mut carried = initial.clone();
    let mut out = Vec::with_capacity(phases.len());
    for (k, ph) in phases.iter().enumerate() {
        let mut keys = Vec::new();
        let own = ph.props.iter().rev().find_map(|(op, at)| op.set_cpus.as_deref().map(|c| (mask_of(c), at)));
        if k == 0 && own.is_none() && task_loop != Some(1) {
            let end = phases.iter().rev().find_map(|p| p.props.iter().rev().find_map(|(op, _)| op.set_cpus.as_deref()));
            if end.is_some_and(|c| mask_of(c) != initial) {
                bad.push(format!(
                    "{}: the cpus the task's loop ends on would carry into its first phase, which rt-app sets back \
                     to the task's: begin the first phase with set_cpus",
                    ph.path
                ));
            }
        }
        if let Some((mask, _)) = &own {
            carried = mask.clone();
        }
        match (&carried, &initial) {
            (c, i) if c == i => {}
            (Some(m), _) => keys.push(("cpus".to_string(), cpus_json(m))),
            (None, Some(_)) => bad.push(format!(
                "{}.set_cpus: \"all\" in a process with cpus (rt-app's phase cpus are a list; the task's own are \
                 the fallback)",
                own.map_or(ph.path.clone(), |(_, at)| at.clone())
            )),
            (None, None) => {}
        }
        // A policy stays in both as the last step set it, so a phase names one only where a step changed it.
        if let Some((op, at)) = ph.props.iter().rev().find(|(op, _)| op.sched_setattr.is_some()) {
            keys.extend(policy_keys(op, nice, at, bad));
        }
        if let Some(g) = ph.props.iter().rev().find_map(|(op, _)| op.set_cgroup.as_deref()) {
            keys.push(("taskgroup".to_string(), Json::String(g.to_string())));
        }
        out.push(keys);
    }
    out
}

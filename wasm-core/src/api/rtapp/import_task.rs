//! One rt-app task: its properties, its phases and their events
//! (rt-app_parse_config.c's `parse_task_data`).
//!
//! ```text
//!   no "phases"    the task is its one phase: "loop" counts that phase's runs
//!                  (without "loop", it runs forever)
//!   "phases"       each phase runs its own "loop" times (1), all of them the
//!                  task's "loop" times (forever); events beside them are not read
//! ```
//!
//! A phase's `cpus`, `taskgroup`, and policy, priority and dl-* parameters
//! are kept with it: the program sets them when the phase begins
//! (`import_program`; the policy as `import_phase_sched` reads it). Keys
//! rt-app does not know it ignores, and so does the import, with a note.

use super::import_events::{event, event_kind};
use super::import_model::PhaseSched as Sched;
use super::import_model::{Findings, Phase, PhaseProps, Policy, Props, Task};
use super::import_policy::{check_priority, default_priority, reservation_of, slice_of};
use super::ordered_json::Json;

/// What a task's reading needs from the rest of the file.
pub struct TaskContext {
    /// global.default_policy.
    pub default_policy: Policy,
    /// The run models custom slices (eevdf, or Linux 6.12): dl-runtime under
    /// a fair policy becomes `slice_us`.
    pub slices: bool,
}

/// Keys that set a task's or a phase's scheduling properties.
const PROPERTIES: &[&str] = &[
    "policy",
    "priority",
    "cpus",
    "taskgroup",
    "util_min",
    "util_max",
    "nodes_membind",
    "dl-runtime",
    "dl-period",
    "dl-deadline",
];

/// Keys of a task alone (besides its events and properties).
const TASK_KEYS: &[&str] = &["instance", "loop", "delay", "phases", "period", "deadline"];

/// A task, or None if it is refused (each reason recorded in `f`).
pub fn read_task(name: &str, t: &Json, cx: &TaskContext, f: &mut Findings) -> Option<Task> {
    let at = format!("tasks.{name}");
    let Json::Object(kv) = t else {
        f.refuse(&at, "a task is an object");
        return None;
    };
    let before = f.refused.len();
    let instances = match t.get("instance").map(|v| v.as_i64().filter(|&n| (0..=i64::from(u32::MAX)).contains(&n))) {
        None => 1,
        Some(Some(n)) => n as u32,
        Some(None) => {
            f.refuse(&format!("{at}.instance"), "a thread count is a whole number, 0 or more");
            0
        }
    };
    let props = task_props(t, &at, cx, f);
    let (looped, phases) = match t.get("phases") {
        Some(Json::Object(list)) => {
            for (k, _) in kv.iter().filter(|(k, _)| event_kind(k).is_some()) {
                f.note(&format!("{at}.{k}"), "not read: a task with phases runs only its phases");
            }
            let looped = loop_count(t.get("loop"), None, &format!("{at}.loop"), f);
            let (mut phases, mut paths) = (Vec::new(), Vec::new());
            for (pname, ph) in list {
                let pat = format!("{at}.phases.{pname}");
                if !matches!(ph, Json::Object(_)) {
                    f.refuse(&pat, "a phase is an object");
                    continue;
                }
                let own = phase_props(ph, &props, &pat, f);
                if let Some(p) = phase(name, ph, &pat, &[], f) {
                    phases.push(Phase { props: own, ..p });
                    paths.push(pat);
                }
            }
            super::import_phase_sched::resolve(&props, looped, &mut phases, &paths, cx.slices, f);
            (looped, phases)
        }
        Some(_) => {
            f.refuse(&format!("{at}.phases"), "phases are an object of phases");
            (None, Vec::new())
        }
        // The task is its one phase, which reads "loop" as its own (once without one); the task then ends,
        // or without a "loop" runs it forever.
        None => {
            let looped = if t.get("loop").is_some() { Some(1) } else { None };
            (looped, phase(name, t, &at, TASK_KEYS, f).into_iter().collect())
        }
    };
    for (k, _) in kv {
        let known = TASK_KEYS.contains(&k.as_str()) || PROPERTIES.contains(&k.as_str()) || event_kind(k).is_some();
        if !known {
            f.note(&format!("{at}.{k}"), "not an rt-app key: ignored, as rt-app ignores it");
        }
    }
    (f.refused.len() == before).then(|| Task { name: name.to_string(), instances, props, looped, phases })
}

/// A phase object's loop and events (`skip`: a task's own keys, when the
/// task is its one phase).
fn phase(task: &str, ph: &Json, at: &str, skip: &[&str], f: &mut Findings) -> Option<Phase> {
    let Json::Object(kv) = ph else { return None };
    let looped = loop_count(ph.get("loop"), Some(1), &format!("{at}.loop"), f);
    let mut events = Vec::new();
    let mut named = false;
    for (k, v) in kv {
        if skip.contains(&k.as_str()) {
            continue;
        }
        if let Some(kind) = event_kind(k) {
            named = true;
            events.extend(event(task, kind, v, &format!("{at}.{k}"), f));
        } else if k != "loop" && !PROPERTIES.contains(&k.as_str()) && skip.is_empty() {
            f.note(&format!("{at}.{k}"), "not an rt-app key: ignored, as rt-app ignores it");
        }
    }
    if !named {
        f.refuse(at, "no events (rt-app stops at a phase without one)");
        return None;
    }
    Some(Phase { looped, events, props: PhaseProps::default() })
}

/// A loop count: -1 (forever, None) or a positive count; `absent` if not given.
fn loop_count(v: Option<&Json>, absent: Option<u32>, at: &str, f: &mut Findings) -> Option<u32> {
    let Some(v) = v else { return absent };
    match v.as_i64() {
        Some(-1) => None,
        Some(n) if n >= 1 && n <= i64::from(u32::MAX) => Some(n as u32),
        _ => {
            f.refuse(at, "a loop count is -1 (forever) or a positive whole number");
            absent
        }
    }
}

/// A policy by rt-app's name for it (a task's, a phase's or global.default_policy).
pub fn policy_of(v: &Json, at: &str, f: &mut Findings) -> Option<Policy> {
    Some(match v.as_str() {
        Some("SCHED_OTHER") => Policy::Other,
        Some("SCHED_BATCH") => Policy::Batch,
        Some("SCHED_IDLE") => Policy::Idle,
        Some("SCHED_FIFO") => Policy::Fifo,
        Some("SCHED_RR") => Policy::Rr,
        Some("SCHED_DEADLINE") => Policy::Deadline,
        _ => {
            f.refuse(at, "rt-app knows SCHED_OTHER, SCHED_BATCH, SCHED_IDLE, SCHED_FIFO, SCHED_RR and SCHED_DEADLINE");
            return None;
        }
    })
}

fn int_of(t: &Json, key: &str, at: &str, f: &mut Findings) -> Option<i64> {
    let v = t.get(key)?;
    let n = v.as_i64();
    if n.is_none() {
        f.refuse(&format!("{at}.{key}"), "a whole number");
    }
    n
}

fn cpus_of(t: &Json, at: &str, f: &mut Findings) -> Option<Vec<u32>> {
    let v = t.get("cpus")?;
    let cpus: Option<Vec<u32>> = match v {
        Json::Array(a) => a.iter().map(|c| c.as_i64().and_then(|c| u32::try_from(c).ok())).collect(),
        _ => None,
    };
    if cpus.is_none() {
        f.refuse(&format!("{at}.cpus"), "an array of CPU numbers");
    }
    cpus
}

/// A taskgroup's path: None for the root ("/") or for "" (no taskgroup).
fn taskgroup_of(t: &Json, at: &str, f: &mut Findings) -> Option<String> {
    let v = t.get("taskgroup")?;
    let at = format!("{at}.taskgroup");
    match v.as_str() {
        Some("" | "/") => None,
        Some(s) if s.starts_with('/') && s[1..].split('/').all(|c| !c.is_empty()) => {
            Some(s.trim_end_matches('/').into())
        }
        Some(s) if s.starts_with('/') => {
            f.refuse(&at, format!("'{s}' has an empty part"));
            None
        }
        Some(s) => {
            f.refuse(&at, format!("'{s}' does not start with '/' (rt-app's taskgroups are paths)"));
            None
        }
        None => {
            f.refuse(&at, "a taskgroup is a path, a string");
            None
        }
    }
}

fn sched_of(t: &Json, at: &str, task_level: bool, f: &mut Findings) -> Sched {
    let policy = t.get("policy").and_then(|v| policy_of(v, &format!("{at}.policy"), f));
    let priority = int_of(t, "priority", at, f);
    // A task's legacy "runtime", "period" and "deadline" stand in for missing dl-* keys (rt-app reads "runtime"
    // as an event too).
    let dl = |key: &str, legacy: &str, f: &mut Findings| {
        let v = int_of(t, key, at, f).filter(|&v| v != 0);
        if v.is_none() && task_level && t.get(legacy).is_some() {
            f.note(&format!("{at}.{legacy}"), format!("rt-app also reads a task's \"{legacy}\" as its {key}"));
            return t.get(legacy).and_then(Json::as_i64);
        }
        v
    };
    let sched = Sched {
        policy,
        priority,
        runtime: dl("dl-runtime", "runtime", f),
        period: dl("dl-period", "period", f),
        deadline: dl("dl-deadline", "deadline", f),
    };
    for key in ["util_min", "util_max"] {
        if t.get(key).is_some() {
            f.note(
                &format!("{at}.{key}"),
                "a utilization clamp: ignored (it steers CPU frequency and capacity-aware placement, which schedlab \
                 does not model)",
            );
        }
    }
    if t.get("nodes_membind").is_some() {
        f.note(&format!("{at}.nodes_membind"), "memory placement: ignored (schedlab does not model memory)");
    }
    sched
}

fn task_props(t: &Json, at: &str, cx: &TaskContext, f: &mut Findings) -> Props {
    let sched = sched_of(t, at, true, f);
    let policy = sched.policy.unwrap_or(cx.default_policy);
    let priority = sched.priority.unwrap_or(default_priority(policy));
    check_priority(policy, priority, t.get("priority").is_some(), at, f);
    let reservation = if policy == Policy::Deadline {
        reservation_of(&sched, at, f)
    } else {
        for (key, set) in [("dl-period", sched.period.is_some()), ("dl-deadline", sched.deadline.is_some())] {
            if set {
                f.note(&format!("{at}.{key}"), "SCHED_DEADLINE's parameter: ignored under this policy");
            }
        }
        None
    };
    let cpus = cpus_of(t, at, f);
    if policy == Policy::Deadline && cpus.is_some() {
        f.refuse(
            &format!("{at}.cpus"),
            "a SCHED_DEADLINE task may not be pinned (Linux 4.1's sched_setattr refuses it: EPERM)",
        );
    }
    let taskgroup = taskgroup_of(t, at, f);
    if taskgroup.is_some() && matches!(policy, Policy::Fifo | Policy::Rr | Policy::Deadline) {
        f.refuse(
            &format!("{at}.taskgroup"),
            "rt-app puts only SCHED_OTHER, SCHED_BATCH and SCHED_IDLE tasks in taskgroups",
        );
    }
    let delay_ms = match int_of(t, "delay", at, f) {
        None => 0,
        Some(us) if us >= 0 && us % 1000 == 0 => (us / 1000) as u64,
        Some(us) => {
            f.refuse(&format!("{at}.delay"), format!("{us} µs: schedlab starts a task on a whole millisecond"));
            0
        }
    };
    let slice_us = if policy == Policy::Deadline { None } else { slice_of(policy, sched.runtime, at, cx.slices, f) };
    Props { policy, priority, cpus, taskgroup, slice_us, reservation, delay_ms }
}

/// A phase's own properties: its cpus and taskgroup, and its scheduling keys,
/// kept for the program to set (`import_phase_sched` reads the latter against
/// the phases before it).
fn phase_props(ph: &Json, task: &Props, at: &str, f: &mut Findings) -> PhaseProps {
    let real_time = matches!(task.policy, Policy::Fifo | Policy::Rr | Policy::Deadline);
    let mut own = PhaseProps::default();
    if let Some(cpus) = cpus_of(ph, at, f) {
        if real_time && task.cpus.as_ref() != Some(&cpus) {
            f.refuse(
                &format!("{at}.cpus"),
                "an affinity change of a SCHED_FIFO, SCHED_RR or SCHED_DEADLINE thread is not modelled (its class's \
                 set_cpus_allowed)",
            );
        }
        own.cpus = Some(cpus);
    }
    let sched = sched_of(ph, at, false, f);
    // parse_sched_data gives a phase sched data only when it names a policy, a priority or a dl-* time.
    if sched != Sched::default() {
        own.asked = Some(sched);
    }
    // rt-app reads "" as no taskgroup (parse_taskgroup_data): the thread stays where it is.
    if ph.get("taskgroup").is_some_and(|g| g.as_str() != Some("")) {
        let group = taskgroup_of(ph, at, f);
        if real_time {
            f.refuse(
                &format!("{at}.taskgroup"),
                "rt-app puts only SCHED_OTHER, SCHED_BATCH and SCHED_IDLE tasks in taskgroups",
            );
        }
        own.taskgroup = Some(group);
    }
    own
}

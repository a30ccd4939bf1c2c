//! rt-app JSON (the workload format of ARM's LISA and of the sched_ext
//! simulator) read as a scenario, for the part that maps onto program steps:
//!
//! ```text
//!   tasks.NAME        a process          instance → threads, priority → nice (SCHED_OTHER),
//!                                        cpus → cpus, delay (µs) → start_ms, loop → a loop
//!   phases.NAME       one after another  loop → a loop of the phase's events (1: inline)
//!   run / sleep       run_us / sleep_us  (an event key may carry a number: run1, sleep2)
//!   lock / unlock     lock / unlock      barrier → barrier (of one task's threads), yield → yield
//!   global.duration   duration_ms        global.schedlab: the rest of a scenario `rtapp-export` wrote
//! ```
//!
//! Anything else that changes the workload (timers, wall-clock `runtime`,
//! condition variables, other policies, per-phase properties…) is refused,
//! every such key named in one message with why; settings of rt-app's own
//! (calibration, log files) are noted as ignored. A task without `loop` runs
//! forever, as in rt-app.

use super::ordered_json::Json;
use crate::api::scenario::{parse_scenario, ScenarioFile, MAX_SCENARIO_BYTES};
use serde_json::{json, Map, Value};
use std::collections::BTreeMap;

/// What the file does not say (a plain rt-app file has no machine or seed).
#[derive(Clone, Debug)]
pub struct Defaults {
    pub name: String,
    pub machine: String,
    pub policy: String,
    /// Used when `global.duration` is -1 (until every task ends) or absent.
    pub duration_ms: u64,
}

impl Default for Defaults {
    fn default() -> Self {
        Defaults { name: "rt-app".into(), machine: "laptop-2c4t".into(), policy: "cfs".into(), duration_ms: 10_000 }
    }
}

/// rt-app's own settings, which change nothing in the workload.
const IGNORED_GLOBAL: &[&str] = &[
    "calibration",
    "pi_enabled",
    "lock_pages",
    "logdir",
    "log_basename",
    "logsize",
    "log_size",
    "gnuplot",
    "ftrace",
    "io_device",
    "mem_buffer_size",
    "cumulative_slack",
];

/// Why an rt-app event has no program step.
fn why_unmapped(kind: &str) -> &'static str {
    match kind {
        "timer" => "a periodic timer: no program step sleeps until a period's end",
        "runtime" => "wall-clock run time: schedlab's run_us is CPU work",
        "suspend" | "resume" | "signal" | "wait" | "broad" | "sync" => "rt-app's condition variables",
        "mem" | "iorun" => "memory and I/O work",
        "fork" => "rt-app's fork starts another task by name",
        "pi" => "priority inheritance",
        _ => "not an rt-app event schedlab has",
    }
}

struct Reader {
    unmapped: Vec<String>,
    notes: Vec<String>,
    /// Barrier name → the tasks that use it.
    barriers: BTreeMap<String, Vec<String>>,
}

fn loop_count(v: &Json, at: &str, r: &mut Reader) -> Option<Option<u32>> {
    match v.as_i64() {
        Some(-1) => Some(None),
        Some(n) if n >= 1 && n <= i64::from(u32::MAX) => Some(Some(n as u32)),
        _ => {
            r.unmapped.push(format!("{at}: a loop count is -1 (forever) or a positive integer"));
            None
        }
    }
}

fn micros(v: &Json, at: &str, r: &mut Reader) -> Option<u64> {
    let n = v.as_i64().filter(|&n| n >= 0);
    if n.is_none() {
        r.unmapped.push(format!("{at}: a duration is a non-negative integer of microseconds"));
    }
    n.map(|n| n as u64)
}

fn name_of(v: &Json, at: &str, r: &mut Reader) -> Option<String> {
    let s = v.as_str().map(str::to_string);
    if s.is_none() {
        r.unmapped.push(format!("{at}: a resource name is a string"));
    }
    s
}

/// One event key as a program step (None: refused, recorded in `r`).
fn event(task: &str, key: &str, v: &Json, at: &str, r: &mut Reader) -> Option<Value> {
    let kind = key.trim_end_matches(|c: char| c.is_ascii_digit());
    Some(match kind {
        "run" => json!({ "run_us": micros(v, at, r)? }),
        "sleep" => json!({ "sleep_us": micros(v, at, r)? }),
        "lock" => json!({ "lock": name_of(v, at, r)? }),
        "unlock" => json!({ "unlock": name_of(v, at, r)? }),
        "yield" => json!({ "yield": true }),
        "barrier" => {
            let b = name_of(v, at, r)?;
            let users = r.barriers.entry(b.clone()).or_default();
            if !users.iter().any(|t| t == task) {
                users.push(task.to_string());
            }
            json!({ "barrier": b })
        }
        other => {
            r.unmapped.push(format!("{at}: {}", why_unmapped(other)));
            return None;
        }
    })
}

/// The steps of a phase object's events (its `loop` read by the caller).
fn events(task: &str, obj: &[(String, Json)], skip: &[&str], at: &str, r: &mut Reader) -> Vec<Value> {
    let mut steps = Vec::new();
    for (k, v) in obj {
        if skip.contains(&k.as_str()) {
            continue;
        }
        if let Some(step) = event(task, k, v, &format!("{at}.{k}"), r) {
            steps.push(step);
        }
    }
    steps
}

fn looped(count: Option<u32>, body: Vec<Value>) -> Vec<Value> {
    match count {
        Some(1) => body,
        Some(n) => vec![json!({ "repeat": n, "body": body })],
        None => vec![json!({ "body": body })],
    }
}

const TASK_KEYS: &[&str] = &["instance", "loop", "priority", "policy", "cpus", "delay", "phases"];

fn task(name: &str, t: &Json, r: &mut Reader) -> Option<Value> {
    let at = format!("tasks.{name}");
    let Json::Object(kv) = t else {
        r.unmapped.push(format!("{at}: a task is an object"));
        return None;
    };
    let mut p = Map::new();
    p.insert("name".into(), json!(name));
    if let Some(v) = t.get("instance") {
        match v.as_i64().filter(|&n| n >= 1 && n <= i64::from(u32::MAX)) {
            Some(n) => _ = p.insert("threads".into(), json!(n)),
            None => r.unmapped.push(format!("{at}.instance: a thread count is a positive integer")),
        }
    }
    match t.get("policy").and_then(Json::as_str) {
        None | Some("SCHED_OTHER") | Some("SCHED_NORMAL") => {}
        Some(other) => r.unmapped.push(format!("{at}.policy: {other} (schedlab runs SCHED_OTHER tasks)")),
    }
    if let Some(v) = t.get("priority") {
        match v.as_i64().filter(|n| (-20..=19).contains(n)) {
            Some(n) => _ = p.insert("nice".into(), json!(n)),
            None => r.unmapped.push(format!("{at}.priority: a SCHED_OTHER priority is a nice level, -20 to 19")),
        }
    }
    if let Some(v) = t.get("cpus") {
        let cpus: Option<Vec<String>> = match v {
            Json::Array(a) => a.iter().map(|c| c.as_i64().filter(|&c| c >= 0).map(|c| c.to_string())).collect(),
            _ => v.as_i64().filter(|&c| c >= 0).map(|c| vec![c.to_string()]),
        };
        match cpus {
            Some(c) if !c.is_empty() => _ = p.insert("cpus".into(), json!(c.join(","))),
            _ => r.unmapped.push(format!("{at}.cpus: a list of CPU numbers")),
        }
    }
    if let Some(v) = t.get("delay") {
        match micros(v, &format!("{at}.delay"), r) {
            Some(us) if us % 1000 == 0 => _ = p.insert("start_ms".into(), json!(us / 1000)),
            Some(us) => {
                r.unmapped.push(format!("{at}.delay: {us} µs (schedlab starts processes on whole milliseconds)"))
            }
            None => {}
        }
    }
    let task_loop = match t.get("loop") {
        Some(v) => loop_count(v, &format!("{at}.loop"), r)?,
        None => None,
    };
    let body = match t.get("phases") {
        Some(Json::Object(phases)) => {
            let mut body = Vec::new();
            for (pname, ph) in phases {
                let pat = format!("{at}.phases.{pname}");
                let Json::Object(pkv) = ph else {
                    r.unmapped.push(format!("{pat}: a phase is an object"));
                    continue;
                };
                let count = match ph.get("loop") {
                    Some(v) => loop_count(v, &format!("{pat}.loop"), r).unwrap_or(Some(1)),
                    None => Some(1),
                };
                for k in ["cpus", "priority", "policy", "nodes_membind", "util_min", "util_max", "taskgroup"] {
                    if ph.get(k).is_some() {
                        r.unmapped.push(format!("{pat}.{k}: a property that changes within a task"));
                    }
                }
                let skip = ["loop", "cpus", "priority", "policy", "nodes_membind", "util_min", "util_max", "taskgroup"];
                body.extend(looped(count, events(name, pkv, &skip, &pat, r)));
            }
            body
        }
        Some(_) => {
            r.unmapped.push(format!("{at}.phases: an object of phases"));
            Vec::new()
        }
        None => events(name, kv, TASK_KEYS, &at, r),
    };
    if t.get("phases").is_some() {
        for (k, _) in kv.iter().filter(|(k, _)| !TASK_KEYS.contains(&k.as_str())) {
            r.unmapped.push(format!("{at}.{k}: beside phases, a task has only its properties"));
        }
    }
    p.insert("program".into(), Value::Array(looped(task_loop, body)));
    Some(Value::Object(p))
}

/// The scenario of an rt-app file, and notes on what was ignored; or every key that does not map.
pub fn import(text: &str, d: &Defaults) -> Result<(ScenarioFile, Vec<String>), String> {
    if text.len() > MAX_SCENARIO_BYTES {
        return Err(format!("the file is larger than {} MiB", MAX_SCENARIO_BYTES >> 20));
    }
    let root: Json =
        serde_json::from_str(text).map_err(|e| format!("line {}, column {}: not JSON: {e}", e.line(), e.column()))?;
    let Json::Object(top) = &root else { return Err("an rt-app file is a JSON object".into()) };
    let mut r = Reader { unmapped: Vec::new(), notes: Vec::new(), barriers: BTreeMap::new() };
    for (k, _) in top.iter().filter(|(k, _)| k != "tasks" && k != "global") {
        r.unmapped.push(format!("{k}: not a part of rt-app's grammar schedlab reads (tasks, global)"));
    }
    let Some(Json::Object(tasks)) = root.get("tasks") else { return Err("tasks: missing (an object of tasks)".into()) };
    let processes: Vec<Value> = tasks.iter().filter_map(|(name, t)| task(name, t, &mut r)).collect();
    for (b, users) in &r.barriers {
        if users.len() > 1 {
            r.unmapped.push(format!(
                "barrier {b:?}: joins tasks {} (a schedlab barrier joins one process's threads)",
                users.join(", ")
            ));
        }
    }
    let mut scenario = json!({
        "version": 1,
        "name": d.name,
        "duration_ms": d.duration_ms,
        "machine": { "preset": d.machine },
        "policy": { "kind": d.policy },
    });
    let mut duration_given = false;
    if let Some(Json::Object(global)) = root.get("global") {
        for (k, v) in global {
            match k.as_str() {
                "duration" => match v.as_i64() {
                    Some(s) if s >= 1 => {
                        scenario["duration_ms"] = json!(s.saturating_mul(1000));
                        duration_given = true;
                    }
                    Some(-1) => r.notes.push(format!(
                        "global.duration -1 runs until every task ends; the scenario runs {} ms",
                        d.duration_ms
                    )),
                    _ => r.unmapped.push("global.duration: whole seconds, or -1".into()),
                },
                "default_policy" => match v.as_str() {
                    Some("SCHED_OTHER") | Some("SCHED_NORMAL") => {}
                    _ => r.unmapped.push("global.default_policy: schedlab runs SCHED_OTHER tasks".into()),
                },
                "schedlab" => {
                    let Json::Object(extra) = v else {
                        r.unmapped.push("global.schedlab: the scenario's other fields, an object".into());
                        continue;
                    };
                    for (ek, ev) in extra {
                        if ek == "processes" {
                            r.unmapped.push("global.schedlab.processes: processes come from tasks".into());
                        } else {
                            scenario[ek.as_str()] = ev.to_value();
                        }
                    }
                    duration_given |= v.get("duration_ms").is_some();
                }
                k if IGNORED_GLOBAL.contains(&k) => r.notes.push(format!("global.{k}: an rt-app setting, ignored")),
                k => r.unmapped.push(format!("global.{k}: not a global setting schedlab reads")),
            }
        }
    }
    if !duration_given && !r.notes.iter().any(|n| n.starts_with("global.duration")) {
        r.notes.push(format!("no global.duration: the scenario runs {} ms", d.duration_ms));
    }
    if !r.unmapped.is_empty() {
        let lines: Vec<String> = r.unmapped.iter().map(|u| format!("  {u}")).collect();
        return Err(format!("rt-app keys with no schedlab equivalent:\n{}", lines.join("\n")));
    }
    scenario["processes"] = Value::Array(processes);
    let text = serde_json::to_string(&scenario).map_err(|e| e.to_string())?;
    let file = parse_scenario(&text).map_err(|d| format!("the imported scenario: {d}"))?;
    Ok((file, r.notes))
}

//! rt-app JSON (the workload format of rt-app itself, ARM's LISA and the
//! sched_ext simulator) read as a scenario, as rt-app's own parser reads it
//! (rt-app_parse_config.c over json-c: `json_c.rs`'s grammar, comments and
//! all) and as its threads run it (rt-app.c):
//!
//! ```text
//!   rt-app                          schedlab
//!   tasks.NAME                      a process (import_program: why one per task)
//!     instance                      threads (0: only forked)
//!     priority, policy              nice under SCHED_OTHER and SCHED_BATCH; sched_policy and
//!                                   rt_priority under SCHED_BATCH, SCHED_IDLE, SCHED_FIFO, SCHED_RR
//!     dl-runtime, -deadline, -period  SCHED_DEADLINE's reservation (rt-app's defaults: period =
//!                                   runtime, deadline = period); a task's legacy runtime, period, deadline
//!     cpus, delay (whole ms)        cpus, start_ms
//!     taskgroup "/a/b"              cgroup "/a/b" (cgroups "/a" and "/a/b" made for it)
//!     dl-runtime (SCHED_OTHER)      slice_us under eevdf or Linux 6.12; otherwise ignored, as 4.1 ignores it
//!     loop                          a loop over the phases (-1 or absent: forever)
//!   phases.NAME                     one after another, each its loop's times (default 1)
//!   run, sleep                      run_us (work), sleep_us
//!   runtime                         busy_us (wall-clock time)
//!   timer {ref, period, mode}       timer (shared, or per thread for a ref beginning "unique";
//!                                   one absolute use makes the timer absolute)
//!   lock, unlock                    lock, unlock
//!   wait, signal, broad, sync       cond_wait (with mutex), cond_signal, cond_broadcast, both
//!   suspend, resume X               cond_wait on the task's own name, cond_broadcast X (each under its mutex)
//!   barrier                         barrier (one per name across tasks: address_space)
//!   yield                           yield
//!   fork T                          fork of T's program
//!   global.duration                 duration_ms (-1: Defaults' duration)
//!   global.default_policy           the policy of tasks that name none
//!   global.schedlab                 the rest of a scenario `rtapp-export` wrote
//! ```
//!
//! Keys repeated in one object are events in file order, as rt-app's
//! `workgen` numbers them before rt-app reads them (each such place named in
//! a note). What does not map is refused, every key named with why: a
//! property that changes from phase to phase, memory and I/O events,
//! semaphores, a delay of part of a millisecond, a reservation
//! sched_setattr would refuse (or a pinned SCHED_DEADLINE task). rt-app's own
//! settings (calibration, logs, ftrace…), utilization clamps, memory binding
//! and keys rt-app does not know are noted as ignored; so is what rt-app
//! reads another way than it looks (`suspend`'s string, `wait` without a
//! ref). A lock without its unlock in the same task is noted too: the thread
//! deadlocks at its next lock. A task without `loop` runs forever, as in
//! rt-app.

use super::import_model::{Findings, Policy};
use super::import_task::{read_task, TaskContext};
use super::json_c;
use super::ordered_json::Json;
use crate::api::scenario::{parse_scenario, ScenarioFile, MAX_SCENARIO_BYTES};
use serde_json::{json, Value};

pub use super::import_model::Defaults;

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

/// The scenario of an rt-app file, and notes on what was read another way
/// or ignored; or every key that does not map (or where the text stops
/// being JSON as rt-app reads it).
pub fn import(text: &str, d: &Defaults) -> Result<(ScenarioFile, Vec<String>), String> {
    if text.len() > MAX_SCENARIO_BYTES {
        return Err(format!("the file is larger than {} MiB", MAX_SCENARIO_BYTES >> 20));
    }
    let read = json_c::read(text)?;
    let mut f = Findings::default();
    if !read.repeated_keys.is_empty() {
        let shown: Vec<&str> = read.repeated_keys.iter().take(4).map(String::as_str).collect();
        let more = read.repeated_keys.len().saturating_sub(shown.len());
        f.notes.push(format!(
            "keys repeat in {} object(s) ({}{}): read in file order, as rt-app's workgen numbers them before rt-app \
             reads the file (json-c alone keeps one of each)",
            read.repeated_keys.len(),
            shown.join("; "),
            if more > 0 { format!("; {more} more") } else { String::new() }
        ));
    }
    if read.trailing_text {
        f.notes.push("text after the top-level object: ignored, as json-c leaves it".into());
    }
    let root = read.value;
    let Json::Object(top) = &root else { return Err("an rt-app file is a JSON object".into()) };
    for (k, v) in top {
        match k.as_str() {
            "tasks" | "global" => {}
            "resources" => resources(v, &mut f),
            _ => f.note(k, "not a part of rt-app's grammar (tasks, global, resources): ignored, as rt-app ignores it"),
        }
    }
    let mut scenario = json!({
        "version": 1,
        "name": d.name,
        "duration_ms": d.duration_ms,
        "machine": { "preset": d.machine },
        "policy": { "kind": d.policy },
    });
    let default_policy = global(root.get("global"), d, &mut scenario, &mut f);
    let Some(Json::Object(tasks)) = root.get("tasks") else { return Err("tasks: missing (an object of tasks)".into()) };
    if tasks.is_empty() {
        f.refuse("tasks", "no task: nothing would run");
    }
    let cx =
        TaskContext { default_policy, slices: scenario["policy"]["kind"] == "eevdf" || scenario["kernel"] == "6.12" };
    let mut read_tasks = Vec::new();
    for (name, t) in tasks {
        if name.contains('/') {
            f.refuse(&format!("tasks.{name}"), "a task's name holds no '/' here (it names a process)");
        }
        if read_tasks.iter().any(|r: &super::import_model::Task| &r.name == name) {
            f.refuse(&format!("tasks.{name}"), "a second task of that name");
        }
        read_tasks.extend(read_task(name, t, &cx, &mut f));
    }
    let (processes, cgroups) = super::import_program::processes(&read_tasks, &mut f);
    if !f.refused.is_empty() {
        let lines: Vec<String> = f.refused.iter().map(|u| format!("  {u}")).collect();
        return Err(format!("rt-app keys with no schedlab equivalent:\n{}", lines.join("\n")));
    }
    if processes.is_empty() {
        return Err("tasks: every task has instance 0 and none is forked: nothing would run".into());
    }
    scenario["processes"] = Value::Array(processes);
    if !cgroups.is_empty() {
        scenario["cgroups"] = Value::Array(cgroups);
    }
    let text = serde_json::to_string(&scenario).map_err(|e| e.to_string())?;
    let file = parse_scenario(&text).map_err(|d| format!("the imported scenario: {d}"))?;
    Ok((file, f.notes))
}

/// rt-app's legacy `resources` section: resources are made as events name
/// them, so it changes nothing, but a type rt-app does not know stops it.
fn resources(v: &Json, f: &mut Findings) {
    const TYPES: &[&str] = &["mutex", "signal", "wait", "broadcast", "sync", "sleep", "run", "timer"];
    if let Json::Object(list) = v {
        for (name, r) in list {
            // A resource with no type is a mutex, rt-app's default.
            let known = r.get("type").is_none_or(|t| t.as_str().is_some_and(|t| TYPES.contains(&t)));
            if !known {
                f.refuse(&format!("resources.{name}.type"), format!("rt-app knows {}", TYPES.join(", ")));
            }
        }
    }
    f.note("resources", "rt-app's legacy section: resources are made as events name them, so it changes nothing");
}

/// Reads `global` into `scenario`; the tasks' default policy.
fn global(g: Option<&Json>, d: &Defaults, scenario: &mut Value, f: &mut Findings) -> Policy {
    let mut policy = Policy::Other;
    let mut duration_given = false;
    let mut ignored: Vec<String> = Vec::new();
    match g {
        Some(Json::Object(global)) => {
            for (k, v) in global {
                let at = format!("global.{k}");
                match k.as_str() {
                    "duration" => match v.as_i64() {
                        Some(s) if s >= 1 => {
                            scenario["duration_ms"] = json!(s.saturating_mul(1000));
                            duration_given = true;
                        }
                        Some(_) => {
                            f.note(
                                &at,
                                format!("{v:?} runs until every task ends; the scenario runs {} ms", d.duration_ms),
                            );
                            duration_given = true;
                        }
                        None => f.refuse(&at, "whole seconds, or -1"),
                    },
                    "default_policy" => {
                        if let Some(p) = super::import_task::policy_of(v, &at, f) {
                            policy = p;
                        }
                    }
                    "schedlab" => {
                        let Json::Object(extra) = v else {
                            f.refuse(&at, "the scenario's other fields, an object");
                            continue;
                        };
                        for (ek, ev) in extra {
                            if ek == "processes" || ek == "cgroups" {
                                f.refuse(&format!("{at}.{ek}"), "these come from tasks");
                            } else {
                                scenario[ek.as_str()] = ev.to_value();
                            }
                        }
                        duration_given |= v.get("duration_ms").is_some();
                    }
                    // rt-app makes every mutex (and a barrier's) PTHREAD_PRIO_INHERIT (init_mutex_resource).
                    "pi_enabled" if v == &Json::Bool(true) => scenario["mutex_protocol"] = json!("inherit"),
                    "pi_enabled" if v == &Json::Bool(false) => {}
                    k if IGNORED_GLOBAL.contains(&k) => ignored.push(at),
                    _ => f.note(&at, "not an rt-app setting: ignored, as rt-app ignores it"),
                }
            }
        }
        Some(_) => f.refuse("global", "an object of settings"),
        None => {}
    }
    match &ignored[..] {
        [] => {}
        [one] => f.note(one, "an rt-app setting, ignored"),
        all => f.note(&all.join(", "), "rt-app's own settings, ignored"),
    }
    if !duration_given {
        f.notes.push(format!(
            "no global.duration (rt-app runs until every task ends): the scenario runs {} ms",
            d.duration_ms
        ));
    }
    policy
}

//! A scenario written as rt-app JSON (the inverse of `import`), for the
//! part rt-app can say: each process a task (threads → instance; its
//! sched_policy as rt-app's policy, with nice as the priority under
//! SCHED_OTHER and SCHED_BATCH, rt_priority under SCHED_FIFO and SCHED_RR, the
//! reservation's dl-runtime, dl-deadline and dl-period under SCHED_DEADLINE;
//! cpus, start_ms → delay, a cgroup path as its taskgroup), its program as the
//! task's loop over phases (`export_phases`: a top-level loop whose body has
//! no loop is a phase with that loop count; steps between loops a phase run
//! once; set_cpus, sched_setattr and set_cgroup begin a phase, as its cpus,
//! policy and taskgroup), with
//! run, sleep, busy_us (runtime), lock, unlock, cond_wait (wait),
//! cond_signal (signal), cond_broadcast (broad), timer, barrier and yield
//! as events. rt-app has no random durations, wait/wake, fork of a program
//! (its fork names a task), job pools or loops nested deeper, so those are
//! refused, each named by its field.
//!
//! rt-app's tasks are threads of one process: a name means one object for
//! all of them. So two processes may name one object only if they share an
//! address space, a barrier is named once per program unless its process
//! shares one (rt-app counts each naming as a user), a thread's own timer is
//! written with rt-app's "unique" prefix (and a shared one may not have it),
//! and a timer's uses agree on its mode (rt-app keeps one mode per timer).
//! What only schedlab reads (seed, machine, policy, duration in ms…) goes to
//! `global.schedlab`, which rt-app ignores and the import reads back.

use super::export_phases::{phase_keys, phases};
use super::ordered_json::Json;
use crate::api::scenario::templates::template_program;
use crate::api::scenario::{DistFile, OpFile, ProcessFile, ScenarioFile};

fn num(n: u64) -> Json {
    Json::Number(n.into())
}

fn int(n: i64) -> Json {
    Json::Number(n.into())
}

/// An rt-app event of one step (kind, value), or why not.
fn event(op: &OpFile, at: &str, bad: &mut Vec<String>) -> Option<(&'static str, Json)> {
    let fixed = |d: &DistFile, bad: &mut Vec<String>, what: &str| match d {
        DistFile::Fixed(us) => Some(num(*us)),
        _ => {
            bad.push(format!("{at}.{what}: a random duration (rt-app's are fixed)"));
            None
        }
    };
    if let Some(d) = &op.run_us {
        return Some(("run", fixed(d, bad, "run_us")?));
    }
    if let Some(d) = &op.sleep_us {
        return Some(("sleep", fixed(d, bad, "sleep_us")?));
    }
    if let Some(m) = &op.lock {
        return Some(("lock", Json::String(m.clone())));
    }
    if let Some(m) = &op.unlock {
        return Some(("unlock", Json::String(m.clone())));
    }
    if let Some(d) = &op.busy_us {
        return Some(("runtime", fixed(d, bad, "busy_us")?));
    }
    if let Some(c) = &op.cond_wait {
        let mutex = Json::String(op.mutex.clone().unwrap_or_default());
        return Some(("wait", Json::Object(vec![("ref".into(), Json::String(c.clone())), ("mutex".into(), mutex)])));
    }
    if let Some(c) = &op.cond_signal {
        return Some(("signal", Json::String(c.clone())));
    }
    if let Some(c) = &op.cond_broadcast {
        return Some(("broad", Json::String(c.clone())));
    }
    if let Some(t) = &op.timer {
        let shared = op.shared == Some(true);
        let name = match (shared, t.starts_with("unique")) {
            (true, true) => {
                bad.push(format!("{at}.timer: rt-app reads a ref beginning \"unique\" as each thread's own timer"));
                return None;
            }
            (true, false) | (false, true) => t.clone(),
            (false, false) => format!("unique-{t}"),
        };
        let mut timer =
            vec![("ref".to_string(), Json::String(name)), ("period".to_string(), num(op.period_us.unwrap_or(0)))];
        if op.timer_mode.as_deref() == Some("absolute") {
            timer.push(("mode".into(), Json::String("absolute".into())));
        }
        return Some(("timer", Json::Object(timer)));
    }
    if op.yield_cpu.is_some() {
        return Some(("yield", Json::String(String::new())));
    }
    if let Some(b) = &op.barrier {
        if op.spin_us.is_some() {
            bad.push(format!("{at}.spin_us: rt-app's barriers block at once"));
            return None;
        }
        return Some(("barrier", Json::String(b.clone())));
    }
    let what = if op.body.is_some() {
        "a loop inside a loop (rt-app has a task's loop over phases' loops)"
    } else if op.wait.is_some() || op.wake.is_some() {
        "wait/wake (rt-app's suspend/resume name resources, not threads)"
    } else if op.fork.is_some() || op.wait_child.is_some() || op.exec.is_some() {
        "fork/wait_child/exec"
    } else if op.post.is_some() || op.await_flag.is_some() {
        "post/await (rt-app has no flag between two threads)"
    } else if op.take_job.is_some() {
        "take_job (no job pools in rt-app)"
    } else if op.exit.is_some() {
        "exit (an rt-app task ends when its loops do)"
    } else if op.set_cpus.is_some() || op.set_cgroup.is_some() || op.sched_setattr.is_some() {
        "set_cpus, sched_setattr or set_cgroup inside a repeated phase (rt-app sets a phase's cpus, policy and \
         taskgroup as it begins)"
    } else {
        "a step rt-app has no event for"
    };
    bad.push(format!("{at}: {what}"));
    None
}

/// Events of a step list (the steps from `first` on of the list at `at`),
/// keys numbered where a kind repeats (rt-app keys must differ).
fn events(ops: &[OpFile], at: &str, first: usize, bad: &mut Vec<String>) -> Vec<(String, Json)> {
    let evs: Vec<(&str, Json)> =
        ops.iter().enumerate().filter_map(|(i, op)| event(op, &format!("{at}[{}]", first + i), bad)).collect();
    let mut seen: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
    let total = |k: &str| evs.iter().filter(|(e, _)| *e == k).count();
    evs.iter()
        .map(|(k, v)| {
            let n = seen.entry(k).or_default();
            *n += 1;
            let key = if total(k) > 1 { format!("{k}{n}") } else { k.to_string() };
            (key, v.clone())
        })
        .collect()
}

fn loop_json(repeat: Option<u32>) -> Json {
    repeat.map_or(int(-1), |n| num(u64::from(n)))
}

fn task(p: &ProcessFile, i: usize, bad: &mut Vec<String>) -> Json {
    let at = format!("processes[{i}]");
    let mut kv: Vec<(String, Json)> = Vec::new();
    kv.push(("instance".into(), num(u64::from(p.threads))));
    // rt-app's priority is the nice level under a fair policy, the real-time priority under SCHED_FIFO and
    // SCHED_RR; SCHED_IDLE has none (its weight is the idle one whatever the nice).
    let (policy, priority) = match p.sched_policy.as_deref() {
        None | Some("normal") => ("SCHED_OTHER", Some(i64::from(p.nice))),
        Some("batch") => ("SCHED_BATCH", Some(i64::from(p.nice))),
        Some("idle") => ("SCHED_IDLE", None),
        Some("fifo") => ("SCHED_FIFO", Some(i64::from(p.rt_priority.unwrap_or(0)))),
        Some("rr") => ("SCHED_RR", Some(i64::from(p.rt_priority.unwrap_or(0)))),
        Some("deadline") => ("SCHED_DEADLINE", None),
        Some(other) => {
            bad.push(format!("{at}.sched_policy: '{other}' is no policy rt-app knows"));
            ("SCHED_OTHER", None)
        }
    };
    kv.push(("policy".into(), Json::String(policy.into())));
    if let Some(prio) = priority {
        kv.push(("priority".into(), int(prio)));
    }
    if let Some(c) = &p.cpus {
        match crate::topology::cpumask::CpuMask::parse_list(c, crate::machine::MAX_CPUS) {
            Some(m) => kv.push(("cpus".into(), Json::Array(m.iter().map(|c| num(u64::from(c.0))).collect()))),
            None => bad.push(format!("{at}.cpus: not a CPU list")),
        }
    }
    if p.start_ms > 0 {
        kv.push(("delay".into(), num(p.start_ms.saturating_mul(1000))));
    }
    if let Some(g) = &p.cgroup {
        kv.push(("taskgroup".into(), Json::String(g.clone())));
    }
    if let Some(us) = p.slice_us {
        // A fair policy's sched_runtime: Linux 6.12's custom slice.
        kv.push(("dl-runtime".into(), num(us)));
    }
    if let (Some(runtime), Some(deadline)) = (p.dl_runtime_us, p.dl_deadline_us) {
        // rt-app's period defaults to the runtime, the scenario's to the deadline: always written.
        kv.push(("dl-runtime".into(), num(runtime)));
        kv.push(("dl-deadline".into(), num(deadline)));
        kv.push(("dl-period".into(), num(p.dl_period_us.unwrap_or(deadline))));
    }
    for (field, set) in [("nodes", p.nodes.is_some()), ("session", p.session.is_some()), ("job_pool", p.job_pool > 0)] {
        if set {
            bad.push(format!("{at}.{field}: no rt-app task property says it"));
        }
    }
    let program = match &p.template {
        Some(t) => template_program(t).unwrap_or_default(),
        None => p.program.clone(),
    };
    let (task_loop, ph) = phases(&program, &format!("{at}.program"));
    kv.push(("loop".into(), loop_json(task_loop)));
    let keys = phase_keys(&ph, p.cpus.as_deref(), p.nice, task_loop, bad);
    match (ph.as_slice(), keys.as_slice()) {
        ([only], [none]) if only.looped == Some(1) && only.props.is_empty() && none.is_empty() => {
            kv.extend(events(only.steps, &only.path, only.first, bad))
        }
        _ => {
            let list = ph
                .iter()
                .zip(keys)
                .enumerate()
                .map(|(k, (phase, own))| {
                    if phase.steps.is_empty() {
                        bad.push(format!(
                            "{}: set_cpus, sched_setattr or set_cgroup with no step after it in its phase (rt-app \
                             stops at a phase without events)",
                            phase.props.last().map_or(phase.path.as_str(), |(_, at)| at.as_str())
                        ));
                    }
                    let mut json = vec![("loop".to_string(), loop_json(phase.looped))];
                    json.extend(own);
                    json.extend(events(phase.steps, &phase.path, phase.first, bad));
                    (format!("p{}", k + 1), Json::Object(json))
                })
                .collect();
            kv.push(("phases".into(), Json::Object(list)));
        }
    }
    Json::Object(kv)
}

/// The rt-app JSON of a scenario, or every field rt-app cannot say.
pub fn export(s: &ScenarioFile) -> Result<Json, String> {
    let mut bad = Vec::new();
    let tasks = s.processes.iter().enumerate().map(|(i, p)| (p.name.clone(), task(p, i, &mut bad))).collect();
    super::export_names::check_names(s, &mut bad);
    super::export_names::check_taskgroups(s, &mut bad);
    if !bad.is_empty() {
        let lines: Vec<String> = bad.iter().map(|b| format!("  {b}")).collect();
        return Err(format!("scenario fields rt-app cannot say:\n{}", lines.join("\n")));
    }
    let mut rest = serde_json::to_value(s).map_err(|e| e.to_string())?;
    let inherit = s.mutex_protocol.as_deref() == Some("inherit");
    if let Some(m) = rest.as_object_mut() {
        // The tasks carry the processes, and their taskgroups the cgroups; pi_enabled says inherit.
        m.remove("processes");
        m.remove("cgroups");
        if inherit {
            m.remove("mutex_protocol");
        }
    }
    let mut global = vec![
        ("duration".to_string(), num(s.duration_ms.div_ceil(1000))),
        ("default_policy".into(), Json::String("SCHED_OTHER".into())),
        ("calibration".into(), Json::String("CPU0".into())),
    ];
    if inherit {
        global.push(("pi_enabled".into(), Json::Bool(true)));
    }
    global.push(("schedlab".into(), Json::from_value(&rest)));
    Ok(Json::Object(vec![("tasks".into(), Json::Object(tasks)), ("global".into(), Json::Object(global))]))
}

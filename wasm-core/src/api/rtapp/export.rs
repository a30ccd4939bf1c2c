//! A scenario written as rt-app JSON (the inverse of `import`), for the
//! part rt-app can say: each process a task (threads → instance, nice →
//! priority under SCHED_OTHER, cpus, start_ms → delay), its program as the
//! task's loop over phases (a top-level loop whose body has no loop is a
//! phase with that loop count; steps between loops a phase run once), with
//! run, sleep, lock, unlock, barrier and yield as events. rt-app has no
//! random durations, wait/wake, fork, job pools or loops nested deeper, so
//! those are refused, each named by its field. What only schedlab reads
//! (seed, machine, policy, duration in ms…) goes to `global.schedlab`, which
//! rt-app ignores and the import reads back.

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
    } else {
        "a step rt-app has no event for"
    };
    bad.push(format!("{at}: {what}"));
    None
}

/// Events of a step list, keys numbered where a kind repeats (rt-app keys must differ).
fn events(ops: &[OpFile], at: &str, bad: &mut Vec<String>) -> Vec<(String, Json)> {
    let evs: Vec<(&str, Json)> =
        ops.iter().enumerate().filter_map(|(i, op)| event(op, &format!("{at}[{i}]"), bad)).collect();
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

/// A flat loop: `{repeat, body}` whose body has no loop.
fn flat_loop(op: &OpFile) -> Option<(&[OpFile], Option<u32>)> {
    let body = op.body.as_deref()?;
    (!body.iter().any(|b| b.body.is_some())).then_some((body, op.repeat))
}

/// (task loop, phases as (loop, steps, path)) of a program.
type Phases<'a> = (Option<u32>, Vec<(Option<u32>, &'a [OpFile], String)>);

fn phases<'a>(program: &'a [OpFile], at: &str) -> Phases<'a> {
    if let [only] = program {
        if let Some((body, repeat)) = flat_loop(only) {
            return (repeat, vec![(Some(1), body, format!("{at}[0].body"))]);
        }
    }
    let mut out = Vec::new();
    let mut start = 0;
    for (i, op) in program.iter().enumerate() {
        if let Some((body, repeat)) = flat_loop(op) {
            if start < i {
                out.push((Some(1), &program[start..i], format!("{at}[{start}..]")));
            }
            out.push((repeat, body, format!("{at}[{i}].body")));
            start = i + 1;
        }
    }
    if start < program.len() {
        out.push((Some(1), &program[start..], format!("{at}[{start}..]")));
    }
    (Some(1), out)
}

fn task(p: &ProcessFile, i: usize, bad: &mut Vec<String>) -> Json {
    let at = format!("processes[{i}]");
    let mut kv: Vec<(String, Json)> = Vec::new();
    kv.push(("instance".into(), num(u64::from(p.threads))));
    kv.push(("policy".into(), Json::String("SCHED_OTHER".into())));
    kv.push(("priority".into(), int(i64::from(p.nice))));
    if let Some(c) = &p.cpus {
        match crate::topology::cpumask::CpuMask::parse_list(c, crate::machine::MAX_CPUS) {
            Some(m) => kv.push(("cpus".into(), Json::Array(m.iter().map(|c| num(u64::from(c.0))).collect()))),
            None => bad.push(format!("{at}.cpus: not a CPU list")),
        }
    }
    if p.start_ms > 0 {
        kv.push(("delay".into(), num(p.start_ms.saturating_mul(1000))));
    }
    for (field, set) in [
        ("nodes", p.nodes.is_some()),
        ("session", p.session.is_some()),
        ("cgroup", p.cgroup.is_some()),
        ("slice_us", p.slice_us.is_some()),
        ("job_pool", p.job_pool > 0),
    ] {
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
    match ph.as_slice() {
        [(Some(1), steps, path)] => kv.extend(events(steps, path, bad)),
        _ => {
            let list = ph
                .iter()
                .enumerate()
                .map(|(k, (lp, steps, path))| {
                    let mut phase = vec![("loop".to_string(), loop_json(*lp))];
                    phase.extend(events(steps, path, bad));
                    (format!("p{}", k + 1), Json::Object(phase))
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
    if !bad.is_empty() {
        let lines: Vec<String> = bad.iter().map(|b| format!("  {b}")).collect();
        return Err(format!("scenario fields rt-app cannot say:\n{}", lines.join("\n")));
    }
    let mut rest = serde_json::to_value(s).map_err(|e| e.to_string())?;
    if let Some(m) = rest.as_object_mut() {
        m.remove("processes");
    }
    let global = vec![
        ("duration".to_string(), num(s.duration_ms.div_ceil(1000))),
        ("default_policy".into(), Json::String("SCHED_OTHER".into())),
        ("calibration".into(), Json::String("CPU0".into())),
        ("schedlab".into(), Json::from_value(&rest)),
    ];
    Ok(Json::Object(vec![("tasks".into(), Json::Object(tasks)), ("global".into(), Json::Object(global))]))
}

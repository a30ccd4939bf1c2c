//! The tasks read from an rt-app file as a scenario's processes and cgroups.
//!
//! **One process or many.** rt-app's tasks are threads of one process: every
//! name (a mutex, a condition, a barrier, a timer) means one object for all
//! of them. Each task becomes a process here, since a task's threads have
//! their own nice level, affinity, start and program as a process's do in
//! schedlab, and all of them stay in one autogroup (the default session), as
//! one process's threads are. The tasks that share a name with another task
//! are put in one address space, "rt-app", where names are shared as in
//! rt-app. So are the tasks whose barrier would count its users differently
//! on its own: rt-app's barrier waits for as many arrivals as its events in
//! the file times their tasks' instances, where a process's own barrier
//! waits for its threads, forked ones included, once per generation — they
//! agree only for a task naming the barrier once and forking nothing.
//!
//! **Fork.** rt-app's `fork` starts a new thread of the named task; here the
//! forked child runs that task's program, and inherits its parent's nice
//! level, affinity and group, so the named task must have the forking one's
//! properties and no delay (rt-app counts a forked thread's delay from its
//! own start of run) and no barrier (rt-app counts a barrier's users before
//! any fork). A forked child's first timer period starts with its process,
//! where rt-app starts it with the whole run.

use super::import_model::{Event, Findings, Policy, SchedSet, Task};
use super::import_policy::sched_policy_name;
use serde_json::{json, Map, Value};
use std::collections::{BTreeMap, BTreeSet};

/// The address space the tasks sharing a name are put in.
pub const SPACE: &str = "rt-app";

/// The processes and cgroups of `tasks` (those with instances; the others
/// are only forked).
pub fn processes(tasks: &[Task], f: &mut Findings) -> (Vec<Value>, Vec<Value>) {
    let before = f.refused.len();
    check_forks(tasks, f);
    if f.refused.len() > before {
        // A fork that does not resolve (a cycle above all) has no program to inline.
        return (Vec::new(), Vec::new());
    }
    let absolute = absolute_timers(tasks);
    let mut programs: Vec<(usize, Vec<Value>)> = Vec::new();
    for (i, t) in tasks.iter().enumerate() {
        if t.instances == 0 {
            if !tasks.iter().any(|o| o.events().any(|(e, _)| *e == Event::Fork(t.name.clone()))) {
                f.note(&format!("tasks.{}", t.name), "instance 0 and no task forks it: no thread runs it");
            }
            continue;
        }
        lock_balance(t, f);
        programs.push((i, program(tasks, t, &absolute, 0)));
    }
    let shared = sharers(&programs);
    let mut cgroups: Vec<Value> = Vec::new();
    let processes = programs
        .into_iter()
        .map(|(i, steps)| {
            let t = &tasks[i];
            let mut p = Map::new();
            p.insert("name".into(), json!(t.name));
            if t.instances != 1 {
                p.insert("threads".into(), json!(t.instances));
            }
            if matches!(t.props.policy, Policy::Other | Policy::Batch) && t.props.priority != 0 {
                p.insert("nice".into(), json!(t.props.priority));
            }
            if let Some(cpus) = &t.props.cpus {
                p.insert("cpus".into(), json!(cpu_list(cpus)));
            }
            if t.props.delay_ms > 0 {
                p.insert("start_ms".into(), json!(t.props.delay_ms));
            }
            if let Some(g) = &t.props.taskgroup {
                add_cgroups(g, &mut cgroups);
                p.insert("cgroup".into(), json!(g));
            }
            if let Some(us) = t.props.slice_us {
                p.insert("slice_us".into(), json!(us));
            }
            super::import_policy::policy_fields(t, &mut p, f);
            if shared.contains(&i) {
                p.insert("address_space".into(), json!(SPACE));
            }
            p.insert("program".into(), Value::Array(steps));
            Value::Object(p)
        })
        .collect();
    // The taskgroups phases move to, after the tasks' own (whose order earlier imports kept).
    for t in tasks.iter().filter(|t| phase_moves(t).1) {
        for path in t.phases.iter().filter_map(|ph| ph.props.taskgroup.as_ref()?.as_deref()) {
            add_cgroups(path, &mut cgroups);
        }
    }
    (processes, cgroups)
}

/// The timers some use of which is absolute: (the task, for a thread's own
/// timer; None for a shared one) and the name.
type TimerKey = (Option<String>, String);

fn absolute_timers(tasks: &[Task]) -> BTreeSet<TimerKey> {
    let mut out = BTreeSet::new();
    for t in tasks {
        for (e, _) in t.events() {
            if let Event::Timer { name, unique, absolute: true, .. } = e {
                out.insert((unique.then(|| t.name.clone()), name.clone()));
            }
        }
    }
    out
}

fn looped(count: Option<u32>, body: Vec<Value>) -> Vec<Value> {
    match count {
        Some(1) => body,
        Some(n) => vec![json!({ "repeat": n, "body": body })],
        None => vec![json!({ "body": body })],
    }
}

/// The steps of task `t`'s threads (`depth`: how many forks deep).
///
/// rt-app sets a phase's properties each time it begins it (rt-app.c's
/// `thread_body`): `set_thread_affinity` to the phase's cpus, else the
/// task's, else the thread's first affinity, when they differ from the
/// current ones; `set_thread_taskgroup` to the phase's taskgroup, when it has
/// one (a phase without stays where the thread is). So when some phase's
/// cpus differ from the task's, each phase begins with a `set_cpus` (one
/// that changes nothing costs nothing), and a phase with a taskgroup other
/// than the task's begins with a `set_cgroup`. The first phase of a task
/// that runs its phases once needs none to be on the task's cpus: its
/// threads start there. `set_thread_param`, between the two, becomes a
/// `sched_setattr` where `import_phase_sched` found that the phase changes
/// the thread's policy or its parameters.
fn program(tasks: &[Task], t: &Task, absolute: &BTreeSet<TimerKey>, depth: usize) -> Vec<Value> {
    let (cpus_move, group_moves) = phase_moves(t);
    let mut body = Vec::new();
    for (k, ph) in t.phases.iter().enumerate() {
        let starts_there =
            k == 0 && t.looped == Some(1) && ph.props.cpus.as_ref().is_none_or(|c| Some(c) == t.props.cpus.as_ref());
        if cpus_move && !starts_there {
            let cpus = ph.props.cpus.as_ref().or(t.props.cpus.as_ref());
            body.push(json!({ "set_cpus": cpus.map_or_else(|| "all".to_string(), |c| cpu_list(c)) }));
        }
        if let Some(set) = &ph.props.sched {
            body.push(setattr_step(set));
        }
        if let Some(group) = ph.props.taskgroup.as_ref().filter(|_| group_moves) {
            body.push(json!({ "set_cgroup": group.as_deref().unwrap_or("/") }));
        }
        let steps = ph.events.iter().map(|e| step(tasks, t, e, absolute, depth)).collect();
        body.extend(looped(ph.looped, steps));
    }
    looped(t.looped, body)
}

/// The `sched_setattr` step that sets `set`.
fn setattr_step(set: &SchedSet) -> Value {
    let mut step = json!({ "sched_setattr": sched_policy_name(set.policy).unwrap_or("normal") });
    if let Some(prio) = set.rt_priority {
        step["rt_priority"] = json!(prio);
    }
    if let Some(nice) = set.nice {
        step["nice"] = json!(nice);
    }
    if let Some(r) = set.reservation {
        step["dl_runtime_us"] = json!(r.runtime_us);
        step["dl_deadline_us"] = json!(r.deadline_us);
        if r.period_us != r.deadline_us {
            step["dl_period_us"] = json!(r.period_us);
        }
    }
    step
}

/// Whether some phase of `t` runs on other cpus than the task's, and whether one moves to another taskgroup.
fn phase_moves(t: &Task) -> (bool, bool) {
    let cpus = t.phases.iter().any(|ph| ph.props.cpus.is_some() && ph.props.cpus != t.props.cpus);
    let groups = t.phases.iter().any(|ph| ph.props.taskgroup.as_ref().is_some_and(|g| *g != t.props.taskgroup));
    (cpus, groups)
}

/// A CPU list as a scenario writes it ("0,2,3").
fn cpu_list(cpus: &[u32]) -> String {
    cpus.iter().map(u32::to_string).collect::<Vec<_>>().join(",")
}

fn step(tasks: &[Task], t: &Task, e: &Event, absolute: &BTreeSet<TimerKey>, depth: usize) -> Value {
    match e {
        Event::Run(us) => json!({ "run_us": us }),
        Event::Sleep(us) => json!({ "sleep_us": us }),
        Event::Busy(us) => json!({ "busy_us": us }),
        Event::Lock(m) => json!({ "lock": m }),
        Event::Unlock(m) => json!({ "unlock": m }),
        Event::CondWait { cond, mutex } => json!({ "cond_wait": cond, "mutex": mutex }),
        Event::Signal(c) => json!({ "cond_signal": c }),
        Event::Broadcast(c) => json!({ "cond_broadcast": c }),
        Event::Barrier(b) => json!({ "barrier": b }),
        Event::Yield => json!({ "yield": true }),
        Event::Timer { name, period_us, unique, .. } => {
            let mut step = json!({ "timer": name, "period_us": period_us });
            if !unique {
                step["shared"] = json!(true);
            }
            if absolute.contains(&(unique.then(|| t.name.clone()), name.clone())) {
                step["timer_mode"] = json!("absolute");
            }
            step
        }
        Event::Fork(name) => {
            // check_forks refused a fork of no task, or a cycle of forks: this one resolves.
            let child = tasks.iter().find(|c| &c.name == name);
            let steps = child.map_or_else(Vec::new, |c| program(tasks, c, absolute, depth + 1));
            json!({ "fork": steps })
        }
    }
}

/// Each fork names a task with its parent's properties, no delay and no
/// barrier, and no task forks itself however indirectly.
fn check_forks(tasks: &[Task], f: &mut Findings) {
    let find = |name: &str| tasks.iter().find(|t| t.name == name);
    for t in tasks {
        for (e, _) in t.events() {
            let Event::Fork(name) = e else { continue };
            let at = format!("tasks.{}: fork \"{name}\"", t.name);
            let Some(child) = find(name) else {
                f.refused.push(format!("{at}: no task of that name (rt-app stops there)"));
                continue;
            };
            let (a, b) = (&t.props, &child.props);
            if (&a.policy, a.priority, &a.cpus, &a.taskgroup, a.slice_us, a.reservation)
                != (&b.policy, b.priority, &b.cpus, &b.taskgroup, b.slice_us, b.reservation)
            {
                f.refused.push(format!(
                    "{at}: its policy, priority, cpus, taskgroup or dl-* parameters differ from the forking task's (a forked \
                     child inherits its parent's)"
                ));
            }
            if b.delay_ms > 0 {
                f.refused.push(format!("{at}: it has a delay, which rt-app counts from the start of the run"));
            }
            if child.events().any(|(e, _)| matches!(e, Event::Barrier(_))) {
                f.refused.push(format!("{at}: it names a barrier (rt-app counts a barrier's users before any fork)"));
            }
        }
    }
    // A cycle of forks would be an endless program: refuse it where it closes.
    for t in tasks {
        let mut seen = vec![t.name.as_str()];
        let mut frontier = vec![t];
        while let Some(cur) = frontier.pop() {
            for (e, _) in cur.events() {
                let Event::Fork(name) = e else { continue };
                if name == &t.name {
                    f.refused.push(format!(
                        "tasks.{}: forks itself, through \"{}\" (rt-app forks until its limit)",
                        t.name, cur.name
                    ));
                } else if let Some(c) = find(name).filter(|c| !seen.contains(&c.name.as_str())) {
                    seen.push(&c.name);
                    frontier.push(c);
                }
            }
        }
    }
}

/// The names a process's program uses, by kind ("mutex", "cond", "timer",
/// "barrier"), with how many of its steps name each barrier outside forks.
fn names_in(steps: &[Value], in_fork: bool, out: &mut BTreeMap<(&'static str, String), u32>, forks: &mut bool) {
    for s in steps {
        let mut named = |kind: &'static str, key: &str| {
            if let Some(n) = s.get(key).and_then(Value::as_str) {
                *out.entry((kind, n.to_string())).or_default() += u32::from(!in_fork || kind != "barrier");
            }
        };
        named("mutex", "lock");
        named("mutex", "unlock");
        named("mutex", "mutex");
        named("cond", "cond_wait");
        named("cond", "cond_signal");
        named("cond", "cond_broadcast");
        named("barrier", "barrier");
        if s.get("shared").is_some() {
            named("timer", "timer");
        }
        if let Some(body) = s.get("body").and_then(Value::as_array) {
            names_in(body, in_fork, out, forks);
        }
        if let Some(child) = s.get("fork").and_then(Value::as_array) {
            *forks = true;
            names_in(child, true, out, forks);
        }
    }
}

/// The tasks that go in the shared address space: those naming what another
/// task names too, or a barrier their process would count otherwise (named
/// twice, or beside a fork).
fn sharers(programs: &[(usize, Vec<Value>)]) -> BTreeSet<usize> {
    let mut users: BTreeMap<(&'static str, String), Vec<usize>> = BTreeMap::new();
    let mut out = BTreeSet::new();
    for (i, steps) in programs {
        let (mut names, mut forks) = (BTreeMap::new(), false);
        names_in(steps, false, &mut names, &mut forks);
        for (key, uses) in names {
            if key.0 == "barrier" && (uses > 1 || forks) {
                out.insert(*i);
            }
            users.entry(key).or_default().push(*i);
        }
    }
    for list in users.values().filter(|l| l.len() > 1) {
        out.extend(list);
    }
    out
}

/// A note for each mutex a task locks more often than it unlocks in one
/// pass (rt-app's mutexes are not recursive: its next lock deadlocks the
/// thread), or unlocks more often than it locks.
fn lock_balance(t: &Task, f: &mut Findings) {
    let mut held: BTreeMap<&str, i64> = BTreeMap::new();
    for (e, times) in t.events() {
        match e {
            Event::Lock(m) => *held.entry(m).or_default() += times as i64,
            Event::Unlock(m) => *held.entry(m).or_default() -= times as i64,
            _ => {}
        }
    }
    for (m, n) in held {
        let at = format!("tasks.{}", t.name);
        if n > 0 {
            f.note(
                &at,
                format!(
                    "locks \"{m}\" without unlocking it: the thread deadlocks at its next lock of \"{m}\" (rt-app's \
                     mutexes are not recursive), and any other task locking \"{m}\" waits for ever"
                ),
            );
        } else if n < 0 {
            f.note(&at, format!("unlocks \"{m}\" more often than it locks it (undefined in pthreads)"));
        }
    }
}

/// The cgroups of taskgroup `path` ("/a/b": "/a", then "/a/b" under it), added once each.
fn add_cgroups(path: &str, cgroups: &mut Vec<Value>) {
    let mut parent: Option<String> = None;
    for (i, _) in path.match_indices('/').skip(1).chain([(path.len(), "")]) {
        let name = &path[..i];
        if !cgroups.iter().any(|g| g["name"] == name) {
            let mut g = json!({ "name": name });
            if let Some(p) = &parent {
                g["parent"] = json!(p);
            }
            cgroups.push(g);
        }
        parent = Some(name.to_string());
    }
}

//! What rt-app's one namespace asks of a scenario written as rt-app JSON:
//! rt-app's tasks are threads of one process, so every name means one object
//! for all of them, and its taskgroups are cgroup paths.
//!
//! ```text
//!   a name two processes use      only within one address space
//!   a barrier named k times       k = 1 unless its process shares an address space
//!                                 (rt-app waits for k × instances arrivals)
//!   a timer's uses                one mode (rt-app keeps it on the timer)
//!   a cgroup                      a path ("/a/b" under "/a"), default shares, no identity
//! ```

use crate::api::scenario::templates::template_program;
use crate::api::scenario::{OpFile, ScenarioFile};
use std::collections::BTreeMap;

/// An object's kind and name.
type Key = (&'static str, String);

/// Refuses names the scenario's processes use in ways rt-app would read as
/// one object when schedlab has several (or the other way round).
pub fn check_names(s: &ScenarioFile, bad: &mut Vec<String>) {
    // Each object: the processes naming it; each timer: its modes by process.
    let mut users: BTreeMap<Key, Vec<usize>> = BTreeMap::new();
    let mut modes: BTreeMap<Key, Vec<bool>> = BTreeMap::new();
    for (i, p) in s.processes.iter().enumerate() {
        let program = match &p.template {
            Some(t) => template_program(t).unwrap_or_default(),
            None => p.program.clone(),
        };
        let mut names: BTreeMap<Key, u32> = BTreeMap::new();
        walk(&program, &mut |op| {
            let mut name = |kind: &'static str, n: &Option<String>| {
                if let Some(n) = n {
                    *names.entry((kind, n.clone())).or_default() += 1;
                }
            };
            name("mutex", &op.lock);
            name("mutex", &op.unlock);
            name("mutex", &op.mutex);
            name("condition", &op.cond_wait);
            name("condition", &op.cond_signal);
            name("condition", &op.cond_broadcast);
            name("barrier", &op.barrier);
            if let Some(t) = &op.timer {
                let shared = op.shared == Some(true);
                let owner = if shared { String::new() } else { format!("{i}:") };
                if shared {
                    name("timer", &op.timer);
                }
                modes
                    .entry(("timer", format!("{owner}{t}")))
                    .or_default()
                    .push(op.timer_mode.as_deref() == Some("absolute"));
            }
        });
        for (key, n) in names {
            if key.0 == "barrier" && n > 1 && p.address_space.is_none() {
                bad.push(format!(
                    "processes[{i}].program: barrier \"{}\" is named {n} times; rt-app counts each naming as a user, \
                     so it would wait for {n} arrivals of each thread (unless the process shares an address space)",
                    key.1
                ));
            }
            users.entry(key).or_default().push(i);
        }
    }
    for ((kind, name), list) in &users {
        let spaces: Vec<Option<&str>> = list.iter().map(|&i| s.processes[i].address_space.as_deref()).collect();
        if list.len() > 1 && (spaces[0].is_none() || spaces.iter().any(|sp| *sp != spaces[0])) {
            let at: Vec<String> = list.iter().map(|i| format!("processes[{i}]")).collect();
            bad.push(format!(
                "{}: each names its own {kind} \"{name}\"; in rt-app, threads of one process, it would be one (put \
                 them in one address_space, or name them apart)",
                at.join(", ")
            ));
        }
    }
    for ((_, name), uses) in modes {
        if uses.iter().any(|&a| a) && !uses.iter().all(|&a| a) {
            let shown = name.split_once(':').map_or(name.as_str(), |(_, n)| n).to_string();
            bad.push(format!(
                "timer \"{shown}\": absolute at one use and relative at another (rt-app keeps one mode per timer)"
            ));
        }
    }
}

/// Every step of a program, loop bodies and forked programs included.
fn walk(ops: &[OpFile], f: &mut impl FnMut(&OpFile)) {
    for op in ops {
        f(op);
        if let Some(body) = &op.body {
            walk(body, f);
        }
        if let Some(child) = &op.fork {
            walk(child, f);
        }
    }
}

/// Refuses cgroups an rt-app taskgroup cannot say.
pub fn check_taskgroups(s: &ScenarioFile, bad: &mut Vec<String>) {
    for (i, g) in s.cgroups.iter().enumerate() {
        let parent = g.name.rsplit_once('/').map(|(p, _)| p).filter(|p| !p.is_empty());
        let path = g.name.starts_with('/') && g.name.len() > 1 && parent == g.parent.as_deref();
        if !path || g.shares != 1024 || g.identity.is_some() || g.smt_expeller.is_some() {
            bad.push(format!(
                "cgroups[{i}]: rt-app's taskgroups are paths (\"/a/b\" under \"/a\") with the default shares and no \
                 identity"
            ));
        }
    }
}

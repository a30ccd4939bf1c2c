//! Validation of program steps: durations, the step kinds, loops and forks,
//! and the names they refer to (`wake` targets).

use super::duration::dist_of;
use super::flag::flag_op;
use super::thread_steps::{set_cgroup_of, set_cpus_of, StepWorld};
use crate::api::scenario::diagnostic::Checker;
use crate::api::scenario::file::{ProcessFile, MAX_NAME_LEN, MAX_PROGRAM_DEPTH, MAX_PROGRAM_OPS};
use crate::api::scenario::steps::{OpFile, MAX_PERIOD_US, TIMER_MODES};
use crate::api::text::{escape_controls as shown, name_problem};
use crate::program::{Dist, Op, TimerOp};
use crate::time::NSEC_PER_USEC;

/// The steps `ops` at `at` as the engine's program. `in_fork`: they are a
/// forked child's (or inside one).
pub(super) fn ops_of(
    ops: &[OpFile],
    at: &str,
    depth: usize,
    in_fork: bool,
    count: &mut usize,
    world: &StepWorld,
    c: &mut Checker,
) -> Vec<Op> {
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
            op.busy_us.is_some(),
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
            op.exec.is_some(),
            op.post.is_some(),
            op.await_flag.is_some(),
            op.cond_wait.is_some(),
            op.cond_signal.is_some(),
            op.cond_broadcast.is_some(),
            op.timer.is_some(),
            op.sched_setattr.is_some(),
            op.set_cpus.is_some(),
            op.set_cgroup.is_some(),
        ];
        if kinds.iter().filter(|k| **k).count() != 1 {
            c.fail(&field, "must have exactly one of run_us, sleep_us, busy_us, body (with optional repeat), exit, wait, wake, barrier (with optional spin_us), lock, unlock, cond_wait (with mutex), cond_signal, cond_broadcast, timer (with period_us), sched_setattr, set_cpus, set_cgroup, yield, take_job, fork, wait_child, exec, post or await");
            continue;
        }
        for (set, key, with) in [
            (op.mutex.is_some(), "mutex", op.cond_wait.is_some()),
            (op.period_us.is_some(), "period_us", op.timer.is_some()),
            (op.shared.is_some(), "shared", op.timer.is_some()),
            (op.timer_mode.is_some(), "timer_mode", op.timer.is_some()),
            (op.rt_priority.is_some(), "rt_priority", op.sched_setattr.is_some()),
            (op.dl_runtime_us.is_some(), "dl_runtime_us", op.sched_setattr.is_some()),
            (op.dl_deadline_us.is_some(), "dl_deadline_us", op.sched_setattr.is_some()),
            (op.dl_period_us.is_some(), "dl_period_us", op.sched_setattr.is_some()),
            (op.nice.is_some(), "nice", op.sched_setattr.is_some()),
        ] {
            if set && !with {
                let head = match key {
                    "mutex" => "cond_wait",
                    "period_us" | "shared" | "timer_mode" => "timer",
                    _ => "sched_setattr",
                };
                c.fail(format!("{field}.{key}"), format!("only allowed together with {head}"));
            }
        }
        let flag_step = op.post.is_some() || op.await_flag.is_some();
        if op.spin_us.is_some() && op.barrier.is_none() && !flag_step {
            c.fail(format!("{field}.spin_us"), "only allowed together with barrier, post or await");
        }
        if op.wait_policy.is_some() && !flag_step {
            c.fail(format!("{field}.wait_policy"), "only allowed together with post or await");
        }
        if op.to.is_some() && op.post.is_none() {
            c.fail(format!("{field}.to"), "only allowed together with post");
        }
        if op.from.is_some() && op.await_flag.is_none() {
            c.fail(format!("{field}.from"), "only allowed together with await");
        }
        for (flag, name) in [
            (op.wait, "wait"),
            (op.yield_cpu, "yield"),
            (op.take_job, "take_job"),
            (op.wait_child, "wait_child"),
            (op.exec, "exec"),
        ] {
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
        } else if let Some(d) = &op.busy_us {
            out.push(Op::Busy(dist_of(d, &format!("{field}.busy_us"), c)));
        } else if op.timer.is_some() {
            if let Some(t) = timer_op(op, &field, c) {
                out.push(Op::Timer(t));
            }
        } else if let Some(cond) = &op.cond_wait {
            c.one_line(&format!("{field}.cond_wait"), cond);
            let Some(mutex) = &op.mutex else {
                c.fail(format!("{field}.mutex"), "cond_wait needs the mutex it releases while it waits (a lock name)");
                continue;
            };
            c.one_line(&format!("{field}.mutex"), mutex);
            out.push(Op::CondWait { cond: cond.clone(), mutex: mutex.clone() });
        } else if let Some(cond) = &op.cond_signal {
            c.one_line(&format!("{field}.cond_signal"), cond);
            out.push(Op::CondSignal(cond.clone()));
        } else if let Some(cond) = &op.cond_broadcast {
            c.one_line(&format!("{field}.cond_broadcast"), cond);
            out.push(Op::CondBroadcast(cond.clone()));
        } else if let Some(name) = &op.sched_setattr {
            if let Some(attr) = super::sched_policy::setattr_of(op, name, &field, c) {
                out.push(Op::SchedSetattr(attr));
            }
        } else if let Some(list) = &op.set_cpus {
            out.extend(set_cpus_of(list, &field, world, c));
        } else if let Some(name) = &op.set_cgroup {
            out.extend(set_cgroup_of(name, &field, world, c));
        } else if op.wait.is_some() {
            if in_fork {
                c.fail(
                    format!("{field}.wait"),
                    "a forked child cannot be woken (a wake step names only a process's starting threads), \
                     so it would wait forever",
                );
            }
            out.push(Op::Wait);
        } else if let Some(target) = &op.wake {
            if name_problem(target).is_some() {
                c.one_line(&format!("{field}.wake"), target);
                continue;
            }
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
            c.one_line(&format!("{field}.barrier"), name);
            let spin = op.spin_us.as_ref().map_or(Dist::Fixed(0), |d| dist_of(d, &format!("{field}.spin_us"), c));
            out.push(Op::Barrier { name: name.clone(), spin });
        } else if flag_step {
            if let Some(step) = flag_op(op, &field, c) {
                out.push(step);
            }
        } else if let Some(name) = &op.lock {
            c.one_line(&format!("{field}.lock"), name);
            out.push(Op::Lock(name.clone()));
        } else if let Some(name) = &op.unlock {
            c.one_line(&format!("{field}.unlock"), name);
            out.push(Op::Unlock(name.clone()));
        } else if op.yield_cpu.is_some() {
            out.push(Op::Yield);
        } else if op.take_job.is_some() {
            out.push(Op::TakeJob);
        } else if op.wait_child.is_some() {
            out.push(Op::WaitChild);
        } else if op.exec.is_some() {
            out.push(Op::Exec);
        } else if let Some(child) = &op.fork {
            let child = ops_of(child, &format!("{field}.fork"), depth + 1, true, count, world, c);
            out.push(Op::Fork(child));
        } else if let Some(body) = &op.body {
            let before = c.found();
            let body = ops_of(body, &format!("{field}.body"), depth + 1, in_fork, count, world, c);
            // (A body with problems of its own may lack steps: judged once they are fixed.)
            if op.repeat.is_none() && c.found() == before && !body.iter().any(takes_time) {
                c.fail(
                    &field,
                    "repeats forever (no repeat) but none of its steps takes time or waits, so the thread would \
                     loop at one instant: add a run_us or sleep_us above 0, or a repeat count",
                );
            }
            out.push(Op::Repeat { times: op.repeat, body });
        } else {
            out.push(Op::Exit);
        }
    }
    out
}

/// A timer step: its name, a period of at least 1 µs, who shares it, and how it catches up.
fn timer_op(op: &OpFile, field: &str, c: &mut Checker) -> Option<TimerOp> {
    let name = op.timer.as_ref()?;
    c.one_line(&format!("{field}.timer"), name);
    let absolute = match op.timer_mode.as_deref() {
        None | Some("relative") => false,
        Some("absolute") => true,
        Some(other) => {
            c.fail(
                format!("{field}.timer_mode"),
                format!("unknown mode '{}' (known: {})", shown(other), TIMER_MODES.join(", ")),
            );
            false
        }
    };
    let Some(period_us) = op.period_us else {
        c.fail(format!("{field}.period_us"), "a timer needs its period (1 µs or more)");
        return None;
    };
    c.range(&format!("{field}.period_us"), period_us, 1, MAX_PERIOD_US);
    Some(TimerOp {
        name: name.clone(),
        period_ns: period_us.saturating_mul(NSEC_PER_USEC),
        shared: op.shared == Some(true),
        absolute,
    })
}

/// A process in a shared address space: a one-line name, and nothing that is
/// a process's own alone (its job pool; flags, which name threads by their
/// index in the process).
pub(super) fn check_address_space(space: &str, p: &ProcessFile, program: &[Op], at: &str, c: &mut Checker) {
    if space.is_empty() || space.chars().count() > MAX_NAME_LEN {
        c.fail(format!("{at}.address_space"), format!("must be 1 to {MAX_NAME_LEN} characters"));
    }
    c.one_line(&format!("{at}.address_space"), space);
    if p.job_pool > 0 {
        c.fail(
            format!("{at}.job_pool"),
            "a process in a shared address space has no job pool of its own (take its jobs from a process outside)",
        );
    }
    if names_a_flag(program) {
        c.fail(
            format!("{at}.program"),
            "post and await name threads by their index in the process, so they are not allowed in a shared \
             address space",
        );
    }
}

fn names_a_flag(ops: &[Op]) -> bool {
    ops.iter().any(|op| match op {
        Op::Flag { .. } => true,
        Op::Repeat { body, .. } | Op::Fork(body) => names_a_flag(body),
        _ => false,
    })
}

/// Each process name's first process (a wake step finds its target by name): sorted pairs, searched by halves.
pub(super) struct ProcessNames<'a>(Vec<(&'a str, usize)>);

impl<'a> ProcessNames<'a> {
    pub(super) fn of(processes: &'a [ProcessFile]) -> ProcessNames<'a> {
        let mut v: Vec<(&str, usize)> = processes.iter().enumerate().map(|(i, p)| (p.name.as_str(), i)).collect();
        // (name, index) pairs are distinct: sorted, each name's first pair has its lowest index.
        v.sort_unstable();
        v.dedup_by_key(|(name, _)| *name);
        ProcessNames(v)
    }

    /// The index of the first process named `name`.
    pub(super) fn first(&self, name: &str) -> Option<usize> {
        self.0.binary_search_by(|(n, _)| (*n).cmp(name)).ok().map(|k| self.0[k].1)
    }
}

/// Every `wake` names an existing process (`names`: each name's first
/// process) and one of its starting threads.
pub(super) fn check_wake_targets(
    ops: &[Op],
    processes: &[ProcessFile],
    names: &ProcessNames,
    at: &str,
    c: &mut Checker,
) {
    for op in ops {
        match op {
            Op::Wake { process, thread } => match names.first(process).map(|i| &processes[i]) {
                None => c.fail(at, format!("wake names no process '{}'", shown(process))),
                Some(p) if *thread >= p.threads => c.fail(
                    at,
                    format!(
                        "wake names thread {thread} of '{}', which has {} threads (0 to {}); the threads it forks \
                         cannot be named",
                        shown(process),
                        p.threads,
                        p.threads.saturating_sub(1)
                    ),
                ),
                Some(_) => {}
            },
            Op::Repeat { body, .. } | Op::Fork(body) => check_wake_targets(body, processes, names, at, c),
            _ => {}
        }
    }
}

/// Whether a step can take time or give up the CPU: a run or sleep that is
/// not always zero, a call that may block, yield or end the thread, or a
/// loop holding one. A loop repeating forever needs one.
fn takes_time(op: &Op) -> bool {
    match op {
        Op::Run(d) | Op::Sleep(d) | Op::Busy(d) => !matches!(d, Dist::Fixed(0) | Dist::Uniform(_, 0)),
        // A timer's period is at least 1 µs: each use after the first sleeps.
        Op::Timer(_) | Op::CondWait { .. } => true,
        Op::Wait
        | Op::Barrier { .. }
        | Op::Flag { .. }
        | Op::Lock(_)
        | Op::Yield
        | Op::WaitChild
        | Op::Exit
        | Op::TakeJob => true,
        Op::Repeat { times, body } => *times != Some(0) && body.iter().any(takes_time),
        // An exec that stays on its CPU goes straight on.
        Op::Wake { .. }
        | Op::Unlock(_)
        | Op::Fork(_)
        | Op::Exec
        | Op::CondSignal(_)
        | Op::CondBroadcast(_)
        | Op::SchedSetattr(_)
        | Op::SetCpus(_)
        | Op::SetCgroup(_) => false,
    }
}

/// Every step of a program, loop bodies and forked programs included, as
/// `ops_of` counts them (it stops counting at the limit). JSON nesting is
/// bounded by the parser, so the recursion is too.
pub(super) fn count_steps(ops: &[OpFile]) -> usize {
    ops.iter().map(|op| 1 + op.body.as_deref().map_or(0, count_steps) + op.fork.as_deref().map_or(0, count_steps)).sum()
}

/// Whether `ops` fork (anywhere, loops included).
pub(super) fn forks(ops: &[Op]) -> bool {
    ops.iter().any(|op| match op {
        Op::Fork(_) => true,
        Op::Repeat { body, .. } => forks(body),
        _ => false,
    })
}

/// The `sched_setattr` steps of `ops` (loops and forked programs included), with where each is.
pub(super) fn setattr_steps(ops: &[Op], out: &mut Vec<crate::sched::policy::SchedAttr>) {
    for op in ops {
        match op {
            Op::SchedSetattr(attr) => out.push(*attr),
            Op::Repeat { body, .. } | Op::Fork(body) => setattr_steps(body, out),
            _ => {}
        }
    }
}

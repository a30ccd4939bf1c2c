//! Semantic validation of a parsed scenario into the engine's `SimConfig`.
//! Every problem is reported with the JSON path of its field; hard limits
//! (CPUs, threads, duration, program size) bound what a run can cost. This
//! file checks the file's own fields and each process; its sections are
//! checked by the files beside it (the policy, the run's settings, the
//! machine and affinities, cgroups, hotplug events, program steps).

mod cgroup;
mod deadline;
mod duration;
mod events;
mod flag;
mod machine;
pub mod policy;
mod program;
mod sched_policy;
mod settings;
mod thread_steps;

use super::diagnostic::{Checker, Diagnostic};
use super::exercise::check as check_exercise;
use super::file::{ScenarioFile, MAX_DURATION_MS, MAX_NAME_LEN, MAX_PROGRAM_OPS, MAX_THREADS, SCENARIO_VERSION};
use super::limits::admit;
use super::templates::{template_program, TEMPLATE_NAMES};
use crate::api::text::{code_point, escape_controls as shown, forbidden_control, DESCRIPTION_CONTROLS};
use crate::config::{PolicyKind, ProcessSpec, SimConfig};
use crate::time::{NSEC_PER_MSEC, NSEC_PER_USEC};
use cgroup::{cgroups_of, CgroupNames};
use events::events_of;
use machine::{affinity_of, machine_of};
use policy::{features_of, knobs_of, policy_of};
use program::{check_address_space, check_wake_targets, count_steps, ops_of, ProcessNames};
use settings::{bugs_of, costs_of, pi_mutexes_of, preempt_of, sanity_of};

mod kernel;
pub use kernel::kernel_name;

/// Checks a parsed scenario; the engine configuration, or every problem found.
pub fn validate(f: &ScenarioFile) -> Result<SimConfig, Vec<Diagnostic>> {
    let mut c = Checker::default();
    if f.version != SCENARIO_VERSION {
        c.fail("version", format!("unsupported version {} (this build reads version {SCENARIO_VERSION})", f.version));
    }
    if f.name.is_empty() || f.name.chars().count() > MAX_NAME_LEN {
        c.fail("name", format!("must be 1 to {MAX_NAME_LEN} characters"));
    }
    c.one_line("name", &f.name);
    // The description is prose shown as text: it may break lines and use tabs.
    if let Some(ch) = forbidden_control(&f.description, &DESCRIPTION_CONTROLS) {
        c.fail(
            "description",
            format!(
                "may contain line breaks (U+000A) and tabs (U+0009) but no other control characters ({})",
                code_point(ch)
            ),
        );
    }
    c.range("duration_ms", f.duration_ms, 1, MAX_DURATION_MS);
    c.range("hz", f.hz, 10, 10_000);
    let machine = machine_of(&f.machine, &mut c);
    let mut policy = policy_of(&f.policy, &mut c);
    let kernel = kernel::kernel_of(f.kernel.as_deref(), &mut c);
    kernel::check_generation(kernel, f, policy.kind, &mut c);
    let knobs = knobs_of(f.policy.tunables.as_ref(), &mut c);
    let features = features_of(f.policy.features.as_ref());
    let mut total_threads: u64 = 0;
    let mut processes = Vec::new();
    if f.processes.is_empty() {
        c.fail("processes", "must list at least one process");
    }
    let names = ProcessNames::of(&f.processes);
    let mut reservations = Vec::new();
    let mut any_dl_step = false;
    let cgroup_names = CgroupNames::of(&f.cgroups);
    for (i, p) in f.processes.iter().enumerate() {
        let at = format!("processes[{i}]");
        if p.name.is_empty() || p.name.chars().count() > MAX_NAME_LEN {
            c.fail(format!("{at}.name"), format!("must be 1 to {MAX_NAME_LEN} characters"));
        }
        c.one_line(&format!("{at}.name"), &p.name);
        if let Some(first) = names.first(&p.name).filter(|&first| first != i) {
            c.fail(
                format!("{at}.name"),
                format!(
                    "'{}' is already the name of processes[{first}]; names must be unique (a wake step finds its \
                     process by name)",
                    shown(&p.name)
                ),
            );
        }
        if p.name.contains('/') {
            c.fail(format!("{at}.name"), "must not contain '/' (a wake step names a thread as 'process/k')");
        }
        if let Some(session) = &p.session {
            c.one_line(&format!("{at}.session"), session);
        }
        c.range(&format!("{at}.nice"), p.nice, -20, 19);
        let (sched_policy, rt_priority) = sched_policy::sched_policy_of(p, &at, kernel, policy.kind, &mut c);
        let dl = sched_policy::dl_params_of(p, &at, sched_policy, kernel, &mut c);
        if let Some(dl) = dl {
            reservations.push((at.clone(), p.threads, dl));
        }
        c.range(&format!("{at}.threads"), p.threads, 1, MAX_THREADS);
        c.range(&format!("{at}.start_ms"), p.start_ms, 0, MAX_DURATION_MS);
        c.range(&format!("{at}.job_pool"), p.job_pool, 0, 10_000_000);
        total_threads += p.threads as u64;
        if let Some(us) = p.slice_us {
            if policy.kind != PolicyKind::Eevdf && kernel != crate::config::Kernel::Linux612 {
                c.fail(format!("{at}.slice_us"), "a custom slice needs policy.kind 'eevdf' or kernel 6.12");
            }
            c.range(&format!("{at}.slice_us"), us, 100, 100_000);
        }
        policy.slices.push(p.slice_us.unwrap_or(0).saturating_mul(NSEC_PER_USEC));
        let mut count = 0;
        let steps = match (&p.template, p.program.is_empty()) {
            (Some(t), true) => template_program(t).unwrap_or_else(|| {
                c.fail(
                    format!("{at}.template"),
                    format!("unknown template '{}' (known: {})", shown(t), TEMPLATE_NAMES.join(", ")),
                );
                Vec::new()
            }),
            (Some(_), false) => {
                c.fail(&at, "give either a template or a program, not both");
                Vec::new()
            }
            (None, _) => p.program.clone(),
        };
        // Counted first: an over-long program is one problem, not a thousand.
        let all = count_steps(&steps);
        let program = if all > MAX_PROGRAM_OPS {
            c.fail(format!("{at}.program"), format!("has {all} steps; the limit is {MAX_PROGRAM_OPS}"));
            Vec::new()
        } else {
            let world = thread_steps::StepWorld {
                nr_cpus: machine.as_ref().map(|m| m.nr_cpus()),
                cgroups: &cgroup_names,
                real_time: thread_steps::ever_real_time(sched_policy, &steps),
                task_groups: !matches!(policy.kind, PolicyKind::O1 | PolicyKind::Ext),
            };
            ops_of(&steps, &format!("{at}.program"), 1, false, &mut count, &world, &mut c)
        };
        check_wake_targets(&program, &f.processes, &names, &format!("{at}.program"), &mut c);
        let mut attrs = Vec::new();
        program::setattr_steps(&program, &mut attrs);
        sched_policy::program_attrs(p, &attrs, &at, kernel, policy.kind, &mut reservations, &mut c);
        any_dl_step |= attrs.iter().any(|a| a.policy.is_dl());
        if (sched_policy.is_dl() || attrs.iter().any(|a| a.policy.is_dl())) && program::forks(&program) {
            // sched_fork (core.c 1931–1933 in 4.1): a deadline task's fork fails.
            c.fail(
                format!("{at}.program"),
                "a deadline task cannot fork (fork fails with EAGAIN: a child would share no reservation)",
            );
        }
        if let Some(space) = &p.address_space {
            check_address_space(space, p, &program, &at, &mut c);
        }
        let affinity = machine.as_ref().and_then(|m| affinity_of(p, m, &at, &mut c));
        if let Some(cg) = &p.cgroup {
            if !cgroup_names.contains(cg) {
                c.fail(format!("{at}.cgroup"), format!("no cgroup named '{}' in cgroups", shown(cg)));
            }
        }
        processes.push(ProcessSpec {
            affinity,
            session: p.session.clone(),
            job_pool: p.job_pool,
            address_space: p.address_space.clone(),
            cgroup: p.cgroup.clone(),
            name: p.name.clone(),
            nice: p.nice,
            sched_policy: if sched_policy.is_dl() && dl.is_none() { Default::default() } else { sched_policy },
            rt_priority,
            dl,
            threads: p.threads,
            start_ns: p.start_ms.saturating_mul(NSEC_PER_MSEC),
            program,
        });
    }
    if let Some(m) = machine.as_ref() {
        deadline::admit(&reservations, m.nr_cpus(), kernel, &mut c);
    }
    if total_threads > MAX_THREADS as u64 {
        c.fail("processes", format!("{total_threads} threads in all; the limit is {MAX_THREADS}"));
    }
    let bugs = bugs_of(f.bugs.as_ref(), &mut c);
    let cgroups = cgroups_of(&f.cgroups, &cgroup_names, &mut c);
    let costs = costs_of(f.costs.as_ref(), &mut c);
    // Under O(1) hotplug is refused as a whole (below): its events' CPUs are not checked.
    let cpus_to_check = machine.as_ref().map(|m| m.nr_cpus()).filter(|_| policy.kind != PolicyKind::O1);
    let events = events_of(&f.events, cpus_to_check, &mut c);
    if policy.kind == PolicyKind::O1 && !f.events.is_empty() {
        // CPU hotplug is not modelled for the O(1) class.
        c.fail("events", "CPU hotplug is not modelled under policy 'o1'");
    }
    let preempt = preempt_of(f.preempt.as_deref(), &mut c);
    let pi_mutexes = pi_mutexes_of(f.mutex_protocol.as_deref(), &mut c);
    // Checked before the early return so its problems are reported too.
    let sanity = sanity_of(f.sanity_checker.as_ref(), &mut c);
    // The run does not need the exercise (it is judged from the report), but a wrong one is refused here too.
    let is_process = |name: &str| f.processes.iter().any(|p| p.name == name);
    for d in f.exercise.iter().flat_map(|ex| check_exercise(ex, is_process)) {
        c.fail(d.field, d.reason);
    }
    if pi_mutexes && (any_dl_step || f.processes.iter().any(|p| p.sched_policy.as_deref() == Some("deadline"))) {
        c.fail(
            "mutex_protocol",
            "'inherit' with a deadline process is not modelled yet: a deadline waiter lends its owner its \
             deadline and runtime (dl_boosted), which the model does not do",
        );
    }
    if c.found() > 0 {
        return Err(c.into_diagnostics());
    }
    admit(SimConfig {
        kernel,
        event_budget: crate::config::DEFAULT_EVENT_BUDGET,
        autogroup: f.autogroup,
        pi_mutexes,
        costs,
        nohz: f.nohz,
        preempt,
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

//! The deadline part of a real run's plan: which deadline processes the host
//! cannot run as the scenario says (refused by field, never run another way),
//! and what the report says of those it runs.
//!
//! ```text
//!   pinned  the host refuses SCHED_DEADLINE to a thread whose affinity leaves out CPUs of its root domain
//!           (sched_setattr: EPERM, kernel/sched/syscalls.c 656–669 in 6.12), and a narrower affinity to a
//!           deadline thread (sched_setaffinity: EBUSY, dl_task_check_affinity, syscalls.c 1190–1206)
//!   forks   sched_fork refuses a deadline parent (EAGAIN, kernel/sched/core.c 4735–4736 in 6.12)
//! ```
//!
//! The scenario's validation refuses both already (`api::scenario::validate`, as 4.1 does); the plan says
//! so again for a configuration built by other means, since the host would refuse them at the worst moment:
//! a thread already started.

use super::plan::{PlanProcess, OUTLIVE_WINDOW_NS};
use crate::config::ProcessSpec;
use crate::program::Op;

/// Whether a program forks (a `fork` step anywhere, repeats included).
fn forks(ops: &[Op]) -> bool {
    ops.iter().any(|op| match op {
        Op::Fork(_) => true,
        Op::Repeat { body, .. } => forks(body),
        _ => false,
    })
}

/// Why deadline process `i` cannot run on a host of `nr_cpus` CPUs, field by field (empty if it can).
pub fn refusals(i: usize, p: &ProcessSpec, nr_cpus: u32) -> Vec<String> {
    let mut refused = Vec::new();
    if p.dl.is_none() {
        refused.push(format!(
            "processes[{i}].sched_policy: deadline without its reservation (dl_runtime_us, dl_deadline_us)"
        ));
    }
    if let Some(mask) = p.affinity.as_ref().filter(|m| m.weight() < nr_cpus) {
        refused.push(format!(
            "processes[{i}].cpus: '{}' — a deadline process may not be pinned: the host refuses SCHED_DEADLINE to a \
             thread whose affinity leaves out CPUs of its root domain (sched_setattr fails with EPERM)",
            mask.to_list()
        ));
    }
    if forks(&p.program) {
        refused.push(format!(
            "processes[{i}].program: fork — a deadline thread cannot fork (the host's sched_fork refuses it: EAGAIN)"
        ));
    }
    refused
}

fn ms(ns: u64) -> String {
    let v = ns as f64 / 1e6;
    if v.fract() == 0.0 {
        format!("{v:.0}")
    } else {
        format!("{v:.3}")
    }
}

/// What the report says of the deadline processes, if there are any: each one's reservation, set by each
/// thread on itself before its program, and the run's bound whatever happens to the runner.
pub fn note(processes: &[PlanProcess]) -> Option<String> {
    let dl: Vec<String> = processes
        .iter()
        .filter_map(|p| {
            let d = p.dl.filter(|_| p.sched_policy.is_dl())?;
            Some(format!(
                "'{}' SCHED_DEADLINE runtime {} ms, deadline {} ms, period {} ms",
                p.name,
                ms(d.runtime_ns),
                ms(d.deadline_ns),
                ms(d.period_ns)
            ))
        })
        .collect();
    (!dl.is_empty()).then(|| {
        format!(
            "deadline threads on the host: {} (each thread asks for its reservation with sched_setattr before its \
             program: the host admits it, or the run stops; it is never run as a fair one); every process of the \
             run is killed by the kernel {} s after the window at the latest",
            dl.join(", "),
            OUTLIVE_WINDOW_NS / 1_000_000_000
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::scenario::load_scenario;
    use crate::program::Dist;
    use crate::topology::cpumask::CpuMask;

    fn dl_process() -> ProcessSpec {
        let c = load_scenario(
            r#"{"version":1,"name":"t","duration_ms":100,"machine":{"nodes":1,"cores_per_node":2},"processes":[
                 {"name":"d","sched_policy":"deadline","dl_runtime_us":10000,"dl_deadline_us":100000,
                  "template":"cpu-hog"}]}"#,
        )
        .unwrap();
        c.processes[0].clone()
    }

    #[test]
    fn an_unpinned_deadline_process_that_does_not_fork_may_run() {
        let p = dl_process();
        assert!(refusals(0, &p, 2).is_empty());
        // Allowed every CPU is not pinned.
        let every = ProcessSpec { affinity: Some(CpuMask::from_range(0..2)), ..p };
        assert!(refusals(0, &every, 2).is_empty());
    }

    #[test]
    fn pinned_forking_or_unreserved_deadline_processes_are_refused_by_field() {
        let p = dl_process();
        let pinned = ProcessSpec { affinity: Some(CpuMask::from_range(1..2)), ..p.clone() };
        let r = refusals(3, &pinned, 2);
        assert_eq!(r.len(), 1, "{r:?}");
        assert!(
            r[0].starts_with("processes[3].cpus: '1' — a deadline process may not be pinned") && r[0].contains("EPERM")
        );
        let run = Op::Run(Dist::Fixed(1_000));
        let forking =
            ProcessSpec { program: vec![Op::Repeat { times: Some(2), body: vec![Op::Fork(vec![run])] }], ..p.clone() };
        assert_eq!(
            refusals(0, &forking, 2),
            ["processes[0].program: fork — a deadline thread cannot fork (the host's sched_fork refuses it: EAGAIN)"]
        );
        let bare = ProcessSpec { dl: None, ..p };
        assert!(refusals(1, &bare, 2)[0].starts_with("processes[1].sched_policy: deadline without its reservation"));
    }
}

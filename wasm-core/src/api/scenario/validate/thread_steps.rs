//! The steps by which a running thread changes where it may run: `set_cpus`
//! (sched_setaffinity) against the machine's CPUs, and `set_cgroup` (a move
//! to another cgroup) against the scenario's cgroups.

use super::cgroup::CgroupNames;
use crate::api::scenario::diagnostic::Checker;
use crate::api::scenario::steps::OpFile;
use crate::api::text::escape_controls as shown;
use crate::machine::MAX_CPUS;
use crate::program::Op;
use crate::sched::policy::SchedPolicy;
use crate::topology::cpumask::CpuMask;

/// What the steps of one process are checked against.
pub(super) struct StepWorld<'a> {
    /// The machine's CPUs (None when the machine itself is wrong: lists are then only parsed).
    pub nr_cpus: Option<u32>,
    pub cgroups: &'a CgroupNames<'a>,
    /// The process is (or a step of it makes it) real-time or deadline.
    pub real_time: bool,
    /// The policy has the fair class's task groups (not O(1), not sched_ext).
    pub task_groups: bool,
}

/// Whether a process of this policy, with these steps, is ever a real-time or deadline thread.
pub(super) fn ever_real_time(policy: SchedPolicy, steps: &[OpFile]) -> bool {
    fn steps_rt(steps: &[OpFile]) -> bool {
        steps.iter().any(|op| {
            op.sched_setattr.as_deref().and_then(SchedPolicy::from_name).is_some_and(|p| p.is_rt() || p.is_dl())
                || op.body.as_deref().is_some_and(steps_rt)
                || op.fork.as_deref().is_some_and(steps_rt)
        })
    }
    policy.is_rt() || policy.is_dl() || steps_rt(steps)
}

/// A `set_cpus` step: "all" (the machine's CPUs) or a CPU list of at least one of them.
pub(super) fn set_cpus_of(list: &str, field: &str, world: &StepWorld, c: &mut Checker) -> Option<Op> {
    let at = format!("{field}.set_cpus");
    if world.real_time {
        // set_cpus_allowed_rt (rt.c) and the deadline class's root-domain bandwidth check (core.c's
        // __sched_setaffinity, dl_task_can_attach in 6.12) are not modelled.
        c.fail(
            &at,
            "an affinity change of a real-time or deadline thread is not modelled (its class's own \
             set_cpus_allowed and the deadline bandwidth check); only fair threads may use set_cpus",
        );
        return None;
    }
    let limit = world.nr_cpus.unwrap_or(MAX_CPUS);
    let mask = if list == "all" { Some(CpuMask::from_range(0..limit)) } else { CpuMask::parse_list(list, limit) };
    match mask {
        Some(mask) if !mask.is_empty() => Some(Op::SetCpus(mask)),
        _ => {
            c.fail(
                at,
                format!(
                    "must be \"all\" or a CPU list like \"0-3,8\" naming at least one of the machine's CPUs \
                     (0-{}); a mask with no online CPU is refused (sched_setaffinity fails with EINVAL)",
                    limit - 1
                ),
            );
            None
        }
    }
}

/// A `set_cgroup` step: "/" (the root) or the name of one of the scenario's cgroups.
pub(super) fn set_cgroup_of(name: &str, field: &str, world: &StepWorld, c: &mut Checker) -> Option<Op> {
    let at = format!("{field}.set_cgroup");
    if !world.task_groups {
        c.fail(at, "cgroups are the fair class's task groups: not modelled under policy 'o1' or 'ext'");
        return None;
    }
    if name == "/" {
        return Some(Op::SetCgroup(None));
    }
    match world.cgroups.first(name) {
        Some(i) => Some(Op::SetCgroup(Some(i as u32))),
        None => {
            c.fail(at, format!("no cgroup named '{}' in cgroups (\"/\" is the root)", shown(name)));
            None
        }
    }
}

//! Linux 6.12's group choice on the fork and exec slow path
//! (`sched_balance_find_dst_group`, fair.c 10861–11025): at each domain
//! `sched_balance_find_dst_cpu` walks, which group of the domain the new (or
//! exec'ing) task should go to, or none — stay in the local group and go
//! down a level. Each group is summed as it would be without the task
//! (`update_sg_wakeup_stats`, 10747–10801, over `cpu_load_without`,
//! `cpu_util_without`, `cpu_runnable_without`, `task_running_on_cpu` and
//! `idle_cpu_without`), so that an exec'ing task does not count against its
//! own CPU. The idlest remote group is kept by type, then within a type by
//! what matters to it (`update_pick_idlest`, 10803–10853); the local group
//! is left only for a clearly idler one.
//!
//! ```text
//!   each group from sd->groups:  no allowed CPU ─► skipped
//!                                summed without p ─► local: kept aside; else idler than the idlest? ─► idlest
//!   no idlest ─► stay             local skipped (affinity) ─► idlest
//!   local type < idlest type ─► stay     local type > idlest type ─► idlest
//!   same type:
//!     overloaded, fully_busy   NUMA: idlest + margin ≥ local ─► stay
//!                              idlest ≥ local + margin, or 100·local ≤ pct·idlest ─► stay
//!                              (margin = 1024·(pct − 100)/100, 174 at pct 117)
//!     has_spare                NUMA: this CPU on p's preferred node ─► stay; idlest's first CPU on it ─► idlest;
//!                                    |Δ idle CPUs| forgiven by adjust_numa_imbalance ─► stay
//!                              local idle CPUs ≥ idlest's ─► stay
//!     any other                stay (misfit: equal capacities never favour the idlest)
//! ```
//!
//! Unlike the periodic balancer's statistics (`group_stats::update_sg_lb_stats`,
//! avg_load only when overloaded), these compute avg_load for a fully busy
//! group as well: the fully busy comparison above reads it.
//!
//! What the model leaves out, having no such machines: asymmetric CPU
//! capacity (`SD_ASYM_CPUCAPACITY`: `group_misfit_task_load` stays 0, so no
//! group is misfit; the misfit comparisons by `max_capacity` are kept as
//! their outcome for equal capacities), and core scheduling
//! (`sched_group_cookie_match` always matches). `group_asym_packing` and
//! `group_smt_balance` are never set on this path (the kernel zeroes the
//! statistics and only the periodic balancer sets them). UTIL_EST is on, as
//! in 6.12, and every CPU's `arch_scale_cpu_capacity` is `SCHED_CAPACITY_SCALE`.

use super::group_stats::{group_classify, GroupFacts, GroupType, SgLbStats};
use super::imbalance::adjust_numa_imbalance;
use super::pelt::SCHED_CAPACITY_SCALE;

/// `NR_CPUS`, the build's largest CPU count, taken as the MAXSMP size of
/// distribution amd64 builds (the reference tree carries no `.config`). All
/// that matters is that it is above `machine::MAX_CPUS`: no modelled task can
/// then be allowed on NR_CPUS CPUs, and the `p->nr_cpus_allowed != NR_CPUS`
/// test (fair.c 10997) always holds.
pub const NR_CPUS: usize = 8192;

/// `scale_load_down(NICE_0_LOAD)`: a nice-0 task's weight, 1024.
const NICE_0_LOAD_DOWN: u64 = 1024;

/// The task's own share of the CPU it is accounted on: present only on
/// `task_cpu(p)`, and only if the task has PELT history
/// (`se.avg.last_update_time != 0`; a task being forked has none yet).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TaskHere {
    /// `task_h_load(p)`: its load as seen from the root runqueue.
    pub h_load: u64,
    /// `task_util(p)`: `se.avg.util_avg`.
    pub util: u64,
    /// `_task_util_est(p)`: `se.avg.util_est` without the UTIL_AVG_UNCHANGED flag.
    pub util_est: u64,
    /// `se.avg.runnable_avg`.
    pub runnable: u64,
    /// `task_on_rq_queued(p)` (an exec'ing task is: it is running).
    pub queued: bool,
    /// `rq->curr == p`.
    pub running: bool,
}

/// One CPU as `update_sg_wakeup_stats` reads it, by CPU index.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WakeupCpu {
    /// `cfs_rq->avg.load_avg` of the root runqueue (`cpu_load`).
    pub load: u64,
    /// `cfs_rq->avg.util_avg` of the root runqueue.
    pub util_avg: u64,
    /// `cfs_rq->avg.util_est` of the root runqueue.
    pub util_est: u64,
    /// `cfs_rq->avg.runnable_avg` of the root runqueue (`cpu_runnable`).
    pub runnable: u64,
    /// `rq->cfs.h_nr_queued`.
    pub h_nr_queued: u32,
    /// `rq->nr_running`, every class.
    pub nr_running: u32,
    /// `rq->curr == rq->idle`.
    pub curr_idle: bool,
    /// `rq->ttwu_pending`: a wakeup is on its way to it.
    pub ttwu_pending: bool,
    /// `cpu_to_node`.
    pub node: u32,
    /// In `p->cpus_ptr`.
    pub allowed: bool,
    /// The task's own share, if it is accounted here.
    pub task: Option<TaskHere>,
}

/// One group of the domain.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DstGroup {
    /// `sched_group_span`: CPU indices into the CPUs' slice.
    pub span: Vec<usize>,
    /// Capacity, weight and `sgc->imbalance` (`smt` is not read on this path).
    pub facts: GroupFacts,
}

/// What the choice reads of the domain.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DstDomain {
    pub imbalance_pct: u64,
    /// `SD_NUMA`.
    pub numa: bool,
    /// `sd->imb_numa_nr`.
    pub imb_numa_nr: u32,
}

/// `cpu_load_without` (fair.c 7341–7357): the CPU's load less the task's
/// hierarchical load where the task is accounted, not below 0. The kernel
/// holds the difference in an `unsigned int`, which is kept.
pub fn cpu_load_without(c: &WakeupCpu) -> u64 {
    match c.task {
        None => c.load,
        Some(t) => u64::from((c.load as u32).saturating_sub(t.h_load as u32)),
    }
}

/// `cpu_runnable_without` (fair.c 7364–7380): as `cpu_load_without`, with
/// the task's own runnable_avg (also in an `unsigned int`).
pub fn cpu_runnable_without(c: &WakeupCpu) -> u64 {
    match c.task {
        None => c.runnable,
        Some(t) => u64::from((c.runnable as u32).saturating_sub(t.runnable as u32)),
    }
}

/// `cpu_util_without` (fair.c 8200–8207), i.e. `cpu_util(cpu, p, -1, 0)`
/// (8105–8175) with p only where it is accounted: util_avg less the task's,
/// util_est less the task's if it is queued or running, the larger of the
/// two, capped at the CPU's capacity. Elsewhere: `cpu_util_cfs`.
pub fn cpu_util_without(c: &WakeupCpu) -> u64 {
    let (mut util, mut util_est) = (c.util_avg, c.util_est);
    if let Some(t) = c.task {
        util = util.saturating_sub(t.util);
        if t.queued || t.running {
            util_est = util_est.saturating_sub(t.util_est);
        }
    }
    util.max(util_est).min(SCHED_CAPACITY_SCALE)
}

/// `task_running_on_cpu` (fair.c 10702–10712): 1 where the task is
/// accounted and queued, else 0.
pub fn task_running_on_cpu(c: &WakeupCpu) -> u32 {
    u32::from(c.task.is_some_and(|t| t.queued))
}

/// `idle_cpu_without` (fair.c 10721–10738), to be asked only of a CPU with
/// no task left but p: idle if it runs the idle task or p, with no wakeup
/// pending.
pub fn idle_cpu_without(c: &WakeupCpu) -> bool {
    let curr_is_p = c.task.is_some_and(|t| t.running);
    (c.curr_idle || curr_is_p) && !c.ttwu_pending
}

/// `update_sg_wakeup_stats` (fair.c 10747–10801): the group's CPUs the task
/// may use, summed without the task, then typed (`group_classify`), with
/// avg_load for a fully busy or overloaded group. Capacity and weight are
/// the whole group's, allowed or not.
pub fn update_sg_wakeup_stats(sd: &DstDomain, group: &DstGroup, cpus: &[WakeupCpu]) -> SgLbStats {
    let mut sgs = SgLbStats::default();
    for c in group.span.iter().map(|&i| &cpus[i]).filter(|c| c.allowed) {
        sgs.group_load += cpu_load_without(c);
        sgs.group_util += cpu_util_without(c);
        sgs.group_runnable += cpu_runnable_without(c);
        let local = task_running_on_cpu(c);
        // A queued task is counted in both: the differences cannot go below 0.
        sgs.sum_h_nr_running += c.h_nr_queued - local;
        let nr_running = c.nr_running - local;
        sgs.sum_nr_running += nr_running;
        if nr_running == 0 && idle_cpu_without(c) {
            sgs.idle_cpus += 1;
        }
    }
    sgs.group_capacity = group.facts.capacity;
    sgs.group_weight = group.facts.weight;
    sgs.group_type = group_classify(sd.imbalance_pct, group.facts.sgc_imbalance, &sgs);
    if matches!(sgs.group_type, GroupType::FullyBusy | GroupType::Overloaded) {
        sgs.avg_load = sgs.group_load * SCHED_CAPACITY_SCALE / sgs.group_capacity;
    }
    sgs
}

/// The idlest statistics before any group (fair.c 10868–10871): overloaded,
/// at an avg_load of `UINT_MAX`, so that any group not heavier is idler.
pub fn no_idlest() -> SgLbStats {
    SgLbStats { avg_load: u64::from(u32::MAX), group_type: GroupType::Overloaded, ..SgLbStats::default() }
}

/// `update_pick_idlest` (fair.c 10803–10853): whether `sgs` is idler than
/// the idlest so far. A less busy type wins; within a type, the lower
/// avg_load (overloaded, fully busy), or more idle CPUs then the lower util
/// (has_spare); ties keep the earlier group. Imbalanced, asym_packing and
/// smt_balance never displace one of their own type; nor does misfit, the
/// model's groups having equal `max_capacity`.
pub fn update_pick_idlest(idlest: &SgLbStats, sgs: &SgLbStats) -> bool {
    if sgs.group_type != idlest.group_type {
        return sgs.group_type < idlest.group_type;
    }
    match sgs.group_type {
        GroupType::Overloaded | GroupType::FullyBusy => sgs.avg_load < idlest.avg_load,
        GroupType::Imbalanced | GroupType::AsymPacking | GroupType::SmtBalance => false,
        GroupType::MisfitTask => false,
        GroupType::HasSpare => {
            sgs.idle_cpus > idlest.idle_cpus
                || (sgs.idle_cpus == idlest.idle_cpus && sgs.group_util < idlest.group_util)
        }
    }
}

/// `sched_balance_find_dst_group` (fair.c 10861–11025): the index of the
/// group of `groups` (in ring order from `sd->groups`) to send the task to,
/// or None to stay local. `this_cpu` picks the local group (the group whose
/// span holds it; the last such, as in the kernel), `cpus` is every CPU of
/// the machine by index, and `numa_preferred_nid` is the task's NUMA
/// balancing preference (`NUMA_NO_NODE`: None).
pub fn find_dst_group(
    sd: &DstDomain,
    groups: &[DstGroup],
    cpus: &[WakeupCpu],
    this_cpu: usize,
    numa_preferred_nid: Option<u32>,
) -> Option<usize> {
    let mut idlest: Option<usize> = None;
    let mut idlest_sgs = no_idlest();
    let mut local: Option<usize> = None;
    let mut local_sgs = SgLbStats::default();
    for (g, group) in groups.iter().enumerate() {
        if !group.span.iter().any(|&i| cpus[i].allowed) {
            continue;
        }
        let sgs = update_sg_wakeup_stats(sd, group, cpus);
        if group.span.contains(&this_cpu) {
            local = Some(g);
            local_sgs = sgs;
        } else if update_pick_idlest(&idlest_sgs, &sgs) {
            idlest = Some(g);
            idlest_sgs = sgs;
        }
    }
    let idlest_group = idlest?;
    let Some(local_group) = local else {
        return Some(idlest_group);
    };
    if local_sgs.group_type != idlest_sgs.group_type {
        return (local_sgs.group_type > idlest_sgs.group_type).then_some(idlest_group);
    }
    let stay = match local_sgs.group_type {
        GroupType::Overloaded | GroupType::FullyBusy => {
            let imbalance = NICE_0_LOAD_DOWN * (sd.imbalance_pct - 100) / 100;
            (sd.numa && idlest_sgs.avg_load + imbalance >= local_sgs.avg_load)
                || idlest_sgs.avg_load >= local_sgs.avg_load + imbalance
                || 100 * local_sgs.avg_load <= sd.imbalance_pct * idlest_sgs.avg_load
        }
        GroupType::Imbalanced | GroupType::AsymPacking | GroupType::SmtBalance => true,
        // Equal max_capacity everywhere: the local group's is never below the idlest's.
        GroupType::MisfitTask => true,
        GroupType::HasSpare => {
            if sd.numa {
                if let Some(nid) = numa_preferred_nid {
                    if cpus[this_cpu].node == nid {
                        return None;
                    }
                    let first = groups[idlest_group].span.iter().min().copied();
                    if first.is_some_and(|i| cpus[i].node == nid) {
                        return Some(idlest_group);
                    }
                }
                let allowed_anywhere = cpus.iter().filter(|c| c.allowed).count();
                let mut imb_numa_nr = i64::from(sd.imb_numa_nr);
                if allowed_anywhere != NR_CPUS {
                    let local_allowed = groups[local_group].span.iter().filter(|&&i| cpus[i].allowed).count();
                    imb_numa_nr = imb_numa_nr.min(local_allowed as i64);
                }
                let imbalance = (i64::from(local_sgs.idle_cpus) - i64::from(idlest_sgs.idle_cpus)).abs();
                let dst_running = i64::from(local_sgs.sum_nr_running) + 1;
                if adjust_numa_imbalance(imbalance, dst_running, imb_numa_nr) == 0 {
                    return None;
                }
            }
            local_sgs.idle_cpus >= idlest_sgs.idle_cpus
        }
    };
    (!stay).then_some(idlest_group)
}

#[cfg(test)]
#[path = "find_dst_group_test.rs"]
mod find_dst_group_test;

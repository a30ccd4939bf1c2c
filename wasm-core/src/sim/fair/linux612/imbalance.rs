//! Whether 6.12's balancer moves anything at a domain, and how much of what
//! (`sched_balance_find_src_group`, `calculate_imbalance`,
//! `adjust_numa_imbalance`): given the local group's and the busiest group's
//! statistics, the decision matrix either declares the domain balanced — the
//! verdict names which rule said so, for the inspector — or computes an
//! imbalance in one of four currencies (`enum migration_type`): load, util,
//! tasks, or a misfit task.
//!
//! ```text
//!   busiest \ local   has_spare  fully_busy  imbalanced  overloaded
//!   has_spare         nr_idle    balanced    balanced    balanced
//!   fully_busy        nr_idle    nr_idle     balanced    balanced
//!   imbalanced        force      force       force       force
//!   overloaded        force      force       force       avg_load
//! ```
//!
//! Energy-aware scheduling is not modelled (no perf domains), so the
//! "not overutilized" exit never applies.

use super::group_stats::{sibling_imbalance, GroupType, SgLbStats};
use super::pelt::SCHED_CAPACITY_SCALE;

/// `enum migration_type`: what `detach_tasks` counts the imbalance in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MigrationType {
    Load,
    Util,
    Task,
    Misfit,
}

/// Why a domain was found balanced (`out_balanced`, or an imbalance of 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Balanced {
    /// No other group has a fair task to give.
    NoBusiest,
    /// The local group is of a busier type than the busiest.
    LocalBusier,
    /// Both overloaded, and the local average load is not below the busiest's.
    LocalNotLighter,
    /// Both overloaded, and the local average load is not below the domain's.
    LocalAboveAverage,
    /// Both overloaded, and the busiest is within imbalance_pct of the local.
    WithinImbalancePct,
    /// Nothing is overloaded and this CPU is busy: an idle CPU should pull.
    DestinationBusy,
    /// Nothing is overloaded and the idle CPUs differ by at most one.
    IdleCpusEven,
    /// The busiest group runs one fair task: none is waiting.
    NothingWaiting,
    /// The computed imbalance came to nothing (half a task rounds down).
    NoImbalance,
    /// An imbalance of this many between lightly loaded NUMA nodes is allowed
    /// (`adjust_numa_imbalance`); without the allowance some would move.
    NumaAllowance(u64),
}

/// The verdict at one domain.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    Balanced(Balanced),
    Imbalance { migration: MigrationType, amount: u64 },
}

/// What the decision reads of the domain beyond the two groups.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DomainView {
    pub imbalance_pct: u64,
    /// `SD_SHARE_LLC`: the domain's CPUs share a last-level cache.
    pub share_llc: bool,
    /// `SD_NUMA`.
    pub numa: bool,
    /// `sd->imb_numa_nr`: below this many tasks, a NUMA imbalance is allowed.
    pub imb_numa_nr: u32,
    /// `sds->prefer_sibling`: the child domain prefers spreading (SD_PREFER_SIBLING).
    pub prefer_sibling: bool,
    /// Σ group_load and Σ group_capacity over the domain's groups.
    pub total_load: u64,
    pub total_capacity: u64,
    /// Cores in the busiest and the local group (`sched_group::cores`).
    pub busiest_cores: i64,
    pub local_cores: i64,
    /// `SD_SHARE_CPUCAPACITY` of the local and the busiest group.
    pub local_smt: bool,
    pub busiest_smt: bool,
    /// The balancing CPU is idle (`env->idle`, CPU_IDLE or CPU_NEWLY_IDLE).
    pub dst_idle: bool,
}

/// NUMA_IMBALANCE_MIN: a pair of communicating tasks may stay on one node.
const NUMA_IMBALANCE_MIN: i64 = 2;

/// `adjust_numa_imbalance`: a lightly loaded destination node tolerates an
/// imbalance of up to two tasks.
pub fn adjust_numa_imbalance(imbalance: i64, dst_running: i64, imb_numa_nr: i64) -> i64 {
    if dst_running > imb_numa_nr || imbalance > NUMA_IMBALANCE_MIN {
        imbalance
    } else {
        0
    }
}

/// `sched_balance_find_src_group`'s verdict, `busiest` being None when no
/// group qualified. `local.avg_load` is filled in where the kernel does.
pub fn find_src_group_verdict(d: &DomainView, local: &mut SgLbStats, busiest: Option<&SgLbStats>) -> Verdict {
    let Some(busiest) = busiest else {
        return Verdict::Balanced(Balanced::NoBusiest);
    };
    let forced = matches!(busiest.group_type, GroupType::MisfitTask | GroupType::AsymPacking | GroupType::Imbalanced);
    if !forced {
        if let Some(why) = balanced_without_force(d, local, busiest) {
            return Verdict::Balanced(why);
        }
    }
    calculate_imbalance(d, local, busiest)
}

/// The checks between the busiest group's type and `force_balance`.
fn balanced_without_force(d: &DomainView, local: &SgLbStats, busiest: &SgLbStats) -> Option<Balanced> {
    if local.group_type > busiest.group_type {
        return Some(Balanced::LocalBusier);
    }
    if local.group_type == GroupType::Overloaded {
        if local.avg_load >= busiest.avg_load {
            return Some(Balanced::LocalNotLighter);
        }
        if local.avg_load >= domain_avg_load(d) {
            return Some(Balanced::LocalAboveAverage);
        }
        if 100 * busiest.avg_load <= d.imbalance_pct * local.avg_load {
            return Some(Balanced::WithinImbalancePct);
        }
    }
    let spread = d.prefer_sibling
        && local.group_type == GroupType::HasSpare
        && sibling_imbalance(d.dst_idle, d.busiest_cores, d.local_cores, busiest, local) > 1;
    if spread || busiest.group_type == GroupType::Overloaded {
        return None;
    }
    if !d.dst_idle {
        return Some(Balanced::DestinationBusy);
    }
    if busiest.group_type == GroupType::SmtBalance && d.local_smt != d.busiest_smt {
        return None;
    }
    if busiest.group_weight > 1 && local.idle_cpus <= busiest.idle_cpus + 1 {
        return Some(Balanced::IdleCpusEven);
    }
    (busiest.sum_h_nr_running == 1).then_some(Balanced::NothingWaiting)
}

/// `sds->avg_load`: the domain's load per capacity.
pub fn domain_avg_load(d: &DomainView) -> u64 {
    d.total_load * SCHED_CAPACITY_SCALE / d.total_capacity.max(1)
}

/// `calculate_imbalance`: how much to move, and in which currency.
pub fn calculate_imbalance(d: &DomainView, local: &mut SgLbStats, busiest: &SgLbStats) -> Verdict {
    let verdict = |migration, amount: i64| match amount {
        0 => Verdict::Balanced(Balanced::NoImbalance),
        a => Verdict::Imbalance { migration, amount: a.max(0) as u64 },
    };
    match busiest.group_type {
        // Without asymmetric capacity a misfit can only be a CPU of reduced capacity: move its load.
        GroupType::MisfitTask => return verdict(MigrationType::Load, busiest.group_misfit_task_load as i64),
        GroupType::AsymPacking => return verdict(MigrationType::Task, i64::from(busiest.sum_h_nr_running)),
        GroupType::SmtBalance | GroupType::Imbalanced => return verdict(MigrationType::Task, 1),
        _ => {}
    }
    if local.group_type == GroupType::HasSpare {
        return spare_local_imbalance(d, local, busiest, verdict);
    }
    if local.group_type < GroupType::Overloaded {
        // The local group will become overloaded: its avg_load is finally needed.
        local.avg_load = local.group_load * SCHED_CAPACITY_SCALE / local.group_capacity.max(1);
        if local.avg_load >= busiest.avg_load {
            return Verdict::Balanced(Balanced::LocalNotLighter);
        }
        if local.avg_load >= domain_avg_load(d) {
            return Verdict::Balanced(Balanced::LocalAboveAverage);
        }
    }
    // Both are (or will be) overloaded: bring both to the domain average, no further. Unsigned as the
    // kernel's: a busiest below the average (a heavier group of another type raised it) wraps, and the
    // local term is the smaller.
    let avg = domain_avg_load(d);
    let pull = busiest
        .avg_load
        .wrapping_sub(avg)
        .wrapping_mul(busiest.group_capacity)
        .min(avg.wrapping_sub(local.avg_load).wrapping_mul(local.group_capacity))
        / SCHED_CAPACITY_SCALE;
    verdict(MigrationType::Load, pull as i64)
}

/// `calculate_imbalance` when the local group has spare capacity.
fn spare_local_imbalance(
    d: &DomainView,
    local: &SgLbStats,
    busiest: &SgLbStats,
    verdict: impl Fn(MigrationType, i64) -> Verdict,
) -> Verdict {
    if busiest.group_type > GroupType::FullyBusy && !d.share_llc {
        // Fill the local spare capacity with util; a newly idle CPU at full util still pulls one task.
        let spare = local.group_capacity.max(local.group_util) - local.group_util;
        if d.dst_idle && spare == 0 {
            return verdict(MigrationType::Task, 1);
        }
        return verdict(MigrationType::Util, spare as i64);
    }
    let mut imbalance = if busiest.group_weight == 1 || d.prefer_sibling {
        sibling_imbalance(d.dst_idle, d.busiest_cores, d.local_cores, busiest, local)
    } else {
        (i64::from(local.idle_cpus) - i64::from(busiest.idle_cpus)).max(0)
    };
    if d.numa {
        let allowed = adjust_numa_imbalance(imbalance, i64::from(local.sum_nr_running) + 1, i64::from(d.imb_numa_nr));
        if allowed == 0 && imbalance >> 1 > 0 {
            return Verdict::Balanced(Balanced::NumaAllowance(imbalance as u64));
        }
        imbalance = allowed;
    }
    // Tasks to move: half the difference.
    verdict(MigrationType::Task, imbalance >> 1)
}

#[cfg(test)]
#[path = "imbalance_test.rs"]
mod imbalance_test;

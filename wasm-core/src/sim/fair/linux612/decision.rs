//! What a 6.12 balancing pass leaves for the inspector: the shared
//! `BalanceDecision` record, filled in 6.12's own terms. Each group's type
//! is one of the seven of `enum group_type`, the imbalance carries its
//! `enum migration_type`, and a pass that moved nothing says which rule of
//! `sched_balance_find_src_group` / `calculate_imbalance` (fair.c
//! 10955–11186) found the domain balanced, or why `detach_tasks` skipped
//! every task. The record is read only by people: nothing the pass decides
//! reads it back.

use super::group_stats::{GroupType as Type612, SgLbStats};
use super::imbalance::{Balanced, MigrationType};
use crate::balance::decision::{GroupStats, GroupType, Migration, Why};
use crate::topology::cpumask::CpuMask;
use std::sync::Arc;

/// 6.12's group type as the record names it.
pub fn group_type(t: Type612) -> GroupType {
    match t {
        Type612::HasSpare => GroupType::HasSpare,
        Type612::FullyBusy => GroupType::FullyBusy,
        Type612::MisfitTask => GroupType::MisfitTask,
        Type612::SmtBalance => GroupType::SmtBalance,
        Type612::AsymPacking => GroupType::AsymPacking,
        Type612::Imbalanced => GroupType::Imbalanced,
        Type612::Overloaded => GroupType::Overloaded,
    }
}

/// 6.12's migration type as the record names it.
pub fn migration(m: MigrationType) -> Migration {
    match m {
        MigrationType::Load => Migration::Load,
        MigrationType::Util => Migration::Util,
        MigrationType::Task => Migration::Task,
        MigrationType::Misfit => Migration::Misfit,
    }
}

/// One group's statistics for the record; `loads` are its CPUs' loads
/// (their spread is shown beside the group's sum).
pub fn group_stats(span: &Arc<CpuMask>, local: bool, s: &SgLbStats, loads: impl Iterator<Item = u64>) -> GroupStats {
    let (min_load, max_load) = loads.fold((u64::MAX, 0), |(lo, hi), l| (lo.min(l), hi.max(l)));
    GroupStats {
        span: span.clone(),
        local,
        avg_load: s.avg_load,
        group_load: s.group_load,
        sum_weighted_load: s.group_load,
        load_per_task: 0,
        group_capacity: s.group_capacity,
        group_usage: s.group_util,
        sum_nr_running: s.sum_nr_running,
        idle_cpus: s.idle_cpus,
        group_weight: s.group_weight,
        // group_has_capacity is false from fully_busy up.
        group_no_capacity: s.group_type >= Type612::FullyBusy,
        group_type: Some(group_type(s.group_type)),
        min_load: if min_load == u64::MAX { 0 } else { min_load },
        max_load,
    }
}

/// Why the domain was found balanced, with the numbers the rule compared.
pub fn why_balanced(
    b: Balanced,
    local: &SgLbStats,
    busiest: Option<&SgLbStats>,
    busiest_span: Option<&Arc<CpuMask>>,
    domain_avg: u64,
    imbalance_pct: u64,
) -> Why {
    let busiest_avg = busiest.map_or(0, |s| s.avg_load);
    match b {
        Balanced::NoBusiest => Why::NoGroupToGive,
        Balanced::LocalBusier => Why::LocalTypeBusier {
            local: group_type(local.group_type),
            busiest: group_type(busiest.map_or(Type612::HasSpare, |s| s.group_type)),
        },
        Balanced::LocalNotLighter => Why::LocalNotBelowBusiest {
            local: local.avg_load,
            busiest: busiest_avg,
            cpus: busiest_span.cloned().unwrap_or_default(),
        },
        Balanced::LocalAboveAverage => Why::LocalAtDomainAverage { local: local.avg_load, avg: domain_avg },
        Balanced::WithinImbalancePct => Why::WithinImbalancePct {
            busiest: busiest_avg,
            pct: imbalance_pct.saturating_sub(100),
            local: local.avg_load,
        },
        Balanced::DestinationBusy => Why::DestinationBusy,
        Balanced::IdleCpusEven => {
            Why::IdleCpusEven { busiest_idle: busiest.map_or(0, |s| s.idle_cpus), local_idle: local.idle_cpus }
        }
        Balanced::NothingWaiting => Why::NothingWaiting,
        Balanced::NoImbalance => Why::NoImbalance,
        Balanced::NumaAllowance(tasks) => Why::NumaAllowance { tasks },
    }
}

/// Why `detach_tasks` passed over the tasks it looked at, counted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Skips {
    /// Not allowed on the destination (affinity).
    pub pinned: u32,
    /// The source's running task.
    pub running: u32,
    /// Cache-hot (`task_hot`).
    pub hot: u32,
    /// Allowed, but weighing more than the imbalance left.
    pub over_imbalance: u32,
}

impl Skips {
    pub fn why(&self) -> Why {
        Why::Skipped {
            running: self.running,
            pinned: self.pinned,
            hot: self.hot,
            too_heavy: 0,
            over_imbalance: self.over_imbalance,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_group_record_keeps_the_612_type_and_the_spread_of_its_cpus() {
        let s = SgLbStats {
            group_load: 3072,
            group_capacity: 2048,
            group_util: 2048,
            sum_nr_running: 3,
            group_weight: 2,
            group_type: Type612::Overloaded,
            avg_load: 1536,
            ..SgLbStats::default()
        };
        let span = Arc::new(CpuMask::from_range(0..2));
        let g = group_stats(&span, false, &s, [1024, 2048].into_iter());
        assert_eq!(g.group_type, Some(GroupType::Overloaded));
        assert!(g.group_no_capacity);
        assert_eq!((g.min_load, g.max_load, g.group_usage), (1024, 2048, 2048));
        let idle = group_stats(&span, true, &SgLbStats::default(), std::iter::empty());
        assert_eq!((idle.group_type, idle.min_load, idle.group_no_capacity), (Some(GroupType::HasSpare), 0, false));
    }

    #[test]
    fn a_balanced_verdict_names_its_rule_and_numbers() {
        let local = SgLbStats { group_type: Type612::Overloaded, avg_load: 900, idle_cpus: 1, ..Default::default() };
        let busiest = SgLbStats { group_type: Type612::FullyBusy, avg_load: 950, idle_cpus: 0, ..Default::default() };
        let w = why_balanced(Balanced::LocalBusier, &local, Some(&busiest), None, 0, 117);
        assert_eq!(w.text(), "the local group is overloaded, a busier type than the busiest group's fully_busy");
        let w = why_balanced(Balanced::WithinImbalancePct, &local, Some(&busiest), None, 0, 117);
        assert_eq!(w, Why::WithinImbalancePct { busiest: 950, pct: 17, local: 900 });
        let w = why_balanced(Balanced::IdleCpusEven, &local, Some(&busiest), None, 0, 117);
        assert_eq!(w, Why::IdleCpusEven { busiest_idle: 0, local_idle: 1 });
        assert_eq!(why_balanced(Balanced::NoBusiest, &local, None, None, 0, 117), Why::NoGroupToGive);
    }
}

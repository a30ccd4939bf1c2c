//! The record of one load-balancing decision, for the inspector: the groups
//! and their statistics, the busiest choice, the imbalance, the tasks moved
//! or why none moved.

use super::IdleType;
use crate::time::{CpuId, Pid, SimTime};

/// A group's type as the record keeps it. 4.1 knows three (`enum
/// group_type` of fair.c 4.1: other, imbalanced, overloaded); 6.12 ranks
/// seven (`enum group_type` of fair.c 6.12, has_spare to overloaded). Each
/// generation's order is kept (4.1's balancer compares its three).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum GroupType {
    Other,
    HasSpare,
    FullyBusy,
    MisfitTask,
    SmtBalance,
    AsymPacking,
    Imbalanced,
    Overloaded,
}

impl GroupType {
    /// The kernel's word (`group_` dropped).
    pub fn as_str(self) -> &'static str {
        match self {
            GroupType::Other => "other",
            GroupType::HasSpare => "has_spare",
            GroupType::FullyBusy => "fully_busy",
            GroupType::MisfitTask => "misfit_task",
            GroupType::SmtBalance => "smt_balance",
            GroupType::AsymPacking => "asym_packing",
            GroupType::Imbalanced => "imbalanced",
            GroupType::Overloaded => "overloaded",
        }
    }
}

/// 6.12's `enum migration_type`: what the imbalance is counted in (4.1
/// counts load only and records none).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Migration {
    Load,
    Util,
    Task,
    Misfit,
}

impl Migration {
    /// The kernel's word (`migrate_` dropped).
    pub fn as_str(self) -> &'static str {
        match self {
            Migration::Load => "load",
            Migration::Util => "util",
            Migration::Task => "task",
            Migration::Misfit => "misfit",
        }
    }

    /// What the imbalance is counted in, in words.
    fn unit(self) -> &'static str {
        match self {
            Migration::Load => "load",
            Migration::Util => "utilization",
            Migration::Task => "tasks",
            Migration::Misfit => "a misfit task's load",
        }
    }
}

/// `struct sg_lb_stats`, plus the min/max CPU loads the Group Imbalance fix uses.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GroupStats {
    pub span: std::sync::Arc<crate::topology::cpumask::CpuMask>,
    pub local: bool,
    pub avg_load: u64,
    pub group_load: u64,
    pub sum_weighted_load: u64,
    pub load_per_task: u64,
    pub group_capacity: u64,
    pub group_usage: u64,
    pub sum_nr_running: u32,
    pub idle_cpus: u32,
    pub group_weight: u32,
    pub group_no_capacity: bool,
    pub group_type: Option<GroupType>,
    pub min_load: u64,
    pub max_load: u64,
}

/// Why a pass balanced nothing, as data: the app words it in each language,
/// `text()` is the English the CLI and the trace print.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Why {
    NoOtherGroup,
    BusiestHasNoTask {
        cpus: std::sync::Arc<crate::topology::cpumask::CpuMask>,
    },
    LocalNotBelowBusiest {
        local: u64,
        busiest: u64,
        cpus: std::sync::Arc<crate::topology::cpumask::CpuMask>,
    },
    LocalAtDomainAverage {
        local: u64,
        avg: u64,
    },
    BusiestNotOverloaded {
        busiest_idle: u32,
        local_idle: u32,
    },
    WithinImbalancePct {
        busiest: u64,
        pct: u64,
        local: u64,
    },
    SingleTask,
    /// detach_tasks skipped every candidate: how many for each reason
    /// (`too_heavy` is 4.1's test, twice the imbalance; `over_imbalance`
    /// 6.12's, the imbalance itself halved by each failure).
    Skipped {
        running: u32,
        pinned: u32,
        hot: u32,
        too_heavy: u32,
        over_imbalance: u32,
    },
    /// 6.12: no other group has a fair task to give.
    NoGroupToGive,
    /// 6.12: the local group's type ranks above the busiest group's.
    LocalTypeBusier {
        local: GroupType,
        busiest: GroupType,
    },
    /// 6.12: nothing is overloaded and this CPU is busy; an idle CPU pulls instead.
    DestinationBusy,
    /// 6.12: nothing is overloaded and the idle CPUs differ by at most one.
    IdleCpusEven {
        busiest_idle: u32,
        local_idle: u32,
    },
    /// 6.12: the busiest group runs one fair task, so none waits.
    NothingWaiting,
    /// 6.12: the imbalance computed comes to zero (half a task rounds down).
    NoImbalance,
    /// 6.12: an imbalance of up to two tasks between lightly loaded NUMA nodes is allowed (`adjust_numa_imbalance`).
    NumaAllowance {
        tasks: u64,
    },
}

impl Why {
    pub fn text(&self) -> String {
        match self {
            Why::NoOtherGroup => "there is no other group".into(),
            Why::BusiestHasNoTask { cpus } => {
                format!("the busiest group (CPUs {}) has no runnable task", cpus.to_list())
            }
            Why::LocalNotBelowBusiest { local, busiest, cpus } => format!(
                "the local group's average load {local} is not below the busiest group's {busiest} (CPUs {})",
                cpus.to_list()
            ),
            Why::LocalAtDomainAverage { local, avg } => {
                format!("the local group's average load {local} is already at or above the domain average {avg}")
            }
            Why::BusiestNotOverloaded { busiest_idle, local_idle } => format!(
                "the busiest group is not overloaded and has nearly as many idle CPUs ({busiest_idle} vs {local_idle} here)"
            ),
            Why::WithinImbalancePct { busiest, pct, local } => {
                format!("the busiest group's average load {busiest} is within {pct}% of the local {local}")
            }
            Why::SingleTask => "it runs a single task".into(),
            Why::Skipped { running, pinned, hot, too_heavy, over_imbalance } => {
                let mut parts = Vec::new();
                if *running > 0 {
                    parts.push(format!("{running} running"));
                }
                if *pinned > 0 {
                    parts.push(format!("{pinned} not allowed on this CPU"));
                }
                if *hot > 0 {
                    parts.push(format!("{hot} cache-hot"));
                }
                if *too_heavy > 0 {
                    parts.push(format!("{too_heavy} heavier than twice the imbalance"));
                }
                if *over_imbalance > 0 {
                    parts.push(format!("{over_imbalance} heavier than the imbalance"));
                }
                if parts.is_empty() {
                    "no task could be moved".into()
                } else {
                    format!("tasks skipped: {}", parts.join(", "))
                }
            }
            Why::NoGroupToGive => "no other group has a fair task to give".into(),
            Why::LocalTypeBusier { local, busiest } => format!(
                "the local group is {}, a busier type than the busiest group's {}",
                local.as_str(),
                busiest.as_str()
            ),
            Why::DestinationBusy => "no group is overloaded and this CPU is busy, so an idle CPU is left to pull".into(),
            Why::IdleCpusEven { busiest_idle, local_idle } => format!(
                "no group is overloaded and the idle CPUs differ by at most one ({busiest_idle} in the busiest group vs {local_idle} here)"
            ),
            Why::NothingWaiting => "the busiest group runs a single task, so none waits".into(),
            Why::NoImbalance => "the imbalance comes to zero".into(),
            Why::NumaAllowance { tasks } => {
                format!("an imbalance of {tasks} task(s) between lightly loaded NUMA nodes is allowed")
            }
        }
    }
}

/// How a load_balance call ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Another CPU of the local group is the designated balancer.
    NotDesignated { balance_cpu: CpuId },
    /// find_busiest_group found nothing worth balancing; the reason in words.
    Balanced { why: Why },
    /// No runqueue of the busiest group qualified.
    NoBusiestQueue,
    /// Tasks moved.
    Moved { tasks: Vec<Pid>, from: CpuId },
    /// Nothing could move; the reason in words.
    NothingMoved { from: CpuId, why: Why },
    /// Failed too often: the busiest CPU's stopper pushes its running task here.
    ActiveBalance { from: CpuId },
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BalanceDecision {
    pub at: SimTime,
    pub cpu: CpuId,
    /// The domain's level (its name is written only when a reader asks).
    pub level: crate::topology::domains::LevelKind,
    pub idle: IdleType,
    pub groups: Vec<GroupStats>,
    pub busiest_group: Option<usize>,
    /// sds.avg_load: the domain-wide average.
    pub domain_avg_load: u64,
    pub imbalance: u64,
    /// 6.12: what the imbalance is counted in.
    pub migration: Option<Migration>,
    pub busiest_cpu: Option<CpuId>,
    pub outcome: Outcome,
}

impl BalanceDecision {
    /// One sentence for people, next to the numbers.
    pub fn explain(&self) -> String {
        let who = format!("CPU {} balancing at {} ({})", self.cpu, self.level, self.idle.as_str());
        match &self.outcome {
            Outcome::NotDesignated { balance_cpu } => {
                format!("{who}: not its turn — CPU {balance_cpu} is the designated balancer of its group")
            }
            Outcome::Balanced { why } => format!("{who}: balanced, because {}", why.text()),
            Outcome::NoBusiestQueue => format!("{who}: no runqueue in the busiest group could give load"),
            Outcome::Moved { tasks, from } => {
                let counted = self.migration.map_or(String::new(), |m| format!(", counted in {}", m.unit()));
                format!(
                    "{who}: pulled {} task(s) from CPU {from} to cover an imbalance of {}{counted}",
                    tasks.len(),
                    self.imbalance
                )
            }
            Outcome::NothingMoved { from, why } => {
                format!("{who}: found CPU {from} busiest but moved nothing: {}", why.text())
            }
            Outcome::ActiveBalance { from } => {
                format!("{who}: failed repeatedly, so CPU {from}'s stopper pushes its running task here")
            }
        }
    }
}

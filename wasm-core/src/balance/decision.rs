//! The record of one load-balancing decision, for the inspector: the groups
//! and their statistics, the busiest choice, the imbalance, the tasks moved
//! or why none moved.

use super::IdleType;
use crate::time::{CpuId, Pid, SimTime};

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum GroupType {
    Other,
    Imbalanced,
    Overloaded,
}

impl GroupType {
    pub fn as_str(self) -> &'static str {
        match self {
            GroupType::Other => "other",
            GroupType::Imbalanced => "imbalanced",
            GroupType::Overloaded => "overloaded",
        }
    }
}

/// `struct sg_lb_stats`, plus the min/max CPU loads the Group Imbalance fix uses.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GroupStats {
    pub span: crate::topology::cpumask::CpuMask,
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

/// How a load_balance call ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Another CPU of the local group is the designated balancer.
    NotDesignated { balance_cpu: CpuId },
    /// find_busiest_group found nothing worth balancing; the reason in words.
    Balanced { why: String },
    /// No runqueue of the busiest group qualified.
    NoBusiestQueue,
    /// Tasks moved.
    Moved { tasks: Vec<Pid>, from: CpuId },
    /// Nothing could move; the reason in words.
    NothingMoved { from: CpuId, why: String },
    /// Failed too often: the busiest CPU's stopper pushes its running task here.
    ActiveBalance { from: CpuId },
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BalanceDecision {
    pub at: SimTime,
    pub cpu: CpuId,
    pub level: String,
    pub idle: IdleType,
    pub groups: Vec<GroupStats>,
    pub busiest_group: Option<usize>,
    /// sds.avg_load: the domain-wide average.
    pub domain_avg_load: u64,
    pub imbalance: u64,
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
            Outcome::Balanced { why } => format!("{who}: balanced, because {why}"),
            Outcome::NoBusiestQueue => format!("{who}: no runqueue in the busiest group could give load"),
            Outcome::Moved { tasks, from } => {
                format!(
                    "{who}: pulled {} task(s) from CPU {from} to cover an imbalance of {}",
                    tasks.len(),
                    self.imbalance
                )
            }
            Outcome::NothingMoved { from, why } => format!("{who}: found CPU {from} busiest but moved nothing: {why}"),
            Outcome::ActiveBalance { from } => {
                format!("{who}: failed repeatedly, so CPU {from}'s stopper pushes its running task here")
            }
        }
    }
}

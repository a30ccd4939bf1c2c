//! The balancing-decision inspector's data: the recent load_balance calls
//! with their group statistics, busiest choice, imbalance, outcome and a
//! sentence explaining it.

use crate::balance::decision::{BalanceDecision, Outcome, Why};
use crate::sim::Simulator;
use crate::time::{CpuId, Pid};
use crate::topology::cpumask::CpuMask;
use serde::Serialize;

/// A CPU set as it crosses to the page: a bitmap of 32-bit words, CPU `c` at bit `c % 32` of word `c / 32`
/// (32 bits, so every word is an exact JS number). A newtype serializes as its array. The page reads it with
/// `src/views/cpuset.ts`.
#[derive(Serialize, Debug, PartialEq)]
#[cfg_attr(any(test, feature = "gen"), derive(ts_rs::TS))]
pub struct CpuBits(pub Vec<u32>);

pub fn cpu_bits(mask: &CpuMask) -> CpuBits {
    let mut out = Vec::with_capacity(mask.words().len() * 2);
    for &w in mask.words() {
        out.extend_from_slice(&[w as u32, (w >> 32) as u32]);
    }
    while out.last() == Some(&0) {
        out.pop();
    }
    CpuBits(out)
}

#[derive(Serialize)]
#[cfg_attr(any(test, feature = "gen"), derive(ts_rs::TS))]
pub struct GroupStatsView {
    /// The group's span.
    pub cpus: CpuBits,
    pub local: bool,
    pub avg_load: u64,
    pub group_load: u64,
    pub group_capacity: u64,
    pub sum_nr_running: u32,
    pub idle_cpus: u32,
    pub load_per_task: u64,
    /// `group_util` (6.12) or `group_usage` (4.1): the CPUs' utilization summed.
    pub util: u64,
    /// 4.1: other, imbalanced, overloaded; 6.12: has_spare, fully_busy, misfit_task, smt_balance,
    /// asym_packing, imbalanced, overloaded.
    pub group_type: &'static str,
    pub min_load: u64,
    pub max_load: u64,
}

#[derive(Serialize)]
#[cfg_attr(any(test, feature = "gen"), derive(ts_rs::TS))]
pub struct DecisionView {
    /// The kernel generation whose balancer decided ("4.1" or "6.12"): each has its own group types.
    pub kernel: &'static str,
    pub t_ns: u64,
    pub cpu: CpuId,
    pub level: String,
    pub idle: &'static str,
    pub groups: Vec<GroupStatsView>,
    pub busiest_group: Option<usize>,
    pub domain_avg_load: u64,
    pub imbalance: u64,
    /// 6.12: what the imbalance is counted in (load, util, task, misfit); 4.1 has none.
    pub migration: Option<&'static str>,
    pub busiest_cpu: Option<CpuId>,
    pub outcome: &'static str,
    pub moved: Vec<Pid>,
    /// The CPU tasks came or would have come from (moved, nothing-moved, active-balance).
    pub from_cpu: Option<CpuId>,
    /// The group's designated balancer (not-designated).
    pub designated_cpu: Option<CpuId>,
    /// Why nothing moved (balanced, nothing-moved), as data the app words in each language.
    pub why: Option<WhyView>,
    /// The same decision in one English sentence (CLI, trace export).
    pub explanation: String,
}

/// `Why` for the app: a code and its numbers.
#[derive(Serialize)]
#[cfg_attr(any(test, feature = "gen"), derive(ts_rs::TS))]
#[serde(tag = "code", rename_all = "kebab-case")]
pub enum WhyView {
    NoOtherGroup,
    BusiestHasNoTask { cpus: CpuBits },
    LocalNotBelowBusiest { local: u64, busiest: u64, cpus: CpuBits },
    LocalAtDomainAverage { local: u64, avg: u64 },
    BusiestNotOverloaded { busiest_idle: u32, local_idle: u32 },
    WithinImbalancePct { busiest: u64, pct: u64, local: u64 },
    SingleTask,
    Skipped { running: u32, pinned: u32, hot: u32, too_heavy: u32, over_imbalance: u32 },
    NoGroupToGive,
    LocalTypeBusier { local: &'static str, busiest: &'static str },
    DestinationBusy,
    IdleCpusEven { busiest_idle: u32, local_idle: u32 },
    NothingWaiting,
    NoImbalance,
    NumaAllowance { tasks: u64 },
}

fn why_view(w: &Why) -> WhyView {
    match w.clone() {
        Why::NoOtherGroup => WhyView::NoOtherGroup,
        Why::BusiestHasNoTask { cpus } => WhyView::BusiestHasNoTask { cpus: cpu_bits(&cpus) },
        Why::LocalNotBelowBusiest { local, busiest, cpus } => {
            WhyView::LocalNotBelowBusiest { local, busiest, cpus: cpu_bits(&cpus) }
        }
        Why::LocalAtDomainAverage { local, avg } => WhyView::LocalAtDomainAverage { local, avg },
        Why::BusiestNotOverloaded { busiest_idle, local_idle } => {
            WhyView::BusiestNotOverloaded { busiest_idle, local_idle }
        }
        Why::WithinImbalancePct { busiest, pct, local } => WhyView::WithinImbalancePct { busiest, pct, local },
        Why::SingleTask => WhyView::SingleTask,
        Why::Skipped { running, pinned, hot, too_heavy, over_imbalance } => {
            WhyView::Skipped { running, pinned, hot, too_heavy, over_imbalance }
        }
        Why::NoGroupToGive => WhyView::NoGroupToGive,
        Why::LocalTypeBusier { local, busiest } => {
            WhyView::LocalTypeBusier { local: local.as_str(), busiest: busiest.as_str() }
        }
        Why::DestinationBusy => WhyView::DestinationBusy,
        Why::IdleCpusEven { busiest_idle, local_idle } => WhyView::IdleCpusEven { busiest_idle, local_idle },
        Why::NothingWaiting => WhyView::NothingWaiting,
        Why::NoImbalance => WhyView::NoImbalance,
        Why::NumaAllowance { tasks } => WhyView::NumaAllowance { tasks },
    }
}

fn view(d: &BalanceDecision, kernel: &'static str) -> DecisionView {
    let (outcome, moved) = match &d.outcome {
        Outcome::NotDesignated { .. } => ("not-designated", vec![]),
        Outcome::Balanced { .. } => ("balanced", vec![]),
        Outcome::NoBusiestQueue => ("no-busiest-queue", vec![]),
        Outcome::Moved { tasks, .. } => ("moved", tasks.clone()),
        Outcome::NothingMoved { .. } => ("nothing-moved", vec![]),
        Outcome::ActiveBalance { .. } => ("active-balance", vec![]),
    };
    DecisionView {
        kernel,
        t_ns: d.at.ns(),
        cpu: d.cpu,
        level: d.level.name(),
        idle: d.idle.as_str(),
        groups: d
            .groups
            .iter()
            .map(|g| GroupStatsView {
                cpus: cpu_bits(&g.span),
                local: g.local,
                avg_load: g.avg_load,
                group_load: g.group_load,
                group_capacity: g.group_capacity,
                sum_nr_running: g.sum_nr_running,
                idle_cpus: g.idle_cpus,
                load_per_task: g.load_per_task,
                util: g.group_usage,
                group_type: g.group_type.map_or("-", |t| t.as_str()),
                min_load: g.min_load,
                max_load: g.max_load,
            })
            .collect(),
        busiest_group: d.busiest_group,
        domain_avg_load: d.domain_avg_load,
        imbalance: d.imbalance,
        migration: d.migration.map(|m| m.as_str()),
        busiest_cpu: d.busiest_cpu,
        outcome,
        moved,
        from_cpu: match &d.outcome {
            Outcome::Moved { from, .. } | Outcome::NothingMoved { from, .. } | Outcome::ActiveBalance { from } => {
                Some(*from)
            }
            _ => None,
        },
        designated_cpu: match &d.outcome {
            Outcome::NotDesignated { balance_cpu } => Some(*balance_cpu),
            _ => None,
        },
        why: match &d.outcome {
            Outcome::Balanced { why } | Outcome::NothingMoved { why, .. } => Some(why_view(why)),
            _ => None,
        },
        explanation: d.explain(),
    }
}

/// The `n` most recent decisions (oldest first); `skip_not_designated`
/// leaves out the calls that stopped because another CPU balances the group.
pub fn recent_decisions(sim: &Simulator, n: usize, skip_not_designated: bool) -> Vec<DecisionView> {
    let kernel = crate::api::scenario::validate::kernel_name(sim.kernel());
    let mut out: Vec<DecisionView> = sim
        .decisions()
        .iter()
        .rev()
        .filter(|d| !(skip_not_designated && matches!(d.outcome, Outcome::NotDesignated { .. })))
        .take(n)
        .map(|d| view(d, kernel))
        .collect();
    out.reverse();
    out
}

/// A wakeup or fork placement, for the topology view's highlight.
#[derive(Serialize)]
#[cfg_attr(any(test, feature = "gen"), derive(ts_rs::TS))]
pub struct PlacementView {
    pub t_ns: u64,
    pub pid: Pid,
    pub task: String,
    #[cfg_attr(any(test, feature = "gen"), ts(as = "crate::balance::placement::PlaceKind"))]
    pub kind: &'static str,
    pub prev_cpu: CpuId,
    pub waker_cpu: CpuId,
    pub chosen_cpu: CpuId,
    pub path: &'static str,
    /// The CPUs the placement looked at.
    pub considered: CpuBits,
}

/// A placement's kind as the app reads it (its TypeScript type lists these words).
pub fn place_kind_word(kind: crate::balance::placement::PlaceKind) -> &'static str {
    use crate::balance::placement::PlaceKind;
    match kind {
        PlaceKind::Wakeup => "wakeup",
        PlaceKind::SyncWakeup => "sync-wakeup",
        PlaceKind::Fork => "fork",
        PlaceKind::Exec => "exec",
    }
}

/// The `n` most recent placements, oldest first.
pub fn recent_placements(sim: &Simulator, n: usize) -> Vec<PlacementView> {
    let all = sim.placements();
    all.iter()
        .skip(all.len().saturating_sub(n))
        .map(|p| PlacementView {
            t_ns: p.at.ns(),
            pid: p.pid,
            task: sim.tasks()[p.pid.idx()].name.clone(),
            kind: place_kind_word(p.kind),
            prev_cpu: p.prev,
            waker_cpu: p.waker,
            chosen_cpu: p.chosen,
            path: p.path.as_str(),
            considered: cpu_bits(&p.considered),
        })
        .collect()
}

#[cfg(test)]
#[test]
fn cpu_bits_are_32_bit_words_without_trailing_zeros() {
    let m = CpuMask::from_cpus([0, 31, 32, 63, 64].map(CpuId));
    assert_eq!(cpu_bits(&m).0, vec![0x8000_0001, 0x8000_0001, 1]);
    assert_eq!(cpu_bits(&CpuMask::from_cpus([CpuId(3)])).0, vec![8]);
    assert!(cpu_bits(&CpuMask::new()).0.is_empty());
}

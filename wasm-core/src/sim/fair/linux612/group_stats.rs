//! The 6.12 balancer's view of a sched group (fair.c since the 5.5 rework):
//! its statistics (`update_sg_lb_stats`), its type (`group_classify`, over
//! `group_is_overloaded` and `group_has_capacity`), and which group is the
//! busiest (`update_sd_pick_busiest`); with `sibling_imbalance`, the SMT
//! balance that 6.6 added. 4.1 compared groups by average load alone; 6.12
//! first ranks them by type, and compares within a type by what matters to
//! it (load when overloaded, idle CPUs and tasks when there is spare room).
//!
//! ```text
//!   has_spare < fully_busy < misfit_task < smt_balance < asym_packing < imbalanced < overloaded
//! ```
//!
//! Machine features the model does not have, and so never classifies:
//! asymmetric CPU capacity (misfit tasks, `SD_ASYM_CPUCAPACITY`), CPU
//! priorities (`SD_ASYM_PACKING`), capacity taken by IRQ or RT pressure
//! (`sched_reduced_capacity`), energy-aware overutilization.

/// `enum group_type`, in the kernel's order (a later type is busier).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Default)]
pub enum GroupType {
    #[default]
    HasSpare,
    FullyBusy,
    MisfitTask,
    SmtBalance,
    AsymPacking,
    Imbalanced,
    Overloaded,
}

/// `struct sg_lb_stats`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SgLbStats {
    /// Load per capacity, computed only for an overloaded group.
    pub avg_load: u64,
    pub group_load: u64,
    pub group_capacity: u64,
    pub group_util: u64,
    pub group_runnable: u64,
    pub sum_nr_running: u32,
    pub sum_h_nr_running: u32,
    pub idle_cpus: u32,
    pub group_weight: u32,
    pub group_type: GroupType,
    pub group_asym_packing: bool,
    pub group_smt_balance: bool,
    pub group_misfit_task_load: u64,
}

impl SgLbStats {
    /// `init_sd_lb_stats`'s busiest_stat before any group: the least busy
    /// type, and more idle CPUs than any group has.
    pub fn no_busiest() -> Self {
        SgLbStats { idle_cpus: u32::MAX, group_type: GroupType::HasSpare, ..SgLbStats::default() }
    }
}

/// What `update_sg_lb_stats` reads of one CPU of the group.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CpuSample {
    /// `cpu_load`: the root runqueue's load_avg.
    pub load: u64,
    /// `cpu_util_cfs`.
    pub util: u64,
    /// `cpu_runnable`.
    pub runnable: u64,
    /// `rq->cfs.h_nr_queued`.
    pub h_nr_queued: u32,
    /// `rq->nr_running`, every class.
    pub nr_running: u32,
    /// `idle_cpu`.
    pub idle: bool,
}

/// What a group is beyond its CPUs' figures.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GroupFacts {
    /// `sgc->capacity`.
    pub capacity: u64,
    /// `group->group_weight`: its CPUs.
    pub weight: u32,
    /// `SD_SHARE_CPUCAPACITY` in the group's flags: its CPUs are SMT siblings.
    pub smt: bool,
    /// `sg_imbalanced`: pinned tasks kept an earlier pass from balancing it.
    pub sgc_imbalance: bool,
}

/// `group_has_capacity`: fewer tasks than CPUs, or util comfortably below
/// capacity (by imbalance_pct) with runnable not beyond it.
pub fn group_has_capacity(imbalance_pct: u64, sgs: &SgLbStats) -> bool {
    if sgs.sum_nr_running < sgs.group_weight {
        return true;
    }
    if sgs.group_capacity * imbalance_pct < sgs.group_runnable * 100 {
        return false;
    }
    sgs.group_capacity * 100 > sgs.group_util * imbalance_pct
}

/// `group_is_overloaded`: more tasks than CPUs, and util or runnable beyond
/// capacity by imbalance_pct.
pub fn group_is_overloaded(imbalance_pct: u64, sgs: &SgLbStats) -> bool {
    if sgs.sum_nr_running <= sgs.group_weight {
        return false;
    }
    sgs.group_capacity * 100 < sgs.group_util * imbalance_pct
        || sgs.group_capacity * imbalance_pct < sgs.group_runnable * 100
}

/// `group_classify`: the busiest type that holds, in the kernel's order of tests.
pub fn group_classify(imbalance_pct: u64, sgc_imbalance: bool, sgs: &SgLbStats) -> GroupType {
    if group_is_overloaded(imbalance_pct, sgs) {
        GroupType::Overloaded
    } else if sgc_imbalance {
        GroupType::Imbalanced
    } else if sgs.group_asym_packing {
        GroupType::AsymPacking
    } else if sgs.group_smt_balance {
        GroupType::SmtBalance
    } else if sgs.group_misfit_task_load != 0 {
        GroupType::MisfitTask
    } else if !group_has_capacity(imbalance_pct, sgs) {
        GroupType::FullyBusy
    } else {
        GroupType::HasSpare
    }
}

/// `smt_balance`: an idle destination and an SMT group running more than
/// one fair task: one of them would run better on a core of its own.
pub fn smt_balance(dst_idle: bool, group: &GroupFacts, sgs: &SgLbStats) -> bool {
    dst_idle && group.smt && sgs.sum_h_nr_running > 1
}

/// `update_sg_lb_stats`: sums the group's CPUs (those of the balancing
/// environment), then types it. Also returns whether a CPU ran more than
/// one task (`sg_overloaded`, which sets the root domain's overload flag).
pub fn update_sg_lb_stats(
    cpus: &[CpuSample],
    group: &GroupFacts,
    local: bool,
    dst_idle: bool,
    imbalance_pct: u64,
) -> (SgLbStats, bool) {
    let mut sgs = SgLbStats::default();
    let mut overloaded = false;
    for c in cpus {
        sgs.group_load += c.load;
        sgs.group_util += c.util;
        sgs.group_runnable += c.runnable;
        sgs.sum_h_nr_running += c.h_nr_queued;
        sgs.sum_nr_running += c.nr_running;
        overloaded |= c.nr_running > 1;
        if c.nr_running == 0 && c.idle {
            sgs.idle_cpus += 1;
        }
        // A misfit task needs asymmetric capacity or capacity pressure: neither is modelled.
    }
    sgs.group_capacity = group.capacity;
    sgs.group_weight = group.weight;
    // group_asym_packing needs SD_ASYM_PACKING: never set here.
    if !local && smt_balance(dst_idle, group, &sgs) {
        sgs.group_smt_balance = true;
    }
    sgs.group_type = group_classify(imbalance_pct, group.sgc_imbalance, &sgs);
    if sgs.group_type == GroupType::Overloaded {
        sgs.avg_load = sgs.group_load * super::pelt::SCHED_CAPACITY_SCALE / sgs.group_capacity;
    }
    (sgs, overloaded)
}

/// `update_sd_pick_busiest`: whether `sg` is busier than the busiest so far
/// (`busiest` with its facts, or none yet: `SgLbStats::no_busiest`).
pub fn update_sd_pick_busiest(
    sgs: &SgLbStats,
    sg: &GroupFacts,
    busiest: &SgLbStats,
    busiest_group: Option<&GroupFacts>,
) -> bool {
    if sgs.sum_h_nr_running == 0 {
        return false;
    }
    if sgs.group_type != busiest.group_type {
        return sgs.group_type > busiest.group_type;
    }
    let has_spare = || {
        // Fewest idle CPUs, then most tasks.
        !(sgs.idle_cpus > busiest.idle_cpus
            || (sgs.idle_cpus == busiest.idle_cpus && sgs.sum_nr_running <= busiest.sum_nr_running))
    };
    let fully_busy = || {
        if sgs.avg_load < busiest.avg_load {
            return false;
        }
        // Equal: an SMT busiest keeps its place (it needs the help more).
        !(sgs.avg_load == busiest.avg_load && busiest_group.is_some_and(|b| b.smt))
    };
    match sgs.group_type {
        GroupType::Overloaded => sgs.avg_load > busiest.avg_load,
        // No way to prefer one imbalanced group to another: the first stays.
        GroupType::Imbalanced => false,
        // CPU priorities are not modelled (no group is ever of this type here).
        GroupType::AsymPacking => false,
        GroupType::MisfitTask => sgs.group_misfit_task_load > busiest.group_misfit_task_load,
        GroupType::SmtBalance if sgs.idle_cpus != 0 || busiest.idle_cpus != 0 => has_spare(),
        GroupType::SmtBalance | GroupType::FullyBusy => fully_busy(),
        GroupType::HasSpare => {
            // Do not empty an SMT core running one task for a group of plain CPUs.
            if busiest_group.is_some_and(|b| b.smt != sg.smt) {
                return !(sg.smt && sgs.sum_h_nr_running <= 1);
            }
            has_spare()
        }
    }
}

/// `sibling_imbalance`: with an idle destination, the tasks to move so that
/// both groups run the same number per core (rounded), at least 2 toward an
/// empty group when the busiest runs more than one.
pub fn sibling_imbalance(
    dst_idle: bool,
    busiest_cores: i64,
    local_cores: i64,
    busiest: &SgLbStats,
    local: &SgLbStats,
) -> i64 {
    if !dst_idle || busiest.sum_nr_running == 0 {
        return 0;
    }
    let (b, l) = (i64::from(busiest.sum_nr_running), i64::from(local.sum_nr_running));
    if busiest_cores == local_cores {
        return (b - l).max(0);
    }
    let imbalance = (local_cores * b - busiest_cores * l).max(0);
    let imbalance = (2 * imbalance + local_cores + busiest_cores) / (local_cores + busiest_cores);
    if imbalance <= 1 && l == 0 && b > 1 {
        return 2;
    }
    imbalance
}

#[cfg(test)]
#[path = "group_stats_test.rs"]
mod group_stats_test;

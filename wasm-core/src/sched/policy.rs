//! A task's scheduling policy (`sched_setscheduler`'s `SCHED_*`) and the
//! kernel's priority scale, as include/uapi/linux/sched.h and
//! include/linux/sched/prio.h write them: 0–99 real-time (lower is more
//! urgent, `MAX_RT_PRIO - 1 - rt_priority`), 100–139 the nice levels.
//! The policy decides the task's class (`sched_class` in `__setscheduler`,
//! core.c 3449–3455 in 4.1): FIFO and RR the real-time class, the rest fair.

/// `WEIGHT_IDLEPRIO`, `WMULT_IDLEPRIO` (sched.h): a SCHED_IDLE task's load weight and its inverse.
pub const WEIGHT_IDLEPRIO: u64 = 3;
pub const WMULT_IDLEPRIO: u64 = 1_431_655_765;

/// `sysctl_sched_rt_period` and `sysctl_sched_rt_runtime` (1 s and 0.95 s in
/// 4.1, ns): the real-time bandwidth, which also caps the deadline class's
/// admission (`def_dl_bandwidth` is set from them, core.c 7858–7859).
pub const RT_PERIOD_NS: u64 = 1_000_000_000;
pub const RT_RUNTIME_NS: u64 = 950_000_000;

/// `MAX_RT_PRIO`: the number of real-time priority levels.
pub const MAX_RT_PRIO: u32 = 100;
/// `MAX_USER_RT_PRIO - 1`: the highest `rt_priority` a user may ask for.
pub const MAX_RT_PRIORITY: u32 = 99;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum SchedPolicy {
    /// SCHED_NORMAL (SCHED_OTHER).
    #[default]
    Normal,
    /// SCHED_BATCH.
    Batch,
    /// SCHED_IDLE.
    Idle,
    /// SCHED_FIFO.
    Fifo,
    /// SCHED_RR.
    Rr,
    /// SCHED_DEADLINE.
    Deadline,
}

impl SchedPolicy {
    /// The name a scenario writes (`sched_policy`).
    pub fn name(self) -> &'static str {
        match self {
            SchedPolicy::Normal => "normal",
            SchedPolicy::Batch => "batch",
            SchedPolicy::Idle => "idle",
            SchedPolicy::Fifo => "fifo",
            SchedPolicy::Rr => "rr",
            SchedPolicy::Deadline => "deadline",
        }
    }

    pub fn from_name(name: &str) -> Option<SchedPolicy> {
        Some(match name {
            "normal" | "other" => SchedPolicy::Normal,
            "batch" => SchedPolicy::Batch,
            "idle" => SchedPolicy::Idle,
            "fifo" => SchedPolicy::Fifo,
            "rr" => SchedPolicy::Rr,
            "deadline" => SchedPolicy::Deadline,
            _ => return None,
        })
    }

    /// Every name `from_name` takes, in the order a schema lists them.
    pub const NAMES: &'static [&'static str] = &["normal", "batch", "idle", "fifo", "rr", "deadline"];

    /// `rt_policy`: the real-time class runs it.
    #[inline(always)]
    pub fn is_rt(self) -> bool {
        matches!(self, SchedPolicy::Fifo | SchedPolicy::Rr)
    }

    /// A class above the fair class runs it (deadline or real-time).
    #[inline(always)]
    pub fn above_fair(self) -> bool {
        matches!(self, SchedPolicy::Fifo | SchedPolicy::Rr | SchedPolicy::Deadline)
    }

    /// `dl_policy`: the deadline class runs it.
    #[inline(always)]
    pub fn is_dl(self) -> bool {
        self == SchedPolicy::Deadline
    }
}

/// A SCHED_DEADLINE task's reservation (`sched_attr`'s runtime, deadline
/// and period, ns): `runtime` of CPU in each `period`, by `deadline` after
/// the period's start.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DlParams {
    pub runtime_ns: u64,
    pub deadline_ns: u64,
    pub period_ns: u64,
    /// SCHED_FLAG_RECLAIM: the task reclaims bandwidth others leave unused (GRUB, from 4.13; 6.12 only here).
    pub reclaim: bool,
}

/// SCHED_FLAG_RECLAIM in `sched_attr.sched_flags` (include/uapi/linux/sched.h).
pub const SCHED_FLAG_RECLAIM: u64 = 0x02;

/// What a `sched_setattr` step sets: a policy, its real-time priority (0
/// unless FIFO or RR), its deadline reservation (deadline only) and a nice
/// (normal and batch only; None keeps the thread's).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SchedAttr {
    pub policy: SchedPolicy,
    pub rt_priority: u32,
    pub dl: Option<DlParams>,
    pub nice: Option<i32>,
}

/// `BW_SHIFT`: bandwidths are fixed-point fractions of 2^20.
pub const BW_SHIFT: u32 = 20;

/// `to_ratio`: runtime / period in 2^-20 units.
pub fn to_ratio(period_ns: u64, runtime_ns: u64) -> u64 {
    if period_ns == 0 {
        return 0;
    }
    (runtime_ns << BW_SHIFT) / period_ns
}

impl DlParams {
    /// `dl_bw`: the reservation's bandwidth.
    pub fn bw(&self) -> u64 {
        to_ratio(self.period_ns, self.runtime_ns)
    }
}

/// `normal_prio` / `__normal_prio` for a real-time task: the kernel's prio of
/// `rt_priority` (1–99), 98 down to 0.
pub fn rt_prio(rt_priority: u32) -> u32 {
    debug_assert!((1..=MAX_RT_PRIORITY).contains(&rt_priority));
    MAX_RT_PRIO - 1 - rt_priority
}

/// `NICE_TO_PRIO`: a fair task's kernel prio.
pub fn nice_prio(nice: i32) -> u32 {
    (120 + nice) as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_scale_runs_from_rt_99_to_nice_19() {
        assert_eq!(rt_prio(99), 0);
        assert_eq!(rt_prio(1), 98);
        assert_eq!(nice_prio(-20), 100);
        assert_eq!(nice_prio(19), 139);
        for name in SchedPolicy::NAMES {
            assert_eq!(SchedPolicy::from_name(name).map(|p| p.name()), Some(*name));
        }
        assert!(SchedPolicy::Rr.is_rt() && !SchedPolicy::Batch.is_rt());
    }
}

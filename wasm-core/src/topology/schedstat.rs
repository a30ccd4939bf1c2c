//! schedstats as Linux 4.1 keeps them with CONFIG_SCHEDSTATS: per runqueue
//! (`struct rq`'s yld_count … pcount) and per scheduling domain of each CPU
//! (`struct sched_domain`'s lb_*[idle type], alb_*, sbe_*, sbf_*, ttwu_*),
//! counted where 4.1's code counts them, so `schedsim run --schedstat` can be
//! read beside a real machine's `/proc/schedstat` (version 15).
//!
//! Where each is counted (4.1.15):
//! - `load_balance`: lb_count on entry; lb_nobusyg / lb_nobusyq when no busiest
//!   group / queue; lb_imbalance += the imbalance once a busiest queue is
//!   found; lb_gained += tasks detached; lb_failed when nothing moved;
//!   lb_balanced on the balanced and all-pinned exits (not `out_one_pinned`).
//! - `can_migrate_task`: lb_hot_gained when a cache-hot task moves because
//!   balancing failed too often.
//! - `active_load_balance_cpu_stop`: alb_count, then alb_pushed or alb_failed,
//!   on the target's lowest domain spanning the busiest CPU.
//! - `ttwu_stat` (on the waking CPU): ttwu_count; ttwu_local when the wakee
//!   lands there, else ttwu_wake_remote on the waker's lowest domain spanning
//!   the wakee's CPU. `wake_affine`: ttwu_move_affine when it pulls.
//! - `__schedule`: sched_count; picking the idle task: sched_goidle;
//!   `sched_yield`: yld_count; `sched_info_arrive` / `_depart`: run_delay,
//!   pcount, rq_cpu_time.
//! - sbe_*, sbf_* and ttwu_move_balance are printed but never counted by 4.1
//!   (their code went with `sched_balance_self`): always 0, as on a real 4.1.

use serde::Serialize;

/// `enum cpu_idle_type`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IdleType {
    /// Periodic balance on an idle CPU.
    Idle,
    /// Periodic balance on a busy CPU.
    NotIdle,
    /// The CPU is about to go idle (`idle_balance`).
    NewlyIdle,
}

impl IdleType {
    pub fn as_str(self) -> &'static str {
        match self {
            IdleType::Idle => "idle",
            IdleType::NotIdle => "busy",
            IdleType::NewlyIdle => "newly-idle",
        }
    }
}

/// The kernel's `enum cpu_idle_type` order: the index of an idle type in the per-type arrays.
pub fn idle_index(idle: IdleType) -> usize {
    match idle {
        IdleType::Idle => 0,
        IdleType::NotIdle => 1,
        IdleType::NewlyIdle => 2,
    }
}

/// One idle type's load-balancing counters of one domain.
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(any(test, feature = "gen"), derive(ts_rs::TS))]
pub struct LbCounters {
    pub lb_count: u64,
    pub lb_balanced: u64,
    pub lb_failed: u64,
    pub lb_imbalance: u64,
    pub lb_gained: u64,
    pub lb_hot_gained: u64,
    pub lb_nobusyq: u64,
    pub lb_nobusyg: u64,
}

impl LbCounters {
    fn add(&mut self, o: &LbCounters) {
        self.lb_count += o.lb_count;
        self.lb_balanced += o.lb_balanced;
        self.lb_failed += o.lb_failed;
        self.lb_imbalance += o.lb_imbalance;
        self.lb_gained += o.lb_gained;
        self.lb_hot_gained += o.lb_hot_gained;
        self.lb_nobusyq += o.lb_nobusyq;
        self.lb_nobusyg += o.lb_nobusyg;
    }

    /// The eight numbers in /proc/schedstat's order.
    pub fn fields(&self) -> [u64; 8] {
        [
            self.lb_count,
            self.lb_balanced,
            self.lb_failed,
            self.lb_imbalance,
            self.lb_gained,
            self.lb_hot_gained,
            self.lb_nobusyq,
            self.lb_nobusyg,
        ]
    }
}

/// One CPU's copy of one scheduling domain's counters.
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(any(test, feature = "gen"), derive(ts_rs::TS))]
pub struct SdSchedstat {
    /// Indexed by `idle_index`: idle, busy, newly idle.
    pub lb: [LbCounters; 3],
    pub alb_count: u64,
    pub alb_failed: u64,
    pub alb_pushed: u64,
    pub sbe_count: u64,
    pub sbe_balanced: u64,
    pub sbe_pushed: u64,
    pub sbf_count: u64,
    pub sbf_balanced: u64,
    pub sbf_pushed: u64,
    pub ttwu_wake_remote: u64,
    pub ttwu_move_affine: u64,
    pub ttwu_move_balance: u64,
}

impl SdSchedstat {
    /// Adds one `load_balance` pass's counters for idle type `idle`.
    pub fn add_pass(&mut self, idle: IdleType, pass: &LbCounters) {
        self.lb[idle_index(idle)].add(pass);
    }

    /// The twelve numbers after the three idle types, in /proc/schedstat's order.
    pub fn tail_fields(&self) -> [u64; 12] {
        [
            self.alb_count,
            self.alb_failed,
            self.alb_pushed,
            self.sbe_count,
            self.sbe_balanced,
            self.sbe_pushed,
            self.sbf_count,
            self.sbf_balanced,
            self.sbf_pushed,
            self.ttwu_wake_remote,
            self.ttwu_move_affine,
            self.ttwu_move_balance,
        ]
    }
}

/// One runqueue's counters (the `cpuN` line).
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(any(test, feature = "gen"), derive(ts_rs::TS))]
pub struct RqSchedstat {
    pub yld_count: u64,
    pub sched_count: u64,
    pub sched_goidle: u64,
    pub ttwu_count: u64,
    pub ttwu_local: u64,
    /// ns the CPU's tasks ran (sched_info_depart).
    pub rq_cpu_time: u64,
    /// ns its tasks waited runnable before they ran (sched_info_arrive).
    pub run_delay: u64,
    /// Times a task was switched in.
    pub pcount: u64,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn idle_types_follow_the_kernel_enum() {
        assert_eq!([IdleType::Idle, IdleType::NotIdle, IdleType::NewlyIdle].map(idle_index), [0, 1, 2]);
    }

    #[test]
    fn a_pass_adds_to_its_idle_type_only() {
        let mut s = SdSchedstat::default();
        let pass = LbCounters { lb_count: 1, lb_failed: 1, lb_imbalance: 1023, ..Default::default() };
        s.add_pass(IdleType::NotIdle, &pass);
        s.add_pass(IdleType::NotIdle, &pass);
        assert_eq!(s.lb[1].fields(), [2, 0, 2, 2046, 0, 0, 0, 0]);
        assert_eq!(s.lb[0], LbCounters::default());
        assert_eq!(s.lb[2], LbCounters::default());
    }
}

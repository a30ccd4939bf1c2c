//! CFS tunables and scheduler features (Linux 4.1 defaults).
//!
//! The three latency knobs scale with the number of online CPUs as
//! SCHED_TUNABLESCALING_LOG does: factor = 1 + ilog2(min(cpus, 8)), so 1 CPU
//! gives ×1, 2–3 ×2, 4–7 ×3 and 8 or more ×4. `sched_nr_latency` stays 8: the
//! kernel recomputes it only when the sysctl is written, not on scaling.

use crate::time::{NSEC_PER_MSEC, NSEC_PER_USEC};

/// Unscaled base values, as in `kernel/sched/fair.c`.
pub const BASE_LATENCY_NS: u64 = 6 * NSEC_PER_MSEC;
pub const BASE_MIN_GRANULARITY_NS: u64 = 750 * NSEC_PER_USEC;
pub const BASE_WAKEUP_GRANULARITY_NS: u64 = NSEC_PER_MSEC;

/// Scheduler feature bits relevant to CFS (`kernel/sched/features.h`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CfsFeatures {
    pub gentle_fair_sleepers: bool,
    pub start_debit: bool,
    pub next_buddy: bool,
    pub last_buddy: bool,
    pub cache_hot_buddy: bool,
    pub wakeup_preemption: bool,
}

impl CfsFeatures {
    /// The defaults of Linux 4.1.
    pub fn linux_4_1() -> CfsFeatures {
        CfsFeatures {
            gentle_fair_sleepers: true,
            start_debit: true,
            next_buddy: false,
            last_buddy: true,
            cache_hot_buddy: true,
            wakeup_preemption: true,
        }
    }
}

/// Base (unscaled) knob values a scenario may override.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CfsKnobs {
    pub latency_ns: u64,
    pub min_granularity_ns: u64,
    pub wakeup_granularity_ns: u64,
    pub nr_latency: u64,
    pub migration_cost_ns: u64,
    /// When false the base values are used as given, whatever the CPU count
    /// (SCHED_TUNABLESCALING_NONE).
    pub log_scaling: bool,
}

impl CfsKnobs {
    pub fn linux_4_1() -> CfsKnobs {
        CfsKnobs {
            latency_ns: BASE_LATENCY_NS,
            min_granularity_ns: BASE_MIN_GRANULARITY_NS,
            wakeup_granularity_ns: BASE_WAKEUP_GRANULARITY_NS,
            nr_latency: 8,
            migration_cost_ns: 500 * NSEC_PER_USEC,
            log_scaling: true,
        }
    }
}

/// The effective values in force for a given number of online CPUs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CfsTunables {
    pub latency_ns: u64,
    pub min_granularity_ns: u64,
    pub wakeup_granularity_ns: u64,
    pub nr_latency: u64,
    pub migration_cost_ns: u64,
    pub factor: u64,
    pub features: CfsFeatures,
}

/// 1 + ilog2(min(cpus, 8)).
pub fn scaling_factor(online_cpus: u32) -> u64 {
    let n = online_cpus.clamp(1, 8);
    1 + (31 - n.leading_zeros()) as u64
}

impl CfsTunables {
    /// Recomputed at boot and on every CPU online/offline (`update_sysctl`).
    pub fn for_cpus(knobs: &CfsKnobs, features: &CfsFeatures, online_cpus: u32) -> CfsTunables {
        let factor = if knobs.log_scaling { scaling_factor(online_cpus) } else { 1 };
        CfsTunables {
            latency_ns: knobs.latency_ns * factor,
            min_granularity_ns: knobs.min_granularity_ns * factor,
            wakeup_granularity_ns: knobs.wakeup_granularity_ns * factor,
            nr_latency: knobs.nr_latency.max(1),
            migration_cost_ns: knobs.migration_cost_ns,
            factor,
            features: features.clone(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn log_scaling_matches_the_kernel_table() {
        let f: Vec<u64> = [1, 2, 3, 4, 7, 8, 64].iter().map(|&n| scaling_factor(n)).collect();
        assert_eq!(f, vec![1, 2, 2, 3, 3, 4, 4]);
    }

    #[test]
    fn paper_machine_values() {
        let t = CfsTunables::for_cpus(&CfsKnobs::linux_4_1(), &CfsFeatures::linux_4_1(), 64);
        assert_eq!(t.latency_ns, 24 * NSEC_PER_MSEC);
        assert_eq!(t.min_granularity_ns, 3 * NSEC_PER_MSEC);
        assert_eq!(t.wakeup_granularity_ns, 4 * NSEC_PER_MSEC);
        assert_eq!(t.nr_latency, 8);
    }
}

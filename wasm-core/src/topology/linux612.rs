//! Linux 6.12's `sd_init` (kernel/sched/topology.c 1587–1700, Debian
//! 6.12.117): a domain's flags and parameters from its topology level
//! (`DomainRules::Linux612`). What changed since 4.1's (`linux41.rs`):
//!
//! ```text
//!   every level     busy_factor 16 (4.1: 32), imbalance_pct 117 (4.1: 125), PREFER_SIBLING
//!                   (4.1: SMT and DIE only); no SD_LOAD_BALANCE flag (5.10: every domain
//!                   balances); no cpu_load[] indices (removed in 5.x)
//!   SMT             x86_smt_flags = SHARE_CPUCAPACITY | SHARE_LLC     imbalance_pct 110
//!   MC              x86_core_flags = SHARE_LLC                        imbalance_pct 117, cache_nice_tries 1
//!   PKG (4.1's DIE) no topology flag                                  cache_nice_tries 1
//!   NUMA            SD_NUMA: SERIALIZE, no PREFER_SIBLING             cache_nice_tries 2; beyond
//!                   node_reclaim_distance (30) no BALANCE_EXEC/FORK, WAKE_AFFINE
//! ```
//!
//! Not modelled: the cluster level (CLS, `x86_cluster_flags`), which the
//! model's machines do not have; ITMT's SD_ASYM_PACKING; asymmetric CPU
//! capacity (`asym_cpu_capacity_classify` finds none on a uniform machine);
//! and Debian's backported `newidle_call`/`newidle_success`/`newidle_ratio`
//! (the newly-idle balancing rate), which the 6.12 balancer will carry.
//! docs/fidelity.md's 6.12 table lists these.

use super::cpumask::CpuMask;
use super::domains::{DomainFlags, LevelKind, LevelParams, SchedDomain, SchedGroup, RECLAIM_DISTANCE};

pub(super) fn sd_init(kind: LevelKind, span: CpuMask, groups: Vec<SchedGroup>) -> SchedDomain {
    // The defaults every level starts from (topology.c 1612–1640).
    let mut flags = DomainFlags {
        load_balance: true,
        balance_newidle: true,
        balance_exec: true,
        balance_fork: true,
        balance_wake: false,
        wake_affine: true,
        share_cpucapacity: false,
        share_pkg_resources: false,
        prefer_sibling: true,
        serialize: false,
        overlap: false,
        numa: false,
    };
    let (mut imbalance_pct, mut cache_nice_tries) = (117, 0);
    // The level's topology flags (smpboot.c 480–535, topology.h 39–63), then
    // their behaviour (topology.c 1666–1687).
    match kind {
        LevelKind::Smt => {
            flags.share_cpucapacity = true;
            flags.share_pkg_resources = true;
            imbalance_pct = 110;
        }
        LevelKind::Mc => {
            flags.share_pkg_resources = true;
            cache_nice_tries = 1;
        }
        LevelKind::Die => cache_nice_tries = 1,
        LevelKind::Numa(d) => {
            flags.numa = true;
            cache_nice_tries = 2;
            flags.prefer_sibling = false;
            flags.serialize = true;
            // build_sched_domain marks a level of the NUMA table SD_OVERLAP (topology.c 2438).
            flags.overlap = true;
            if d > RECLAIM_DISTANCE {
                flags.balance_exec = false;
                flags.balance_fork = false;
                flags.wake_affine = false;
            }
        }
    }
    // No cpu_load[] indices: 6.12 removed cpu_load[].
    let params = LevelParams { imbalance_pct, cache_nice_tries, busy_idx: 0, idle_idx: 0, busy_factor: 16 };
    SchedDomain::init(kind, span, groups, flags, params)
}

/// `SD_DEGENERATE_GROUPS_MASK` (sd_flags.h: every flag marked
/// SDF_NEEDS_GROUPS): the flags that mean nothing in a domain of one group,
/// for both `sd_degenerate` and `sd_parent_degenerate` (topology.c 171–207).
pub(super) fn needs_groups(f: &DomainFlags) -> bool {
    f.balance_newidle
        || f.balance_exec
        || f.balance_fork
        || f.balance_wake
        || f.share_cpucapacity
        || f.share_pkg_resources
        || f.serialize
        || f.prefer_sibling
        || f.overlap
        || f.numa
}

/// The flags `sd_parent_degenerate` sets aside in a parent of one group.
pub(super) fn clear_group_flags(f: &mut DomainFlags) {
    f.balance_newidle = false;
    f.balance_exec = false;
    f.balance_fork = false;
    f.balance_wake = false;
    f.share_cpucapacity = false;
    f.share_pkg_resources = false;
    f.serialize = false;
    f.prefer_sibling = false;
    f.overlap = false;
    f.numa = false;
}

#[cfg(test)]
#[path = "linux612_test.rs"]
mod linux612_test;

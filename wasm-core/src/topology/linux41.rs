//! Linux 4.1's `sd_init`: a domain's flags and parameters from its topology
//! level, as 4.1.15 sets them (`DomainRules::Linux41`).
//!
//! ```text
//!   level  topology flags             behaviour
//!   SMT    SHARE_CPUCAPACITY|PKG      PREFER_SIBLING, imbalance_pct 110
//!   MC     SHARE_PKG_RESOURCES        imbalance_pct 117, cache_nice_tries 1, busy_idx 2
//!   DIE    (none)                     PREFER_SIBLING, cache_nice_tries 1, busy_idx 2, idle_idx 1
//!   NUMA   SD_NUMA                    SERIALIZE, cache_nice_tries 2, busy_idx 3, idle_idx 2;
//!                                     beyond RECLAIM_DISTANCE no BALANCE_EXEC/FORK, WAKE_AFFINE
//! ```
//! Every level starts with LOAD_BALANCE, BALANCE_NEWIDLE, BALANCE_EXEC,
//! BALANCE_FORK and WAKE_AFFINE; NUMA levels are marked SD_OVERLAP by
//! `build_sched_domains`.

use super::cpumask::CpuMask;
use super::domains::{DomainFlags, LevelKind, LevelParams, SchedDomain, SchedGroup, RECLAIM_DISTANCE};

pub(super) fn sd_init(kind: LevelKind, span: CpuMask, groups: Vec<SchedGroup>) -> SchedDomain {
    let mut flags = DomainFlags {
        load_balance: true,
        balance_newidle: true,
        balance_exec: true,
        balance_fork: true,
        balance_wake: false,
        wake_affine: true,
        share_cpucapacity: false,
        share_pkg_resources: false,
        prefer_sibling: false,
        serialize: false,
        overlap: false,
        numa: false,
    };
    let (mut imbalance_pct, mut cache_nice_tries, mut busy_idx, mut idle_idx) = (125, 0, 0, 0);
    match kind {
        LevelKind::Smt => {
            // cpu_smt_flags: the threads of a core share its capacity and its caches.
            flags.share_cpucapacity = true;
            flags.share_pkg_resources = true;
            flags.prefer_sibling = true;
            imbalance_pct = 110;
        }
        LevelKind::Mc => {
            flags.share_pkg_resources = true;
            imbalance_pct = 117;
            cache_nice_tries = 1;
            busy_idx = 2;
        }
        LevelKind::Die => {
            // A level with no topology flag: sd_init's last branch.
            flags.prefer_sibling = true;
            cache_nice_tries = 1;
            busy_idx = 2;
            idle_idx = 1;
        }
        LevelKind::Numa(d) => {
            flags.numa = true;
            flags.serialize = true;
            flags.overlap = true;
            cache_nice_tries = 2;
            busy_idx = 3;
            idle_idx = 2;
            if d > RECLAIM_DISTANCE {
                flags.balance_exec = false;
                flags.balance_fork = false;
                flags.wake_affine = false;
            }
        }
    }
    SchedDomain::init(
        kind,
        span,
        groups,
        flags,
        LevelParams { imbalance_pct, cache_nice_tries, busy_idx, idle_idx, busy_factor: 32 },
    )
}

/// `sd_degenerate`'s flags that need at least two groups (core.c 5511–5533).
pub(super) fn needs_groups(f: &DomainFlags) -> bool {
    f.load_balance
        || f.balance_newidle
        || f.balance_fork
        || f.balance_exec
        || f.share_cpucapacity
        || f.share_pkg_resources
}

/// The flags `sd_parent_degenerate` sets aside in a parent of one group
/// (core.c 5547–5558): those, SD_PREFER_SIBLING, and SD_SERIALIZE on a
/// machine of one node.
pub(super) fn clear_group_flags(f: &mut DomainFlags, nr_nodes: u32) {
    f.load_balance = false;
    f.balance_newidle = false;
    f.balance_fork = false;
    f.balance_exec = false;
    f.share_cpucapacity = false;
    f.share_pkg_resources = false;
    f.prefer_sibling = false;
    if nr_nodes == 1 {
        f.serialize = false;
    }
}

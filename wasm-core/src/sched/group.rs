//! Task groups: cgroups with cpu.shares and autogroups (one per session),
//! as Linux 4.1 schedules them (kernel-model.md 2.3, 2.4).
//!
//! A group's shares (1024 by default) are split across CPUs in proportion
//! to where its load is: on each CPU the group's entity weighs
//! shares × (this CPU's part of the group load) / (the group's total load).
//! So a 64-thread group puts about 1024/64 of weight behind each thread, while
//! a single-threaded group puts 1024 behind its one thread — the root of the
//! paper's Group Imbalance bug.

use super::identity::Identity;

/// `MIN_SHARES`: a group entity never weighs less than this.
pub const MIN_SHARES: u64 = 2;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TaskGroup {
    pub id: u32,
    pub name: String,
    /// None only for the root group.
    pub parent: Option<u32>,
    pub shares: u64,
    pub autogroup: bool,
    /// Depth below the root (root = 0).
    pub depth: u32,
    /// `tg->load_avg`: Σ over CPUs of the group runqueues' tg_load_contrib.
    pub load_avg: i64,
    /// `tg->runnable_avg`: Σ over CPUs of the fraction (of 1024) of time the
    /// group's entity was runnable there; below 1024 it scales the group
    /// entities' load (`sched::linux41::load_avg::group_entity_contrib`).
    pub runnable_avg: i64,
    /// Group Identity (`cpu.identity`): its class and the SMT-expeller bit.
    pub identity: Identity,
    pub smt_expeller: bool,
}

impl TaskGroup {
    pub fn root() -> TaskGroup {
        TaskGroup {
            id: 0,
            name: "/".into(),
            parent: None,
            shares: 1024,
            autogroup: false,
            depth: 0,
            load_avg: 0,
            runnable_avg: 0,
            identity: Identity::Normal,
            smt_expeller: false,
        }
    }
}

/// `calc_cfs_shares`: this CPU's share of the group's weight.
pub fn calc_cfs_shares(shares: u64, tg_load_avg: i64, cfs_tg_load_contrib: i64, cfs_load_weight: u64) -> u64 {
    let tg_weight = (tg_load_avg - cfs_tg_load_contrib).max(0) as u64 + cfs_load_weight;
    let s = (shares * cfs_load_weight).checked_div(tg_weight).unwrap_or(shares * cfs_load_weight);
    s.clamp(MIN_SHARES, shares)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shares_split_by_where_the_load_is() {
        // All of the group's load is here: full shares.
        assert_eq!(calc_cfs_shares(1024, 2048, 2048, 2048), 1024);
        // A quarter of it: a quarter of the shares.
        assert_eq!(calc_cfs_shares(1024, 4096, 1024, 1024), 256);
        // Nothing queued here: the minimum.
        assert_eq!(calc_cfs_shares(1024, 4096, 0, 0), MIN_SHARES);
    }
}

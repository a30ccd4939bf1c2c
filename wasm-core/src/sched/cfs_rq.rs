//! A CFS runqueue (`struct cfs_rq`): the red-black tree of waiting entities
//! keyed by vruntime, the running entity kept *outside* the tree (as in the
//! kernel), the monotonic min_vruntime, and the buddies.
//!
//! Tree key: (vruntime, pid). The kernel breaks vruntime ties by insertion
//! order (a new equal key goes right); we break them by pid so that a key is
//! unique and removal needs no node handle. Ties are rare with nanosecond
//! vruntimes and the outcome stays deterministic either way.

use crate::rbtree::RbTree;
use crate::time::Pid;

#[derive(Clone, Debug, Default)]
pub struct CfsRq {
    pub tree: RbTree<(u64, Pid), Pid>,
    /// Entities on this runqueue, the running one included.
    pub nr_running: u32,
    /// Sum of the weights of those entities.
    pub load_weight: u64,
    /// Never decreases; the reference point for placing new and waking tasks.
    pub min_vruntime: u64,
    /// Σ load_avg_contrib of the queued entities (PELT): the CPU load the
    /// 4.1 load balancer reads (`weighted_cpuload`).
    pub runnable_load_avg: i64,
    /// Σ utilization_avg_contrib of the queued entities (`get_cpu_usage`).
    pub utilization_load_avg: i64,
    /// The running entity (not in the tree).
    pub curr: Option<Pid>,
    /// Buddies: hints that bend the pick away from strict leftmost.
    pub next: Option<Pid>,
    pub last: Option<Pid>,
    pub skip: Option<Pid>,
}

impl CfsRq {
    pub fn new() -> CfsRq {
        CfsRq::default()
    }

    pub fn clear_buddies_of(&mut self, pid: Pid) {
        if self.next == Some(pid) {
            self.next = None;
        }
        if self.last == Some(pid) {
            self.last = None;
        }
        if self.skip == Some(pid) {
            self.skip = None;
        }
    }
}

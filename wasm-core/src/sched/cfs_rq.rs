//! A CFS runqueue (`struct cfs_rq`): the red-black tree of waiting entities
//! keyed by vruntime, the running entity kept *outside* the tree (as in the
//! kernel), the monotonic min_vruntime, the buddies, and the load sums.
//! Every CPU has a root cfs_rq; with group scheduling every task group also
//! has one per CPU, queued on its parent's through the group's entity.
//!
//! Tree key: (vruntime, entity id). The kernel breaks vruntime ties by
//! insertion order (a new equal key goes right); we break them by id so a key
//! is unique and removal needs no node handle. Ties are rare with nanosecond
//! vruntimes and the outcome stays deterministic either way.

use super::entity::EntId;
use super::identity::Identity;
use crate::rbtree::RbTree;

// repr(C), loads first: a balancing pass reads these two of every CPU's root
// runqueue right after the `Rq` fields before it (see `Rq`), so they share
// cache lines instead of lying wherever the compiler put them.
#[derive(Clone, Debug, Default)]
#[repr(C)]
pub struct CfsRq {
    /// Σ load_avg_contrib of the queued entities (PELT): at the root, the CPU
    /// load the 4.1 load balancer reads (`weighted_cpuload`).
    pub runnable_load_avg: i64,
    /// Σ utilization_avg_contrib of the queued entities (`get_cpu_usage`).
    pub utilization_load_avg: i64,
    /// The task group this runqueue belongs to (0 = root).
    pub tg: u32,
    pub tree: RbTree<(u64, EntId), EntId>,
    /// Entities on this runqueue, the running one included.
    pub nr_running: u32,
    /// Tasks in this runqueue's whole hierarchy (`h_nr_running`).
    pub h_nr_running: u32,
    /// Sum of the weights of the entities (`load.weight`).
    pub load_weight: u64,
    /// Never decreases; the reference point for placing new and waking tasks.
    pub min_vruntime: u64,
    /// This runqueue's last contribution to its group's load_avg (runnable
    /// and blocked load, passed on with 1/8 hysteresis: `sched::linux41::load_avg`).
    pub tg_load_contrib: i64,
    /// `blocked_load_avg`: the contributions of the entities asleep here,
    /// decayed by y every 2^20 ns, so a group keeps the load of threads that
    /// will soon wake.
    pub blocked_load_avg: u64,
    /// `decay_counter`: decay periods counted so far (starts at 1), and the
    /// period (now >> 20) of the last count (`last_decay`).
    pub decay_counter: u64,
    pub last_decay: u64,
    /// `removed_load`: contributions of sleepers that woke on another CPU,
    /// taken off the blocked load at the next update.
    pub removed_load: u64,
    /// This runqueue's last part of its group's `runnable_avg` (of 1024).
    pub tg_runnable_contrib: i64,
    /// On its CPU's leaf list (`on_list`): visited by `update_blocked_averages`.
    pub on_list: bool,
    /// `h_load`: this runqueue's part of its CPU's load, computed top-down by
    /// `task_h_load` and kept for the rest of the jiffy it was computed in
    /// (`last_h_load_update`; None before the first).
    pub h_load: u64,
    pub last_h_load_update: Option<u64>,
    /// The running entity (not in the tree).
    pub curr: Option<EntId>,
    /// Buddies: hints that bend the pick away from strict leftmost.
    pub next: Option<EntId>,
    pub last: Option<EntId>,
    pub skip: Option<EntId>,
    /// Group Identity: the underclass entities, picked only when `tree` is
    /// empty (always empty unless the scenario enables Group Identity).
    pub under: RbTree<(u64, EntId), EntId>,
    /// Group Identity: a highclass wakee that preempted curr; the next pick
    /// takes it whatever its vruntime.
    pub id_preempt: Option<EntId>,
    /// EEVDF: curr reached its deadline in an update_curr since it was
    /// picked (the tick then reschedules if others are queued).
    pub deadline_passed: bool,
}

impl CfsRq {
    /// A runqueue of task group `tg`. Only the root runqueues' trees log
    /// rotations (the UI animates those and drains the log each event); the
    /// group runqueues' and the underclass trees would otherwise grow their
    /// logs for the whole run.
    pub fn new(tg: u32) -> CfsRq {
        let tree = if tg == 0 { RbTree::new() } else { RbTree::without_rotation_log() };
        CfsRq { tg, tree, under: RbTree::without_rotation_log(), decay_counter: 1, ..CfsRq::default() }
    }

    pub fn clear_buddies_of(&mut self, id: EntId) {
        if self.next == Some(id) {
            self.next = None;
        }
        if self.last == Some(id) {
            self.last = None;
        }
        if self.skip == Some(id) {
            self.skip = None;
        }
        if self.id_preempt == Some(id) {
            self.id_preempt = None;
        }
    }

    /// Queues a waiting entity in the tree of its identity.
    pub fn tree_insert(&mut self, vruntime: u64, id: EntId, identity: Identity) {
        if identity == Identity::Underclass {
            self.under.insert((vruntime, id), id);
            // Only root trees' rotations are drawn; do not let this log grow.
            self.under.clear_rotations();
        } else {
            self.tree.insert((vruntime, id), id);
        }
    }

    pub fn tree_remove(&mut self, vruntime: u64, id: EntId, identity: Identity) {
        if identity == Identity::Underclass {
            self.under.remove((vruntime, id));
            self.under.clear_rotations();
        } else {
            self.tree.remove((vruntime, id));
        }
    }

    /// The leftmost waiting entity over both trees (for min_vruntime).
    pub fn leftmost_vruntime(&self) -> Option<u64> {
        let a = self.tree.first().map(|((v, _), _)| v);
        let b = self.under.first().map(|((v, _), _)| v);
        match (a, b) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }
}

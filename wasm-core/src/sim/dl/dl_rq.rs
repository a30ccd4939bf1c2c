//! One CPU's deadline runqueue (`struct dl_rq`): the queued tasks in a
//! red-black tree keyed by absolute deadline (leftmost = earliest), the
//! pushable ones in the same order, the counts the overload mask reads, and
//! `earliest_dl` (`curr`: the queue's earliest deadline; `next`: the earliest
//! pushable one). Pure: no machine state.

use crate::rbtree::RbTree;
use crate::time::Pid;

/// A queued task's key: its deadline, then its arrival (equal deadlines first come first).
type Key = (u64, u64);

#[derive(Clone, Debug)]
pub struct DlRq {
    /// `dl_rq->root`: the tree the pick takes the leftmost of.
    tree: RbTree<Key, Pid>,
    /// Each queued task's key, to find it again.
    keys: Vec<(Pid, Key)>,
    pushable: Vec<(u64, u64, Pid)>,
    arrivals: u64,
    pub nr_migratory: u32,
    /// `dl_rq->overloaded`: more than one queued, one of them migratory.
    pub overloaded: bool,
}

impl Default for DlRq {
    fn default() -> Self {
        DlRq {
            tree: RbTree::without_rotation_log(),
            keys: Vec::new(),
            pushable: Vec::new(),
            arrivals: 0,
            nr_migratory: 0,
            overloaded: false,
        }
    }
}

impl DlRq {
    pub fn enqueue(&mut self, deadline: u64, pid: Pid, migratory: bool) {
        self.arrivals += 1;
        let key = (deadline, self.arrivals);
        self.tree.insert(key, pid);
        self.keys.push((pid, key));
        self.nr_migratory += u32::from(migratory);
        self.update_overload();
    }

    /// False if `pid` was not queued.
    pub fn dequeue(&mut self, pid: Pid, migratory: bool) -> bool {
        let Some(i) = self.keys.iter().position(|k| k.0 == pid) else { return false };
        let (_, key) = self.keys.swap_remove(i);
        self.tree.remove(key);
        self.nr_migratory -= u32::from(migratory);
        self.dequeue_pushable(pid);
        self.update_overload();
        true
    }

    pub fn nr_running(&self) -> u32 {
        self.tree.len() as u32
    }

    /// The leftmost task: `pick_next_dl_entity`.
    pub fn first(&self) -> Option<Pid> {
        self.tree.first().map(|(_, p)| p)
    }

    /// `earliest_dl.curr`, None when empty.
    pub fn earliest(&self) -> Option<u64> {
        self.tree.first().map(|(k, _)| k.0)
    }

    /// The tree as it is shaped (the runqueue view draws it).
    pub fn tree(&self) -> &RbTree<Key, Pid> {
        &self.tree
    }

    /// `earliest_dl.next`: the earliest pushable deadline.
    pub fn next(&self) -> Option<u64> {
        self.pushable.first().map(|k| k.0)
    }

    /// The queued tasks, earliest deadline first, with their deadlines.
    pub fn queued(&self) -> impl Iterator<Item = (u64, Pid)> + '_ {
        self.tree.iter().into_iter().map(|(k, p)| (k.0, p))
    }

    pub fn enqueue_pushable(&mut self, deadline: u64, pid: Pid) {
        self.dequeue_pushable(pid);
        self.arrivals += 1;
        let key = (deadline, self.arrivals, pid);
        let at = self.pushable.partition_point(|k| (k.0, k.1) < (key.0, key.1));
        self.pushable.insert(at, key);
    }

    pub fn dequeue_pushable(&mut self, pid: Pid) {
        self.pushable.retain(|k| k.2 != pid);
    }

    pub fn pushable(&self) -> impl Iterator<Item = Pid> + '_ {
        self.pushable.iter().map(|k| k.2)
    }

    pub fn has_pushable(&self) -> bool {
        !self.pushable.is_empty()
    }

    fn update_overload(&mut self) {
        self.overloaded = self.nr_migratory > 0 && self.tree.len() > 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// Whatever the enqueues and dequeues, the pick is the earliest
        /// deadline, first come first among equals.
        #[test]
        fn the_pick_is_the_earliest_deadline(ops in prop::collection::vec((any::<bool>(), 0u32..6, 0u64..5), 1..100)) {
            let mut rq = DlRq::default();
            let mut model: Vec<(u64, u64, Pid)> = Vec::new();
            let mut n = 0;
            for (add, p, d) in ops {
                let pid = Pid(p);
                let at = model.iter().position(|k| k.2 == pid);
                match (add, at) {
                    (true, None) => { n += 1; rq.enqueue(d, pid, true); model.push((d, n, pid)); }
                    (false, Some(i)) => { prop_assert!(rq.dequeue(pid, true)); model.remove(i); }
                    _ => {}
                }
                model.sort();
                prop_assert_eq!(rq.first(), model.first().map(|k| k.2));
                prop_assert_eq!(rq.nr_running() as usize, model.len());
                prop_assert_eq!(rq.queued().map(|q| q.1).collect::<Vec<_>>(), model.iter().map(|k| k.2).collect::<Vec<_>>());
                prop_assert!(rq.tree().check_invariants().is_ok());
            }
        }
    }
}

//! One CPU's deadline runqueue (`struct dl_rq`): the queued tasks ordered by
//! absolute deadline (the kernel's red-black tree, leftmost = earliest), the
//! pushable ones in the same order, the counts the overload mask reads, and
//! `earliest_dl` (`curr`: the queue's earliest deadline; `next`: the earliest
//! pushable one). Pure: no machine state.

use crate::time::Pid;

#[derive(Clone, Debug, Default)]
pub struct DlRq {
    /// (deadline, arrival, pid), earliest first; equal deadlines first come first.
    queue: Vec<(u64, u64, Pid)>,
    pushable: Vec<(u64, u64, Pid)>,
    arrivals: u64,
    pub nr_migratory: u32,
    /// `dl_rq->overloaded`: more than one queued, one of them migratory.
    pub overloaded: bool,
}

impl DlRq {
    pub fn enqueue(&mut self, deadline: u64, pid: Pid, migratory: bool) {
        self.arrivals += 1;
        let key = (deadline, self.arrivals, pid);
        let at = self.queue.partition_point(|k| (k.0, k.1) < (key.0, key.1));
        self.queue.insert(at, key);
        self.nr_migratory += u32::from(migratory);
        self.update_overload();
    }

    /// False if `pid` was not queued.
    pub fn dequeue(&mut self, pid: Pid, migratory: bool) -> bool {
        let Some(i) = self.queue.iter().position(|k| k.2 == pid) else { return false };
        self.queue.remove(i);
        self.nr_migratory -= u32::from(migratory);
        self.dequeue_pushable(pid);
        self.update_overload();
        true
    }

    pub fn nr_running(&self) -> u32 {
        self.queue.len() as u32
    }

    /// The leftmost task: `pick_next_dl_entity`.
    pub fn first(&self) -> Option<Pid> {
        self.queue.first().map(|k| k.2)
    }

    /// `earliest_dl.curr`, None when empty.
    pub fn earliest(&self) -> Option<u64> {
        self.queue.first().map(|k| k.0)
    }

    /// `earliest_dl.next`: the earliest pushable deadline.
    pub fn next(&self) -> Option<u64> {
        self.pushable.first().map(|k| k.0)
    }

    /// The queued tasks, earliest deadline first, with their deadlines.
    pub fn queued(&self) -> impl Iterator<Item = (u64, Pid)> + '_ {
        self.queue.iter().map(|k| (k.0, k.2))
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
        self.overloaded = self.nr_migratory > 0 && self.queue.len() > 1;
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
            }
        }
    }
}

//! One CPU's real-time runqueue (`struct rt_rq`, sched.h and rt.c of 4.1):
//! the priority array (a FIFO list per priority and the bitmap of the
//! non-empty ones, `struct rt_prio_array`), the pushable tasks ordered by
//! priority (`pushable_tasks`, a plist), the counts the overload mask reads,
//! and the bandwidth the throttle keeps. Pure: no machine state.

use crate::sched::policy::MAX_RT_PRIO;
use crate::time::Pid;

/// One CPU's real-time runqueue.
#[derive(Clone, Debug)]
pub struct RtRq {
    /// `active.queue`: the queued tasks (running one included) in pick
    /// order: by prio, first come first within one (each list's FIFO).
    queue: Vec<(u32, Pid)>,
    /// `active.bitmap`: bit `prio` set while that priority's list is not empty.
    pub bitmap: [u64; 2],
    /// `pushable_tasks`: queued tasks that are not running and may run
    /// elsewhere, by prio, first come first within one.
    pushable: Vec<(u32, Pid)>,
    /// `rt_nr_running`, `rt_nr_migratory` (of them, those allowed on more than one CPU).
    pub nr_running: u32,
    pub nr_migratory: u32,
    /// `overloaded`: more than one task queued, one of them migratory (`update_rt_migration`).
    pub overloaded: bool,
    /// `rt_time`: real-time run time in the current period; `rt_runtime`:
    /// what this CPU may run per period (borrowed from its neighbours under
    /// RT_RUNTIME_SHARE); `rt_throttled`: its tasks wait for the next period.
    pub rt_time: u64,
    pub rt_runtime: u64,
    pub throttled: bool,
    /// `need_pull_rt_task` held when the last real-time task was put back:
    /// the next pick pulls first.
    pub pull_due: bool,
}

impl RtRq {
    pub fn new(rt_runtime: u64) -> RtRq {
        RtRq {
            queue: Vec::new(),
            bitmap: [0; 2],
            pushable: Vec::new(),
            nr_running: 0,
            nr_migratory: 0,
            overloaded: false,
            rt_time: 0,
            rt_runtime,
            throttled: false,
            pull_due: false,
        }
    }

    /// `__enqueue_rt_entity`: at the tail of its priority's list, or at its head.
    pub fn enqueue(&mut self, prio: u32, pid: Pid, head: bool, migratory: bool) {
        debug_assert!(prio < MAX_RT_PRIO);
        insert(&mut self.queue, prio, pid, head);
        self.bitmap[(prio / 64) as usize] |= 1 << (prio % 64);
        self.nr_running += 1;
        self.nr_migratory += u32::from(migratory);
        self.update_overload();
    }

    /// `__dequeue_rt_entity`; false if `pid` was not queued here.
    pub fn dequeue(&mut self, pid: Pid, migratory: bool) -> bool {
        let Some(i) = self.queue.iter().position(|&(_, p)| p == pid) else { return false };
        let (prio, _) = self.queue.remove(i);
        if !self.queue.iter().any(|&(q, _)| q == prio) {
            self.bitmap[(prio / 64) as usize] &= !(1 << (prio % 64));
        }
        self.nr_running -= 1;
        self.nr_migratory -= u32::from(migratory);
        self.dequeue_pushable(pid);
        self.update_overload();
        true
    }

    /// `requeue_rt_entity`: to the tail (or head) of its priority's list.
    pub fn requeue(&mut self, pid: Pid, head: bool) {
        if let Some(i) = self.queue.iter().position(|&(_, p)| p == pid) {
            let (prio, _) = self.queue.remove(i);
            insert(&mut self.queue, prio, pid, head);
        }
    }

    /// `sched_find_first_bit` and the head of that list.
    pub fn first(&self) -> Option<Pid> {
        let word = usize::from(self.bitmap[0] == 0);
        let bits = self.bitmap[word];
        if bits == 0 {
            return None;
        }
        let prio = word as u32 * 64 + bits.trailing_zeros();
        let head = self.queue.iter().find(|&&(q, _)| q == prio).map(|&(_, p)| p);
        debug_assert!(head.is_some(), "bitmap bit {prio} set over an empty list");
        head
    }

    /// `highest_prio.curr`: the most urgent queued prio (`MAX_RT_PRIO` if none).
    pub fn highest_prio(&self) -> u32 {
        self.queue.first().map_or(MAX_RT_PRIO, |&(q, _)| q)
    }

    /// `highest_prio.next`: the most urgent pushable task's prio (`MAX_RT_PRIO` if none).
    pub fn next_prio(&self) -> u32 {
        self.pushable.first().map_or(MAX_RT_PRIO, |&(q, _)| q)
    }

    /// How many tasks share `prio`'s list (RR requeues only among equals).
    pub fn at_prio(&self, prio: u32) -> usize {
        self.queue.iter().filter(|&&(q, _)| q == prio).count()
    }

    /// The queued tasks in pick order, with their prio.
    pub fn queued(&self) -> &[(u32, Pid)] {
        &self.queue
    }

    /// `enqueue_pushable_task` (a task already there moves to the back of its prio, as plist_del + plist_add do).
    pub fn enqueue_pushable(&mut self, prio: u32, pid: Pid) {
        self.dequeue_pushable(pid);
        insert(&mut self.pushable, prio, pid, false);
    }

    pub fn dequeue_pushable(&mut self, pid: Pid) {
        self.pushable.retain(|&(_, p)| p != pid);
    }

    /// The pushable tasks, most urgent first.
    pub fn pushable(&self) -> impl Iterator<Item = Pid> + '_ {
        self.pushable.iter().map(|&(_, p)| p)
    }

    /// `has_pushable_tasks`.
    pub fn has_pushable(&self) -> bool {
        !self.pushable.is_empty()
    }

    /// `update_rt_migration`: overloaded with a migratory task and more than one queued.
    fn update_overload(&mut self) {
        self.overloaded = self.nr_migratory > 0 && self.nr_running > 1;
    }
}

/// Into a list ordered by prio: after its equals (the tail of its FIFO), or before them (the head).
fn insert(list: &mut Vec<(u32, Pid)>, prio: u32, pid: Pid, head: bool) {
    let at = if head { list.partition_point(|&(q, _)| q < prio) } else { list.partition_point(|&(q, _)| q <= prio) };
    list.insert(at, (prio, pid));
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// Whatever the enqueues, dequeues and requeues: the bitmap marks exactly
        /// the non-empty priorities, the pick is the head of the most urgent list,
        /// and each list is first come first served.
        #[test]
        fn the_bitmap_and_the_lists_agree(ops in prop::collection::vec((0u8..3, 0u32..8, 0u32..100, any::<bool>()), 1..200)) {
            let mut rq = RtRq::new(0);
            let mut model: Vec<(u32, Pid)> = Vec::new();
            for (op, p, prio, head) in ops {
                let pid = Pid(p);
                let queued = model.iter().position(|&(_, q)| q == pid);
                match (op, queued) {
                    (0, None) => {
                        rq.enqueue(prio, pid, head, true);
                        let at = if head { model.iter().position(|&(q, _)| q >= prio) } else { model.iter().position(|&(q, _)| q > prio) };
                        model.insert(at.unwrap_or(model.len()), (prio, pid));
                    }
                    (1, Some(i)) => {
                        prop_assert!(rq.dequeue(pid, true));
                        model.remove(i);
                    }
                    (2, Some(i)) => {
                        rq.requeue(pid, head);
                        let (q, _) = model.remove(i);
                        let at = if head { model.iter().position(|&(r, _)| r >= q) } else { model.iter().position(|&(r, _)| r > q) };
                        model.insert(at.unwrap_or(model.len()), (q, pid));
                    }
                    _ => {}
                }
                prop_assert_eq!(rq.queued(), &model[..]);
                for prio in 0..100u32 {
                    let bit = rq.bitmap[(prio / 64) as usize] >> (prio % 64) & 1 == 1;
                    prop_assert_eq!(bit, model.iter().any(|&(q, _)| q == prio));
                }
                prop_assert_eq!(rq.first(), model.first().map(|&(_, p)| p));
                prop_assert_eq!(rq.nr_running as usize, model.len());
                prop_assert_eq!(rq.overloaded, model.len() > 1);
            }
        }
    }

    #[test]
    fn pushable_tasks_keep_priority_order_and_fifo_within_one() {
        let mut rq = RtRq::new(0);
        rq.enqueue_pushable(50, Pid(1));
        rq.enqueue_pushable(10, Pid(2));
        rq.enqueue_pushable(50, Pid(3));
        assert_eq!(rq.pushable().collect::<Vec<_>>(), vec![Pid(2), Pid(1), Pid(3)]);
        assert_eq!(rq.next_prio(), 10);
        rq.dequeue_pushable(Pid(2));
        assert_eq!(rq.next_prio(), 50);
    }
}

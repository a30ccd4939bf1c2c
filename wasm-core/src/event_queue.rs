//! The discrete-event queue.
//!
//! Ordering contract (what every other module may rely on):
//! 1. Events fire in increasing simulated time.
//! 2. Events at the same time fire in the order they were scheduled (an
//!    insertion sequence number breaks every tie; heap order never does).
//! 3. Scheduling an event in the past is refused (`Err`), never clamped: a
//!    caller that tries has a bug, and silently clamping would hide it.
//! 4. Cancelling is lazy: owners keep a generation number in the payload and
//!    ignore stale events when they pop, so the queue stays a plain heap.
//!
//! ```text
//!   push(t, e) ──────► BinaryHeap<(t, seq)> ─┐
//!   push_in_order(t, e) ► VecDeque (a sorted run) ─┴► pop() = smallest (t, seq) of the two heads
//! ```
//!
//! The second lane is a cost measure only: events a caller schedules at a
//! time that never decreases (each CPU's tick, one tick period after the
//! event that schedules it) arrive already sorted, so they wait in a FIFO
//! instead of the heap. Pops merge the two heads by (time, seq), so the
//! order is the one a single heap gives.

use crate::time::SimTime;
use std::cmp::Ordering;
use std::collections::{BinaryHeap, VecDeque};

/// An event and its place in the order: (time, seq) as one 128-bit key,
/// the time in the high half, so that one integer comparison orders two
/// entries as the pair would (the heap compares at every level of a sift).
#[derive(Clone, Debug)]
struct Entry<E> {
    key: u128,
    event: E,
}

impl<E> Entry<E> {
    fn new(at: SimTime, seq: u64, event: E) -> Entry<E> {
        Entry { key: (u128::from(at.ns()) << 64) | u128::from(seq), event }
    }

    fn at(&self) -> SimTime {
        SimTime((self.key >> 64) as u64)
    }
}

impl<E> PartialEq for Entry<E> {
    fn eq(&self, other: &Self) -> bool {
        self.key == other.key
    }
}
impl<E> Eq for Entry<E> {}
impl<E> PartialOrd for Entry<E> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl<E> Ord for Entry<E> {
    // Reversed so that BinaryHeap (a max-heap) pops the earliest (time, seq).
    fn cmp(&self, other: &Self) -> Ordering {
        other.key.cmp(&self.key)
    }
}

#[derive(Clone, Debug)]
pub struct EventQueue<E> {
    heap: BinaryHeap<Entry<E>>,
    /// Entries in increasing (time, seq) order (`push_in_order`).
    run: VecDeque<Entry<E>>,
    next_seq: u64,
    now: SimTime,
}

#[derive(Debug, PartialEq, Eq)]
pub struct PastEvent {
    pub now: SimTime,
    pub at: SimTime,
}

impl<E> Default for EventQueue<E> {
    fn default() -> Self {
        EventQueue { heap: BinaryHeap::new(), run: VecDeque::new(), next_seq: 0, now: SimTime::ZERO }
    }
}

impl<E> EventQueue<E> {
    pub fn new() -> Self {
        Self::default()
    }

    /// The time of the last popped event.
    pub fn now(&self) -> SimTime {
        self.now
    }

    pub fn len(&self) -> usize {
        self.heap.len() + self.run.len()
    }

    pub fn is_empty(&self) -> bool {
        self.heap.is_empty() && self.run.is_empty()
    }

    pub fn push(&mut self, at: SimTime, event: E) -> Result<(), PastEvent> {
        if at < self.now {
            return Err(PastEvent { now: self.now, at });
        }
        let seq = self.next_seq;
        self.next_seq += 1;
        self.heap.push(Entry::new(at, seq, event));
        Ok(())
    }

    /// As `push`, for an event the caller expects no earlier than the last
    /// one it pushed this way: it joins the sorted run in O(1). One that is
    /// earlier after all goes to the heap, so the order never depends on it.
    pub fn push_in_order(&mut self, at: SimTime, event: E) -> Result<(), PastEvent> {
        if at < self.now {
            return Err(PastEvent { now: self.now, at });
        }
        let seq = self.next_seq;
        self.next_seq += 1;
        let entry = Entry::new(at, seq, event);
        // A later seq at the same time sorts after: the run stays sorted.
        if self.run.back().is_none_or(|b| b.at() <= at) {
            self.run.push_back(entry);
        } else {
            self.heap.push(entry);
        }
        Ok(())
    }

    /// Whether the run's head comes before the heap's (the heap's `Ord` is reversed).
    fn run_first(&self) -> bool {
        match (self.run.front(), self.heap.peek()) {
            (Some(r), Some(h)) => r > h,
            (Some(_), None) => true,
            _ => false,
        }
    }

    pub fn peek_time(&self) -> Option<SimTime> {
        match (self.run.front(), self.heap.peek()) {
            (Some(r), Some(h)) => Some(r.at().min(h.at())),
            (r, h) => r.or(h).map(|e| e.at()),
        }
    }

    pub fn pop(&mut self) -> Option<(SimTime, E)> {
        let e = if self.run_first() { self.run.pop_front() } else { self.heap.pop() }?;
        self.now = e.at();
        Some((e.at(), e.event))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn ties_fire_in_insertion_order() {
        let mut q = EventQueue::new();
        for i in 0..10 {
            q.push(SimTime(5), i).unwrap();
        }
        let order: Vec<i32> = std::iter::from_fn(|| q.pop().map(|(_, e)| e)).collect();
        assert_eq!(order, (0..10).collect::<Vec<_>>());
    }

    #[test]
    fn past_events_are_refused() {
        let mut q = EventQueue::new();
        q.push(SimTime(10), ()).unwrap();
        q.pop();
        assert_eq!(q.push(SimTime(9), ()), Err(PastEvent { now: SimTime(10), at: SimTime(9) }));
        assert!(q.push(SimTime(10), ()).is_ok());
    }

    proptest! {
        /// Events pushed in order or not, through either lane, pop as from one heap.
        #[test]
        fn both_lanes_pop_as_one_heap(ops in proptest::collection::vec((0u64..40, any::<bool>(), any::<bool>()), 0..300)) {
            let (mut q, mut reference) = (EventQueue::new(), EventQueue::new());
            let mut out = (Vec::new(), Vec::new());
            for (i, &(dt, in_order, pop)) in ops.iter().enumerate() {
                let at = SimTime(q.now().ns() + dt);
                let pushed = if in_order { q.push_in_order(at, i) } else { q.push(at, i) };
                prop_assert!(pushed.is_ok());
                reference.push(at, i).unwrap();
                prop_assert_eq!(q.peek_time(), reference.peek_time());
                if pop {
                    out.0.push(q.pop());
                    out.1.push(reference.pop());
                }
            }
            while let Some(e) = reference.pop() {
                out.1.push(Some(e));
                out.0.push(q.pop());
            }
            prop_assert!(q.is_empty());
            prop_assert_eq!(out.0, out.1);
        }

        #[test]
        fn pops_are_sorted_by_time_then_seq(times in proptest::collection::vec(0u64..50, 0..200)) {
            let mut q = EventQueue::new();
            for (i, t) in times.iter().enumerate() {
                q.push(SimTime(*t), i).unwrap();
            }
            let mut last: Option<(SimTime, usize)> = None;
            while let Some((t, i)) = q.pop() {
                if let Some((lt, li)) = last {
                    prop_assert!(lt < t || (lt == t && li < i));
                }
                last = Some((t, i));
            }
        }
    }
}

//! The O(1) scheduler of Linux 2.6.0–2.6.22 (kernel-model.md 5): per CPU an
//! *active* and an *expired* `prio_array` of 140 FIFO lists with a bitmap of
//! the non-empty ones, so a pick is find-first-bit plus a list head. Normal
//! tasks have static_prio = 120 + nice, a timeslice from it (800 / 100 / 5 ms
//! at nice −20 / 0 / 19), and a dynamic prio that sleep_avg moves by up to ±5.
//! This file holds the constants and the per-CPU structure; `sim::o1::class`
//! drives them.
//!
//! ```text
//!   active : bitmap 0…139 ─► [prio 115: t3 t7] [prio 120: t1] …
//!   expired: bitmap 0…139 ─► [prio 125: t2]           (swapped in when active empties)
//! ```

use crate::time::{Pid, NSEC_PER_MSEC};
use std::collections::VecDeque;

pub const MAX_PRIO: usize = 140;
pub const MAX_RT_PRIO: usize = 100;
pub const DEF_TIMESLICE_NS: u64 = 100 * NSEC_PER_MSEC;
pub const MIN_TIMESLICE_NS: u64 = 5 * NSEC_PER_MSEC;
pub const MAX_BONUS: u64 = 10;
pub const INTERACTIVE_DELTA: i32 = 2;
/// DEF_TIMESLICE × MAX_BONUS = 1 s.
pub const MAX_SLEEP_AVG_NS: u64 = DEF_TIMESLICE_NS * MAX_BONUS;
pub const STARVATION_LIMIT_NS: u64 = MAX_SLEEP_AVG_NS;
/// A woken task's run-queue wait is credited at 30 % (activated = 1).
pub const ON_RUNQUEUE_WEIGHT: u64 = 30;
pub const TIMESLICE_GRANULARITY_NS: u64 = 10 * NSEC_PER_MSEC;

pub fn static_prio(nice: i32) -> usize {
    (120 + nice.clamp(-20, 19)) as usize
}

/// `task_timeslice`: above nice 0 four times steeper; floor MIN_TIMESLICE
/// (or one tick, if longer).
pub fn task_timeslice(static_prio: usize, tick_ns: u64) -> u64 {
    let sp = static_prio as u64;
    let slice = if sp < 120 { DEF_TIMESLICE_NS * 4 * (140 - sp) / 20 } else { DEF_TIMESLICE_NS * (140 - sp) / 20 };
    slice.max(MIN_TIMESLICE_NS.max(tick_ns))
}

/// CURRENT_BONUS: sleep_avg on a 0..10 scale.
pub fn current_bonus(sleep_avg_ns: u64) -> u64 {
    sleep_avg_ns.min(MAX_SLEEP_AVG_NS) * MAX_BONUS / MAX_SLEEP_AVG_NS
}

/// `effective_prio`: static_prio − (bonus − 5), kept within 100..139.
pub fn effective_prio(static_prio: usize, sleep_avg_ns: u64) -> usize {
    let bonus = current_bonus(sleep_avg_ns) as i64 - MAX_BONUS as i64 / 2;
    (static_prio as i64 - bonus).clamp(MAX_RT_PRIO as i64, MAX_PRIO as i64 - 1) as usize
}

/// DELTA(p) = nice × 10/40 (C division) + INTERACTIVE_DELTA.
pub fn interactive_delta(nice: i32) -> i32 {
    nice * MAX_BONUS as i32 / 40 + INTERACTIVE_DELTA
}

/// TASK_INTERACTIVE: prio ≤ static_prio − DELTA.
pub fn task_interactive(prio: usize, static_prio: usize, nice: i32) -> bool {
    prio as i32 <= static_prio as i32 - interactive_delta(nice)
}

/// INTERACTIVE_SLEEP(p): a sleep this long makes a user task interactive at once.
pub fn interactive_sleep_ns(nice: i32, tick_ns: u64) -> u64 {
    let bonus = (MAX_BONUS as i32 / 2 + interactive_delta(nice) + 1).max(0) as u64;
    (MAX_SLEEP_AVG_NS * bonus / MAX_BONUS).saturating_sub(tick_ns)
}

/// TIMESLICE_GRANULARITY: how often an interactive task is round-robined
/// within its level, longer for less interactive ones (× online CPUs).
pub fn timeslice_granularity(sleep_avg_ns: u64, online_cpus: u32) -> u64 {
    let shift = (MAX_BONUS - current_bonus(sleep_avg_ns)).max(1) - 1;
    TIMESLICE_GRANULARITY_NS * (1 << shift) * online_cpus.max(1) as u64
}

/// `struct prio_array`: 140 FIFO lists and the bitmap of non-empty ones.
#[derive(Clone, Debug)]
pub struct PrioArray {
    pub nr_active: u32,
    pub bitmap: [u64; 3],
    pub queue: Vec<VecDeque<Pid>>,
}

impl Default for PrioArray {
    fn default() -> Self {
        PrioArray { nr_active: 0, bitmap: [0; 3], queue: vec![VecDeque::new(); MAX_PRIO] }
    }
}

impl PrioArray {
    pub fn enqueue(&mut self, prio: usize, pid: Pid) {
        self.queue[prio].push_back(pid);
        self.bitmap[prio / 64] |= 1 << (prio % 64);
        self.nr_active += 1;
    }

    pub fn dequeue(&mut self, prio: usize, pid: Pid) {
        let q = &mut self.queue[prio];
        if let Some(i) = q.iter().position(|&p| p == pid) {
            q.remove(i);
            self.nr_active -= 1;
        }
        if q.is_empty() {
            self.bitmap[prio / 64] &= !(1 << (prio % 64));
        }
    }

    /// `sched_find_first_bit`: the best (lowest) non-empty level.
    pub fn first_prio(&self) -> Option<usize> {
        self.bitmap.iter().enumerate().find(|(_, w)| **w != 0).map(|(i, w)| i * 64 + w.trailing_zeros() as usize)
    }
}

/// Per-CPU O(1) runqueue.
#[derive(Clone, Debug, Default)]
pub struct O1Rq {
    pub arrays: [PrioArray; 2],
    /// Index of the active array (the other is expired).
    pub active: usize,
    /// When the first task expired since the last array switch (ns).
    pub expired_timestamp: Option<u64>,
    /// The best static priority in the expired array (MAX_PRIO if none).
    pub best_expired_prio: usize,
    pub nr_running: u32,
    /// Array switches so far (shown with the arrays).
    pub switches: u64,
    /// `cpu_load`: nr_running × SCHED_LOAD_SCALE, averaged per tick.
    pub cpu_load: u64,
    /// Balancing attempts from this CPU that moved nothing, in a row.
    pub nr_balance_failed: u32,
}

impl O1Rq {
    pub fn new() -> O1Rq {
        O1Rq { best_expired_prio: MAX_PRIO, ..O1Rq::default() }
    }

    pub fn active(&self) -> &PrioArray {
        &self.arrays[self.active]
    }

    pub fn expired(&self) -> &PrioArray {
        &self.arrays[1 - self.active]
    }
}

/// A task's O(1) state.
#[derive(Clone, Debug, Default)]
pub struct O1Task {
    pub static_prio: usize,
    pub prio: usize,
    pub sleep_avg_ns: u64,
    pub time_slice_ns: u64,
    /// Which array it is queued in (0/1), if queued.
    pub array: Option<usize>,
    /// 1 = woken normally, 2 = woken from an interrupt; 0 once credited.
    pub activated: u8,
    /// When it last switched in or out.
    pub timestamp_ns: u64,
    /// It was in the expired array when last dequeued (a balancing move
    /// puts it back in the same kind of array).
    pub was_expired: bool,
}

/// The whole O(1) state of a run: a runqueue per CPU, a record per task.
#[derive(Clone, Debug, Default)]
pub struct O1State {
    pub rqs: Vec<O1Rq>,
    pub tasks: Vec<O1Task>,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The timeslice table of kernel-model.md 5 (HZ = 1000).
    #[test]
    fn timeslice_table() {
        let ms = |nice| task_timeslice(static_prio(nice), 1_000_000) / NSEC_PER_MSEC;
        let table: Vec<(i32, u64)> = [-20, -15, -10, -5, -1, 0, 1, 5, 10, 15, 19].iter().map(|&n| (n, ms(n))).collect();
        assert_eq!(
            table,
            vec![
                (-20, 800),
                (-15, 700),
                (-10, 600),
                (-5, 500),
                (-1, 420),
                (0, 100),
                (1, 95),
                (5, 75),
                (10, 50),
                (15, 25),
                (19, 5)
            ]
        );
    }

    /// The CURRENT_BONUS a task needs to be TASK_INTERACTIVE, by nice.
    #[test]
    fn interactivity_thresholds() {
        let needed = |nice: i32| {
            (0..=10u64).find(|&b| {
                let sleep = b * MAX_SLEEP_AVG_NS / MAX_BONUS;
                task_interactive(effective_prio(static_prio(nice), sleep), static_prio(nice), nice)
            })
        };
        assert_eq!(needed(-20), Some(2));
        assert_eq!(needed(-10), Some(5));
        assert_eq!(needed(0), Some(7));
        assert_eq!(needed(10), Some(9));
        assert_eq!(needed(19), None);
    }

    #[test]
    fn bitmap_finds_the_best_level() {
        let mut a = PrioArray::default();
        a.enqueue(130, Pid(1));
        a.enqueue(115, Pid(2));
        a.enqueue(115, Pid(3));
        assert_eq!(a.first_prio(), Some(115));
        a.dequeue(115, Pid(2));
        a.dequeue(115, Pid(3));
        assert_eq!(a.first_prio(), Some(130));
        assert_eq!(a.nr_active, 1);
    }
}

//! A real trace's state at the lab's cursor (every CPU's current task, every thread's state and counters), replayed
//! from the records without going back to the start at every frame: a trace of a few hundred thousand records took
//! tens of milliseconds a frame to replay whole, and the cursor moves every frame while it plays. The state is kept
//! where the last cursor left it (playing forward replays only the records since), and saved every
//! `checkpoint_every` records as replays pass them (a jump back replays from the nearest save before it).

use super::replay::Replay;
use super::tid_table::TidTable;
use super::trace_text::{Event, Record};
use std::rc::Rc;

/// One thread at the cursor.
#[derive(Default, Clone, Debug, PartialEq)]
pub(super) struct Thread {
    pub(super) state: &'static str,
    pub(super) cpu: u32,
    pub(super) prio: i32,
    pub(super) sum_exec_ns: u64,
    pub(super) wait_ns: u64,
    pub(super) since: u64,
    pub(super) nvcsw: u64,
    pub(super) nivcsw: u64,
}

/// Every CPU's current task (kernel tid, 0 idle) and every thread, at a cursor.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct At {
    pub(super) curr: Vec<Option<u32>>,
    pub(super) threads: TidTable<Thread>,
}

/// The state after the first `upto` records, before a cursor's instant is counted in (`counted_to`).
#[derive(Clone)]
struct Replayed {
    upto: usize,
    at: At,
}

/// What a replay keeps between cursors (`Replay::at_cache`).
#[derive(Default)]
pub(crate) struct ReplayCache {
    /// `checkpoints[k]` is the state after `(k + 1) × checkpoint_every` records, saved in order as replays pass them.
    checkpoints: Vec<Replayed>,
    /// Where the last replay stopped.
    last: Option<Replayed>,
    /// The last cursor's state: a frame reads it twice (CPUs, then task rows).
    at: Option<(u64, Rc<At>)>,
}

/// Saves at least this far apart, and at most 64 of them: a jump back replays at most 1/64 of the trace (or 16,384
/// records), and the saves hold at most 64 copies of the thread table.
fn checkpoint_every(records: usize) -> usize {
    (records / 64).max(1 << 14)
}

impl Replayed {
    fn start(nr_cpus: u32) -> Replayed {
        Replayed { upto: 0, at: At { curr: vec![None; nr_cpus as usize], threads: TidTable::default() } }
    }

    /// One more record.
    fn apply(&mut self, r: &Record) {
        self.upto += 1;
        let a = &mut self.at;
        let t = r.ts_ns;
        match &r.event {
            Event::Switch { prev_pid, prev_state, next_pid, next_prio, .. } => {
                if *prev_pid != 0 {
                    let th = a.threads.entry_or(*prev_pid, Thread::default);
                    // Never seen before: it ran from the window's start.
                    th.sum_exec_ns += match th.state {
                        "running" => t - th.since,
                        "" => t,
                        _ => 0,
                    };
                    let preempted = prev_state.starts_with('R');
                    th.state = if preempted {
                        "runnable"
                    } else if prev_state.starts_with(['X', 'Z']) {
                        "exited"
                    } else {
                        "sleeping"
                    };
                    th.nivcsw += u64::from(preempted);
                    th.nvcsw += u64::from(!preempted);
                    th.since = t;
                }
                if *next_pid != 0 {
                    let th = a.threads.entry_or(*next_pid, Thread::default);
                    if th.state == "runnable" {
                        th.wait_ns += t - th.since;
                    }
                    th.state = "running";
                    th.cpu = r.cpu;
                    th.prio = *next_prio;
                    th.since = t;
                }
                a.curr[r.cpu as usize] = Some(*next_pid);
            }
            Event::Wakeup { pid, target_cpu } | Event::WakeupNew { pid, target_cpu } => {
                let th = a.threads.entry_or(*pid, Thread::default);
                if th.state != "running" && th.state != "runnable" {
                    th.state = "runnable";
                    th.cpu = *target_cpu;
                    th.since = t;
                }
            }
            Event::Migrate { pid, dest_cpu, .. } => {
                if let Some(th) = a.threads.get_mut(*pid).filter(|th| th.state != "running") {
                    th.cpu = *dest_cpu;
                }
            }
            Event::Exit { pid } => {
                if let Some(th) = a.threads.get_mut(*pid).filter(|th| th.state != "running") {
                    th.state = "exited";
                }
            }
            Event::Waking { .. } | Event::Fork { .. } | Event::Marker(_) => {}
        }
    }

    /// The state at instant `now` (at or after the last record applied): running threads have run, and runnable
    /// ones waited, until `now`.
    fn counted_to(&self, now: u64) -> At {
        let mut a = self.at.clone();
        for th in a.threads.values_mut() {
            match th.state {
                "running" => th.sum_exec_ns += now - th.since,
                "runnable" => th.wait_ns += now - th.since,
                _ => {}
            }
        }
        a
    }
}

impl Replay {
    /// Records at or before `now`: the page's event count at the cursor.
    pub fn events_at(&self, now: u64) -> usize {
        self.records.partition_point(|r| r.ts_ns <= now)
    }

    /// The state at `now`, replayed from where the last cursor left it or from the nearest save before `now`.
    pub(super) fn at(&self, now: u64) -> Rc<At> {
        let mut cache = self.at_cache.borrow_mut();
        if let Some((_, a)) = cache.at.as_ref().filter(|(t, _)| *t == now) {
            return Rc::clone(a);
        }
        let upto = self.events_at(now);
        let every = checkpoint_every(self.records.len());
        let mut r = match cache.last.take() {
            Some(last) if last.upto <= upto => last,
            _ => match cache.checkpoints[..].partition_point(|c| c.upto <= upto) {
                0 => Replayed::start(self.nr_cpus),
                k => cache.checkpoints[k - 1].clone(),
            },
        };
        while r.upto < upto {
            r.apply(&self.records[r.upto]);
            if r.upto == (cache.checkpoints.len() + 1) * every {
                cache.checkpoints.push(r.clone());
            }
        }
        let a = Rc::new(r.counted_to(now));
        cache.last = Some(r);
        cache.at = Some((now, Rc::clone(&a)));
        a
    }

    /// The state at `now` replayed from the start, as `at` did before it kept anything (tests).
    #[cfg(test)]
    pub(super) fn at_from_start(&self, now: u64) -> At {
        let mut r = Replayed::start(self.nr_cpus);
        for rec in &self.records[..self.events_at(now)] {
            r.apply(rec);
        }
        r.counted_to(now)
    }
}

#[cfg(test)]
#[path = "replay_cursor_test.rs"]
mod tests;

//! Exact rewind: a simulation plus periodic snapshots keyed by the number of
//! events processed. Going back restores the nearest earlier snapshot and
//! replays deterministically to the target, so the state reached is the state
//! that was there, not an approximation. Also steps to the next or previous
//! balancing decision, migration or sanity-checker violation, and feeds the
//! heatmaps' sampled history (which lives outside the snapshots, so a rewind
//! keeps what was already explored).
//!
//! ```text
//!   events: 0 ───── s1 ───── s2 ───── s3 ─── cursor
//!   back to e (s2 ≤ e < s3): restore s2, replay e − s2 events
//! ```
//!
//! Memory: snapshots leave out the run slices (the slices of an earlier state
//! are a prefix of the current ones, so a restore truncates them; when the
//! cap dropped that prefix, or a forward jump lands past them, the replay
//! from the snapshot brings detail back), and at most MAX_SNAPSHOTS are kept:
//! past that, every other one is dropped and the interval doubles.
//!
//! A run whose policy lives in a JavaScript engine (sched_ext) cannot be
//! snapshotted: a copy of the simulator shares the engine, whose state moves
//! on. Such a timeline keeps its configuration instead and goes back by
//! building the run afresh and replaying from its start (`replay`); a copy
//! of it (`clone`) is built the same way. Slower, and exactly as right.

use super::history::LoadHistory;
use crate::balance::decision::Outcome;
use crate::config::{PolicyKind, SimConfig};
use crate::sim::events::EventClass;
use crate::sim::Simulator;
use crate::time::SimTime;
use std::sync::Arc;

pub const MAX_SNAPSHOTS: usize = 24;
pub const FIRST_INTERVAL: u64 = 32768;

/// What the "next / previous" steps look for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mark {
    /// A load_balance call by a designated balancer (what the inspector shows).
    Decision,
    /// A task changed CPU.
    Migration,
    /// The sanity checker confirmed a violation.
    Violation,
    /// A scheduler tick (what "step tick" stops after).
    Tick,
}

impl Mark {
    pub fn parse(s: &str) -> Option<Mark> {
        match s {
            "decision" => Some(Mark::Decision),
            "migration" => Some(Mark::Migration),
            "violation" => Some(Mark::Violation),
            "tick" => Some(Mark::Tick),
            _ => None,
        }
    }
}

/// The counters a step is compared against to tell whether it made a mark.
#[derive(Clone, Copy)]
struct Counts {
    decisions: u64,
    migrations: u64,
    violations: u64,
}

fn counts(sim: &Simulator) -> Counts {
    Counts {
        decisions: sim.decisions_kept(),
        migrations: sim.machine_stats().migrations,
        violations: sim.sanity_violations_total(),
    }
}

fn made_mark(sim: &Simulator, before: &Counts, class: EventClass, m: Mark) -> bool {
    match m {
        Mark::Tick => class == EventClass::Tick,
        Mark::Decision => {
            let new = (sim.decisions_kept() - before.decisions) as usize;
            sim.decisions().iter().rev().take(new).any(|d| !matches!(d.outcome, Outcome::NotDesignated { .. }))
        }
        Mark::Migration => sim.machine_stats().migrations > before.migrations,
        Mark::Violation => sim.sanity_violations_total() > before.violations,
    }
}

#[derive(Clone)]
struct Snapshot {
    events: u64,
    now: SimTime,
    /// The simulator with its run slices left out.
    sim: Simulator,
    slices_len: usize,
}

/// A backward search in progress: the snapshot window to scan next.
#[derive(Clone, Copy)]
struct BackSearch {
    mark: Mark,
    /// Windows below snapshot `k` remain.
    k: usize,
    /// Marks at event counts below `end` are candidates.
    end: u64,
    /// Where the search started; any move in between ends it.
    origin: u64,
    snapshots: usize,
}

pub struct Timeline {
    sim: Simulator,
    snapshots: Vec<Snapshot>,
    interval: u64,
    history: LoadHistory,
    back: Option<BackSearch>,
    /// Set when snapshots cannot be taken: the run's configuration, to build
    /// it afresh (only the first snapshot's position is kept then).
    replay: Option<Arc<SimConfig>>,
}

impl Clone for Timeline {
    fn clone(&self) -> Timeline {
        let Some(cfg) = &self.replay else {
            return Timeline {
                sim: self.sim.clone(),
                snapshots: self.snapshots.clone(),
                interval: self.interval,
                history: self.history.clone(),
                back: self.back,
                replay: None,
            };
        };
        let mut copy = Timeline {
            sim: Simulator::new(cfg),
            snapshots: self.snapshots.clone(),
            interval: self.interval,
            history: self.history.clone(),
            back: None,
            replay: Some(cfg.clone()),
        };
        copy.seek_event(self.sim.events_processed());
        // A run stopped between events (run_until past the last one) has its
        // clock there; nothing happens before the next event, so only the
        // clock moves.
        if copy.sim.now() < self.sim.now() {
            copy.sim.run_until(self.sim.now());
        }
        copy
    }
}

impl Timeline {
    pub fn new(sim: Simulator) -> Timeline {
        Timeline::with_interval(sim, FIRST_INTERVAL)
    }

    /// The timeline of a run built from `cfg`; a sched_ext run goes back by
    /// replay from its start (see the module's note).
    pub fn from_config(cfg: &SimConfig) -> Timeline {
        let mut t = Timeline::new(Simulator::new(cfg));
        if cfg.policy.kind == PolicyKind::Ext {
            t.replay = Some(Arc::new(cfg.clone()));
        }
        t
    }

    /// A timeline whose first snapshot interval is `interval` events (tests
    /// use small ones to exercise the thinning).
    pub fn with_interval(mut sim: Simulator, interval: u64) -> Timeline {
        let history = LoadHistory::new(sim.rqs().len());
        let first = snapshot(&mut sim);
        Timeline { sim, snapshots: vec![first], interval: interval.max(1), history, back: None, replay: None }
    }

    pub fn sim(&self) -> &Simulator {
        &self.sim
    }

    /// The run at its start: a copy of the first snapshot, which thinning
    /// never drops (the trace export replays from it), or the run built
    /// afresh.
    pub fn start(&self) -> Simulator {
        self.copy_of(0)
    }

    /// The simulator as snapshot `k` holds it, to run on its own.
    fn copy_of(&self, k: usize) -> Simulator {
        match &self.replay {
            Some(cfg) => Simulator::new(cfg),
            None => self.snapshots[k].sim.clone(),
        }
    }
    pub fn history(&self) -> &LoadHistory {
        &self.history
    }
    pub fn snapshots(&self) -> usize {
        self.snapshots.len()
    }

    /// The one place events are processed: sample the history, step, and
    /// snapshot when the interval has passed.
    fn step_one(&mut self) -> Option<EventClass> {
        self.step_one_by(SimTime(u64::MAX))
    }

    /// One event due by `limit` (None when the next that counts is later, or
    /// the run has ended), snapshots taken as they fall due.
    fn step_one_by(&mut self, limit: SimTime) -> Option<EventClass> {
        if let Some(next) = self.sim.next_event_time() {
            self.history.observe(&self.sim, next);
        }
        let class = self.sim.step_classified_by(limit);
        let last = self.snapshots.last().map_or(0, |s| s.events);
        if class.is_some() && self.replay.is_none() && self.sim.events_processed() >= last + self.interval {
            let s = snapshot(&mut self.sim);
            self.snapshots.push(s);
            if self.snapshots.len() > MAX_SNAPSHOTS {
                // Keep the first (the start) and every other one after it.
                let mut i = 0;
                self.snapshots.retain(|_| {
                    i += 1;
                    i % 2 == 1
                });
                self.interval *= 2;
            }
        }
        class
    }

    pub fn step_event(&mut self) -> bool {
        self.sim.clear_rotations();
        self.step_one().is_some()
    }

    pub fn step_tick(&mut self) -> bool {
        self.sim.clear_rotations();
        loop {
            match self.step_one() {
                None => return false,
                Some(EventClass::Tick) => return true,
                Some(EventClass::Other) => {}
            }
        }
    }

    /// As `Simulator::run_until`, event by event (same loop, same result).
    pub fn run_until(&mut self, t: SimTime) {
        self.sim.clear_rotations();
        let t = t.min(self.sim.duration());
        while self.sim.next_event_time().is_some_and(|n| n <= t) {
            if self.step_one_by(t).is_none() {
                break;
            }
        }
        self.sim.run_until(t);
    }

    /// As `run_until`, but processing at most `max_events` events: true when
    /// it got to `t` (the clock is then `t`, as after `run_until`), false when
    /// it stopped short after the last event it processed. The states passed
    /// through are those of `run_until`, so calls from where it stopped add up
    /// to one `run_until`; the app's play loop uses it to bound each request's
    /// wall time however many events fall before `t`.
    pub fn run_until_limited(&mut self, t: SimTime, max_events: u64) -> bool {
        self.sim.clear_rotations();
        let t = t.min(self.sim.duration());
        let mut done = 0;
        while self.sim.next_event_time().is_some_and(|n| n <= t) {
            if done == max_events {
                return false;
            }
            if self.step_one_by(t).is_none() {
                break;
            }
            done += 1;
        }
        self.sim.run_until(t);
        true
    }

    /// Restores snapshot `k`, keeping the current run slices up to its length.
    fn restore(&mut self, k: usize) {
        let kept = self.sim.trace_mut().take_slices();
        let mut sim = self.copy_of(k);
        let snap = &self.snapshots[k];
        sim.trace_mut().rewind_slices(kept, snap.slices_len, snap.now);
        self.sim = sim;
    }

    /// Goes to the state right after event number `events`, the state a
    /// `step_event` reaching it leaves (its rotations included). Forward or
    /// backward; forward jumps start from a later snapshot when one exists.
    pub fn seek_event(&mut self, events: u64) {
        let cur = self.sim.events_processed();
        // The latest snapshot strictly before the target, so the last event is
        // replayed and its rotations are the ones shown.
        let k = self.snapshots.iter().rposition(|s| s.events < events.max(1)).unwrap_or(0);
        if events < cur || self.snapshots[k].events > cur {
            self.restore(k);
        }
        while self.sim.events_processed() + 1 < events {
            if self.step_one().is_none() {
                return;
            }
        }
        self.sim.clear_rotations();
        if self.sim.events_processed() < events {
            self.step_one();
        }
    }

    /// Goes to simulated time `t` (the state `run_until(t)` from the start
    /// would leave), backward through a snapshot.
    pub fn seek_time(&mut self, t: SimTime) {
        if t < self.sim.now() {
            let k = self.snapshots.iter().rposition(|s| s.now <= t).unwrap_or(0);
            self.restore(k);
        }
        self.run_until(t);
    }

    /// Steps forward until a step makes the mark; false if the run ended first.
    pub fn next_mark(&mut self, m: Mark) -> bool {
        self.next_mark_until(m, self.sim.duration()).unwrap_or(false)
    }

    /// As `next_mark`, but stops (`None`) once the next pending event is later
    /// than `limit` without having found one (the UI searches long runs in
    /// slices between frames; the states passed through are the same).
    pub fn next_mark_until(&mut self, m: Mark, limit: SimTime) -> Option<bool> {
        self.sim.clear_rotations();
        loop {
            if limit < self.sim.duration() && self.sim.next_event_time().is_none_or(|t| t > limit) {
                return None;
            }
            let before = counts(&self.sim);
            self.sim.clear_rotations();
            let Some(class) = self.step_one() else { return Some(false) };
            if made_mark(&self.sim, &before, class, m) {
                return Some(true);
            }
        }
    }

    /// Goes back to the latest event before the cursor that made the mark;
    /// false (and no move) if there is none.
    pub fn prev_mark(&mut self, m: Mark) -> bool {
        self.prev_mark_start(m);
        loop {
            if let Some(found) = self.prev_mark_continue() {
                return found;
            }
        }
    }

    /// Starts a backward search that `prev_mark_continue` carries out one
    /// snapshot window per call (the UI yields to the browser in between).
    pub fn prev_mark_start(&mut self, m: Mark) {
        let cur = self.sim.events_processed();
        self.back = Some(BackSearch {
            mark: m,
            k: self.snapshots.len(),
            end: cur,
            origin: cur,
            snapshots: self.snapshots.len(),
        });
    }

    /// Event count below which the backward search still has to look.
    pub fn prev_mark_searched_to(&self) -> u64 {
        self.back.map_or(0, |b| b.end)
    }

    /// Scans the next window back: `Some(true)` found and moved there,
    /// `Some(false)` none (or the search was interrupted), `None` not yet.
    pub fn prev_mark_continue(&mut self) -> Option<bool> {
        let mut b = self.back.take()?;
        if self.sim.events_processed() != b.origin || self.snapshots.len() != b.snapshots {
            return Some(false);
        }
        loop {
            if b.k == 0 {
                return Some(false);
            }
            b.k -= 1;
            if self.snapshots[b.k].events < b.end {
                break;
            }
        }
        let start = self.snapshots[b.k].events;
        // Replay the window (start, end) on a scratch copy, no history.
        let mut scratch = self.copy_of(b.k);
        let mut found = None;
        while scratch.events_processed() + 1 < b.end {
            let before = counts(&scratch);
            let Some(class) = scratch.step_classified() else { break };
            if made_mark(&scratch, &before, class, b.mark) {
                found = Some(scratch.events_processed());
            }
        }
        if let Some(e) = found {
            self.seek_event(e);
            return Some(true);
        }
        b.end = start + 1;
        self.back = Some(b);
        None
    }
}

fn snapshot(sim: &mut Simulator) -> Snapshot {
    let slices = std::mem::take(&mut sim.trace_mut().slices);
    let copy = sim.clone();
    sim.trace_mut().slices = slices;
    Snapshot { events: sim.events_processed(), now: sim.now(), sim: copy, slices_len: sim.trace().slices_total() }
}

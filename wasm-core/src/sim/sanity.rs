//! The paper's sanity checker (seed 000 section 4.1): every S (default 1 s)
//! check the invariant "no CPU is idle while another CPU has a waiting thread
//! that could run on it". If it is violated, watch for M (default 100 ms); if
//! the violation never clears during that window, report it.
//!
//! Our reading of "not resolved" (the paper's exact criterion is not in our
//! sources): the invariant is violated again when the window ends, and the
//! window wasted at least one whole core's worth of time (wasted core time
//! over the window ≥ M). Short-lived idling that balancing fixes within M,
//! and churn that idles a core now and then, are not reported.

use super::Simulator;
use crate::task::TaskState;
use crate::time::{CpuId, Pid, SimTime};
use crate::topology::cpumask::CpuMask;

/// Violations kept with their details (a long run at a short period could
/// otherwise hold one per period); all are counted.
pub const MAX_VIOLATIONS_KEPT: usize = 4096;
/// CPUs and threads a kept violation names (the rest are counted).
pub const MAX_VIOLATION_LIST: usize = 64;

pub use crate::config::SanityConfig;

/// One reported violation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Violation {
    /// When the check found it.
    pub detected: SimTime,
    /// When the watch window ended without the violation clearing.
    pub confirmed: SimTime,
    /// Idle CPUs a waiting thread could have used, at detection (the first
    /// MAX_VIOLATION_LIST), and how many there were.
    pub idle_cpus: Vec<CpuId>,
    pub idle_cpus_total: usize,
    /// Waiting threads that could have run on them, at detection (the first
    /// MAX_VIOLATION_LIST), and how many there were.
    pub waiting: Vec<Pid>,
    pub waiting_total: usize,
}

/// A violation being watched: when it was found, what it was, and the
/// wasted core time at that moment.
#[derive(Clone, Debug)]
pub struct Watch {
    pub start: SimTime,
    pub wasted_then: u64,
    pub idle_cpus: Vec<CpuId>,
    pub waiting: Vec<Pid>,
}

#[derive(Clone, Debug, Default)]
pub struct SanityState {
    /// A watch in progress.
    pub watching: Option<Watch>,
    /// The first MAX_VIOLATIONS_KEPT violations.
    pub violations: Vec<Violation>,
    pub violations_total: u64,
}

impl Simulator {
    /// The invariant's counter-examples right now: idle CPUs
    /// (`Core::runs_idle`: under sched_ext, running nothing, whatever the
    /// policy holds queued) that some waiting thread may run on, and those
    /// threads.
    pub(crate) fn invariant_violations(&mut self) -> (Vec<CpuId>, Vec<Pid>) {
        self.core.sync_index();
        let idle = &self.core.index.runs_idle;
        if idle.is_empty() {
            return (vec![], vec![]);
        }
        let mut cpus = CpuMask::new();
        let mut waiting = Vec::new();
        for rq in &self.core.rqs {
            for pid in rq.queued() {
                // Running, or asleep though kept queued by its class (DELAY_DEQUEUE): not waiting.
                if rq.curr() == Some(pid) || self.core.tasks[pid.idx()].state == TaskState::Sleeping {
                    continue;
                }
                let allowed = &self.core.tasks[pid.idx()].allowed;
                if allowed.intersects(idle) {
                    waiting.push(pid);
                    cpus.or_and(allowed, idle);
                }
            }
        }
        (cpus.iter().collect(), waiting)
    }

    /// The periodic check (every S).
    pub(crate) fn sanity_check(&mut self) {
        let Some(cfg) = self.core.sanity_cfg.clone() else { return };
        self.core.push(self.core.now.after(cfg.period_ns), super::events::Event::SanityCheck);
        if self.core.sanity.watching.is_some() {
            return;
        }
        let (cpus, waiting) = self.invariant_violations();
        if !cpus.is_empty() {
            self.core.sanity.watching = Some(Watch {
                start: self.core.now,
                wasted_then: self.core.stats.wasted_core_ns,
                idle_cpus: cpus,
                waiting,
            });
            self.core.push(self.core.now.after(cfg.window_ns), super::events::Event::SanityWatchEnd);
        }
    }

    /// The end of the watch window (M after detection): still violated means
    /// balancing did not resolve it.
    pub(crate) fn sanity_watch_end(&mut self) {
        let Some(w) = self.core.sanity.watching.take() else { return };
        let window = self.core.now.since(w.start);
        let wasted = self.core.stats.wasted_core_ns - w.wasted_then;
        if wasted >= window && !self.invariant_violations().0.is_empty() {
            self.core.sanity.violations_total += 1;
            if self.core.sanity.violations.len() < MAX_VIOLATIONS_KEPT {
                self.core.sanity.violations.push(Violation {
                    detected: w.start,
                    confirmed: self.core.now,
                    // Copied out (collecting from into_iter would keep the whole buffer).
                    idle_cpus_total: w.idle_cpus.len(),
                    idle_cpus: w.idle_cpus.iter().take(MAX_VIOLATION_LIST).copied().collect(),
                    waiting_total: w.waiting.len(),
                    waiting: w.waiting.iter().take(MAX_VIOLATION_LIST).copied().collect(),
                });
            }
        }
    }

    /// The violations kept (the first MAX_VIOLATIONS_KEPT).
    pub fn sanity_violations(&self) -> &[Violation] {
        &self.core.sanity.violations
    }

    /// Every violation the run reported.
    pub fn sanity_violations_total(&self) -> u64 {
        self.core.sanity.violations_total
    }
}

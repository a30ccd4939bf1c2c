//! Whole-machine accounting between events: wasted core time (the paper's
//! measure: a CPU idles while a thread that may run there waits elsewhere)
//! and the kernel's load average (`calc_global_load`).
//!
//! Between two events nothing changes, so each interval is charged with the
//! state it had; `account_interval` runs before every event is handled. The
//! same pass records runqueue-length and load changes in the trace.

use super::Simulator;
use crate::task::TaskState;
use crate::time::SimTime;
use crate::topology::cpumask::CpuMask;

/// `LOAD_FREQ`: the load average is sampled every 5 s (plus one tick).
pub const LOAD_FREQ_NS: u64 = 5_000_000_000;
const FSHIFT: u64 = 11;
const FIXED_1: u64 = 1 << FSHIFT;
/// e^(−5/60), e^(−5/300), e^(−5/900) in 11-bit fixed point.
const EXP: [u64; 3] = [1884, 2014, 2037];

#[derive(Clone, Debug, Default)]
pub struct MachineStats {
    /// Σ over idle online CPUs of time during which a runnable task allowed
    /// on them was waiting.
    pub wasted_core_ns: u64,
    /// The 1, 5 and 15 minute load averages, fixed point (FIXED_1 = 2048).
    pub loadavg: [u64; 3],
    pub last_accounted: SimTime,
    /// Per CPU: since when it has been idle without a break while some thread
    /// allowed on it waited elsewhere (None = not in such a stretch).
    pub wasted_since: Vec<Option<SimTime>>,
    /// Whether any entry of `wasted_since` is set (spares the common case a
    /// pass over every CPU).
    pub wasted_open: bool,
    /// The longest such stretch so far: the acceptance measure "no CPU idle
    /// for longer than M while a thread that may run there waits".
    pub longest_wasted_idle: Option<WastedStretch>,
}

/// One CPU's unbroken stretch of idling while work waited elsewhere.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WastedStretch {
    pub cpu: crate::time::CpuId,
    pub from: SimTime,
    pub ns: u64,
}

impl MachineStats {
    /// `calc_load`: one exponential step with the kernel's rounding.
    pub fn sample_load(&mut self, active: u64) {
        let active = active * FIXED_1;
        for (avg, e) in self.loadavg.iter_mut().zip(EXP) {
            let mut newload = *avg * e + active * (FIXED_1 - e);
            if active >= *avg {
                newload += FIXED_1 - 1;
            }
            *avg = newload / FIXED_1;
        }
    }

    pub fn loadavg_f64(&self) -> [f64; 3] {
        self.loadavg.map(|l| l as f64 / FIXED_1 as f64)
    }
}

impl Simulator {
    /// Charges the interval since the last accounting with the current state.
    pub(crate) fn account_interval(&mut self, until: SimTime) {
        let from = self.stats.last_accounted;
        let span = until.since(from);
        self.stats.last_accounted = self.stats.last_accounted.max(until);
        if span == 0 {
            return;
        }
        // One pass over the runqueues: count the waiting tasks and trace
        // every runqueue-length or load change, stamped with the time of the
        // event that left the state this interval had.
        let (mut waiting, mut any_idle) = (0, false);
        for rq in &self.rqs {
            waiting += rq.nr_running().saturating_sub(u32::from(rq.curr().is_some()));
            any_idle |= rq.online && rq.is_idle();
            self.trace.note_rq(from, rq.cpu, rq.nr_running(), rq.weighted_cpuload());
        }
        // Cheap common cases first: nothing waits, or no CPU idles. Then no
        // CPU is wasting time, and any open stretch has ended.
        if waiting == 0 || !any_idle {
            if self.stats.wasted_open {
                self.stats.wasted_since.fill(None);
                self.stats.wasted_open = false;
            }
            return;
        }
        // The CPUs some waiting task may use, then the idle ones among them.
        let mut usable = CpuMask::new();
        for rq in &self.rqs {
            for &pid in &rq.cfs_tasks {
                if self.tasks[pid as usize].state == TaskState::Runnable {
                    usable = usable.or(&self.tasks[pid as usize].allowed);
                }
            }
        }
        let mut wasted = 0;
        self.stats.wasted_since.resize(self.rqs.len(), None);
        for rq in &self.rqs {
            let since = &mut self.stats.wasted_since[rq.cpu as usize];
            if !(rq.online && rq.is_idle() && usable.test(rq.cpu)) {
                *since = None;
                continue;
            }
            wasted += 1;
            self.stats.wasted_open = true;
            let start = *since.get_or_insert(from);
            let ns = until.since(start);
            if self.stats.longest_wasted_idle.is_none_or(|l| ns > l.ns) {
                self.stats.longest_wasted_idle = Some(WastedStretch { cpu: rq.cpu, from: start, ns });
            }
        }
        self.stats.wasted_core_ns += wasted * span;
    }

    /// The load-average sample (`calc_global_load`): runnable tasks, running
    /// ones included (nothing here sleeps uninterruptibly).
    pub(crate) fn sample_load_average(&mut self) {
        let active: u64 = self.rqs.iter().map(|rq| rq.nr_running() as u64).sum();
        self.stats.sample_load(active);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn load_average_of_one_runnable_task_climbs_towards_one() {
        let mut s = MachineStats::default();
        for _ in 0..12 {
            s.sample_load(1);
        }
        // After one minute of a single hog the 1-minute average is 1 − 1/e ≈ 0.63.
        let l = s.loadavg_f64();
        assert!((0.6..0.67).contains(&l[0]), "{l:?}");
        assert!(l[1] < l[0] && l[2] < l[1]);
    }
}

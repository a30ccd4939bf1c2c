//! Whole-machine accounting between events: wasted core time (the paper's
//! measure: a CPU idles while a thread that may run there waits elsewhere)
//! and the kernel's load average (`calc_global_load`).
//!
//! Between two events nothing changes, so each interval is charged with the
//! state it had; `account_interval` runs before every event is handled. It
//! also records runqueue-length and load changes in the trace. It reads the
//! machine through `rq_index` (only the CPUs an event touched), never by a
//! pass over every CPU.

use super::Simulator;
use crate::task::TaskState;
use crate::time::CpuId;
use crate::time::SimTime;
use crate::topology::cpumask::CpuMask;
use std::collections::BTreeSet;

/// `LOAD_FREQ`: the load average is sampled every 5 s (plus one tick).
pub const LOAD_FREQ_NS: u64 = 5_000_000_000;
const FSHIFT: u64 = 11;
const FIXED_1: u64 = 1 << FSHIFT;
/// e^(−5/60), e^(−5/300), e^(−5/900) in 11-bit fixed point.
const EXP: [u64; 3] = [1884, 2014, 2037];

#[derive(Clone, Debug, Default)]
pub struct MachineStats {
    /// Σ over idle online CPUs (`Core::runs_idle`) of time during which a
    /// runnable task allowed on them was waiting (queued anywhere, a
    /// sched_ext policy's own queues included).
    pub wasted_core_ns: u64,
    /// Every task's migrations summed (`Task::stats.migrations`), counted as
    /// they happen so that per-step readers need not walk the task table.
    pub migrations: u64,
    /// The 1, 5 and 15 minute load averages, fixed point (FIXED_1 = 2048).
    pub loadavg: [u64; 3],
    pub last_accounted: SimTime,
    /// The CPUs wasting time now: online, idle, and some waiting thread may
    /// run there.
    wasted: CpuMask,
    wasted_count: u64,
    /// Per CPU: since when it has been idle without a break while some thread
    /// allowed on it waited elsewhere (None = not in such a stretch).
    wasted_since: Vec<Option<SimTime>>,
    /// The open stretches by (start ns, CPU): the first is the longest.
    open: BTreeSet<(u64, CpuId)>,
    /// The longest such stretch so far: the acceptance measure "no CPU idle
    /// for longer than M while a thread that may run there waits".
    pub longest_wasted_idle: Option<WastedStretch>,
    /// The wasted set before the last update, kept as storage for the next.
    scratch: CpuMask,
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
    /// The load-average sample (`calc_global_load`): runnable tasks, running
    /// ones included (nothing here sleeps uninterruptibly).
    pub(crate) fn sample_load_average(&mut self) {
        self.core.sync_index();
        self.core.stats.sample_load(self.core.index.nr_running);
    }
}

impl super::Core {
    /// The wasted CPUs are the idle ones (`Core::runs_idle`: a sched_ext
    /// CPU running nothing is idle, whatever its policy holds queued) that
    /// some waiting task may use: CPUs that join start a stretch at `from`,
    /// those that leave end theirs.
    fn update_wasted_set(&mut self, from: SimTime) {
        // Filled in the storage the previous set left (no allocation per change).
        let mut now = std::mem::take(&mut self.stats.scratch);
        if self.index.waiting > 0 && !self.index.runs_idle.is_empty() {
            now.clone_from(&self.index.runs_idle);
            now.and_with(self.index.usable());
        } else {
            now.clone_from(&CpuMask::new());
        }
        let st = &mut self.stats;
        let (old, new) = (st.wasted.words(), now.words());
        for w in 0..old.len().max(new.len()) {
            let (a, b) = (old.get(w).copied().unwrap_or(0), new.get(w).copied().unwrap_or(0));
            let mut changed = a ^ b;
            while changed != 0 {
                let bit = changed.trailing_zeros();
                changed &= changed - 1;
                let cpu = CpuId(w as u32 * 64 + bit);
                if st.wasted_since.len() <= cpu.idx() {
                    st.wasted_since.resize(cpu.idx() + 1, None);
                }
                let since = &mut st.wasted_since[cpu.idx()];
                if b & (1 << bit) != 0 {
                    *since = Some(from);
                    st.open.insert((from.ns(), cpu));
                } else if let Some(t) = since.take() {
                    st.open.remove(&(t.ns(), cpu));
                }
            }
        }
        st.wasted_count = now.weight() as u64;
        st.scratch = std::mem::replace(&mut st.wasted, now);
    }

    /// The wasted CPUs by a pass over every runqueue (the index self-check).
    fn wasted_set_by_scan(&self) -> CpuMask {
        let waiting: u32 =
            self.rqs.iter().map(|rq| rq.nr_running().saturating_sub(u32::from(rq.curr().is_some()))).sum();
        let mut usable = CpuMask::new();
        for rq in &self.rqs {
            for pid in rq.queued() {
                if self.tasks[pid.idx()].state == TaskState::Runnable {
                    usable.or_with(&self.tasks[pid.idx()].allowed);
                }
            }
        }
        let mut out = CpuMask::new();
        for rq in self.rqs.iter().filter(|rq| waiting > 0 && self.runs_idle(rq) && usable.test(rq.cpu)) {
            out.set(rq.cpu);
        }
        out
    }
}

impl super::Core {
    /// Charges the interval since the last accounting with the current state.
    /// Only the CPUs that changed since are read (the index), so the cost
    /// does not grow with the machine.
    pub(crate) fn account_interval(&mut self, until: SimTime) {
        let from = self.stats.last_accounted;
        let span = until.since(from);
        self.stats.last_accounted = self.stats.last_accounted.max(until);
        if span == 0 {
            return;
        }
        self.sync_index();
        // Trace every runqueue-length or load change, in CPU order, stamped
        // with the time of the event that left the state this interval had.
        let mut dirty = std::mem::take(&mut self.index.scratch);
        self.index.cpus.drain_sorted_into(super::rq_index::NOTE, &mut dirty);
        for &cpu in &dirty {
            let rq = &self.rqs[cpu.idx()];
            self.trace.note_rq(from, cpu, rq.nr_running(), rq.weighted_cpuload());
        }
        self.index.scratch = dirty;
        if std::mem::take(&mut self.index.wasted_inputs_changed) {
            self.update_wasted_set(from);
        }
        if self.index_check() {
            let (kept, scanned) = (self.stats.wasted.iter().collect::<Vec<_>>(), self.wasted_set_by_scan());
            assert_eq!(kept, scanned.iter().collect::<Vec<_>>(), "wasted CPUs at {until:?}");
            let summed: u64 = self.tasks.iter().map(|t| t.stats.migrations).sum();
            assert_eq!(self.stats.migrations, summed, "migrations counted at {until:?}");
        }
        let st = &mut self.stats;
        st.wasted_core_ns += st.wasted_count * span;
        if let Some(&(start, cpu)) = st.open.first() {
            let ns = until.ns() - start;
            if st.longest_wasted_idle.is_none_or(|l| ns > l.ns) {
                st.longest_wasted_idle = Some(WastedStretch { cpu, from: SimTime(start), ns });
            }
        }
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

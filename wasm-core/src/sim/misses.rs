//! Missed deadlines, one record each, for the lanes to mark: the model's own
//! observation, not a kernel counter (Linux 4.1 counts none; 6.12 only flags a
//! spent runtime for a SIGXCPU when the task asked, `SCHED_FLAG_DL_OVERRUN` in
//! `update_curr_dl_se`, deadline.c 1528–1535). Two kinds:
//!
//! ```text
//!   Deadline  a SCHED_DEADLINE server charged past its absolute deadline with
//!             runtime still owed (`dl::cbs::DlEntity::charge`): the job was not
//!             done by the deadline its reservation promised; seen at the charge
//!             (`update_curr_dl`, at a tick, a dequeue or a put_prev)
//!   Timer     a periodic thread reached its timer step after its next period
//!             had begun (`timer.rs`): its job overran the implicit deadline, the
//!             period's end; rt-app's own reading of a negative slack at its
//!             timer event, seen when the job ends
//! ```
//!
//! `deadline` is the deadline missed, `at` when the run noticed (never before
//! it). Records come in the order noticed, so `at` never decreases. Kept out of
//! the trace (no run's hash moves) and bounded: past `MAX_MISSES` the older
//! half is dropped, as the lanes' slices are, and `kept_from` says from when
//! the log is whole; the totals count every miss.

use crate::time::{CpuId, Pid, SimTime};

/// Records kept at most (about 2 MB); the older half goes when it is full.
pub const MAX_MISSES: usize = 1 << 16;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MissKind {
    /// A deadline server's deadline passed with runtime still owed.
    Deadline,
    /// A periodic timer's period was over before the thread's timer step (an overrun).
    Timer,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DeadlineMiss {
    /// When the run noticed the miss.
    pub at: SimTime,
    pub pid: Pid,
    /// Where the task was then (its lane).
    pub cpu: CpuId,
    /// The absolute deadline missed.
    pub deadline: SimTime,
    pub kind: MissKind,
}

#[derive(Clone, Debug, Default)]
pub struct MissLog {
    kept: Vec<DeadlineMiss>,
    /// Misses of each kind over the whole run (deadline, timer).
    totals: [u64; 2],
    /// The latest `at` of a dropped record: before it the log is not whole.
    dropped_until: Option<SimTime>,
}

impl MissLog {
    pub fn push(&mut self, m: DeadlineMiss) {
        debug_assert!(self.kept.last().is_none_or(|l| l.at <= m.at), "misses come in the order noticed");
        self.totals[m.kind as usize] += 1;
        if self.kept.len() == MAX_MISSES {
            let half = MAX_MISSES / 2;
            self.dropped_until = Some(self.kept[half - 1].at);
            self.kept.drain(..half);
        }
        self.kept.push(m);
    }

    /// Every miss of `kind` the run noticed (dropped records included).
    pub fn total(&self, kind: MissKind) -> u64 {
        self.totals[kind as usize]
    }

    /// From when the kept records are the whole story (None: from the start).
    pub fn kept_from(&self) -> Option<SimTime> {
        self.dropped_until
    }

    /// The kept records whose span from deadline to notice overlaps `[t0, t1]`, in the order noticed.
    pub fn overlapping(&self, t0: SimTime, t1: SimTime) -> impl Iterator<Item = &DeadlineMiss> {
        // `at` is ordered and `deadline <= at`: none noticed before t0 reaches into the window.
        let first = self.kept.partition_point(|m| m.at < t0);
        self.kept[first..].iter().filter(move |m| m.deadline <= t1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn miss(at: u64, deadline: u64) -> DeadlineMiss {
        DeadlineMiss { at: SimTime(at), pid: Pid(1), cpu: CpuId(0), deadline: SimTime(deadline), kind: MissKind::Timer }
    }

    #[test]
    fn a_window_sees_the_misses_whose_lateness_crosses_it() {
        let mut log = MissLog::default();
        for m in [miss(10, 9), miss(28, 27), miss(50, 20)] {
            log.push(m);
        }
        let at = |t0, t1| log.overlapping(SimTime(t0), SimTime(t1)).map(|m| m.at.0).collect::<Vec<_>>();
        // Noticed at 50 but due at 20: it is late across [21, 26] too.
        assert_eq!(at(21, 26), [50]);
        assert_eq!(at(0, 9), [10]);
        assert_eq!(at(11, 19), Vec::<u64>::new());
        assert_eq!(log.total(MissKind::Timer), 3);
        assert_eq!(log.total(MissKind::Deadline), 0);
    }

    #[test]
    fn a_full_log_drops_its_older_half_and_keeps_counting() {
        let mut log = MissLog::default();
        for t in 0..MAX_MISSES as u64 + 1 {
            log.push(miss(t, t));
        }
        assert_eq!(log.total(MissKind::Timer), MAX_MISSES as u64 + 1);
        assert_eq!(log.kept.len(), MAX_MISSES / 2 + 1);
        assert_eq!(log.kept_from(), Some(SimTime(MAX_MISSES as u64 / 2 - 1)));
        assert_eq!(log.kept[0].at, SimTime(MAX_MISSES as u64 / 2));
    }
}

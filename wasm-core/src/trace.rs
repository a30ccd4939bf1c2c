//! The trace: what happened, in kernel tracepoint vocabulary.
//!
//! Every record is folded into a running FNV-1a hash (the determinism
//! fingerprint compared across runs and targets) and kept in a bounded ring of
//! recent records for the UI. Per-CPU run slices (who ran when) are kept for
//! the Gantt lanes.
//!
//! Every change of a runqueue's length or load is recorded too (the paper's
//! visualisation tool records each one, not samples): those records go to the
//! hash and to their own bounded ring, so they do not crowd out the scheduling
//! events above.
//!
//! Records never carry allocation-order or host-dependent data, so the hash is
//! a pure function of (scenario, seed).

use crate::task::TaskState;
use crate::time::{CpuId, Pid, SimTime};
use std::collections::VecDeque;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TraceKind {
    /// `sched_switch`: prev (None = idle) leaves the CPU in `prev_state`.
    Switch { prev: Option<Pid>, next: Option<Pid>, prev_state: TaskState },
    /// `sched_wakeup` onto `cpu` (the record's CPU).
    Wakeup { pid: Pid },
    /// `sched_wakeup_new`: a new task's first enqueue.
    WakeupNew { pid: Pid },
    /// The task blocked for `ns`.
    Sleep { pid: Pid, ns: u64 },
    /// `sched_process_exit`.
    Exit { pid: Pid },
    /// The tick found that curr used up its slice.
    TickPreempt { pid: Pid },
    /// A wakeup preempted curr.
    WakeupPreempt { curr: Pid, by: Pid },
    /// `sched_migrate_task`: the record's CPU is the destination.
    Migrate { pid: Pid, from: CpuId, cause: MigrateCause },
    /// A load_balance pass ended; `moved` tasks were pulled (record CPU = dst).
    Balance { level: u8, moved: u32 },
    /// The CPU went offline (true) or online (false).
    Hotplug { offline: bool },
    /// `sched_pi_setprio`: a PI mutex lent the task a prio, or took it back
    /// (the record's CPU is the task's).
    PiSetprio { pid: Pid, oldprio: u32, newprio: u32 },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MigrateCause {
    /// Wakeup placement chose another CPU than the previous one.
    Wakeup,
    /// Periodic load balancing.
    Balance,
    /// Balancing by a CPU about to go idle.
    NewIdle,
    /// The stopper pushed a running task (active balance).
    Active,
    /// The CPU went offline.
    Hotplug,
    /// A sched_ext CPU took the task from a shared dispatch queue.
    Dispatch,
    /// A new task placed away from the CPU that forked it (`wake_up_new_task`).
    Fork,
    /// A task moved by the stopper at its execve (`sched_exec`).
    Exec,
    /// The real-time class pushed a waiting task to a CPU running something
    /// of lower priority (`push_rt_task`; 4.1's pull asks an overloaded CPU to push).
    RtPush,
    /// The deadline class moved a task to a CPU whose earliest deadline is later (`push_dl_task`, `pull_dl_task`).
    DlPush,
    /// The stopper moved a running task off a CPU its new affinity excludes
    /// (`set_cpus_allowed_ptr` → `migration_cpu_stop`).
    Affinity,
}

impl MigrateCause {
    pub fn as_str(self) -> &'static str {
        match self {
            MigrateCause::Wakeup => "wakeup",
            MigrateCause::Balance => "balance",
            MigrateCause::NewIdle => "newidle",
            MigrateCause::Active => "active",
            MigrateCause::Hotplug => "hotplug",
            MigrateCause::Dispatch => "dispatch",
            MigrateCause::Fork => "fork",
            MigrateCause::Exec => "exec",
            MigrateCause::RtPush => "rt-push",
            MigrateCause::DlPush => "dl-push",
            MigrateCause::Affinity => "affinity",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TraceRecord {
    pub at: SimTime,
    pub cpu: CpuId,
    pub kind: TraceKind,
}

/// One stretch of a task running on a CPU.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RunSlice {
    pub cpu: CpuId,
    pub pid: Pid,
    pub start: SimTime,
    pub end: SimTime,
}

/// A runqueue's length or load changed (recorded once per event, with the
/// values the event left).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RqChange {
    pub at: SimTime,
    pub cpu: CpuId,
    pub nr_running: u32,
    /// `weighted_cpuload`: the root runqueue's runnable_load_avg.
    pub load: u64,
}

const RECENT_CAPACITY: usize = 512;
/// Runqueue changes kept for the UI (a few ms of a busy 64-CPU machine;
/// older ones survive only in the hash and in the UI's own history).
const RQ_CHANGES_CAPACITY: usize = 4096;
/// Run slices kept at most (24 bytes each, about 50 MB): past that the
/// oldest half is dropped, so a long run's memory stays bounded. The
/// heatmaps keep the whole run as bucketed aggregates; the lanes show full
/// detail near the cursor, and a rewind brings back the detail before it.
pub const MAX_RUN_SLICES: usize = 1 << 21;
const RQ_CHANGE_TAG: u64 = 11;
const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
const FNV_PRIME: u64 = 0x0000_0100_0000_01b3;

/// The run slices taken out of a trace, for a rewind (`Trace::take_slices`).
pub struct KeptSlices {
    slices: Vec<RunSlice>,
    dropped: usize,
    dropped_until: SimTime,
}

#[derive(Clone, Debug)]
pub struct Trace {
    hash: u64,
    records: u64,
    recent: VecDeque<TraceRecord>,
    /// Closed run slices, in order of their end time: the most recent ones,
    /// at most MAX_RUN_SLICES (see `slices_dropped`).
    pub slices: Vec<RunSlice>,
    /// How many of the run's slices were dropped before `slices[0]`.
    slices_dropped: usize,
    /// The end of the latest dropped slice: no lane detail before it.
    dropped_until: SimTime,
    /// Per CPU, the (nr_running, load) last recorded.
    rq_last: Vec<(u32, u64)>,
    rq_changes: VecDeque<RqChange>,
    rq_changes_total: u64,
}

impl Default for Trace {
    fn default() -> Self {
        Trace {
            hash: FNV_OFFSET,
            records: 0,
            recent: VecDeque::new(),
            slices: Vec::new(),
            slices_dropped: 0,
            dropped_until: SimTime(0),
            rq_last: Vec::new(),
            rq_changes: VecDeque::new(),
            rq_changes_total: 0,
        }
    }
}

impl Trace {
    pub fn emit(&mut self, at: SimTime, cpu: CpuId, kind: TraceKind) {
        let rec = TraceRecord { at, cpu, kind };
        self.fold(&encode(&rec));
        self.records += 1;
        if self.recent.len() == RECENT_CAPACITY {
            self.recent.pop_front();
        }
        self.recent.push_back(rec);
    }

    /// Records the runqueue's state if it differs from the last record.
    pub fn note_rq(&mut self, at: SimTime, cpu: CpuId, nr_running: u32, load: u64) {
        let i = cpu.idx();
        if self.rq_last.len() <= i {
            self.rq_last.resize(i + 1, (0, 0));
        }
        if self.rq_last[i] == (nr_running, load) {
            return;
        }
        self.rq_last[i] = (nr_running, load);
        self.fold(&[at.ns(), (u64::from(cpu.0) << 8) | RQ_CHANGE_TAG, nr_running as u64, load, 0]);
        self.rq_changes_total += 1;
        if self.rq_changes.len() == RQ_CHANGES_CAPACITY {
            self.rq_changes.pop_front();
        }
        self.rq_changes.push_back(RqChange { at, cpu, nr_running, load });
    }

    /// The (nr_running, load) last recorded for `cpu`.
    pub fn rq_last(&self, cpu: CpuId) -> (u32, u64) {
        self.rq_last.get(cpu.idx()).copied().unwrap_or((0, 0))
    }

    /// The most recent runqueue changes, oldest first.
    pub fn rq_changes(&self, n: usize) -> impl Iterator<Item = &RqChange> {
        self.rq_changes.iter().skip(self.rq_changes.len().saturating_sub(n))
    }

    /// Heap bytes the trace holds (run slices, rings): the figure the memory
    /// budget is about.
    pub fn heap_bytes(&self) -> usize {
        use std::mem::size_of;
        self.slices.capacity() * size_of::<RunSlice>()
            + self.recent.capacity() * size_of::<TraceRecord>()
            + self.rq_changes.capacity() * size_of::<RqChange>()
            + self.rq_last.capacity() * size_of::<(u32, u64)>()
    }

    /// How many runqueue changes the run has recorded.
    pub fn rq_changes_total(&self) -> u64 {
        self.rq_changes_total
    }

    pub fn close_slice(&mut self, slice: RunSlice) {
        if slice.end > slice.start {
            // Drop before pushing, so the Vec never grows past MAX_RUN_SLICES.
            if self.slices.len() >= MAX_RUN_SLICES {
                let drop = MAX_RUN_SLICES / 2;
                self.dropped_until = self.dropped_until.max(self.slices[drop - 1].end);
                self.slices.drain(..drop);
                self.slices_dropped += drop;
            }
            self.slices.push(slice);
        }
    }

    /// How many run slices the run has closed (kept or dropped).
    pub fn slices_total(&self) -> usize {
        self.slices_dropped + self.slices.len()
    }

    /// The kept slices from the `total`-th of the run on.
    pub fn slices_since(&self, total: usize) -> &[RunSlice] {
        &self.slices[total.saturating_sub(self.slices_dropped).min(self.slices.len())..]
    }

    /// Lane detail exists from this time on (None: from the start).
    pub fn slices_kept_from(&self) -> Option<SimTime> {
        (self.slices_dropped > 0).then_some(self.dropped_until)
    }

    /// Takes the slices out, with what was dropped before them (a snapshot
    /// leaves the slices out: they only grow, so a rewind truncates them).
    pub fn take_slices(&mut self) -> KeptSlices {
        KeptSlices {
            slices: std::mem::take(&mut self.slices),
            dropped: self.slices_dropped,
            dropped_until: self.dropped_until,
        }
    }

    /// After a restore to a state, at time `at`, that had closed `total`
    /// slices: the kept ones up to it. When it lies outside them (before
    /// them, or after them: a forward jump to a later snapshot), none — the
    /// replay from `at` on brings the detail back.
    pub fn rewind_slices(&mut self, kept: KeptSlices, total: usize, at: SimTime) {
        let KeptSlices { mut slices, dropped, dropped_until } = kept;
        if total >= dropped && total <= dropped + slices.len() {
            slices.truncate(total - dropped);
            self.slices_dropped = dropped;
            self.dropped_until = dropped_until;
        } else {
            slices.clear();
            self.slices_dropped = total;
            self.dropped_until = at;
        }
        self.slices = slices;
    }

    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// How many scheduling records the run has emitted (the exporter reads
    /// each event's new ones from the recent ring).
    pub fn records_total(&self) -> u64 {
        self.records
    }

    /// The most recent records, oldest first.
    pub fn recent(&self, n: usize) -> impl Iterator<Item = &TraceRecord> {
        self.recent.iter().skip(self.recent.len().saturating_sub(n))
    }

    /// FNV-1a over the words' little-endian bytes. A zero byte's step is a
    /// bare multiply by the prime (xor with 0 changes nothing), and products
    /// modulo 2^64 associate, so a word's high zero bytes — most of most
    /// words — are folded in one multiply by a power of the prime: the same
    /// hash as byte by byte, with a shorter chain of dependent multiplies.
    /// Inlined into its two callers, which fold a fixed five words.
    // Forced inline natively only: in the wasm the five forced inlines cost 4.3 KB gzipped (302.8 vs 298.5 KB).
    #[cfg_attr(not(target_arch = "wasm32"), inline(always))]
    fn fold(&mut self, words: &[u64]) {
        let mut h = self.hash;
        for &w in words {
            // Bytes up to the highest nonzero one, one at a time; the rest at once.
            let n = 8 - (w.leading_zeros() / 8) as usize;
            let mut v = w;
            for _ in 0..n {
                h = (h ^ (v & 0xff)).wrapping_mul(FNV_PRIME);
                v >>= 8;
            }
            h = h.wrapping_mul(FNV_PRIME_POW[8 - n]);
        }
        self.hash = h;
    }
}

/// FNV_PRIME^k modulo 2^64, k = 0..=8.
const FNV_PRIME_POW: [u64; 9] = {
    let mut p = [1u64; 9];
    let mut k = 1;
    while k < 9 {
        p[k] = p[k - 1].wrapping_mul(FNV_PRIME);
        k += 1;
    }
    p
};

fn opt(p: Option<Pid>) -> u64 {
    p.map_or(u64::MAX, |p| u64::from(p.0))
}

fn encode(r: &TraceRecord) -> [u64; 5] {
    let (tag, a, b, c) = match r.kind {
        TraceKind::Switch { prev, next, prev_state } => (1, opt(prev), opt(next), prev_state as u64),
        TraceKind::Wakeup { pid } => (2, u64::from(pid.0), 0, 0),
        TraceKind::WakeupNew { pid } => (3, u64::from(pid.0), 0, 0),
        TraceKind::Sleep { pid, ns } => (4, u64::from(pid.0), ns, 0),
        TraceKind::Exit { pid } => (5, u64::from(pid.0), 0, 0),
        TraceKind::TickPreempt { pid } => (6, u64::from(pid.0), 0, 0),
        TraceKind::WakeupPreempt { curr, by } => (7, u64::from(curr.0), u64::from(by.0), 0),
        TraceKind::Migrate { pid, from, cause } => (8, u64::from(pid.0), u64::from(from.0), cause as u64),
        TraceKind::Balance { level, moved } => (9, level as u64, moved as u64, 0),
        TraceKind::Hotplug { offline } => (10, offline as u64, 0, 0),
        TraceKind::PiSetprio { pid, oldprio, newprio } => {
            (11, u64::from(pid.0), u64::from(oldprio), u64::from(newprio))
        }
    };
    [r.at.ns(), (u64::from(r.cpu.0) << 8) | tag, a, b, c]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The byte-at-a-time FNV-1a the hash is defined as.
    fn fnv_bytes(mut h: u64, words: &[u64]) -> u64 {
        for w in words {
            for b in w.to_le_bytes() {
                h ^= b as u64;
                h = h.wrapping_mul(FNV_PRIME);
            }
        }
        h
    }

    #[test]
    fn fold_is_fnv1a_byte_by_byte() {
        let words = [0, 1, 0xff, 0x100, u64::MAX, 1 << 63, 0x0123_4567_89ab_cdef, 5_000_000_123, 0x00ff_0000_0000_0000];
        let mut t = Trace::default();
        t.fold(&words);
        assert_eq!(t.hash(), fnv_bytes(FNV_OFFSET, &words));
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..1000 {
            // xorshift words with runs of zero bytes of every length.
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let w = [x >> (x % 64), x & 0xffff, x >> 40];
            let before = t.hash();
            t.fold(&w);
            assert_eq!(t.hash(), fnv_bytes(before, &w));
        }
    }
}

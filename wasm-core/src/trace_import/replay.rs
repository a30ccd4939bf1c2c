//! A real trace as the lab's views draw a simulation: the CPU lanes' run
//! slices, the heatmaps' per-CPU history, the sanity checker's violations
//! and the tasks' names, from one pass over the records.
//!
//! ```text
//!   records ─► per thread: running on a CPU | queued on a CPU | asleep | exited
//!           ─► per CPU:    who runs (slices), how many are queued (nr_running, load)
//!           ─► checks:     an idle CPU while a thread waits on another (wasted time, violations)
//! ```
//!
//! Times are ns from the window's start (the page's clock starts at 0 as a
//! simulation's does); CPUs are the report's (model) numbering, records on
//! other host CPUs are left out. A trace says nothing of affinity, so the
//! checker takes every waiting thread as allowed on every CPU, and nothing of
//! PELT, so "load" is the queued threads' nice weights.

use super::analysis::{self, RealReport};
use super::import::{self, Choices, Format};
use super::tid_table::TidTable;
use super::trace_text::{Event, Record};
use crate::api::report::ViolationReport;
use crate::latency::LatencyRecord;
use crate::sched::weights::nice_to_weight;
use crate::sim::sanity::{MAX_VIOLATIONS_KEPT, MAX_VIOLATION_LIST};
use crate::time::CpuId;
use std::collections::HashMap;

/// The largest trace the page opens: its text, the records and the views' state live in one tab's memory
/// (the CLI reads up to `import::MAX_TRACE_BYTES`).
pub const MAX_PAGE_TRACE_BYTES: u64 = 64 << 20;
/// Heatmap buckets at most (the model's history keeps a few thousand too).
pub const HISTORY_BUCKETS: u64 = 2_000;
/// The checker looks this often, and a violation must last this long: a
/// trace is a few seconds at most, so the model's 1 s period would look once.
pub const CHECK_PERIOD_NS: u64 = 10_000_000;

/// One run slice of a lane: CPU, task (dense index), start, end.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Slice {
    pub cpu: u32,
    pub task: u32,
    pub start_ns: u64,
    pub end_ns: u64,
}

/// A real trace read for the page.
pub struct Replay {
    pub format: Format,
    /// The `schedsim real-trace` report, unchanged.
    pub report: RealReport,
    pub nr_cpus: u32,
    pub duration_ns: u64,
    /// Records in page time (ns from the window's start; earlier ones dropped), on the model's CPUs.
    pub records: Vec<Record>,
    /// Task names by dense index ("comm"), and each one's kernel tid.
    pub names: Vec<String>,
    pub tids: Vec<u32>,
    index: HashMap<u32, u32>,
    /// Run slices by CPU, in time order.
    pub slices: Vec<Vec<Slice>>,
    pub width_ns: u64,
    pub buckets: usize,
    /// Per bucket × CPU: mean queued-or-running threads, and their mean nice weight sum.
    pub nr_running: Vec<f32>,
    pub load: Vec<f32>,
    pub migrations: Vec<u32>,
    pub wasted: Vec<u64>,
    pub wasted_core_ns: u64,
    /// The sanity checker's reports, in the model's record and within its bounds (`sim::sanity`'s).
    pub violations: Vec<ViolationReport>,
    pub violations_total: u64,
    /// Each workload process's wakeup latency samples (by the report's process order).
    pub latency: Vec<LatencyRecord>,
    /// The replayed states kept between cursors (`replay_cursor`).
    pub(super) at_cache: std::cell::RefCell<super::replay_cursor::ReplayCache>,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Where {
    Asleep,
    Queued(u32),
    Running(u32),
}

/// A violation being watched: when it was found, the wasted time then, and what it was.
struct Watch {
    start: u64,
    wasted_then: u64,
    idle: Vec<u32>,
    waiting: Vec<u32>,
}

/// What the sweep holds at one instant.
struct State {
    at: u64,
    curr: Vec<Option<u32>>,
    since: Vec<u64>,
    thread: TidTable<(Where, i32)>,
    queued: Vec<u32>,
    queued_weight: Vec<u64>,
}

impl State {
    fn idle(&self, c: usize) -> bool {
        self.curr[c] == Some(0) && self.queued[c] == 0
    }

    /// Idle CPUs while a thread waits on a busy one (0 when none waits), in O(CPUs): this runs at every record.
    fn wasting(&self) -> u64 {
        let busy = |c: usize| self.curr[c].is_some_and(|p| p != 0);
        let waiting = (0..self.curr.len()).any(|c| busy(c) && self.queued[c] > 0);
        if waiting {
            (0..self.curr.len()).filter(|&c| self.idle(c)).count() as u64
        } else {
            0
        }
    }

    /// Idle CPUs and the threads waiting on busy ones, right now (at the checks only: it looks at every thread).
    fn invariant(&self) -> (Vec<u32>, Vec<u32>) {
        let idle: Vec<u32> = (0..self.curr.len()).filter(|&c| self.idle(c)).map(|c| c as u32).collect();
        if idle.is_empty() {
            return (idle, vec![]);
        }
        let mut waiting: Vec<u32> = self
            .thread
            .iter()
            .filter(|(_, (w, _))| matches!(w, Where::Queued(c) if self.curr[*c as usize].is_some_and(|p| p != 0)))
            .map(|(tid, _)| tid)
            .collect();
        waiting.sort_unstable();
        (idle, waiting)
    }
}

/// The report of `text` (as `schedsim real-trace` gives it) and the views' state.
pub fn open(text: &str, name: &str, choices: &Choices) -> Result<Replay, String> {
    // As `import::report` does, keeping the workload's window and latency samples.
    let format = import::detect(text);
    let parsed = import::parse(text, format)?;
    let workload = import::workload(text, name, choices, &parsed)?;
    let (report, latency) = analysis::analyse_with_latency(&workload, &parsed.records, parsed.lost);
    let (w0, w1) = workload.window;
    let cpu_of: HashMap<u32, u32> = report.cpus.iter().map(|c| (c.host_cpu, c.cpu)).collect();
    let records: Vec<Record> = parsed
        .records
        .into_iter()
        .filter(|r| r.ts_ns >= w0 && r.ts_ns < w1)
        .filter_map(|mut r| {
            r.cpu = *cpu_of.get(&r.cpu)?;
            r.ts_ns -= w0;
            r.event = match r.event {
                Event::Waking { pid, target_cpu } => Event::Waking { pid, target_cpu: mapped(&cpu_of, target_cpu) },
                Event::Wakeup { pid, target_cpu } => Event::Wakeup { pid, target_cpu: mapped(&cpu_of, target_cpu) },
                Event::WakeupNew { pid, target_cpu } => {
                    Event::WakeupNew { pid, target_cpu: mapped(&cpu_of, target_cpu) }
                }
                Event::Migrate { pid, orig_cpu, dest_cpu } => {
                    Event::Migrate { pid, orig_cpu: mapped(&cpu_of, orig_cpu), dest_cpu: mapped(&cpu_of, dest_cpu) }
                }
                e => e,
            };
            Some(r)
        })
        .collect();
    let nr_cpus = report.cpus.len() as u32;
    let duration_ns = w1.saturating_sub(w0).max(1);
    let width_ns = duration_ns.div_ceil(HISTORY_BUCKETS).max(1_000);
    let buckets = duration_ns.div_ceil(width_ns).max(1) as usize;
    let mut r = Replay {
        format,
        report,
        nr_cpus,
        duration_ns,
        records,
        names: vec![],
        tids: vec![],
        index: HashMap::new(),
        slices: vec![vec![]; nr_cpus as usize],
        width_ns,
        buckets,
        nr_running: vec![0.0; buckets * nr_cpus as usize],
        load: vec![0.0; buckets * nr_cpus as usize],
        migrations: vec![0; buckets],
        wasted: vec![0; buckets],
        wasted_core_ns: 0,
        violations: vec![],
        violations_total: 0,
        latency,
        at_cache: Default::default(),
    };
    r.sweep();
    Ok(r)
}

/// A CPU number of the trace in model numbering (CPUs outside the run keep a number past the last).
fn mapped(cpu_of: &HashMap<u32, u32>, host: u32) -> u32 {
    cpu_of.get(&host).copied().unwrap_or(u32::MAX)
}

impl Replay {
    /// The dense index of kernel tid `tid` (named by `comm` the first time it is seen).
    fn task(&mut self, tid: u32, comm: &str) -> u32 {
        if let Some(&i) = self.index.get(&tid) {
            return i;
        }
        let i = self.names.len() as u32;
        self.names.push(comm.to_string());
        self.tids.push(tid);
        self.index.insert(tid, i);
        i
    }

    /// The dense index of a tid already seen.
    pub fn task_of(&self, tid: u32) -> Option<u32> {
        self.index.get(&tid).copied()
    }

    fn sweep(&mut self) {
        let n = self.nr_cpus as usize;
        let mut s = State {
            at: 0,
            curr: vec![None; n],
            since: vec![0; n],
            thread: TidTable::default(),
            queued: vec![0; n],
            queued_weight: vec![0; n],
        };
        let records = std::mem::take(&mut self.records);
        let mut next_check = 0;
        let mut watch: Option<Watch> = None;
        for r in &records {
            while next_check <= r.ts_ns {
                self.advance(&mut s, next_check);
                self.check(&s, &mut watch);
                next_check += CHECK_PERIOD_NS;
            }
            self.advance(&mut s, r.ts_ns);
            self.apply(&mut s, r);
        }
        let end = self.duration_ns;
        while next_check < end {
            self.advance(&mut s, next_check);
            self.check(&s, &mut watch);
            next_check += CHECK_PERIOD_NS;
        }
        self.advance(&mut s, end);
        for c in 0..n {
            if let Some(p) = s.curr[c].filter(|&p| p != 0) {
                self.run_slice(c, p, s.since[c], end);
            }
        }
        self.records = records;
        // Threads only ever seen leaving a CPU: the trace named them nowhere else.
        for (name, tid) in self.names.iter_mut().zip(&self.tids) {
            if name.is_empty() {
                *name = format!("tid {tid}");
            }
        }
        let mut violations = std::mem::take(&mut self.violations);
        for tid in violations.iter_mut().flat_map(|v| v.waiting_threads.iter_mut()) {
            let comm = tid.parse().ok().and_then(|t| self.task_of(t)).map_or("?", |i| self.names[i as usize].as_str());
            *tid = format!("{comm}[{tid}]");
        }
        self.violations = violations;
    }

    /// Accounts the time from the last instant to `to`: nr_running, load and wasted time per bucket.
    fn advance(&mut self, s: &mut State, to: u64) {
        let to = to.min(self.duration_ns);
        if to <= s.at {
            return;
        }
        let n = self.nr_cpus as usize;
        let wasted_rate = s.wasting();
        let mut t = s.at;
        while t < to {
            let b = (t / self.width_ns) as usize;
            let b_end = ((b as u64 + 1) * self.width_ns).min(to);
            let dt = b_end - t;
            let frac = dt as f32 / self.width_ns as f32;
            for c in 0..n {
                let running = s.curr[c].is_some_and(|p| p != 0);
                let w = s.curr[c].and_then(|p| s.thread.get(p)).map_or(0, |&(_, prio)| weight(prio));
                self.nr_running[b * n + c] += (s.queued[c] + u32::from(running)) as f32 * frac;
                self.load[b * n + c] += (s.queued_weight[c] + w) as f32 * frac;
            }
            self.wasted[b] += wasted_rate * dt;
            self.wasted_core_ns += wasted_rate * dt;
            t = b_end;
        }
        s.at = to;
    }

    /// The paper's rule on the trace: violated now, still violated a period later, and a whole core wasted meanwhile.
    fn check(&mut self, s: &State, watch: &mut Option<Watch>) {
        let (idle, waiting) = s.invariant();
        let violated = !idle.is_empty() && !waiting.is_empty();
        if let Some(w) = watch.take() {
            if violated && self.wasted_core_ns - w.wasted_then >= CHECK_PERIOD_NS {
                self.violations_total += 1;
                if self.violations.len() < MAX_VIOLATIONS_KEPT {
                    // Named after the sweep: a thread's comm may come later in the trace than its wait.
                    let names = w.waiting.iter().take(MAX_VIOLATION_LIST).map(|tid| tid.to_string()).collect();
                    self.violations.push(ViolationReport {
                        detected_ns: w.start,
                        confirmed_ns: s.at,
                        idle_cpus_total: w.idle.len(),
                        idle_cpus: w.idle.into_iter().take(MAX_VIOLATION_LIST).map(CpuId).collect(),
                        waiting_threads_total: w.waiting.len(),
                        waiting_threads: names,
                    });
                }
                return;
            }
        }
        if violated {
            *watch = Some(Watch { start: s.at, wasted_then: self.wasted_core_ns, idle, waiting });
        }
    }

    fn run_slice(&mut self, cpu: usize, tid: u32, start: u64, end: u64) {
        if end > start {
            if let Some(task) = self.task_of(tid) {
                self.slices[cpu].push(Slice { cpu: cpu as u32, task, start_ns: start, end_ns: end });
            }
        }
    }

    fn set(&mut self, s: &mut State, tid: u32, to: Where, prio: Option<i32>) {
        let n = self.nr_cpus;
        let (old, old_prio) = s.thread.get(tid).copied().unwrap_or((Where::Asleep, 120));
        let prio = prio.unwrap_or(old_prio);
        if let Where::Queued(c) = old {
            if c < n {
                s.queued[c as usize] -= 1;
                s.queued_weight[c as usize] -= weight(old_prio);
            }
        }
        if let Where::Queued(c) = to {
            if c < n {
                s.queued[c as usize] += 1;
                s.queued_weight[c as usize] += weight(prio);
            }
        }
        s.thread.insert(tid, (to, prio));
    }

    fn apply(&mut self, s: &mut State, r: &Record) {
        let c = r.cpu as usize;
        let t = r.ts_ns;
        match &r.event {
            Event::Switch { prev_pid, prev_prio, prev_state, next_pid, next_prio, next_comm } => {
                if *prev_pid != 0 {
                    // A CPU's first switch: its prev ran from the window's start.
                    let since = if s.curr[c].is_some() { s.since[c] } else { 0 };
                    self.task(*prev_pid, "");
                    self.run_slice(c, *prev_pid, since, t);
                    let to = match prev_state.chars().next() {
                        Some('R') => Where::Queued(r.cpu),
                        _ => Where::Asleep,
                    };
                    self.set(s, *prev_pid, to, Some(*prev_prio));
                    if matches!(prev_state.chars().next(), Some('X' | 'Z')) {
                        s.thread.remove(*prev_pid);
                    }
                }
                if *next_pid != 0 {
                    let i = self.task(*next_pid, next_comm);
                    if self.names[i as usize].is_empty() {
                        self.names[i as usize] = next_comm.clone();
                    }
                    self.set(s, *next_pid, Where::Running(r.cpu), Some(*next_prio));
                }
                s.curr[c] = Some(*next_pid);
                s.since[c] = t;
            }
            Event::Wakeup { pid, target_cpu } | Event::WakeupNew { pid, target_cpu } => {
                let running = matches!(s.thread.get(*pid), Some((Where::Running(_), _)));
                if !running {
                    self.set(s, *pid, Where::Queued(*target_cpu), None);
                }
            }
            Event::Migrate { pid, dest_cpu, .. } => {
                let b = ((t / self.width_ns) as usize).min(self.buckets - 1);
                self.migrations[b] += 1;
                if let Some((Where::Queued(_), _)) = s.thread.get(*pid) {
                    self.set(s, *pid, Where::Queued(*dest_cpu), None);
                }
            }
            Event::Exit { pid } => {
                if !matches!(s.thread.get(*pid), Some((Where::Running(_), _))) {
                    self.set(s, *pid, Where::Asleep, None);
                    s.thread.remove(*pid);
                }
            }
            Event::Waking { .. } | Event::Fork { .. } | Event::Marker(_) => {}
        }
    }
}

/// A task's weight from its trace priority (120 + nice; real-time and deadline priorities count as nice -20).
fn weight(prio: i32) -> u64 {
    nice_to_weight((prio - 120).clamp(-20, 19))
}

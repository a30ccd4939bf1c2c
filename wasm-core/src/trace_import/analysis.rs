//! A real run's trace as the simulator's report: the workload's threads and
//! each CPU's idle followed through the window, everything else ignored.
//!
//! ```text
//!   sched_switch  prev ──► its run since the CPU's last switch ends (CPU time, the longest run); R/R+ =
//!                          preempted (involuntary, waits from now), any other state = blocked/exited (voluntary)
//!                 next ──► its wait ends; a pending sched_waking gives a wakeup latency sample
//!                 both ──► the prio each was switched at (below 100: real-time), beside the policy the
//!                          trace's header says the run set
//!   sched_waking  ─────► latency starts (the task is not running)
//!   sched_wakeup(_new) ► wait starts (it is on a runqueue)
//!   sched_migrate_task ► a migration      sched_process_exit ► the thread's end
//!   a deadline process ──► its CPU time per period lived (`deadline`), beside the reservation the header says
//! ```
//!
//! Times are clipped to the window [start, end); counts take the events
//! inside it. A CPU's first switch says who ran before it (its `prev`).

use super::deadline::RealDeadline;
use super::manifest::Workload;
use super::tid_table::TidTable;
use super::trace_text::{Event, Record};
use crate::api::report::{jain, ProcessReport};
use crate::latency::LatencyRecord;
use crate::sched::policy::MAX_RT_PRIO;
use serde::Serialize;
use std::collections::HashMap;

/// One CPU of the real run (model numbering, and the host's).
#[derive(Serialize, Debug, Clone, PartialEq, Eq)]
#[cfg_attr(any(test, feature = "gen"), derive(ts_rs::TS))]
pub struct RealCpu {
    pub cpu: u32,
    pub host_cpu: u32,
    pub busy_ns: u64,
    pub idle_ns: u64,
    /// The part of `busy_ns` the workload's threads ran.
    pub workload_ns: u64,
}

/// Events of the workload's threads inside the window, by tracepoint.
#[derive(Serialize, Debug, Clone, Default, PartialEq, Eq)]
#[cfg_attr(any(test, feature = "gen"), derive(ts_rs::TS))]
pub struct EventCounts {
    pub sched_switch: u64,
    pub sched_waking: u64,
    pub sched_wakeup: u64,
    pub sched_wakeup_new: u64,
    pub sched_migrate_task: u64,
    pub sched_process_fork: u64,
    pub sched_process_exit: u64,
}

/// What the real kernel did with the workload: the `schedsim run` report's figures.
#[derive(Serialize, Debug)]
#[cfg_attr(any(test, feature = "gen"), derive(ts_rs::TS))]
pub struct RealReport {
    pub scenario: String,
    pub seed: u64,
    /// The kernel release the run was on.
    pub kernel: String,
    /// The window's length.
    pub window_ns: u64,
    pub events: EventCounts,
    /// Events the trace buffer dropped (the figures are then incomplete).
    pub lost_events: u64,
    pub migrations: u64,
    pub jain_fairness_threads: f64,
    pub processes: Vec<ProcessReport>,
    /// Each process's policy, in the order of `processes`.
    pub policies: Vec<RealPolicy>,
    pub cpus: Vec<RealCpu>,
}

/// A process's scheduling policy in a real run: what the run set, and the
/// kernel priorities its threads were switched at.
#[derive(Serialize, Debug, Clone, PartialEq, Eq)]
#[cfg_attr(any(test, feature = "gen"), derive(ts_rs::TS))]
pub struct RealPolicy {
    /// 'normal', 'batch', 'idle', 'fifo', 'rr' or 'deadline' as the run set it (the trace's header). Where the header
    /// does not say (a trace recorded elsewhere, or before policies), what the priorities show: 'rt' below
    /// 100 (the trace does not tell FIFO from RR), 'deadline' below 0, else 'normal'; 'unknown' if no
    /// thread of it was switched.
    pub policy: String,
    /// 1–99 for a real-time policy (from the header, or 99 − prio from the trace), else 0.
    pub rt_priority: u32,
    /// The lowest and highest kernel priority (sched_switch's prio) its threads were switched in or out
    /// at: 0–98 real-time (99 − rt_priority), 100–139 fair (120 + nice), -1 deadline; None if none was.
    pub trace_prio: Option<[i32; 2]>,
    /// A deadline process's reservation (the trace's header) and its runtime per period as measured; None
    /// for other policies, and where the header does not say.
    pub dl: Option<RealDeadline>,
}

impl RealPolicy {
    /// The policy as the report prints it: "fifo 50", "normal".
    pub fn label(&self) -> String {
        if self.rt_priority > 0 {
            format!("{} {}", self.policy, self.rt_priority)
        } else {
            self.policy.clone()
        }
    }
}

fn policy_of(set: Option<(crate::sched::policy::SchedPolicy, u32)>, prios: Option<[i32; 2]>) -> RealPolicy {
    let (policy, rt_priority) = match (set, prios) {
        (Some((p, prio)), _) => (p.name().to_string(), prio),
        (None, Some([low, _])) if low < 0 => ("deadline".into(), 0),
        (None, Some([low, _])) if low < MAX_RT_PRIO as i32 => ("rt".into(), (MAX_RT_PRIO as i32 - 1 - low) as u32),
        (None, Some(_)) => ("normal".into(), 0),
        (None, None) => ("unknown".into(), 0),
    };
    RealPolicy { policy, rt_priority, trace_prio: prios, dl: None }
}

/// A trace's report with the format it was read as: `schedsim real-trace --json` and the page's
/// `RealTrace.real_report_json`.
#[derive(Serialize)]
#[cfg_attr(any(test, feature = "gen"), derive(ts_rs::TS))]
pub struct ReadReport<'a> {
    /// The format the trace was read as (`Format::name`).
    pub format: &'static str,
    pub report: &'a RealReport,
}

#[derive(Default)]
struct Thread {
    cpu_ns: u64,
    wait_ns: u64,
    nvcsw: u64,
    nivcsw: u64,
    migrations: u64,
    running: bool,
    runnable_since: Option<u64>,
    waking_at: Option<u64>,
    exited_at: Option<u64>,
    /// Its longest run ended inside the window (clipped to it).
    longest_run_ns: u64,
    /// The lowest and highest prio it was switched at.
    prio: Option<[i32; 2]>,
}

impl Thread {
    fn saw_prio(&mut self, prio: i32) {
        self.prio = Some(self.prio.map_or([prio, prio], |[lo, hi]| [lo.min(prio), hi.max(prio)]));
    }
}

#[derive(Default, Clone)]
struct Cpu {
    /// The task on the CPU and since when (None: not seen yet).
    cur: Option<(u32, u64)>,
    busy_ns: u64,
    workload_ns: u64,
}

/// The report of a real run from its records (time-ordered, as `parse_trace` gives them).
pub fn analyse(w: &Workload, records: &[Record], lost_events: u64) -> RealReport {
    analyse_with_latency(w, records, lost_events).0
}

/// As `analyse`, with each process's wakeup latency samples (the page draws their distribution).
pub fn analyse_with_latency(w: &Workload, records: &[Record], lost_events: u64) -> (RealReport, Vec<LatencyRecord>) {
    let (w0, w1) = w.window;
    let clip = |a: u64, b: u64| b.min(w1).saturating_sub(a.max(w0));
    let inside = |t: u64| (w0..w1).contains(&t);
    // Each workload thread's (process, thread) by tid, through a dense number: a `HashMap<u32, u32>` like the
    // replay's own, so the wasm carries one map of tids (see `tid_table`).
    let place_of: Vec<(usize, usize)> =
        w.processes.iter().enumerate().flat_map(|(p, pr)| (0..pr.tids.len()).map(move |k| (p, k))).collect();
    let index: HashMap<u32, u32> =
        w.processes.iter().flat_map(|pr| pr.tids.iter()).enumerate().map(|(g, &tid)| (tid, g as u32)).collect();
    let place = |tid: &u32| index.get(tid).map(|&g| place_of[g as usize]);
    let mut threads: Vec<Vec<Thread>> =
        w.processes.iter().map(|p| p.tids.iter().map(|_| Thread::default()).collect()).collect();
    let mut latency: Vec<LatencyRecord> = w.processes.iter().map(|_| LatencyRecord::default()).collect();
    let mut cpus: TidTable<Cpu> = TidTable::default();
    let mut ev = EventCounts::default();
    let first_ts = records.first().map_or(w0, |r| r.ts_ns);
    for r in records {
        let t = r.ts_ns;
        let count = |c: &mut u64, pid: u32| *c += u64::from(inside(t) && index.contains_key(&pid));
        match &r.event {
            Event::Switch { prev_pid, prev_prio, prev_state, next_pid, next_prio, .. } => {
                let on = cpus.entry_or(r.cpu, Cpu::default);
                let since = on.cur.map_or(first_ts, |(_, s)| s);
                let ran = clip(since, t);
                if *prev_pid != 0 {
                    on.busy_ns += ran;
                }
                on.cur = Some((*next_pid, t));
                if inside(t) && (index.contains_key(prev_pid) || index.contains_key(next_pid)) {
                    ev.sched_switch += 1;
                }
                if let Some((p, k)) = place(prev_pid) {
                    on.workload_ns += ran;
                    let th = &mut threads[p][k];
                    th.cpu_ns += ran;
                    th.running = false;
                    th.saw_prio(*prev_prio);
                    let preempted = prev_state.starts_with('R');
                    if inside(t) {
                        th.longest_run_ns = th.longest_run_ns.max(ran);
                        if preempted {
                            th.nivcsw += 1;
                        } else {
                            th.nvcsw += 1;
                        }
                    }
                    th.runnable_since = preempted.then_some(t);
                }
                if let Some((p, k)) = place(next_pid) {
                    let th = &mut threads[p][k];
                    th.saw_prio(*next_prio);
                    if let Some(s) = th.runnable_since.take() {
                        th.wait_ns += clip(s, t);
                    }
                    if let Some(woken) = th.waking_at.take() {
                        if inside(woken) {
                            latency[p].record(t - woken);
                        }
                    }
                    th.running = true;
                }
            }
            Event::Waking { pid, .. } => {
                count(&mut ev.sched_waking, *pid);
                if let Some((p, k)) = place(pid) {
                    let th = &mut threads[p][k];
                    if !th.running && th.waking_at.is_none() {
                        th.waking_at = Some(t);
                    }
                }
            }
            Event::Wakeup { pid, .. } | Event::WakeupNew { pid, .. } => {
                if matches!(r.event, Event::Wakeup { .. }) {
                    count(&mut ev.sched_wakeup, *pid);
                } else {
                    count(&mut ev.sched_wakeup_new, *pid);
                }
                if let Some((p, k)) = place(pid) {
                    let th = &mut threads[p][k];
                    if !th.running && th.runnable_since.is_none() {
                        th.runnable_since = Some(t);
                    }
                }
            }
            Event::Migrate { pid, .. } => {
                count(&mut ev.sched_migrate_task, *pid);
                if let Some((p, k)) = place(pid) {
                    threads[p][k].migrations += u64::from(inside(t));
                }
            }
            Event::Fork { child_pid, .. } => count(&mut ev.sched_process_fork, *child_pid),
            Event::Exit { pid } => {
                count(&mut ev.sched_process_exit, *pid);
                if let Some((p, k)) = place(pid) {
                    threads[p][k].exited_at = Some(t);
                }
            }
            Event::Marker(_) => {}
        }
    }
    // Close what is still open at the window's end.
    for on in cpus.values_mut() {
        if let Some((pid, since)) = on.cur {
            let ran = clip(since, w1);
            if pid != 0 {
                on.busy_ns += ran;
            }
            if let Some((p, k)) = place(&pid) {
                on.workload_ns += ran;
                threads[p][k].cpu_ns += ran;
            }
        }
    }
    for th in threads.iter_mut().flatten() {
        if let Some(s) = th.runnable_since {
            th.wait_ns += clip(s, w1);
        }
    }
    let window_ns = w1.saturating_sub(w0);
    let capacity = window_ns as f64 * w.host_cpus.len() as f64;
    let processes = w
        .processes
        .iter()
        .zip(&threads)
        .zip(&latency)
        .map(|((pr, ths), lat)| {
            let sum = |f: fn(&Thread) -> u64| ths.iter().map(f).sum::<u64>();
            let cpu_time_ns = sum(|t| t.cpu_ns);
            let start = w0 + pr.start_ns;
            let ends: Option<Vec<u64>> = ths.iter().map(|t| t.exited_at.filter(|&e| e < w1)).collect();
            ProcessReport {
                tgid: pr.tids.first().copied().unwrap_or(0),
                name: pr.name.clone(),
                threads: pr.tids.len(),
                cpu_time_ns,
                share: if capacity > 0.0 { cpu_time_ns as f64 / capacity } else { 0.0 },
                wait_time_ns: sum(|t| t.wait_ns),
                nvcsw: sum(|t| t.nvcsw),
                nivcsw: sum(|t| t.nivcsw),
                longest_run_ns: ths.iter().map(|t| t.longest_run_ns).max().unwrap_or(0),
                migrations: sum(|t| t.migrations),
                // A trace has no program steps to be late for.
                timer_overruns: 0,
                deadline_misses: 0,
                completion_ns: ends.and_then(|e| e.into_iter().max()).map(|end| end.saturating_sub(start)),
                wakeup_latency_ns: (!lat.is_empty()).then(|| {
                    let q = lat.percentiles(&[50.0, 90.0, 99.0]);
                    [q[0], q[1], q[2], lat.max()]
                }),
            }
        })
        .collect::<Vec<_>>();
    let policies = w
        .processes
        .iter()
        .zip(&threads)
        .map(|(pr, ths)| {
            let prios = ths.iter().filter_map(|t| t.prio).reduce(|a, b| [a[0].min(b[0]), a[1].max(b[1])]);
            let mut policy = policy_of(pr.policy, prios);
            policy.dl = pr.dl.map(|dl| {
                // Each thread's life in the window: from the process's start to its exit or the window's end.
                let start = w0.saturating_add(pr.start_ns);
                let lived = ths.iter().map(|t| clip(start, t.exited_at.unwrap_or(w1))).sum();
                RealDeadline::measured(dl, ths.iter().map(|t| t.cpu_ns).sum(), lived)
            });
            policy
        })
        .collect();
    let cpus = w
        .host_cpus
        .iter()
        .enumerate()
        .map(|(i, &h)| {
            let on = cpus.get(h).cloned().unwrap_or_default();
            // A CPU with no switch at all ran one task throughout; unknown, so counted idle.
            RealCpu {
                cpu: i as u32,
                host_cpu: h,
                busy_ns: on.busy_ns,
                idle_ns: window_ns.saturating_sub(on.busy_ns),
                workload_ns: on.workload_ns,
            }
        })
        .collect();
    let report = RealReport {
        scenario: w.scenario.clone(),
        seed: w.seed,
        kernel: w.kernel.clone(),
        window_ns,
        events: ev,
        lost_events,
        migrations: processes.iter().map(|p| p.migrations).sum(),
        jain_fairness_threads: jain(&threads.iter().flatten().map(|t| t.cpu_ns as f64).collect::<Vec<_>>()),
        processes,
        policies,
        cpus,
    };
    (report, latency)
}

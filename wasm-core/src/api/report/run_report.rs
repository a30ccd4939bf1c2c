//! What a run's report holds: the headline figures, each CPU's and each
//! process's, the sanity checker's violations, the schedstats and the
//! exercise's verdict. A simulation fills it (`collect`), and so does a
//! recorded trace (`trace_import::replay_view`), so the page reads one shape.

use super::schedstat::CpuSchedstat;
use super::verdict::Verdict;
use super::violation::ViolationReport;
use crate::time::CpuId;
use serde::Serialize;

#[derive(Serialize, Debug)]
#[cfg_attr(any(test, feature = "gen"), derive(ts_rs::TS))]
pub struct Report {
    pub scenario: String,
    pub seed: u64,
    pub sim_time_ns: u64,
    pub events: u64,
    pub trace_hash: String,
    /// Σ over CPUs of time idle while a thread allowed there was waiting.
    pub wasted_core_ns: u64,
    /// The longest unbroken stretch one CPU idled while a thread allowed
    /// there waited elsewhere: (cpu, from ns, length ns), if any.
    pub longest_wasted_idle: Option<(CpuId, u64, u64)>,
    /// Set when the run stopped early because it spent its event budget: the
    /// simulated time it stopped at (ns).
    pub event_budget_stop_ns: Option<u64>,
    /// What the run did that the scenario did not ask for (threads ended
    /// for never taking time, forks refused at the thread limit, hotplug
    /// events not carried out), one sentence each; empty in a normal run.
    pub notes: Vec<String>,
    /// Load averages (1, 5, 15 minutes), the kernel's fixed-point formula.
    pub loadavg: [f64; 3],
    /// Jain's fairness index over the threads' CPU times (1 = all equal).
    pub jain_fairness_threads: f64,
    pub migrations: u64,
    pub balance_decisions: u64,
    /// The sanity checker's reports: when detected and confirmed (ns), the
    /// idle CPUs and the waiting threads (the first 4,096 reports, each
    /// naming at most 64 CPUs and 64 threads; the totals count them all).
    pub sanity_violations: Vec<ViolationReport>,
    pub sanity_violations_total: u64,
    pub cpus: Vec<CpuReport>,
    pub processes: Vec<ProcessReport>,
    /// 4.1's schedstat counters per CPU and per domain (`schedsim run --schedstat` prints them as
    /// /proc/schedstat); empty in `page_report`.
    pub schedstat: Vec<CpuSchedstat>,
    /// The scenario's exercise judged from these figures (`api::report::judge`);
    /// the simulator does not hold the scenario's exercise, so whoever has
    /// both sets it (`with_exercise`).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(any(test, feature = "gen"), ts(optional))]
    pub exercise: Option<Verdict>,
}

#[derive(Serialize, Debug)]
#[cfg_attr(any(test, feature = "gen"), derive(ts_rs::TS))]
pub struct CpuReport {
    pub cpu: CpuId,
    pub busy_ns: u64,
    pub idle_ns: u64,
}

#[derive(Serialize, Debug, Clone)]
#[cfg_attr(any(test, feature = "gen"), derive(ts_rs::TS))]
pub struct ProcessReport {
    pub tgid: u32,
    pub name: String,
    pub threads: usize,
    pub cpu_time_ns: u64,
    /// CPU time over (elapsed time × CPUs): the fraction of the machine used.
    pub share: f64,
    pub wait_time_ns: u64,
    pub nvcsw: u64,
    pub nivcsw: u64,
    /// Its threads' longest time on a CPU between two switches (one run), ns: a
    /// real-time RR task's slice, a fair task's longest turn.
    pub longest_run_ns: u64,
    pub migrations: u64,
    /// When the last thread exited, from the process start (None if running).
    pub completion_ns: Option<u64>,
    /// Wakeup latency percentiles (wakeup to running), ns: p50, p90, p99, max.
    pub wakeup_latency_ns: Option<[u64; 4]>,
    /// Timer steps its threads reached after the period had ended (late: they went on without sleeping).
    pub timer_overruns: u64,
    /// Deadlines its SCHED_DEADLINE threads' servers let pass with runtime still owed (the model's count:
    /// 4.1 keeps none).
    pub deadline_misses: u64,
}

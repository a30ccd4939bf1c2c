//! A program's steps as a scenario writes them: one kind per step (run, sleep,
//! a loop, …), a duration as a number or a distribution. `validate::program`
//! turns them into the engine's program.

use serde::{Deserialize, Serialize};

/// The longest timer period, in µs: the longest run (`file::MAX_DURATION_MS`, which imports this file).
pub const MAX_PERIOD_US: u64 = 600_000 * 1_000;

#[cfg(any(test, feature = "gen"))]
use crate::api::text::NAME_PATTERN;

/// How a `post` or `await` step waits.
pub const WAIT_POLICIES: &[&str] = &["spin", "yield", "block"];
/// How a timer catches up after an overrun.
pub const TIMER_MODES: &[&str] = &["relative", "absolute"];

/// Exactly one of run_us, sleep_us, busy_us, body (a loop), exit, wait, wake, barrier (with optional spin_us),
/// lock, unlock, cond_wait (with mutex), cond_signal, cond_broadcast, timer (with period_us and optional shared
/// and timer_mode), sched_setattr, set_cpus, set_cgroup, yield, take_job, fork, wait_child, post or await (with
/// optional wait_policy and spin_us).
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
#[cfg_attr(any(test, feature = "gen"), derive(schemars::JsonSchema), schemars(rename = "op"))]
pub struct OpFile {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub run_us: Option<DistFile>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sleep_us: Option<DistFile>,
    /// Busy on the CPU until this much wall-clock time has passed since the step began, however long the thread
    /// waited for a CPU meanwhile (rt-app's runtime); run_us is an amount of work instead.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub busy_us: Option<DistFile>,
    /// With body: how many times (forever without it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub repeat: Option<u32>,
    /// A loop: repeat times, or forever without repeat; a loop forever needs a step that takes time or
    /// waits (the engine refuses one that would loop at one instant).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub body: Option<Vec<OpFile>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(any(test, feature = "gen"), schemars(extend("const" = true)))]
    pub exit: Option<bool>,
    /// Block until woken (futex wait); a wakeup sent earlier is not lost.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(any(test, feature = "gen"), schemars(extend("const" = true)))]
    pub wait: Option<bool>,
    /// Wake 'process' (its thread 0) or 'process/k'.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(any(test, feature = "gen"), schemars(pattern(NAME_PATTERN)))]
    pub wake: Option<String>,
    /// Barrier of this process: all its threads meet.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(any(test, feature = "gen"), schemars(pattern(NAME_PATTERN)))]
    pub barrier: Option<String>,
    /// With barrier: spin this long before blocking (default 0). With wait_policy yield: the spin between
    /// sched_yield calls; with block: the spin before blocking. Not with spin.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub spin_us: Option<DistFile>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(any(test, feature = "gen"), schemars(pattern(NAME_PATTERN)))]
    pub lock: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(any(test, feature = "gen"), schemars(pattern(NAME_PATTERN)))]
    pub unlock: Option<String>,
    /// pthread_cond_wait on the condition variable of this name: release `mutex` (if this thread holds it), sleep
    /// until cond_signal or cond_broadcast, then hold `mutex` again before going on. A signal sent while no
    /// thread waits is lost (unlike wake).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(any(test, feature = "gen"), schemars(pattern(NAME_PATTERN)))]
    pub cond_wait: Option<String>,
    /// With cond_wait: the mutex it releases and takes back (a lock name).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(any(test, feature = "gen"), schemars(pattern(NAME_PATTERN)))]
    pub mutex: Option<String>,
    /// pthread_cond_signal: the longest waiter on this condition variable wakes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(any(test, feature = "gen"), schemars(pattern(NAME_PATTERN)))]
    pub cond_signal: Option<String>,
    /// pthread_cond_broadcast: every waiter on this condition variable wakes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(any(test, feature = "gen"), schemars(pattern(NAME_PATTERN)))]
    pub cond_broadcast: Option<String>,
    /// sched_setattr on the calling thread: its policy from now on ('normal', 'batch', 'idle', 'fifo', 'rr' or
    /// 'deadline'), with rt_priority for fifo and rr and the dl_*_us reservation for deadline, checked as a
    /// process's sched_policy is (a deadline step also goes through admission control).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(any(test, feature = "gen"), schemars(extend("enum" = crate::sched::policy::SchedPolicy::NAMES)))]
    pub sched_setattr: Option<String>,
    /// With sched_setattr 'fifo' or 'rr': the real-time priority, 1 to 99.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(any(test, feature = "gen"), schemars(range(min = 1, max = 99)))]
    pub rt_priority: Option<u32>,
    /// With sched_setattr 'deadline': the CPU time reserved in each period, µs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(any(test, feature = "gen"), schemars(range(min = 2, max = 10_000_000)))]
    pub dl_runtime_us: Option<u64>,
    /// With sched_setattr 'deadline': the relative deadline, µs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(any(test, feature = "gen"), schemars(range(min = 2, max = 10_000_000)))]
    pub dl_deadline_us: Option<u64>,
    /// With sched_setattr 'deadline': the period, µs (the deadline if absent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(any(test, feature = "gen"), schemars(range(min = 2, max = 10_000_000)))]
    pub dl_period_us: Option<u64>,
    /// With sched_setattr 'normal' or 'batch': the nice level from now on, -20 to 19 (sched_attr.sched_nice;
    /// the thread's own when absent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(any(test, feature = "gen"), schemars(range(min = -20, max = 19)))]
    pub nice: Option<i32>,
    /// sched_setaffinity on the calling thread: the CPUs it may run on from now on, as a CPU list ("0-3,8") or
    /// "all". When the CPU it runs on is not among them, the stopper moves it (a migration with cause
    /// "affinity"). Fair threads only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub set_cpus: Option<String>,
    /// The calling thread moves itself into the cgroup of this name, or "/" for the root (where autogroup, when
    /// on, places it in its session's group), as a write of its tid to the cgroup's tasks file does.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub set_cgroup: Option<String>,
    /// Sleep until this periodic timer's next period starts (clock_nanosleep with TIMER_ABSTIME, rt-app's timer):
    /// its first period starts with the process, each use moves it on by period_us. Reached after that start,
    /// the thread goes on at once (late: an overrun, counted in the report).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(any(test, feature = "gen"), schemars(pattern(NAME_PATTERN)))]
    pub timer: Option<String>,
    /// With timer: its period.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(any(test, feature = "gen"), schemars(range(min = 1, max = MAX_PERIOD_US)))]
    pub period_us: Option<u64>,
    /// With timer: one timer for every thread that names it (in the process, or its address space), each use by
    /// any of them moving it on by a period (rt-app's timers but the 'unique' ones); default false: each thread
    /// has its own.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(any(test, feature = "gen"), schemars(extend("default" = false)))]
    pub shared: Option<bool>,
    /// With timer: after an overrun the next period starts at the late use (relative, the default) or where
    /// the missed one ended, so the timer catches up (absolute).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(any(test, feature = "gen"), schemars(extend("enum" = TIMER_MODES, "default" = "relative")))]
    pub timer_mode: Option<String>,
    /// sched_yield.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[serde(rename = "yield")]
    #[cfg_attr(any(test, feature = "gen"), schemars(extend("const" = true)))]
    pub yield_cpu: Option<bool>,
    /// Take a job from the process's job_pool; the thread exits if none is left.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(any(test, feature = "gen"), schemars(extend("const" = true)))]
    pub take_job: Option<bool>,
    /// fork(): start a child (same process and group) running this program; it exits at its end. A child
    /// cannot be woken (wake names a process's starting threads), so its program has no wait. Past 10,000
    /// threads in the run a fork fails (EAGAIN) and the program goes on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fork: Option<Vec<OpFile>>,
    /// wait(): block until a child exits.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(any(test, feature = "gen"), schemars(extend("const" = true)))]
    pub wait_child: Option<bool>,
    /// execve(): the thread starts a new program image (make's jobs exec the compiler), and the scheduler
    /// places it again as a fork is placed (`sched_exec`); the steps after it are the new image's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(any(test, feature = "gen"), schemars(extend("const" = true)))]
    pub exec: Option<bool>,
    /// Post to this thread's one-slot flag of that name for the thread `to` places on: wait while it is
    /// still set (the reader has not taken the last post), then set it. Skipped when that thread does not
    /// exist (NAS lu's sync_right).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub post: Option<String>,
    /// With post: the reader's offset from this thread's index.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(any(test, feature = "gen"), schemars(range(min = -10_000, max = 10_000), extend("not" = {"const": 0}, "default" = 1)))]
    pub to: Option<i32>,
    /// Await the one-slot flag of that name of the thread `from` places off: wait while it is clear, then
    /// clear it. Skipped when that thread does not exist (NAS lu's sync_left).
    #[serde(default, rename = "await", skip_serializing_if = "Option::is_none")]
    pub await_flag: Option<String>,
    /// With await: the poster's offset from this thread's index.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(any(test, feature = "gen"), schemars(range(min = -10_000, max = 10_000), extend("not" = {"const": 0}, "default" = -1)))]
    pub from: Option<i32>,
    /// How the thread waits for the flag: spin (busy until it changes, as NAS lu's own loops), yield (spin
    /// spin_us, sched_yield, again; needs spin_us), block (spin spin_us, default 0, then sleep until it
    /// changes).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(any(test, feature = "gen"), schemars(extend("enum" = WAIT_POLICIES, "default" = "spin")))]
    pub wait_policy: Option<String>,
}

/// A duration in microseconds: a number, `{"uniform": [lo, hi]}` or `{"exp": mean}`.
/// Read by `de.rs` (its message lists the accepted forms).
#[derive(Clone, Debug, Serialize, PartialEq)]
#[serde(untagged)]
pub enum DistFile {
    Fixed(u64),
    Uniform { uniform: [u64; 2] },
    Exponential { exp: u64 },
}

//! A program's steps as a scenario writes them: one kind per step (run, sleep,
//! a loop, …), a duration as a number or a distribution. `validate::program`
//! turns them into the engine's program.

use serde::{Deserialize, Serialize};

#[cfg(any(test, feature = "gen"))]
use crate::api::text::NAME_PATTERN;

/// How a `post` or `await` step waits.
pub const WAIT_POLICIES: &[&str] = &["spin", "yield", "block"];

/// Exactly one of run_us, sleep_us, body (a loop), exit, wait, wake, barrier (with optional spin_us), lock,
/// unlock, yield, take_job, fork, wait_child, post or await (with optional wait_policy and spin_us).
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
#[cfg_attr(any(test, feature = "gen"), derive(schemars::JsonSchema), schemars(rename = "op"))]
pub struct OpFile {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub run_us: Option<DistFile>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sleep_us: Option<DistFile>,
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

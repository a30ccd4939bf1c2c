//! Scenario file format, version 1: the file and its sections (machine,
//! policy, bugs, sanity checker, costs, cgroups, processes, events, exercise);
//! a program's steps are `steps.rs`'s. The structs' doc comments and
//! `schemars` attributes are the format's documentation: `schema.rs`
//! generates `wasm-core/schema/scenario.v1.schema.json` from them, and adds
//! the rules serde cannot say (one kind per step, …) to the definitions it
//! names.
//!
//! Every scenario is untrusted input: parsing reports the JSON path of the
//! offending field (`processes[0].nice: …`), semantic checks do the same, and
//! hard limits bound the size of a run. Nothing here panics on any input.

use super::exercise::ExerciseFile;
use super::steps::OpFile;
use serde::{Deserialize, Serialize};

#[cfg(any(test, feature = "gen"))]
use crate::api::text::{NAME_PATTERN, PROCESS_NAME_PATTERN, TEXT_PATTERN};

pub const SCENARIO_VERSION: u32 = 1;
/// Hard limits (product spec section 6).
pub const MAX_DURATION_MS: u64 = 600_000;
pub use crate::config::MAX_THREADS;
pub const MAX_PROGRAM_OPS: usize = 1_000;
pub const MAX_PROGRAM_DEPTH: usize = 16;
pub const MAX_NAME_LEN: usize = 200;
/// The largest scenario text accepted, checked before parsing: parsing
/// costs many times the text's size in memory (each program step becomes a
/// wide struct), so this bounds what a file can make the engine allocate.
/// A 10,000-process scenario with a three-step loop per process, as the
/// editor writes it (pretty-printed, 2-space indent), is about 6 MiB; the
/// presets are under 10 KiB.
pub const MAX_SCENARIO_BYTES: usize = 8 * 1024 * 1024;

/// A machine, a scheduling policy with its tunables, a workload of processes running small programs, a seed
/// and a duration. The engine validates every field again (ranges, limits) and names the field in its
/// messages. Names and other strings hold no control characters (Unicode category Cc); the whole text is at
/// most 8 MiB.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
#[cfg_attr(any(test, feature = "gen"), derive(schemars::JsonSchema), schemars(title = "schedlab scenario, version 1"))]
pub struct ScenarioFile {
    #[cfg_attr(any(test, feature = "gen"), schemars(extend("const" = SCENARIO_VERSION)))]
    pub version: u32,
    #[cfg_attr(any(test, feature = "gen"), schemars(length(min = 1, max = MAX_NAME_LEN), pattern(NAME_PATTERN)))]
    pub name: String,
    /// Free text shown as written; it may contain line breaks and tabs but no other control characters.
    #[serde(default)]
    #[cfg_attr(any(test, feature = "gen"), schemars(pattern(TEXT_PATTERN)))]
    pub description: String,
    /// Seed of the run's single PRNG.
    #[serde(default = "default_seed")]
    pub seed: u64,
    /// Simulated time to run.
    #[cfg_attr(any(test, feature = "gen"), schemars(range(min = 1, max = MAX_DURATION_MS)))]
    pub duration_ms: u64,
    /// The kernel generation the run models: '4.1' (the default; CFS and its load balancer as in the Wasted
    /// Cores paper) or '6.12' (EEVDF with 6.12's load tracking, load balancer and placement; the paper's bug
    /// switches, PFS, DW-CFS, Group Identity and O(1) are patches of other kernels and are refused there).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(any(test, feature = "gen"), schemars(extend("enum" = KERNELS, "default" = "4.1")))]
    pub kernel: Option<String>,
    /// Scheduler tick frequency (CONFIG_HZ).
    #[serde(default = "default_hz")]
    #[cfg_attr(any(test, feature = "gen"), schemars(range(min = 10, max = 10_000)))]
    pub hz: u32,
    pub machine: MachineSpec,
    #[serde(default)]
    pub policy: PolicySpec,
    /// The four Wasted Cores bugs: a profile ('linux-4.1' = all present, the default; 'linux-4.1-fixed' =
    /// none) or a switch per bug (true = present).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bugs: Option<BugsSpec>,
    /// sched_autogroup_enabled: processes of one session share a task group.
    #[serde(default = "yes")]
    pub autogroup: bool,
    /// CONFIG_NO_HZ_IDLE: idle CPUs stop their tick and the NOHZ idle load balancer balances for them.
    #[serde(default = "yes")]
    pub nohz: bool,
    /// The kernel's preemption model (CONFIG_PREEMPT_NONE / _VOLUNTARY / CONFIG_PREEMPT). Distributions ship
    /// voluntary. Under full, a newly-idle balancing pass stops after its first task (4.1's detach_tasks).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(any(test, feature = "gen"), schemars(extend("enum" = PREEMPT_MODELS, "default" = "voluntary")))]
    pub preempt: Option<String>,
    /// The paper's sanity checker: every period_ms check that no CPU idles while a thread that could run
    /// there waits; report it if still so after window_ms. Default on (1000 / 100); false turns it off.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sanity_checker: Option<SanityFile>,
    /// Scheduling costs charged as extra work to the task that pays them. Defaults: context switch 1500 ns,
    /// cross-CPU wakeup (IPI) 2000 ns, cache refill after a migration 10000 ns within a node and 40000 ns
    /// across nodes, no SMT contention, 15000 ns to create a thread.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub costs: Option<CostsFile>,
    /// The protocol of the processes' mutexes (pthread_mutexattr_setprotocol): 'none' (the default; a waiter
    /// lends its owner nothing) or 'inherit' (PTHREAD_PRIO_INHERIT, rt-app's pi_enabled: the kernel's rt_mutex
    /// lends the owner the priority of its most urgent waiter until it unlocks).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(any(test, feature = "gen"), schemars(extend("enum" = MUTEX_PROTOCOLS, "default" = "none")))]
    pub mutex_protocol: Option<String>,
    /// CPU-controller cgroups, parents before children.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(any(test, feature = "gen"), schemars(length(max = 256)))]
    pub cgroups: Vec<CgroupFile>,
    #[cfg_attr(any(test, feature = "gen"), schemars(length(min = 1)))]
    pub processes: Vec<ProcessFile>,
    /// Timed events: CPU hotplug. Replayed in time order (as listed at equal times), each must change
    /// something: offline an online CPU that is not the last one online, or online an offline one.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub events: Vec<EventFile>,
    /// A goal the run is judged against at its end, from the report's own figures; before the end the
    /// verdict is only 'so far'. A run that stops before its duration (a policy failed, the event budget
    /// ran out) fails.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exercise: Option<ExerciseFile>,
}

/// The values `kernel` takes.
pub const KERNELS: &[&str] = &["4.1", "6.12"];
/// The values `preempt` takes.
pub const PREEMPT_MODELS: &[&str] = &["none", "voluntary", "full"];
/// The values `mutex_protocol` takes.
pub const MUTEX_PROTOCOLS: &[&str] = &["none", "inherit"];
/// The profiles `bugs` takes.
pub const BUG_PROFILES: &[&str] = &["linux-4.1", "linux-4.1-fixed"];
/// The Group Identity classes a cgroup's `identity` takes.
pub const IDENTITIES: &[&str] = &["highclass", "normal", "underclass"];

#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
#[cfg_attr(any(test, feature = "gen"), derive(schemars::JsonSchema), schemars(rename = "costs"))]
pub struct CostsFile {
    #[cfg_attr(any(test, feature = "gen"), schemars(range(max = 10_000_000)))]
    pub context_switch_ns: Option<u64>,
    /// A wakeup sent to another CPU (IPI): owed by the wakee and taken by the target CPU before the wakee's
    /// own code runs, so it counts in the wakeup latency (at the CPU's speed).
    #[cfg_attr(any(test, feature = "gen"), schemars(range(max = 10_000_000)))]
    pub wakeup_ipi_ns: Option<u64>,
    #[cfg_attr(any(test, feature = "gen"), schemars(range(max = 10_000_000)))]
    pub migration_cold_ns: Option<u64>,
    #[cfg_attr(any(test, feature = "gen"), schemars(range(max = 10_000_000)))]
    pub migration_cold_remote_ns: Option<u64>,
    /// SMT contention: the speed, in percent of a lone hardware thread, at which a thread runs its task's
    /// work while another thread of its core is busy. Default 100 (no contention). CPU time is still
    /// charged by the clock.
    #[cfg_attr(any(test, feature = "gen"), schemars(range(min = 10, max = 100)))]
    pub smt_sibling_speed_pct: Option<u64>,
    /// Creating a thread (pthread_create), paid by a process's first thread for each of its other threads
    /// before its own program, so the threads start one after another. Default 15000; 0 starts them all at
    /// once.
    #[cfg_attr(any(test, feature = "gen"), schemars(range(max = 10_000_000)))]
    pub clone_ns: Option<u64>,
}

/// Read by `de.rs` (its message lists the accepted forms).
#[derive(Clone, Debug, Serialize, PartialEq)]
#[serde(untagged)]
pub enum SanityFile {
    Enabled(bool),
    Settings { period_ms: u64, window_ms: u64 },
}

fn yes() -> bool {
    true
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
#[cfg_attr(any(test, feature = "gen"), derive(schemars::JsonSchema), schemars(rename = "cgroup"))]
pub struct CgroupFile {
    #[cfg_attr(any(test, feature = "gen"), schemars(length(min = 1, max = MAX_NAME_LEN), pattern(NAME_PATTERN)))]
    pub name: String,
    /// cpu.shares.
    #[serde(default = "default_shares")]
    #[cfg_attr(any(test, feature = "gen"), schemars(range(min = 2, max = 262_144)))]
    pub shares: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parent: Option<String>,
    /// Group Identity class (top-level cgroups only; children inherit). Takes effect with
    /// policy.group_identity.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(any(test, feature = "gen"), schemars(extend("enum" = IDENTITIES, "default" = "normal")))]
    pub identity: Option<String>,
    /// Group Identity SMT expeller (highclass only): no underclass task runs on the SMT sibling of a CPU
    /// running this group's tasks.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(any(test, feature = "gen"), schemars(extend("default" = false)))]
    pub smt_expeller: Option<bool>,
}

fn default_shares() -> u64 {
    1024
}

/// Read by `de.rs` (its message lists the accepted forms).
#[derive(Clone, Debug, Serialize, PartialEq)]
#[serde(untagged)]
pub enum BugsSpec {
    Profile(String),
    Switches(BugSwitchesFile),
}

/// true = the bug is present.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
#[cfg_attr(any(test, feature = "gen"), derive(schemars::JsonSchema), schemars(rename = "bug_switches"))]
pub struct BugSwitchesFile {
    pub group_imbalance: Option<bool>,
    pub group_construction: Option<bool>,
    pub overload_on_wakeup: Option<bool>,
    pub missing_domains: Option<bool>,
}

/// One timed event: exactly one of `cpu_offline` / `cpu_online`.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
#[cfg_attr(any(test, feature = "gen"), derive(schemars::JsonSchema), schemars(rename = "event"))]
pub struct EventFile {
    #[cfg_attr(any(test, feature = "gen"), schemars(range(max = MAX_DURATION_MS)))]
    pub at_ms: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cpu_offline: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cpu_online: Option<u32>,
}

/// `machine.preset` in the schema: the fixed machines, and the host the native CLI reads.
#[cfg(any(test, feature = "gen"))]
fn machine_presets() -> Vec<&'static str> {
    crate::machine::Machine::preset_names().iter().copied().chain(["host"]).collect()
}

fn default_seed() -> u64 {
    1
}
fn default_hz() -> u32 {
    250
}

/// Either a preset name, or a custom shape. CPUs are numbered node-major, then core, then SMT thread.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
#[cfg_attr(any(test, feature = "gen"), derive(schemars::JsonSchema), schemars(rename = "machine"))]
pub struct MachineSpec {
    /// "host" is the machine the native CLI runs on, read from sysfs (refused in the browser).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(any(test, feature = "gen"), schemars(extend("enum" = machine_presets())))]
    pub preset: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(any(test, feature = "gen"), schemars(range(min = 1, max = 64)))]
    pub nodes: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(any(test, feature = "gen"), schemars(range(min = 1, max = 1024)))]
    pub cores_per_node: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(any(test, feature = "gen"), schemars(range(min = 1, max = 8)))]
    pub threads_per_core: Option<u32>,
    /// NUMA distance matrix (SLIT): 10 on the diagonal, symmetric, 11..254 elsewhere.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(any(test, feature = "gen"), schemars(inner(inner(range(min = 10, max = 254)))))]
    pub distance: Option<Vec<Vec<u32>>>,
    /// NUMA nodes in one package (socket); must divide the node count. Default 1, or the preset's (the
    /// Opteron 6272's packages hold two nodes). Decides Linux 4.1's x86 topology table: a package spanning
    /// several nodes has no DIE level and loses its NUMA levels at a hotplug rebuild (Missing Scheduling
    /// Domains).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(any(test, feature = "gen"), schemars(range(min = 1, max = 64)))]
    pub nodes_per_package: Option<u32>,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
#[cfg_attr(any(test, feature = "gen"), derive(schemars::JsonSchema), schemars(rename = "policy"))]
pub struct PolicySpec {
    /// The fair-class policy: 'cfs' (Linux 4.1), 'pfs' (thread weight = process weight / its threads),
    /// 'dw-cfs' (thread weight = W · alpha(Nt, No)), 'eevdf' (Linux 6.6+: lag eligibility, virtual
    /// deadlines, base slice = min granularity), 'o1' (the O(1) scheduler of 2.6.0-2.6.22: priority arrays,
    /// sleep_avg bonus, nr_running balancing; no hotplug). 'ext': a sched_ext-style scheduler written in
    /// JavaScript (`source`).
    #[cfg_attr(any(test, feature = "gen"), schemars(extend("enum" = super::policy_kind::POLICY_KIND_NAMES)))]
    pub kind: String,
    /// dw-cfs only: which reconstruction of alpha(Nt, No) (kernel-model.md 6; the paper's formula is lost).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(any(test, feature = "gen"), schemars(extend("enum" = ["A", "B", "C"], "default" = "A")))]
    pub alpha: Option<String>,
    /// dw-cfs only: alpha(No, No), the reward for exactly No threads.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(any(test, feature = "gen"), schemars(range(min = 1), extend("exclusiveMaximum" = 2, "default" = 1.1)))]
    pub beta: Option<f64>,
    /// Alibaba Cloud Linux sched_group_identity_enabled: the cgroups' identity and smt_expeller take effect.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(any(test, feature = "gen"), schemars(extend("default" = false)))]
    pub group_identity: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tunables: Option<TunablesSpec>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub features: Option<FeaturesSpec>,
    /// Kind 'ext': the policy's JavaScript source (sched_ext callbacks and scx.* helpers).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(any(test, feature = "gen"), schemars(length(max = 65_536)))]
    pub source: Option<String>,
    /// Kind 'ext', schedsim only: a file holding the source, relative to the scenario file (`schedsim`
    /// reads it into `source`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source_file: Option<String>,
    /// Kind 'ext': a runnable task not run for this long ends the policy; the fair class takes every task
    /// back (default 30000).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(any(test, feature = "gen"), schemars(range(min = 1, max = MAX_DURATION_MS)))]
    pub watchdog_ms: Option<f64>,
}

impl Default for PolicySpec {
    fn default() -> Self {
        PolicySpec {
            kind: "cfs".into(),
            alpha: None,
            beta: None,
            group_identity: None,
            tunables: None,
            features: None,
            source: None,
            source_file: None,
            watchdog_ms: None,
        }
    }
}

/// Base values before CPU-count scaling, in microseconds; omitted ones keep Linux 4.1 defaults.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
#[cfg_attr(any(test, feature = "gen"), derive(schemars::JsonSchema), schemars(rename = "tunables"))]
pub struct TunablesSpec {
    #[cfg_attr(any(test, feature = "gen"), schemars(range(min = 100, max = 1_000_000), extend("default" = 6000)))]
    pub sched_latency_us: Option<u64>,
    #[cfg_attr(any(test, feature = "gen"), schemars(range(min = 100, max = 1_000_000), extend("default" = 750)))]
    pub sched_min_granularity_us: Option<u64>,
    #[cfg_attr(any(test, feature = "gen"), schemars(range(max = 1_000_000), extend("default" = 1000)))]
    pub sched_wakeup_granularity_us: Option<u64>,
    #[cfg_attr(any(test, feature = "gen"), schemars(range(min = 1, max = 1000), extend("default" = 8)))]
    pub sched_nr_latency: Option<u64>,
    #[cfg_attr(any(test, feature = "gen"), schemars(range(max = 1_000_000), extend("default" = 500)))]
    pub sched_migration_cost_us: Option<u64>,
    /// "log" (1 + ilog2(min(cpus, 8))) or "none".
    #[cfg_attr(any(test, feature = "gen"), schemars(extend("enum" = ["log", "none"], "default" = "log")))]
    pub tunable_scaling: Option<String>,
}

/// Scheduler feature bits (kernel/sched/features.h); Linux 4.1 defaults when omitted.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
#[cfg_attr(any(test, feature = "gen"), derive(schemars::JsonSchema), schemars(rename = "features"))]
pub struct FeaturesSpec {
    #[cfg_attr(any(test, feature = "gen"), schemars(extend("default" = true)))]
    pub gentle_fair_sleepers: Option<bool>,
    #[cfg_attr(any(test, feature = "gen"), schemars(extend("default" = true)))]
    pub start_debit: Option<bool>,
    #[cfg_attr(any(test, feature = "gen"), schemars(extend("default" = false)))]
    pub next_buddy: Option<bool>,
    #[cfg_attr(any(test, feature = "gen"), schemars(extend("default" = true)))]
    pub last_buddy: Option<bool>,
    #[cfg_attr(any(test, feature = "gen"), schemars(extend("default" = true)))]
    pub cache_hot_buddy: Option<bool>,
    #[cfg_attr(any(test, feature = "gen"), schemars(extend("default" = true)))]
    pub wakeup_preemption: Option<bool>,
}

/// A process: its threads run one program. Either `template` or `program`, not both.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
#[cfg_attr(any(test, feature = "gen"), derive(schemars::JsonSchema), schemars(rename = "process"))]
pub struct ProcessFile {
    /// Unique among the processes; no '/' (a wake step names a thread as 'process/k') and no control
    /// characters.
    #[cfg_attr(any(test, feature = "gen"), schemars(length(min = 1, max = MAX_NAME_LEN), pattern(PROCESS_NAME_PATTERN)))]
    pub name: String,
    #[serde(default)]
    #[cfg_attr(any(test, feature = "gen"), schemars(range(min = -20, max = 19)))]
    pub nice: i32,
    /// The threads' scheduling policy, as sched_setscheduler sets it: 'normal' (SCHED_OTHER, the default),
    /// 'batch', 'idle', the real-time 'fifo' and 'rr', which need rt_priority, or 'deadline', which needs
    /// dl_runtime_us and dl_deadline_us.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(any(test, feature = "gen"), schemars(extend("enum" = crate::sched::policy::SchedPolicy::NAMES)))]
    pub sched_policy: Option<String>,
    /// fifo and rr only: the real-time priority, 1 (least urgent) to 99.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(any(test, feature = "gen"), schemars(range(min = 1, max = 99)))]
    pub rt_priority: Option<u32>,
    /// deadline only: the CPU time reserved in each period, µs (sched_attr.sched_runtime).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(any(test, feature = "gen"), schemars(range(min = 2, max = 10_000_000)))]
    pub dl_runtime_us: Option<u64>,
    /// deadline only: by when, after each period's start, the runtime is due, µs (sched_deadline).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(any(test, feature = "gen"), schemars(range(min = 2, max = 10_000_000)))]
    pub dl_deadline_us: Option<u64>,
    /// deadline only: the reservation's period, µs (sched_period); the deadline when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(any(test, feature = "gen"), schemars(range(min = 2, max = 10_000_000)))]
    pub dl_period_us: Option<u64>,
    /// deadline only, kernel 6.12: SCHED_FLAG_RECLAIM, the task reclaims the bandwidth other deadline tasks and
    /// the fair servers leave unused (GRUB, from Linux 4.13).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dl_reclaim: Option<bool>,
    #[serde(default = "one")]
    #[cfg_attr(any(test, feature = "gen"), schemars(range(min = 1, max = MAX_THREADS)))]
    pub threads: u32,
    #[serde(default)]
    #[cfg_attr(any(test, feature = "gen"), schemars(range(max = MAX_DURATION_MS)))]
    pub start_ms: u64,
    /// Allowed CPUs, a taskset list such as '0-3,8'.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cpus: Option<String>,
    /// Allowed NUMA nodes (numactl --cpunodebind); intersected with cpus.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nodes: Option<Vec<u32>>,
    /// Login session / tty; one autogroup per session.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(any(test, feature = "gen"), schemars(pattern(NAME_PATTERN)))]
    pub session: Option<String>,
    /// Name of a cgroup from 'cgroups' (autogroup then does not apply).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cgroup: Option<String>,
    /// eevdf only: the threads' custom slice (request size) in microseconds, as Linux 6.12's
    /// sched_setattr; default the base slice.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(any(test, feature = "gen"), schemars(range(min = 100, max = 100_000)))]
    pub slice_us: Option<u64>,
    /// Processes naming the same address space share the objects their steps name (mutexes, barriers,
    /// condition variables, shared timers), as threads of one program do: rt-app's tasks are threads of one
    /// process. A barrier there opens when as many threads have arrived as its steps in the space's programs
    /// times their processes' threads (rt-app counts a barrier's users so). Not with job_pool, post or await.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(any(test, feature = "gen"), schemars(length(min = 1, max = MAX_NAME_LEN), pattern(NAME_PATTERN)))]
    pub address_space: Option<String>,
    /// Jobs shared by the process's threads (make's job server); taken by take_job steps.
    #[serde(default)]
    #[cfg_attr(any(test, feature = "gen"), schemars(range(max = 10_000_000)))]
    pub job_pool: u32,
    /// A named program (wasm-core/src/api/scenario/templates.rs) instead of 'program'.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(any(test, feature = "gen"), schemars(extend("enum" = super::templates::TEMPLATE_NAMES)))]
    pub template: Option<String>,
    /// At most 1000 steps, loops nested at most 16 deep. The task exits at the end.
    #[serde(default)]
    pub program: Vec<OpFile>,
}

fn one() -> u32 {
    1
}

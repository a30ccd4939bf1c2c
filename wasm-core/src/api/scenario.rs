//! Scenario file format, version 1 (documented by
//! `wasm-core/schema/scenario.v1.schema.json`), and its validation into a
//! `SimConfig`.
//!
//! Every scenario is untrusted input: parsing reports the JSON path of the
//! offending field (`processes[0].nice: …`), semantic checks do the same, and
//! hard limits bound the size of a run. Nothing here panics on any input.

use super::parse_problems::{diagnostic_of, every_parse_problem, top_level_problem};
use crate::config::SimConfig;
use serde::{Deserialize, Serialize};

pub use super::validate::validate;

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

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct ScenarioFile {
    pub version: u32,
    pub name: String,
    #[serde(default)]
    pub description: String,
    #[serde(default = "default_seed")]
    pub seed: u64,
    pub duration_ms: u64,
    #[serde(default = "default_hz")]
    pub hz: u32,
    pub machine: MachineSpec,
    #[serde(default)]
    pub policy: PolicySpec,
    /// "linux-4.1" (all four Wasted Cores bugs, the default), "linux-4.1-fixed",
    /// or an object switching each one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bugs: Option<BugsSpec>,
    /// `sched_autogroup_enabled` (default true): one task group per session.
    #[serde(default = "yes")]
    pub autogroup: bool,
    /// CONFIG_NO_HZ_IDLE (default true): idle CPUs stop their tick and the
    /// NOHZ idle load balancer balances for them.
    #[serde(default = "yes")]
    pub nohz: bool,
    /// The kernel's preemption model: "none" (CONFIG_PREEMPT_NONE), "voluntary"
    /// (CONFIG_PREEMPT_VOLUNTARY, what distributions ship; the default) or
    /// "full" (CONFIG_PREEMPT). Of the scheduler's code only detach_tasks reads
    /// it: under "full" a newly-idle pass stops after its first task.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub preempt: Option<String>,
    /// The sanity checker: every period_ms check that no CPU idles while a
    /// thread that could run there waits; report it if it lasts window_ms.
    /// On by default (1000 ms / 100 ms); `false` turns it off.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sanity_checker: Option<SanityFile>,
    /// Scheduling costs (context switch, cross-CPU wakeup, cache refill after
    /// a migration); omitted fields keep the documented defaults.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub costs: Option<CostsFile>,
    /// CPU-controller cgroups, parents before children.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cgroups: Vec<CgroupFile>,
    pub processes: Vec<ProcessFile>,
    /// Timed events (CPU hotplug).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub events: Vec<EventFile>,
    /// A goal the run is judged against at its end (`api::exercise`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exercise: Option<super::exercise::ExerciseFile>,
}

#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct CostsFile {
    pub context_switch_ns: Option<u64>,
    pub wakeup_ipi_ns: Option<u64>,
    pub migration_cold_ns: Option<u64>,
    pub migration_cold_remote_ns: Option<u64>,
    /// Percent speed of a hardware thread while its SMT sibling is busy (10-100).
    pub smt_sibling_speed_pct: Option<u64>,
    /// Creating a thread, paid by the process's first thread for each other one (0: all start at once).
    pub clone_ns: Option<u64>,
}

/// Read by `scenario_de` (its message lists the accepted forms).
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
pub struct CgroupFile {
    pub name: String,
    /// cpu.shares (default 1024).
    #[serde(default = "default_shares")]
    pub shares: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parent: Option<String>,
    /// Group Identity class: "highclass", "normal" (default) or "underclass";
    /// top-level cgroups only (children inherit). Takes effect with
    /// `policy.group_identity`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub identity: Option<String>,
    /// Group Identity SMT expeller (highclass only): no underclass task runs
    /// on the SMT sibling of a CPU running this group's tasks.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub smt_expeller: Option<bool>,
}

fn default_shares() -> u64 {
    1024
}

/// Read by `scenario_de` (its message lists the accepted forms).
#[derive(Clone, Debug, Serialize, PartialEq)]
#[serde(untagged)]
pub enum BugsSpec {
    Profile(String),
    Switches(BugSwitchesFile),
}

/// true = the bug is present.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct BugSwitchesFile {
    pub group_imbalance: Option<bool>,
    pub group_construction: Option<bool>,
    pub overload_on_wakeup: Option<bool>,
    pub missing_domains: Option<bool>,
}

/// One timed event: exactly one of `cpu_offline` / `cpu_online`.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct EventFile {
    pub at_ms: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cpu_offline: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cpu_online: Option<u32>,
}

fn default_seed() -> u64 {
    1
}
fn default_hz() -> u32 {
    250
}

#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct MachineSpec {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub preset: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nodes: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cores_per_node: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub threads_per_core: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub distance: Option<Vec<Vec<u32>>>,
    /// Nodes per package (socket), dividing the node count; default 1 (a
    /// preset's own otherwise: the Opteron's packages hold two).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nodes_per_package: Option<u32>,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct PolicySpec {
    /// "cfs" (default), "pfs", "dw-cfs" or "eevdf".
    pub kind: String,
    /// DW-CFS only: which reconstruction of α(Nt, No), "A" (default), "B" or "C".
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub alpha: Option<String>,
    /// DW-CFS only: β = α(No, No), the reward for using exactly No threads (default 1.1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub beta: Option<f64>,
    /// Alibaba Cloud Linux's `sched_group_identity_enabled` (default false):
    /// the cgroups' `identity` and `smt_expeller` take effect.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub group_identity: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tunables: Option<TunablesSpec>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub features: Option<FeaturesSpec>,
    /// Kind "ext": the policy's JavaScript source (sched_ext callbacks).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    /// Kind "ext": a file holding the source, relative to the scenario file
    /// (`schedsim` reads it into `source`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source_file: Option<String>,
    /// Kind "ext": the watchdog's timeout in ms (default 30,000).
    #[serde(default, skip_serializing_if = "Option::is_none")]
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

/// Base (unscaled) values in microseconds; omitted ones keep Linux 4.1 defaults.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct TunablesSpec {
    pub sched_latency_us: Option<u64>,
    pub sched_min_granularity_us: Option<u64>,
    pub sched_wakeup_granularity_us: Option<u64>,
    pub sched_nr_latency: Option<u64>,
    pub sched_migration_cost_us: Option<u64>,
    /// "log" (default, 1 + ilog2(min(cpus, 8))) or "none".
    pub tunable_scaling: Option<String>,
}

#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct FeaturesSpec {
    pub gentle_fair_sleepers: Option<bool>,
    pub start_debit: Option<bool>,
    pub next_buddy: Option<bool>,
    pub last_buddy: Option<bool>,
    pub cache_hot_buddy: Option<bool>,
    pub wakeup_preemption: Option<bool>,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct ProcessFile {
    pub name: String,
    #[serde(default)]
    pub nice: i32,
    #[serde(default = "one")]
    pub threads: u32,
    #[serde(default)]
    pub start_ms: u64,
    /// Allowed CPUs as a taskset list, e.g. "0-3,8".
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cpus: Option<String>,
    /// Allowed NUMA nodes, as `numactl --cpunodebind`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nodes: Option<Vec<u32>>,
    /// The login session / tty; processes of one session share an autogroup.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub session: Option<String>,
    /// An explicit cgroup by name (autogroup then does not apply).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cgroup: Option<String>,
    /// EEVDF only: the threads' custom slice (request size) in µs, 100 to
    /// 100000 (Linux 6.12's sched_setattr); default the base slice.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub slice_us: Option<u64>,
    /// Jobs shared by the threads (make's job server): each `take_job` step
    /// takes one; a thread finding the pool empty exits.
    #[serde(default)]
    pub job_pool: u32,
    /// A named program (see `api::templates`), instead of `program`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub template: Option<String>,
    #[serde(default)]
    pub program: Vec<OpFile>,
}

fn one() -> u32 {
    1
}

/// One program step: exactly one of `run_us`, `sleep_us`, `body` (a loop,
/// repeated `repeat` times, forever if `repeat` is absent) or `exit`.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct OpFile {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub run_us: Option<DistFile>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sleep_us: Option<DistFile>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub repeat: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub body: Option<Vec<OpFile>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exit: Option<bool>,
    /// Block until woken (futex wait).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub wait: Option<bool>,
    /// Wake a thread: "process" (its thread 0) or "process/k".
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub wake: Option<String>,
    /// Wait at the named barrier of this process (all its threads meet).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub barrier: Option<String>,
    /// With `barrier`: spin this long before blocking (default 0).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub spin_us: Option<DistFile>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lock: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unlock: Option<String>,
    /// sched_yield.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[serde(rename = "yield")]
    pub yield_cpu: Option<bool>,
    /// Take a job from the process's job pool; exit if none is left.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub take_job: Option<bool>,
    /// fork(): start a child running this program (it exits at its end).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fork: Option<Vec<OpFile>>,
    /// wait(): block until a child exits.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub wait_child: Option<bool>,
    /// Post to the named one-slot flag of this thread for the thread `to`
    /// places on (wait while it is still set, then set it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub post: Option<String>,
    /// With `post`: the reader's offset from this thread (default +1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to: Option<i32>,
    /// Await the named flag of the thread `from` places off (wait while it
    /// is clear, then clear it).
    #[serde(default, rename = "await", skip_serializing_if = "Option::is_none")]
    pub await_flag: Option<String>,
    /// With `await`: the poster's offset from this thread (default -1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from: Option<i32>,
    /// With `post` or `await`: "spin" (default), "yield" or "block".
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub wait_policy: Option<String>,
}

/// A duration in microseconds: a number, `{"uniform": [lo, hi]}` or `{"exp": mean}`.
/// Read by `scenario_de` (its message lists the accepted forms).
#[derive(Clone, Debug, Serialize, PartialEq)]
#[serde(untagged)]
pub enum DistFile {
    Fixed(u64),
    Uniform { uniform: [u64; 2] },
    Exponential { exp: u64 },
}

/// A problem with a scenario: the JSON path of the field and the reason.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    pub field: String,
    pub reason: String,
}

impl std::fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.field, self.reason)
    }
}

/// The refusal of a scenario of `len` bytes, or None if it is within
/// `MAX_SCENARIO_BYTES`.
pub fn size_problem(len: u64) -> Option<Diagnostic> {
    (len > MAX_SCENARIO_BYTES as u64).then(|| Diagnostic {
        field: "scenario".into(),
        reason: format!(
            "is {len} bytes ({:.1} MiB); the largest scenario accepted is {MAX_SCENARIO_BYTES} bytes ({} MiB)",
            len as f64 / (1024.0 * 1024.0),
            MAX_SCENARIO_BYTES / (1024 * 1024)
        ),
    })
}

/// Parses scenario JSON text; a syntax or type error names its field (the
/// first one found). Text over `MAX_SCENARIO_BYTES` is refused before
/// parsing, and so is a top level that is not a JSON object.
pub fn parse_scenario(text: &str) -> Result<ScenarioFile, Diagnostic> {
    if let Some(d) = size_problem(text.len() as u64) {
        return Err(d);
    }
    if let Some(d) = top_level_problem(text) {
        return Err(d);
    }
    let de = &mut serde_json::Deserializer::from_str(text);
    serde_path_to_error::deserialize(de).map_err(|e| diagnostic_of(&e, ""))
}

/// Parses and validates: the engine configuration, or every problem found.
/// When parsing fails, every parse problem that can be found is listed
/// (`parse_problems`); the semantic checks need a parsed file and wait.
pub fn load_scenario(text: &str) -> Result<SimConfig, Vec<Diagnostic>> {
    let file = parse_scenario(text).map_err(|first| {
        if size_problem(text.len() as u64).is_some() || top_level_problem(text).is_some() {
            // Too large, or not an object: nothing more to read.
            vec![first]
        } else {
            every_parse_problem(text, first)
        }
    })?;
    validate(&file)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn minimal(process: &str) -> String {
        format!(
            r#"{{"version":1,"name":"t","duration_ms":10,"machine":{{"preset":"uniprocessor"}},"processes":[{process}]}}"#
        )
    }

    #[test]
    fn a_bad_nice_names_its_field() {
        let err = load_scenario(&minimal(r#"{"name":"a","nice":99,"program":[{"run_us":5}]}"#)).unwrap_err();
        assert_eq!(err[0].field, "processes[0].nice");
    }

    #[test]
    fn a_type_error_names_its_path() {
        let err = load_scenario(&minimal(r#"{"name":"a","threads":"many","program":[]}"#)).unwrap_err();
        assert_eq!(err[0].field, "processes[0].threads");
    }

    #[test]
    fn unknown_fields_are_refused() {
        let err = load_scenario(&minimal(r#"{"name":"a","nicety":1,"program":[]}"#)).unwrap_err();
        assert!(err[0].reason.contains("nicety"), "{:?}", err);
    }

    #[test]
    fn an_op_must_be_exactly_one_thing() {
        let err = load_scenario(&minimal(r#"{"name":"a","program":[{"run_us":5,"sleep_us":5}]}"#)).unwrap_err();
        assert_eq!(err[0].field, "processes[0].program[0]");
    }

    #[test]
    fn policy_errors_name_their_field() {
        let with = |policy: &str| {
            format!(
                r#"{{"version":1,"name":"t","duration_ms":10,"machine":{{"preset":"uniprocessor"}},"policy":{policy},"processes":[{{"name":"a","program":[{{"run_us":5}}]}}]}}"#
            )
        };
        assert_eq!(load_scenario(&with(r#"{"kind":"bfs"}"#)).unwrap_err()[0].field, "policy.kind");
        assert_eq!(load_scenario(&with(r#"{"kind":"cfs","beta":1.2}"#)).unwrap_err()[0].field, "policy");
        assert_eq!(load_scenario(&with(r#"{"kind":"dw-cfs","beta":2.5}"#)).unwrap_err()[0].field, "policy.beta");
        for kind in ["eevdf", "o1"] {
            let gi = format!(r#"{{"kind":"{kind}","group_identity":true}}"#);
            assert_eq!(load_scenario(&with(&gi)).unwrap_err()[0].field, "policy.group_identity");
        }
        assert!(load_scenario(&with(r#"{"kind":"pfs","group_identity":true}"#)).is_ok());
        let cfg = load_scenario(&with(r#"{"kind":"dw-cfs","alpha":"C","beta":1.2}"#)).unwrap();
        assert_eq!(cfg.policy.beta_milli, 1200);
    }

    #[test]
    fn garbage_is_a_diagnostic_not_a_panic() {
        for text in ["", "{", "[]", "null", "{\"version\":1}", "\u{0}"] {
            assert!(load_scenario(text).is_err(), "{text:?}");
        }
    }
}

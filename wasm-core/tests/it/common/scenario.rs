//! A builder for scenario files, so a test states the fields it cares about
//! instead of splicing JSON text with `format!` (where a missing brace or
//! comma is found only when the parser refuses the result).
//!
//! It writes the scenario format's JSON (schema/scenario.v1.schema.json)
//! through `serde_json::json!` rather than the crate's own `ScenarioFile`
//! structs: tests need fields those structs spell differently or leave at
//! their defaults when written back, and a test about the format should go
//! through the same parser as a file does. Only what a test sets is written;
//! everything else takes the format's default, as an omitted field in a file.
//!
//! ```ignore
//! let sim = Scenario::new("users", 20_000)
//!     .hz(1000)
//!     .machine("uniprocessor")
//!     .process(Process::new("a").threads(2).program([forever([run(1000), sleep(exp(3000))])]))
//!     .sim();
//! ```

use schedlab_core::api::scenario::load_scenario;
use schedlab_core::config::SimConfig;
use schedlab_core::sim::Simulator;
use serde_json::{json, Map, Value};

/// A scenario file being written; `build` gives its text.
#[derive(Clone, Debug)]
pub struct Scenario {
    fields: Map<String, Value>,
    processes: Vec<Value>,
    cgroups: Vec<Value>,
    events: Vec<Value>,
}

impl Scenario {
    /// Version 1, a name and a length: what every scenario states.
    pub fn new(name: &str, duration_ms: u64) -> Self {
        let mut fields = Map::new();
        fields.insert("version".into(), json!(1));
        fields.insert("name".into(), json!(name));
        fields.insert("duration_ms".into(), json!(duration_ms));
        Scenario { fields, processes: Vec::new(), cgroups: Vec::new(), events: Vec::new() }
    }

    /// One CPU at HZ 1000 with no autogroup and no switch or wakeup costs:
    /// the classes' own arithmetic and nothing else, as the class tests want.
    pub fn one_bare_cpu(name: &str, duration_ms: u64) -> Self {
        Scenario::new(name, duration_ms).hz(1000).autogroup(false).free_costs().machine("uniprocessor")
    }

    /// Any top-level field the named methods do not cover (`description`,
    /// `sanity_checker`, …), or a value of a type the format refuses.
    pub fn set(mut self, key: &str, value: impl Into<Value>) -> Self {
        self.fields.insert(key.into(), value.into());
        self
    }

    pub fn hz(self, hz: u32) -> Self {
        self.set("hz", hz)
    }

    pub fn seed(self, seed: u64) -> Self {
        self.set("seed", seed)
    }

    /// The bug profile: "linux-4.1" (the paper's bugs) or "linux-4.1-fixed".
    pub fn bugs(self, profile: &str) -> Self {
        self.set("bugs", profile)
    }

    /// `bugs("linux-4.1")` when `on`, else `bugs("linux-4.1-fixed")`.
    pub fn with_bugs(self, on: bool) -> Self {
        self.bugs(if on { "linux-4.1" } else { "linux-4.1-fixed" })
    }

    pub fn autogroup(self, on: bool) -> Self {
        self.set("autogroup", on)
    }

    pub fn nohz(self, on: bool) -> Self {
        self.set("nohz", on)
    }

    /// The preemption model: "none", "voluntary" or "full".
    pub fn preempt(self, model: &str) -> Self {
        self.set("preempt", model)
    }

    /// A built-in machine, by its preset name.
    pub fn machine(self, preset: &str) -> Self {
        self.set("machine", json!({ "preset": preset }))
    }

    /// A machine of `nodes` nodes of `cores` cores of `threads` SMT threads.
    pub fn topology(self, nodes: u32, cores: u32, threads: u32) -> Self {
        self.set("machine", json!({ "nodes": nodes, "cores_per_node": cores, "threads_per_core": threads }))
    }

    /// A machine object written out (`nodes_per_package`, distances, …).
    pub fn machine_spec(self, machine: Value) -> Self {
        self.set("machine", machine)
    }

    /// The scheduling class by its kind ("cfs", "eevdf", "o1", …).
    pub fn policy(self, kind: &str) -> Self {
        self.set("policy", json!({ "kind": kind }))
    }

    /// Cost fields (`context_switch_ns`, `smt_sibling_speed_pct`, …); the
    /// rest keep their defaults.
    pub fn costs(self, costs: Value) -> Self {
        self.set("costs", costs)
    }

    /// Every modelled cost of a switch, wakeup, migration and fork at zero,
    /// for tests that count the work itself (threads then start together).
    pub fn free_costs(self) -> Self {
        self.costs(json!({
            "context_switch_ns": 0, "wakeup_ipi_ns": 0, "migration_cold_ns": 0,
            "migration_cold_remote_ns": 0, "clone_ns": 0
        }))
    }

    /// A cgroup object (`{"name": …, "shares": …}`), in the order added.
    pub fn cgroup(mut self, cgroup: Value) -> Self {
        self.cgroups.push(cgroup);
        self
    }

    /// A process, in the order added (its pid order).
    pub fn process(mut self, process: Process) -> Self {
        self.processes.push(process.0);
        self
    }

    pub fn processes(self, processes: impl IntoIterator<Item = Process>) -> Self {
        processes.into_iter().fold(self, Scenario::process)
    }

    /// An event object, in the order added.
    pub fn event(mut self, event: Value) -> Self {
        self.events.push(event);
        self
    }

    pub fn events(self, events: impl IntoIterator<Item = Value>) -> Self {
        events.into_iter().fold(self, Scenario::event)
    }

    pub fn cpu_offline(self, at_ms: u64, cpu: u32) -> Self {
        self.event(json!({ "at_ms": at_ms, "cpu_offline": cpu }))
    }

    pub fn cpu_online(self, at_ms: u64, cpu: u32) -> Self {
        self.event(json!({ "at_ms": at_ms, "cpu_online": cpu }))
    }

    /// The scenario as a JSON value; `cgroups` and `events` only when some
    /// were added, `processes` always (the format requires it).
    pub fn json(&self) -> Value {
        let mut all = self.fields.clone();
        all.insert("processes".into(), Value::Array(self.processes.clone()));
        if !self.cgroups.is_empty() {
            all.insert("cgroups".into(), Value::Array(self.cgroups.clone()));
        }
        if !self.events.is_empty() {
            all.insert("events".into(), Value::Array(self.events.clone()));
        }
        Value::Object(all)
    }

    /// The scenario file's text.
    pub fn build(&self) -> String {
        self.json().to_string()
    }

    /// The engine's configuration; a scenario the validator refuses panics
    /// with every problem and the text.
    pub fn config(&self) -> SimConfig {
        let text = self.build();
        load_scenario(&text).unwrap_or_else(|e| panic!("{e:?}\n{text}"))
    }

    /// A simulator at time zero.
    pub fn sim(&self) -> Simulator {
        Simulator::new(&self.config())
    }
}

/// A process of a scenario, by name; its program is set with `program` (or
/// `template`).
#[derive(Clone, Debug)]
pub struct Process(Value);

impl Process {
    pub fn new(name: &str) -> Self {
        Process(json!({ "name": name }))
    }

    /// A process that runs `run_us` at a time forever: a CPU hog.
    pub fn hog(name: &str, run_us: u64) -> Self {
        Process::new(name).program([forever([run(run_us)])])
    }

    /// Any field the named methods do not cover (`slice_us`, `nodes`, …).
    pub fn set(mut self, key: &str, value: impl Into<Value>) -> Self {
        self.0[key] = value.into();
        self
    }

    pub fn threads(self, n: u32) -> Self {
        self.set("threads", n)
    }

    pub fn nice(self, nice: i32) -> Self {
        self.set("nice", nice)
    }

    /// Its affinity as a CPU list ("0-3,8").
    pub fn cpus(self, list: &str) -> Self {
        self.set("cpus", list)
    }

    pub fn start_ms(self, ms: u64) -> Self {
        self.set("start_ms", ms)
    }

    pub fn cgroup(self, name: &str) -> Self {
        self.set("cgroup", name)
    }

    pub fn session(self, name: &str) -> Self {
        self.set("session", name)
    }

    pub fn job_pool(self, jobs: u64) -> Self {
        self.set("job_pool", jobs)
    }

    pub fn template(self, name: &str) -> Self {
        self.set("template", name)
    }

    /// Its steps, run once in order (a loop is a step: `forever`, `repeat`).
    pub fn program(self, steps: impl IntoIterator<Item = Value>) -> Self {
        self.set("program", steps.into_iter().collect::<Vec<_>>())
    }
}

/// JSON values written out comma-separated, as in one of a file's lists
/// (processes, events, steps): for hand-worked cases whose every field
/// matters, where the literal states the workload most plainly.
pub fn parse_list(list: &str) -> Vec<Value> {
    serde_json::from_str(&["[", list, "]"].concat()).unwrap_or_else(|e| panic!("{e}: [{list}]"))
}

/// Processes written out as JSON objects, comma-separated (`parse_list`).
pub fn parse_processes(list: &str) -> Vec<Process> {
    parse_list(list).into_iter().map(Process).collect()
}

/// A step that runs on a CPU for `us` (a number, or a distribution: `exp`).
pub fn run(us: impl Into<Value>) -> Value {
    json!({ "run_us": us.into() })
}

/// A step that sleeps for `us` (a number, or a distribution).
pub fn sleep(us: impl Into<Value>) -> Value {
    json!({ "sleep_us": us.into() })
}

/// A loop of `body` with no end.
pub fn forever(body: impl IntoIterator<Item = Value>) -> Value {
    json!({ "body": body.into_iter().collect::<Vec<_>>() })
}

/// A loop of `body` run `n` times.
pub fn repeat(n: u32, body: impl IntoIterator<Item = Value>) -> Value {
    json!({ "repeat": n, "body": body.into_iter().collect::<Vec<_>>() })
}

/// Exponentially distributed with mean `mean_us`.
pub fn exp(mean_us: u64) -> Value {
    json!({ "exp": mean_us })
}

/// Uniform over `[lo_us, hi_us]`.
pub fn uniform(lo_us: u64, hi_us: u64) -> Value {
    json!({ "uniform": [lo_us, hi_us] })
}

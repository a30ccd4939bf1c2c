//! One-slot flags between threads (`post` / `await`, `sim::flags`): the
//! pipeline synchronisation of NAS lu's SSOR sweeps, and the three ways a
//! thread can wait for its neighbour (spin, spin then yield, block).

use schedlab_core::api::report::{report, ProcessReport};
use schedlab_core::api::scenario::load_scenario;
use schedlab_core::sim::Simulator;
use serde_json::{json, Value};

use crate::common::scenario::{self as step, parse_processes, repeat, Process, Scenario};

fn run(cpus: u32, procs: Vec<Process>, ms: u64) -> Simulator {
    // Costs off (threads start together): these tests count the work and the waits themselves.
    let mut sim = Scenario::new("flags", ms)
        .hz(1000)
        .autogroup(false)
        .bugs("linux-4.1-fixed")
        .free_costs()
        .topology(1, cpus, 1)
        .processes(procs)
        .sim();
    sim.run_to_end();
    sim
}

fn proc_report(sim: &Simulator, name: &str) -> ProcessReport {
    report(sim).processes.into_iter().find(|p| p.name == name).unwrap()
}

/// A pipeline of `stages` 1 ms stages: wait for the left neighbour's flag,
/// work, pass the flag on to the right. `wait` holds the wait fields of
/// both flag steps (`{}`: the default, spin).
fn pipeline(threads: u32, cpus: &str, stages: u32, wait: Value) -> Vec<Process> {
    let flag = |op: &str| {
        let mut s = wait.clone();
        s[op] = json!("isync");
        s
    };
    let stage = [flag("await"), step::run(1000), flag("post")];
    vec![Process::new("lu").threads(threads).cpus(cpus).program([repeat(stages, stage)])]
}

const MS: u64 = 1_000_000;

/// Mechanism: thread k may start stage s only once thread k−1 has posted
/// it, so T threads on their own CPUs finish S stages in S + T − 1 stage
/// times. Spinning, thread k burns the k stage times it waits while the
/// pipeline fills; blocking, it burns nothing.
#[test]
fn a_pipeline_takes_stages_plus_threads_minus_one() {
    let spin = proc_report(&run(4, pipeline(4, "0-3", 50, json!({})), 200), "lu");
    let block = proc_report(&run(4, pipeline(4, "0-3", 50, json!({ "wait_policy": "block" })), 200), "lu");
    for (what, p) in [("spin", &spin), ("block", &block)] {
        let done = p.completion_ns.unwrap_or_else(|| panic!("{what}: the pipeline ends"));
        assert!((53 * MS..=54 * MS).contains(&done), "{what}: 53 stage times, took {done}");
    }
    // The work: 4 threads × 50 × 1 ms, plus a 1 ns system-call burst per blocking wakeup.
    assert!(block.cpu_time_ns.abs_diff(200 * MS) < 10_000, "block cpu {}", block.cpu_time_ns);
    // Spinning adds the fill: 0 + 1 + 2 + 3 ms.
    let fill = spin.cpu_time_ns as i64 - block.cpu_time_ns as i64;
    assert!((5 * MS as i64..=7 * MS as i64).contains(&fill), "spin adds the pipeline's fill: {fill}");
}

/// Mechanism: two pipeline threads share one CPU. A spinner waiting for
/// its neighbour holds the CPU its neighbour needs until the tick preempts
/// it (CFS's slice), so every hand-over costs a slice of spinning; a
/// yielder gives the CPU away after a short spin; a blocker at once. The
/// superlinear slowdown of the paper's lu is this, not a tuned figure.
#[test]
fn a_spinner_on_a_shared_cpu_burns_the_slice_its_neighbour_needs() {
    let done = |wait: Value| {
        let p = proc_report(&run(2, pipeline(2, "0", 20, wait), 2_000), "lu");
        (p.completion_ns.expect("the pipeline ends"), p.cpu_time_ns)
    };
    let (spin, _) = done(json!({}));
    let (yield_, _) = done(json!({ "wait_policy": "yield", "spin_us": 50 }));
    let (block, block_cpu) = done(json!({ "wait_policy": "block" }));
    // Blocking: the two threads' work back to back, 2 × 20 × 1 ms.
    assert!(block_cpu.abs_diff(40 * MS) < 10_000, "block cpu {block_cpu}");
    assert!((40 * MS..=41 * MS).contains(&block), "block {block}");
    // A yield hands the CPU over only when CFS picks past the skip buddy
    // (`pick_next_entity`: the other within the wakeup granularity), so a
    // yielder may spin a few rounds; still far from a spinner's slices.
    assert!(block < yield_ && yield_ < 2 * block, "yield {yield_} vs block {block}");
    assert!(spin > 2 * block, "a spinner burns slices: spin {spin} vs block {block}");
}

/// Mechanism: a flag has one slot. Thread 0 posts twice; its second post
/// waits until thread 1, asleep for 20 ms, takes the first. Thread 1's posts
/// and thread 0's awaits have no peer and do nothing.
#[test]
fn a_post_waits_while_its_slot_is_full_and_edge_threads_skip() {
    let procs = r#"{"name":"p","threads":2,"program":[{"post":"f"},{"post":"f","wait_policy":"block"},
        {"sleep_us":20000},{"await":"f"},{"await":"f"}]}"#;
    let p = proc_report(&run(2, parse_processes(procs), 200), "p");
    // Thread 0: posts at 0 and (blocked) at 20 ms, then sleeps 20 ms; thread 1
    // sleeps 20 ms and takes both.
    let done = p.completion_ns.expect("both threads end");
    assert!((40 * MS..40 * MS + 100_000).contains(&done), "one slot: {done}");
    assert!(p.nvcsw >= 3, "the second post blocks: {}", p.nvcsw);
}

/// Bad input is refused with the field and the reason.
#[test]
fn flag_steps_are_validated() {
    let refused = |step: &str| {
        let text = format!(
            r#"{{"version":1,"name":"f","duration_ms":10,"machine":{{"preset":"uniprocessor"}},
            "processes":[{{"name":"p","threads":2,"program":[{step}]}}]}}"#
        );
        let diags = load_scenario(&text).expect_err(step);
        diags.iter().map(|d| d.to_string()).collect::<Vec<_>>().join("; ")
    };
    assert!(refused(r#"{"post":"f","to":0}"#).contains("program[0].to: must be another thread's offset"));
    assert!(refused(r#"{"await":"f","to":1}"#).contains("program[0].to: only allowed together with post"));
    assert!(refused(r#"{"post":"f","wait_policy":"nap"}"#).contains("must be \"spin\", \"yield\" or \"block\""));
    assert!(refused(r#"{"post":"f","wait_policy":"yield"}"#).contains("needs a spin of at least 1 µs"));
    assert!(refused(r#"{"await":"f","spin_us":5}"#).contains("has no meaning with wait_policy \"spin\""));
    assert!(refused(r#"{"run_us":5,"wait_policy":"block"}"#).contains("only allowed together with post or await"));
    assert!(refused(r#"{"post":"f","await":"f"}"#).contains("exactly one of"));
}

/// The lu presets run NAS lu as the `nas-lu` template writes it, sized for
/// their thread count (one rule, `templates::nas_lu_program`).
#[test]
fn the_lu_presets_are_the_nas_lu_program() {
    use schedlab_core::api::scenario::templates::nas_lu_program;
    for name in [
        "group-imbalance-lu",
        "group-imbalance-lu-fixed",
        "group-construction-numactl",
        "group-construction-numactl-fixed",
    ] {
        let json = schedlab_core::api::presets::find(name).unwrap().json;
        let v: serde_json::Value = serde_json::from_str(json).unwrap();
        let lu = v["processes"].as_array().unwrap().iter().find(|p| p["name"] == "lu").unwrap();
        let threads = lu["threads"].as_u64().unwrap() as u32;
        assert_eq!(lu["program"], serde_json::to_value(nas_lu_program(threads)).unwrap(), "{name}");
    }
}

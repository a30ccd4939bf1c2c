//! Issue 8: fuzzing the scenario parser and the engine, bounded for CI.
//!
//! 1. Hostile text (random strings, and presets mutated by deleting,
//!    duplicating or splicing bytes and by swapping numbers for extreme
//!    ones) never panics the parser: it yields a config or field errors.
//! 2. Random *valid* scenarios built from every program step (run, sleep,
//!    loops, wait/wake, barriers with spinning, mutexes, condition variables,
//!    periodic timers, busy loops, yield, fork and wait, job pools; some
//!    processes in one shared address space), random machines, bug switches
//!    and hotplug run under
//!    an event budget without panicking, and keep the core invariants:
//!    time never goes back, no task runs on two CPUs, nothing runs on an
//!    offline CPU or outside its affinity.
//!
//! Any input that ever fails is kept by proptest in
//! `tests/proptest-regressions/fuzz_scenarios.txt` (where proptest puts a
//! module's cases when its crate root is tests/it/main.rs) and replayed first
//! from then on.

use proptest::prelude::*;
use schedlab_core::api::presets::PRESETS;
use schedlab_core::api::scenario::load_scenario;
use schedlab_core::sim::Simulator;
use schedlab_core::task::TaskState;
use serde_json::{json, Value};

use crate::common::scenario::{exp, forever, repeat, run, sleep, uniform, Process, Scenario};

const EXTREMES: &[&str] =
    &["-1", "0", "1e308", "-1e308", "18446744073709551616", "4294967296", "NaN", "null", "\"\"", "[]", "{}", "1.5"];

/// A preset's text with one of a few kinds of damage.
fn mutated() -> impl Strategy<Value = String> {
    (0..PRESETS.len(), 0usize..4, any::<prop::sample::Index>(), any::<prop::sample::Index>(), 0..EXTREMES.len())
        .prop_map(|(p, kind, a, b, x)| {
            let text = PRESETS[p].json;
            let bytes = text.as_bytes();
            let (i, j) = {
                let (i, j) = (a.index(bytes.len()), b.index(bytes.len()));
                (i.min(j), i.max(j))
            };
            let out: Vec<u8> = match kind {
                // Cut a stretch out.
                0 => [&bytes[..i], &bytes[j..]].concat(),
                // Duplicate a stretch.
                1 => [&bytes[..j], &bytes[i..j], &bytes[j..]].concat(),
                // Truncate.
                2 => bytes[..i].to_vec(),
                // Replace the number starting at or after i with an extreme.
                _ => {
                    let start = (i..bytes.len()).find(|&k| bytes[k].is_ascii_digit()).unwrap_or(bytes.len());
                    let end = (start..bytes.len()).find(|&k| !bytes[k].is_ascii_digit()).unwrap_or(bytes.len());
                    [&bytes[..start], EXTREMES[x].as_bytes(), &bytes[end..]].concat()
                }
            };
            String::from_utf8_lossy(&out).into_owned()
        })
}

fn step_snippet() -> impl Strategy<Value = Vec<Value>> {
    prop_oneof![
        (1u64..5_000).prop_map(|us| vec![run(us)]),
        (1u64..5_000).prop_map(|us| vec![run(exp(us))]),
        (1u64..3_000, 3_000u64..6_000).prop_map(|(a, b)| vec![sleep(uniform(a, b))]),
        (0u64..3_000).prop_map(|us| vec![json!({ "barrier": "b", "spin_us": us })]),
        Just(vec![json!({ "lock": "m" }), run(200), json!({ "unlock": "m" })]),
        Just(vec![json!({ "yield": true })]),
        Just(vec![json!({ "wake": "p0" }), json!({ "wait": true })]),
        Just(vec![json!({ "fork": [run(300)] }), json!({ "wait_child": true })]),
        Just(vec![json!({ "take_job": true }), run(500)]),
        Just(vec![json!({ "await": "f" }), run(100), json!({ "post": "f" })]),
        (1u64..300).prop_map(|us| vec![
            json!({ "await": "g", "wait_policy": "yield", "spin_us": us }),
            json!({ "post": "g", "wait_policy": "block", "spin_us": us }),
        ]),
        (1u32..4).prop_map(|n| vec![repeat(n, [run(100), sleep(100)])]),
        (1u64..5_000, any::<bool>(), any::<bool>()).prop_map(|(us, shared, absolute)| vec![json!({
            "timer": "t", "period_us": us, "shared": shared,
            "timer_mode": if absolute { "absolute" } else { "relative" }
        })]),
        (1u64..3_000).prop_map(|us| vec![json!({ "busy_us": us })]),
        Just(vec![json!({ "lock": "c" }), json!({ "cond_wait": "q", "mutex": "c" }), json!({ "unlock": "c" })]),
        Just(vec![json!({ "lock": "c" }), json!({ "cond_signal": "q" }), json!({ "unlock": "c" })]),
        Just(vec![json!({ "cond_broadcast": "q" }), run(50)]),
    ]
}

fn valid_scenario() -> impl Strategy<Value = String> {
    let machine = prop_oneof![
        Just(json!({ "preset": "uniprocessor" })),
        Just(json!({ "preset": "laptop-2c4t" })),
        Just(json!({ "preset": "opteron-6272-8n" })),
        (1u32..4, 1u32..5, 1u32..3)
            .prop_map(|(n, c, t)| json!({ "nodes": n, "cores_per_node": c, "threads_per_core": t })),
    ];
    // Named below, where the scenario numbers its processes.
    let process =
        (1u32..6, -20i32..20, proptest::collection::vec(step_snippet(), 1..5), 0u64..20, any::<bool>(), any::<bool>())
            .prop_map(|(threads, nice, steps, start, looped, shared)| {
                // A shared address space takes no job pool and no flags (they are a process's own).
                let flag = |s: &Vec<Value>| s.iter().any(|v| v.get("post").is_some() || v.get("await").is_some());
                let body: Vec<Value> = steps.into_iter().filter(|s| !(shared && flag(s))).flatten().collect();
                let body = if body.is_empty() { vec![run(100)] } else { body };
                let program = if looped { vec![forever(body)] } else { body };
                let p = Process::new("").threads(threads).nice(nice).start_ms(start).program(program);
                if shared {
                    p.set("address_space", "s")
                } else {
                    p.job_pool(20)
                }
            });
    (machine, proptest::collection::vec(process, 1..5), any::<bool>(), any::<bool>(), any::<bool>(), any::<u64>())
        .prop_map(|(machine, procs, bugs, autogroup, hotplug, seed)| {
            let s = Scenario::new("fuzz", 60)
                .seed(seed)
                .hz(1000)
                .with_bugs(bugs)
                .autogroup(autogroup)
                .set("sanity_checker", json!({ "period_ms": 10, "window_ms": 5 }))
                .machine_spec(machine)
                .processes(procs.into_iter().enumerate().map(|(i, p)| p.set("name", format!("p{i}"))));
            if hotplug { s.cpu_offline(5, 1).cpu_online(30, 1) } else { s }.build()
        })
}

fn core_invariants(sim: &Simulator) -> Result<(), String> {
    let mut running = std::collections::BTreeSet::new();
    for rq in sim.rqs() {
        if !rq.online && (rq.nr_running() > 0 || rq.curr().is_some()) {
            return Err(format!("offline CPU {} has tasks", rq.cpu));
        }
        if let Some(p) = rq.curr() {
            if !running.insert(p) {
                return Err(format!("task {p} on two CPUs"));
            }
        }
    }
    for t in sim.tasks() {
        if matches!(t.state, TaskState::Running | TaskState::Runnable) && !t.allowed.test(t.cpu) {
            return Err(format!("task {} outside its affinity", t.pid));
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]
    #[test]
    fn the_parser_never_panics_on_random_text(text in "\\PC{0,400}") {
        let _ = load_scenario(&text);
    }

    #[test]
    fn the_parser_never_panics_on_damaged_presets(text in mutated()) {
        let _ = load_scenario(&text);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]
    #[test]
    fn random_valid_scenarios_run_without_panics_and_keep_invariants(text in valid_scenario()) {
        // Some combinations are refused (a wake target that does not exist,
        // a hotplugged CPU the machine lacks): that is a field error, fine.
        let Ok(cfg) = load_scenario(&text) else { return Ok(()) };
        let mut sim = Simulator::new(&cfg);
        let mut last = sim.now();
        // The event budget: a runaway scenario cannot hang the test.
        for _ in 0..200_000 {
            if !sim.step_event() {
                break;
            }
            prop_assert!(sim.now() >= last, "time went back");
            last = sim.now();
            if let Err(e) = core_invariants(&sim) {
                prop_assert!(false, "{}: {}", e, text);
            }
        }
    }
}

/// The generator must mostly produce scenarios the validator accepts, or the
/// engine fuzzing above would be testing nothing.
#[test]
fn most_generated_scenarios_are_valid() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    let mut runner = TestRunner::deterministic();
    let strategy = valid_scenario();
    let mut refused = Vec::new();
    for _ in 0..100 {
        let text = strategy.new_tree(&mut runner).unwrap().current();
        if let Err(e) = load_scenario(&text) {
            refused.push(format!("{e:?}"));
        }
    }
    assert!(refused.len() < 30, "{} of 100 refused, e.g. {:?}", refused.len(), refused.first());
}

/// The event budget is a hard limit: a run that spends it stops where it is,
/// says so in the report, and steps no further.
#[test]
fn a_run_stops_at_its_event_budget() {
    use schedlab_core::api::{presets, report::report};
    let mut cfg = load_scenario(presets::find("overload-on-wakeup-db").unwrap().json).unwrap();
    cfg.event_budget = 5_000;
    let mut sim = Simulator::new(&cfg);
    sim.run_to_end();
    assert_eq!(sim.events_processed(), 5_000);
    assert!(sim.finished() && !sim.step_event());
    let r = report(&sim);
    let at = r.event_budget_stop_ns.expect("the report says the budget stopped the run");
    assert!(at > 0 && at < cfg.duration_ns, "stopped inside the run: {at}");
    assert_eq!(r.sim_time_ns, at);
    // Within budget, nothing changes.
    let full = {
        let mut s = Simulator::new(&load_scenario(presets::find("cfs-nice-levels").unwrap().json).unwrap());
        s.run_to_end();
        s
    };
    assert_eq!(report(&full).event_budget_stop_ns, None);
}

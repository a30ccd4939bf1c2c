//! A running thread changes where it may run: `set_cpus` (sched_setaffinity
//! on itself) and `set_cgroup` (a move to another cgroup), under 4.1 and 6.12.

use schedlab_core::api::report::report;
use schedlab_core::api::rtapp::export::export;
use schedlab_core::api::rtapp::import::{import, Defaults};
use schedlab_core::api::scenario::{load_scenario, parse_scenario, validate, ScenarioFile};
use schedlab_core::sim::Simulator;
use schedlab_core::time::{CpuId, SimTime};
use schedlab_core::trace::{MigrateCause, TraceKind};
use serde_json::json;

use crate::common::scenario::{self as step, forever, Process, Scenario};

/// 'a' starts on CPUs 0-1 beside two hogs free to go anywhere on four CPUs; 10 ms in it narrows itself to
/// CPUs 2-3. The stopper moves it there at once (a migration with cause "affinity"), and from then on,
/// whatever the balancer does, it is only ever on CPU 2 or 3.
#[test]
fn a_thread_narrowing_its_affinity_runs_only_on_the_new_cpus() {
    for kernel in ["4.1", "6.12"] {
        let a = Process::new("a").cpus("0-1").program([
            step::run(10_000),
            json!({"set_cpus": "2-3"}),
            forever([step::run(5_000), step::sleep(1_000)]),
        ]);
        let hogs = Process::hog("b", 10_000).threads(2);
        let mut sim = Scenario::new("affinity", 500)
            .set("kernel", kernel)
            .autogroup(false)
            .topology(1, 4, 1)
            .processes([a, hogs])
            .sim();
        let pid = sim.tasks().iter().position(|t| t.name == "a").expect("a");
        sim.run_until(SimTime(30_000_000));
        let moved: Vec<_> = sim
            .trace()
            .recent(usize::MAX)
            .filter(|r| matches!(r.kind, TraceKind::Migrate { cause: MigrateCause::Affinity, .. }))
            .map(|r| r.cpu)
            .collect();
        assert_eq!(moved.len(), 1, "{kernel}: one move by the stopper: {moved:?}");
        assert!(moved[0] == CpuId(2) || moved[0] == CpuId(3), "{kernel}: {moved:?}");
        while !sim.finished() {
            sim.step_event();
            let cpu = sim.tasks()[pid].cpu;
            assert!(cpu == CpuId(2) || cpu == CpuId(3), "{kernel}: a is on CPU {cpu:?} at {:?}", sim.now());
        }
        let got = report(&sim);
        let a = got.processes.iter().find(|p| p.name == "a").expect("a");
        assert!(a.cpu_time_ns > 300_000_000, "{kernel}: a kept running on its new CPUs: {}", a.cpu_time_ns);
    }
}

/// Two hogs share cgroup 'x' (1024 shares) on one CPU, half each. Halfway through, 'a' moves itself into 'y'
/// (256 shares): from then on the groups split the CPU 1024 : 256, so a gets a fifth. Over 1 s: a ≈ 250 +
/// 100 ms, b ≈ 250 + 400 ms.
#[test]
fn a_thread_moving_into_a_lighter_cgroup_gets_that_group_s_share() {
    for kernel in ["4.1", "6.12"] {
        let a = Process::new("a").cgroup("x").program([
            step::run(250_000),
            json!({"set_cgroup": "y"}),
            forever([step::run(10_000)]),
        ]);
        let b = Process::hog("b", 10_000).cgroup("x");
        let mut sim = Scenario::new("move", 1000)
            .set("kernel", kernel)
            .hz(1000)
            .autogroup(false)
            .free_costs()
            .machine("uniprocessor")
            .cgroup(json!({"name": "x", "shares": 1024}))
            .cgroup(json!({"name": "y", "shares": 256}))
            .processes([a, b])
            .sim();
        sim.run_to_end();
        let got: Vec<(String, u64)> =
            report(&sim).processes.into_iter().map(|p| (p.name, p.cpu_time_ns / 1_000_000)).collect();
        let (a, b) = (got[0].1, got[1].1);
        assert!((330..=375).contains(&a), "{kernel}: a has half, then a fifth: {got:?}");
        assert!((625..=670).contains(&b), "{kernel}: b has half, then four fifths: {got:?}");
    }
}

/// Into a light cgroup and back to the root: 'a' does 100 ms of work in 'y' (256 shares against the root hog
/// b's 1024, a fifth of the CPU: about 500 ms), then shares equally with b at the root: a ≈ 100 + 250 ms of 1 s.
#[test]
fn a_thread_moves_into_a_cgroup_and_back_to_the_root() {
    let a = Process::new("a").program([
        json!({"set_cgroup": "y"}),
        step::run(100_000),
        json!({"set_cgroup": "/"}),
        forever([step::run(10_000)]),
    ]);
    let mut sim = Scenario::one_bare_cpu("root", 1000)
        .cgroup(json!({"name": "y", "shares": 256}))
        .processes([a, Process::hog("b", 10_000)])
        .sim();
    sim.run_to_end();
    let got: Vec<u64> = report(&sim).processes.iter().map(|p| p.cpu_time_ns / 1_000_000).collect();
    assert!((330..=375).contains(&got[0]), "a had a fifth, then half: {got:?}");
}

fn refused(p: Process, machine: &str, policy_kind: Option<&str>) -> String {
    let mut s = Scenario::new("steps", 10).machine(machine).cgroup(json!({"name": "x", "shares": 512}));
    if let Some(kind) = policy_kind {
        s = s.policy(kind);
    }
    format!("{:?}", load_scenario(&s.processes([p]).build()).expect_err("refused"))
}

#[test]
fn thread_change_steps_are_checked_at_load() {
    let p = Process::new("a").program([step::run(1000), json!({"set_cpus": "4-5"})]);
    let e = refused(p, "laptop-2c4t", None);
    assert!(e.contains("processes[0].program[1].set_cpus") && e.contains("no online CPU"), "{e}");
    let p = Process::new("a").program([json!({"body": [json!({"set_cpus": "x"}), step::run(5)], "repeat": 2})]);
    let e = refused(p, "laptop-2c4t", None);
    assert!(e.contains("processes[0].program[0].body[0].set_cpus"), "{e}");
    let p = Process::new("a").set("sched_policy", "fifo").set("rt_priority", 10).program([json!({"set_cpus": "0"})]);
    let e = refused(p, "laptop-2c4t", None);
    assert!(e.contains("set_cpus") && e.contains("real-time or deadline"), "{e}");
    let p = Process::new("a").program([json!({"sched_setattr": "rr", "rt_priority": 3}), json!({"set_cpus": "all"})]);
    let e = refused(p, "laptop-2c4t", None);
    assert!(e.contains("processes[0].program[1].set_cpus"), "{e}");
    let p = Process::new("a").program([json!({"set_cgroup": "nope"}), step::run(5)]);
    let e = refused(p, "laptop-2c4t", None);
    assert!(e.contains("processes[0].program[0].set_cgroup") && e.contains("no cgroup named 'nope'"), "{e}");
    let p = Process::new("a").program([json!({"set_cgroup": "x"}), step::run(5)]);
    let e = refused(p, "laptop-2c4t", Some("o1"));
    assert!(e.contains("set_cgroup") && e.contains("not modelled under policy"), "{e}");
    let ok = Scenario::new("steps", 10).machine("laptop-2c4t").cgroup(json!({"name": "x", "shares": 512})).process(
        Process::new("a").program([
            json!({"set_cpus": "all"}),
            json!({"set_cgroup": "x"}),
            json!({"set_cgroup": "/"}),
            step::run(5),
        ]),
    );
    assert!(load_scenario(&ok.build()).is_ok());
}

fn trace_hash(s: &ScenarioFile) -> String {
    let mut sim = Simulator::new(&validate(s).expect("valid"));
    sim.run_to_end();
    report(&sim).trace_hash
}

/// set_cpus and set_cgroup at the start of phases are rt-app's per-phase cpus and taskgroup: exported, the steps
/// before the loop become its phase's properties, a phase back on every CPU names none (rt-app then sets the
/// thread's first affinity again), and the file imports to the same scenario.
#[test]
fn phase_moves_round_trip_through_rt_app() {
    let p = Process::new("mover").program([
        step::run(10_000),
        json!({"set_cpus": "1"}),
        json!({"set_cgroup": "/g"}),
        step::repeat(3, [step::run(1_000), step::sleep(1_000)]),
        json!({"set_cpus": "all"}),
        step::run(1_000),
    ]);
    let text = Scenario::new("moves", 100)
        .machine("laptop-2c4t")
        .cgroup(json!({"name": "/g"}))
        .processes([p, Process::hog("hog", 10_000)])
        .build();
    let s = parse_scenario(&text).expect("parsed");
    let rtapp = serde_json::to_string(&export(&s).expect("exported")).unwrap();
    assert!(
        rtapp.contains(r#""phases":{"p1":{"loop":1,"run":10000},"p2":{"loop":3,"cpus":[1],"taskgroup":"/g","run":1000,"sleep":1000},"p3":{"loop":1,"run":1000}}"#),
        "{rtapp}"
    );
    let (back, _) = import(&rtapp, &Defaults::default()).expect("imported");
    assert_eq!(
        serde_json::to_value(&back.processes[0].program).unwrap(),
        json!([
            {"run_us": 10000},
            {"set_cpus": "1"}, {"set_cgroup": "/g"}, {"repeat": 3, "body": [{"run_us": 1000}, {"sleep_us": 1000}]},
            {"set_cpus": "all"}, {"run_us": 1000}
        ])
    );
    assert_eq!(back, s, "the same scenario back");
    assert_eq!(trace_hash(&back), trace_hash(&s));
}

/// What rt-app cannot say of these steps is named on export.
#[test]
fn phase_moves_rt_app_cannot_say_are_named() {
    let p = Process::new("a").cpus("0").program([
        step::run(1_000),
        json!({"set_cpus": "all"}),
        step::run(1_000),
        step::repeat(2, [step::run(1_000), json!({"set_cpus": "1"})]),
        json!({"set_cgroup": "/g"}),
    ]);
    let text = Scenario::new("moves", 100).machine("laptop-2c4t").cgroup(json!({"name": "/g"})).processes([p]).build();
    let e = export(&parse_scenario(&text).unwrap()).unwrap_err();
    assert!(e.contains("processes[0].program[1].set_cpus: \"all\" in a process with cpus"), "{e}");
    let inside = "processes[0].program[3].body[1]: set_cpus, sched_setattr or set_cgroup inside a repeated phase";
    assert!(e.contains(inside), "{e}");
    assert!(e.contains("processes[0].program[4]: set_cpus, sched_setattr or set_cgroup with no step after it"), "{e}");
}

//! A running thread changes where it may run: `set_cpus` (sched_setaffinity
//! on itself) and `set_cgroup` (a move to another cgroup), under 4.1 and 6.12.

use schedlab_core::api::report::report;
use schedlab_core::api::scenario::load_scenario;
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
    let mut sim = Scenario::new("root", 1000)
        .hz(1000)
        .autogroup(false)
        .free_costs()
        .machine("uniprocessor")
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

//! Group scheduling (seed 001's example): user A runs 2 CPU-bound processes,
//! user B runs 8. Without group scheduling every thread gets the same share,
//! so A gets 20% and B 80%; with one cgroup per user (equal cpu.shares) the
//! two groups get 50% each.

use crate::common;
use common::cpu_time;
use common::scenario::{Process, Scenario};
use serde_json::json;

fn users(machine: &str, with_groups: bool) -> (f64, f64) {
    let mut s = Scenario::new("users", 20_000).hz(1000).autogroup(false).bugs("linux-4.1-fixed").machine(machine);
    if with_groups {
        s = s.cgroup(json!({ "name": "userA" })).cgroup(json!({ "name": "userB" }));
    }
    for i in 0..10 {
        let user = if i < 2 { "A" } else { "B" };
        let hog = Process::hog(&format!("{user}{i}"), 100_000);
        s = s.process(if with_groups { hog.cgroup(&format!("user{user}")) } else { hog });
    }
    let mut sim = s.sim();
    sim.run_to_end();
    let a: u64 = (0..2).map(|i| cpu_time(&sim, &format!("A{i}"))).sum();
    let b: u64 = (2..10).map(|i| cpu_time(&sim, &format!("B{i}"))).sum();
    let total = (a + b) as f64;
    (a as f64 / total, b as f64 / total)
}

/// Mechanism: without groups, ten equal-weight entities share the root runqueue.
#[test]
fn without_group_scheduling_users_split_20_80() {
    let (a, b) = users("uniprocessor", false);
    assert!((a - 0.2).abs() < 0.01 && (b - 0.8).abs() < 0.01, "A {a:.3}, B {b:.3}");
}

/// Mechanism: two group entities of equal weight share the root runqueue;
/// each group's threads share its half.
#[test]
fn with_group_scheduling_users_split_50_50() {
    let (a, b) = users("uniprocessor", true);
    assert!((a - 0.5).abs() < 0.01 && (b - 0.5).abs() < 0.01, "A {a:.3}, B {b:.3}");
}

/// On the 4-CPU laptop the same holds: group shares are split across CPUs by
/// where each group's load is, and balancing gives A's two threads CPUs of
/// their own.
#[test]
fn with_group_scheduling_users_split_50_50_on_four_cpus() {
    let (a, b) = users("laptop-2c4t", true);
    println!("laptop: A {a:.3}, B {b:.3}");
    let (a0, b0) = users("laptop-2c4t", false);
    println!("laptop without groups: A {a0:.3}, B {b0:.3}");
    assert!((a0 - 0.2).abs() < 0.02, "without groups A {a0:.3}");
    assert!((a - 0.5).abs() < 0.05 && (b - 0.5).abs() < 0.05, "A {a:.3}, B {b:.3}");
}

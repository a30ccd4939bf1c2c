//! The Missing Scheduling Domains bug where 4.1.15's x86 code reaches it, and
//! only there: `set_cpu_sibling_map`, run for a CPU coming online, calls
//! `primarily_use_numa_for_topology` when an online CPU of the same package
//! (`match_die`) sits on another node; that installs the SMT/MC table in
//! place of the one `sched_init_numa` extended, and the rebuild that follows
//! has no NUMA level. The paper's patch calls it only while
//! `sched_max_numa_distance` is unset (before `sched_init_numa`).
//!
//! Hand-worked machine: four nodes of two CPUs (node n = CPUs 2n, 2n+1), all
//! at distance 20. Boot: SMT is one CPU, MC the node, NUMA(20) everything
//! (with one node per package, DIE is the node and pruned), so after pruning
//! every CPU has MC, NUMA(20).
//!   - two nodes per package (CPUs 0-3 in package 0): CPU 1 going off and
//!     back finds CPU 2 (node 1, its package) online: NUMA(20) is lost.
//!   - one node per package: CPU 1's package is node 0 alone: nothing changes.
//!   - two nodes per package, with node 1 (CPUs 2, 3) offline when CPU 1
//!     returns: no CPU of another node in its package is set up, so the
//!     table stays; it switches when CPU 2 comes back (CPU 0 is online).

use crate::common::scenario::{self as step, parse_list, Process, Scenario};
use schedlab_core::time::SimTime;
use serde_json::json;

fn run(nodes_per_package: u32, bugs: &str, events: &str, until_ms: u64) -> Vec<String> {
    let machine =
        json!({ "nodes": 4, "cores_per_node": 2, "threads_per_core": 1, "nodes_per_package": nodes_per_package });
    let mut sim = Scenario::new("md", 200)
        .hz(250)
        .bugs(bugs)
        .machine_spec(machine)
        .process(Process::new("a").threads(1).program([step::run(1000)]))
        .events(parse_list(events))
        .sim();
    sim.run_until(SimTime(until_ms * 1_000_000));
    sim.rqs()[0].domains.iter().map(|d| d.name()).collect()
}

const OFF_ON_1: &str = r#"{"at_ms":10,"cpu_offline":1},{"at_ms":20,"cpu_online":1}"#;

#[test]
fn boot_builds_the_numa_level_either_way() {
    assert_eq!(run(2, "linux-4.1", "", 5), ["MC", "NUMA(20)"]);
    assert_eq!(run(1, "linux-4.1", "", 5), ["MC", "NUMA(20)"]);
}

#[test]
fn a_package_spanning_nodes_loses_the_numa_level_at_hotplug() {
    assert_eq!(run(2, "linux-4.1", OFF_ON_1, 30), ["MC"], "stock 4.1: SMT/MC table after the online");
    assert_eq!(run(2, "linux-4.1-fixed", OFF_ON_1, 30), ["MC", "NUMA(20)"], "the patch keeps the table");
}

#[test]
fn one_node_per_package_never_switches_tables() {
    assert_eq!(run(1, "linux-4.1", OFF_ON_1, 30), ["MC", "NUMA(20)"]);
}

#[test]
fn the_switch_needs_a_set_up_cpu_of_another_node_in_the_package() {
    let events = r#"{"at_ms":10,"cpu_offline":2},{"at_ms":11,"cpu_offline":3},{"at_ms":12,"cpu_offline":1},
                    {"at_ms":20,"cpu_online":1},{"at_ms":40,"cpu_online":2}"#;
    assert_eq!(run(2, "linux-4.1", events, 30), ["MC", "NUMA(20)"], "node 1 offline: CPU 1's package is one node");
    assert_eq!(run(2, "linux-4.1", events, 50), ["MC"], "CPU 2 (node 1) returns beside CPU 0 (node 0)");
}

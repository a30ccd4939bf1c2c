//! The engine keeps whole-machine state (idle CPUs, waiting tasks, the CPUs
//! wasting time, which runqueues changed, the migration count) up to date where runqueues change
//! instead of scanning every CPU per event (`sim/rq_index.rs`). With the
//! self-check on, every event compares that index with a full scan: every
//! preset (hotplug, O(1), Group Identity included) runs its first simulated
//! half second so checked.

use crate::common;

use schedlab_core::api::presets::PRESETS;
use schedlab_core::sim::Simulator;
use schedlab_core::time::SimTime;

#[test]
fn the_index_equals_a_full_scan_after_every_event() {
    for p in PRESETS {
        let cfg = common::preset_config(p.name);
        let mut sim = Simulator::new(&cfg);
        sim.set_index_check(true);
        sim.run_until(SimTime(500_000_000));
    }
}

/// The same on Linux 6.12, whose DELAY_DEQUEUE keeps sleepers queued (counted
/// in `nr_running`, never as waiting): every preset 6.12 runs, its first 0.3 s.
#[test]
fn the_index_equals_a_full_scan_on_612() {
    for p in PRESETS {
        let Ok(cfg) = common::preset_on_612(p.name) else { continue };
        let mut sim = Simulator::new(&cfg);
        sim.set_index_check(true);
        sim.run_until(SimTime(300_000_000));
    }
}

/// Affinities that differ, a pinned task whose only CPU goes offline (its
/// affinity is widened), CPUs leaving and coming back while tasks queue.
#[test]
fn the_index_follows_hotplug_and_widened_affinity() {
    let text = r#"{"version":1,"name":"hotplug-pinned","duration_ms":300,"hz":1000,
      "machine":{"nodes":2,"cores_per_node":2,"threads_per_core":2},
      "events":[{"at_ms":40,"cpu_offline":3},{"at_ms":90,"cpu_offline":6},{"at_ms":150,"cpu_online":3},
                {"at_ms":200,"cpu_online":6}],
      "processes":[
        {"name":"pinned","cpus":"3","program":[{"body":[{"run_us":{"exp":2000}},{"sleep_us":{"exp":500}}]}]},
        {"name":"half","threads":6,"cpus":"4-7","program":[{"body":[{"run_us":{"exp":3000}},{"sleep_us":{"exp":1000}}]}]},
        {"name":"any","threads":10,"program":[{"body":[{"run_us":{"exp":1500}},{"sleep_us":{"exp":2500}}]}]}]}"#;
    let cfg = schedlab_core::api::scenario::load_scenario(text).expect("valid");
    let mut sim = Simulator::new(&cfg);
    sim.set_index_check(true);
    sim.run_to_end();
    assert!(sim.machine_stats().wasted_core_ns > 0);
}

/// A flat 48-core node (select_idle_sibling's walk from the idle CPUs, one
/// balancing domain of 48 groups) with run/sleep threads, some pinned so
/// balancing passes redo without the pinned CPU: with the self-check on,
/// every redo's find_busiest_group and every idle-sibling walk are compared
/// with the full computation.
#[test]
fn redos_and_idle_sibling_walks_equal_the_full_computation() {
    let text = r#"{"version":1,"name":"flat-48","duration_ms":400,"hz":1000,
      "machine":{"nodes":1,"cores_per_node":48,"threads_per_core":1},
      "processes":[
        {"name":"pinned","threads":24,"cpus":"0-5","program":[{"body":[{"run_us":{"exp":3000}},{"sleep_us":{"exp":1000}}]}]},
        {"name":"any","threads":80,"program":[{"body":[{"run_us":{"exp":3000}},{"sleep_us":{"exp":1000}}]}]}]}"#;
    let cfg = schedlab_core::api::scenario::load_scenario(text).expect("valid");
    let mut sim = Simulator::new(&cfg);
    sim.set_index_check(true);
    sim.run_to_end();
    assert!(sim.decisions_total() > 100);
}

/// Fork placement reads each group's load from sums kept up to date where a
/// runqueue's load changes (`sim/fair/linux41/group_loads.rs`): forks before,
/// between and after CPUs leave and come back (the domains rebuilt, their
/// groups new), from tasks allowed everywhere and from pinned ones. With the
/// self-check on, every fork compares each kept group load with a recount.
#[test]
fn fork_placement_group_loads_follow_hotplug() {
    let text = r#"{"version":1,"name":"hotplug-forks","duration_ms":300,"hz":1000,
      "machine":{"nodes":2,"cores_per_node":2,"threads_per_core":2},
      "events":[{"at_ms":40,"cpu_offline":3},{"at_ms":90,"cpu_offline":6},{"at_ms":150,"cpu_online":3},
                {"at_ms":200,"cpu_online":6}],
      "processes":[
        {"name":"make","program":[{"repeat":60,"body":[{"fork":[{"run_us":{"uniform":[2000,9000]}}]},
          {"fork":[{"run_us":{"exp":3000}},{"sleep_us":{"exp":1000}},{"run_us":{"exp":2000}}]},
          {"wait_child":true},{"run_us":500}]}]},
        {"name":"pinned-make","cpus":"4-7","start_ms":60,"program":[{"repeat":40,"body":[
          {"fork":[{"run_us":{"uniform":[1000,6000]}}]},{"wait_child":true},{"sleep_us":{"exp":1000}}]}]},
        {"name":"any","threads":6,"start_ms":120,"program":[{"body":[{"run_us":{"exp":1500}},{"sleep_us":{"exp":2500}}]}]}]}"#;
    let cfg = schedlab_core::api::scenario::load_scenario(text).expect("valid");
    let mut sim = Simulator::new(&cfg);
    sim.set_index_check(true);
    sim.run_to_end();
    let forks = sim.placements().iter().filter(|p| p.kind == schedlab_core::balance::placement::PlaceKind::Fork);
    assert!(forks.filter(|p| p.at > SimTime(200_000_000)).count() > 5, "forks after the last hotplug event");
}

//! The engine keeps whole-machine state (idle CPUs, waiting tasks, the CPUs
//! wasting time, which runqueues changed) up to date where runqueues change
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

//! The per-frame view is the full view minus the other CPUs' trees and the
//! task list; the task list and names come on their own.

use schedlab_core::api::presets;
use schedlab_core::api::scenario::load_scenario;
use schedlab_core::api::view::{frame_view, sim_view, task_names, task_views};
use schedlab_core::sim::Simulator;
use schedlab_core::time::SimTime;

#[test]
fn frame_view_keeps_the_detail_cpu_and_every_counter() {
    let mut sim = Simulator::new(&load_scenario(presets::find("group-imbalance-make").unwrap().json).unwrap());
    sim.run_until(SimTime(300_000_000));
    let full = serde_json::to_value(sim_view(&sim)).unwrap();
    let frame = serde_json::to_value(frame_view(&sim, 5)).unwrap();
    assert_eq!(frame["now_ns"], full["now_ns"]);
    assert_eq!(frame["cpus"][5], full["cpus"][5]);
    assert!(full["cpus"][5]["groups"].as_array().is_some_and(|g| !g.is_empty()));
    for cpu in 0..64 {
        for k in ["nr_running", "load", "curr", "online"] {
            assert_eq!(frame["cpus"][cpu][k], full["cpus"][cpu][k]);
        }
    }
    assert_eq!(frame["cpus"][6]["tree"]["nodes"].as_array().map(Vec::len), Some(0));
    assert_eq!(frame["tasks"].as_array().map(Vec::len), Some(0));
    assert_eq!(serde_json::to_value(task_views(&sim)).unwrap(), full["tasks"]);
    let names = task_names(&sim, 10);
    assert_eq!(names.len(), sim.tasks().len() - 10);
    assert_eq!(names[0], sim.tasks()[10].name);
}

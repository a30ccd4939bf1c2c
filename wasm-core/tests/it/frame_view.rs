//! The per-frame view is the full view minus the other CPUs' trees and the
//! task list; the task list and names come on their own.

use schedlab_core::api::presets;
use schedlab_core::api::scenario::load_scenario;
use schedlab_core::api::views::view::{frame_view, sim_view, task_names, task_views};
use schedlab_core::sim::Simulator;
use schedlab_core::time::{CpuId, SimTime};

#[test]
fn frame_view_keeps_the_detail_cpu_and_every_counter() {
    let mut sim = Simulator::new(&load_scenario(presets::find("group-imbalance-make").unwrap().json).unwrap());
    sim.run_until(SimTime(300_000_000));
    let full = serde_json::to_value(sim_view(&sim)).unwrap();
    let frame = serde_json::to_value(frame_view(&sim, CpuId(5))).unwrap();
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

/// The lanes' slices over a zoomed-out window cost the window's buckets, not its slices: each slice shorter
/// than a bucket comes once per CPU and bucket (painted over it), longer ones as they are; bucket 0 gives all.
#[test]
fn zoomed_out_lanes_come_once_per_cpu_and_bucket() {
    let cfg = load_scenario(presets::find("pipe-pingpong").unwrap().json).unwrap();
    let mut sim = Simulator::new(&cfg);
    sim.run_until(SimTime(400_000_000));
    let (t0, t1) = (SimTime(0), SimTime(400_000_000));
    let cpus = sim.rqs().len();
    let every = 0..cpus as u32;
    let all = schedlab_core::api::views::view::slices(&sim, t0, t1, 0, every.clone());
    let bucket = 400_000_000 / 4096;
    let few = schedlab_core::api::views::view::slices(&sim, t0, t1, bucket, every);
    let long = all.chunks(4).filter(|q| q[3] - q[2] >= bucket as f64).count();
    assert!(all.len() / 4 > 50 * cpus * 4096 / 100, "the run has many short slices: {}", all.len() / 4);
    assert!(few.len() / 4 <= cpus * 4097 + long, "{} quads for {cpus} CPUs", few.len() / 4);
    // Every bucket a CPU ran in is painted: the set of (cpu, bucket) covered is the same.
    let covered = |q: &[f64]| (q[0] as u64, q[2] as u64 / bucket);
    let mut a: Vec<_> = all.chunks(4).map(covered).collect();
    let mut b: Vec<_> = few.chunks(4).map(covered).collect();
    a.sort_unstable();
    a.dedup();
    b.sort_unstable();
    b.dedup();
    assert_eq!(a, b);
}

/// Lanes for a range of CPUs (a large machine's lanes show one node) are exactly the whole machine's slices
/// on those CPUs, in the same order.
#[test]
fn lanes_of_a_cpu_range_are_the_machines_slices_on_those_cpus() {
    let cfg = load_scenario(presets::find("group-imbalance-make").unwrap().json).unwrap();
    let mut sim = Simulator::new(&cfg);
    sim.run_until(SimTime(300_000_000));
    let (t0, t1) = (SimTime(200_000_000), SimTime(300_000_000));
    let every = schedlab_core::api::views::view::slices(&sim, t0, t1, 0, 0..sim.rqs().len() as u32);
    let node1 = schedlab_core::api::views::view::slices(&sim, t0, t1, 0, 8..16);
    let expected: Vec<f64> = every.chunks(4).filter(|q| (8.0..16.0).contains(&q[0])).flatten().copied().collect();
    assert!(!node1.is_empty());
    assert_eq!(node1, expected);
}

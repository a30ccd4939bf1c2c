//! CPU hotplug: an offline CPU runs nothing until it is back, its tasks go
//! on elsewhere, and it gets work again once online.

use schedlab_core::api::scenario::load_scenario;
use schedlab_core::sim::Simulator;
use schedlab_core::time::SimTime;

#[test]
fn an_offline_cpu_runs_nothing_and_its_tasks_continue_elsewhere() {
    let text = r#"{"version":1,"name":"hp","duration_ms":1500,"hz":250,"bugs":"linux-4.1-fixed",
      "machine":{"preset":"laptop-2c4t"},
      "processes":[{"name":"hog","threads":4,"program":[{"body":[{"run_us":100000}]}]}],
      "events":[{"at_ms":200,"cpu_offline":2},{"at_ms":800,"cpu_online":2}]}"#;
    let mut sim = Simulator::new(&load_scenario(text).unwrap());
    sim.run_until(SimTime(250_000_000));
    let busy_at_off = sim.rqs()[2].busy_ns_at(sim.now());
    let cpu_time = |sim: &Simulator| sim.tasks().iter().map(|t| t.se.sum_exec_runtime).collect::<Vec<_>>();
    let before = cpu_time(&sim);
    while sim.now() < SimTime(790_000_000) {
        sim.step_event();
        assert!(!sim.rqs()[2].online);
        assert_eq!(sim.rqs()[2].nr_running(), 0, "offline CPU 2 holds no task");
    }
    assert_eq!(sim.rqs()[2].busy_ns_at(sim.now()), busy_at_off, "offline CPU 2 ran nothing");
    let after = cpu_time(&sim);
    for (b, a) in before.iter().zip(&after) {
        assert!(a - b > 100_000_000, "every hog kept running on the other CPUs ({b} -> {a})");
    }
    sim.run_until(SimTime(1_500_000_000));
    assert!(sim.rqs()[2].online);
    assert!(sim.rqs()[2].busy_ns_at(sim.now()) > busy_at_off + 200_000_000, "CPU 2 got work back after onlining");
}

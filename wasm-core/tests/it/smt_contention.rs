//! SMT contention (`costs.smt_sibling_speed_pct`): a hardware thread runs
//! its task's work more slowly while another thread of its core is busy;
//! CPU time is still charged by the clock.

use crate::common::scenario::{run, Process, Scenario};
use schedlab_core::api::scenario::load_scenario;
use schedlab_core::sim::Simulator;
use serde_json::json;

/// One worker doing 10 ms of work then exiting, pinned to CPU 0, and a hog
/// pinned to `hog_cpu` (or none); laptop-2c4t has cores {0,1} and {2,3}.
fn worker_exit_ms(speed_pct: u32, hog_cpu: Option<u32>) -> (f64, f64) {
    let hog = hog_cpu.map(|c| Process::hog("hog", 100_000).cpus(&c.to_string()));
    let mut sim = Scenario::new("smt", 100)
        .machine("laptop-2c4t")
        .costs(json!({ "smt_sibling_speed_pct": speed_pct }))
        .process(Process::new("worker").cpus("0").program([run(10_000)]))
        .processes(hog)
        .sim();
    sim.run_to_end();
    let p = sim.processes().iter().find(|p| p.name == "worker").unwrap();
    let t = &sim.tasks()[p.threads[0].idx()];
    let exited = t.stats.exited_at.expect("the worker finished").ns() as f64 / 1e6;
    (exited, t.se.sum_exec_runtime as f64 / 1e6)
}

#[test]
fn a_busy_sibling_stretches_work_and_an_idle_core_does_not() {
    let (alone, _) = worker_exit_ms(60, None);
    let (other_core, _) = worker_exit_ms(60, Some(2));
    let (sibling, cpu_ms) = worker_exit_ms(60, Some(1));
    let (no_contention, _) = worker_exit_ms(100, Some(1));
    assert!((alone - 10.0).abs() < 0.1, "alone: {alone} ms");
    assert!((other_core - alone).abs() < 0.1, "a hog on the other core changes nothing: {other_core} ms");
    assert!((no_contention - alone).abs() < 0.1, "at 100 % the sibling changes nothing: {no_contention} ms");
    // 10 ms of work at 60 % speed: 16.7 ms, all of it charged as CPU time.
    assert!((sibling - 10.0 / 0.6).abs() < 0.2, "beside a busy sibling: {sibling} ms");
    assert!((cpu_ms - 10.0 / 0.6).abs() < 0.2, "charged by the clock: {cpu_ms} ms");
}

/// The speed follows the sibling: while the blinker sleeps, the worker runs
/// at full speed.
#[test]
fn the_speed_changes_when_the_sibling_starts_and_stops() {
    let text = r#"{"version":1,"name":"smt","duration_ms":200,"machine":{"preset":"laptop-2c4t"},
        "costs":{"smt_sibling_speed_pct":50},
        "processes":[{"name":"worker","cpus":"0","program":[{"run_us":40000}]},
          {"name":"blinker","cpus":"1","program":[{"body":[{"run_us":5000},{"sleep_us":5000}]}]}]}"#;
    let cfg = load_scenario(text).unwrap();
    let mut sim = Simulator::new(&cfg);
    sim.run_to_end();
    let p = sim.processes().iter().find(|p| p.name == "worker").unwrap();
    let exited = sim.tasks()[p.threads[0].idx()].stats.exited_at.unwrap().ns() as f64 / 1e6;
    // The blinker's 5 ms of work also take 10 ms beside the worker, so a
    // cycle is 10 ms at 50 % then 5 ms alone at 100 %: 10 ms of the worker's
    // work per 15 ms, and its 40 ms of work end at 60 ms.
    assert!((59.5..60.5).contains(&exited), "worker exited at {exited} ms");
}

#[test]
fn the_speed_is_validated() {
    let bad = r#"{"version":1,"name":"smt","duration_ms":10,"machine":{"preset":"laptop-2c4t"},
        "costs":{"smt_sibling_speed_pct":0},"processes":[{"name":"w","program":[{"run_us":10}]}]}"#;
    let errs = load_scenario(bad).unwrap_err();
    assert_eq!(errs[0].field, "costs.smt_sibling_speed_pct");
}

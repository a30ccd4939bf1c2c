//! Every process template expands into a valid program that runs.

use schedlab_core::api::report::report;
use schedlab_core::api::scenario::load_scenario;
use schedlab_core::api::templates::TEMPLATE_NAMES;
use schedlab_core::sim::Simulator;

#[test]
fn every_template_runs() {
    let procs: Vec<String> =
        TEMPLATE_NAMES.iter().map(|t| format!(r#"{{"name":"{t}","threads":2,"template":"{t}"}}"#)).collect();
    let text = format!(
        r#"{{"version":1,"name":"templates","duration_ms":500,"machine":{{"preset":"xeon-gold-5218-2s"}},"processes":[{}]}}"#,
        procs.join(",")
    );
    let mut sim = Simulator::new(&load_scenario(&text).unwrap_or_else(|e| panic!("{e:?}")));
    sim.run_to_end();
    for p in report(&sim).processes {
        assert!(p.cpu_time_ns > 0, "{} did no work", p.name);
    }
}

#[test]
fn unknown_template_and_template_with_program_are_refused() {
    let bad = r#"{"version":1,"name":"t","duration_ms":10,"machine":{"preset":"uniprocessor"},
      "processes":[{"name":"a","template":"nope"},{"name":"b","template":"cpu-hog","program":[{"run_us":5}]}]}"#;
    let errs = load_scenario(bad).unwrap_err();
    assert!(errs.iter().any(|d| d.field == "processes[0].template"), "{errs:?}");
    assert!(errs.iter().any(|d| d.field == "processes[1]"), "{errs:?}");
}

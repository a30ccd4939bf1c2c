//! Every process template expands into a valid program that runs.

use schedlab_core::api::report::report;
use schedlab_core::api::scenario::load_scenario;
use schedlab_core::api::scenario::templates::TEMPLATE_NAMES;

use crate::common::scenario::{Process, Scenario};

#[test]
fn every_template_runs() {
    let mut sim = Scenario::new("templates", 500)
        .machine("xeon-gold-5218-2s")
        .processes(TEMPLATE_NAMES.iter().map(|t| Process::new(t).threads(2).template(t)))
        .sim();
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

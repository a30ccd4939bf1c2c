//! The `kernel` field: the generations it names, and what 6.12 refuses.

use crate::api::scenario::load_scenario;
use crate::config::Kernel;

/// A one-process scenario with `extra` top-level fields.
fn with(extra: &str) -> String {
    format!(
        r#"{{"version":1,"name":"t","duration_ms":10,"machine":{{"preset":"uniprocessor"}},{extra}"processes":[{{"name":"a","program":[{{"run_us":5}}]}}]}}"#
    )
}

fn refusal(extra: &str) -> Vec<(String, String)> {
    load_scenario(&with(extra)).unwrap_err().into_iter().map(|d| (d.field, d.reason)).collect()
}

#[test]
fn absent_is_4_1_and_each_name_its_generation() {
    assert_eq!(load_scenario(&with("")).unwrap().kernel, Kernel::Linux41);
    assert_eq!(load_scenario(&with(r#""kernel":"4.1","#)).unwrap().kernel, Kernel::Linux41);
    assert_eq!(load_scenario(&with(r#""kernel":"6.12","#)).unwrap().kernel, Kernel::Linux612);
    let r = refusal(r#""kernel":"6.6","#);
    assert_eq!(r[0].0, "kernel");
    assert!(r[0].1.contains("\"6.6\""), "{r:?}");
}

#[test]
fn on_6_12_the_patches_of_other_kernels_are_refused_with_the_reason() {
    for (policy, says) in [
        (r#"{"kind":"o1"}"#, "O(1)"),
        (r#"{"kind":"pfs"}"#, "patch of Linux 4.1"),
        (r#"{"kind":"dw-cfs"}"#, "patch of Linux 4.1"),
    ] {
        let r = refusal(&format!(r#""kernel":"6.12","policy":{policy},"#));
        assert_eq!(r[0].0, "policy.kind", "{policy}");
        assert!(r[0].1.contains(says), "{r:?}");
    }
    let r = refusal(r#""kernel":"6.12","policy":{"kind":"cfs","group_identity":true},"#);
    assert_eq!(r[0].0, "policy.group_identity");
    let r = refusal(r#""kernel":"6.12","bugs":"linux-4.1-fixed","#);
    assert_eq!(r[0].0, "bugs");
    assert!(r[0].1.contains("as it ships"), "{r:?}");
    // The same scenarios on 4.1 are fine.
    for extra in [r#""policy":{"kind":"o1"},"#, r#""bugs":"linux-4.1-fixed","#] {
        assert!(load_scenario(&with(extra)).is_ok(), "{extra}");
    }
}

#[test]
fn on_6_12_the_knobs_eevdf_removed_are_refused() {
    let r = refusal(
        r#""kernel":"6.12","policy":{"kind":"eevdf","tunables":{"sched_latency_us":6000},"features":{"start_debit":false}},"#,
    );
    let fields: Vec<&str> = r.iter().map(|(f, _)| f.as_str()).collect();
    assert_eq!(fields, ["policy.tunables.sched_latency_us", "policy.features.start_debit"]);
    // The base slice (min granularity) and the migration cost are 6.12's too.
    assert!(load_scenario(&with(
        r#""kernel":"6.12","policy":{"kind":"cfs","tunables":{"sched_min_granularity_us":3000,"sched_migration_cost_us":100}},"#
    ))
    .is_ok());
}

#[test]
fn a_custom_slice_needs_eevdf_on_4_1_but_not_on_6_12() {
    let slice = |kernel: &str| {
        format!(
            r#"{{"version":1,"name":"t","duration_ms":10,"machine":{{"preset":"uniprocessor"}},{kernel}"processes":[{{"name":"a","slice_us":3000,"program":[{{"run_us":5}}]}}]}}"#
        )
    };
    assert!(load_scenario(&slice("")).is_err());
    assert!(load_scenario(&slice(r#""kernel":"6.12","#)).is_ok());
}

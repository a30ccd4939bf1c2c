//! The scenario reader's own cases: paths in messages, refusals.

use super::*;
use crate::api::presets::PRESETS;

fn minimal(process: &str) -> String {
    format!(
        r#"{{"version":1,"name":"t","duration_ms":10,"machine":{{"preset":"uniprocessor"}},"processes":[{process}]}}"#
    )
}

#[test]
fn a_byte_order_mark_is_skipped_by_every_reader() {
    let text = minimal(r#"{"name":"a","program":[{"run_us":5}]}"#);
    let marked = format!("\u{feff}{text}");
    assert_eq!(load_scenario(&marked).unwrap().seed, load_scenario(&text).unwrap().seed);
    assert!(parse_scenario(&marked).is_ok());
    // Past the start it is no mark, and JSON refuses it.
    assert!(load_scenario(&format!(" {marked}")).is_err());
}

#[test]
fn a_bad_nice_names_its_field() {
    let err = load_scenario(&minimal(r#"{"name":"a","nice":99,"program":[{"run_us":5}]}"#)).unwrap_err();
    assert_eq!(err[0].field, "processes[0].nice");
}

#[test]
fn a_type_error_names_its_path() {
    let err = load_scenario(&minimal(r#"{"name":"a","threads":"many","program":[]}"#)).unwrap_err();
    assert_eq!(err[0].field, "processes[0].threads");
}

#[test]
fn unknown_fields_are_refused() {
    let err = load_scenario(&minimal(r#"{"name":"a","nicety":1,"program":[]}"#)).unwrap_err();
    assert!(err[0].reason.contains("nicety"), "{:?}", err);
}

#[test]
fn an_op_must_be_exactly_one_thing() {
    let err = load_scenario(&minimal(r#"{"name":"a","program":[{"run_us":5,"sleep_us":5}]}"#)).unwrap_err();
    assert_eq!(err[0].field, "processes[0].program[0]");
}

#[test]
fn policy_errors_name_their_field() {
    let with = |policy: &str| {
        format!(
            r#"{{"version":1,"name":"t","duration_ms":10,"machine":{{"preset":"uniprocessor"}},"policy":{policy},"processes":[{{"name":"a","program":[{{"run_us":5}}]}}]}}"#
        )
    };
    assert_eq!(load_scenario(&with(r#"{"kind":"bfs"}"#)).unwrap_err()[0].field, "policy.kind");
    assert_eq!(load_scenario(&with(r#"{"kind":"cfs","beta":1.2}"#)).unwrap_err()[0].field, "policy");
    assert_eq!(load_scenario(&with(r#"{"kind":"dw-cfs","beta":2.5}"#)).unwrap_err()[0].field, "policy.beta");
    for kind in ["eevdf", "o1"] {
        let gi = format!(r#"{{"kind":"{kind}","group_identity":true}}"#);
        assert_eq!(load_scenario(&with(&gi)).unwrap_err()[0].field, "policy.group_identity");
    }
    assert!(load_scenario(&with(r#"{"kind":"pfs","group_identity":true}"#)).is_ok());
    let cfg = load_scenario(&with(r#"{"kind":"dw-cfs","alpha":"C","beta":1.2}"#)).unwrap();
    assert_eq!(cfg.policy.beta_milli, 1200);
}

#[test]
fn garbage_is_a_diagnostic_not_a_panic() {
    for text in ["", "{", "[]", "null", "{\"version\":1}", "\u{0}"] {
        assert!(load_scenario(text).is_err(), "{text:?}");
    }
}

/// A scenario of about 8 MiB of cgroups, every process in one of them: refused for the count, named
/// with it, in one pass over the list (before, each cgroup and each process scanned the whole list).
#[test]
fn a_scenario_of_hundreds_of_thousands_of_cgroups_is_refused_by_their_count() {
    let n = 200_000;
    let mut text = String::with_capacity(8 << 20);
    text += r#"{"version":1,"name":"many","duration_ms":10,"machine":{"preset":"uniprocessor"},"cgroups":["#;
    for i in 0..n {
        text += &format!(r#"{}{{"name":"g{i}","parent":"g{}"}}"#, if i == 0 { "" } else { "," }, i / 2);
    }
    text += r#"],"processes":[{"name":"p","cgroup":"g199999","program":[{"run_us":1}]}]}"#;
    assert!(text.len() <= 8 << 20, "{}", text.len());
    let diags = load_scenario(&text).unwrap_err();
    let count = diags.iter().find(|d| d.field == "cgroups").expect("the count is refused");
    assert_eq!(count.reason, format!("at most 256 cgroups (the scenario defines {n})"));
    // g0 names itself as its parent, defined no earlier: the one other problem.
    assert!(diags.iter().any(|d| d.field == "cgroups[0].parent"), "{diags:?}");
}

#[test]
fn every_preset_is_valid_and_named_like_its_file() {
    for p in PRESETS {
        let cfg = load_scenario(p.json).unwrap_or_else(|e| panic!("{}: {:?}", p.name, e));
        assert_eq!(cfg.name, p.name);
        assert!(!parse_scenario(p.json).unwrap().description.is_empty());
    }
}

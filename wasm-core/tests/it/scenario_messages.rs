//! Messages that help: a wrong duration, sanity checker or bugs value says
//! which forms are accepted; values are shown as written; counts are exact;
//! bounds make sense; a scenario is an object; and the editor's list holds
//! every type error it can find, not only the first.

use schedlab_core::api::editor::diagnostics;
use schedlab_core::api::scenario::load_scenario;

const HEAD: &str = r#""version":1,"name":"t","duration_ms":10,"machine":{"preset":"uniprocessor"}"#;

fn with(extra: &str, program: &str) -> String {
    format!(r#"{{{HEAD},{extra}"processes":[{{"name":"a","program":{program}}}]}}"#)
}

fn messages(text: &str) -> Vec<String> {
    load_scenario(text).err().unwrap_or_default().iter().map(ToString::to_string).collect()
}

fn one(text: &str) -> String {
    let m = messages(text);
    assert_eq!(m.len(), 1, "{m:#?}");
    m[0].clone()
}

#[test]
fn a_wrong_duration_says_which_forms_are_accepted() {
    let forms = r#"expected a number of microseconds, {"uniform": [lo, hi]} or {"exp": mean}"#;
    for step in [r#"{"run_us":"5ms"}"#, r#"{"sleep_us":true}"#, r#"{"barrier":"b","spin_us":[1,2]}"#] {
        let m = one(&with("", &format!("[{step}]")));
        assert!(m.contains(forms), "{m}");
        assert!(!m.contains("did not match any variant"), "{m}");
    }
    let m = one(&with("", r#"[{"run_us":-5}]"#));
    assert!(m.starts_with("processes[0].program[0].run_us: must not be negative (got -5)"), "{m}");
    assert!(one(&with("", r#"[{"run_us":1.5}]"#)).contains("must be a whole number of microseconds (got 1.5)"));
    let m = one(&with("", r#"[{"run_us":{"uniform":[1]}}]"#));
    assert!(m.starts_with("processes[0].program[0].run_us.uniform: invalid length 1"), "{m}");
    let m = one(&with("", r#"[{"run_us":{"uniform":[1,2],"exp":3}}]"#));
    assert!(m.contains(r#"exactly one of "uniform" or "exp""#), "{m}");
    let m = one(&with("", r#"[{"run_us":{"mean":3}}]"#));
    assert!(m.contains("unknown field `mean`, expected `uniform` or `exp`"), "{m}");
}

#[test]
fn a_wrong_sanity_checker_or_bugs_value_says_which_forms_are_accepted() {
    let program = r#"[{"run_us":5}]"#;
    let m = one(&with(r#""sanity_checker":"yes","#, program));
    assert!(m.starts_with("sanity_checker: "), "{m}");
    assert!(m.contains(r#"expected true, false or {"period_ms": P, "window_ms": W}"#), "{m}");
    let m = one(&with(r#""sanity_checker":{"period_ms":100},"#, program));
    assert!(m.contains("missing field `window_ms`"), "{m}");
    let m = one(&with(r#""sanity_checker":{"period_ms":100,"window_ms":10,"colour":1},"#, program));
    assert!(m.contains("unknown field `colour`"), "{m}");
    let m = one(&with(r#""bugs":5,"#, program));
    assert!(m.starts_with("bugs: "), "{m}");
    assert!(m.contains(r#"expected "linux-4.1", "linux-4.1-fixed" or an object of switches"#), "{m}");
    let m = one(&with(r#""bugs":{"group_imbalanse":true},"#, program));
    assert!(m.contains("unknown field `group_imbalanse`, expected one of `group_imbalance`"), "{m}");
    assert!(load_scenario(&with(r#""bugs":{"group_imbalance":false},"sanity_checker":false,"#, program)).is_ok());
}

#[test]
fn a_huge_tunable_is_shown_as_written() {
    let m = one(&with(
        r#""policy":{"kind":"cfs","tunables":{"sched_latency_us":18446744073709551615}},"#,
        r#"[{"run_us":5}]"#,
    ));
    assert_eq!(m, "policy.tunables.sched_latency_us: must be between 100 and 1000000 (got 18446744073709551615)");
}

#[test]
fn an_over_long_program_gives_its_whole_count() {
    let steps = vec!["{}"; 1_000_000].join(",");
    assert_eq!(one(&with("", &format!("[{steps}]"))), "processes[0].program: has 1000000 steps; the limit is 1000");
    // Loop bodies count too.
    let body = vec![r#"{"run_us":1}"#; 600].join(",");
    let nested = format!(r#"[{{"body":[{body}]}},{{"body":[{body}]}}]"#);
    assert_eq!(one(&with("", &nested)), "processes[0].program: has 1202 steps; the limit is 1000");
}

#[test]
fn sanity_checker_bounds_make_sense() {
    let program = r#"[{"run_us":5}]"#;
    assert_eq!(
        messages(&with(r#""sanity_checker":{"period_ms":0,"window_ms":0},"#, program)),
        [
            "sanity_checker.period_ms: must be between 1 and 600000 (got 0)",
            "sanity_checker.window_ms: must be at least 1 (got 0)",
        ]
    );
    assert_eq!(
        one(&with(r#""sanity_checker":{"period_ms":100,"window_ms":500},"#, program)),
        "sanity_checker.window_ms: must be at most period_ms, 100 (got 500)"
    );
}

#[test]
fn a_scenario_is_an_object() {
    // serde's derived structs also read an array, field by field in order.
    let as_array = r#"[1,"t","",1,10,250,{"preset":"uniprocessor"},{"kind":"cfs"},null,true,true,null,null,[],
        [{"name":"a","program":[{"run_us":5}]}],[]]"#;
    assert_eq!(messages(as_array), ["scenario: must be a JSON object {…}, not an array"]);
    assert_eq!(diagnostics(as_array).len(), 1);
    for (text, got) in [("  \"x\"", "a string"), ("5", "a number"), ("null", "null"), ("true", "a boolean")] {
        assert_eq!(messages(text), [format!("scenario: must be a JSON object {{…}}, not {got}")]);
    }
}

#[test]
fn the_editor_lists_every_type_error_it_can_find() {
    let text = r#"{"version":1,"name":7,"duration_ms":"long","colour":"red","machine":{"preset":"uniprocessor","nodes":"2"},
        "processes":[
          {"name":"a","nice":"low","threads":"many","program":[{"run_us":"x"},{"run_us":5},{"sleep_us":{"uniform":[1]}}]},
          {"name":"b","program":[{"run_us":{"foo":1}}]}],
        "events":[{"at_ms":"1"},{"at_ms":2,"cpu_offline":"0"}]}"#;
    let fields: Vec<String> = diagnostics(text).into_iter().map(|d| d.field).collect();
    assert_eq!(
        fields,
        [
            "name",
            "duration_ms",
            "colour",
            "machine.nodes",
            "processes[0].program[0].run_us",
            "processes[0].program[2].sleep_us.uniform",
            "processes[0].nice",
            "processes[0].threads",
            "processes[1].program[0].run_us.foo",
            "events[0].at_ms",
            "events[1].cpu_offline",
        ]
    );
    // The first keeps the position the parser of the text gave it; a
    // required field found wrong is not also reported missing.
    let all = diagnostics(text);
    assert!(all[0].reason.contains("at line 1"), "{}", all[0]);
    assert!(all.iter().all(|d| !d.reason.starts_with("missing field")), "{all:#?}");
    // A syntax error is reported alone.
    assert_eq!(diagnostics(r#"{"version":1,"name":"t",}"#).len(), 1);
}

#[test]
fn packages_must_hold_whole_nodes() {
    let scenario = |machine: &str| {
        format!(
            r#"{{"version":1,"name":"t","duration_ms":10,"machine":{machine},
               "processes":[{{"name":"a","program":[{{"run_us":5}}]}}]}}"#
        )
    };
    let m = one(&scenario(r#"{"nodes":4,"cores_per_node":2,"nodes_per_package":3}"#));
    assert_eq!(
        m,
        "machine.nodes_per_package: must divide the machine's 4 node(s) into packages of equal size (1 to 4), not 3"
    );
    let m = one(&scenario(r#"{"preset":"xeon-gold-5218-2s","nodes_per_package":0}"#));
    assert!(m.starts_with("machine.nodes_per_package: must divide the machine's 2 node(s)"), "{m}");
    let cfg = load_scenario(&scenario(r#"{"nodes":4,"cores_per_node":2,"nodes_per_package":2}"#)).unwrap();
    assert_eq!((cfg.machine.nodes_per_package, cfg.machine.packages()), (2, 2));
    let cfg = load_scenario(&scenario(r#"{"preset":"opteron-6272-8n"}"#)).unwrap();
    assert_eq!(cfg.machine.nodes_per_package, 2, "the Opteron's packages hold two nodes");
    let cfg = load_scenario(&scenario(r#"{"nodes":2}"#)).unwrap();
    assert_eq!(cfg.machine.nodes_per_package, 1, "a machine without package information: one node per package");
}

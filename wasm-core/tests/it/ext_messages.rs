//! What a sched_ext policy's failures say: a select_cpu that returns a
//! string is told it returned a string (not the number the string spells),
//! and a syntax error is placed at its line and column in the policy's own
//! text, not in the source the `Function` constructor builds around it.

use schedlab_core::api::scenario::load_scenario;
use schedlab_core::sim::Simulator;
use serde_json::json;

/// The failure a policy's run stops with (laptop-2c4t, two hogs, 50 ms).
fn failure(src: &str) -> String {
    let text = json!({
        "version": 1, "name": "ext-messages", "seed": 1, "duration_ms": 50, "hz": 1000,
        "machine": { "preset": "laptop-2c4t" }, "policy": { "kind": "ext", "source": src },
        "processes": [{ "name": "hog", "threads": 2, "program": [{ "body": [{ "run_us": 1000 }] }] }]
    })
    .to_string();
    let cfg = load_scenario(&text).unwrap_or_else(|e| panic!("{e:?}"));
    let mut sim = Simulator::new(&cfg);
    sim.run_to_end();
    sim.notes().policy_error.clone().expect("the policy fails").1
}

#[test]
fn select_cpu_returning_a_string_is_told_so() {
    let why = failure("function select_cpu(p, prev, f) { return \"1\"; }\n");
    assert!(why.starts_with("select_cpu: select_cpu returned a string, \"1\", not a CPU"), "{why}");
    assert!(why.contains("from 0 to 3"), "{why}");
    // Not the string's number: nothing says "returned 1".
    assert!(!why.contains("returned 1"), "{why}");
    let why = failure("function select_cpu(p, prev, f) { return 7; }\n");
    assert!(why.starts_with("select_cpu: select_cpu returned 7, not a CPU"), "{why}");
}

#[test]
fn a_syntax_error_is_placed_at_its_line_and_column() {
    // The `{` on line 3, column 20, where the parameter list wants a `,` or a `)`.
    let why = failure("var a = 1;\nvar b = 2;\nfunction enqueue(p {\n}\n");
    assert!(why.starts_with("the policy does not load: SyntaxError"), "{why}");
    assert!(why.ends_with(" at line 3, col 20"), "{why}");
    // On the first line too (the strict-mode prefix is not counted).
    let why = failure("function enqueue(p {\n}\n");
    assert!(why.ends_with(" at line 1, col 20"), "{why}");
}

//! Control characters (Unicode category Cc: NUL, BEL, ESC, line breaks…) in
//! names are refused at validation with the field and the character; the
//! description may break lines and use tabs, nothing else. And as a second
//! guard every text output escapes any control character that reaches it:
//! the text report, the CSV, the CLI's messages.

use crate::common;

use schedlab_core::api::exports::metrics_csv;
use schedlab_core::api::report;
use schedlab_core::api::scenario::load_scenario;
use schedlab_core::sim::Simulator;
use std::process::Command;

fn scenario(name: &str, description: &str, processes: &str, extra: &str) -> String {
    format!(
        r#"{{"version":1,"name":{},"description":{},"duration_ms":20,"machine":{{"preset":"uniprocessor"}},{extra}"processes":[{processes}]}}"#,
        serde_json::to_string(name).unwrap(),
        serde_json::to_string(description).unwrap()
    )
}

fn process(name: &str, more: &str) -> String {
    format!(r#"{{"name":{},"program":[{{"run_us":1000}}]{more}}}"#, serde_json::to_string(name).unwrap())
}

fn messages(text: &str) -> Vec<String> {
    load_scenario(text).err().unwrap_or_default().iter().map(ToString::to_string).collect()
}

#[test]
fn control_characters_in_names_are_refused_with_the_field_and_the_character() {
    let procs = [process("a", ""), process("b", ""), process("c", ""), process("evil\u{1b}[2J", "")].join(",");
    assert_eq!(
        messages(&scenario("t", "", &procs, "")),
        ["processes[3].name: must not contain control characters (U+001B)"]
    );
    assert_eq!(
        messages(&scenario("ring\u{7}", "", &process("a", ""), "")),
        ["name: must not contain control characters (U+0007)"]
    );
    let fake_row = process("a\nfake,row", "");
    assert_eq!(
        messages(&scenario("t", "", &fake_row, "")),
        ["processes[0].name: must not contain control characters (U+000A)"]
    );
    let cg = r#""cgroups":[{"name":"g\u0000"}],"#;
    assert_eq!(
        messages(&scenario("t", "", &process("a", ""), cg)),
        ["cgroups[0].name: must not contain control characters (U+0000)"]
    );
    let session = process("a", r#","session":"tty\u009b1""#);
    assert_eq!(
        messages(&scenario("t", "", &session, "")),
        ["processes[0].session: must not contain control characters (U+009B)"]
    );
    let steps = r#"{"name":"a","program":[{"lock":"m\r"},{"unlock":"m\r"},{"barrier":"b\t"},{"wake":"a\u001b"}]}"#;
    assert_eq!(
        messages(&scenario("t", "", steps, "")),
        [
            "processes[0].program[0].lock: must not contain control characters (U+000D)",
            "processes[0].program[1].unlock: must not contain control characters (U+000D)",
            "processes[0].program[2].barrier: must not contain control characters (U+0009)",
            "processes[0].program[3].wake: must not contain control characters (U+001B)",
        ]
    );
}

#[test]
fn the_description_may_break_lines_and_use_tabs_only() {
    assert!(load_scenario(&scenario("t", "line one\n\tline two\n", &process("a", ""), "")).is_ok());
    assert_eq!(
        messages(&scenario("t", "a\r\nb", &process("a", ""), "")),
        ["description: may contain line breaks (U+000A) and tabs (U+0009) but no other control characters (U+000D)"]
    );
    assert_eq!(
        messages(&scenario("t", "\u{1b}]0;title\u{7}", &process("a", ""), "")),
        ["description: may contain line breaks (U+000A) and tabs (U+0009) but no other control characters (U+001B)"]
    );
}

#[test]
fn echoed_values_and_unknown_keys_are_escaped_in_messages() {
    let text = scenario("t", "", r#"{"name":"a","template":"x\u001b[31m"}"#, "");
    let msgs = messages(&text);
    assert!(msgs.iter().all(|m| !m.chars().any(char::is_control)), "{msgs:?}");
    assert!(msgs.iter().any(|m| m.contains("unknown template 'x\\u{1b}[31m'")), "{msgs:?}");
    let text = scenario("t", "", &process("a", r#","k\u001b":1"#), "");
    let msgs = messages(&text);
    assert!(msgs.iter().all(|m| !m.chars().any(char::is_control)), "{msgs:?}");
}

/// Names that validation would refuse, put straight into the engine's
/// configuration: every text output still escapes them.
#[test]
fn text_outputs_escape_control_characters_that_reach_them() {
    let mut cfg = load_scenario(&scenario("t", "", &[process("a", ""), process("b", "")].join(","), "")).unwrap();
    cfg.name = "scen\u{1b}[2J".into();
    cfg.processes[0].name = "=evil\u{1b}]0;x\u{7}".into();
    cfg.processes[1].name = "two\nfake,row\r".into();
    let mut sim = Simulator::new(&cfg);
    sim.run_to_end();
    let text = report::text_report(&report::report(&sim), 1.0);
    let csv = metrics_csv::metrics_csv(&sim);
    for out in [&text, &csv] {
        assert!(!out.chars().any(|c| c.is_control() && c != '\n'), "{out}");
    }
    assert!(text.contains("scen\\u{1b}[2J") && text.contains("two\\nfake,row\\r"), "{text}");
    // One line per process in the CSV, whatever the names hold.
    let procs: Vec<&str> = csv.split("\n\n").nth(1).unwrap().lines().collect();
    assert_eq!(procs.len(), 3, "{csv}");
    assert!(procs[1].starts_with("'=evil\\u{1b}]0;x\\u{7},"), "{}", procs[1]);
    assert!(procs[2].starts_with("\"two\\nfake,row\\r\","), "{}", procs[2]);
}

#[test]
fn the_cli_escapes_what_it_echoes() {
    let path = common::temp_path("text.json");
    std::fs::write(&path, scenario("t", "", &process("a\u{1b}[2J", ""), "")).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_schedsim")).arg("run").arg(&path).output().unwrap();
    let _ = std::fs::remove_file(&path);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2));
    assert!(err.contains("processes[0].name: must not contain control characters (U+001B)"), "{err}");
    let out = Command::new(env!("CARGO_BIN_EXE_schedsim")).args(["preset", "x\u{1b}[2J\u{7}"]).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2));
    assert!(!err.chars().any(|c| c.is_control() && c != '\n'), "{err:?}");
    assert!(err.contains("unknown preset 'x\\u{1b}[2J\\u{7}'"), "{err}");
}

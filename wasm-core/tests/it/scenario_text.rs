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

/// The bidirectional controls and invisible characters of issue 35 (item 9): a name holding one is refused like a
/// control character, the message naming it by its code point.
#[test]
fn bidirectional_and_invisible_characters_in_names_are_refused_by_code_point() {
    let why = |cp: &str| {
        format!("must not contain invisible or bidirectional formatting characters ({cp}): they change how the text around them shows")
    };
    for (ch, cp) in [
        ('\u{202E}', "U+202E"),
        ('\u{202A}', "U+202A"),
        ('\u{2066}', "U+2066"),
        ('\u{2069}', "U+2069"),
        ('\u{200E}', "U+200E"),
        ('\u{200F}', "U+200F"),
        ('\u{61C}', "U+061C"),
        ('\u{200B}', "U+200B"),
        ('\u{200D}', "U+200D"),
        ('\u{2060}', "U+2060"),
        ('\u{FEFF}', "U+FEFF"),
        ('\u{AD}', "U+00AD"),
        ('\u{2028}', "U+2028"),
        ('\u{E0041}', "U+E0041"),
    ] {
        let named = process(&format!("hog{ch}0"), "");
        assert_eq!(messages(&scenario("t", "", &named, "")), [format!("processes[0].name: {}", why(cp))]);
    }
    assert_eq!(
        messages(&scenario("evil\u{202e}txt.exe", "", &process("a", ""), "")),
        [format!("name: {}", why("U+202E"))]
    );
    let cg = r#""cgroups":[{"name":"g\u2067"}],"#;
    assert_eq!(messages(&scenario("t", "", &process("a", ""), cg)), [format!("cgroups[0].name: {}", why("U+2067"))]);
    let session = process("a", r#","session":"tty\u200b1""#);
    assert_eq!(messages(&scenario("t", "", &session, "")), [format!("processes[0].session: {}", why("U+200B"))]);
    let steps =
        r#"{"name":"a","program":[{"lock":"m\u00ad"},{"unlock":"m\u00ad"},{"barrier":"b\u2060"},{"wake":"a\u202e"}]}"#;
    assert_eq!(
        messages(&scenario("t", "", steps, "")),
        [
            format!("processes[0].program[0].lock: {}", why("U+00AD")),
            format!("processes[0].program[1].unlock: {}", why("U+00AD")),
            format!("processes[0].program[2].barrier: {}", why("U+2060")),
            format!("processes[0].program[3].wake: {}", why("U+202E")),
        ]
    );
    // Letters of any script, marks and emoji are names like any other; prose keeps its marks.
    let fine = [process("עברית", ""), process("中文", ""), process("café", ""), process("🦀", "")].join(",");
    assert!(load_scenario(&scenario("t", "\u{200f}שלום", &fine, "")).is_ok());
}

/// Names that validation would refuse, put straight into the engine's configuration (as a trace's task names
/// reach the report without a scenario): the text outputs show every hidden character as an escape.
#[test]
fn text_outputs_escape_bidirectional_and_invisible_characters() {
    let mut cfg = load_scenario(&scenario("t", "", &[process("a", ""), process("b", "")].join(","), "")).unwrap();
    cfg.name = "scen\u{2067}ario".into();
    cfg.processes[0].name = "evil\u{202e}gnp.exe".into();
    cfg.processes[1].name = "wor\u{200b}ker\u{feff}".into();
    let mut sim = Simulator::new(&cfg);
    sim.run_to_end();
    let text = report::text_report(&report::report(&sim), 1.0);
    let csv = metrics_csv::metrics_csv(&sim);
    for out in [&text, &csv] {
        assert!(!out.chars().any(|c| schedlab_core::api::text::is_hidden(c) && c != '\n'), "{out}");
    }
    for out in [&text, &csv] {
        for shown in ["scen\\u{2067}ario", "evil\\u{202e}gnp.exe", "wor\\u{200b}ker\\u{feff}"] {
            assert!(out.contains(shown), "{shown} in {out}");
        }
    }
}

/// A trace names its tasks itself: `real-trace` prints them escaped in its text report, exactly in its JSON.
#[test]
fn the_cli_escapes_a_traces_names_in_text_and_keeps_them_in_json() {
    let fixture = format!("{}/tests/fixtures/real/hand-made.txt", env!("CARGO_MANIFEST_DIR"));
    let trace = std::fs::read_to_string(fixture)
        .unwrap()
        .replace("# schedlab process 0 0 a\n", "# schedlab process 0 0 a\u{202e}txt.exe\u{200b}\n");
    assert!(trace.contains('\u{202e}'));
    let path = common::temp_path("bidi-trace.txt");
    std::fs::write(&path, &trace).unwrap();
    let text = Command::new(env!("CARGO_BIN_EXE_schedsim")).arg("real-trace").arg(&path).output().unwrap();
    let json =
        Command::new(env!("CARGO_BIN_EXE_schedsim")).arg("real-trace").arg(&path).arg("--json").output().unwrap();
    let _ = std::fs::remove_file(&path);
    let out = String::from_utf8_lossy(&text.stdout);
    assert!(text.status.success(), "{}", String::from_utf8_lossy(&text.stderr));
    assert!(out.contains("a\\u{202e}txt.exe\\u{200b}"), "{out}");
    assert!(!out.chars().any(|c| schedlab_core::api::text::is_hidden(c) && c != '\n'), "{out}");
    let v: serde_json::Value = serde_json::from_slice(&json.stdout).expect("json");
    let names: Vec<&str> =
        v["report"]["processes"].as_array().unwrap().iter().filter_map(|p| p["name"].as_str()).collect();
    assert!(names.contains(&"a\u{202e}txt.exe\u{200b}"), "{names:?}");
}

/// An rt-app file names its tasks too: its scenario is refused with the character's code point, and the CLI's
/// messages escape what they echo of it.
#[test]
fn an_rt_app_task_name_with_a_bidirectional_control_is_refused() {
    let path = common::temp_path("bidi-rt.json");
    std::fs::write(&path, r#"{"tasks":{"hog\u202e1":{"run":1000,"sleep":1000}}}"#).unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_schedsim")).arg("rtapp-import").arg(&path).output().unwrap();
    let _ = std::fs::remove_file(&path);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("processes[0].name: must not contain invisible or bidirectional formatting characters (U+202E)"),
        "{err}"
    );
    assert!(!err.chars().any(|c| schedlab_core::api::text::is_hidden(c) && c != '\n'), "{err:?}");
}

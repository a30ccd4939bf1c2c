//! json-c's grammar, case by case: what rt-app accepts beyond RFC 8259, and
//! where a broken file is refused.

use super::{read, Read};
use crate::api::rtapp::ordered_json::Json;

fn value(text: &str) -> Json {
    read(text).unwrap_or_else(|e| panic!("{text}: {e}")).value
}

fn compact(text: &str) -> String {
    serde_json::to_string(&value(text)).unwrap()
}

#[test]
fn comments_go_wherever_white_space_does() {
    let text = "/* head */ {\n // a line\n \"a\" /* before : */ : /**/ 1 /* after */, // tail\n \"b\": [2 /* in */]}";
    assert_eq!(compact(text), r#"{"a":1,"b":[2]}"#);
    assert_eq!(compact("{\"a\": 1} // the end, no newline"), r#"{"a":1}"#);
    assert_eq!(compact("{\"a\": \"/* not a comment */\"}"), r#"{"a":"/* not a comment */"}"#);
    assert_eq!(compact("{\"a\": 1 /** stars **/}"), r#"{"a":1}"#);
}

#[test]
fn trailing_commas_single_quotes_and_literals_in_any_case() {
    assert_eq!(compact("{'a': 'x\"y', \"b\": [1, 2,], }"), r#"{"a":"x\"y","b":[1,2]}"#);
    assert_eq!(compact("[True, FALSE, Null, nan, -Infinity, infinity]"), "[true,false,null,null,null,null]");
}

#[test]
fn numbers_as_strtod_and_strtoll_read_them() {
    assert_eq!(
        compact("[01, -0, 1., 2.e3, 123e+, 1e-2, 18446744073709551616, -9223372036854775809]"),
        "[1,0,1.0,2000.0,123.0,0.01,18446744073709551615,-9223372036854775808]"
    );
    // A double is not an integer: rt-app refuses it where it wants one.
    assert_eq!(value("1000.0").as_i64(), None);
}

#[test]
fn strings_take_json_c_s_escapes_and_raw_control_characters() {
    assert_eq!(value(r#""\u00e9\ud83d\ude00\/\t""#), Json::String("é😀/\t".into()));
    assert_eq!(value("\"a\tb\nc\""), Json::String("a\tb\nc".into()));
    // A lone surrogate becomes U+FFFD, as json-c writes it.
    assert_eq!(value(r#""\ud800x""#), Json::String("\u{fffd}x".into()));
}

#[test]
fn repeated_keys_stay_in_file_order_and_are_listed() {
    let r = read(r#"{"tasks": {"t": {"run": 1, "sleep": 2, "run": 3, "sleep": 4, "run": 5}}}"#).unwrap();
    let t = r.value.get("tasks").and_then(|t| t.get("t")).unwrap();
    let Json::Object(kv) = t else { panic!() };
    let keys: Vec<&str> = kv.iter().map(|(k, _)| k.as_str()).collect();
    assert_eq!(keys, ["run", "sleep", "run", "sleep", "run"]);
    assert_eq!(r.repeated_keys, ["tasks.t: run, sleep"]);
    assert!(!r.trailing_text);
}

#[test]
fn text_after_the_value_is_left_as_json_c_leaves_it() {
    let r = read("{\"a\": 1}\n}} trailing").unwrap();
    assert_eq!(
        r,
        Read {
            value: Json::Object(vec![("a".into(), Json::Number(1.into()))]),
            repeated_keys: vec![],
            trailing_text: true
        }
    );
}

#[test]
fn a_broken_file_is_refused_at_its_place() {
    for (text, want) in [
        ("", "line 1, column 1: the text ends before its JSON value does"),
        ("{\n  \"suspend\",\n}", "line 2, column 12: ':' after the key was expected, not ','"),
        ("{\"a\": 1 \"b\": 2}", "line 1, column 9: ',' or '}' after a value was expected, not '\"'"),
        ("{\"a\": 1", "line 1, column 8: the text ends where ',' or '}' after a value was expected"),
        ("{a: 1}", "line 1, column 2: a key in quotes or '}' was expected, not 'a'"),
        ("[1, , 2]", "line 1, column 5: a value was expected, not ','"),
        ("{\"a\": /* open", "line 1, column 7: a /* comment is not closed"),
        ("{\"a\": / 1}", "line 1, column 7: a comment starts with /* or //"),
        ("{\"a\": 1.2.3}", "line 1, column 7: a malformed number"),
        ("{\"a\": 'x\\'y'}", "line 1, column 9: a string escape is one of"),
        ("{\"a\": \"open", "line 1, column 7: a string is not closed"),
        ("{\"a\": yes}", "line 1, column 7: a value was expected"),
        ("{\"é\": -}", "line 1, column 7: a malformed number"),
    ] {
        let e = read(text).unwrap_err();
        assert!(e.starts_with(want), "{text:?}: {e}");
    }
    let deep = "[".repeat(40);
    assert!(read(&deep).unwrap_err().contains("nest deeper than json-c's 32 levels"));
}

//! Every problem the parser can find in a scenario, not only the first.
//! serde stops at the first error; when there is one, the text is read again
//! as plain JSON and its parts deserialized one by one: each program step,
//! process, cgroup and event, then the rest of the file. Within a part, a
//! field found wrong is taken out and the part read again, so one wrong
//! field does not hide the next (a required field taken out this way is not
//! reported missing). A syntax error leaves no JSON to go on with and is
//! reported alone; so is a top level that is not an object.

use super::diagnostic::{Diagnostic, MAX_DIAGNOSTICS};
use super::file::{CgroupFile, EventFile, ProcessFile, ScenarioFile};
use super::json_path::{error_path, path_text, Segment};
use super::steps::OpFile;
use crate::api::text::escape_controls;
use serde::de::DeserializeOwned;
use serde_json::Value;

/// The refusal of a text whose top level is not a JSON object (serde's
/// derived structs would also read an array, field by position).
pub(super) fn top_level_problem(text: &str) -> Option<Diagnostic> {
    let got = match text.trim_start_matches([' ', '\t', '\n', '\r']).chars().next()? {
        '{' => return None,
        '[' => "an array",
        '"' => "a string",
        't' | 'f' => "a boolean",
        'n' => "null",
        '-' | '0'..='9' => "a number",
        // Not JSON: the parser says where.
        _ => return None,
    };
    Some(Diagnostic { field: "scenario".into(), reason: format!("must be a JSON object {{…}}, not {got}") })
}

/// The field path at which reading `text` failed with `err`; none for a
/// syntax error, which is the whole text's (its message says where).
pub(super) fn path_of(text: &str, err: &serde_json::Error) -> Vec<Segment> {
    if err.is_syntax() || err.is_eof() {
        Vec::new()
    } else {
        error_path(text, err)
    }
}

/// A parser error as a diagnostic: the field is `prefix` joined with the
/// error's path in `text` (the prefix alone, or "scenario", at the root).
pub(super) fn diagnostic_of(err: &serde_json::Error, text: &str, prefix: &str) -> Diagnostic {
    let path = path_text(&path_of(text, err));
    let field = match (path.as_str(), prefix) {
        (".", "") => "scenario".to_string(),
        (".", _) => prefix.to_string(),
        (_, "") => path,
        (p, _) if p.starts_with('[') => format!("{prefix}{p}"),
        (p, _) => format!("{prefix}.{p}"),
    };
    // serde quotes keys and strings as written: they may hold control characters.
    Diagnostic { field: escape_controls(&field).into(), reason: escape_controls(&err.to_string()).into() }
}

/// Every problem the parser finds in `text`, whose first problem is `first`.
pub(super) fn every_parse_problem(text: &str, first: Diagnostic) -> Vec<Diagnostic> {
    let Ok(Value::Object(mut top)) = serde_json::from_str::<Value>(text) else {
        return vec![first];
    };
    let mut parts = Vec::new();
    if let Some(Value::Array(list)) = top.get_mut("processes") {
        for (i, mut process) in std::mem::take(list).into_iter().enumerate() {
            let at = format!("processes[{i}]");
            if let Some(Value::Array(steps)) = process.get_mut("program") {
                for (j, step) in std::mem::take(steps).into_iter().enumerate() {
                    problems_of::<OpFile>(&step, &format!("{at}.program[{j}]"), &mut parts);
                }
            }
            problems_of::<ProcessFile>(&process, &at, &mut parts);
        }
    }
    if let Some(Value::Array(list)) = top.get_mut("cgroups") {
        for (i, cgroup) in std::mem::take(list).into_iter().enumerate() {
            problems_of::<CgroupFile>(&cgroup, &format!("cgroups[{i}]"), &mut parts);
        }
    }
    if let Some(Value::Array(list)) = top.get_mut("events") {
        for (i, event) in std::mem::take(list).into_iter().enumerate() {
            problems_of::<EventFile>(&event, &format!("events[{i}]"), &mut parts);
        }
    }
    // The rest, with the lists emptied (already read).
    let mut found = Vec::new();
    problems_of::<ScenarioFile>(&Value::Object(top), "", &mut found);
    found.extend(parts);
    // In the order of the file's top-level keys (a JSON object read as a
    // Value is sorted by key); problems of the whole file first.
    let order = serde_json::from_str::<KeyOrder>(text).map(|k| k.0).unwrap_or_default();
    found.sort_by_key(|d| {
        let key = d.field.split(['.', '[']).next().unwrap_or_default();
        if d.field == "scenario" {
            0
        } else {
            order.iter().position(|k| k == key).map_or(usize::MAX, |i| i + 1)
        }
    });
    // The first problem as the parser of the text saw it (with its line and
    // column) replaces the same problem found in the parts.
    match found.iter().position(|d| d.field == first.field) {
        Some(i) => found[i] = first,
        None => found.insert(0, first),
    }
    if found.len() > MAX_DIAGNOSTICS {
        let more = found.len() - MAX_DIAGNOSTICS;
        found.truncate(MAX_DIAGNOSTICS);
        found.push(Diagnostic {
            field: "scenario".into(),
            reason: format!("{more} more problems not listed (only the first {MAX_DIAGNOSTICS} are)"),
        });
    }
    found
}

/// The problems of one part read as `T`, each wrong field taken out in turn.
///
/// The part is read back from its JSON text, through the very parser that
/// reads a whole file: reading it from the `Value` instead would compile every
/// format type's deserializer a second time (for `&Value`), a large share of
/// the wasm bundle, for no other gain.
fn problems_of<T: DeserializeOwned>(part: &Value, prefix: &str, out: &mut Vec<Diagnostic>) {
    let mut part = part.clone();
    let mut taken: Vec<String> = Vec::new();
    // Each round takes one key out of the part or stops, so this ends.
    loop {
        let text = part.to_string();
        let Err(err) = serde_json::from_str::<T>(&text) else { return };
        // A position in this text would point nowhere in the user's file.
        let reason = without_position(&err);
        let path = path_of(&text, &err);
        if !(path.is_empty() && taken.iter().any(|k| reason == format!("missing field `{k}`"))) {
            let mut d = diagnostic_of(&err, &text, prefix);
            d.reason = escape_controls(&reason).into();
            out.push(d);
        }
        let key = match path.first() {
            Some(Segment::Key(key)) => Some(key.clone()),
            _ => unknown_key(&reason),
        };
        match key.filter(|k| part.as_object_mut().is_some_and(|m| m.remove(k).is_some())) {
            Some(k) => taken.push(k),
            None => return,
        }
    }
}

/// A parser error's message without the " at line L column C" it ends with.
fn without_position(e: &serde_json::Error) -> String {
    let text = e.to_string();
    let at = format!(" at line {} column {}", e.line(), e.column());
    match text.strip_suffix(&at) {
        Some(message) => message.to_string(),
        None => text,
    }
}

/// The key serde names in "unknown field `k`, expected …".
fn unknown_key(reason: &str) -> Option<String> {
    let rest = reason.strip_prefix("unknown field `")?;
    rest.split_once('`').map(|(k, _)| k.to_string())
}

/// The top-level keys of a JSON object in the order written.
struct KeyOrder(Vec<String>);

impl<'de> serde::Deserialize<'de> for KeyOrder {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<KeyOrder, D::Error> {
        struct Keys;
        impl<'de> serde::de::Visitor<'de> for Keys {
            type Value = KeyOrder;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("an object")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<KeyOrder, A::Error> {
                let mut keys = Vec::new();
                while let Some(k) = map.next_key::<String>()? {
                    map.next_value::<serde::de::IgnoredAny>()?;
                    keys.push(k);
                }
                Ok(KeyOrder(keys))
            }
        }
        d.deserialize_map(Keys)
    }
}

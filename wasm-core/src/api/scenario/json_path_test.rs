//! The paths read back from the text against serde_path_to_error's, which
//! tracks them while deserializing: every preset, mutated every way a hand
//! might get it wrong, pretty and compact.

use super::{error_path, path_text};
use crate::api::presets;
use crate::api::scenario::file::ScenarioFile;
use serde_json::Value;

/// Every way to get one place of `v` wrong, as whole documents.
fn mutations(root: &Value) -> Vec<Value> {
    let mut out = Vec::new();
    let mut paths = Vec::new();
    collect(root, &mut Vec::new(), &mut paths);
    let wrong = [
        Value::from("x"),
        Value::from(-1),
        Value::from(1.5),
        Value::from(true),
        Value::Null,
        serde_json::json!({}),
        serde_json::json!([]),
        serde_json::json!({"zz": 1}),
        serde_json::json!([1, "a"]),
    ];
    for p in &paths {
        for w in &wrong {
            let mut v = root.clone();
            *at(&mut v, p) = w.clone();
            out.push(v);
        }
        let mut v = root.clone();
        let keys: Vec<String> = match at(&mut v, p) {
            Value::Object(m) => m.keys().cloned().collect(),
            _ => Vec::new(),
        };
        match at(&mut v, p) {
            Value::Object(m) => {
                m.insert("zz_unknown".into(), Value::from(1));
                out.push(v);
                for k in keys {
                    let mut w = root.clone();
                    if let Value::Object(m) = at(&mut w, p) {
                        m.remove(&k);
                    }
                    out.push(w);
                }
            }
            Value::Array(a) if !a.is_empty() => {
                a.clear();
                out.push(v);
            }
            _ => {}
        }
    }
    out
}

#[derive(Clone, Debug)]
enum Step {
    K(String),
    I(usize),
}

fn collect(v: &Value, here: &mut Vec<Step>, out: &mut Vec<Vec<Step>>) {
    out.push(here.clone());
    match v {
        Value::Object(m) => {
            for (k, c) in m {
                here.push(Step::K(k.clone()));
                collect(c, here, out);
                here.pop();
            }
        }
        Value::Array(a) => {
            for (i, c) in a.iter().enumerate() {
                here.push(Step::I(i));
                collect(c, here, out);
                here.pop();
            }
        }
        _ => {}
    }
}

fn at<'a>(v: &'a mut Value, p: &[Step]) -> &'a mut Value {
    p.iter().fold(v, |v, s| match s {
        Step::K(k) => &mut v[k.as_str()],
        Step::I(i) => &mut v[*i],
    })
}

#[test]
fn paths_read_from_the_text_are_the_deserializers_own() {
    let (mut checked, mut wrong) = (0, Vec::new());
    for p in presets::PRESETS.iter() {
        let root: Value = serde_json::from_str(p.json).unwrap();
        for v in mutations(&root) {
            for text in [v.to_string(), serde_json::to_string_pretty(&v).unwrap()] {
                let de = &mut serde_json::Deserializer::from_str(&text);
                let Err(e) = serde_path_to_error::deserialize::<_, ScenarioFile>(de) else { continue };
                checked += 1;
                let want = e.path().to_string();
                let got = path_text(&error_path(&text, e.inner()));
                if got != want && wrong.len() < 20 {
                    wrong.push(format!("{want} read as {got}: {} in {}", e.inner(), &text[..text.len().min(300)]));
                }
            }
        }
    }
    // Syntax errors: every preset cut short and broken at many places.
    for p in presets::PRESETS.iter() {
        let text = serde_json::to_string_pretty(&serde_json::from_str::<Value>(p.json).unwrap()).unwrap();
        for cut in (1..text.len()).step_by(23).filter(|&c| text.is_char_boundary(c)) {
            for broken in [text[..cut].to_string(), format!("{}@{}", &text[..cut], &text[cut..])] {
                let de = &mut serde_json::Deserializer::from_str(&broken);
                let Err(e) = serde_path_to_error::deserialize::<_, ScenarioFile>(de) else { continue };
                // A syntax error is the whole text's (its message says where); serde_path_to_error writes "?"
                // for the key it could not read, which no reader would call a field.
                if e.inner().is_syntax() || e.inner().is_eof() {
                    continue;
                }
                checked += 1;
                let want = e.path().to_string();
                let got = path_text(&error_path(&broken, e.inner()));
                if got != want && wrong.len() < 20 {
                    wrong.push(format!("{want} read as {got}: {} at {cut}", e.inner()));
                }
            }
        }
    }
    assert!(checked > 1000, "only {checked} errors checked");
    assert!(wrong.is_empty(), "{} of {checked}:\n{}", wrong.len(), wrong.join("\n"));
}

//! The scenario format's JSON Schema (`wasm-core/schema/scenario.v1.schema.json`), generated from the serde
//! structs of `file.rs` and `steps.rs` (schemars, a dev-dependency: the derives are under `test` or the `gen` feature). Doc comments become
//! descriptions, attributes beside the fields carry bounds, patterns and the lists a value comes from; the
//! either-or values that `de.rs` reads by hand have their forms written here, and the rules serde cannot
//! say (one kind per step, one change per event, template or program, a process for a per-process goal) are
//! added by the rules below, to the definitions they are about. The test fails when the checked-in schema differs; `npm run gen:types`
//! rewrites it.

// Compiled whenever `gen` is on, for the hand-written `JsonSchema` impls the derives use; the schema is written
// only by its test.
#![cfg_attr(not(test), allow(dead_code))]

use super::exercise::GOALS;
use super::file::{BugSwitchesFile, BugsSpec, SanityFile, ScenarioFile, BUG_PROFILES};
use super::file::{MAX_DURATION_MS, SCENARIO_VERSION};
use super::steps::DistFile;
use schemars::{json_schema, JsonSchema, Schema, SchemaGenerator};
use serde_json::{json, Map, Value};
use std::borrow::Cow;

/// Where the schema lives, from the crate's directory.
// `api` is compiled in the schedlab-edges crate, whose manifest is in wasm-core/edges.
const OUT: &str = "../schema/scenario.v1.schema.json";
const ID: &str = "https://schedlab.example/scenario.v1.schema.json";

/// A step's kinds: the key that names it, the keys allowed beside it, and those of them it needs
/// (`validate::program` checks the same).
type StepForm = (&'static str, &'static [&'static str], &'static [&'static str]);
const STEP_FORMS: &[StepForm] = &[
    ("run_us", &[], &[]),
    ("sleep_us", &[], &[]),
    ("busy_us", &[], &[]),
    ("body", &["repeat"], &[]),
    ("exit", &[], &[]),
    ("wait", &[], &[]),
    ("wake", &[], &[]),
    ("barrier", &["spin_us"], &[]),
    ("lock", &[], &[]),
    ("unlock", &[], &[]),
    ("cond_wait", &["mutex"], &["mutex"]),
    ("cond_signal", &[], &[]),
    ("cond_broadcast", &[], &[]),
    ("timer", &["period_us", "shared", "timer_mode"], &["period_us"]),
    ("sched_setattr", &["rt_priority", "dl_runtime_us", "dl_deadline_us", "dl_period_us", "nice"], &[]),
    ("set_cpus", &[], &[]),
    ("set_cgroup", &[], &[]),
    ("yield", &[], &[]),
    ("take_job", &[], &[]),
    ("fork", &[], &[]),
    ("wait_child", &[], &[]),
    ("exec", &[], &[]),
    ("post", &["to", "wait_policy", "spin_us"], &[]),
    ("await", &["from", "wait_policy", "spin_us"], &[]),
];

/// A rule: what one definition says beyond its struct's derive, added to it.
type Rule = fn(&mut Map<String, Value>);

/// The rules serde cannot say, each applied to the definition (`$defs`) it is about: the structs' derives know
/// nothing of them, so the format's files import nothing of this generator.
const RULES: [(&str, Rule); 4] =
    [("op", one_step), ("event", one_event), ("process", template_or_program), ("exercise", process_when_per_process)];

/// A step: the struct's keys, regrouped as one object per kind (exactly one kind per step).
fn one_step(o: &mut Map<String, Value>) {
    let Some(Value::Object(props)) = o.remove("properties") else { panic!("a step has properties") };
    for key in props.keys() {
        // A new key of `OpFile` stops the generation until `STEP_FORMS` places it.
        assert!(STEP_FORMS.iter().any(|(h, w, _)| h == key || w.contains(&key.as_str())), "step key {key} has no kind");
    }
    let forms = STEP_FORMS.iter().map(|(head, with, needs)| {
        let keys = std::iter::once(head).chain(with.iter());
        let properties: Map<String, Value> = keys.map(|k| (k.to_string(), props[*k].clone())).collect();
        let required: Vec<&str> = std::iter::once(*head).chain(needs.iter().copied()).collect();
        json!({ "type": "object", "additionalProperties": false, "required": required, "properties": properties })
    });
    o.remove("type");
    o.remove("additionalProperties");
    o.insert("oneOf".into(), Value::Array(forms.collect()));
}

/// A hotplug event changes one CPU: offline or online.
fn one_event(o: &mut Map<String, Value>) {
    let forms = json!([{ "required": ["cpu_offline"] }, { "required": ["cpu_online"] }]);
    o.insert("oneOf".into(), forms);
}

/// A process runs a template or its own program, not both.
fn template_or_program(o: &mut Map<String, Value>) {
    o.insert("not".into(), json!({ "required": ["template", "program"] }));
}

/// A per-process goal names its process; a machine-wide one names none.
fn process_when_per_process(o: &mut Map<String, Value>) {
    let per_process: Vec<&str> = GOALS.iter().filter(|g| g.per_process).map(|g| g.name).collect();
    o.insert("if".into(), json!({ "properties": { "goal": { "enum": per_process } } }));
    o.insert("then".into(), json!({ "required": ["process"] }));
    o.insert("else".into(), json!({ "not": { "required": ["process"] } }));
}

/// `de::DIST_FORMS`.
impl JsonSchema for DistFile {
    fn schema_name() -> Cow<'static, str> {
        "duration_us".into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        let uniform =
            json!({ "type": "array", "items": { "type": "integer", "minimum": 0 }, "minItems": 2, "maxItems": 2 });
        json_schema!({
            "description": "Microseconds: fixed, uniform in [lo, hi], or exponential with a mean; drawn from the run's PRNG.",
            "oneOf": [
                { "type": "integer", "minimum": 0, "maximum": MAX_DURATION_MS * 1_000 },
                { "type": "object", "additionalProperties": false, "required": ["uniform"], "properties": { "uniform": uniform } },
                { "type": "object", "additionalProperties": false, "required": ["exp"], "properties": { "exp": { "type": "integer", "minimum": 1 } } },
            ]
        })
    }
}

/// `de::SANITY_FORMS`.
impl JsonSchema for SanityFile {
    fn schema_name() -> Cow<'static, str> {
        "sanity_checker".into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        let ms = json!({ "type": "integer", "minimum": 1 });
        json_schema!({
            "oneOf": [
                { "type": "boolean" },
                {
                    "type": "object",
                    "additionalProperties": false,
                    "required": ["period_ms", "window_ms"],
                    "properties": { "period_ms": ms, "window_ms": ms },
                },
            ]
        })
    }
}

/// `de::BUGS_FORMS`.
impl JsonSchema for BugsSpec {
    fn schema_name() -> Cow<'static, str> {
        "bugs".into()
    }

    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        json_schema!({ "oneOf": [{ "enum": BUG_PROFILES }, generator.subschema_for::<BugSwitchesFile>()] })
    }
}

/// What schemars writes and the format does not say, taken out everywhere:
/// - `null` beside an optional field's type: serde would read a null as absent, but the format has no null
///   (an absent field is written absent), so the schema keeps refusing it;
/// - schemars' number formats (`uint32`, `int64`, `double`, …), which validators do not know: the bounds they
///   imply are written as `minimum`;
/// - the line breaks of a doc comment inside a paragraph.
fn tidy(v: &mut Value) {
    match v {
        Value::Object(o) => {
            if let Some(Value::Array(any)) = o.get("anyOf") {
                if let [one, null] = &any[..] {
                    if *null == json!({ "type": "null" }) {
                        let one = one.as_object().cloned().unwrap_or_default();
                        o.remove("anyOf");
                        o.extend(one);
                    }
                }
            }
            if let Some(Value::Array(types)) = o.get_mut("type") {
                types.retain(|t| t != "null");
                if let [one] = &types[..] {
                    let one = one.clone();
                    o.insert("type".into(), one);
                }
            }
            let numeric = |f: &str| f.starts_with("int") || f.starts_with("uint") || f == "double" || f == "float";
            if o.get("format").and_then(Value::as_str).is_some_and(numeric) {
                o.remove("format");
            }
            if let Some(Value::String(d)) = o.get_mut("description") {
                *d = d
                    .split("\n\n")
                    .map(|p| p.split('\n').collect::<Vec<_>>().join(" "))
                    .collect::<Vec<_>>()
                    .join("\n\n");
            }
            o.values_mut().for_each(tidy);
        }
        Value::Array(a) => a.iter_mut().for_each(tidy),
        _ => {}
    }
}

/// The whole schema, as the checked-in file holds it.
pub fn generate() -> String {
    serde_json::to_string_pretty(&schema()).unwrap() + "\n"
}

/// The schema as a JSON value (`schema_keys` reads its objects' keys).
pub fn schema() -> Value {
    let schema = SchemaGenerator::default().into_root_schema_for::<ScenarioFile>();
    let mut v = schema.to_value();
    for (name, rule) in RULES {
        rule(v["$defs"][name].as_object_mut().unwrap_or_else(|| panic!("no definition {name}")));
    }
    tidy(&mut v);
    v.as_object_mut().unwrap().insert("$id".into(), ID.into());
    assert_eq!(v["properties"]["version"]["const"], json!(SCENARIO_VERSION));
    v
}

#[test]
fn generated_schema_matches_the_structs() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(OUT);
    let want = generate();
    if std::env::var_os("SCHEDLAB_WRITE_GENERATED").is_some() {
        std::fs::write(&path, &want).unwrap();
        return;
    }
    let have = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(have == want, "{} differs from what the scenario structs generate: run `npm run gen:types`", OUT);
}

//! `schedsim sweep`'s plan: one scenario file run over a range of seeds and
//! over the values of fields it varies (`--set path=v1,v2`), the cross
//! product in a fixed order. Each run is the file's JSON with its seed and
//! values written in, loaded exactly as `schedsim run` loads a file, so a
//! sweep's run is the same run as `schedsim run` of that scenario.
//!
//! Nothing here runs a simulation or knows about threads: the binary runs
//! the plan's runs (in parallel, natively) and this module only says what
//! run `i` is. It compiles to wasm like the rest of `api`.

use crate::api::scenario::{load_scenario, Diagnostic};
use serde_json::Value;

/// The most runs one sweep may ask for: a sweep is a research table, and a
/// typo in a range (`--seeds 1..1000000`) should be a message, not hours.
pub const MAX_SWEEP_RUNS: u64 = 10_000;

/// One `--set path=v1,v2,...`: a dotted JSON path and the values it takes.
#[derive(Clone, Debug, PartialEq)]
pub struct SetAxis {
    pub path: String,
    pub values: Vec<SetValue>,
}

/// One value of an axis: as written on the command line, and as JSON.
#[derive(Clone, Debug, PartialEq)]
pub struct SetValue {
    pub given: String,
    pub json: Value,
}

impl SetValue {
    /// The value as tables show it: a string without its quotes, anything
    /// else as compact JSON.
    pub fn shown(&self) -> String {
        match &self.json {
            Value::String(s) => s.clone(),
            v => v.to_string(),
        }
    }
}

/// Reads `--set`'s argument. Values are split at commas outside brackets,
/// braces and quoted strings (so `[0,1]` and `"0-3,8"` are one value each);
/// each is JSON if it parses as JSON, else the text as a string.
pub fn parse_set(spec: &str) -> Result<SetAxis, String> {
    let Some((path, list)) = spec.split_once('=') else {
        return Err(format!("--set {spec}: expected path=value[,value...]"));
    };
    if path.is_empty() || path.split('.').any(str::is_empty) {
        return Err(format!("--set {spec}: '{path}' is not a dotted path such as processes.0.nice"));
    }
    if path == "seed" {
        return Err(format!("--set {spec}: the seed is varied with --seeds A..B"));
    }
    let mut values = Vec::new();
    for given in split_top_level(list) {
        if given.trim().is_empty() {
            return Err(format!("--set {spec}: an empty value (values are separated by commas)"));
        }
        let json = serde_json::from_str(&given).unwrap_or_else(|_| Value::String(given.clone()));
        values.push(SetValue { given, json });
    }
    Ok(SetAxis { path: path.to_string(), values })
}

/// `list` split at the commas that separate values, not those inside JSON
/// arrays, objects or strings.
fn split_top_level(list: &str) -> Vec<String> {
    let (mut parts, mut cur) = (Vec::new(), String::new());
    let (mut depth, mut in_string, mut escaped) = (0i32, false, false);
    for ch in list.chars() {
        if in_string {
            match ch {
                _ if escaped => escaped = false,
                '\\' => escaped = true,
                '"' => in_string = false,
                _ => {}
            }
        } else {
            match ch {
                '"' => in_string = true,
                '[' | '{' => depth += 1,
                ']' | '}' => depth -= 1,
                ',' if depth <= 0 => {
                    parts.push(std::mem::take(&mut cur));
                    continue;
                }
                _ => {}
            }
        }
        cur.push(ch);
    }
    parts.push(cur);
    parts
}

/// Reads `--seeds`: `A..B` (both included) or a single seed.
pub fn parse_seeds(s: &str) -> Result<(u64, u64), String> {
    let bad = || format!("--seeds {s}: expected A..B (both included) or one seed, as unsigned integers");
    let (a, b) = match s.split_once("..") {
        Some((a, b)) => (a.parse().map_err(|_| bad())?, b.parse().map_err(|_| bad())?),
        None => {
            let n = s.parse().map_err(|_| bad())?;
            (n, n)
        }
    };
    if a > b {
        return Err(format!("--seeds {s}: the range is empty ({a} > {b})"));
    }
    Ok((a, b))
}

/// Writes `value` at the dotted `path` of `doc`. An object key that is
/// missing is added (an object on the way, the value at the end: validation
/// then says whether the scenario has such a field); an array is indexed by
/// number and only within its length. Returns the path as diagnostics
/// write it (`processes[0].nice`).
pub fn write_at(doc: &mut Value, path: &str, value: Value) -> Result<String, String> {
    let segments: Vec<&str> = path.split('.').collect();
    let mut at = doc;
    let mut field = String::new();
    for (i, seg) in segments.iter().enumerate() {
        let last = i + 1 == segments.len();
        let here = if field.is_empty() { "the scenario".to_string() } else { field.clone() };
        at = match at {
            Value::Object(map) => {
                field += &if field.is_empty() { seg.to_string() } else { format!(".{seg}") };
                if last {
                    map.insert(seg.to_string(), value);
                    return Ok(field);
                }
                map.entry(seg.to_string()).or_insert_with(|| Value::Object(Default::default()))
            }
            Value::Array(items) => {
                let len = items.len();
                let k: usize = seg.parse().map_err(|_| format!("{here} is a list: '{seg}' is not an index"))?;
                let item = items.get_mut(k).ok_or_else(|| {
                    format!("{here} has {len} {}: no index {k}", if len == 1 { "entry" } else { "entries" })
                })?;
                field += &format!("[{k}]");
                if last {
                    *item = value;
                    return Ok(field);
                }
                item
            }
            other => return Err(format!("{here} is {}, it has no field '{seg}'", kind(other))),
        };
    }
    unreachable!("a path has at least one segment")
}

fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    }
}

/// Which run: its seed and, per axis, the index of its value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SweepRun {
    pub seed: u64,
    pub choice: Vec<usize>,
}

/// The runs of a sweep: seeds outermost, then each axis in the order given,
/// the last one varying fastest.
#[derive(Clone, Debug)]
pub struct SweepPlan {
    base: Value,
    seeds: (u64, u64),
    pub axes: Vec<SetAxis>,
}

impl SweepPlan {
    /// `text` is the scenario file (already loaded once as `schedsim run`
    /// loads it); refuses an axis given twice and more than
    /// `MAX_SWEEP_RUNS` runs.
    pub fn new(text: &str, seeds: (u64, u64), axes: Vec<SetAxis>) -> Result<SweepPlan, String> {
        let base: Value = serde_json::from_str(text).map_err(|e| format!("the scenario is not JSON: {e}"))?;
        for (i, a) in axes.iter().enumerate() {
            if axes[..i].iter().any(|b| b.path == a.path) {
                return Err(format!("--set {} is given twice", a.path));
            }
        }
        let plan = SweepPlan { base, seeds, axes };
        // Counted without overflow: many long --set lists can multiply past any integer.
        let asked = plan.axes.iter().fold(plan.seed_count(), |n, a| n.saturating_mul(a.values.len() as u128));
        if asked > MAX_SWEEP_RUNS as u128 {
            let asked = if asked == u128::MAX { "more than 2^128".to_string() } else { asked.to_string() };
            let mut sizes = vec![format!("{} seed(s)", plan.seed_count())];
            sizes.extend(plan.axes.iter().map(|a| format!("{} value(s) of {}", a.values.len(), a.path)));
            return Err(format!(
                "the sweep asks for {asked} runs ({}); a sweep runs at most {MAX_SWEEP_RUNS}: narrow --seeds or --set",
                sizes.join(" × ")
            ));
        }
        Ok(plan)
    }

    fn seed_count(&self) -> u128 {
        (self.seeds.1 - self.seeds.0) as u128 + 1
    }

    /// How many combinations of the axes' values there are (seeds aside;
    /// `new` has refused a plan where this could overflow).
    pub fn set_combinations(&self) -> usize {
        self.axes.iter().map(|a| a.values.len()).product()
    }

    /// How many runs (seeds × combinations; at most `MAX_SWEEP_RUNS`).
    pub fn runs(&self) -> usize {
        self.seed_count() as usize * self.set_combinations()
    }

    /// The value indices of combination `k` (the last axis varies fastest).
    fn choice(&self, mut k: usize) -> Vec<usize> {
        let mut choice = vec![0; self.axes.len()];
        for (slot, axis) in choice.iter_mut().zip(&self.axes).rev() {
            *slot = k % axis.values.len();
            k /= axis.values.len();
        }
        choice
    }

    /// Run `i`, `0 <= i < runs()`.
    pub fn run(&self, i: usize) -> SweepRun {
        let per_seed = self.set_combinations();
        SweepRun { seed: self.seeds.0 + (i / per_seed) as u64, choice: self.choice(i % per_seed) }
    }

    /// The values of `run`, axis by axis.
    pub fn values<'a>(&'a self, run: &'a SweepRun) -> impl Iterator<Item = (&'a SetAxis, &'a SetValue)> + 'a {
        self.axes.iter().zip(&run.choice).map(|(a, &k)| (a, &a.values[k]))
    }

    /// `--set a=1, --set b=x`: how messages name a run's values.
    fn named(&self, run: &SweepRun, only: &[usize]) -> String {
        let picked = self.values(run).enumerate().filter(|(i, _)| only.is_empty() || only.contains(i));
        picked.map(|(_, (a, v))| format!("--set {}={}", a.path, v.given)).collect::<Vec<_>>().join(", ")
    }

    /// The scenario text of `run`, and the diagnostic paths its values were
    /// written at; a path that does not fit the scenario is a message naming
    /// its --set.
    pub fn scenario_text(&self, run: &SweepRun) -> Result<(String, Vec<String>), String> {
        let mut doc = self.base.clone();
        let mut fields = Vec::with_capacity(self.axes.len());
        for (a, v) in self.values(run) {
            let field =
                write_at(&mut doc, &a.path, v.json.clone()).map_err(|why| format!("--set {}: {why}", a.path))?;
            fields.push(field);
        }
        if let Value::Object(map) = &mut doc {
            map.insert("seed".into(), Value::from(run.seed));
        }
        Ok((doc.to_string(), fields))
    }

    /// Loads `run`'s scenario as a file would be; a refusal names the --set
    /// values it concerns and every reason.
    pub fn load(&self, run: &SweepRun) -> Result<crate::config::SimConfig, String> {
        let (text, fields) = self.scenario_text(run)?;
        load_scenario(&text).map_err(|diags| self.refusal(run, &fields, &diags))
    }

    /// Checks combination `k` of the axes' values (with the first seed:
    /// validation does not read the seed) before anything runs.
    pub fn check_combination(&self, k: usize) -> Result<(), String> {
        self.load_combination(k).map(drop)
    }

    /// Combination `k`'s configuration (with the first seed), as `check_combination` loads it: what the
    /// output's layout needs before any run (process names, durations, CPUs).
    pub fn load_combination(&self, k: usize) -> Result<crate::config::SimConfig, String> {
        self.load(&SweepRun { seed: self.seeds.0, choice: self.choice(k) })
    }

    /// The first and last seed.
    pub fn seeds(&self) -> (u64, u64) {
        self.seeds
    }

    fn refusal(&self, run: &SweepRun, fields: &[String], diags: &[Diagnostic]) -> String {
        // Name the --set values whose field the diagnostics are about (one
        // inside the other either way: `machine` refuses `machine.nodez`);
        // when none is, the combination as a whole is refused.
        let related = |a: &str, b: &str| a == b || [(a, b), (b, a)].iter().any(|(x, y)| is_within(x, y));
        let blamed: Vec<usize> =
            (0..fields.len()).filter(|&i| diags.iter().any(|d| related(&d.field, &fields[i]))).collect();
        let who = self.named(run, &blamed);
        // A parse error's position is in the text the values were written
        // into, which the user never sees: drop it.
        let said = |d: &Diagnostic| format!("{}: {}", d.field, without_position(&d.reason));
        match diags {
            [one] => format!("{who}: {}", said(one)),
            many => {
                let lines: Vec<String> = many.iter().map(|d| format!("  {}", said(d))).collect();
                format!("{who}:\n{}", lines.join("\n"))
            }
        }
    }
}

/// `reason` without serde_json's trailing ` at line L column C`.
fn without_position(reason: &str) -> &str {
    let Some(at) = reason.rfind(" at line ") else { return reason };
    let tail: Vec<&str> = reason[at + " at line ".len()..].split(' ').collect();
    let number = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    match tail.as_slice() {
        [line, "column", col] if number(line) && number(col) => &reason[..at],
        _ => reason,
    }
}

/// Whether diagnostic path `inner` lies under `outer` (`processes[0].nice`
/// under `processes[0]` and `processes`, not under `process`).
fn is_within(inner: &str, outer: &str) -> bool {
    inner.strip_prefix(outer).is_some_and(|rest| rest.starts_with(['.', '[']))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_split_outside_json() {
        let a = parse_set(r#"processes.0.cpus="0-3,8",1,[0,1],{"exp":5},cfs"#).unwrap();
        let given: Vec<&str> = a.values.iter().map(|v| v.given.as_str()).collect();
        assert_eq!(given, [r#""0-3,8""#, "1", "[0,1]", r#"{"exp":5}"#, "cfs"]);
        assert_eq!(a.values[0].json, Value::String("0-3,8".into()));
        assert_eq!(a.values[1].json, Value::from(1));
        assert_eq!(a.values[4].json, Value::String("cfs".into()));
        assert_eq!(a.values[4].shown(), "cfs");
        assert_eq!(a.values[2].shown(), "[0,1]");
    }

    #[test]
    fn bad_specs_are_messages() {
        for spec in ["nice", "=1", "a..b=1", "a=1,,2", "seed=3"] {
            assert!(parse_set(spec).is_err(), "{spec}");
        }
        assert_eq!(parse_seeds("3..5"), Ok((3, 5)));
        assert_eq!(parse_seeds("7"), Ok((7, 7)));
        assert!(parse_seeds("5..3").is_err() && parse_seeds("a..b").is_err() && parse_seeds("-1..2").is_err());
    }

    #[test]
    fn paths_write_into_objects_and_lists() {
        let mut doc: Value = serde_json::from_str(r#"{"machine":{"preset":"x"},"processes":[{"nice":0}]}"#).unwrap();
        assert_eq!(write_at(&mut doc, "processes.0.nice", Value::from(5)).unwrap(), "processes[0].nice");
        assert_eq!(
            write_at(&mut doc, "policy.tunables.sched_latency_us", Value::from(1)).unwrap(),
            "policy.tunables.sched_latency_us"
        );
        assert_eq!(doc["processes"][0]["nice"], 5);
        assert_eq!(doc["policy"]["tunables"]["sched_latency_us"], 1);
        assert_eq!(
            write_at(&mut doc, "processes.3.nice", Value::from(1)).unwrap_err(),
            "processes has 1 entry: no index 3"
        );
        assert!(write_at(&mut doc, "processes.x", Value::from(1)).unwrap_err().contains("not an index"));
        assert!(write_at(&mut doc, "machine.preset.kind", Value::from(1)).unwrap_err().contains("is a string"));
    }

    #[test]
    fn runs_are_the_cross_product_seeds_outermost() {
        let text = r#"{"version":1,"name":"t","duration_ms":5,"machine":{"preset":"uniprocessor"},"processes":[{"name":"a","program":[{"run_us":5}]}]}"#;
        let axes = vec![parse_set("duration_ms=5,6,7").unwrap(), parse_set("hz=100,250").unwrap()];
        let plan = SweepPlan::new(text, (10, 11), axes).unwrap();
        assert_eq!(plan.runs(), 12);
        assert_eq!(plan.run(0), SweepRun { seed: 10, choice: vec![0, 0] });
        assert_eq!(plan.run(1), SweepRun { seed: 10, choice: vec![0, 1] });
        assert_eq!(plan.run(5), SweepRun { seed: 10, choice: vec![2, 1] });
        assert_eq!(plan.run(6), SweepRun { seed: 11, choice: vec![0, 0] });
        assert_eq!(plan.load(&plan.run(7)).unwrap().seed, 11);
        let too_many = SweepPlan::new(text, (0, 10_000), vec![]).unwrap_err();
        assert!(too_many.contains("10001 runs"), "{too_many}");
        let wide = parse_set(&format!("hz={}", vec!["100"; 1000].join(","))).unwrap();
        let huge = SweepPlan::new(
            text,
            (0, u64::MAX),
            vec![wide; 20]
                .into_iter()
                .enumerate()
                .map(|(i, mut a)| {
                    a.path = format!("p{i}");
                    a
                })
                .collect(),
        );
        assert!(huge.unwrap_err().contains("more than 2^128 runs"));
    }

    #[test]
    fn a_refused_value_names_its_set() {
        let text = r#"{"version":1,"name":"t","duration_ms":5,"machine":{"preset":"uniprocessor"},"processes":[{"name":"a","program":[{"run_us":5}]}]}"#;
        let axes = vec![parse_set("hz=100").unwrap(), parse_set("processes.0.nice=0,99").unwrap()];
        let plan = SweepPlan::new(text, (1, 1), axes).unwrap();
        assert!(plan.check_combination(0).is_ok());
        let why = plan.check_combination(1).unwrap_err();
        assert!(why.starts_with("--set processes.0.nice=99: processes[0].nice: must be between -20 and 19"), "{why}");
        let typo = SweepPlan::new(text, (1, 1), vec![parse_set("machine.nodez=2").unwrap()]).unwrap();
        let why = typo.check_combination(0).unwrap_err();
        assert!(why.starts_with("--set machine.nodez=2: machine.nodez: unknown field `nodez`"), "{why}");
        assert!(!why.contains("at line"), "{why}");
        assert_eq!(without_position("bad at line 1 column 30"), "bad");
        assert_eq!(without_position("look at line 3"), "look at line 3");
    }
}

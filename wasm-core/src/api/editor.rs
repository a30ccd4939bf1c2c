//! What the scenario editor needs from the engine: every problem of a
//! scenario at once (the same checks `Simulator::new` runs, without building
//! a simulation, so the editor can re-check on each edit), and the choices
//! the file format offers (machine presets with their shape, program
//! templates with their steps, policy kinds, bug profiles); and the built-in
//! presets as the page's library lists them (`preset_infos`, generated into
//! `src/engine/generated/presets.json`).

use super::presets::PRESETS;
use super::scenario::policy_kind::POLICY_KIND_NAMES;
use super::scenario::templates::{template_program, TEMPLATE_NAMES};
use super::scenario::{load_scenario, parse_scenario, Diagnostic, OpFile};
use crate::machine::Machine;
use serde::Serialize;

/// Every problem found in scenario JSON text; empty when it would load.
/// A syntax error is reported alone; type errors are listed (the first of
/// each field, step, process, cgroup and event); the semantic checks run once
/// the file parses.
pub fn diagnostics(text: &str) -> Vec<Diagnostic> {
    load_scenario(text).err().unwrap_or_default()
}

/// One problem of a scenario as the editor shows it (`validateScenario`).
#[derive(Serialize)]
#[cfg_attr(any(test, feature = "gen"), derive(ts_rs::TS))]
pub struct Problem {
    /// The field it is about, as a path (`processes[0].program[1].run_us`).
    pub path: String,
    pub message: String,
}

/// Every problem of a scenario text as the editor lists them; empty when it would load.
pub fn problems(text: &str) -> Vec<Problem> {
    diagnostics(text).into_iter().map(|d| Problem { path: d.field, message: d.reason }).collect()
}

#[derive(Serialize)]
#[cfg_attr(any(test, feature = "gen"), derive(ts_rs::TS))]
pub struct MachineChoice {
    pub name: String,
    pub nodes: u32,
    pub cores_per_node: u32,
    pub threads_per_core: u32,
    pub nodes_per_package: u32,
    pub distance: Vec<Vec<u32>>,
}

#[derive(Serialize)]
#[cfg_attr(any(test, feature = "gen"), derive(ts_rs::TS))]
pub struct TemplateChoice {
    pub name: &'static str,
    /// The steps as a scenario writes them (`OpFile`).
    #[cfg_attr(any(test, feature = "gen"), ts(type = "Array<JsonValue>"))]
    pub program: Vec<OpFile>,
}

#[derive(Serialize)]
#[cfg_attr(any(test, feature = "gen"), derive(ts_rs::TS))]
pub struct Choices {
    pub machines: Vec<MachineChoice>,
    pub templates: Vec<TemplateChoice>,
    pub policies: &'static [&'static str],
    pub bug_profiles: &'static [&'static str],
    pub identities: &'static [&'static str],
}

pub fn choices() -> Choices {
    let machines = Machine::preset_names()
        .iter()
        .filter_map(|n| Machine::preset(n))
        .map(|m| MachineChoice {
            name: m.name,
            nodes: m.nodes,
            cores_per_node: m.cores_per_node,
            threads_per_core: m.threads_per_core,
            nodes_per_package: m.nodes_per_package,
            distance: m.distance,
        })
        .collect();
    let templates = TEMPLATE_NAMES
        .iter()
        .map(|&name| TemplateChoice { name, program: template_program(name).unwrap_or_default() })
        .collect();
    Choices {
        machines,
        templates,
        policies: &POLICY_KIND_NAMES,
        bug_profiles: super::scenario::BUG_PROFILES,
        identities: super::scenario::IDENTITIES,
    }
}

/// A preset as the app's library lists it (`src/engine/generated/presets.json`).
#[derive(serde::Serialize)]
#[cfg_attr(any(test, feature = "gen"), derive(ts_rs::TS))]
pub struct PresetInfo {
    pub name: &'static str,
    pub title: &'static str,
    /// The scenario's own description.
    pub description: String,
}

/// Every built-in preset with its description, in the order of `PRESETS`.
pub fn preset_infos() -> Vec<PresetInfo> {
    PRESETS
        .iter()
        .map(|p| {
            let description = parse_scenario(p.json).map(|s| s.description).unwrap_or_default();
            PresetInfo { name: p.name, title: p.title, description }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const BASE: &str = r#"{"version":1,"name":"t","duration_ms":10,"machine":{"preset":"uniprocessor"},"#;

    #[test]
    fn collects_every_semantic_problem() {
        let text = format!(
            r#"{BASE}"processes":[{{"name":"a","nice":99,"threads":0,"program":[{{"run_us":5}}]}}],"events":[{{"at_ms":1}}]}}"#
        );
        let fields: Vec<String> = diagnostics(&text).into_iter().map(|d| d.field).collect();
        assert_eq!(fields, ["processes[0].nice", "processes[0].threads", "events[0]"]);
    }

    #[test]
    fn sanity_checker_settings_are_checked() {
        let text = format!(
            r#"{BASE}"sanity_checker":{{"period_ms":100,"window_ms":500}},"processes":[{{"name":"a","program":[{{"run_us":5}}]}}]}}"#
        );
        let fields: Vec<String> = diagnostics(&text).into_iter().map(|d| d.field).collect();
        assert_eq!(fields, ["sanity_checker.window_ms"]);
    }

    #[test]
    fn a_valid_scenario_has_none() {
        let text = format!(r#"{BASE}"processes":[{{"name":"a","program":[{{"run_us":5}}]}}]}}"#);
        assert!(diagnostics(&text).is_empty());
    }

    #[test]
    fn choices_cover_the_validator() {
        let c = choices();
        assert_eq!(c.machines.len(), Machine::preset_names().len());
        assert!(c.templates.iter().all(|t| !t.program.is_empty()));
        for kind in POLICY_KIND_NAMES {
            // A kind alone is a whole policy, but for "ext", which needs its scheduler's source.
            let source = if kind == "ext" { r#","source":"function enqueue(p, f) {}""# } else { "" };
            let text = format!(
                r#"{BASE}"policy":{{"kind":"{kind}"{source}}},"processes":[{{"name":"a","program":[{{"run_us":5}}]}}]}}"#
            );
            assert!(diagnostics(&text).is_empty(), "{kind}");
        }
    }
}

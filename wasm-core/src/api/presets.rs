//! Built-in scenario presets. Each is a scenario file under
//! `wasm-core/presets/`, compiled into the binary so the CLI, the wasm module
//! and the tests all read the very same text.

pub struct Preset {
    pub name: &'static str,
    pub title: &'static str,
    pub json: &'static str,
}

pub const PRESETS: &[Preset] = &[
    Preset {
        name: "cfs-nice-levels",
        title: "CFS on one CPU: nice levels and a sleeper",
        json: include_str!("../../presets/cfs-nice-levels.json"),
    },
    Preset {
        name: "group-imbalance-make",
        title: "Group Imbalance: make -j64 + two R processes (Linux 4.1)",
        json: include_str!("../../presets/group-imbalance-make.json"),
    },
    Preset {
        name: "group-imbalance-make-fixed",
        title: "Group Imbalance: make -j64 + two R processes (fixed)",
        json: include_str!("../../presets/group-imbalance-make-fixed.json"),
    },
];

pub fn find(name: &str) -> Option<&'static Preset> {
    PRESETS.iter().find(|p| p.name == name)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::scenario::{load_scenario, parse_scenario};

    #[test]
    fn every_preset_is_valid_and_named_like_its_file() {
        for p in PRESETS {
            let cfg = load_scenario(p.json).unwrap_or_else(|e| panic!("{}: {:?}", p.name, e));
            assert_eq!(cfg.name, p.name);
            assert!(!parse_scenario(p.json).unwrap().description.is_empty());
        }
    }
}

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
    Preset {
        name: "missing-domains-hotplug",
        title: "Missing Scheduling Domains: hotplug, then a 64-thread app (Linux 4.1)",
        json: include_str!("../../presets/missing-domains-hotplug.json"),
    },
    Preset {
        name: "missing-domains-hotplug-fixed",
        title: "Missing Scheduling Domains: hotplug, then a 64-thread app (fixed)",
        json: include_str!("../../presets/missing-domains-hotplug-fixed.json"),
    },
    Preset {
        name: "group-construction-numactl",
        title: "Scheduling Group Construction: an app on nodes 1 and 2 (Linux 4.1)",
        json: include_str!("../../presets/group-construction-numactl.json"),
    },
    Preset {
        name: "group-construction-numactl-fixed",
        title: "Scheduling Group Construction: an app on nodes 1 and 2 (fixed)",
        json: include_str!("../../presets/group-construction-numactl-fixed.json"),
    },
    Preset {
        name: "overload-on-wakeup-db",
        title: "Overload-on-Wakeup: 64 database workers (Linux 4.1)",
        json: include_str!("../../presets/overload-on-wakeup-db.json"),
    },
    Preset {
        name: "overload-on-wakeup-db-fixed",
        title: "Overload-on-Wakeup: 64 database workers (fixed)",
        json: include_str!("../../presets/overload-on-wakeup-db-fixed.json"),
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

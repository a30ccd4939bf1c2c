//! Helpers shared by the integration tests.
#![allow(dead_code)]

use schedlab_core::api::{presets, scenario};
use schedlab_core::config::SimConfig;
use schedlab_core::sim::Simulator;

pub fn preset_config(name: &str) -> SimConfig {
    let p = presets::find(name).unwrap_or_else(|| panic!("no preset {name}"));
    scenario::load_scenario(p.json).unwrap_or_else(|e| panic!("{name}: {e:?}"))
}

pub fn run_preset(name: &str) -> Simulator {
    let mut sim = Simulator::new(&preset_config(name));
    sim.run_to_end();
    sim
}

/// CPU time of the process called `name`.
pub fn cpu_time(sim: &Simulator, name: &str) -> u64 {
    let p = sim.processes().iter().find(|p| p.name == name).unwrap_or_else(|| panic!("no process {name}"));
    p.threads.iter().map(|&pid| sim.tasks()[pid as usize].se.sum_exec_runtime).sum()
}

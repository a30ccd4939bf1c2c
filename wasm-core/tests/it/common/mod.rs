//! Helpers shared by the integration tests.
#![allow(dead_code)]

pub mod scenario;

use schedlab_core::api::presets;
use schedlab_core::api::scenario::load_scenario;
use schedlab_core::config::SimConfig;
use schedlab_core::sim::Simulator;
use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, MutexGuard};

pub fn preset_config(name: &str) -> SimConfig {
    let p = presets::find(name).unwrap_or_else(|| panic!("no preset {name}"));
    load_scenario(p.json).unwrap_or_else(|e| panic!("{name}: {e:?}"))
}

/// The preset's scenario on Linux 6.12, as `npm run bugs` and the app's kernel switch make it: `kernel`
/// set and the 4.1 bug switches dropped (6.12 runs as it ships). Err with the engine's reasons when the
/// preset's policy belongs to another kernel.
pub fn preset_on_612(name: &str) -> Result<SimConfig, Vec<schedlab_core::api::scenario::Diagnostic>> {
    let p = presets::find(name).unwrap_or_else(|| panic!("no preset {name}"));
    let mut v: serde_json::Value = serde_json::from_str(p.json).expect("a preset is JSON");
    let o = v.as_object_mut().expect("a scenario is an object");
    o.insert("kernel".into(), "6.12".into());
    o.remove("bugs");
    load_scenario(&v.to_string())
}

pub fn run_preset(name: &str) -> Simulator {
    let mut sim = Simulator::new(&preset_config(name));
    sim.run_to_end();
    sim
}

/// CPU time of the process called `name`.
pub fn cpu_time(sim: &Simulator, name: &str) -> u64 {
    let p = sim.processes().iter().find(|p| p.name == name).unwrap_or_else(|| panic!("no process {name}"));
    p.threads.iter().map(|&pid| sim.tasks()[pid.idx()].se.sum_exec_runtime).sum()
}

/// A fresh path in the temp directory, ending in `name`. The tests are threads
/// of one process, so the process id alone no longer tells two of them apart:
/// a counter does; the process id still separates two runs of the suite (two
/// worktrees) at once. The caller creates and removes the file.
pub fn temp_path(name: &str) -> PathBuf {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    std::env::temp_dir().join(format!("schedlab-it-{}-{n}-{name}", std::process::id()))
}

/// Held by every test that runs a workload on this host's kernel (`schedsim
/// real`, `schedsim fidelity`): they pin hogs to the same CPU, read one
/// tracefs, and check that no thread of a run is left, so two at once would
/// see each other's. A test that panicked while holding it leaves nothing to
/// protect, hence the poison is ignored.
pub fn host_exclusive() -> MutexGuard<'static, ()> {
    static HOST: Mutex<()> = Mutex::new(());
    HOST.lock().unwrap_or_else(|e| e.into_inner())
}

/// Starts what a test writes when this host cannot run it (no root, no
/// tracefs). Stable libtest has no skip at run time: such a test returns and
/// is counted as passed, so it says so with this marker, which
/// scripts/test-all.sh counts as skipped instead of passed (wherever it
/// appears: libtest may have begun a line, "test NAME ... ", just before).
/// Keep the two in step.
pub const SKIP_MARKER: &str = "schedlab-test-skipped:";

/// Reports the running test as skipped because of `why`; the caller then
/// returns. The line goes to the process's stderr itself, past libtest's
/// capture (which holds only what `print!` and `eprint!` write, and shows it
/// only for a failed test), so it reaches the log of every run.
pub fn skip(why: &str) {
    // libtest names each test's thread after the test.
    let test = std::thread::current().name().unwrap_or("a test").to_owned();
    let _ = writeln!(std::io::stderr().lock(), "{SKIP_MARKER} {test}: {why}");
}

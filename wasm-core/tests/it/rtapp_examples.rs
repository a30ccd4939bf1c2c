//! rt-app's own example files (`doc/examples` of an rt-app checkout named by
//! `RTAPP_DIR`; `scripts/rtapp-examples.sh` fetches none, it takes a
//! checkout you have): how many import, and why each other one does not.
//! Skipped when no checkout is given: the files are rt-app's, not ours.
//!
//! Each file must import to a scenario that runs, or be refused with the
//! place and the reason; the tally is printed (`--nocapture`).

use crate::common;
use schedlab_core::api::rtapp::import::{import, Defaults};
use schedlab_core::api::scenario::validate;
use schedlab_core::sim::Simulator;
use std::path::{Path, PathBuf};

fn json_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    let mut entries: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            json_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "json") {
            out.push(p);
        }
    }
}

#[test]
fn rt_app_s_own_examples_import_or_say_why_not() {
    let Some(dir) = std::env::var_os("RTAPP_DIR").map(PathBuf::from) else {
        return common::skip("RTAPP_DIR names no rt-app checkout (scripts/rtapp-examples.sh)");
    };
    let examples = dir.join("doc/examples");
    let mut files = Vec::new();
    json_files(&examples, &mut files);
    if files.is_empty() {
        return common::skip(&format!("no doc/examples/*.json under {}", dir.display()));
    }
    let mut imported = 0;
    let mut lines = Vec::new();
    for path in &files {
        let shown = path.strip_prefix(&examples).unwrap_or(path).display().to_string();
        let text = std::fs::read_to_string(path).unwrap();
        match import(&text, &Defaults { name: shown.clone(), duration_ms: 200, ..Default::default() }) {
            Ok((mut s, _)) => {
                // A short run: the file's workload starts and nothing in it stalls the engine.
                s.duration_ms = s.duration_ms.min(200);
                let cfg = validate(&s).unwrap_or_else(|d| panic!("{shown}: imported but refused: {d:?}"));
                let mut sim = Simulator::new(&cfg);
                sim.run_to_end();
                assert!(sim.events_processed() > 0, "{shown}");
                imported += 1;
                lines.push(format!("  ok       {shown}"));
            }
            Err(e) => {
                let first = e.lines().find(|l| l.contains(':') && !l.ends_with(':')).unwrap_or(&e).trim().to_string();
                assert!(first.contains(": "), "{shown}: a refusal names its place: {e}");
                lines.push(format!("  refused  {shown}: {first}"));
            }
        }
    }
    eprintln!("{imported} of {} of rt-app's doc/examples import:\n{}", files.len(), lines.join("\n"));
}

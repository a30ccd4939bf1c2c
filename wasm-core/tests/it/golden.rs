//! The golden results: every built-in preset run to its end, its trace hash
//! and headline figures pinned in `tests/it/snapshots/it__golden__<preset>.snap`.
//! A change that moves any preset fails here with a diff that says which
//! figures moved and by how much; an intended move is accepted with
//! `INSTA_UPDATE=always cargo test --release --test it golden::` (or
//! `cargo insta review`) and recorded, with the mechanism that moved it, in
//! docs/fidelity.md's changelog. Speed work and refactors never change a
//! snapshot.

use crate::common;

use schedlab_core::api::{presets::PRESETS, report};
use std::fmt::Write;

/// Milliseconds with microsecond resolution: figures are integer ns, so this is exact to the µs.
fn ms(ns: u64) -> String {
    format!("{}.{:06}", ns / 1_000_000, ns % 1_000_000)
}

/// The figures a reader checks first, one per line, so a diff names each one that moved.
fn golden_text(name: &str) -> String {
    figures(&common::run_preset(name))
}

/// The preset on Linux 6.12 (`common::preset_on_612`), or None if 6.12 refuses its policy.
fn golden_text_612(name: &str) -> Option<String> {
    let cfg = common::preset_on_612(name).ok()?;
    let mut sim = schedlab_core::sim::Simulator::new(&cfg);
    sim.run_to_end();
    Some(figures(&sim))
}

fn figures(sim: &schedlab_core::sim::Simulator) -> String {
    let r = report::report(sim);
    let mut s = String::new();
    let w = &mut s;
    writeln!(w, "trace_hash {}", r.trace_hash).unwrap();
    writeln!(w, "events {}", r.events).unwrap();
    writeln!(w, "sim_time_ms {}", ms(r.sim_time_ns)).unwrap();
    if let Some(stop) = r.event_budget_stop_ns {
        writeln!(w, "event_budget_stop_ms {}", ms(stop)).unwrap();
    }
    writeln!(w, "wasted_core_ms {}", ms(r.wasted_core_ns)).unwrap();
    match r.longest_wasted_idle {
        Some((cpu, from, len)) => {
            writeln!(w, "longest_wasted_idle cpu {cpu} from_ms {} len_ms {}", ms(from), ms(len)).unwrap()
        }
        None => writeln!(w, "longest_wasted_idle none").unwrap(),
    }
    writeln!(w, "migrations {}", r.migrations).unwrap();
    writeln!(w, "balance_decisions {}", r.balance_decisions).unwrap();
    writeln!(w, "sanity_violations {}", r.sanity_violations.len()).unwrap();
    writeln!(w, "jain_fairness_threads {:.6}", r.jain_fairness_threads).unwrap();
    writeln!(w, "loadavg {:.2} {:.2} {:.2}", r.loadavg[0], r.loadavg[1], r.loadavg[2]).unwrap();
    let busy: u64 = r.cpus.iter().map(|c| c.busy_ns).sum();
    writeln!(w, "cpus {} busy_ms {}", r.cpus.len(), ms(busy)).unwrap();
    for p in &r.processes {
        write!(
            w,
            "process {:?} threads {} cpu_ms {} share {:.4} wait_ms {} nvcsw {} nivcsw {} migrations {}",
            p.name,
            p.threads,
            ms(p.cpu_time_ns),
            p.share,
            ms(p.wait_time_ns),
            p.nvcsw,
            p.nivcsw,
            p.migrations
        )
        .unwrap();
        if let Some(done) = p.completion_ns {
            write!(w, " completion_ms {}", ms(done)).unwrap();
        }
        // Only periodic and deadline tasks can be late: a line without them reads as before.
        if p.timer_overruns > 0 {
            write!(w, " timer_overruns {}", p.timer_overruns).unwrap();
        }
        if p.deadline_misses > 0 {
            write!(w, " deadline_misses {}", p.deadline_misses).unwrap();
        }
        if let Some([p50, p90, p99, max]) = p.wakeup_latency_ns {
            write!(w, " wakeup_us p50 {} p90 {} p99 {} max {}", p50 / 1000, p90 / 1000, p99 / 1000, max / 1000)
                .unwrap();
        }
        writeln!(w).unwrap();
    }
    s
}

#[test]
fn every_preset_is_pinned() {
    let mut settings = insta::Settings::clone_current();
    settings.set_prepend_module_to_snapshot(true);
    settings.set_omit_expression(true);
    // Every preset is checked even after one moved, so one run lists (and diffs) all that moved.
    let moved: Vec<&str> = PRESETS
        .iter()
        .filter(|p| {
            let text = golden_text(p.name);
            let check = || settings.bind(|| insta::assert_snapshot!(p.name, text));
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(check)).is_err()
        })
        .map(|p| p.name)
        .collect();
    assert!(moved.is_empty(), "presets whose golden results moved: {moved:?}");
}

/// Every preset on Linux 6.12, pinned beside its 4.1 result (`it__golden__612-<preset>.snap`); a preset
/// whose policy is a patch of another kernel is refused, and the refusal names the policy (or, for deadline
/// tasks that do not fit beside 6.12's fair servers, the admission control that refuses them).
#[test]
fn every_preset_on_612_is_pinned() {
    let mut settings = insta::Settings::clone_current();
    settings.set_prepend_module_to_snapshot(true);
    settings.set_omit_expression(true);
    let mut refused = Vec::new();
    let moved: Vec<&str> = PRESETS
        .iter()
        .filter(|p| match golden_text_612(p.name) {
            None => {
                refused.push(p.name);
                false
            }
            Some(text) => {
                let name = format!("612-{}", p.name);
                let check = || settings.bind(|| insta::assert_snapshot!(name, text));
                std::panic::catch_unwind(std::panic::AssertUnwindSafe(check)).is_err()
            }
        })
        .map(|p| p.name)
        .collect();
    assert!(moved.is_empty(), "presets whose 6.12 golden results moved: {moved:?}");
    for name in &refused {
        let why = common::preset_on_612(name).expect_err("refused");
        let named = |d: &schedlab_core::api::scenario::Diagnostic| {
            d.field == "policy.kind" || d.field == "policy.group_identity" || d.field.ends_with(".sched_policy")
        };
        assert!(why.iter().any(named), "{name}: {why:?}");
    }
    // edf-vs-fixed-priorities asks for 94.4 % of its one CPU: 6.12's fair server holds 5 % of it, leaving 90 %,
    // so admission control refuses it there (at its `sched_policy`).
    let refuses = ["gi-colocation", "o1-vs-cfs", "edf-vs-fixed-priorities"];
    assert_eq!(refused, refuses, "the presets 6.12 refuses");
}

/// The text is a pure function of the preset: two runs give the same bytes (so a snapshot can only move
/// when the engine does).
#[test]
fn golden_text_is_deterministic() {
    assert_eq!(golden_text("cfs-nice-levels"), golden_text("cfs-nice-levels"));
}

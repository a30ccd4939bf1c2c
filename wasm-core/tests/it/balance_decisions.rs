//! Every load_balance call leaves a record that explains it: the groups and
//! their statistics, the busiest choice, the imbalance, what moved or why not.

use crate::common;
use schedlab_core::api::views::inspector::recent_decisions;
use schedlab_core::sim::Simulator;
use schedlab_core::time::SimTime;
use std::collections::BTreeSet;

#[test]
fn decisions_explain_themselves_with_their_numbers() {
    let mut sim = Simulator::new(&common::preset_config("group-imbalance-make"));
    sim.run_until(SimTime(1_000_000_000));
    let all = recent_decisions(&sim, 4096, false);
    assert!(all.len() > 1000, "{} decisions", all.len());
    let mut outcomes = std::collections::BTreeSet::new();
    for d in &all {
        outcomes.insert(d.outcome);
        assert!(d.explanation.starts_with(&format!("CPU {} balancing at {}", d.cpu, d.level)), "{}", d.explanation);
        if d.outcome != "not-designated" {
            assert!(!d.groups.is_empty() && d.groups[0].local, "the local group comes first");
            if let Some(b) = d.busiest_group {
                assert!(!d.groups[b].local, "busiest is never the local group");
            }
        }
        if d.outcome == "moved" {
            assert!(!d.moved.is_empty() && d.busiest_cpu.is_some() && d.imbalance > 0);
        }
    }
    for expected in ["balanced", "moved", "not-designated"] {
        assert!(outcomes.contains(expected), "no '{expected}' decision among {outcomes:?}");
    }
}

/// On 6.12 the record speaks 6.12: each group carries one of the seven
/// types of `enum group_type` (fair.c 6.12, 9436–9475), an imbalance
/// carries its `enum migration_type` (9206–9211), and the reasons for doing
/// nothing are the decision matrix's own (`sched_balance_find_src_group`).
#[test]
fn decisions_on_612_name_group_types_and_migration_types() {
    let mut sim = Simulator::new(&common::preset_on_612("group-imbalance-make").expect("runs on 6.12"));
    sim.run_until(SimTime(1_000_000_000));
    let all = recent_decisions(&sim, 4096, false);
    assert!(all.len() > 500, "{} decisions", all.len());
    let six_twelve =
        ["has_spare", "fully_busy", "misfit_task", "smt_balance", "asym_packing", "imbalanced", "overloaded"];
    let (mut types, mut migrations, mut whys) = (BTreeSet::new(), BTreeSet::new(), BTreeSet::new());
    for d in &all {
        assert!(d.explanation.starts_with(&format!("CPU {} balancing at {}", d.cpu, d.level)), "{}", d.explanation);
        for g in &d.groups {
            assert!(six_twelve.contains(&g.group_type), "a 4.1 type on 6.12: {}", g.group_type);
            types.insert(g.group_type);
        }
        if d.outcome != "not-designated" {
            assert!(!d.groups.is_empty() && d.groups[0].local, "the local group comes first");
        }
        if d.outcome == "moved" {
            let m = d.migration.expect("an imbalance that moved tasks has its migration type");
            migrations.insert(m);
            assert!(d.explanation.contains(", counted in "), "{}", d.explanation);
            assert!(!d.moved.is_empty() && d.busiest_cpu.is_some() && d.imbalance > 0);
        }
        if let Some(w) = &d.why {
            whys.insert(serde_json::to_value(w).expect("a reason serializes")["code"].as_str().unwrap().to_owned());
        }
    }
    // make's threads fill the machine and leave it: overloaded and spare groups, tasks and load to move.
    for t in ["has_spare", "overloaded"] {
        assert!(types.contains(t), "no {t} group among {types:?}");
    }
    assert!(migrations.contains("task"), "no task imbalance among {migrations:?}");
    assert!(whys.len() >= 3, "few reasons: {whys:?}");
}

/// 6.12 keeps its placements for the topology view too: each names the part
/// of `select_task_rq_fair` (fair.c 8696–8760) that chose, and the CPUs it
/// could consider hold the chosen one.
#[test]
fn placements_on_612_name_their_path() {
    let mut sim = Simulator::new(&common::preset_on_612("group-imbalance-make").expect("runs on 6.12"));
    sim.run_until(SimTime(500_000_000));
    let all = schedlab_core::api::views::inspector::recent_placements(&sim, 1024);
    assert!(all.len() > 100, "{} placements", all.len());
    let paths: BTreeSet<&str> = all.iter().map(|p| p.path).collect();
    for want in ["select_idle_sibling", "sched_balance_find_dst_group"] {
        assert!(paths.contains(want), "no {want} among {paths:?}");
    }
    for p in &all {
        let bit = p.considered.0.get(p.chosen_cpu.0 as usize / 32).copied().unwrap_or(0) >> (p.chosen_cpu.0 % 32) & 1;
        assert_eq!(bit, 1, "CPU {} chosen outside what {} considered", p.chosen_cpu.0, p.path);
    }
}

//! Every load_balance call leaves a record that explains it: the groups and
//! their statistics, the busiest choice, the imbalance, what moved or why not.

use crate::common;
use schedlab_core::api::views::inspector::recent_decisions;
use schedlab_core::sim::Simulator;
use schedlab_core::time::SimTime;

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

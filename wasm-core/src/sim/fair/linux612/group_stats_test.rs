//! The 6.12 balancer's group statistics worked by hand (fair.c:
//! group_has_capacity, group_is_overloaded, group_classify,
//! update_sg_lb_stats, update_sd_pick_busiest, sibling_imbalance).

use super::*;

/// A 2-CPU group's figures: `nr` tasks, util and runnable as given.
fn two_cpus(nr: u32, util: u64, runnable: u64) -> SgLbStats {
    SgLbStats {
        group_capacity: 2048,
        group_weight: 2,
        sum_nr_running: nr,
        sum_h_nr_running: nr,
        group_util: util,
        group_runnable: runnable,
        ..SgLbStats::default()
    }
}

#[test]
fn classify_by_tasks_against_cpus_and_util_against_capacity() {
    let pct = 117;
    // One task on two CPUs: fewer tasks than CPUs, spare.
    assert_eq!(group_classify(pct, false, &two_cpus(1, 1024, 1024)), GroupType::HasSpare);
    // Two hogs: not more tasks than CPUs (not overloaded); no spare: 2048 · 117 = 239,616 is not below
    // runnable 204,800, but 2048 · 100 = 204,800 is not above util · 117 = 239,616: fully busy.
    assert_eq!(group_classify(pct, false, &two_cpus(2, 2048, 2048)), GroupType::FullyBusy);
    // Three hogs: more tasks than CPUs and 204,800 < util · 117 = 239,616: overloaded.
    assert_eq!(group_classify(pct, false, &two_cpus(3, 2048, 3072)), GroupType::Overloaded);
    // Three small tasks (util 600, runnable 700): 204,800 ≥ 70,200 and 239,616 ≥ 70,000: not overloaded;
    // 204,800 > 600 · 117 = 70,200: still spare capacity.
    assert_eq!(group_classify(pct, false, &two_cpus(3, 600, 700)), GroupType::HasSpare);
    // Pinned tasks kept it from balancing (sgc->imbalance): imbalanced outranks fully busy, not overloaded.
    assert_eq!(group_classify(pct, true, &two_cpus(2, 2048, 2048)), GroupType::Imbalanced);
    assert_eq!(group_classify(pct, true, &two_cpus(3, 2048, 3072)), GroupType::Overloaded);
}

#[test]
fn group_statistics_sum_the_cpus_and_type_the_group() {
    let hog = CpuSample { load: 1024, util: 1024, runnable: 1024, h_nr_queued: 1, nr_running: 1, idle: false };
    let two = CpuSample { load: 2048, util: 1024, runnable: 2048, h_nr_queued: 2, nr_running: 2, idle: false };
    let idle = CpuSample { idle: true, ..CpuSample::default() };
    let group = GroupFacts { capacity: 3072, weight: 3, smt: false, sgc_imbalance: false };
    // Sums: load 3072, util 2048, runnable 3072, 3 tasks, 1 idle CPU; a CPU runs two, so the domain is
    // overloaded (sg_overloaded). Typed: 3 tasks ≤ 3 CPUs; 3072 · 117 = 359,424 ≥ 307,200 and
    // 307,200 > 2048 · 117 = 239,616: spare. avg_load is left 0 (computed only when overloaded).
    let (sgs, overloaded) = update_sg_lb_stats(&[hog, two, idle], &group, false, true, 117);
    assert!(overloaded);
    assert_eq!((sgs.group_load, sgs.group_util, sgs.group_runnable), (3072, 2048, 3072));
    assert_eq!((sgs.sum_nr_running, sgs.sum_h_nr_running, sgs.idle_cpus), (3, 3, 1));
    assert_eq!((sgs.group_type, sgs.avg_load), (GroupType::HasSpare, 0));
    // The same CPUs as SMT siblings, balanced by an idle CPU: more than one fair task on the SMT group
    // makes it smt_balance (group_smt_balance), unless it is the local group.
    let smt = GroupFacts { smt: true, ..group };
    assert_eq!(update_sg_lb_stats(&[hog, two, idle], &smt, false, true, 117).0.group_type, GroupType::SmtBalance);
    assert_eq!(update_sg_lb_stats(&[hog, two, idle], &smt, true, true, 117).0.group_type, GroupType::HasSpare);
    assert_eq!(update_sg_lb_stats(&[hog, two, idle], &smt, false, false, 117).0.group_type, GroupType::HasSpare);
    // Overloaded: two hogs on one CPU of a one-CPU group: avg_load = 2048 · 1024 / 1024 = 2048.
    let one = GroupFacts { capacity: 1024, weight: 1, ..group };
    let (sgs, _) = update_sg_lb_stats(&[two], &one, false, true, 117);
    assert_eq!((sgs.group_type, sgs.avg_load), (GroupType::Overloaded, 2048));
}

#[test]
fn the_busiest_is_ranked_by_type_then_by_what_the_type_weighs() {
    let plain = GroupFacts { capacity: 2048, weight: 2, ..GroupFacts::default() };
    let mut first = two_cpus(1, 1024, 1024);
    first.idle_cpus = 1;
    // Any group with a task beats no busiest yet (has_spare, UINT_MAX idle CPUs); none without a task.
    assert!(update_sd_pick_busiest(&first, &plain, &SgLbStats::no_busiest(), None));
    assert!(!update_sd_pick_busiest(&two_cpus(0, 0, 0), &plain, &SgLbStats::no_busiest(), None));
    // A busier type wins whatever its load.
    let overloaded = SgLbStats { group_type: GroupType::Overloaded, avg_load: 10, ..two_cpus(3, 2048, 3072) };
    let busy = SgLbStats { group_type: GroupType::FullyBusy, ..two_cpus(2, 2048, 2048) };
    assert!(update_sd_pick_busiest(&overloaded, &plain, &busy, Some(&plain)));
    assert!(!update_sd_pick_busiest(&busy, &plain, &overloaded, Some(&plain)));
    // Two overloaded groups: the higher avg_load.
    let heavier = SgLbStats { avg_load: 11, ..overloaded };
    assert!(update_sd_pick_busiest(&heavier, &plain, &overloaded, Some(&plain)));
    assert!(!update_sd_pick_busiest(&overloaded, &plain, &heavier, Some(&plain)));
    // Two with spare room: fewer idle CPUs wins; with as many, more tasks wins (equal: the first stays).
    let mut fewer_idle = two_cpus(1, 1024, 1024);
    fewer_idle.idle_cpus = 0;
    assert!(update_sd_pick_busiest(&fewer_idle, &plain, &first, Some(&plain)));
    assert!(!update_sd_pick_busiest(&first, &plain, &fewer_idle, Some(&plain)));
    assert!(!update_sd_pick_busiest(&first, &plain, &first, Some(&plain)));
    // Two fully busy with avg_load 0 (not computed): the first stays only if it is an SMT group.
    let smt = GroupFacts { smt: true, ..plain };
    assert!(update_sd_pick_busiest(&busy, &plain, &busy, Some(&plain)));
    assert!(!update_sd_pick_busiest(&busy, &plain, &busy, Some(&smt)));
    // Spare room, an SMT candidate with one task against a plain busiest: its core is not emptied.
    assert!(!update_sd_pick_busiest(&fewer_idle, &smt, &first, Some(&plain)));
    // Two imbalanced groups: the first stays.
    let imb = SgLbStats { group_type: GroupType::Imbalanced, ..busy };
    assert!(!update_sd_pick_busiest(&imb, &plain, &imb, Some(&plain)));
}

#[test]
fn sibling_imbalance_evens_tasks_per_core() {
    let busiest = |nr| SgLbStats { sum_nr_running: nr, ..SgLbStats::default() };
    // As many cores: the difference, 3 − 1 = 2.
    assert_eq!(sibling_imbalance(true, 1, 1, &busiest(3), &busiest(1)), 2);
    // Busiest 2 cores running 4, local 1 core running 0: 1 · 4 − 2 · 0 = 4, rounded: (8 + 1 + 2) / 3 = 3.
    assert_eq!(sibling_imbalance(true, 2, 1, &busiest(4), &busiest(0)), 3);
    // Busiest 4 cores running 2, local 1 core empty: (2 · 2 + 5) / 5 = 1, but an empty group takes 2.
    assert_eq!(sibling_imbalance(true, 4, 1, &busiest(2), &busiest(0)), 2);
    // Not from an idle CPU: nothing.
    assert_eq!(sibling_imbalance(false, 1, 1, &busiest(3), &busiest(1)), 0);
}

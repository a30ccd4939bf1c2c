//! 6.12's decision at a domain worked by hand (fair.c:
//! sched_balance_find_src_group, calculate_imbalance, adjust_numa_imbalance).

use super::*;

/// A group's statistics: its type, tasks (all fair), idle CPUs, CPUs, load, util and avg_load.
fn grp(t: GroupType, nr: u32, idle: u32, weight: u32, load: u64, util: u64, avg_load: u64) -> SgLbStats {
    SgLbStats {
        group_type: t,
        sum_nr_running: nr,
        sum_h_nr_running: nr,
        idle_cpus: idle,
        group_weight: weight,
        group_capacity: 1024 * u64::from(weight),
        group_load: load,
        group_util: util,
        avg_load,
        ..SgLbStats::default()
    }
}

/// Two 2-CPU groups, the balancing CPU idle, imbalance_pct 117.
fn domain(total_load: u64) -> DomainView {
    DomainView {
        imbalance_pct: 117,
        total_load,
        total_capacity: 4096,
        busiest_cores: 2,
        local_cores: 2,
        dst_idle: true,
        ..DomainView::default()
    }
}

#[test]
fn an_idle_group_beside_an_overloaded_one_fills_with_util_across_caches_and_tasks_within() {
    // Busiest: 3 hogs on 2 CPUs, avg_load 3072 · 1024 / 2048 = 1536. Local: idle. Across LLCs the local
    // spare capacity is filled: max(2048, 0) − 0 = 2048 of util.
    let busiest = grp(GroupType::Overloaded, 3, 0, 2, 3072, 2048, 1536);
    let mut local = grp(GroupType::HasSpare, 0, 2, 2, 0, 0, 0);
    let d = domain(3072);
    let v = find_src_group_verdict(&d, &mut local, Some(&busiest));
    assert_eq!(v, Verdict::Imbalance { migration: MigrationType::Util, amount: 2048 });
    // Within an LLC, the idle CPUs are evened: (2 − 0) / 2 = 1 task.
    let llc = DomainView { share_llc: true, ..d };
    let v = find_src_group_verdict(&llc, &mut local, Some(&busiest));
    assert_eq!(v, Verdict::Imbalance { migration: MigrationType::Task, amount: 1 });
}

#[test]
fn a_numa_node_lightly_loaded_keeps_a_pair_of_tasks_apart() {
    // Busiest node fully busy (2 hogs, 2 CPUs, no idle), local node idle: idle CPUs differ by 2 > 1, more
    // than one task: forced. The imbalance 2 − 0 = 2; on a NUMA domain with imb_numa_nr 2 the local node
    // would run 0 + 1 ≤ 2 tasks and 2 ≤ NUMA_IMBALANCE_MIN: allowed, nothing moves.
    let busiest = grp(GroupType::FullyBusy, 2, 0, 2, 2048, 2048, 0);
    let mut local = grp(GroupType::HasSpare, 0, 2, 2, 0, 0, 0);
    let numa = DomainView { numa: true, imb_numa_nr: 2, ..domain(2048) };
    assert_eq!(
        find_src_group_verdict(&numa, &mut local, Some(&busiest)),
        Verdict::Balanced(Balanced::NumaAllowance(2))
    );
    // Not NUMA: 2 / 2 = 1 task moves.
    let v = find_src_group_verdict(&domain(2048), &mut local, Some(&busiest));
    assert_eq!(v, Verdict::Imbalance { migration: MigrationType::Task, amount: 1 });
    assert_eq!(adjust_numa_imbalance(2, 1, 2), 0);
    assert_eq!(adjust_numa_imbalance(3, 1, 2), 3, "more than a pair");
    assert_eq!(adjust_numa_imbalance(2, 3, 2), 2, "the destination is not lightly loaded");
}

#[test]
fn two_overloaded_groups_meet_at_the_domain_average_unless_within_imbalance_pct() {
    // Local avg_load 1280, busiest 2048; domain 6656 · 1024 / 4096 = 1664. 100 · 2048 > 117 · 1280 =
    // 149,760: not within the margin. Pull min((2048 − 1664) · 2048, (1664 − 1280) · 2048) / 1024 = 768.
    let busiest = grp(GroupType::Overloaded, 4, 0, 2, 4096, 2048, 2048);
    let mut local = grp(GroupType::Overloaded, 3, 0, 2, 2560, 2048, 1280);
    let v = find_src_group_verdict(&domain(6656), &mut local, Some(&busiest));
    assert_eq!(v, Verdict::Imbalance { migration: MigrationType::Load, amount: 768 });
    // Busiest at 1400, domain at 5360 · 1024 / 4096 = 1340: 100 · 1400 = 140,000 ≤ 149,760.
    let near = SgLbStats { avg_load: 1400, ..busiest };
    let v = find_src_group_verdict(&domain(5360), &mut local, Some(&near));
    assert_eq!(v, Verdict::Balanced(Balanced::WithinImbalancePct));
    // The local group heavier than the domain: not pulling.
    let v = find_src_group_verdict(&domain(4096), &mut local, Some(&busiest));
    assert_eq!(v, Verdict::Balanced(Balanced::LocalAboveAverage));
}

#[test]
fn the_verdict_names_why_nothing_moved() {
    let mut local = grp(GroupType::HasSpare, 1, 1, 2, 1024, 1024, 0);
    let busy = grp(GroupType::FullyBusy, 2, 0, 2, 2048, 2048, 0);
    assert_eq!(find_src_group_verdict(&domain(3072), &mut local, None), Verdict::Balanced(Balanced::NoBusiest));
    // This CPU is busy and nothing is overloaded: an idle CPU should pull.
    let busy_dst = DomainView { dst_idle: false, ..domain(3072) };
    assert_eq!(
        find_src_group_verdict(&busy_dst, &mut local, Some(&busy)),
        Verdict::Balanced(Balanced::DestinationBusy)
    );
    // Idle CPUs 1 against 0: within one.
    assert_eq!(
        find_src_group_verdict(&domain(3072), &mut local, Some(&busy)),
        Verdict::Balanced(Balanced::IdleCpusEven)
    );
    // A 4-CPU local group with 3 idle against a busiest with one task and one idle: nothing waits there.
    let mut wide = grp(GroupType::HasSpare, 1, 3, 4, 1024, 1024, 0);
    let one = grp(GroupType::HasSpare, 1, 1, 2, 1024, 1024, 0);
    assert_eq!(
        find_src_group_verdict(&domain(2048), &mut wide, Some(&one)),
        Verdict::Balanced(Balanced::NothingWaiting)
    );
    // The local group is busier in type.
    let mut over = grp(GroupType::Overloaded, 3, 0, 2, 3072, 2048, 1536);
    assert_eq!(find_src_group_verdict(&domain(5120), &mut over, Some(&busy)), Verdict::Balanced(Balanced::LocalBusier));
    // An imbalanced busiest is forced whatever the local group: one task.
    let imb = SgLbStats { group_type: GroupType::Imbalanced, ..busy };
    let v = find_src_group_verdict(&domain(5120), &mut over, Some(&imb));
    assert_eq!(v, Verdict::Imbalance { migration: MigrationType::Task, amount: 1 });
}

#[test]
fn prefer_sibling_spreads_tasks_per_core() {
    // Busiest: 2 tasks on 2 cores, no idle CPU; local empty; the child prefers siblings: the sibling
    // imbalance 2 − 0 = 2 > 1 forces it, and half of it moves: 1 task.
    let busiest = grp(GroupType::HasSpare, 2, 0, 2, 2048, 1024, 0);
    let mut local = grp(GroupType::HasSpare, 0, 2, 2, 0, 0, 0);
    let d = DomainView { prefer_sibling: true, share_llc: true, ..domain(2048) };
    let v = find_src_group_verdict(&d, &mut local, Some(&busiest));
    assert_eq!(v, Verdict::Imbalance { migration: MigrationType::Task, amount: 1 });
}

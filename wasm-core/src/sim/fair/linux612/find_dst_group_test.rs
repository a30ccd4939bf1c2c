//! The fork/exec group choice worked by hand (Debian 6.12.117 fair.c:
//! `cpu_load_without` 7341–7357, `cpu_runnable_without` 7364–7380,
//! `cpu_util` 8105–8175, `cpu_util_without` 8200–8207, `task_running_on_cpu`
//! 10702–10712, `idle_cpu_without` 10721–10738, `update_sg_wakeup_stats`
//! 10747–10801, `update_pick_idlest` 10803–10853,
//! `sched_balance_find_dst_group` 10861–11025; `adjust_numa_imbalance`
//! 1427–1445). CPUs of capacity 1024, imbalance_pct 117, so the load margin
//! of 10932 is 1024 · 17 / 100 = 174.

use super::super::group_stats::{update_sg_lb_stats, CpuSample};
use super::*;

/// A CPU running one nice-0 hog of the given load: util 1024, runnable 1024.
fn hog(load: u64) -> WakeupCpu {
    WakeupCpu {
        load,
        util_avg: 1024,
        util_est: 0,
        runnable: 1024,
        h_nr_queued: 1,
        nr_running: 1,
        curr_idle: false,
        ttwu_pending: false,
        node: 0,
        allowed: true,
        task: None,
    }
}

/// A CPU running two tasks of `load` in all: util 1024, runnable 2048.
fn two(load: u64) -> WakeupCpu {
    WakeupCpu { load, runnable: 2048, h_nr_queued: 2, nr_running: 2, ..hog(load) }
}

/// An idle CPU with no blocked load.
fn idle() -> WakeupCpu {
    WakeupCpu { load: 0, util_avg: 0, runnable: 0, h_nr_queued: 0, nr_running: 0, curr_idle: true, ..hog(0) }
}

/// A group of the given CPUs, 1024 of capacity each.
fn group(span: &[usize]) -> DstGroup {
    let n = span.len() as u32;
    DstGroup {
        span: span.to_vec(),
        facts: GroupFacts { capacity: 1024 * u64::from(n), weight: n, smt: false, sgc_imbalance: false },
    }
}

const MC: DstDomain = DstDomain { imbalance_pct: 117, numa: false, imb_numa_nr: 0 };
const NUMA: DstDomain = DstDomain { imbalance_pct: 117, numa: true, imb_numa_nr: 4 };

/// fair.c 10927–10957 (fully busy, no SD_NUMA): the local group is left only
/// if 100 · local > 117 · idlest. Local: two hogs of 1024 on {0, 1}, load 2048
/// on 2048 of capacity. Not overloaded (2 tasks, 2 CPUs); no spare: 2
/// tasks ≥ 2 CPUs, 2048 · 100 = 204,800 is not above util 2048 · 117 =
/// 239,616: fully busy, avg_load 2048 · 1024 / 2048 = 1024 (10797–10800).
#[test]
fn local_stays_unless_the_idlest_is_lighter_by_imbalance_pct() {
    let groups = [group(&[0, 1]), group(&[2, 3])];
    let cpus = |remote: u64| [hog(1024), hog(1024), hog(remote), hog(remote)];
    let local = update_sg_wakeup_stats(&MC, &groups[0], &cpus(876));
    assert_eq!((local.group_type, local.avg_load), (GroupType::FullyBusy, 1024));
    // The periodic balancer's statistics of the same CPUs leave a fully busy group's avg_load at 0.
    let lb = [CpuSample { load: 1024, util: 1024, runnable: 1024, h_nr_queued: 1, nr_running: 1, idle: false }; 2];
    assert_eq!(update_sg_lb_stats(&lb, &groups[0].facts, true, false, 117).0.avg_load, 0);
    // Remote hogs of 876: avg_load 1752 · 1024 / 2048 = 876. 876 ≥ 1024 + 174? No (10952). 100 · 1024 =
    // 102,400 ≤ 117 · 876 = 102,492: not lighter by the margin, stay (10955).
    assert_eq!(find_dst_group(&MC, &groups, &cpus(876), 0, None), None);
    // 875: 117 · 875 = 102,375 < 102,400: the remote group.
    assert_eq!(find_dst_group(&MC, &groups, &cpus(875), 0, None), Some(1));
    // A heavier remote group (1300 ≥ 1024 + 174) stays by 10952; so would it by 10955 (102,400 ≤
    // 152,100): without SD_NUMA the additive test never decides alone.
    assert_eq!(find_dst_group(&MC, &groups, &cpus(1300), 0, None), None);
}

/// fair.c 10944–10946: with SD_NUMA the margin is added to the remote side
/// first: stay while idlest + 174 ≥ local.
#[test]
fn across_numa_the_margin_is_added_to_the_remote_load() {
    let groups = [group(&[0, 1]), group(&[2, 3])];
    let cpus = |remote: u64| [hog(1024), hog(1024), hog(remote), hog(remote)];
    // Remote avg_load 850: 850 + 174 = 1024 ≥ 1024, stay; without SD_NUMA, 102,400 > 117 · 850 = 99,450
    // moves it.
    assert_eq!(find_dst_group(&NUMA, &groups, &cpus(850), 0, None), None);
    assert_eq!(find_dst_group(&MC, &groups, &cpus(850), 0, None), Some(1));
    // 849: 1023 < 1024; 849 < 1198; 102,400 > 99,333: the remote group.
    assert_eq!(find_dst_group(&NUMA, &groups, &cpus(849), 0, None), Some(1));
}

/// fair.c 10811–10826 and 10928–10957: overloaded groups compared by
/// avg_load. Local {0, 1}: four hogs, load 4096, 4 tasks > 2 CPUs and
/// 204,800 < util 2048 · 117: overloaded, avg_load 4096 · 1024 / 2048 = 2048.
/// A {2, 3}: three hogs, load 3072: avg_load 1536. B {4, 5}: two light tasks
/// (1024 in all) and a hog, load 2048: avg_load 1024.
#[test]
fn overloaded_groups_are_compared_by_avg_load() {
    let groups = [group(&[0, 1]), group(&[2, 3]), group(&[4, 5])];
    let cpus = [two(2048), two(2048), two(2048), hog(1024), two(1024), hog(1024)];
    let s: Vec<SgLbStats> = groups.iter().map(|g| update_sg_wakeup_stats(&MC, g, &cpus)).collect();
    assert_eq!(
        s.iter().map(|s| (s.group_type, s.avg_load)).collect::<Vec<_>>(),
        [(GroupType::Overloaded, 2048), (GroupType::Overloaded, 1536), (GroupType::Overloaded, 1024)]
    );
    // A beats the starting point (overloaded at UINT_MAX), B beats A; an equal avg_load keeps the first.
    assert!(update_pick_idlest(&no_idlest(), &s[1]) && update_pick_idlest(&s[1], &s[2]));
    assert!(!update_pick_idlest(&s[2], &s[2]));
    // Local 2048 against B 1024: 1024 < 2048 + 174 and 204,800 > 117 · 1024 = 119,808: B.
    assert_eq!(find_dst_group(&MC, &groups, &cpus, 0, None), Some(2));
    // A fully busy remote group beats any overloaded one by type, and a local group busier by type leaves at
    // once (10924): B as two hogs (fully busy, avg_load 1024) even beside a lighter overloaded A.
    let cpus = [two(2048), two(2048), two(600), hog(300), hog(1024), hog(1024)];
    assert_eq!(update_sg_wakeup_stats(&MC, &groups[1], &cpus).avg_load, 450);
    assert_eq!(find_dst_group(&MC, &groups, &cpus, 0, None), Some(2));
}

/// fair.c 10835–10847 and 11013–11020: groups with spare capacity are
/// compared by idle CPUs, then by util.
#[test]
fn a_spare_group_with_more_idle_cpus_is_chosen() {
    // Local {0, 1}: a hog and an idle CPU (1 task < 2 CPUs: spare, 1 idle). Remote {2, 3}: 2 idle: more.
    let groups = [group(&[0, 1]), group(&[2, 3])];
    assert_eq!(find_dst_group(&MC, &groups, &[hog(1024), idle(), idle(), idle()], 0, None), Some(1));
    // Remote {2, 3} with one idle CPU: local's 1 ≥ 1, stay.
    assert_eq!(find_dst_group(&MC, &groups, &[hog(1024), idle(), hog(1024), idle()], 0, None), None);
    // Two remote groups with one idle CPU each: A's util 1024, B's 300 (a light task): B. Local {0, 1} is
    // fully busy (two hogs), busier by type than B: B.
    let small = WakeupCpu { load: 300, util_avg: 300, runnable: 300, ..hog(300) };
    let cpus = [hog(1024), hog(1024), hog(1024), idle(), small, idle()];
    let groups = [group(&[0, 1]), group(&[2, 3]), group(&[4, 5])];
    let (a, b) = (update_sg_wakeup_stats(&MC, &groups[1], &cpus), update_sg_wakeup_stats(&MC, &groups[2], &cpus));
    assert_eq!((a.idle_cpus, a.group_util, b.idle_cpus, b.group_util), (1, 1024, 1, 300));
    assert!(update_pick_idlest(&a, &b) && !update_pick_idlest(&b, &a));
    assert_eq!(find_dst_group(&MC, &groups, &cpus, 0, None), Some(2));
}

/// fair.c 10971–11011: at a NUMA domain with spare capacity on both sides,
/// the task stays on its node while `adjust_numa_imbalance` forgives the
/// difference in idle CPUs: at most NUMA_IMBALANCE_MIN (2), the local node
/// running at most `imb_numa_nr` tasks with the new one. Two nodes of four
/// CPUs, `sd->imb_numa_nr` 4.
#[test]
fn numa_keeps_a_fork_local_below_imb_numa_nr() {
    let groups = [group(&[0, 1, 2, 3]), group(&[4, 5, 6, 7])];
    let node1 = WakeupCpu { node: 1, ..idle() };
    let with_busy = |n: usize| {
        let mut c = [idle(), idle(), idle(), idle(), node1, node1, node1, node1];
        c[..n].fill(hog(1024));
        c
    };
    // Two busy locally: 2 idle against 4; |2 − 4| = 2 ≤ 2 and 2 + 1 = 3 ≤ min(4 allowed locally, 4): stay.
    // Without SD_NUMA, 2 < 4 idle CPUs: the remote node.
    assert_eq!(find_dst_group(&NUMA, &groups, &with_busy(2), 0, None), None);
    assert_eq!(find_dst_group(&MC, &groups, &with_busy(2), 0, None), Some(1));
    // Three busy: |1 − 4| = 3 > 2, not forgiven (3 + 1 = 4 ≤ 4 notwithstanding): the remote node.
    assert_eq!(find_dst_group(&NUMA, &groups, &with_busy(3), 0, None), Some(1));
    // Pinned to {0, 1, 4, 5} (10997–11002): local sums {0, 1}: 2 tasks, 0 idle (still spare: 2 < 4 CPUs);
    // remote sums {4, 5}: 2 idle. |0 − 2| = 2, but imb_numa_nr is min(2 allowed locally, 4) = 2 and
    // 2 + 1 = 3 > 2: not forgiven; 0 < 2 idle: the remote node. With imb_numa_nr 4 it would have stayed.
    let mut pinned = with_busy(2);
    for c in [2, 3, 6, 7] {
        pinned[c].allowed = false;
    }
    assert_eq!(find_dst_group(&NUMA, &groups, &pinned, 0, None), Some(1));
    // NUMA balancing's preference (10981–10986): this CPU's node preferred, stay; the idlest's first CPU's
    // node preferred, go, before the allowance is asked.
    assert_eq!(find_dst_group(&NUMA, &groups, &pinned, 0, Some(0)), None);
    assert_eq!(find_dst_group(&NUMA, &groups, &with_busy(2), 0, Some(1)), Some(1));
    // A preferred node on neither side (7) falls through to the allowance: both nodes idle, |4 − 4| = 0
    // is forgiven, stay.
    assert_eq!(find_dst_group(&NUMA, &groups, &with_busy(0), 0, Some(7)), None);
}

/// fair.c 10876–10879, 10905–10911: a group with no CPU the task may use
/// is skipped; a local group so skipped leaves the idlest unchallenged.
#[test]
fn a_group_the_task_may_not_use_is_skipped() {
    // Local {0, 1} fully busy; A {2, 3} idle; B {4, 5} one idle CPU. All allowed: A.
    let groups = [group(&[0, 1]), group(&[2, 3]), group(&[4, 5])];
    let mut cpus = [hog(1024), hog(1024), idle(), idle(), hog(1024), idle()];
    assert_eq!(find_dst_group(&MC, &groups, &cpus, 0, None), Some(1));
    // Not allowed on A: B.
    cpus[2].allowed = false;
    cpus[3].allowed = false;
    assert_eq!(find_dst_group(&MC, &groups, &cpus, 0, None), Some(2));
    // Allowed only on B: B even beside an idle local group, which is never compared.
    let mut cpus = [idle(), idle(), idle(), idle(), hog(1024), idle()];
    for c in &mut cpus[..4] {
        c.allowed = false;
    }
    assert_eq!(find_dst_group(&MC, &groups, &cpus, 0, None), Some(2));
    // Allowed only locally: no idlest, stay.
    let mut cpus = [hog(1024), idle(), idle(), idle(), idle(), idle()];
    for c in &mut cpus[2..] {
        c.allowed = false;
    }
    assert_eq!(find_dst_group(&MC, &groups, &cpus, 0, None), None);
}

/// fair.c 7341–7380, 8105–8207, 10702–10738: the task's share comes off
/// only the CPU it is accounted on, and never below 0.
#[test]
fn the_task_is_taken_off_its_own_cpu_only_and_not_below_zero() {
    // An exec'ing task, running (so queued): h_load 300, util 200, util_est 250, runnable 350.
    let p = TaskHere { h_load: 300, util: 200, util_est: 250, runnable: 350, queued: true, running: true };
    let cpu = WakeupCpu { load: 1000, util_avg: 600, util_est: 700, runnable: 1200, ..hog(1000) };
    let own = WakeupCpu { task: Some(p), ..cpu };
    // Its own CPU: load 1000 − 300 = 700, runnable 1200 − 350 = 850, util max(600 − 200, 700 − 250) = 450.
    assert_eq!((cpu_load_without(&own), cpu_runnable_without(&own), cpu_util_without(&own)), (700, 850, 450));
    // Another CPU: untouched, util max(600, 700) = 700 (cpu_util_cfs).
    assert_eq!((cpu_load_without(&cpu), cpu_runnable_without(&cpu), cpu_util_without(&cpu)), (1000, 1200, 700));
    // A CPU carrying less than the task (lsub_positive): 0, not a wrap.
    let thin = WakeupCpu { load: 100, util_avg: 150, util_est: 100, runnable: 100, task: Some(p), ..hog(100) };
    assert_eq!((cpu_load_without(&thin), cpu_runnable_without(&thin), cpu_util_without(&thin)), (0, 0, 0));
    // util is capped at the CPU's capacity: max(1100 − 200, 1400 − 250) = 1150 → 1024.
    let hot = WakeupCpu { util_avg: 1100, util_est: 1400, task: Some(p), ..cpu };
    assert_eq!(cpu_util_without(&hot), 1024);
    // Blocked, not queued nor running: its util_avg still comes off, its util_est (not in the CPU's) does not:
    // max(600 − 200, 700) = 700; it is not counted in nr_running (task_running_on_cpu 0).
    let asleep = WakeupCpu { task: Some(TaskHere { queued: false, running: false, ..p }), ..cpu };
    assert_eq!((cpu_util_without(&asleep), task_running_on_cpu(&asleep)), (700, 0));

    // In a group {0, 1}: CPU 0 runs only the exec'ing task, CPU 1 a hog. Without the task CPU 0 runs
    // nothing and its current task is p: idle (10776). Sums: load 0 + 1024, 1 task, 1 idle CPU.
    let g = group(&[0, 1]);
    let alone = WakeupCpu { task: Some(p), curr_idle: false, ..hog(300) };
    let s = update_sg_wakeup_stats(&MC, &g, &[alone, hog(1024)]);
    assert_eq!((s.group_load, s.sum_nr_running, s.sum_h_nr_running, s.idle_cpus), (1024, 1, 1, 1));
    // A wakeup pending for CPU 0 keeps it from counting idle (10735).
    let pending = WakeupCpu { ttwu_pending: true, ..alone };
    assert_eq!(update_sg_wakeup_stats(&MC, &g, &[pending, hog(1024)]).idle_cpus, 0);
    // A forked task has no share anywhere: the parent's CPU keeps all it has (load 300, 1 task, busy).
    let s = update_sg_wakeup_stats(&MC, &g, &[hog(300), hog(1024)]);
    assert_eq!((s.group_load, s.sum_nr_running, s.idle_cpus), (1324, 2, 0));
}

/// fair.c 10791 and 10812–10832, 10959–10963: a group whose pinned tasks
/// kept the balancer from it (`sgc->imbalance`) is imbalanced here too; one
/// imbalanced group never displaces another, and two never move the task.
#[test]
fn imbalanced_groups_win_over_overloaded_ones_but_never_draw_the_task() {
    let mut groups = [group(&[0, 1]), group(&[2, 3]), group(&[4, 5])];
    groups[1].facts.sgc_imbalance = true;
    // Local overloaded (four hogs), A imbalanced (two hogs), B overloaded: A by type.
    let cpus = [two(2048), two(2048), hog(1024), hog(1024), two(1024), hog(1024)];
    assert_eq!(find_dst_group(&MC, &groups, &cpus, 0, None), Some(1));
    // Local imbalanced as well: same type, stay.
    groups[0].facts.sgc_imbalance = true;
    let cpus = [hog(1024), hog(1024), hog(1024), hog(1024), two(1024), hog(1024)];
    assert_eq!(find_dst_group(&MC, &groups, &cpus, 0, None), None);
    let s = update_sg_wakeup_stats(&MC, &groups[1], &cpus);
    assert!(!update_pick_idlest(&s, &s));
}

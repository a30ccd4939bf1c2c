//! Linux 6.12's PELT worked by hand (kernel/sched/pelt.c, pelt.h; util_est in
//! fair.c). Each expected figure is derived in the comment beside it from the
//! kernel's definitions, not read back from this module.

use super::*;

/// 1024 × 1024 ns: one PELT period.
const PERIOD_NS: u64 = 1 << 20;

#[test]
fn decay_load_halves_per_32_periods_and_multiplies_in_96_bits() {
    // 32 periods: one shift (512), then y^0 = (2^32 − 1)/2^32 takes one off: 511 (decay_load, pelt.c).
    assert_eq!(decay_load(1024, 32), 511);
    // n = 0 is not special in 6.12 (4.1.15 returned val): 1024 · (2^32 − 1) / 2^32 = 1023.
    assert_eq!(decay_load(1024, 0), 1023);
    // Past 63 half-lives: 0.
    assert_eq!(decay_load(u64::MAX, 63 * 32 + 1), 0);
    // mul_u64_u32_shr keeps the 96-bit product: 2^40 · 0xfa83b2da / 2^32 = 0xfa83b2da · 2^8, where a
    // 64-bit product (4.1.15's) would wrap.
    assert_eq!(decay_load(1 << 40, 1), 0xfa83b2da << 8);
}

#[test]
fn segments_of_one_period_are_d1_decayed_plus_d3() {
    // __accumulate_pelt_segments(1, 1024, 0): c1 = 1024 · y = 1002; c2 = 47742 − 47742 · y − 1024
    // = 47742 − 46718 − 1024 = 0 (no whole period between); c3 = 0.
    assert_eq!(accumulate_pelt_segments(1, 1024, 0), 1002);
    // Two periods: c2 is the one whole period between, 1024 · y = 47742 − 47742·y² − 1024
    // = 47742 − 45717 − 1024 = 1001 (y² = 0xf5257d14 / 2^32); c1 = 100 · y² = 95; c3 = 7.
    assert_eq!(accumulate_pelt_segments(2, 100, 7), 95 + 1001 + 7);
}

#[test]
fn a_task_running_one_period_from_nothing() {
    // __update_load_avg_se after 1 ms-period of running: delta = 2^20 ns >> 10 = 1024 units, one period
    // crossed with d1 = 1024, d3 = 0: contrib = 1002. load_sum = 1 · 1002; runnable_sum and util_sum
    // = 1002 << 10. Divider = LOAD_AVG_MAX − 1024 + 0 = 46718: load_avg = 1024 · 1002 / 46718 = 21;
    // runnable_avg = util_avg = 1026048 / 46718 = 21.
    let mut sa = SchedAvg::default();
    assert!(update_se(PERIOD_NS, &mut sa, true, 1, true, 1024, true));
    assert_eq!((sa.load_sum, sa.runnable_sum, sa.util_sum), (1002, 1002 << 10, 1002 << 10));
    assert_eq!((sa.load_avg, sa.runnable_avg, sa.util_avg), (21, 21, 21));
    assert_eq!((sa.period_contrib, sa.last_update_time), (0, PERIOD_NS));
}

#[test]
fn within_a_period_the_sums_grow_and_the_averages_wait() {
    // 500 units (512,000 ns): no period crossed, contrib = 500, period_contrib = 500; ___update_load_sum
    // returns 0, so ___update_load_avg is not run.
    let mut sa = SchedAvg::default();
    assert!(!update_se(500 << 10, &mut sa, true, 1, true, 1024, true));
    assert_eq!((sa.load_sum, sa.util_sum, sa.period_contrib), (500, 500 << 10, 500));
    assert_eq!(sa.load_avg, 0);
    // 600 units more: 500 + 600 = 1100 = one period and 76. The old sums decay by y: 500 · y = 489,
    // (500 << 10) · y = 501,028; contrib = d1 · y + 0 + d3 with d1 = 1024 − 500 = 524: 512 + 76 = 588.
    // load_sum = 489 + 588 = 1077; util_sum = 501,028 + (588 << 10) = 1,103,140. Divider = 46718 + 76:
    // load_avg = 1024 · 1077 / 46794 = 23; util_avg = 1,103,140 / 46794 = 23.
    assert!(update_se(1100 << 10, &mut sa, true, 1, true, 1024, true));
    assert_eq!((sa.load_sum, sa.util_sum, sa.period_contrib), (1077, 1_103_140, 76));
    assert_eq!((sa.load_avg, sa.util_avg), (23, 23));
    // Blocked for 32 periods (__update_load_avg_blocked_se): 76 + 32768 units = 32 periods and 76 again,
    // so the divider stays 46794. Sums: 1077 >> 1 = 538, · y^0 → 537; 1,103,140 >> 1 = 551,570 → 551,569.
    // load_avg = 1024 · 537 / 46794 = 11; util_avg = 551,569 / 46794 = 11.
    assert!(update_blocked_se((1100 << 10) + 32 * PERIOD_NS, &mut sa, 1024));
    assert_eq!((sa.load_sum, sa.util_sum), (537, 551_569));
    assert_eq!((sa.load_avg, sa.util_avg), (11, 11));
}

#[test]
fn a_runqueue_weighs_its_load_but_not_its_util() {
    // __update_load_avg_cfs_rq with two nice-0 tasks queued, one running, for one period: load (the
    // weight scaled down) = 2048, runnable = 2: load_sum = 2048 · 1002 = 2,052,096; runnable_sum =
    // (2 · 1002) << 10; util_sum = 1002 << 10. ___update_load_avg(sa, 1): load_avg = 2,052,096 / 46718
    // = 43; runnable_avg = 43; util_avg = 21.
    let mut sa = SchedAvg::default();
    assert!(update_cfs_rq(PERIOD_NS, &mut sa, 2048, 2, true));
    assert_eq!((sa.load_avg, sa.runnable_avg, sa.util_avg), (43, 43, 21));
}

#[test]
fn an_always_running_task_converges_to_its_weight_and_a_whole_cpu() {
    // The sums tend to LOAD_AVG_MAX · y + period_contrib = the divider (pelt.h's get_pelt_divider
    // comment), so the averages tend to weight and 1024, from below by the truncations.
    let mut sa = SchedAvg::default();
    for ms in 1..=2000u64 {
        update_se(ms * 1_000_000, &mut sa, true, 1, true, 1024, false);
    }
    assert!((1000..=1024).contains(&sa.load_avg), "load_avg {}", sa.load_avg);
    assert!((1000..=1024).contains(&sa.util_avg), "util_avg {}", sa.util_avg);
}

#[test]
fn time_going_backwards_only_moves_the_stamp() {
    let mut sa = SchedAvg { last_update_time: 5 << 20, load_sum: 7, ..SchedAvg::default() };
    assert!(!update_load_sum(1 << 20, &mut sa, 1, 1, true));
    assert_eq!((sa.last_update_time, sa.load_sum), (1 << 20, 7));
}

#[test]
fn util_est_follows_growth_at_once_and_shrinking_by_a_quarter() {
    let sample = |est: u32, util: u64, runnable: u64| {
        let mut sa = SchedAvg { util_est: est, util_avg: util, runnable_avg: runnable, ..SchedAvg::default() };
        util_est_update(&mut sa, true, 1024);
        sa.util_est
    };
    // Grown: the estimate is the new utilization (ewma <= dequeued).
    assert_eq!(sample(200, 300, 300), 300 | UTIL_AVG_UNCHANGED);
    // Shrunk by 200 with no waiting: ewma = (400 · 4 − 200) / 4 = 350.
    assert_eq!(sample(400, 200, 205), 350 | UTIL_AVG_UNCHANGED);
    // Shrunk by less than the margin (1024 / 100 = 10): kept.
    assert_eq!(sample(400, 391, 391), 400 | UTIL_AVG_UNCHANGED);
    // It waited (runnable 300 > 200 + 10): it did not get the CPU it wanted, kept.
    assert_eq!(sample(400, 200, 300), 400 | UTIL_AVG_UNCHANGED);
    // util_avg unchanged since the last sample (the flag still set): nothing.
    assert_eq!(sample(400 | UTIL_AVG_UNCHANGED, 100, 100), 400 | UTIL_AVG_UNCHANGED);
    // Not a sleep (a migration's dequeue): nothing.
    let mut sa = SchedAvg { util_est: 400, util_avg: 100, runnable_avg: 100, ..SchedAvg::default() };
    util_est_update(&mut sa, false, 1024);
    assert_eq!(sa.util_est, 400);
}

#[test]
fn util_est_flag_clears_when_util_avg_moves_and_runqueue_sums_follow() {
    // cfs_se_util_change: an update that recomputed util_avg clears the flag.
    let mut task = SchedAvg { util_est: 300 | UTIL_AVG_UNCHANGED, ..SchedAvg::default() };
    assert!(update_se(PERIOD_NS, &mut task, true, 1, true, 1024, true));
    assert_eq!(task.util_est, 300);
    // util_est_enqueue / _dequeue on the root: + 300, then − 300, never below 0.
    let mut rq = SchedAvg::default();
    util_est_enqueue(&mut rq, &task);
    assert_eq!(rq.util_est, 300);
    util_est_dequeue(&mut rq, &task);
    util_est_dequeue(&mut rq, &task);
    assert_eq!(rq.util_est, 0);
    // task_util_est: the larger of util_avg (21 here) and the estimate.
    assert_eq!(task_util_est(&task), 300);
}

//! Hand-worked cases of 6.12's load tracking between levels (fair.c).

use super::*;

fn rq_with(period_contrib: u32, lut: u64) -> CfsRqAvg {
    let mut cfs = CfsRqAvg::default();
    cfs.avg.period_contrib = period_contrib;
    cfs.avg.last_update_time = lut;
    cfs
}

/// attach_entity_load_avg (fair.c 4766): divider 46718 + 500 = 47218; the
/// sums are the averages times it, the load sum unweighted (÷ 1024).
#[test]
fn attach_aligns_the_window_and_rebuilds_the_sums() {
    let mut cfs = rq_with(500, 7 << 20);
    let mut se =
        SchedAvg { load_avg: 1024, util_avg: 512, runnable_avg: 512, last_update_time: 3, ..SchedAvg::default() };
    attach_entity_load_avg(&mut cfs, &mut se, 1024);
    assert_eq!((se.last_update_time, se.period_contrib), (7 << 20, 500));
    assert_eq!(se.util_sum, 512 * 47218);
    assert_eq!(se.runnable_sum, 512 * 47218);
    assert_eq!(se.load_sum, 47218);
    assert_eq!((cfs.avg.load_avg, cfs.avg.load_sum), (1024, 1024 * 47218));
    assert_eq!((cfs.avg.util_avg, cfs.avg.runnable_avg), (512, 512));
    assert!(cfs.propagate);
    assert_eq!(cfs.prop_runnable_sum, 47218);
    // And a detach takes back exactly that.
    detach_entity_load_avg(&mut cfs, &se, 1024);
    assert_eq!((cfs.avg.load_avg, cfs.avg.load_sum, cfs.avg.util_avg, cfs.avg.util_sum), (0, 0, 0, 0));
    assert_eq!(cfs.prop_runnable_sum, 0);
}

/// A load_avg too small for its weight keeps a load_sum of 1 (fair.c 4796–4799).
#[test]
fn attach_of_a_tiny_load_keeps_a_sum_of_one() {
    let mut cfs = rq_with(0, 0);
    let mut se = SchedAvg::default();
    attach_entity_load_avg(&mut cfs, &mut se, 1024);
    assert_eq!(se.load_sum, 1);
    assert_eq!(cfs.avg.load_sum, 1024);
}

/// update_cfs_rq_load_avg (fair.c 4695): removed load, util and runnable come
/// off the averages and, at the divider, off the sums; the removed runnable
/// is propagated as a negative load_sum (× divider >> 10).
#[test]
fn removed_load_comes_off_at_the_next_update() {
    let mut cfs = rq_with(0, 1 << 20);
    let divider = PELT_MIN_DIVIDER;
    cfs.avg.load_avg = 2048;
    cfs.avg.load_sum = 2048 * divider;
    cfs.avg.util_avg = 600;
    cfs.avg.util_sum = (600 * divider) as u32;
    cfs.avg.runnable_avg = 700;
    cfs.avg.runnable_sum = 700 * divider;
    cfs.removed = Removed { nr: 1, load_avg: 1024, util_avg: 100, runnable_avg: 300 };
    let rq = RqLoad { weight: 0, runnable: 0, running: false };
    // Same instant: nothing decays, only the removal.
    assert!(update_cfs_rq_load_avg(1 << 20, &mut cfs, rq));
    assert_eq!(cfs.removed, Removed::default());
    assert_eq!((cfs.avg.load_avg, cfs.avg.load_sum), (1024, 1024 * divider));
    assert_eq!((cfs.avg.util_avg, cfs.avg.util_sum), (500, (500 * divider) as u32));
    assert_eq!((cfs.avg.runnable_avg, cfs.avg.runnable_sum), (400, 400 * divider));
    assert_eq!(cfs.prop_runnable_sum, -((300 * divider) as i64) >> 10);
    assert_eq!(cfs.prop_runnable_sum, -13687);
}

/// The floor after a subtraction is `max_t(u32, …)`: a load_sum past 2^32
/// (a hundred nice-0 tasks at full load) is cut to 32 bits by it.
#[test]
fn the_sum_floor_cuts_to_32_bits_as_max_t_u32_does() {
    let mut cfs = CfsRqAvg::default();
    cfs.avg.load_avg = 101 * 1024;
    cfs.avg.load_sum = 101 * 1024 * 47000;
    let se = SchedAvg { load_avg: 1024, load_sum: 47000, ..SchedAvg::default() };
    dequeue_load_avg(&mut cfs, &se, 1024);
    let exact = 100 * 1024 * 47000u64;
    assert!(exact > u64::from(u32::MAX));
    assert_eq!(cfs.avg.load_sum, u64::from((exact as u32).max((100 * 1024 * PELT_MIN_DIVIDER) as u32)));
}

/// calc_group_shares (fair.c 4033): load = max(1024, 512); the group's
/// sum 2048, less this runqueue's last contribution 512, plus its load
/// 1024: 2560. 1024 × 1024 / 2560 = 409.
#[test]
fn group_shares_follow_this_cpus_part_of_the_groups_load() {
    let mut g = CfsRqAvg::default();
    g.avg.load_avg = 512;
    g.tg_load_avg_contrib = 512;
    assert_eq!(calc_group_shares(1024, &g, 1024, 2048), 409);
    // Alone in the group: all the shares; nothing anywhere: the floor.
    assert_eq!(calc_group_shares(1024, &g, 1024, 512), 1024);
    let empty = CfsRqAvg::default();
    assert_eq!(calc_group_shares(1024, &empty, 0, 0), MIN_SHARES);
}

/// update_tg_load_avg (fair.c 4214): at most once a millisecond, and only
/// for a change beyond 1/64 of the last contribution.
#[test]
fn the_group_sum_moves_by_deltas_at_most_once_a_millisecond() {
    let mut cfs = CfsRqAvg::default();
    let mut tg = 0i64;
    cfs.avg.load_avg = 640;
    update_tg_load_avg(&mut cfs, &mut tg, 5_000_000);
    assert_eq!((tg, cfs.tg_load_avg_contrib, cfs.last_update_tg_load_avg), (640, 640, 5_000_000));
    cfs.avg.load_avg = 700;
    update_tg_load_avg(&mut cfs, &mut tg, 5_500_000);
    assert_eq!(tg, 640, "within the millisecond");
    cfs.avg.load_avg = 650;
    update_tg_load_avg(&mut cfs, &mut tg, 6_000_000);
    assert_eq!(tg, 640, "10 is not beyond 640/64");
    cfs.avg.load_avg = 651;
    update_tg_load_avg(&mut cfs, &mut tg, 6_000_000);
    assert_eq!((tg, cfs.tg_load_avg_contrib), (651, 651));
}

/// propagate_entity_load_avg (fair.c 4524): a task of load_sum 20000
/// attached below; the group entity (weight 512, load_sum 10000, util_sum
/// 3 × 2^20) takes 10000 + 20000 = 30000, above its running 3072, so its
/// load_avg is 512 × 30000 / 46718 = 328.
#[test]
fn an_attach_below_reaches_the_group_entity_and_its_runqueue() {
    let mut parent = CfsRqAvg::default();
    parent.avg.load_avg = 200;
    parent.avg.load_sum = 512 * 10000;
    let mut se = SchedAvg { load_sum: 10000, load_avg: 109, util_sum: 3 << 20, util_avg: 67, ..SchedAvg::default() };
    let mut gavg = CfsRqAvg::default();
    gavg.avg.util_avg = 300;
    gavg.avg.runnable_avg = 0;
    add_tg_cfs_propagate(&mut gavg, 20000);
    let mut g = GroupRq { avg: &mut gavg, weight: 1024 };
    assert!(propagate_entity_load_avg(&mut parent, &mut se, 512, &mut g));
    assert!(!gavg.propagate);
    assert_eq!(gavg.prop_runnable_sum, 0);
    assert!(parent.propagate);
    assert_eq!(parent.prop_runnable_sum, 20000);
    // util: the entity takes its runqueue's 300, the parent gains 233.
    assert_eq!(se.util_avg, 300);
    assert_eq!(se.util_sum, (300 * PELT_MIN_DIVIDER) as u32);
    assert_eq!(parent.avg.util_avg, 233);
    // load.
    assert_eq!((se.load_sum, se.load_avg), (30000, 512 * 30000 / PELT_MIN_DIVIDER));
    assert_eq!(se.load_avg, 328);
    assert_eq!(parent.avg.load_avg, 200 + 328 - 109);
    // The parent's sum gains 512 × 20000 but keeps the floor of its new
    // average: 419 × 46718 (update_tg_cfs_load's max_t).
    assert_eq!(parent.avg.load_sum, 419 * PELT_MIN_DIVIDER);
}

/// A detach below is estimated from the group runqueue's load per unit of
/// weight, never more than the entity had: min(10000, 2048·4000/2048 = 4000).
#[test]
fn a_detach_below_estimates_the_groups_remaining_runnable_time() {
    let mut parent = CfsRqAvg::default();
    let mut se = SchedAvg { load_sum: 10000, load_avg: 219, ..SchedAvg::default() };
    let mut gavg = CfsRqAvg::default();
    gavg.avg.load_sum = 2048 * 4000;
    add_tg_cfs_propagate(&mut gavg, -5000);
    let mut g = GroupRq { avg: &mut gavg, weight: 2048 };
    propagate_entity_load_avg(&mut parent, &mut se, 1024, &mut g);
    assert_eq!(se.load_sum, 4000);
    assert_eq!(se.load_avg, 1024 * 4000 / PELT_MIN_DIVIDER);
}

/// post_init_entity_util_avg (fair.c 1100): util per load × weight, capped
/// at half the unused capacity.
#[test]
fn a_new_tasks_utilization_is_extrapolated_and_capped() {
    let mut cfs = CfsRqAvg::default();
    cfs.avg.util_avg = 100;
    cfs.avg.load_avg = 2047;
    let mut se = init_entity_runnable_average(1024, true);
    assert_eq!(se.load_avg, 1024);
    post_init_entity_util_avg(&cfs, &mut se, 1024);
    assert_eq!((se.util_avg, se.runnable_avg), (50, 50));
    cfs.avg.util_avg = 512;
    cfs.avg.load_avg = 1024;
    let mut se = init_entity_runnable_average(1024, true);
    post_init_entity_util_avg(&cfs, &mut se, 1024);
    assert_eq!(se.util_avg, 256, "512·1024/1025 = 511, capped at (1024 − 512)/2");
    // An idle runqueue: half a CPU. A saturated one: nothing.
    let mut se = SchedAvg::default();
    post_init_entity_util_avg(&CfsRqAvg::default(), &mut se, 1024);
    assert_eq!(se.util_avg, 512);
    cfs.avg.util_avg = 1024;
    let mut se = SchedAvg::default();
    post_init_entity_util_avg(&cfs, &mut se, 1024);
    assert_eq!(se.util_avg, 0);
    assert_eq!(init_entity_runnable_average(1024, false).load_avg, 0);
}

/// update_load_avg with DO_ATTACH on a task never tracked here (lut 0)
/// attaches it and asks for the group sum's update; without a change it
/// does not.
#[test]
fn update_load_avg_attaches_a_migrated_task_once() {
    let mut cfs = rq_with(0, 1 << 20);
    let mut se = SchedAvg { load_avg: 1024, ..SchedAvg::default() };
    let rq = RqLoad { weight: 0, runnable: 0, running: false };
    let s = SeLoad { on_rq: false, runnable: 0, running: false, weight: 1024 };
    assert!(update_load_avg(1 << 20, &mut cfs, rq, &mut se, s, None, UPDATE_TG | DO_ATTACH));
    assert_eq!(se.last_update_time, 1 << 20);
    assert_eq!(cfs.avg.load_avg, 1024);
    // Attached now: the same call changes nothing (no time passed).
    assert!(!update_load_avg(1 << 20, &mut cfs, rq, &mut se, s, None, UPDATE_TG | DO_ATTACH));
    assert_eq!(cfs.avg.load_avg, 1024);
}

/// remove_entity_load_avg (fair.c 4911): aged to the runqueue's last update first.
#[test]
fn a_removed_task_is_aged_to_its_runqueues_last_update() {
    let mut cfs = rq_with(0, 32 * 1024 * 1024);
    let mut se =
        SchedAvg { load_sum: 40000, load_avg: 1000, util_sum: 40000 << 10, util_avg: 1000, ..SchedAvg::default() };
    se.last_update_time = 0;
    remove_entity_load_avg(&mut cfs, &mut se, 1024);
    // 32 whole periods (of 1024·1024 ns) later: halved (40000 >> 1, times
    // (2^32 − 1)/2^32), and the average read off the sum at the period's start.
    assert_eq!(se.load_sum, 19999);
    assert_eq!(se.load_avg, 1024 * 19999 / PELT_MIN_DIVIDER);
    assert_eq!(cfs.removed.nr, 1);
    assert_eq!(cfs.removed.load_avg, se.load_avg);
}

//! `calculate_imbalance` and its two calls of `fix_small_imbalance`
//! (Linux 4.1.15, fair.c 6533–6653): when fix_small_imbalance declines to
//! move a task's worth, it leaves `env->imbalance` as it found it. The first
//! call (fair.c 6609–6612) comes after `env->imbalance = 0`; the second
//! (fair.c 6650) comes after the imbalance was computed, which then stands.
//!
//! Hand-worked, two one-CPU groups of capacity 1024:
//! - busiest: 2 tasks of 1024, avg_load 2048, load_per_task 1024;
//! - local: 1 task of 1536, avg_load 1536, load_per_task 1536;
//! - the domain's avg_load (2048 + 1536) / 2 = 1792.
//!
//! max_pull = 2048 − 1792 = 256 (not both overloaded, no capacity cap);
//! imbalance = min(256 × 1024, (1792 − 1536) × 1024) / 1024 = 256, below
//! busiest's load_per_task: fix_small_imbalance. There imbn = 2 (busiest's
//! load per task is not above local's), scaled_busy = 1024, and
//! 2048 + 1024 = 3072 < 1536 + 2 × 1024 = 3584, so no early move;
//! capa_now = (1024 × min(1024, 2048) + 1024 × min(1536, 1536)) / 1024 = 2560;
//! capa_move = (1024 × min(1024, 2048 − 1024) + 1024 × min(1536, 1536 + 1024))
//! / 1024 = 2560, not above capa_now: it declines, and 256 stands.

use super::*;

fn group(tasks: u32, load: u64) -> GroupStats {
    GroupStats {
        avg_load: load,
        group_load: load,
        sum_weighted_load: load,
        load_per_task: load / u64::from(tasks.max(1)),
        group_capacity: SCHED_CAPACITY_SCALE,
        sum_nr_running: tasks,
        group_weight: 1,
        group_type: Some(if tasks > 1 { GroupType::Overloaded } else { GroupType::Other }),
        ..GroupStats::default()
    }
}

#[test]
fn the_second_call_leaves_the_computed_imbalance_when_it_declines() {
    let local = group(1, 1536);
    let mut busiest = group(2, 2048);
    assert_eq!(fix_small_imbalance(&local, &busiest, 0), None, "capa_move 2560 is not above capa_now 2560");
    assert_eq!(calculate_imbalance(&local, &mut busiest, 1792, 0), 256);
}

#[test]
fn the_first_call_leaves_zero_when_it_declines() {
    // The same groups, with the domain's average at busiest's: busiest is not above it, so the kernel
    // zeroes the imbalance and calls fix_small_imbalance, which declines as above.
    let local = group(1, 1536);
    let mut busiest = group(2, 2048);
    assert_eq!(calculate_imbalance(&local, &mut busiest, 2048, 0), 0);
}

#[test]
fn a_move_that_gains_capacity_asks_for_one_task_of_load() {
    // An idle local group (dst_load_per_task 0): imbn 2, 2048 + 1024 ≥ 0 + 2048, so one task's load
    // (1024) moves at once.
    let local = group(0, 0);
    let mut busiest = group(2, 2048);
    assert_eq!(fix_small_imbalance(&local, &busiest, 0), Some(1024));
    assert_eq!(calculate_imbalance(&local, &mut busiest, 2048, 0), 1024);
}

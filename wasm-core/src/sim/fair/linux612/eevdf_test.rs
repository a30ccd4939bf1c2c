//! Debian 6.12.117's EEVDF worked by hand (fair.c: avg_vruntime,
//! vruntime_eligible, entity_lag, pick_eevdf, update_deadline, place_entity,
//! __calc_delta). Each expected figure is derived in its comment.

use super::*;
use crate::sched::weights::{nice_to_weight, nice_to_wmult};

/// A queued nice-`nice` entity at `vruntime` with `deadline`.
fn ent(nice: i32, vruntime: u64, deadline: u64) -> Entity {
    Entity {
        vruntime,
        deadline,
        slice: 3_000_000,
        weight: nice_to_weight(nice),
        inv_weight: nice_to_wmult(nice),
        on_rq: true,
        ..Entity::default()
    }
}

/// A runqueue with `queued` in its timeline and `curr` running.
fn rq_of(ents: &[Entity], queued: &[usize], curr: Option<usize>) -> EevdfRq {
    let mut rq = EevdfRq { curr, nr_running: queued.len() as u32 + u32::from(curr.is_some()), ..EevdfRq::default() };
    for &id in queued {
        enqueue_timeline(&mut rq, ents, id);
    }
    rq
}

#[test]
fn avg_vruntime_is_the_weighted_mean_and_moves_the_zero_onto_it() {
    // Two nice-0 entities at 100 and 300, zero at 0: Σ key·w = 400 · 1024, Σ w = 2048 → V = 200. The
    // zero moves to 200 and the sum is re-based: 409,600 − 2048 · 200 = 0.
    let ents = [ent(0, 100, 10), ent(0, 300, 20)];
    let mut rq = rq_of(&ents, &[0, 1], None);
    assert_eq!(avg_vruntime(&mut rq, &ents), 200);
    assert_eq!((rq.zero_vruntime, rq.avg_vruntime, rq.avg_load), (200, 0, 2048));
    // A negative mean floors toward −∞: entities at 0 and 1 with the zero at 1: keys −1 and 0, Σ = −1024,
    // runtime −1024 − 2047 = −3071, / 2048 = −1 → V = 0 (the mean 0.5 floored), which is eligible.
    let ents = [ent(0, 0, 10), ent(0, 1, 20)];
    let mut rq = EevdfRq { zero_vruntime: 1, nr_running: 2, ..EevdfRq::default() };
    enqueue_timeline(&mut rq, &ents, 0);
    enqueue_timeline(&mut rq, &ents, 1);
    assert_eq!(avg_vruntime(&mut rq, &ents), 0);
    assert!(vruntime_eligible(&rq, &ents, 0));
}

#[test]
fn the_running_entity_counts_in_the_mean_and_alone_is_the_mean() {
    // curr (nice 0) at 400 with 100 and 300 queued: V = 800 / 3 = 266 (floored).
    let ents = [ent(0, 100, 10), ent(0, 300, 20), ent(0, 400, 30)];
    let mut rq = rq_of(&ents, &[0, 1], Some(2));
    assert_eq!(avg_vruntime(&mut rq, &ents), 266);
    // Eligible iff V ≥ v: 100 yes; 300 and 400 no.
    assert!(entity_eligible(&rq, &ents, 0));
    assert!(!entity_eligible(&rq, &ents, 1));
    assert!(!entity_eligible(&rq, &ents, 2));
    // Only curr: the average is curr's vruntime.
    let ents = [ent(0, 5_000, 10)];
    let mut rq = EevdfRq { curr: Some(0), nr_running: 1, ..EevdfRq::default() };
    assert_eq!(avg_vruntime(&mut rq, &ents), 5_000);
}

#[test]
fn calc_delta_shifts_the_factor_into_32_bits() {
    // Nice 5 (weight 335, wmult 12,820,798): fact = 1024 · 12,820,798 = 13,128,497,152, whose high word
    // is 3: fls(3) = 2, shift 32 − 2 = 30, fact >> 2 = 3,282,124,288; 6,000,000 · 3,282,124,288 >> 30
    // = 18,340,298 (exact: 6e6 · 1024 / 335 = 18,340,298.5).
    let se = ent(5, 0, 0);
    assert_eq!(calc_delta_fair(6_000_000, &se), 18_340_298);
    // Nice 0 is not scaled.
    assert_eq!(calc_delta_fair(6_000_000, &ent(0, 0, 0)), 6_000_000);
}

#[test]
fn lag_is_clamped_to_two_slices_of_vruntime() {
    // Slice 3 ms, tick 4 ms: limit = calc_delta_fair(max(6 ms, 4 ms)) = 6,000,000 for nice 0.
    let se = ent(0, 1_000_000, 0);
    assert_eq!(entity_lag(10_000_000, &se, 4_000_000), 6_000_000);
    assert_eq!(entity_lag(0, &Entity { vruntime: 9_000_000, ..se }, 4_000_000), -6_000_000);
    assert_eq!(entity_lag(1_500_000, &se, 4_000_000), 500_000);
    // Nice 5: limit 18,340,298 (as above).
    assert_eq!(entity_lag(30_000_000, &ent(5, 0, 0), 4_000_000), 18_340_298);
}

#[test]
fn pick_is_the_earliest_deadline_among_the_eligible() {
    // Queued A (v 100, d 5000), B (v 0, d 6000), C (v 300, d 4000), nice 0: V = 400/3 = 133. Eligible:
    // A and B. Deadline order C, A, B: the first eligible is A.
    let ents = [ent(0, 100, 5_000), ent(0, 0, 6_000), ent(0, 300, 4_000)];
    let rq = rq_of(&ents, &[0, 1, 2], None);
    assert_eq!(rq.timeline, vec![2, 0, 1]);
    assert_eq!(pick_eevdf(&rq, &ents, Features::default()), Some(0));
}

#[test]
fn run_to_parity_keeps_an_eligible_running_entity_for_its_slice() {
    // curr at v 0 with deadline 9000, picked with its slice protected; B queued at v 0 with the earlier
    // deadline 5000. V = 0: both are eligible.
    let mut ents = [ent(0, 0, 9_000), ent(0, 0, 5_000)];
    set_protect_slice(&mut ents[0]);
    let rq = rq_of(&ents, &[1], Some(0));
    // RUN_TO_PARITY: curr keeps the CPU although B's deadline is earlier.
    assert_eq!(pick_eevdf(&rq, &ents, Features::default()), Some(0));
    // Without it, B (earlier deadline, eligible) wins.
    let off = Features { run_to_parity: false, ..Features::default() };
    assert_eq!(pick_eevdf(&rq, &ents, off), Some(1));
    // A deadline renewed since the pick ends the protection (vlag no longer equals it).
    ents[0].deadline = 12_000;
    assert_eq!(pick_eevdf(&rq, &ents, Features::default()), Some(1));
    // One entity: it is picked without checks.
    let one = rq_of(&ents[..1], &[], Some(0));
    assert_eq!(pick_eevdf(&one, &ents[..1], Features::default()), Some(0));
}

#[test]
fn a_used_up_request_gets_the_next_deadline() {
    // vruntime 3,000,000 reached deadline 3,000,000: slice back to base (3 ms), deadline = v + 3 ms.
    let mut ents = [ent(0, 3_000_000, 3_000_000)];
    let mut rq = EevdfRq { curr: Some(0), nr_running: 1, ..EevdfRq::default() };
    assert!(update_deadline(&mut rq, &mut ents, 0, 3_000_000));
    assert_eq!(ents[0].deadline, 6_000_000);
    // Not yet at the deadline: nothing.
    assert!(!update_deadline(&mut rq, &mut ents, 0, 3_000_000));
    // A custom slice (sched_setattr) is kept: 1 ms for a nice-5 task is 1e6 · 1024 / 335 = 3,056,716 of
    // vruntime (calc_delta: 1e6 · 3,282,124,288 >> 30 = 3,056,716).
    let mut ents = [Entity { custom_slice: true, slice: 1_000_000, ..ent(5, 10, 10) }];
    assert!(update_deadline(&mut rq, &mut ents, 0, 3_000_000));
    assert_eq!(ents[0].deadline, 10 + 3_056_716);
}

#[test]
fn placement_preserves_the_lag_through_the_arrival() {
    // One nice-0 entity queued at 1,000,000: V = 1,000,000. A nice-0 entity arrives with vlag 600: the lag
    // is inflated by (W + w) / W = 2048 / 1024 → 1200, so v = 998,800; deadline v + 3 ms = 3,998,800.
    let mut ents = [ent(0, 1_000_000, 4_000_000), Entity { vlag: 600, ..ent(0, 0, 0) }];
    let mut rq = rq_of(&ents, &[0], None);
    place_entity(&mut rq, &mut ents, 1, false, 3_000_000, Features::default());
    assert_eq!((ents[1].vruntime, ents[1].deadline), (998_800, 3_998_800));
    // Once queued, V = (1,000,000 + 998,800) / 2 = 999,400 and its lag V − v is the 600 it left with.
    enqueue_timeline(&mut rq, &ents, 1);
    rq.nr_running += 1;
    let v = avg_vruntime(&mut rq, &ents);
    assert_eq!(entity_lag(v, &ents[1], 1_000_000), 600);
}

#[test]
fn a_new_task_starts_half_a_slice_from_its_deadline_and_a_relative_deadline_is_restored() {
    // New (ENQUEUE_INITIAL) on an empty queue: no lag, v = V = 0; deadline 3 ms / 2.
    let mut ents = [ent(0, 0, 0)];
    let mut rq = EevdfRq::default();
    place_entity(&mut rq, &mut ents, 0, true, 3_000_000, Features::default());
    assert_eq!((ents[0].vruntime, ents[0].deadline), (0, 1_500_000));
    // PLACE_REL_DEADLINE: a deadline kept relative (700) is made absolute on the new vruntime.
    let mut ents = [ent(0, 50_000, 0), Entity { rel_deadline: true, deadline: 700, ..ent(0, 0, 0) }];
    let mut rq = rq_of(&ents, &[0], None);
    place_entity(&mut rq, &mut ents, 1, false, 3_000_000, Features::default());
    assert_eq!((ents[1].vruntime, ents[1].deadline, ents[1].rel_deadline), (50_000, 50_700, false));
}

#[test]
fn reweighting_scales_lag_and_deadline_distance_and_keeps_the_mean() {
    // Queued A (nice 0) at 1,000 and B (nice 0) at 3,000 with deadline 9,000: V = 2,000. B becomes nice −5
    // (3121): its lag −1,000 (within the clamp) becomes −1,000 · 1024 / 3121 = −328 (truncated toward 0),
    // so v' = 2,000 + 328 = 2,328; its deadline's distance 7,000 becomes 7,000 · 1024 / 3121 = 2,296:
    // d' = 4,296. V stays but for the lag's truncation: (1,000 · 1024 + 2,328 · 3121) / 4145 = 1,999.92,
    // floored to 1,999.
    let mut ents = [ent(0, 1_000, 5_000), ent(0, 3_000, 9_000)];
    let mut rq = rq_of(&ents, &[0, 1], None);
    reweight_entity(&mut rq, &mut ents, 1, nice_to_weight(-5), nice_to_wmult(-5), 1_000_000);
    assert_eq!((ents[1].vruntime, ents[1].deadline, ents[1].weight), (2_328, 4_296, 3121));
    assert_eq!(rq.avg_load, 1024 + 3121);
    assert_eq!(avg_vruntime(&mut rq, &ents), 1_999);
    // Not queued: the saved lag 900 at weight 1024 becomes 900 · 1024 / 335 = 2,751 at nice 5.
    let mut ents = [Entity { on_rq: false, vlag: 900, ..ent(0, 0, 0) }];
    let mut rq = EevdfRq::default();
    reweight_entity(&mut rq, &mut ents, 0, nice_to_weight(5), nice_to_wmult(5), 1_000_000);
    assert_eq!(ents[0].vlag, 2_751);
}

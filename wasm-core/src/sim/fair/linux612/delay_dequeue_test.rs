//! DELAY_DEQUEUE and DELAY_ZERO worked by hand (Debian 6.12.117 fair.c:
//! `dequeue_entity` 5548–5621, `finish_delayed_dequeue_entity` 5541–5546,
//! `pick_next_entity` 5670–5692, `requeue_delayed_entity` 6984–7009). Nice-0
//! entities (weight 1024), so a virtual time is a real one, slices of 3 ms
//! and a 4 ms tick: no lag below 6 ms is clamped.

use super::*;
use crate::sim::fair::linux612::eevdf::avg_vruntime;

const TICK: u64 = 4_000_000;
const SLICE: u64 = 3_000_000;

fn ent(vruntime: u64, deadline: u64) -> Entity {
    Entity { vruntime, deadline, slice: SLICE, weight: 1024, inv_weight: 4_194_304, on_rq: true, ..Entity::default() }
}

fn rq_of(ents: &[Entity], queued: &[usize]) -> EevdfRq {
    let mut rq = EevdfRq { nr_running: queued.len() as u32, ..EevdfRq::default() };
    for &id in queued {
        enqueue_timeline(&mut rq, ents, id);
    }
    rq
}

const SLEEP: DequeueFlags = DequeueFlags { sleep: true, special: false, delayed: false };

/// B at 1000 and C at 3000: V = 2000. C (lag −1000) sleeps while in debt.
fn c_in_debt() -> (EevdfRq, [Entity; 2]) {
    let ents = [ent(1000, 9000), ent(3000, 5000)];
    (rq_of(&ents, &[0, 1]), ents)
}

#[test]
fn a_sleeper_in_debt_stays_queued_and_an_eligible_one_leaves_with_its_lag() {
    let (mut rq, mut ents) = c_in_debt();
    assert!(!dequeue_entity(&mut rq, &mut ents, 1, SLEEP, TICK, Features::default()));
    // Still queued: on_rq, in the timeline, in nr_running and in V's sums (V stays 2000).
    assert!(ents[1].sched_delayed && ents[1].on_rq);
    assert_eq!((rq.nr_running, rq.timeline.clone()), (2, vec![1, 0]));
    assert_eq!(avg_vruntime(&mut rq, &ents), 2000);
    // B (lag +1000) sleeps: it is eligible, so it leaves at once with vlag = V − v = 1000, and V is C's.
    assert!(dequeue_entity(&mut rq, &mut ents, 0, SLEEP, TICK, Features::default()));
    assert_eq!((ents[0].on_rq, ents[0].vlag, ents[0].sched_delayed), (false, 1000, false));
    assert_eq!(rq.nr_running, 1);
    assert_eq!(avg_vruntime(&mut rq, &ents), 3000);
    // Without DELAY_DEQUEUE C would have left in debt, its lag −1000 saved for its next placement.
    let (mut rq, mut ents) = c_in_debt();
    let off = Features { delay_dequeue: false, ..Features::default() };
    assert!(dequeue_entity(&mut rq, &mut ents, 1, SLEEP, TICK, off));
    assert_eq!((ents[1].on_rq, ents[1].vlag), (false, -1000));
}

#[test]
fn a_move_or_a_special_sleep_is_never_delayed() {
    // A move (no DEQUEUE_SLEEP) keeps its deadline relative to vruntime (PLACE_REL_DEADLINE): 5000 − 3000.
    let (mut rq, mut ents) = c_in_debt();
    assert!(dequeue_entity(&mut rq, &mut ents, 1, DequeueFlags::default(), TICK, Features::default()));
    assert_eq!((ents[1].vlag, ents[1].deadline, ents[1].rel_deadline), (-1000, 2000, true));
    let (mut rq, mut ents) = c_in_debt();
    let special = DequeueFlags { special: true, ..SLEEP };
    assert!(dequeue_entity(&mut rq, &mut ents, 1, special, TICK, Features::default()));
    assert!(!ents[1].sched_delayed);
}

/// C delayed at 3000; then B runs from 1000 to 5000 and goes back: V = (5000 + 3000) / 2 = 4000, C's lag
/// is now +1000 and B's −1000.
fn b_ran_past_c() -> (EevdfRq, [Entity; 2]) {
    let (mut rq, mut ents) = c_in_debt();
    dequeue_entity(&mut rq, &mut ents, 1, SLEEP, TICK, Features::default());
    dequeue_timeline(&mut rq, &ents, 0);
    ents[0].vruntime = 5000;
    enqueue_timeline(&mut rq, &ents, 0);
    (rq, ents)
}

#[test]
fn picking_a_delayed_entity_dequeues_it_without_its_credit() {
    let (mut rq, mut ents) = b_ran_past_c();
    assert_eq!(avg_vruntime(&mut rq, &ents), 4000);
    // EEVDF picks C (the only eligible one, deadline 5000); it is delayed, so it is dequeued: its lag
    // V − v = 1000 is saved, then cut to 0 by DELAY_ZERO. The next pick is B, alone on the queue.
    let f = Features::default();
    assert_eq!(pick_next_entity(&mut rq, &mut ents, TICK, f), Pick::DequeuedDelayed(1));
    assert_eq!((ents[1].on_rq, ents[1].sched_delayed, ents[1].vlag), (false, false, 0));
    assert_eq!((rq.nr_running, rq.timeline.clone()), (1, vec![0]));
    assert_eq!(pick_next_entity(&mut rq, &mut ents, TICK, f), Pick::Run(0));
    // Without DELAY_ZERO the 1000 of credit is kept for its next placement.
    let (mut rq, mut ents) = b_ran_past_c();
    let keep = Features { delay_zero: false, ..f };
    assert_eq!(pick_next_entity(&mut rq, &mut ents, TICK, keep), Pick::DequeuedDelayed(1));
    assert_eq!(ents[1].vlag, 1000);
}

#[test]
fn waking_while_delayed_carries_on_in_debt_or_is_placed_again_without_credit() {
    // Woken before anything moved: lag −1000 is not > 0, so C stays where it was.
    let (mut rq, mut ents) = c_in_debt();
    dequeue_entity(&mut rq, &mut ents, 1, SLEEP, TICK, Features::default());
    requeue(&mut rq, &mut ents, 1);
    assert_eq!((ents[1].vruntime, ents[1].deadline, ents[1].sched_delayed), (3000, 5000, false));
    assert_eq!(rq.nr_running, 2);
    // Woken after B ran past it: lag +1000 > 0. C leaves the sums (V is then B's alone, 5000), is placed
    // there with vlag 0, and gets a fresh deadline a slice ahead: 5000 + 3,000,000.
    let (mut rq, mut ents) = b_ran_past_c();
    requeue(&mut rq, &mut ents, 1);
    assert_eq!((ents[1].vruntime, ents[1].deadline, ents[1].vlag), (5000, 3_005_000, 0));
    assert_eq!((rq.nr_running, rq.timeline.clone(), ents[1].sched_delayed), (2, vec![0, 1], false));
}

/// `requeue_delayed_entity` as the class runs it: the EEVDF part, then the mark cleared.
fn requeue(rq: &mut EevdfRq, ents: &mut [Entity], id: usize) {
    requeue_delayed_place(rq, ents, id, SLICE, TICK, Features::default());
    ents[id].sched_delayed = false;
}

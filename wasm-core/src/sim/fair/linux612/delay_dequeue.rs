//! DELAY_DEQUEUE on one runqueue (Debian 6.12.117, fair.c): a task that goes
//! to sleep while it is not eligible (it has received more than its share,
//! lag < 0) is not taken off its runqueue. It stays queued, in the sums that
//! make V and in `nr_running`, until either it is picked — by then it is
//! eligible, and the pick dequeues it instead of running it — or it wakes
//! first and simply carries on. So a sleep cannot shed negative lag: it is
//! paid off in place. With DELAY_ZERO, positive lag is not kept either: an
//! entity that leaves the delayed state owed time comes back with none.
//!
//! ```text
//!   sleep, eligible ──────────► dequeue_entity: lag saved, off the queue
//!   sleep, not eligible ──────► set_delayed: stays queued (dequeue_entity returns false)
//!      ├── picked (eligible) ─► dequeue_entity(SLEEP|DELAYED): off, lag > 0 cut to 0 (DELAY_ZERO)
//!      └── woken first ───────► requeue_delayed_entity: lag > 0 → placed at V with none; else as it was
//! ```
//!
//! Load tracking, `h_nr_delayed` and the walk up the hierarchy
//! (`dequeue_entities`) are the class's; here is what happens on one runqueue.

use super::eevdf::{
    dequeue_timeline, enqueue_timeline, entity_eligible, pick_eevdf, place_entity, update_entity_lag, EevdfRq, Entity,
    Features,
};

/// `dequeue_entity`'s flags that matter on one runqueue.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DequeueFlags {
    /// DEQUEUE_SLEEP: the task blocks (else it moves, or changes class or group).
    pub sleep: bool,
    /// DEQUEUE_SPECIAL: a special task state that must not see the spurious
    /// wakeup a delayed dequeue relies on; never delayed.
    pub special: bool,
    /// DEQUEUE_DELAYED: finishing the dequeue of a delayed entity.
    pub delayed: bool,
}

/// `dequeue_entity`'s EEVDF part (the caller has charged the running entity:
/// `update_curr`): false if the entity stays queued, delayed.
pub fn dequeue_entity(
    rq: &mut EevdfRq,
    ents: &mut [Entity],
    id: usize,
    flags: DequeueFlags,
    tick_nsec: u64,
    features: Features,
) -> bool {
    if delays(rq, ents, id, flags, features) {
        ents[id].sched_delayed = true;
        return false;
    }
    update_entity_lag(rq, ents, id, tick_nsec);
    if features.place_rel_deadline && !flags.sleep {
        let se = &mut ents[id];
        se.deadline = se.deadline.wrapping_sub(se.vruntime);
        se.rel_deadline = true;
    }
    if rq.curr != Some(id) {
        dequeue_timeline(rq, ents, id);
    }
    ents[id].on_rq = false;
    rq.nr_running -= 1;
    if flags.delayed {
        finish_delayed_dequeue_entity(&mut ents[id], features);
    }
    true
}

/// Whether `dequeue_entity` keeps the entity queued, delayed (fair.c
/// 5556–5574): a sleep that is not special and not the end of a delay, by an
/// entity that is not eligible, with DELAY_DEQUEUE on.
pub fn delays(rq: &EevdfRq, ents: &[Entity], id: usize, flags: DequeueFlags, features: Features) -> bool {
    !flags.delayed && flags.sleep && !flags.special && features.delay_dequeue && !entity_eligible(rq, ents, id)
}

/// `finish_delayed_dequeue_entity`: no longer delayed, and (DELAY_ZERO) no credit kept.
fn finish_delayed_dequeue_entity(se: &mut Entity, features: Features) {
    se.sched_delayed = false;
    if features.delay_zero && se.vlag > 0 {
        se.vlag = 0;
    }
}

/// What `pick_next_entity` did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pick {
    /// This entity runs next.
    Run(usize),
    /// EEVDF chose a delayed entity, which was dequeued instead: pick again.
    DequeuedDelayed(usize),
    /// Nothing is queued.
    Empty,
}

/// `pick_next_entity` without the next buddy (PICK_BUDDY needs NEXT_BUDDY,
/// off by default): EEVDF's choice, unless it is delayed.
pub fn pick_next_entity(rq: &mut EevdfRq, ents: &mut [Entity], tick_nsec: u64, features: Features) -> Pick {
    let Some(id) = pick_eevdf(rq, ents, features) else { return Pick::Empty };
    if ents[id].sched_delayed {
        let flags = DequeueFlags { sleep: true, delayed: true, ..DequeueFlags::default() };
        dequeue_entity(rq, ents, id, flags, tick_nsec, features);
        return Pick::DequeuedDelayed(id);
    }
    Pick::Run(id)
}

/// `requeue_delayed_entity`'s EEVDF part (fair.c 6996–7007), the entity
/// still marked delayed: the class brings its load up to date while it is
/// (a delayed entity is not runnable for PELT) and then clears the mark.
pub fn requeue_delayed_place(
    rq: &mut EevdfRq,
    ents: &mut [Entity],
    id: usize,
    base_slice: u64,
    tick_nsec: u64,
    features: Features,
) {
    if features.delay_zero {
        update_entity_lag(rq, ents, id, tick_nsec);
        if ents[id].vlag > 0 {
            let running = rq.curr == Some(id);
            rq.nr_running -= 1;
            if !running {
                dequeue_timeline(rq, ents, id);
            }
            ents[id].vlag = 0;
            place_entity(rq, ents, id, false, base_slice, features);
            if !running {
                enqueue_timeline(rq, ents, id);
            }
            rq.nr_running += 1;
        }
    }
}

#[cfg(test)]
#[path = "delay_dequeue_test.rs"]
mod delay_dequeue_test;

//! The runqueue view's reading of a 6.12 queue: on hand-built queues its
//! eligibility, lag, zero-lag point and pick are `eevdf.rs`'s (each figure
//! worked in its comment), and on a running machine every queue it reads
//! keeps the identity eligible ⇔ V ≥ v.

use super::*;
use crate::config::{Kernel, ProcessSpec};
use crate::sched::entity::task_ent_id;
use crate::sched::weights::{nice_to_weight, nice_to_wmult};
use crate::sim::test_config::{config, hog};
use crate::sim::Simulator;
use crate::time::{Pid, SimTime};

const TICK: u64 = 1_000_000;

/// A queued nice-`nice` entity at `vruntime` with `deadline` and a 3 ms request.
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

/// One CPU, the root group only, tasks 0.. as `ents`; `queued` in the queue, `curr` running.
fn state(ents: &[Entity], queued: &[usize], curr: Option<usize>) -> State612 {
    let mut st = State612::boot(std::iter::empty(), 1, 1, 1);
    for (i, e) in ents.iter().enumerate() {
        let ix = st.ensure_task(Pid(i as u32));
        st.ents[ix] = *e;
    }
    let rq = &mut st.rqs[0];
    rq.curr = curr;
    rq.nr_running = queued.len() as u32 + u32::from(curr.is_some());
    for &i in queued {
        eevdf::enqueue_timeline(rq, &st.ents, i);
    }
    st
}

fn pid_of(q: &QueuedEntity) -> u32 {
    crate::sched::entity::ent_pid(q.id).0
}

#[test]
fn eligibility_and_lag_are_eevdfs_on_a_hand_built_queue() {
    // curr (nice 0) at 400 runs; queued: nice 0 at 100 (deadline 5,000), nice 5 (weight 335) at 300
    // (deadline 2,000). Σ w = 1024 + 1024 + 335 = 2383, Σ v·w = 400·1024 + 100·1024 + 300·335
    // = 612,500 → V = 257 (257.03 floored). Eligible iff v ≤ V: 100 yes; 300 and 400 no.
    // Lags V − v: 157, −43, −143 (all inside the clamp, 2 · 3 ms of vruntime at least).
    let ents = [ent(0, 100, 5_000), ent(5, 300, 2_000), ent(0, 400, 3_000)];
    let st = state(&ents, &[0, 1], Some(2));
    let q = queue_of(&st, 0, CpuId(0), TICK).expect("the root queue");
    assert_eq!(q.avg_vruntime, 257);
    assert_eq!(q.load, 2383);
    assert_eq!(q.nr_running, 3);
    // Deadline order: 300 (2,000) before 100 (5,000).
    let order: Vec<u32> = q.queued.iter().map(pid_of).collect();
    assert_eq!(order, [1, 0]);
    let by_pid = |p: u32| q.queued.iter().chain(&q.curr).find(|e| pid_of(e) == p).expect("listed");
    assert_eq!((by_pid(0).eligible, by_pid(0).vlag), (true, 157));
    assert_eq!((by_pid(1).eligible, by_pid(1).vlag), (false, -43));
    assert_eq!((by_pid(2).eligible, by_pid(2).vlag), (false, -143));
    assert_eq!(pid_of(q.curr.as_ref().expect("curr")), 2);
    // The least waiting vruntime: 100 (curr's 400 left out).
    assert_eq!(q.min_vruntime, Some(100));
    // Each figure is eevdf.rs's own.
    let mut copy = st.rqs[0].clone();
    let v = eevdf::avg_vruntime(&mut copy, &st.ents);
    assert_eq!(v, q.avg_vruntime);
    for e in q.queued.iter().chain(&q.curr) {
        let ix = st.ent_ix(e.id);
        assert_eq!(e.eligible, eevdf::entity_eligible(&st.rqs[0], &st.ents, ix));
        assert_eq!(e.vlag, eevdf::entity_lag(v, &st.ents[ix], TICK));
        assert_eq!(e.eligible, e.vlag >= 0, "eligible ⇔ V ≥ v");
    }
    // The pick: curr is not eligible; the first eligible in deadline order is pid 0 (pid 1 is not eligible).
    assert_eq!(q.pick, Some(task_ent_id(Pid(0))));
    assert_eq!(q.pick.map(|id| st.ent_ix(id)), eevdf::pick_eevdf(&st.rqs[0], &st.ents, st.features));
    // The run's queue is untouched: V was read from a copy.
    assert_eq!(st.rqs[0].zero_vruntime, 0);
}

#[test]
fn the_lag_shown_is_clamped_as_update_entity_lag_saves_it() {
    // A nice-0 entity 20 ms of vruntime behind another: V = 10 ms, the lags ±10 ms clamp to
    // ±max(2 · 3 ms, 1 ms) = ±6 ms.
    let ents = [ent(0, 0, 1_000), ent(0, 20_000_000, 30_000_000)];
    let st = state(&ents, &[0, 1], None);
    let q = queue_of(&st, 0, CpuId(0), TICK).expect("the root queue");
    assert_eq!(q.avg_vruntime, 10_000_000);
    assert_eq!(q.queued[0].vlag, 6_000_000);
    assert_eq!(q.queued[1].vlag, -6_000_000);
    assert!(q.queued[0].eligible && !q.queued[1].eligible);
    assert_eq!(q.curr, None);
    assert_eq!(q.pick, Some(task_ent_id(Pid(0))));
}

#[test]
fn a_protected_running_entity_keeps_the_pick_and_an_eligible_buddy_takes_it() {
    // curr at 100 (deadline 9,000), eligible (V = 150 with a queued entity at 200, deadline 1,000, not
    // eligible): pick_eevdf keeps curr; protected or not, no eligible entity has an earlier deadline.
    let ents = [ent(0, 100, 9_000), ent(0, 200, 1_000), ent(0, 50, 8_000)];
    let mut st = state(&ents, &[1], Some(0));
    eevdf::set_protect_slice(&mut st.ents[0]);
    let q = queue_of(&st, 0, CpuId(0), TICK).expect("the root queue");
    assert_eq!(q.avg_vruntime, 150);
    assert!(q.curr.as_ref().expect("curr").protected);
    assert!(q.run_to_parity);
    assert_eq!(q.pick, Some(task_ent_id(Pid(0))));
    // A third entity at 50 (deadline 8,000) joins: V = 116, it is eligible and its deadline is earlier than
    // curr's, but curr's slice is protected (RUN_TO_PARITY): curr stays the pick.
    let mut st = state(&ents, &[1, 2], Some(0));
    eevdf::set_protect_slice(&mut st.ents[0]);
    let q = queue_of(&st, 0, CpuId(0), TICK).expect("the root queue");
    assert_eq!(q.avg_vruntime, 116);
    assert_eq!(q.pick, Some(task_ent_id(Pid(0))));
    // Unprotected, the earlier eligible deadline wins.
    st.ents[0].vlag = 0;
    let q = queue_of(&st, 0, CpuId(0), TICK).expect("the root queue");
    assert!(!q.curr.as_ref().expect("curr").protected);
    assert_eq!(q.pick, Some(task_ent_id(Pid(2))));
    // An eligible next buddy is picked before EEVDF's choice (pick_next_entity); an ineligible one is not.
    st.next[0] = Some(0);
    assert_eq!(queue_of(&st, 0, CpuId(0), TICK).expect("root").pick, Some(task_ent_id(Pid(0))));
    st.next[0] = Some(1);
    let q = queue_of(&st, 0, CpuId(0), TICK).expect("root");
    assert_eq!((q.pick, q.next_buddy), (Some(task_ent_id(Pid(2))), Some(task_ent_id(Pid(1)))));
}

#[test]
fn a_run_of_another_generation_has_no_queues() {
    let st = State612::default();
    assert!(queues_of(&st, CpuId(0), TICK).is_empty());
    let st = state(&[], &[], None);
    assert!(queue_of(&st, 0, CpuId(1), TICK).is_none(), "a CPU past the state's");
}

/// Four hogs of mixed nice pinned to one CPU of a 6.12 machine, read at many
/// points: every queue keeps eligible ⇔ V ≥ v, the pick is eligible (or the
/// only entity), and the counts add up.
#[test]
fn every_queue_of_a_running_machine_reads_consistently() {
    let hogs: Vec<ProcessSpec> = [0, 0, 5, -3]
        .iter()
        .enumerate()
        .map(|(i, &nice)| {
            let mut p = hog(&format!("h{i}"), 1_000_000_000, Some(&[CpuId(0)]));
            p.nice = nice;
            p
        })
        .collect();
    let mut cfg = config(1, 2, 1, 1000, false, hogs);
    cfg.kernel = Kernel::Linux612;
    cfg.duration_ns = 1_000_000_000;
    let mut sim = Simulator::new(&cfg);
    let (mut seen_ineligible, mut seen_eligible) = (0, 0);
    for step in 1..=200u64 {
        sim.run_until(SimTime(step * 1_370_000));
        let qs = sim.eevdf_queues(CpuId(0));
        assert_eq!(qs[0].tg, 0, "the root first");
        let root = &qs[0];
        assert_eq!(
            root.nr_running as usize,
            root.queued.len() + usize::from(root.curr.as_ref().is_some_and(|c| c.on_rq))
        );
        for e in root.queued.iter().chain(&root.curr).filter(|e| e.on_rq) {
            assert_eq!(
                e.eligible,
                e.vruntime.wrapping_sub(root.avg_vruntime) as i64 <= 0,
                "{e:?} against V {}",
                root.avg_vruntime
            );
            assert_eq!(e.eligible, e.vlag >= 0);
            if e.eligible {
                seen_eligible += 1;
            } else {
                seen_ineligible += 1;
            }
        }
        let all: Vec<&QueuedEntity> = root.queued.iter().chain(&root.curr).collect();
        if let Some(p) = root.pick {
            let e = all.iter().find(|e| e.id == p).expect("the pick is on the queue");
            assert!(e.eligible || root.nr_running == 1, "{e:?}");
        }
        // The CPU's other queue on the next CPU is empty: its hogs are all here.
        assert!(sim.eevdf_queues(CpuId(1))[0].queued.is_empty());
    }
    assert!(seen_eligible > 0 && seen_ineligible > 0, "{seen_eligible} eligible, {seen_ineligible} not");
}

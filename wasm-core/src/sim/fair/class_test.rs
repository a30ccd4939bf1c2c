//! The fair class's buddy rules as Linux 4.1.15 writes them.
//!
//! - `check_preempt_wakeup` (fair.c 5014–5085) returns at once when curr is
//!   already to be rescheduled (`test_tsk_need_resched`, 5048), after the
//!   NEXT_BUDDY mark and before any verdict: no preemption is asked for and
//!   curr is not made the last buddy.
//! - `clear_buddies` (3132) clears a buddy at the entity's level and then at
//!   each level above while that level's buddy is the entity's ancestor
//!   (`__clear_buddies_next`, 3110): a task moved off a CPU leaves no next
//!   buddy that leads to it, even while its group stays queued.
//! - `yield_task_fair` (5238) marks nothing when the task is alone on its CPU
//!   (5247).

use crate::sched::entity::task_ent_id;
use crate::sched::fair::FairStrategy;
use crate::sim::fair::chain::Chain;
use crate::sim::fair::cx::fair_cx;
use crate::sim::test_config::{config, hog};
use crate::sim::Simulator;
use crate::time::{CpuId, Pid, SimTime};

const CPU: CpuId = CpuId(0);

/// One CPU; `n` hogs, started; returns the running one and the others.
fn one_cpu(n: usize, autogroup: bool) -> (Simulator, Pid, Vec<Pid>) {
    let procs = (0..n).map(|i| hog(&format!("H{i}"), 1_000_000_000, None)).collect();
    let mut sim = Simulator::new(&config(1, 1, 1, 1000, autogroup, procs));
    sim.run_until(SimTime(1));
    let curr = sim.core.rqs[0].curr().expect("a hog runs");
    let rest = (0..n).map(|i| sim.processes()[i].threads[0]).filter(|&p| p != curr).collect();
    (sim, curr, rest)
}

#[test]
fn a_wakeup_onto_a_cpu_already_to_reschedule_asks_nothing() {
    // Hand-worked: curr ran 10 ms of vruntime ahead of the queued P, past the 1 ms wakeup granularity
    // (scaled: 1 ms × (1 + ilog2(1)) = 1 ms at one CPU), so wakeup_preempt_entity says 1.
    for already in [false, true] {
        let (mut sim, curr, rest) = one_cpu(2, false);
        let p = rest[0];
        let v = sim.core.tasks[p.idx()].se.vruntime;
        sim.core.tasks[curr.idx()].se.vruntime = v + 10_000_000;
        sim.core.rqs[0].need_resched = already;
        let preempt = fair_cx(&mut sim).check_preempt_wakeup(FairStrategy::Cfs, CPU, p, false);
        assert_eq!(preempt, !already, "need_resched {already}");
        let cfs = &sim.core.rqs[0].cfs;
        if already {
            assert_eq!((cfs.next, cfs.last), (None, None), "test_tsk_need_resched returns before any buddy");
        } else {
            assert_eq!(cfs.next, Some(task_ent_id(p)), "the wakee is the next buddy");
        }
    }
}

/// One CPU, one session (autogroup G) of two hog threads, both started: G's
/// entity on the root, both tasks in G. Returns the waiting thread and its
/// chain (its own level, then G's entity on the root).
fn one_group_of_two() -> (Simulator, Pid, Chain) {
    let mut spec = hog("G", 1_000_000_000, None);
    spec.threads = 2;
    let mut sim = Simulator::new(&config(1, 1, 1, 1000, true, vec![spec]));
    // The second thread is created 15 µs in (clone_ns).
    sim.run_until(SimTime(100_000));
    let threads = sim.processes()[0].threads.clone();
    assert_eq!(threads.len(), 2);
    let waiting = *threads.iter().find(|&&t| sim.core.rqs[0].curr() != Some(t)).expect("one waits");
    let chain = fair_cx(&mut sim).chain(waiting, CPU);
    assert_eq!(chain.len(), 2, "task level, then G's entity on the root");
    (sim, waiting, chain)
}

#[test]
fn clearing_a_buddy_clears_it_above_while_it_leads_to_the_task() {
    let (mut sim, waiting, chain) = one_group_of_two();
    fair_cx(&mut sim).set_buddy_chain(&chain[..], CPU, true);
    let g = chain[1].1;
    assert_eq!(sim.core.rqs[0].cfs.next, Some(g));
    // Moved away (not a sleep, so no new buddy is set above): G stays queued through the running thread.
    fair_cx(&mut sim).fair_dequeue(FairStrategy::Cfs, waiting, CPU, false);
    assert!(fair_cx(&mut sim).ent(g).on_rq, "G still holds the running thread");
    assert_eq!(fair_cx(&mut sim).cfs_of(chain[0].0, CPU).next, None, "cleared at the task's level");
    assert_eq!(sim.core.rqs[0].cfs.next, None, "and on the root, where it led to the task (__clear_buddies_next)");
}

#[test]
fn a_buddy_above_that_does_not_lead_through_the_cleared_level_stays() {
    let (mut sim, waiting, chain) = one_group_of_two();
    let g = chain[1].1;
    // Only the root marks G: the task's own level has no next buddy, so the walk stops at once.
    sim.core.rqs[0].cfs.next = Some(g);
    fair_cx(&mut sim).fair_dequeue(FairStrategy::Cfs, waiting, CPU, false);
    assert_eq!(sim.core.rqs[0].cfs.next, Some(g), "the walk starts only where the task itself is the buddy");
}

#[test]
fn a_task_alone_on_its_cpu_yields_without_a_mark() {
    let (mut sim, curr, _) = one_cpu(1, false);
    fair_cx(&mut sim).fair_yield(FairStrategy::Cfs, curr, CPU);
    assert_eq!(sim.core.rqs[0].cfs.skip, None, "rq->nr_running == 1: nothing to skip to");
    let (mut sim, curr, _) = one_cpu(2, false);
    fair_cx(&mut sim).fair_yield(FairStrategy::Cfs, curr, CPU);
    assert_eq!(sim.core.rqs[0].cfs.skip, Some(task_ent_id(curr)));
}

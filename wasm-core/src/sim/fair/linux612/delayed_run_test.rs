//! DELAY_DEQUEUE on whole machines (Debian 6.12.117: `dequeue_entity`
//! fair.c 5548–5621, `pick_next_entity` 5670–5692, `requeue_delayed_entity`
//! 6984–7009, `ttwu_runnable` core.c 3759–3782). A task B pinned beside a
//! hog A on CPU 0 runs 1 ms bursts: it ends each one past its share
//! (ineligible), so each sleep leaves it queued, delayed. Deterministic
//! seeds; the machine is stepped event by event.

use crate::config::{Kernel, ProcessSpec, SimConfig};
use crate::program::{Dist, Op};
use crate::sched::entity::task_ent_id;
use crate::sim::fair::cx::fair_cx;
use crate::sim::test_config::{config, hog};
use crate::sim::Simulator;
use crate::task::TaskState;
use crate::time::{CpuId, Pid};

fn pinned(name: &str, cpu: u32, program: Option<Vec<Op>>) -> ProcessSpec {
    let mut p = hog(name, 1_000_000_000, Some(&[CpuId(cpu)]));
    if let Some(program) = program {
        p.program = program;
    }
    p
}

/// A hog and a task that runs 1 ms and sleeps `sleep_ns`, both on CPU 0 of two.
fn machine(sleep_ns: u64) -> Simulator {
    let body = vec![Op::Run(Dist::Fixed(1_000_000)), Op::Sleep(Dist::Fixed(sleep_ns))];
    let b = pinned("b", 0, Some(vec![Op::Repeat { times: None, body }]));
    let mut cfg: SimConfig = config(1, 2, 1, 1000, false, vec![pinned("a", 0, None), b]);
    cfg.kernel = Kernel::Linux612;
    cfg.duration_ns = 1_000_000_000;
    let mut sim = Simulator::new(&cfg);
    sim.set_index_check(true);
    sim
}

/// What the test reads of task `pid` and its CPU's root runqueue.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Seen {
    state: TaskState,
    on_rq: bool,
    delayed: bool,
    cpu: CpuId,
    nr_running: u32,
    h_nr_queued: u32,
    h_nr_delayed: u32,
    load_weight: u64,
    listed: bool,
    vruntime: u64,
    deadline: u64,
    vlag: i64,
    wait_ns: u64,
}

fn seen(sim: &mut Simulator, pid: Pid) -> Seen {
    let (state, cpu, wait_ns) = {
        let t = &sim.core.tasks[pid.idx()];
        (t.state, t.cpu, t.stats.wait_ns)
    };
    let rq = &sim.core.rqs[cpu.idx()];
    let (nr_running, h_nr_queued, load_weight) = (rq.nr_running, rq.cfs.h_nr_running, rq.cfs.load_weight);
    let listed = rq.cfs_tasks.contains(&pid);
    let cx = fair_cx(sim);
    let st = &cx.fair.gen612;
    // A task not yet started has no entity yet.
    let e = st.ents.get(st.ent_ix(task_ent_id(pid))).copied().unwrap_or_default();
    Seen {
        state,
        on_rq: e.on_rq,
        delayed: e.sched_delayed,
        cpu,
        nr_running,
        h_nr_queued,
        h_nr_delayed: st.h_nr_delayed[st.rq_ix(0, cpu)],
        load_weight,
        listed,
        vruntime: e.vruntime,
        deadline: e.deadline,
        vlag: e.vlag,
        wait_ns,
    }
}

/// Steps until `f` holds of B (the second process's thread), at most 10⁶ events.
fn step_until(sim: &mut Simulator, f: impl Fn(&Seen) -> bool) -> Seen {
    let pid = sim.processes()[1].threads[0];
    for _ in 0..1_000_000 {
        assert!(sim.step_event(), "the run ended first");
        check_consistent(sim);
        let s = seen(sim, pid);
        if f(&s) {
            return s;
        }
    }
    panic!("never happened");
}

/// What must hold after every event: each CPU's `nr_running` counts its
/// tasks with `se.on_rq` (delayed ones included), its root's `h_nr_delayed`
/// the asleep ones among them, each of which is marked delayed; its task
/// list holds exactly its queued tasks.
pub(super) fn check_consistent(sim: &mut Simulator) {
    let nr = sim.core.rqs.len();
    let mut queued = vec![0u32; nr];
    let mut asleep = vec![0u32; nr];
    let mut marks = Vec::new();
    for t in &sim.core.tasks {
        if t.se.on_rq {
            queued[t.cpu.idx()] += 1;
            if t.state == TaskState::Sleeping {
                asleep[t.cpu.idx()] += 1;
                marks.push(t.pid);
            }
            assert!(sim.core.rqs[t.cpu.idx()].cfs_tasks.contains(&t.pid), "{} queued, unlisted", t.name);
        }
    }
    for (c, rq) in sim.core.rqs.iter().enumerate() {
        assert_eq!(rq.nr_running, queued[c], "CPU {c}'s nr_running at {:?}", sim.core.now);
        assert_eq!(rq.cfs_tasks.len() as u32, queued[c], "CPU {c}'s task list");
        if rq.curr_task.is_none() && rq.online {
            assert_eq!(asleep[c], queued[c].min(asleep[c]), "CPU {c}");
        }
    }
    let cx = fair_cx(sim);
    let st = &cx.fair.gen612;
    for (c, &a) in asleep.iter().enumerate() {
        assert_eq!(st.h_nr_delayed[st.rq_ix(0, CpuId(c as u32))], a, "CPU {c}'s h_nr_delayed");
    }
    for pid in marks {
        assert!(st.ents[st.ent_ix(task_ent_id(pid))].sched_delayed, "{pid} asleep on a runqueue, not delayed");
    }
}

/// B sleeps past its share: it stays queued, its weight on CPU 0's runqueue,
/// counted in nr_running and h_nr_queued and as delayed, asleep (no wait
/// counted); when EEVDF next picks it (eligible by then) it leaves with no
/// lag (DELAY_ZERO), before its 50 ms sleep ends.
#[test]
fn a_sleeper_in_debt_stays_queued_with_its_load_until_picked() {
    let mut sim = machine(50_000_000);
    // Its first burst follows a wait (it starts behind A): it sleeps owed time, eligible, and leaves at once.
    let first = step_until(&mut sim, |s| s.state == TaskState::Sleeping);
    assert!(!first.on_rq && first.vlag > 0, "{first:?}");
    let d = step_until(&mut sim, |s| s.state == TaskState::Sleeping && s.on_rq);
    assert!(d.delayed && d.listed, "{d:?}");
    assert_eq!((d.nr_running, d.h_nr_queued, d.h_nr_delayed, d.load_weight), (2, 2, 1, 2048), "{d:?}");
    let wasted = sim.machine_stats().wasted_core_ns;
    let gone = step_until(&mut sim, |s| !s.on_rq);
    assert_eq!(gone.state, TaskState::Sleeping, "picked before it woke");
    assert!(!gone.delayed && !gone.listed && gone.vlag == 0, "{gone:?}");
    assert_eq!((gone.nr_running, gone.h_nr_queued, gone.h_nr_delayed, gone.load_weight), (1, 1, 0, 1024));
    assert_eq!(gone.wait_ns, d.wait_ns, "no wait counted while delayed");
    assert_eq!(sim.machine_stats().wasted_core_ns, wasted, "A ran throughout");
}

/// B wakes 0.1 ms after it slept, still delayed: the wakeup requeues it in
/// place — same CPU, never dequeued, no placement (its vruntime and
/// deadline as they were: its lag is still negative, so DELAY_ZERO does not
/// place it), no migration and no placement decision recorded.
#[test]
fn a_wakeup_while_delayed_is_a_requeue_in_place() {
    let mut sim = machine(100_000);
    let d = step_until(&mut sim, |s| s.state == TaskState::Sleeping && s.delayed);
    let pid = sim.processes()[1].threads[0];
    let (migrations, placements) = (sim.core.tasks[pid.idx()].stats.migrations, sim.placements().len());
    let woken = step_until(&mut sim, |s| s.state != TaskState::Sleeping || !s.on_rq);
    assert!(woken.on_rq && !woken.delayed && woken.listed, "woke while queued: {woken:?}");
    assert_eq!((woken.cpu, woken.nr_running, woken.h_nr_delayed), (d.cpu, 2, 0));
    assert_eq!((woken.vruntime, woken.deadline), (d.vruntime, d.deadline), "not placed again");
    assert_eq!(sim.core.tasks[pid.idx()].stats.migrations, migrations);
    assert_eq!(sim.placements().len(), placements, "select_task_rq was not asked");
}

/// Without DELAY_DEQUEUE (the feature off) the same sleep leaves at once.
#[test]
fn with_the_feature_off_the_sleeper_leaves_at_once() {
    let mut sim = machine(50_000_000);
    fair_cx(&mut sim).fair.gen612.features.delay_dequeue = false;
    let d = step_until(&mut sim, |s| s.state == TaskState::Sleeping);
    assert!(!d.on_rq && !d.delayed && !d.listed, "{d:?}");
    assert_eq!((d.nr_running, d.h_nr_delayed, d.load_weight), (1, 0, 1024));
}

/// A busier mix — futex ping-pong across CPUs, sleepers, hogs in two
/// autogroups that the balancer moves — keeps the counts consistent after
/// every event, and the index equal to a full scan.
#[test]
fn counts_stay_consistent_on_a_busy_machine() {
    let mut procs = Vec::new();
    for i in 0..3 {
        let mut p = hog(&format!("h{i}"), 1_000_000_000, None);
        p.session = Some(format!("s{}", i % 2));
        procs.push(p);
    }
    let body = vec![Op::Run(Dist::Fixed(700_000)), Op::Sleep(Dist::Fixed(300_000))];
    let mut s = hog("s", 1, None);
    s.threads = 3;
    s.session = Some("s1".into());
    s.program = vec![Op::Repeat { times: None, body }];
    procs.push(s);
    let ping = vec![Op::Repeat {
        times: None,
        body: vec![Op::Run(Dist::Fixed(400_000)), Op::Wake { process: "pong".into(), thread: 0 }, Op::Wait],
    }];
    let pong = vec![Op::Repeat {
        times: None,
        body: vec![Op::Wait, Op::Run(Dist::Fixed(400_000)), Op::Wake { process: "ping".into(), thread: 0 }],
    }];
    for (name, program) in [("ping", ping), ("pong", pong)] {
        let mut p = hog(name, 1, None);
        p.program = program;
        procs.push(p);
    }
    let mut cfg = config(1, 4, 1, 1000, true, procs);
    cfg.kernel = Kernel::Linux612;
    cfg.duration_ns = 300_000_000;
    let mut sim = Simulator::new(&cfg);
    sim.set_index_check(true);
    let mut delayed_seen = 0u32;
    while sim.step_event() {
        check_consistent(&mut sim);
        delayed_seen += fair_cx(&mut sim).fair.gen612.h_nr_delayed.iter().sum::<u32>();
    }
    assert!(delayed_seen > 0, "some sleeper was delayed");
}

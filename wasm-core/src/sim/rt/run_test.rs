//! The real-time class in whole runs, each phenomenon worked out from 4.1's
//! defaults by hand before the run: throttling at 950 ms of each 1 s period,
//! RT_RUNTIME_SHARE's borrowing, RR's 100 ms slices, preemption across
//! classes, and push.

use crate::config::ProcessSpec;
use crate::program::{Dist, Op};
use crate::sched::policy::SchedPolicy;
use crate::sim::test_config::{config, hog};
use crate::sim::Simulator;
use crate::time::CpuId;

const MS: u64 = 1_000_000;

fn rt(mut p: ProcessSpec, policy: SchedPolicy, rt_priority: u32) -> ProcessSpec {
    p.sched_policy = policy;
    p.rt_priority = rt_priority;
    p
}

fn run(cpus: u32, procs: Vec<ProcessSpec>, until_ms: u64) -> Simulator {
    let mut cfg = config(1, cpus, 1, 1000, false, procs);
    cfg.duration_ns = until_ms * MS;
    let mut sim = Simulator::new(&cfg);
    sim.set_index_check(true);
    sim.run_to_end();
    sim
}

fn ran_ms(sim: &Simulator, name: &str) -> u64 {
    let t = sim.core.tasks.iter().find(|t| t.name == name).expect(name);
    t.se.sum_exec_runtime / MS
}

/// One CPU: the FIFO hog is throttled once its runtime exceeds 950 ms (seen
/// at the first tick past it), the fair hog runs until the period timer at
/// the second's end pays the runtime back: about 50 ms in each of three seconds.
#[test]
fn throttling_leaves_the_fair_hog_fifty_ms_a_second() {
    let fifo = rt(hog("fifo", 10_000 * MS, None), SchedPolicy::Fifo, 50);
    let sim = run(1, vec![fifo, hog("fair", 10_000 * MS, None)], 3000);
    let fair = ran_ms(&sim, "fair");
    assert!((145..=155).contains(&fair), "fair ran {fair} ms");
    assert!(ran_ms(&sim, "fifo") >= 2840, "fifo ran {} ms", ran_ms(&sim, "fifo"));
}

/// Two CPUs, both hogs pinned to CPU 0: CPU 0 out of runtime borrows CPU 1's
/// spare (1/2 of 950 ms, capped at the period), reaches a whole period and
/// is never throttled again: the fair hog starves.
#[test]
fn runtime_share_lets_a_pinned_fifo_hog_starve_the_fair_one() {
    let on0 = Some(&[CpuId(0)][..]);
    let fifo = rt(hog("fifo", 10_000 * MS, on0), SchedPolicy::Fifo, 50);
    let mut sim = run(2, vec![fifo, hog("fair", 10_000 * MS, on0)], 3000);
    assert!(ran_ms(&sim, "fair") <= 50, "fair ran {} ms", ran_ms(&sim, "fair"));
    // The share off, throttling is per CPU again.
    let mut cfg = config(1, 2, 1, 1000, false, Vec::new());
    cfg.duration_ns = 3000 * MS;
    let fifo = rt(hog("fifo", 10_000 * MS, on0), SchedPolicy::Fifo, 50);
    cfg.processes = vec![fifo, hog("fair", 10_000 * MS, on0)];
    sim = Simulator::new(&cfg);
    let rooms = &mut sim.rooms;
    let st =
        rooms.box_of_mut(crate::sim::dispatch::Room::Rt).as_deref_mut().and_then(|d| d.as_any_mut().downcast_mut());
    let st: &mut crate::sim::rt::state::RtState = st.expect("RT runs");
    st.runtime_share = false;
    sim.run_to_end();
    assert!((145..=155).contains(&ran_ms(&sim, "fair")), "fair ran {} ms", ran_ms(&sim, "fair"));
}

/// Two RR tasks of one priority on one CPU take turns of 100 ms; a FIFO
/// task of that priority in their place would run to its end first.
#[test]
fn rr_tasks_of_one_priority_take_100_ms_turns() {
    let on0 = Some(&[CpuId(0)][..]);
    let a = rt(hog("a", 10_000 * MS, on0), SchedPolicy::Rr, 10);
    let b = rt(hog("b", 10_000 * MS, on0), SchedPolicy::Rr, 10);
    let sim = run(1, vec![a, b], 900);
    let (ra, rb) = (ran_ms(&sim, "a"), ran_ms(&sim, "b"));
    assert!(ra.abs_diff(rb) <= 101, "a {ra} ms, b {rb} ms");
    for t in &sim.core.tasks {
        assert!((99 * MS..=101 * MS).contains(&t.stats.longest_run_ns), "{}: {}", t.name, t.stats.longest_run_ns);
    }
    let a = rt(hog("a", 10_000 * MS, on0), SchedPolicy::Fifo, 10);
    let b = rt(hog("b", 10_000 * MS, on0), SchedPolicy::Fifo, 10);
    let sim = run(1, vec![a, b], 900);
    assert_eq!(ran_ms(&sim, "b"), 0, "FIFO: the first runs until it blocks");
}

/// A FIFO task that wakes every 10 ms beside a fair hog preempts it at each
/// wakeup: its waits are the switch only, whatever the fair class thinks.
#[test]
fn a_waking_fifo_task_preempts_the_fair_class_at_once() {
    let body = vec![Op::Run(Dist::Fixed(MS)), Op::Sleep(Dist::Fixed(9 * MS))];
    let mut ticker = hog("ticker", MS, None);
    ticker.program = vec![Op::Repeat { times: None, body }];
    let ticker = rt(ticker, SchedPolicy::Fifo, 1);
    let sim = run(1, vec![hog("fair", 10_000 * MS, None), ticker], 500);
    let t = sim.core.tasks.iter().find(|t| t.name == "ticker").unwrap();
    assert!(t.stats.nivcsw == 0, "never preempted");
    assert!(t.stats.wait_ns < 50 * 20_000, "waited {} ns in 50 wakeups", t.stats.wait_ns);
    assert!((45..=51).contains(&ran_ms(&sim, "ticker")));
}

/// Three FIFO hogs on two CPUs, all made on CPU 0: the two most urgent end up
/// one per CPU (push at each switch), the least urgent waits, and the fair
/// hog runs only in the throttled tail of each period.
#[test]
fn push_spreads_the_most_urgent_tasks_one_per_cpu() {
    let procs = vec![
        rt(hog("low", 10_000 * MS, None), SchedPolicy::Fifo, 10),
        rt(hog("mid", 10_000 * MS, None), SchedPolicy::Fifo, 20),
        rt(hog("high", 10_000 * MS, None), SchedPolicy::Fifo, 30),
        hog("fair", 10_000 * MS, None),
    ];
    let sim = run(2, procs, 900);
    assert!(
        ran_ms(&sim, "high") >= 890 && ran_ms(&sim, "mid") >= 890,
        "{} {}",
        ran_ms(&sim, "high"),
        ran_ms(&sim, "mid")
    );
    assert_eq!(ran_ms(&sim, "low"), 0);
    assert_eq!(ran_ms(&sim, "fair"), 0, "no period ended yet");
    let (h, m) = (sim.core.tasks[2].cpu, sim.core.tasks[1].cpu);
    assert_ne!(h, m);
}

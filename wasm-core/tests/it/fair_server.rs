//! Linux 6.12's fair server beside real-time tasks, on one CPU (HZ 1000, no
//! autogroup), worked by hand from deadline.c of 6.12:
//!
//! A FIFO hog and a fair hog. At 0 the fair hog's enqueue starts the server
//! (`dl_server_start`): deadline 1000 ms, runtime 50 ms, deferred, its
//! zero-laxity timer at 1000 − 50 = 950 ms. The FIFO hog runs 0–950 (its
//! 950 ms are not over the 950 ms real-time runtime, so it is not throttled).
//! At 950 the timer fires: the server, starving, runs (`dl_defer_running`);
//! keeping its deadline would overflow its bandwidth (50 ms in 50 ms), so it
//! gets a new one, 1950, and 50 ms. Above every real-time task, it runs the
//! fair hog 950–1000, is spent, and waits for its next period at 1950; then
//! it runs again 1950–2000, 2950–3000. The fair hog gets 50 ms each second.
//!
//! A real-time task that leaves the fair class its share on its own (10 ms
//! every 100 ms) never makes the server run: the fair hog's own run time is
//! charged to it, and each period's 50 ms are spent in the background.

use crate::common::scenario::{self as step, forever, Process, Scenario};
use schedlab_core::sim::dl::state::DlState;
use schedlab_core::sim::Simulator;
use schedlab_core::time::SimTime;

fn one_cpu_612(ms: u64, procs: Vec<Process>) -> Simulator {
    let mut sim = Scenario::one_bare_cpu("fair-server", ms).set("kernel", "6.12").processes(procs).sim();
    sim.run_until(SimTime(ms * 1_000_000));
    sim
}

/// The fair hog's run slices, in ms, merged where they touch.
fn runs_of(sim: &Simulator, name: &str) -> Vec<(u64, u64)> {
    let pid = sim.tasks().iter().position(|t| t.name == name).expect("the task");
    let mut out: Vec<(u64, u64)> = Vec::new();
    for s in sim.trace().slices_since(0).iter().filter(|s| s.pid.idx() == pid) {
        let (a, b) = (s.start.ns() / 1_000_000, s.end.ns() / 1_000_000);
        match out.last_mut() {
            Some(last) if last.1 == a => last.1 = b,
            _ => out.push((a, b)),
        }
    }
    out
}

fn activations(sim: &Simulator) -> u64 {
    let st = sim.class_state::<DlState>().expect("6.12 keeps fair servers beside real-time tasks");
    st.servers.iter().flatten().map(|s| s.activations).sum()
}

#[test]
fn the_fair_server_gives_a_starved_fair_hog_50_ms_each_second() {
    let fifo = Process::hog("fifo", 1_000_000).set("sched_policy", "fifo").set("rt_priority", 50);
    let sim = one_cpu_612(3000, vec![fifo, Process::hog("fair", 1_000_000)]);
    assert_eq!(runs_of(&sim, "fair"), [(950, 1000), (1950, 2000), (2950, 3000)]);
    assert_eq!(activations(&sim), 3, "the zero-laxity timer at 950, then each replenishment");
}

#[test]
fn a_real_time_task_that_leaves_the_fair_class_its_share_never_wakes_the_server() {
    let periodic = Process::new("rt10")
        .set("sched_policy", "fifo")
        .set("rt_priority", 50)
        .program([forever([step::run(10_000), step::sleep(90_000)])]);
    let sim = one_cpu_612(3000, vec![periodic, Process::hog("fair", 1_000_000)]);
    assert_eq!(activations(&sim), 0);
    let fair: u64 = runs_of(&sim, "fair").iter().map(|r| r.1 - r.0).sum();
    assert!((2690..=2710).contains(&fair), "the fair hog has what the real-time task leaves: {fair} ms");
}

/// A deadline task beside the server (6.12 admits it: its 50 % and the server's 5 % fit in 95 %): EDF serves the
/// deadline task's 50 ms every 100 ms, the server the fair hog's 50 ms a second when its deadline comes first
/// (the deadline task throttled), and the FIFO hog has the rest: 50 %, 5 %, 45 %.
#[test]
fn a_deadline_task_and_the_fair_server_share_edf_above_a_fifo_hog() {
    let dl = Process::hog("dl", 1_000_000)
        .set("sched_policy", "deadline")
        .set("dl_runtime_us", 50_000)
        .set("dl_deadline_us", 100_000);
    let fifo = Process::hog("fifo", 1_000_000).set("sched_policy", "fifo").set("rt_priority", 50);
    let sim = one_cpu_612(3000, vec![dl, fifo, Process::hog("fair", 1_000_000)]);
    let ms = |name: &str| runs_of(&sim, name).iter().map(|r| r.1 - r.0).sum::<u64>();
    let (d, f, r) = (ms("dl"), ms("fair"), ms("fifo"));
    assert!((1490..=1510).contains(&d), "the deadline task has its reservation: {d} ms");
    assert!((140..=160).contains(&f), "the fair hog has the server's 50 ms a second: {f} ms");
    assert_eq!(d + f + r, 3000, "the CPU is never idle: {d} + {f} + {r}");
    assert!(activations(&sim) >= 3);
}

//! Linux 6.12's fair class running whole machines (pinned tasks, so that
//! placement does not enter): the phenomena EEVDF and 6.12's load tracking
//! produce, asserted with deterministic seeds.

use crate::config::{Kernel, ProcessSpec, SimConfig};
use crate::sched::weights::nice_to_weight;
use crate::sim::fair::cx::fair_cx;
use crate::sim::test_config::{config, hog};
use crate::sim::Simulator;
use crate::time::{CpuId, SimTime};

fn on_612(mut cfg: SimConfig) -> SimConfig {
    cfg.kernel = Kernel::Linux612;
    cfg.duration_ns = 10_000_000_000;
    cfg
}

fn pinned(name: &str, nice: i32, cpu: u32) -> ProcessSpec {
    let mut p = hog(name, 1_000_000_000, Some(&[CpuId(cpu)]));
    p.nice = nice;
    p
}

fn runtime(sim: &Simulator, i: usize) -> u64 {
    let pid = sim.processes()[i].threads[0];
    sim.core.tasks[pid.idx()].se.sum_exec_runtime
}

/// Two nice-0 hogs on one CPU: EEVDF serves them in turns of one request
/// (base slice 0.75 ms × (1 + log2 2) = 1.5 ms on two CPUs): over a second
/// neither is ahead by more than a request.
#[test]
fn equal_hogs_share_a_cpu_within_one_request() {
    let mut sim = Simulator::new(&on_612(config(1, 2, 1, 1000, false, vec![pinned("a", 0, 0), pinned("b", 0, 0)])));
    sim.run_until(SimTime(1_000_000_000));
    let (a, b) = (runtime(&sim, 0), runtime(&sim, 1));
    assert_eq!(a + b, 1_000_000_000, "the CPU never idles");
    assert!(a.abs_diff(b) <= 2 * 1_500_000, "{a} vs {b}");
}

/// nice −5 against nice 0 on one CPU: time in proportion to weight, 3121 : 1024.
#[test]
fn weights_divide_the_cpu() {
    let mut sim = Simulator::new(&on_612(config(1, 2, 1, 1000, false, vec![pinned("a", -5, 0), pinned("b", 0, 0)])));
    sim.run_until(SimTime(2_000_000_000));
    let (a, b) = (runtime(&sim, 0) as f64, runtime(&sim, 1) as f64);
    let want = nice_to_weight(-5) as f64 / nice_to_weight(0) as f64;
    assert!((a / b - want).abs() / want < 0.02, "{} vs {want}", a / b);
}

/// A lone hog's PELT signals after a second: load_avg and util_avg near
/// full (1024 · (1 − y^1000/1.024) ≈ 1024), runnable the same; the root
/// runqueue carries them (attached once, never removed).
#[test]
fn a_hogs_signals_fill_up_and_its_runqueue_carries_them() {
    let mut sim = Simulator::new(&on_612(config(1, 2, 1, 1000, false, vec![pinned("a", 0, 1)])));
    sim.run_until(SimTime(1_000_000_000));
    let pid = sim.processes()[0].threads[0];
    let cx = fair_cx(&mut sim);
    let st = &cx.fair.gen612;
    let se = st.avgs[st.ent_ix(crate::sched::entity::task_ent_id(pid))];
    let rq = st.rq_avgs[st.rq_ix(0, CpuId(1))].avg;
    for v in [se.load_avg, se.util_avg, se.runnable_avg, rq.load_avg, rq.util_avg] {
        assert!((1000..=1024).contains(&v), "{se:?} {rq:?}");
    }
    let idle = st.rq_avgs[st.rq_ix(0, CpuId(0))].avg;
    assert_eq!((idle.load_avg, idle.util_avg), (0, 0));
}

/// Two autogroups on one CPU, one hog in the first and three in the
/// second: each group's entity weighs its shares (the group is on this CPU
/// only), so each group gets half, and the lone hog as much as the three.
#[test]
fn groups_share_the_cpu_whatever_their_task_counts() {
    let mut procs = vec![pinned("solo", 0, 0)];
    procs[0].session = Some("s1".into());
    for i in 0..3 {
        let mut p = pinned(&format!("t{i}"), 0, 0);
        p.session = Some("s2".into());
        procs.push(p);
    }
    let mut sim = Simulator::new(&on_612(config(1, 2, 1, 1000, true, procs)));
    sim.run_until(SimTime(3_000_000_000));
    let solo = runtime(&sim, 0) as f64;
    let three: f64 = (1..4).map(|i| runtime(&sim, i) as f64).sum();
    assert!((solo / three - 1.0).abs() < 0.03, "{solo} vs {three}");
}

/// util_est follows a task that runs 2 ms in every 10: the root runqueue's
/// estimate holds the task's while it is queued and none while it sleeps,
/// and the task's own estimate settles near its utilization (a fifth of a CPU).
#[test]
fn util_est_comes_and_goes_with_the_task() {
    use crate::program::{Dist, Op};
    let mut p = pinned("p", 0, 0);
    p.program = vec![Op::Repeat {
        times: None,
        body: vec![Op::Run(Dist::Fixed(2_000_000)), Op::Sleep(Dist::Fixed(8_000_000))],
    }];
    let mut sim = Simulator::new(&on_612(config(1, 2, 1, 1000, false, vec![p])));
    // 1 s + 5 ms: asleep (it ran 1000–1002 ms).
    sim.run_until(SimTime(1_005_000_000));
    let pid = sim.processes()[0].threads[0];
    let cx = fair_cx(&mut sim);
    let st = &cx.fair.gen612;
    let task = st.avgs[st.ent_ix(crate::sched::entity::task_ent_id(pid))];
    let root = st.rq_avgs[st.rq_ix(0, CpuId(0))].avg;
    assert_eq!(root.util_est, 0, "asleep: nothing estimated on its CPU");
    let est = crate::sim::fair::linux612::pelt::task_util_est_raw(&task);
    assert!((150..=300).contains(&est), "estimate {est} of a task busy a fifth of the time");
}

/// Eight unpinned hogs of one process on four CPUs: fork placement and the
/// balancer leave two on each CPU, so no CPU idles and each hog gets half a
/// CPU, within a request per balancing interval.
#[test]
fn eight_hogs_spread_two_to_a_cpu() {
    let mut p = hog("h", 1_000_000_000, None);
    p.threads = 8;
    let mut sim = Simulator::new(&on_612(config(1, 4, 1, 1000, false, vec![p])));
    sim.run_until(SimTime(2_000_000_000));
    // The threads are made one after another (a clone each): a CPU may wait that long for its first.
    assert!(sim.machine_stats().wasted_core_ns < 1_000_000, "{}", sim.machine_stats().wasted_core_ns);
    let times: Vec<u64> =
        sim.processes()[0].threads.iter().map(|p| sim.core.tasks[p.idx()].se.sum_exec_runtime).collect();
    for t in &times {
        assert!((900_000_000..=1_100_000_000).contains(t), "{times:?}");
    }
}

/// Four hogs started on a two-node machine (2 × 2 CPUs): one per CPU, the
/// nodes shared two and two.
#[test]
fn four_hogs_on_two_nodes_take_a_cpu_each() {
    let mut p = hog("h", 1_000_000_000, None);
    p.threads = 4;
    let mut sim = Simulator::new(&on_612(config(2, 2, 1, 1000, false, vec![p])));
    sim.run_until(SimTime(1_000_000_000));
    let cpus: Vec<u32> = sim.processes()[0].threads.iter().map(|p| sim.core.tasks[p.idx()].cpu.0).collect();
    let mut sorted = cpus.clone();
    sorted.sort_unstable();
    assert_eq!(sorted, [0, 1, 2, 3], "{cpus:?}");
}

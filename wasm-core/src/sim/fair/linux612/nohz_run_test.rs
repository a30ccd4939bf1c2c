//! Linux 6.12's NOHZ idle balancer on whole machines (`nohz.rs`): idle CPUs
//! stop their tick; a busy CPU's tick kicks one of them to balance for all
//! (`nohz_balancer_kick`, fair.c 12429; `_nohz_idle_balance`, 12675), and
//! the idle CPUs' blocked load keeps decaying through the kicks' stats
//! passes (`update_nohz_stats`, 12652). One node of four cores, no SMT: one
//! LLC (MC) over the four CPUs, HZ=1000.

use crate::config::{Kernel, ProcessSpec, SimConfig};
use crate::program::{Dist, Op};
use crate::sim::events::EventClass;
use crate::sim::fair::cx::fair_cx;
use crate::sim::test_config::{config, hog};
use crate::sim::Simulator;
use crate::time::{CpuId, SimTime};
use crate::topology::cpumask::CpuMask;

fn on_612(nohz: bool, procs: Vec<ProcessSpec>) -> SimConfig {
    let mut cfg = config(1, 4, 1, 1000, false, procs);
    cfg.kernel = Kernel::Linux612;
    cfg.duration_ns = 10_000_000_000;
    cfg.nohz = nohz;
    cfg
}

/// Tick events (those that count: a stopped tick's pending event does not) up to `until`.
fn ticks_until(sim: &mut Simulator, until: SimTime) -> u64 {
    let mut n = 0;
    while let Some(class) = sim.step_classified_by(until) {
        n += u64::from(class == EventClass::Tick);
    }
    n
}

fn root_load(sim: &mut Simulator, cpu: CpuId) -> u64 {
    let cx = fair_cx(sim);
    let st = &cx.fair.gen612;
    st.rq_avgs[st.rq_ix(0, cpu)].avg.load_avg
}

/// One hog on CPU 0 for a second. Without NOHZ every CPU ticks: 4 × 1000.
/// With it, CPUs 1–3 stop their tick at their first one (idle since boot)
/// and join `nohz.idle_cpus_mask`, and only CPU 0 ticks on: 1000 + 3.
#[test]
fn idle_cpus_stop_their_tick_under_nohz() {
    let procs = || vec![hog("a", 1_000_000_000, Some(&[CpuId(0)]))];
    let mut off = Simulator::new(&on_612(false, procs()));
    let mut on = Simulator::new(&on_612(true, procs()));
    let end = SimTime(1_000_000_000);
    let (ticks_off, ticks_on) = (ticks_until(&mut off, end), ticks_until(&mut on, end));
    assert_eq!(ticks_off, 4000);
    assert_eq!(ticks_on, 1003);
    assert!((1..4).all(|c| on.core.rqs[c].tick_stopped && !off.core.rqs[c].tick_stopped));
    let nohz = &fair_cx(&mut on).fair.gen612.nohz;
    assert_eq!(nohz.idle_cpus, CpuMask::from_cpus([1, 2, 3].map(CpuId)));
    assert_eq!(nohz.nr_busy_cpus[0], 1, "the LLC counts CPU 0 busy alone (set_cpu_sd_state_idle ×3)");
}

/// Two hogs pinned on CPU 0 for 100 ms, while CPUs 1–3 idle tickless; then
/// their affinity widens (as `taskset -p` would: a running task is not
/// moved). No idle CPU ticks and the hogs never sleep, so only a kick can
/// move one. The idle CPUs' balance intervals have backed off meanwhile
/// (every pass found the hogs pinned: up to MAX_PINNED_INTERVAL), and
/// `nohz.next_balance` holds the earliest of their next balances. At the
/// first tick of CPU 0 from then, `nr_running >= 2` kicks the first idle
/// tickless CPU, CPU 1 (`find_new_ilb`), whose pass starts after itself:
/// CPU 2, due, pulls a hog, or, if the queued hog is still cache-hot then,
/// at the next kick after its MC interval (4 jiffies, the failure counted).
#[test]
fn a_kicked_idle_cpu_pulls_a_busy_cpus_surplus() {
    let procs = vec![hog("a", 1_000_000_000, Some(&[CpuId(0)])), hog("b", 1_000_000_000, Some(&[CpuId(0)]))];
    let mut sim = Simulator::new(&on_612(true, procs));
    sim.run_until(SimTime(100_000_000));
    assert_eq!(sim.core.rqs[0].nr_running(), 2);
    assert!((1..4).all(|c| sim.core.rqs[c].tick_stopped && sim.core.rqs[c].is_idle()));
    for p in 0..2 {
        let pid = sim.processes()[p].threads[0];
        sim.core.tasks[pid.idx()].allowed = CpuMask::from_range(0..4);
    }
    let due = fair_cx(&mut sim).fair.gen612.nohz.next_balance;
    assert_eq!(due, (1..4).map(|c| sim.core.rqs[c].next_balance).min().unwrap());
    assert!((101..=612).contains(&due), "{due}");
    let mut jiffy = 100;
    let puller = loop {
        jiffy += 1;
        sim.run_until(SimTime(jiffy * 1_000_000));
        if let Some(c) = (1..4).find(|&c| sim.core.rqs[c].curr_task.is_some()) {
            break c;
        }
        assert!(jiffy < due + 8, "no idle CPU pulled the surplus hog within two MC intervals of jiffy {due}");
    };
    assert_eq!(puller, 2, "pulled at jiffy {jiffy}, the idle CPUs due at {due}");
    assert!(jiffy >= due, "no kick before nohz.next_balance");
    assert_eq!(sim.core.rqs[0].nr_running() + sim.core.rqs[puller].nr_running(), 2);
    assert!(!sim.core.rqs[puller].tick_stopped, "running, its tick restarted");
    // The other two are still tickless: only the kicked balancer's passes reached them.
    assert!([1, 3].iter().all(|&c| sim.core.rqs[c].tick_stopped && sim.core.rqs[c].is_idle()));
}

/// A task on CPU 1 runs 300 ms and sleeps: CPU 1 idles tickless with its
/// load still counted (about 1000, blocked). CPU 0's hog keeps ticking, and
/// its ticks raise NOHZ_STATS_KICK each `LOAD_AVG_PERIOD` (32 jiffies):
/// the kicked CPU brings CPU 1's averages up to date, so CPU 1's load halves
/// every 32 ms though its own tick never runs, until nothing is left and the
/// updates stop (`rq->has_blocked_load`, then `nohz.has_blocked`, cleared).
#[test]
fn a_tickless_cpus_blocked_load_decays() {
    let sleeper = ProcessSpec {
        program: vec![Op::Run(Dist::Fixed(300_000_000)), Op::Sleep(Dist::Fixed(100_000_000_000))],
        ..hog("s", 1, Some(&[CpuId(1)]))
    };
    let procs = vec![hog("a", 1_000_000_000, Some(&[CpuId(0)])), sleeper];
    let mut sim = Simulator::new(&on_612(true, procs));
    sim.run_until(SimTime(301_000_000));
    assert!(sim.core.rqs[1].is_idle() && sim.core.rqs[1].tick_stopped);
    let at_sleep = root_load(&mut sim, CpuId(1));
    assert!(at_sleep > 900, "{at_sleep}");
    sim.run_until(SimTime(450_000_000));
    assert!(sim.core.rqs[1].tick_stopped, "CPU 1 never ticked");
    // Three to four half-lives at least (the last update is at most 33 jiffies old).
    let later = root_load(&mut sim, CpuId(1));
    assert!(later * 6 < at_sleep, "{at_sleep} → {later}");
    assert!(later > 0);
    sim.run_until(SimTime(1_500_000_000));
    assert!(sim.core.rqs[1].tick_stopped);
    assert_eq!(root_load(&mut sim, CpuId(1)), 0);
    let nohz = &fair_cx(&mut sim).fair.gen612.nohz;
    assert!(!nohz.has_blocked_load[1] && !nohz.has_blocked, "all decayed: no more stats kicks");
}

/// The same sleeper without NOHZ: CPU 1 ticks and its own periodic balance
/// updates its blocked load; the decay is the same in kind.
#[test]
fn without_nohz_the_idle_cpu_decays_its_own_load() {
    let sleeper = ProcessSpec {
        program: vec![Op::Run(Dist::Fixed(300_000_000)), Op::Sleep(Dist::Fixed(100_000_000_000))],
        ..hog("s", 1, Some(&[CpuId(1)]))
    };
    let mut sim = Simulator::new(&on_612(false, vec![sleeper]));
    sim.run_until(SimTime(301_000_000));
    let at_sleep = root_load(&mut sim, CpuId(1));
    sim.run_until(SimTime(450_000_000));
    assert!(!sim.core.rqs[1].tick_stopped);
    assert!(root_load(&mut sim, CpuId(1)) * 6 < at_sleep);
    assert!(fair_cx(&mut sim).fair.gen612.nohz.idle_cpus.is_empty(), "no CPU went tickless");
}

/// Two nodes of four cores, an LLC each. 6.12 counts busy CPUs per LLC
/// (`sds->nr_busy_cpus`, read at 12529): two hogs in node 0 make CPU 0's
/// tick kick to balance; one in each node does not. The ilb is the first
/// idle tickless CPU.
#[test]
fn nr_busy_cpus_is_counted_per_llc() {
    use crate::sim::fair::linux612::nohz::{NOHZ_BALANCE_KICK, NOHZ_STATS_KICK};
    let kick = |other: u32| {
        let procs = vec![hog("a", 1_000_000_000, Some(&[CpuId(0)])), hog("b", 1_000_000_000, Some(&[CpuId(other)]))];
        let mut cfg = config(2, 4, 1, 1000, false, procs);
        cfg.kernel = Kernel::Linux612;
        let mut sim = Simulator::new(&cfg);
        sim.run_until(SimTime(20_000_000));
        let cx = &mut fair_cx(&mut sim);
        let busy = cx.fair.gen612.nohz.nr_busy_cpus.clone();
        let nohz = &mut cx.fair.gen612.nohz;
        (nohz.next_balance, nohz.has_blocked, nohz.needs_update) = (0, false, false);
        nohz.flags.iter_mut().for_each(|f| *f = 0);
        cx.nohz_balancer_kick_612(CpuId(0));
        ((busy[0], busy[4]), cx.fair.gen612.nohz.flags.clone())
    };
    let (busy, flags) = kick(1);
    assert_eq!(busy, (2, 0));
    assert_eq!(flags[2], NOHZ_STATS_KICK | NOHZ_BALANCE_KICK, "CPU 2, the first idle tickless CPU, kicked");
    let (busy, flags) = kick(4);
    assert_eq!(busy, (1, 1));
    assert!(flags.iter().all(|&f| f == 0), "one busy CPU per LLC: no kick");
}

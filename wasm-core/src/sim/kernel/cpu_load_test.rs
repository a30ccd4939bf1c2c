//! `cpu_load[]` on a tickless idle CPU, as 4.1.15 keeps it: a thread pinned
//! to CPU 1 runs 10 ms, then sleeps 50 ms (HZ 250, a jiffy is 4 ms). Its
//! busy ticks at jiffies 1 and 2 fold its load in; at jiffy 3 the CPU is
//! idle and its tick stops, so at 40 ms the history is still the one jiffy 2
//! left. The wakeup near 60 ms (jiffy 15) catches it up at once, 13 jiffies
//! at load 0, and restarts the tick, which folds the load in again at jiffy
//! 16. Without NO_HZ the idle CPU ticks on and its history decays tick by
//! tick.

use crate::program::{Dist, Op};
use crate::sim::test_config::{config, hog};
use crate::sim::Simulator;
use crate::time::{CpuId, SimTime};

fn run_sleep(nohz: bool) -> Simulator {
    let mut p = hog("t", 0, Some(&[CpuId(1)]));
    p.program = vec![Op::Repeat {
        times: None,
        body: vec![Op::Run(Dist::Fixed(10_000_000)), Op::Sleep(Dist::Fixed(50_000_000))],
    }];
    let mut cfg = config(1, 2, 1, 250, false, vec![p]);
    cfg.nohz = nohz;
    Simulator::new(&cfg)
}

const CPU: usize = 1;

#[test]
fn an_idle_cpus_history_stands_until_it_leaves_idle() {
    let mut sim = run_sleep(true);
    sim.run_until(SimTime(9_000_000));
    let busy = sim.core.rqs[CPU].clone();
    assert_eq!(busy.last_load_update_tick, 2);
    assert!(busy.cpu_load[1] > 0, "two busy ticks folded the load in");

    sim.run_until(SimTime(40_000_000));
    let rq = &sim.core.rqs[CPU];
    assert!(rq.curr().is_none() && rq.tick_stopped, "idle since about 10 ms, its tick stopped at jiffy 3");
    assert_eq!(rq.cpu_load, busy.cpu_load, "stale: what jiffy 2 left");
    assert_eq!(rq.last_load_update_tick, 2);

    sim.run_until(SimTime(61_000_000));
    let rq = &sim.core.rqs[CPU];
    assert!(rq.curr().is_some() && !rq.tick_stopped, "woken at 60 ms, its tick restarted");
    let mut expected = busy.clone();
    expected.update_cpu_load_nohz(15);
    assert_eq!(rq.last_load_update_tick, 15);
    assert_eq!(rq.cpu_load, expected.cpu_load, "13 missed jiffies folded at once, at load 0");
    assert_eq!(rq.cpu_load[0], 0);
    assert!(rq.cpu_load[4] > 0 && rq.cpu_load[4] < busy.cpu_load[4], "index 4 decayed, not to nothing");

    sim.run_until(SimTime(65_000_000));
    assert_eq!(sim.core.rqs[CPU].last_load_update_tick, 16, "the restarted tick at 64 ms folds the load in");
    assert!(sim.core.rqs[CPU].cpu_load[0] > 0);
}

#[test]
fn without_nohz_an_idle_cpu_ticks_on() {
    let mut sim = run_sleep(false);
    sim.run_until(SimTime(9_000_000));
    let busy = sim.core.rqs[CPU].cpu_load;
    sim.run_until(SimTime(40_000_000));
    let rq = &sim.core.rqs[CPU];
    assert!(rq.curr().is_none() && !rq.tick_stopped);
    assert_eq!(rq.last_load_update_tick, 10, "ticked through its idle time");
    assert_eq!(rq.cpu_load[1], busy[1] >> 8, "index 1 halved at each of the 8 idle ticks");
}

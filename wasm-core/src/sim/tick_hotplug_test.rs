//! An offline CPU takes no ticks. Two hogs on two CPUs (HZ 250, a jiffy is
//! 4 ms); CPU 1 goes down at 10 ms while running one of them and comes back
//! at 50 ms. The tick pending when it went down (at 12 ms) is its last; back
//! online it restarts on its grid (52 ms), as under the O(1) class, which
//! keeps every tick of an idle CPU.

use crate::config::{PolicyKind, TimedEvent, TimedEventKind};
use crate::sim::test_config::{config, hog};
use crate::sim::Simulator;
use crate::time::{CpuId, SimTime};

fn hotplug_run(o1: bool) -> Simulator {
    let mut cfg = config(1, 2, 1, 250, false, vec![hog("a", 1_000_000, None), hog("b", 1_000_000, None)]);
    if o1 {
        cfg.policy.kind = PolicyKind::O1;
    }
    cfg.events = vec![
        TimedEvent { at_ns: 10_000_000, kind: TimedEventKind::CpuOffline(1) },
        TimedEvent { at_ns: 50_000_000, kind: TimedEventKind::CpuOnline(1) },
    ];
    Simulator::new(&cfg)
}

const CPU: CpuId = CpuId(1);

#[test]
fn an_offline_cpu_takes_no_ticks_and_restarts_on_its_grid() {
    for o1 in [false, true] {
        let mut sim = hotplug_run(o1);
        sim.run_until(SimTime(9_000_000));
        assert!(sim.rqs[CPU.idx()].tick_pending, "busy before going down (o1 {o1})");
        sim.run_until(SimTime(13_000_000));
        assert!(!sim.rqs[CPU.idx()].online);
        assert!(!sim.rqs[CPU.idx()].tick_pending, "the 12 ms tick was the last (o1 {o1})");
        sim.run_until(SimTime(49_000_000));
        assert!(!sim.rqs[CPU.idx()].tick_pending, "no tick while offline (o1 {o1})");
        sim.run_until(SimTime(50_500_000));
        assert!(sim.rqs[CPU.idx()].online && sim.rqs[CPU.idx()].tick_pending, "back up, ticking (o1 {o1})");
        let last = sim.rqs[CPU.idx()].last_load_update_tick;
        sim.run_until(SimTime(52_500_000));
        let rq = &sim.rqs[CPU.idx()];
        if !rq.tick_stopped {
            assert_eq!(rq.last_load_update_tick, 13, "its first tick back was at 52 ms, jiffy 13 (o1 {o1})");
        } else {
            assert_eq!(rq.last_load_update_tick, last, "idle at 52 ms, its tick stopped there (o1 {o1})");
        }
    }
}

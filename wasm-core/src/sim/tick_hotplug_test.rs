//! An offline CPU takes no ticks. Two hogs on two CPUs (HZ 250, a jiffy is
//! 4 ms); CPU 1 goes down at 10 ms while running one of them and comes back
//! at 50 ms. The tick pending when it went down (at 12 ms) is its last; back
//! online it restarts on its grid (52 ms). Where idle CPUs keep their tick
//! (CFS without NO_HZ, and O(1)) that first tick back folds jiffy 13 into
//! the load history whether or not balancing has moved a hog there. Under
//! NO_HZ the 52 ms tick may stop on an idle CPU instead, so that pass checks
//! only that no tick runs while the CPU is down and one is queued once it is up.

use crate::config::{PolicyKind, TimedEvent, TimedEventKind};
use crate::sim::test_config::{config, hog};
use crate::sim::Simulator;
use crate::time::{CpuId, SimTime};

fn hotplug_run(kind: PolicyKind, nohz: bool) -> Simulator {
    let mut cfg = config(1, 2, 1, 250, false, vec![hog("a", 1_000_000, None), hog("b", 1_000_000, None)]);
    cfg.policy.kind = kind;
    cfg.nohz = nohz;
    cfg.events = vec![
        TimedEvent { at_ns: 10_000_000, kind: TimedEventKind::CpuOffline(1) },
        TimedEvent { at_ns: 50_000_000, kind: TimedEventKind::CpuOnline(1) },
    ];
    Simulator::new(&cfg)
}

const CPU: CpuId = CpuId(1);

#[test]
fn an_offline_cpu_takes_no_ticks_and_restarts_on_its_grid() {
    for (kind, nohz) in [(PolicyKind::Cfs, false), (PolicyKind::O1, false), (PolicyKind::Cfs, true)] {
        let at = format!("{kind:?}, nohz {nohz}");
        let mut sim = hotplug_run(kind, nohz);
        sim.run_until(SimTime(9_000_000));
        assert!(sim.core.rqs[CPU.idx()].tick_pending, "busy before going down ({at})");
        sim.run_until(SimTime(13_000_000));
        assert!(!sim.core.rqs[CPU.idx()].online);
        assert!(!sim.core.rqs[CPU.idx()].tick_pending, "the 12 ms tick was the last ({at})");
        sim.run_until(SimTime(49_000_000));
        assert!(!sim.core.rqs[CPU.idx()].tick_pending, "no tick while offline ({at})");
        assert_eq!(sim.core.rqs[CPU.idx()].last_load_update_tick, 2, "its last fold at 8 ms, jiffy 2 ({at})");
        sim.run_until(SimTime(50_500_000));
        assert!(sim.core.rqs[CPU.idx()].online && sim.core.rqs[CPU.idx()].tick_pending, "back up, ticking ({at})");
        if !nohz {
            sim.run_until(SimTime(51_900_000));
            assert_eq!(sim.core.rqs[CPU.idx()].last_load_update_tick, 2, "no tick before 52 ms ({at})");
            sim.run_until(SimTime(52_500_000));
            assert_eq!(sim.core.rqs[CPU.idx()].last_load_update_tick, 13, "its first tick back at 52 ms ({at})");
        }
    }
}

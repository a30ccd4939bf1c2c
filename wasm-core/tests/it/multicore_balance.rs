//! Multicore CFS: fork placement and load balancing spread CPU hogs over the
//! machine (work conservation), on every machine preset, with all four Wasted
//! Cores bugs fixed.

use crate::common::scenario::{Process, Scenario};
use schedlab_core::machine::Machine;
use schedlab_core::sim::Simulator;
use schedlab_core::time::SimTime;

/// `autogroup` off puts the hogs in the root group, so the balancer compares
/// plain task loads (about 1024 each); with it on, all hogs share one
/// autogroup whose 1024 shares are spread over every CPU, and loads shrink
/// to a few units per task, which makes the 2N spread coarser.
fn hogs_with(machine: &str, n: u32, ms: u64, autogroup: bool) -> Simulator {
    let mut sim = Scenario::new("hogs", ms)
        .hz(250)
        .bugs("linux-4.1-fixed")
        .autogroup(autogroup)
        .machine(machine)
        .process(Process::hog("hog", 1_000_000).threads(n))
        .sim();
    sim.run_until(SimTime(ms * 1_000_000));
    sim
}

fn hogs(machine: &str, n: u32, ms: u64) -> Simulator {
    hogs_with(machine, n, ms, false)
}

fn per_cpu(sim: &Simulator) -> Vec<u32> {
    sim.rqs().iter().map(|rq| rq.nr_running()).collect()
}

/// Mechanism: find_idlest_group/cpu at fork, then periodic and newly-idle
/// balancing, leave exactly one hog per CPU — with plain task loads and with
/// all hogs in one autogroup.
#[test]
fn n_hogs_on_n_cpus_end_one_per_cpu() {
    for &m in Machine::preset_names() {
        let n = Machine::preset(m).unwrap().nr_cpus();
        for autogroup in [false, true] {
            let sim = hogs_with(m, n, 2000, autogroup);
            assert!(per_cpu(&sim).iter().all(|&r| r == 1), "{m} autogroup={autogroup}: {:?}", per_cpu(&sim));
        }
    }
}

/// Mechanism: the same with twice as many hogs as CPUs. Linux 4.1 does not
/// promise exactly two per CPU here: fork placement keeps forking locally
/// until the local node is 12% heavier (find_idlest_group's half margin),
/// busy balancing between nodes tolerates imbalance_pct = 125%, and
/// fix_small_imbalance moves a single extra task around inside a node. What
/// it does promise, and what we assert: no CPU idles, no CPU holds more than
/// one extra task, and node loads stay within the NUMA imbalance_pct.
#[test]
fn two_n_hogs_keep_every_cpu_busy_within_the_imbalance_margin() {
    for &m in Machine::preset_names() {
        let machine = Machine::preset(m).unwrap();
        let n = machine.nr_cpus();
        let sim = hogs(m, 2 * n, 8000);
        let counts = per_cpu(&sim);
        assert_eq!(counts.iter().sum::<u32>(), 2 * n, "{m}: no task lost");
        assert!(counts.iter().all(|&r| (1..=3).contains(&r)), "{m}: {counts:?}");
        let per_node: Vec<u32> =
            (0..machine.nodes).map(|node| machine.node_cpus(node).map(|c| counts[c.idx()]).sum()).collect();
        let (lo, hi) = (*per_node.iter().min().unwrap(), *per_node.iter().max().unwrap());
        assert!(hi * 100 <= lo * 125, "{m}: node loads {per_node:?} beyond imbalance_pct");
        if machine.nodes == 1 {
            assert!(counts.iter().all(|&r| r == 2), "{m}: a single node balances exactly: {counts:?}");
        }
    }
}

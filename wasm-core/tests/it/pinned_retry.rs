//! `load_balance`'s two affinity rules as Linux 4.1.15 writes them, on hand-worked
//! cases on the 2-core, 4-thread laptop (HZ 1000, no NOHZ, bugs fixed, no
//! autogroup, every cost 0). Worked from the 4.1.15 source:
//!
//! - LBF_DST_PINNED: `can_migrate_task` meets a task that may not run on the
//!   destination but may on another CPU of the local group (`dst_grpmask`,
//!   only for periodic passes) and remembers that CPU as `new_dst_cpu`. After
//!   `detach_tasks`, if `env.imbalance` is still positive, `load_balance`
//!   clears the destination from `env.cpus` and goes back to `more_balance`,
//!   detaching from the same busiest CPU toward `new_dst_cpu`, whatever moved
//!   already.
//! - LBF_ALL_PINNED: no task of the busiest CPU may run on the destination.
//!   `load_balance` clears the busiest CPU from `env.cpus` (every active CPU
//!   to start with) and redoes the pass while the mask is not empty, which it
//!   never is while the destination is in it; the redo ends balanced
//!   (`out_balanced`) once no busiest group is left.

use crate::common::scenario::{parse_list, parse_processes, Scenario};
use schedlab_core::balance::decision::{BalanceDecision, Outcome, Why};
use schedlab_core::sim::Simulator;
use schedlab_core::time::{CpuId, Pid, SimTime};
use schedlab_core::trace::{MigrateCause, TraceKind};

const MS: u64 = 1_000_000;

/// `events` and `processes` are written out as in a file's lists.
fn laptop(events: &str, processes: &str, ms: u64) -> Simulator {
    let mut sim = Scenario::new("pinned", ms)
        .hz(1000)
        .nohz(false)
        .bugs("linux-4.1-fixed")
        .autogroup(false)
        .free_costs()
        .machine("laptop-2c4t")
        .events(parse_list(events))
        .processes(parse_processes(processes))
        .sim();
    sim.run_until(SimTime(ms * MS));
    sim
}

fn pids_of(sim: &Simulator, name: &str) -> Vec<Pid> {
    let tgid = sim.processes().iter().find(|p| p.name == name).unwrap().tgid;
    sim.tasks().iter().filter(|t| t.tgid == tgid).map(|t| t.pid).collect()
}

fn first_pass<'a>(sim: &'a Simulator, cpu: u32, level: &str, from_ms: u64) -> &'a BalanceDecision {
    sim.decisions()
        .iter()
        .find(|d| d.cpu == CpuId(cpu) && d.level.name() == level && d.at.ns() >= from_ms * MS)
        .unwrap_or_else(|| panic!("no {level} pass of CPU {cpu} from {from_ms} ms"))
}

/// CPUs 2 and 3 are offline until 100 ms, so everything starts on core 0: `h0`
/// pinned to CPU 0, and on CPU 1 `h1` (pinned to it), `a` (CPUs 1-2, nice 19:
/// weight 15) and `bc`'s two threads (CPUs 1 and 3), all running from t = 0.
/// `a`'s vruntime grows 1024/15 ≈ 68 times as fast as the others', so after
/// its first turn it waits. At 100 ms core 1 comes online idle; the rebuilt
/// domains start their intervals then (`sd_init`: last_balance = jiffies), so
/// CPU 2's first MC pass is at 104 ms (MC's interval, 4 jiffies). There: local
/// group {2,3} empty, busiest group {0,1} (five tasks on two CPUs,
/// overloaded), its busiest CPU 1 (four tasks), running h1; `calculate_imbalance`
/// asks for (busiest avg_load 3,569 − domain 1,784) × capacity 1,178 / 1,024 =
/// 2,052, two tasks' load. `detach_tasks` toward CPU 2 (loop_max = 4 tasks,
/// cfs_tasks most recently run first): h1 is pinned away from both 2 and 3;
/// b and c may not run on CPU 2 but may on CPU 3, of the local group:
/// LBF_DST_PINNED, new_dst_cpu 3; `a` may move, and its load (15) is far below
/// the imbalance: it moves, leaving 2,038. Imbalance is left, so `load_balance`
/// goes again over CPU 1 toward CPU 3 (loop_max still 4): c (run more
/// recently, so first) and then b, neither running nor cache-hot 4 ms after
/// their last turns, each of load about 1,023 with half of it below what is
/// left (2,038, then 1,015): both move, leaving about −8. The old model retried
/// only when nothing had moved: it moved `a` alone.
#[test]
fn a_pass_that_moved_something_still_retries_for_the_tasks_pinned_away_from_it() {
    let sim = laptop(
        r#"{"at_ms":0,"cpu_offline":2},{"at_ms":0,"cpu_offline":3},{"at_ms":100,"cpu_online":2},{"at_ms":100,"cpu_online":3}"#,
        r#"{"name":"h0","threads":1,"cpus":"0","program":[{"run_us":1000000}]},
           {"name":"h1","threads":1,"cpus":"1","program":[{"run_us":1000000}]},
           {"name":"a","threads":1,"cpus":"1-2","nice":19,"program":[{"run_us":1000000}]},
           {"name":"bc","threads":2,"cpus":"1,3","program":[{"run_us":1000000}]}"#,
        110,
    );
    let a = pids_of(&sim, "a")[0];
    let bc = pids_of(&sim, "bc");
    let d = first_pass(&sim, 2, "MC", 100);
    let Outcome::Moved { tasks, from } = &d.outcome else { panic!("{d:?}") };
    assert_eq!(*from, CpuId(1), "{d:?}");
    assert_eq!(d.imbalance, 2_052, "{d:?}");
    assert_eq!(d.at, SimTime(104 * MS), "the rebuilt MC domain is due one interval after the rebuild");
    assert_eq!(tasks, &vec![a, bc[1], bc[0]], "a, then c and b on the retry: {d:?}");
    // Where they went, in that pass (CPU 3's own pass at the same tick comes after it).
    let moves: Vec<(u32, Pid)> = sim
        .trace()
        .recent(usize::MAX)
        .filter(|r| r.at == d.at)
        .filter_map(|r| match r.kind {
            TraceKind::Migrate { pid, from: CpuId(1), cause: MigrateCause::Balance } => Some((r.cpu.0, pid)),
            _ => None,
        })
        .collect();
    assert_eq!(moves[..3], [(2, a), (3, bc[1]), (3, bc[0])], "a to CPU 2, c and b to CPU 3: {moves:?}");
    assert_eq!(sim.rqs()[1].nr_running(), 1, "h1 alone is left on CPU 1");
}

/// CPUs 2 and 3 offline for good: SMT {0,1} is CPU 0's only domain. `h0` runs
/// pinned to CPU 0; `p`'s two threads run pinned to CPU 1. CPU 0 is busy, so
/// its first SMT pass is at jiffy 64 (last_balance 0 + 2 ms × busy_factor 32).
/// Busiest CPU 1 (two tasks), whose tasks are all pinned: LBF_ALL_PINNED.
/// 4.1.15 clears CPU 1 from env.cpus, which still holds CPU 0, and redoes:
/// with CPU 1 gone, group {1} has no CPU to count and `find_busiest_group`
/// finds no busiest group: `out_balanced`. The old model redid only while the
/// domain had CPUs outside the local group, so it stopped at once with
/// "nothing moved, all pinned".
#[test]
fn an_all_pinned_busiest_cpu_is_dropped_and_the_pass_redone() {
    let sim = laptop(
        r#"{"at_ms":0,"cpu_offline":2},{"at_ms":0,"cpu_offline":3}"#,
        r#"{"name":"h0","threads":1,"cpus":"0","program":[{"run_us":1000000}]},
           {"name":"p","threads":2,"cpus":"1","program":[{"run_us":1000000}]}"#,
        70,
    );
    let d = first_pass(&sim, 0, "SMT", 1);
    assert_eq!(d.at.ns() / MS, 64, "{d:?}");
    assert_eq!(d.busiest_cpu, Some(CpuId(1)), "the first try found CPU 1: {d:?}");
    assert!(matches!(d.outcome, Outcome::Balanced { .. }), "the redo ends balanced: {d:?}");
    assert!(!matches!(d.outcome, Outcome::NothingMoved { why: Why::Skipped { .. }, .. }));
}

//! Newly-idle balancing as Linux 4.1.15's `idle_balance` does it, and the
//! `rq->avg_idle` it reads as `ttwu_do_wakeup` keeps it. Hand-worked cases on
//! the 2-core, 4-thread laptop (HZ 1000, no NOHZ, bugs fixed, no autogroup,
//! every cost 0 so times are exact). Worked from the 4.1.15 source:
//!
//! - Domains: SMT spans a core (weight 2: min_interval 2 ms, max 4 ms), MC the
//!   machine (weight 4); busy_factor 32. `last_balance` starts at 0 and a busy
//!   CPU's interval is 2 × 32 = 64 jiffies, so a CPU busy from t = 0 makes no
//!   periodic pass before jiffy 64: its `next_balance` is 64.
//! - `idle_balance` stamps `idle_stamp` and, when `avg_idle` is below
//!   `sysctl_sched_migration_cost` or `rd->overload` is clear, only pulls
//!   `rq->next_balance` forward to the lowest domain's `last_balance` plus its
//!   *idle* interval (`update_next_balance(sd, 0, …)`); otherwise it balances
//!   domain by domain, and each visited domain pulls it forward the same way.
//! - `rd->overload` is set by `add_nr_running` when a runqueue reaches two
//!   tasks and cleared only by a root-domain `update_sd_lb_stats` that finds no
//!   CPU with more than one: it outlives the overload until the top domain is
//!   balanced.
//! - `avg_idle` starts at 2 × migration cost (1 ms). A new task's wakeup
//!   (`wake_up_new_task`) does not touch it; a wakeup (`ttwu_do_wakeup`) onto
//!   a CPU whose `idle_stamp` is set folds the idle time in (`update_avg`: one
//!   eighth of the difference) and then caps it at 2 × `max_idle_balance_cost`
//!   (500 µs until a newly-idle pass costs more): 1 ms.

use crate::common::scenario::{parse_list, parse_processes, Scenario};
use schedlab_core::balance::IdleType;
use schedlab_core::sim::Simulator;
use schedlab_core::time::{CpuId, SimTime};
use serde_json::json;

const MS: u64 = 1_000_000;

/// `events` and `processes` are written out as in a file's lists. Forks
/// keep their cost (`clone_ns`), switches, wakeups and migrations have none.
fn laptop(events: &str, processes: &str, ms: u64) -> Simulator {
    Scenario::new("idle-balance", ms)
        .hz(1000)
        .nohz(false)
        .bugs("linux-4.1-fixed")
        .autogroup(false)
        .costs(json!({
            "context_switch_ns": 0, "wakeup_ipi_ns": 0, "migration_cold_ns": 0, "migration_cold_remote_ns": 0
        }))
        .machine("laptop-2c4t")
        .events(parse_list(events))
        .processes(parse_processes(processes))
        .sim()
}

/// CPU `cpu`'s balancing passes from `from_ms` on: (time in ms, level, idle type).
fn passes(sim: &Simulator, cpu: u32, from_ms: u64) -> Vec<(u64, String, IdleType)> {
    sim.decisions()
        .iter()
        .filter(|d| d.cpu == CpuId(cpu) && d.at.ns() >= from_ms * MS)
        .map(|d| (d.at.ns() / MS, d.level.name(), d.idle))
        .collect()
}

/// One thread pinned to CPU 0 runs 20.5 ms and exits; nothing else runs, so no
/// runqueue ever holds two tasks and `rd->overload` stays clear. At the exit,
/// `idle_balance` takes the gate's early exit, which still moves
/// `next_balance` from 64 (set while busy) to SMT's last_balance 0 + idle
/// interval 2 = jiffy 2: the next tick, 21 ms, runs `rebalance_domains` as an
/// idle CPU, SMT (21 ≥ 0 + 2) and MC (21 ≥ 0 + 4) both due. The old model left
/// `next_balance` at 64.
#[test]
fn going_idle_without_balancing_still_brings_the_next_periodic_pass_forward() {
    let mut sim = laptop("", r#"{"name":"a","threads":1,"cpus":"0","program":[{"run_us":20500}]}"#, 30);
    sim.run_until(SimTime(30 * MS));
    let got = passes(&sim, 0, 20);
    assert_eq!(
        got.first().map(|p| (p.0, p.2)),
        Some((21, IdleType::Idle)),
        "CPU 0's first pass after going idle: {got:?}"
    );
    assert!(got.iter().all(|p| p.2 != IdleType::NewlyIdle), "no newly-idle pass without overload: {got:?}");
    assert_eq!(got.iter().filter(|p| p.0 == 21).count(), 2, "SMT and MC at 21 ms: {got:?}");
}

/// CPUs 2 and 3 go offline at 0 ms, so SMT {0,1} is the top (root) domain (the
/// rebuild attaches a new root domain, overload clear). The processes start at
/// 1 ms: `b` (pinned to CPU 1) runs 100 ms; `c` (pinned to CPU 1) runs 2 ms of
/// CPU and exits, sharing CPU 1 with `b`: CPU 1 reaches two tasks at 1 ms,
/// which sets `rd->overload`, and holds one from about 5 ms. `a` (pinned to
/// CPU 0) runs 10.5 ms and exits at 11.5 ms. Neither CPU makes a periodic pass
/// before jiffy 64 (the rebuild's last_balance 0 + 64), so no root-domain
/// `update_sd_lb_stats` clears the flag before then. At 11.5 ms CPU 0 goes idle
/// with avg_idle 1 ms (no wakeup has touched it) ≥ 500 µs and the flag still
/// set: `idle_balance` runs `load_balance(SMT, CPU_NEWLY_IDLE)` (avg_idle 1 ms
/// is not below curr_cost 0 + max_newidle_lb_cost 0), which finds CPU 1 with
/// one task and clears the flag; SMT's last_balance 0 + idle interval 2 makes
/// the 12 ms tick balance as an idle CPU. The old model read "some CPU has two
/// tasks now" and made no pass until jiffy 64.
#[test]
fn overload_outlives_the_overload_until_the_root_domain_is_balanced() {
    let mut sim = laptop(
        r#"{"at_ms":0,"cpu_offline":2},{"at_ms":0,"cpu_offline":3}"#,
        r#"{"name":"a","threads":1,"cpus":"0","start_ms":1,"program":[{"run_us":10500}]},
           {"name":"b","threads":1,"cpus":"1","start_ms":1,"program":[{"run_us":100000}]},
           {"name":"c","threads":1,"cpus":"1","start_ms":1,"program":[{"run_us":2000}]}"#,
        13,
    );
    sim.run_until(SimTime(13 * MS));
    let got = passes(&sim, 0, 1);
    assert_eq!(got.first(), Some(&(11, "SMT".to_string(), IdleType::NewlyIdle)), "{got:?}");
    assert_eq!(got.get(1), Some(&(12, "SMT".to_string(), IdleType::Idle)), "{got:?}");
}

/// One thread pinned to CPU 0 runs 1 ms, sleeps 3 ms, runs 1 ms, sleeps 200 µs,
/// then runs on. Its start is a new task's wakeup: avg_idle stays 1 ms. At 1 ms
/// it sleeps: `idle_balance` stamps idle_stamp = 1 ms (no overload: no pass).
/// At 4 ms `ttwu_do_wakeup` folds in 3 ms: 1 ms + (3 ms − 1 ms) / 8 = 1.25 ms,
/// capped at 2 × 500 µs = 1 ms. At 5 ms it sleeps again (stamp 5 ms); at 5.2 ms:
/// 1 ms + (200 µs − 1 ms) / 8 = 900 µs. The old model updated at the pick,
/// counting the start (875 µs), capped before averaging (1,140,625 ns at 4 ms)
/// and only then (1 ms at 5.2 ms).
#[test]
fn avg_idle_is_folded_at_the_wakeup_and_capped_after() {
    let mut sim = laptop(
        "",
        r#"{"name":"a","threads":1,"cpus":"0","program":[{"run_us":1000},{"sleep_us":3000},{"run_us":1000},{"sleep_us":200},{"run_us":10000}]}"#,
        10,
    );
    sim.run_until(SimTime(4 * MS + MS / 2));
    assert_eq!(sim.rqs()[0].avg_idle_ns, 1_000_000);
    sim.run_until(SimTime(5 * MS + MS / 2));
    assert_eq!(sim.rqs()[0].avg_idle_ns, 900_000);
}

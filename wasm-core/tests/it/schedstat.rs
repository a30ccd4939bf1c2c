//! schedstats: `schedsim run --schedstat` prints /proc/schedstat version 15, and
//! the counters are counted where Linux 4.1 counts them — checked on the
//! hand-worked active-balance case of tests/it/active_balance.rs and as
//! identities that hold in any kernel run, on the presets.

use crate::common;

use schedlab_core::api::presets::PRESETS;
use schedlab_core::api::report::schedstat;
use schedlab_core::sim::Simulator;
use schedlab_core::time::SimTime;

/// Parses /proc/schedstat version 15 as a reader of the real file would, refusing anything off its layout:
/// (cpu, its 9 numbers, its domains' (mask, 36 numbers)).
#[allow(clippy::type_complexity)]
fn parse_v15(text: &str) -> Vec<(u32, Vec<u64>, Vec<(String, Vec<u64>)>)> {
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some("version 15"));
    let ts = lines.next().unwrap();
    assert!(ts.strip_prefix("timestamp ").unwrap().parse::<u64>().is_ok(), "{ts}");
    let mut cpus: Vec<(u32, Vec<u64>, Vec<(String, Vec<u64>)>)> = Vec::new();
    for line in lines {
        let mut f = line.split(' ');
        let head = f.next().unwrap();
        // A domain line's first word after its name is the span mask; the rest are numbers.
        let nums: Vec<u64> = f
            .clone()
            .skip(usize::from(head.starts_with("domain")))
            .map(|w| w.parse().unwrap_or_else(|_| panic!("not a number in {line}")))
            .collect();
        if let Some(n) = head.strip_prefix("cpu") {
            assert_eq!(nums.len(), 9, "{line}");
            assert_eq!(nums[1], 0, "the legacy sched_switch field is 0");
            cpus.push((n.parse().unwrap(), nums, Vec::new()));
        } else if let Some(d) = head.strip_prefix("domain") {
            let mask = f.next().unwrap().to_string();
            assert!(mask.split(',').all(|c| !c.is_empty() && c.chars().all(|x| x.is_ascii_hexdigit())), "{line}");
            let cpu = cpus.last_mut().expect("a domain line follows its cpu line");
            assert_eq!(d.parse::<usize>().unwrap(), cpu.2.len(), "domains numbered from 0");
            assert_eq!(nums.len(), 36, "{line}");
            cpu.2.push((mask, nums));
        } else {
            panic!("unexpected line {line}");
        }
    }
    cpus
}

fn smt_pair() -> Simulator {
    let text = r#"{"version":1,"name":"smt-active","duration_ms":200,"hz":1000,"bugs":"linux-4.1-fixed","autogroup":false,"nohz":false,
      "machine":{"preset":"laptop-2c4t"},
      "events":[{"at_ms":0,"cpu_offline":2},{"at_ms":0,"cpu_offline":3},{"at_ms":100,"cpu_online":2},{"at_ms":100,"cpu_online":3}],
      "processes":[{"name":"hog","threads":2,"program":[{"body":[{"run_us":1000000}]}]}]}"#;
    let mut sim = Simulator::new(&schedlab_core::api::scenario::load_scenario(text).unwrap());
    sim.run_until(SimTime(200_000_000));
    sim
}

/// The hand-worked case of `tests/it/active_balance.rs` (NOHZ off, CPU 2 balancing first in each jiffy): CPU 2's
/// MC domain (span "f") counts four idle passes that failed against a
/// single-task CPU (4 × imbalance 1023), then one active balance that pushed, the pushed hog being cache-hot
/// (lb_hot_gained[idle] = 1); its SMT domain (span "c") four balanced idle passes with no busiest group.
#[test]
fn the_active_balance_case_counts_as_4_1_does() {
    let sim = smt_pair();
    let cpus = parse_v15(&schedstat::proc_schedstat(&sim));
    let cpu2 = cpus.iter().find(|c| c.0 == 2).unwrap();
    let (smt, mc) = (&cpu2.2[0], &cpu2.2[1]);
    assert_eq!(smt.0, "c");
    assert_eq!(&smt.1[0..8], &[4, 4, 0, 0, 0, 0, 0, 4], "SMT idle: count, balanced, …, nobusyg");
    assert_eq!(mc.0, "f");
    assert_eq!(&mc.1[0..8], &[4, 0, 4, 4 * 1023, 0, 1, 0, 0], "MC idle: 4 failed passes");
    assert_eq!(&mc.1[24..27], &[1, 0, 1], "alb_count, alb_failed, alb_pushed");
    assert_eq!(&mc.1[27..33], &[0; 6], "sbe_*, sbf_*: never counted by 4.1");
    // The CPU the stopper emptied: two schedules (the stopper's, then idle), one of them to idle; its hog ran
    // 116 ms, from the start (the stopper's pass, at 116 ms, moved it from there).
    let cpu0 = cpus.iter().find(|c| c.0 == 0).unwrap();
    assert_eq!(cpu0.1, vec![0, 0, 2, 1, 0, 0, 116_000_000, 0, 1]);
}

/// Identities of 4.1's counting that hold for every run: each load_balance pass ends balanced, failed or
/// having moved tasks (so count ≥ balanced + failed and the moving passes gained a task each at least); a
/// wakeup counted on the waker is local or remote on exactly one of its domains; each CPU's time splits into
/// its tasks' runs and its idle time, and switches in are at most schedules.
#[test]
fn the_counters_keep_4_1_identities_on_every_preset() {
    for p in PRESETS {
        let sim = common::run_preset(p.name);
        let stats = schedstat::schedstats(&sim);
        parse_v15(&schedstat::proc_schedstat(&sim));
        for c in &stats {
            let remote: u64 = c.domains.iter().map(|d| d.counters.ttwu_wake_remote).sum();
            // ≤, not =: a hotplug rebuild starts the domains' counters afresh, as the kernel's new domains do.
            assert!(c.rq.ttwu_local + remote <= c.rq.ttwu_count, "{}: cpu{} {:?}", p.name, c.cpu, c.rq);
            assert!(c.rq.pcount <= c.rq.sched_count + 1, "{}: cpu{} {:?}", p.name, c.cpu, c.rq);
            assert!(c.rq.sched_goidle <= c.rq.sched_count, "{}: cpu{} {:?}", p.name, c.cpu, c.rq);
            for d in &c.domains {
                for lb in &d.counters.lb {
                    assert!(
                        lb.lb_count >= lb.lb_balanced + lb.lb_failed,
                        "{} cpu{} {}: {lb:?}",
                        p.name,
                        c.cpu,
                        d.level
                    );
                    assert!(
                        lb.lb_gained >= lb.lb_count - lb.lb_balanced - lb.lb_failed,
                        "{} cpu{} {}: {lb:?}",
                        p.name,
                        c.cpu,
                        d.level
                    );
                    // No bound ties lb_hot_gained to lb_gained: 4.1 counts a cache-hot task as gained in
                    // can_migrate_task, before detach_tasks may still pass it over as too heavy.
                }
                assert_eq!(d.counters.alb_count, d.counters.alb_failed + d.counters.alb_pushed);
            }
        }
    }
}

/// Acceptance of the schedstats work: on group-imbalance-lu, 4.1's active balancing pushes running tasks.
#[test]
fn group_imbalance_lu_pushes_running_tasks_by_active_balancing() {
    let sim = common::run_preset("group-imbalance-lu");
    let pushed: u64 =
        schedstat::schedstats(&sim).iter().flat_map(|c| c.domains.iter()).map(|d| d.counters.alb_pushed).sum();
    assert!(pushed > 0, "no active balance pushed a task");
}

//! GRUB on Linux 6.12 (SCHED_FLAG_RECLAIM, `dl_reclaim` in a scenario),
//! worked by hand on one CPU (HZ 1000) from deadline.c of 6.12:
//!
//! A deadline hog of 10 ms every 100 ms beside a fair hog. The CPU's counts:
//! the task's bandwidth 0.1 (104,857 in 2^-20 units) and the fair server's
//! 0.05 (52,428), both active, so nothing is inactive; admission took both
//! from Umax = 0.95 (996,147), leaving `extra_bw` 838,862. `grub_reclaim`
//! charges `delta · (Umax − u_inact − extra_bw) / Umax`: 157,285 active, times
//! `bw_ratio` 269/256 (1/0.95), is 165,273, so each 1 ms run costs 0.1576 ms of
//! runtime, and the 10 ms last 63.4 ms of each 100 ms period: the hog takes
//! about 63 % of the CPU where it took 10 % without the flag.

use crate::common::scenario::{Process, Scenario};
use schedlab_core::api::report::report;

fn shares(reclaim: bool, kernel: &str) -> Result<Vec<(String, u64)>, String> {
    let dl = Process::hog("dl", 1_000_000)
        .set("sched_policy", "deadline")
        .set("dl_runtime_us", 10_000)
        .set("dl_deadline_us", 100_000)
        .set("dl_reclaim", reclaim);
    let s = Scenario::one_bare_cpu("grub", 3000).set("kernel", kernel).processes([dl, Process::hog("fair", 1_000_000)]);
    let cfg = schedlab_core::api::scenario::load_scenario(&s.build()).map_err(|e| format!("{e:?}"))?;
    let mut sim = schedlab_core::sim::Simulator::new(&cfg);
    sim.run_to_end();
    Ok(report(&sim).processes.into_iter().map(|p| (p.name, p.cpu_time_ns / 1_000_000)).collect())
}

#[test]
fn a_reclaiming_deadline_hog_takes_the_bandwidth_nobody_uses() {
    let with = shares(true, "6.12").expect("6.12 has GRUB");
    let without = shares(false, "6.12").expect("valid");
    assert!((1870..=1920).contains(&with[0].1), "63.4 ms of each 100 ms: {with:?}");
    assert!((299..=301).contains(&without[0].1), "its 10 ms of each 100 ms: {without:?}");
    assert_eq!(with[0].1 + with[1].1, 3000, "{with:?}");
}

#[test]
fn reclaiming_is_refused_on_4_1_and_for_other_policies() {
    let e = shares(true, "4.1").expect_err("4.1 has no GRUB");
    assert!(e.contains("dl_reclaim") && e.contains("4.13"), "{e}");
    let fair =
        Scenario::new("grub", 10).machine("uniprocessor").processes([Process::hog("f", 1000).set("dl_reclaim", true)]);
    let e = format!("{:?}", schedlab_core::api::scenario::load_scenario(&fair.build()).expect_err("refused"));
    assert!(e.contains("applies to sched_policy 'deadline' only"), "{e}");
}

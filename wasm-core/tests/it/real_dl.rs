//! Deadline threads on the host (issue 38 item 7): `schedsim real` runs a
//! SCHED_DEADLINE hog (its thread asks for its reservation with
//! sched_setattr before its program) beside fair hogs, its thread is a
//! deadline task while it runs and in every sched_switch the trace has of it,
//! and it gets about its runtime in each period; a reservation the host does
//! not admit (EBUSY), may not grant (EPERM, no CAP_SYS_NICE) or does not take
//! (EINVAL: a period past sched_deadline_period_max_us) stops the run
//! with a message, never runs the process as a fair one; and nothing of a run
//! outlives it (no thread, deadline or not).
//!
//! The runtime per period is asserted within wide bounds over a window of
//! many periods (the host's periods start when the thread first runs, not at
//! the window's start, and its throttling is the host's), so the assertion
//! holds on a loaded machine: a deadline task's runtime comes before any fair
//! task's. Without root or tracefs the tests report themselves skipped
//! (`common::skip`), as `real_kernel`'s and `real_rt`'s do.

use crate::common;
use crate::real_kernel::{host_or_skip, tracefs_root};
use crate::real_policy_run::{
    assert_nothing_left, refused_run, scenario_file, schedsim_real, wait_watching, without_cap_sys_nice,
};
use common::scenario::{Process, Scenario};

use schedlab_core::real::sys::{deadline_of, policy_of, set_deadline};
use schedlab_core::sched::policy::DlParams;
use std::process::{Child, Command};

const MS: u64 = 1_000_000;
/// The thread names of the runs here start with this.
const PREFIX: &str = "dlt";

/// A deadline hog (`runtime_ms` of each `period_ms`, deadline = period) beside one fair hog per CPU, so
/// wherever the deadline hog runs it takes its runtime from a fair one (a deadline task cannot be pinned).
fn dl_beside_fair(name: &str, duration_ms: u64, runtime_ms: u64, period_ms: u64) -> String {
    let cpus = schedlab_core::real::host::read_host().expect("the host's topology").machine.nr_cpus();
    Scenario::new(name, duration_ms)
        .machine("host")
        .process(
            Process::hog("dlthog", 100_000)
                .set("sched_policy", "deadline")
                .set("dl_runtime_us", runtime_ms * 1000)
                .set("dl_deadline_us", period_ms * 1000),
        )
        .process(Process::hog("dltfair", 100_000).threads(cpus))
        .build()
}

#[test]
fn a_deadline_hog_gets_about_its_runtime_each_period_and_nothing_is_left() {
    let Some(_host) = host_or_skip() else { return };
    // 20 periods of 50 ms, 5 ms of each.
    let file = scenario_file("real-dl.json", &dl_beside_fair("real-dl", 1000, 5, 50));
    let tracefs_before = tracefs_root();
    let child = schedsim_real(&file).spawn().unwrap();
    let runner = child.id();
    let mut seen = None;
    // Named before it sets its policy: seen once it has (SCHED_DEADLINE is 6).
    let out = wait_watching(child, "dlthog/0", |tid| {
        if policy_of(tid).is_ok_and(|p| p == 6) {
            seen = seen.or(deadline_of(tid).ok().flatten());
        }
    });
    let _ = std::fs::remove_file(&file);
    assert!(out.status.success(), "schedsim real failed: {}", String::from_utf8_lossy(&out.stderr));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let report = &json["report"];
    println!("policies {} notes {}", report["policies"], json["notes"]);

    let asked = DlParams { runtime_ns: 5 * MS, deadline_ns: 50 * MS, period_ns: 50 * MS, reclaim: false };
    assert_eq!(seen, Some(asked), "the hog's thread was never seen holding its reservation");
    // Every switch of its thread in the trace is at the deadline prio, -1.
    let dl = &report["policies"][0];
    assert_eq!(dl["policy"], "deadline");
    assert_eq!(dl["trace_prio"], serde_json::json!([-1, -1]));
    assert_eq!(dl["dl"]["runtime_ns"], 5 * MS);
    assert_eq!(dl["dl"]["period_ns"], 50 * MS);
    // About its runtime each period: the host throttles it at its runtime, and nothing fair comes first.
    let got = dl["dl"]["runtime_per_period_ns"].as_u64().expect("a figure");
    assert!((2 * MS..=8 * MS).contains(&got), "{got} ns per period");
    assert_eq!(report["policies"][1]["policy"], "normal");
    assert!(report["policies"][1]["dl"].is_null());
    assert!(report["processes"][1]["cpu_time_ns"].as_u64().unwrap() > 0, "the fair hogs never ran");
    let notes: Vec<&str> = json["notes"].as_array().unwrap().iter().filter_map(|n| n.as_str()).collect();
    assert!(notes.iter().any(|n| n.contains("'dlthog' SCHED_DEADLINE runtime 5 ms, deadline 50 ms, period 50 ms")));
    assert!(
        notes
            .iter()
            .any(|n| n.starts_with("the host's deadline settings (read, not changed)")
                && n.contains("sched_rt_runtime_us")),
        "{notes:?}"
    );
    assert_nothing_left(runner, &tracefs_before, &[PREFIX]);
}

/// Sleeping processes holding deadline bandwidth (a sleeping deadline task keeps its reservation): killed
/// and reaped when dropped.
struct Blockers(Vec<Child>);

impl Drop for Blockers {
    fn drop(&mut self) {
        for c in &mut self.0 {
            let _ = c.kill();
            let _ = c.wait();
        }
    }
}

/// Reserves quarter-CPU slices with sleeping deadline processes until the host admits no more, so less than
/// a quarter of a CPU is left; or why it cannot (admission control off, or no deadline task allowed here).
fn fill_deadline_bandwidth() -> Result<Blockers, String> {
    let cpus = schedlab_core::real::host::read_host().expect("the host's topology").machine.nr_cpus();
    let quarter = DlParams { runtime_ns: 25 * MS, deadline_ns: 100 * MS, period_ns: 100 * MS, reclaim: false };
    let mut held = Blockers(Vec::new());
    for _ in 0..4 * cpus + 4 {
        let child = Command::new("sleep").arg("30").spawn().expect("sleep");
        let pid = child.id();
        held.0.push(child);
        match set_deadline(pid, 0, &quarter) {
            Ok(()) => {}
            Err(e) if e.raw_os_error() == Some(libc::EBUSY) => return Ok(held),
            Err(e) => return Err(format!("a sleeping deadline process could not be made ({e})")),
        }
    }
    Err("this host admits any deadline reservation (sched_rt_runtime_us -1)".into())
}

#[test]
fn a_reservation_the_host_cannot_admit_stops_the_run_instead_of_running_it_fair() {
    let Some(_host) = host_or_skip() else { return };
    let blockers = match fill_deadline_bandwidth() {
        Ok(b) => b,
        Err(why) => {
            common::skip(&why);
            return;
        }
    };
    // Half a CPU: the scenario's own admission (0.95 of each CPU) takes it, the host has less than a quarter.
    let file = scenario_file("real-dl-ebusy.json", &dl_beside_fair("real-dl-ebusy", 500, 50, 100));
    let tracefs_before = tracefs_root();
    let (runner, err) = refused_run(schedsim_real(&file), &file);
    drop(blockers);
    assert!(
        err.contains(
            "processes[0] ('dlthog'): sched_setattr(SCHED_DEADLINE, runtime 50000000 ns, deadline 100000000 ns, \
             period 100000000 ns) failed: Device or resource busy"
        ) && err.contains("admission control refused it")
            && err.contains("asked for 50.0 % of a CPU")
            && err.contains("does not run a deadline process as a fair one"),
        "{err}"
    );
    assert_nothing_left(runner, &tracefs_before, &[PREFIX]);
}

#[test]
fn a_period_beyond_the_hosts_limit_stops_the_run_with_einval() {
    let Some(_host) = host_or_skip() else { return };
    // The scenario takes periods up to 10 s; the host up to sched_deadline_period_max_us (4.19 s by default).
    let max_us = schedlab_core::real::dl_host::read().period_max_us;
    if max_us.is_none_or(|m| m >= 5_000_000) {
        common::skip("this host takes deadline periods of 5 s (sched_deadline_period_max_us)");
        return;
    }
    let file = scenario_file("real-dl-einval.json", &dl_beside_fair("real-dl-einval", 300, 10, 5_000));
    let tracefs_before = tracefs_root();
    let (runner, err) = refused_run(schedsim_real(&file), &file);
    assert!(
        err.contains("period 5000000000 ns) failed: Invalid argument")
            && err.contains("the host refuses the parameters")
            && err.contains("sched_deadline_period_max_us")
            && err.contains("does not run a deadline process as a fair one"),
        "{err}"
    );
    assert_nothing_left(runner, &tracefs_before, &[PREFIX]);
}

#[test]
fn a_deadline_policy_without_cap_sys_nice_stops_the_run_instead_of_running_it_fair() {
    let Some(_host) = host_or_skip() else { return };
    let file = scenario_file("real-dl-eperm.json", &dl_beside_fair("real-dl-eperm", 500, 5, 50));
    let tracefs_before = tracefs_root();
    // Root without CAP_SYS_NICE: sched_setattr(SCHED_DEADLINE) is EPERM (a deadline policy takes the capability
    // whatever the rlimits say).
    let Some(cmd) = without_cap_sys_nice(&file, false) else { return };
    let (runner, err) = refused_run(cmd, &file);
    assert!(
        err.contains("processes[0] ('dlthog'): sched_setattr(SCHED_DEADLINE, runtime 5000000 ns")
            && err.contains("failed: Operation not permitted")
            && err.contains("CAP_SYS_NICE")
            && err.contains("does not run a deadline process as a fair one"),
        "{err}"
    );
    assert_nothing_left(runner, &tracefs_before, &[PREFIX]);
}

//! Real-time threads on the host (issue 38 item 7): `schedsim real` runs a
//! SCHED_FIFO hog beside a fair hog pinned to one CPU, the hog's thread is
//! SCHED_FIFO while it runs and in every sched_switch the trace has of it, and
//! nothing of the run outlives it: not after a run, not after Ctrl-C, not
//! after a refusal. A policy the host does not permit stops the run with a
//! message (never runs the process as a fair one).
//!
//! Nothing here measures a share: what the FIFO hog leaves the fair one
//! depends on the host (its fair server, its throttling, its other load), so
//! the tests assert only what must hold. Without root or tracefs they report
//! themselves skipped (`common::skip`), as `real_kernel`'s do.

use crate::common;
use crate::real_kernel::{host_or_skip, tracefs_root};
use crate::real_policy_run::{
    assert_nothing_left, refused_run, scenario_file, schedsim_real, tids_named, wait_watching, without_cap_sys_nice,
};
use common::scenario::{Process, Scenario};

use schedlab_core::real::sys::policy_of;
use std::path::Path;
use std::process::Child;

/// A FIFO hog (priority 10) and a fair hog, both pinned to the host's last CPU.
fn fifo_beside_fair(name: &str, duration_ms: u64) -> String {
    let cpu = (schedlab_core::real::host::read_host().expect("the host's topology").machine.nr_cpus() - 1).to_string();
    Scenario::new(name, duration_ms)
        .machine("host")
        .process(Process::hog("rtfifo", 100_000).cpus(&cpu).set("sched_policy", "fifo").set("rt_priority", 10))
        .process(Process::hog("rtfair", 100_000).cpus(&cpu))
        .build()
}

const PREFIXES: &[&str] = &["rtfifo", "rtfair"];

fn start(file: &Path) -> Child {
    schedsim_real(file).spawn().unwrap()
}

#[test]
fn a_fifo_hog_runs_as_sched_fifo_beside_a_fair_one_and_nothing_is_left() {
    let Some(_host) = host_or_skip() else { return };
    let file = scenario_file("real-fifo.json", &fifo_beside_fair("real-fifo", 600));
    let tracefs_before = tracefs_root();
    let child = start(&file);
    let runner = child.id();
    let mut seen_fifo = false;
    // Named before it sets its policy: seen once it has.
    let out = wait_watching(child, "rtfifo/0", |tid| seen_fifo |= policy_of(tid).is_ok_and(|p| p == libc::SCHED_FIFO));
    let _ = std::fs::remove_file(&file);
    assert!(out.status.success(), "schedsim real failed: {}", String::from_utf8_lossy(&out.stderr));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let report = &json["report"];
    println!("policies {} notes {}", report["policies"], json["notes"]);

    assert!(seen_fifo, "the FIFO hog's thread was never seen as SCHED_FIFO while it ran");
    // Every switch of its thread in the trace is at prio 99 - 10; the fair hog's at 120 (nice 0).
    let policy = |i: usize| &report["policies"][i];
    assert_eq!(policy(0)["policy"], "fifo");
    assert_eq!(policy(0)["rt_priority"], 10);
    assert_eq!(policy(0)["trace_prio"], serde_json::json!([89, 89]));
    assert_eq!(policy(1)["policy"], "normal");
    assert_eq!(policy(1)["trace_prio"], serde_json::json!([120, 120]));
    assert!(report["processes"][0]["cpu_time_ns"].as_u64().unwrap() > 0, "the FIFO hog never ran");
    let notes: Vec<&str> = json["notes"].as_array().unwrap().iter().filter_map(|n| n.as_str()).collect();
    assert!(notes.iter().any(|n| n.contains("'rtfifo' SCHED_FIFO 10")), "{notes:?}");
    assert!(notes.iter().any(|n| n.starts_with("the host's real-time bandwidth") && n.contains("sched_rt_runtime_us")));
    assert_nothing_left(runner, &tracefs_before, PREFIXES);
}

#[test]
fn ctrl_c_stops_a_pinned_fifo_hog_and_leaves_nothing() {
    let Some(_host) = host_or_skip() else { return };
    // Long enough that only the signal ends it.
    let file = scenario_file("real-fifo-int.json", &fifo_beside_fair("real-fifo-int", 30_000));
    let tracefs_before = tracefs_root();
    let child = start(&file);
    let runner = child.id();
    // The signal once the hog is real-time (its handler is in place before any process starts).
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    while !tids_named("rtfifo/0").into_iter().any(|t| policy_of(t).is_ok_and(|p| p == libc::SCHED_FIFO)) {
        assert!(std::time::Instant::now() < deadline, "the FIFO hog did not start");
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    // SAFETY: signalling the child started above, not yet waited for.
    unsafe { libc::kill(runner as libc::pid_t, libc::SIGINT) };
    let out = child.wait_with_output().unwrap();
    let _ = std::fs::remove_file(&file);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("interrupted: every process the run started was stopped"), "{err}");
    assert_nothing_left(runner, &tracefs_before, PREFIXES);
}

#[test]
fn a_real_time_policy_the_host_refuses_stops_the_run_instead_of_running_it_fair() {
    let Some(_host) = host_or_skip() else { return };
    let file = scenario_file("real-fifo-eperm.json", &fifo_beside_fair("real-fifo-eperm", 500));
    let tracefs_before = tracefs_root();
    // Root without CAP_SYS_NICE and with RLIMIT_RTPRIO 0: sched_setscheduler(SCHED_FIFO) is EPERM.
    let Some(cmd) = without_cap_sys_nice(&file, true) else { return };
    let (runner, err) = refused_run(cmd, &file);
    assert!(
        err.contains(
            "processes[0] ('rtfifo'): sched_setscheduler(SCHED_FIFO, priority 10) failed: Operation not permitted"
        ) && err.contains("CAP_SYS_NICE")
            && err.contains("does not run a real-time process as a fair one"),
        "{err}"
    );
    assert_nothing_left(runner, &tracefs_before, PREFIXES);
}

#[test]
fn a_real_time_process_in_a_cgroup_without_real_time_runtime_is_refused_by_name() {
    let Some(_host) = host_or_skip() else { return };
    if schedlab_core::real::rt_host::read().rt_group.is_none() {
        common::skip("this host does not schedule real-time tasks by cgroup (no cpu.rt_runtime_us)");
        return;
    }
    let mut v: serde_json::Value = serde_json::from_str(&fifo_beside_fair("real-fifo-cgroup", 300)).unwrap();
    v["cgroups"] = serde_json::json!([{ "name": "rtgroup", "shares": 1024 }]);
    v["processes"][0]["cgroup"] = "rtgroup".into();
    let file = scenario_file("real-fifo-cgroup.json", &v.to_string());
    let tracefs_before = tracefs_root();
    let (runner, err) = refused_run(schedsim_real(&file), &file);
    assert!(err.contains("Operation not permitted") && err.contains("give the real-time process no cgroup"), "{err}");
    assert_nothing_left(runner, &tracefs_before, PREFIXES);
}

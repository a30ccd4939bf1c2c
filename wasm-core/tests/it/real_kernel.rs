//! Acceptance test of `schedsim real` (issue 15): two CPU hogs pinned to one
//! CPU of this host at nice 0 and nice 5 share it as their weights say,
//! 1024 : 335 (75.3 % : 24.7 %), within 3 points; afterwards no thread of the
//! run is alive and its tracing instance is off and gone.
//!
//! The share is a ratio of the two hogs' own run times, summed from the
//! kernel's sched_switch records, so other load on the machine (it takes
//! time from both alike: the hogs are one autogroup, one session) does not
//! move it. Without root or tracefs the tests report themselves skipped, with
//! the reason (`common::skip`), and return.

use crate::common;
use common::scenario::{repeat, run, Process, Scenario};

use schedlab_core::real::spawn::LEADER_NAME;
use serde_json::json;
use std::path::Path;
use std::process::Command;
use std::sync::MutexGuard;

fn skip_reason() -> Option<String> {
    if let Some(m) = schedlab_core::real::runner::missing() {
        return Some(m);
    }
    let fs = std::fs::read_to_string("/proc/filesystems").unwrap_or_default();
    if !fs.lines().any(|l| l.split_whitespace().last() == Some("tracefs")) {
        return Some("this kernel has no tracefs".into());
    }
    schedlab_core::real::host::read_host().err().map(|e| format!("the engine cannot describe this host: {e}"))
}

/// This host to run a workload on, held for the test (`common::host_exclusive`);
/// None if it cannot run one, the test then reported skipped (`common::skip`).
pub(crate) fn host_or_skip() -> Option<MutexGuard<'static, ()>> {
    if let Some(why) = skip_reason() {
        common::skip(&why);
        return None;
    }
    Some(common::host_exclusive())
}

/// Where tracefs is mounted now, if it is.
pub(crate) fn tracefs_root() -> Option<String> {
    let mounts = std::fs::read_to_string("/proc/mounts").ok()?;
    mounts
        .lines()
        .map(|l| l.split_whitespace().collect::<Vec<_>>())
        .find(|f| f.get(2) == Some(&"tracefs"))
        .map(|f| f[1].to_string())
}

/// Every thread on the machine whose name passes `pick`.
pub(crate) fn threads_named(pick: impl Fn(&str) -> bool) -> Vec<String> {
    let mut out = Vec::new();
    for p in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(tasks) = std::fs::read_dir(p.path().join("task")) else { continue };
        for t in tasks.flatten() {
            let comm = std::fs::read_to_string(t.path().join("comm")).unwrap_or_default();
            if pick(comm.trim()) {
                out.push(format!("{} {}", t.file_name().to_string_lossy(), comm.trim()));
            }
        }
    }
    out
}

/// The machine as the runs found it in `/run`: no `schedlab-*` file left there by them. Another
/// `schedsim` alive now (another checkout's tests) may hold the tracefs lock files for its own run: they
/// are then its, not a leftover (a run removes them before it exits when it is the last user, so a file
/// seen while no schedsim is alive is always a leftover).
pub(crate) fn assert_no_run_files_left() {
    let left: Vec<String> = std::fs::read_dir("/run")
        .map(|d| d.flatten().map(|e| e.file_name().to_string_lossy().into_owned()).collect())
        .unwrap_or_default();
    let left: Vec<&String> = left.iter().filter(|n| n.starts_with("schedlab-")).collect();
    if !left.is_empty() {
        let others = threads_named(|c| c == "schedsim");
        assert!(!others.is_empty(), "the runs left {left:?} in /run");
        // Not a skip: the rest of the test held; only this check is left to that run's own end.
        println!("note: {left:?} in /run belong to a schedsim still running ({others:?})");
    }
}

fn hogs_scenario(cpu: u32) -> String {
    let hog = |name: &str, nice: i32| Process::hog(name, 100_000).nice(nice).cpus(&cpu.to_string()).session("hogs");
    Scenario::new("real-two-hogs", 300).machine("host").process(hog("hog0", 0)).process(hog("hog5", 5)).build()
}

#[test]
fn two_pinned_hogs_share_a_cpu_by_their_nice_weights_and_nothing_is_left_behind() {
    let Some(_host) = host_or_skip() else { return };
    let host = schedlab_core::real::host::read_host().expect("the host's topology");
    // The last CPU (model numbering; the runner maps it to the host's).
    let cpu = host.machine.nr_cpus() - 1;
    let scenario = hogs_scenario(cpu);
    let dir = common::temp_path("real-test");
    std::fs::create_dir_all(&dir).unwrap();
    let (file, saved) = (dir.join("two-hogs.json"), dir.join("two-hogs.trace.txt"));
    std::fs::write(&file, scenario).unwrap();
    let tracefs_before = tracefs_root();
    let global_on = tracefs_before.as_ref().and_then(|r| std::fs::read_to_string(format!("{r}/tracing_on")).ok());

    let child = Command::new(env!("CARGO_BIN_EXE_schedsim"))
        .args(["real", file.to_str().unwrap(), "--json", "--save-trace", saved.to_str().unwrap()])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let runner = child.id();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "schedsim real failed: {}", String::from_utf8_lossy(&out.stderr));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let procs = json["report"]["processes"].as_array().unwrap();
    let cpu_ns = |i: usize| procs[i]["cpu_time_ns"].as_u64().unwrap();
    let (a, b) = (cpu_ns(0), cpu_ns(1));
    let share = a as f64 / (a + b) as f64;
    let want = 1024.0 / (1024.0 + 335.0);
    println!(
        "hog0 (nice 0) ran {:.3} ms, hog5 (nice 5) {:.3} ms on CPU {cpu}: {:.1} % : {:.1} % (weights 1024 : 335 = {:.1} % : {:.1} %)",
        a as f64 / 1e6,
        b as f64 / 1e6,
        share * 100.0,
        (1.0 - share) * 100.0,
        want * 100.0,
        (1.0 - want) * 100.0
    );
    assert!(a + b > 0, "the hogs never ran");
    assert!(
        (share - want).abs() < 0.03,
        "hog0's share {:.1} % is not within 3 points of {:.1} %",
        share * 100.0,
        want * 100.0
    );

    // The saved trace reads back to the same figures.
    let text = std::fs::read_to_string(&saved).unwrap();
    let again = schedlab_core::real::report_from_trace(&text).unwrap();
    assert_eq!((again.processes[0].cpu_time_ns, again.processes[1].cpu_time_ns), (a, b));

    // No thread of the run is alive.
    let w = schedlab_core::real::manifest::Workload::from_header(&text).unwrap();
    let tids: Vec<u32> = w.processes.iter().flat_map(|p| p.tids.clone()).collect();
    assert_eq!(tids.len(), 2);
    for tid in &tids {
        assert!(!Path::new(&format!("/proc/{tid}")).exists(), "thread {tid} of the run is still alive");
    }
    assert!(!Path::new(&format!("/proc/{runner}")).exists(), "the runner is still alive");
    let leftovers = threads_named(|c| c.starts_with("hog0") || c.starts_with("hog5") || c == LEADER_NAME);
    assert!(leftovers.is_empty(), "processes of the run are left: {leftovers:?}");
    // Tracing as it was: the instance gone, the global switch untouched, tracefs mounted only if it was.
    let tracefs_after = tracefs_root();
    assert_eq!(tracefs_after, tracefs_before, "tracefs mounts changed");
    if let Some(root) = &tracefs_after {
        assert!(!Path::new(&format!("{root}/instances/schedlab-{runner}")).exists(), "the tracing instance is left");
        assert_eq!(std::fs::read_to_string(format!("{root}/tracing_on")).ok(), global_on);
    }
    assert_no_run_files_left();
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn fidelity_prints_the_model_beside_the_host_kernel() {
    let Some(_host) = host_or_skip() else { return };
    let cpu = schedlab_core::real::host::read_host().expect("the host's topology").machine.nr_cpus() - 1;
    let file = common::temp_path("fidelity-test.json");
    std::fs::write(&file, hogs_scenario(cpu)).unwrap();
    let run = |args: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_schedsim")).args(args).output().unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8(out.stdout).unwrap()
    };
    let path = file.to_str().unwrap();
    // The scenario names no kernel: fidelity models it on the generation nearest this host's, and says so.
    let release = schedlab_core::real::sys::kernel_release();
    let nearest = schedlab_core::real::generation::nearest_generation(&release).expect("a readable release");
    let named = schedlab_core::real::generation::generation_release(nearest);
    let mut on_nearest: serde_json::Value = serde_json::from_str(&hogs_scenario(cpu)).unwrap();
    on_nearest["kernel"] = named.into();
    let nearest_file = common::temp_path("fidelity-test-nearest.json");
    std::fs::write(&nearest_file, on_nearest.to_string()).unwrap();
    let model: serde_json::Value =
        serde_json::from_str(&run(&["run", nearest_file.to_str().unwrap(), "--json"])).unwrap();
    let side_by_side = run(&["fidelity", path]);
    let _ = std::fs::remove_file(&file);
    let _ = std::fs::remove_file(&nearest_file);
    println!("{side_by_side}");
    assert!(side_by_side.contains(&format!("the model runs Linux {named}")), "{side_by_side}");
    // The model's column is `schedsim run`'s figure on that generation; the host's is measured; a relative error follows.
    let model_ms = model["processes"][0]["cpu_time_ns"].as_u64().unwrap() as f64 / 1e6;
    let row = side_by_side.lines().find(|l| l.starts_with("hog0") && l.contains("cpu ms")).expect("hog0's cpu row");
    let cells: Vec<&str> = row.split_whitespace().collect();
    assert_eq!(cells[3], format!("{model_ms:.3}"), "{row}");
    assert!(cells[4].parse::<f64>().unwrap() > 0.0 && cells[5].ends_with('%'), "{row}");
}

/// `post`/`await` on the host (`real::flag`): a 3-thread pipeline of 20
/// stages ends with each of the three wait policies, every thread having run
/// its 20 × 2 ms of work (the waits add CPU time only when spun away).
#[test]
fn a_flag_pipeline_ends_on_the_host_with_every_wait_policy() {
    let Some(_host) = host_or_skip() else { return };
    let dir = common::temp_path("real-flags");
    std::fs::create_dir_all(&dir).unwrap();
    for wait in [
        json!({ "wait_policy": "spin" }),
        json!({ "wait_policy": "yield", "spin_us": 50 }),
        json!({ "wait_policy": "block" }),
    ] {
        let flag = |op: &str| {
            let mut s = wait.clone();
            s[op] = json!("f");
            s
        };
        let stages = repeat(20, [flag("await"), run(2000), flag("post")]);
        let scenario = Scenario::new("real-pipeline", 3000)
            .machine("host")
            .process(Process::new("pipe").threads(3).program([stages]))
            .build();
        let file = dir.join("pipeline.json");
        std::fs::write(&file, scenario).unwrap();
        let out = Command::new(env!("CARGO_BIN_EXE_schedsim"))
            .args(["real", file.to_str().unwrap(), "--json"])
            .output()
            .unwrap();
        assert!(out.status.success(), "{wait}: {}", String::from_utf8_lossy(&out.stderr));
        let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        let p = &json["report"]["processes"][0];
        assert!(p["completion_ns"].as_u64().is_some(), "{wait}: the pipeline did not end: {p}");
        let cpu = p["cpu_time_ns"].as_u64().unwrap();
        assert!(cpu >= 3 * 20 * 2_000_000 * 95 / 100, "{wait}: the work is 120 ms of CPU, ran {cpu}");
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn two_real_runs_at_once_both_report_and_tracefs_is_left_as_it_was() {
    let Some(_host) = host_or_skip() else { return };
    let host = schedlab_core::real::host::read_host().expect("the host's topology");
    let dir = common::temp_path("real-twice");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("two-hogs.json");
    std::fs::write(&file, hogs_scenario(host.machine.nr_cpus() - 1)).unwrap();
    let tracefs_before = tracefs_root();
    // Started together, they overlap for most of their 300 ms (how much does not matter: each must end
    // with its report, and the last one out restore the mount).
    let start = || {
        Command::new(env!("CARGO_BIN_EXE_schedsim"))
            .args(["real", file.to_str().unwrap(), "--json"])
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap()
    };
    let (a, b) = (start(), start());
    for (name, child) in [("first", a), ("second", b)] {
        let out = child.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "the {name} run failed: {err}");
        let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("a report");
        assert_eq!(json["report"]["processes"].as_array().map(Vec::len), Some(2), "{name}");
    }
    assert_eq!(tracefs_root(), tracefs_before, "tracefs mounts changed");
    let leftovers = threads_named(|c| c.starts_with("hog0") || c.starts_with("hog5") || c == LEADER_NAME);
    assert!(leftovers.is_empty(), "processes of the runs are left: {leftovers:?}");
    assert_no_run_files_left();
    let _ = std::fs::remove_dir_all(&dir);
}

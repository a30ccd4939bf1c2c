//! Process templates: named programs for the workloads the product's
//! scenarios use, expanded into ordinary program steps when a scenario is
//! loaded (so a template is only shorthand, never a special case in the
//! engine). Durations are in microseconds, as in scenario files.
//!
//! | template | models |
//! |---|---|
//! | `cpu-hog` | `stress -c`: computes forever |
//! | `r-single` | a single-threaded R process: computes forever |
//! | `pi` | the DW-CFS paper's pi computation: a fixed amount of work, then exit |
//! | `make-jobs` | one `make -j` worker: compile jobs of 20–60 ms with short I/O waits |
//! | `nas-lu` | NAS lu: short steps joined by barriers that spin 5 ms before blocking |
//! | `nas-ep` | NAS ep: long independent computation, one barrier at the end |
//! | `nas-cg` | NAS cg: medium steps and blocking barriers |
//! | `db-worker` | a TPC-H-like worker: short queries between frequent sleeps |
//! | `kernel-thread` | a transient kernel thread: mostly asleep, short bursts |
//! | `schbench-worker` | a latency-sensitive worker: wakes every ~1 ms for ~100 µs |
//! | `sysbench-threads` | `sysbench threads`: lock, tiny critical section, unlock, yield |

use super::scenario::{DistFile, OpFile};

fn run(us: DistFile) -> OpFile {
    OpFile { run_us: Some(us), ..Default::default() }
}

fn sleep(us: DistFile) -> OpFile {
    OpFile { sleep_us: Some(us), ..Default::default() }
}

fn repeat(times: Option<u32>, body: Vec<OpFile>) -> OpFile {
    OpFile { repeat: times, body: Some(body), ..Default::default() }
}

fn barrier(name: &str, spin_us: u64) -> OpFile {
    OpFile {
        barrier: Some(name.into()),
        spin_us: (spin_us > 0).then_some(DistFile::Fixed(spin_us)),
        ..Default::default()
    }
}

fn uniform(lo: u64, hi: u64) -> DistFile {
    DistFile::Uniform { uniform: [lo, hi] }
}

fn exp(mean: u64) -> DistFile {
    DistFile::Exponential { exp: mean }
}

pub const TEMPLATE_NAMES: &[&str] = &[
    "cpu-hog",
    "r-single",
    "pi",
    "make-jobs",
    "nas-lu",
    "nas-ep",
    "nas-cg",
    "db-worker",
    "kernel-thread",
    "schbench-worker",
    "sysbench-threads",
];

/// The program of a template, or None for an unknown name.
pub fn template_program(name: &str) -> Option<Vec<OpFile>> {
    use DistFile::Fixed;
    Some(match name {
        "cpu-hog" | "r-single" => vec![repeat(None, vec![run(Fixed(100_000))])],
        "pi" => vec![repeat(Some(100), vec![run(Fixed(10_000))])],
        "make-jobs" => vec![repeat(Some(60), vec![run(uniform(20_000, 60_000)), sleep(exp(3_000))])],
        "nas-lu" => vec![repeat(Some(500), vec![run(Fixed(2_000)), barrier("step", 5_000)])],
        "nas-ep" => vec![run(Fixed(2_000_000)), barrier("end", 0)],
        "nas-cg" => vec![repeat(Some(200), vec![run(Fixed(5_000)), barrier("iter", 0)])],
        "db-worker" => vec![repeat(Some(2_000), vec![run(exp(400)), sleep(exp(300))])],
        "kernel-thread" => vec![repeat(None, vec![sleep(exp(5_000)), run(exp(2_000))])],
        "schbench-worker" => vec![repeat(None, vec![sleep(exp(1_000)), run(Fixed(100))])],
        "sysbench-threads" => vec![repeat(
            None,
            vec![
                OpFile { lock: Some("m".into()), ..Default::default() },
                run(Fixed(10)),
                OpFile { unlock: Some("m".into()), ..Default::default() },
                OpFile { yield_cpu: Some(true), ..Default::default() },
            ],
        )],
        _ => return None,
    })
}

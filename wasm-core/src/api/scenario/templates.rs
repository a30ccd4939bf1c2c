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
//! | `nas-lu` | NAS lu (NPB3.3-OMP, class B, 64 threads, 5 SSOR iterations): `nas_lu_program` |
//! | `nas-ep` | NAS ep: long independent computation, one barrier at the end |
//! | `nas-cg` | NAS cg: medium steps joined by OpenMP barriers |
//! | `db-worker` | a TPC-H-like worker: short queries between frequent sleeps |
//! | `kernel-thread` | a transient kernel thread: mostly asleep, short bursts |
//! | `schbench-worker` | a latency-sensitive worker: wakes every ~1 ms for ~100 µs |
//! | `sysbench-threads` | `sysbench threads`: lock, tiny critical section, unlock, yield |

use super::steps::{DistFile, OpFile};

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

/// An OpenMP barrier as libgomp waits at it when OMP_WAIT_POLICY is unset:
/// GOMP_SPINCOUNT (300,000) rounds of a pause loop, about 1 ms [RECALL], then
/// a futex.
fn omp_barrier(name: &str) -> OpFile {
    barrier(name, OMP_SPIN_US)
}

const OMP_SPIN_US: u64 = 1_000;

fn flag(post: bool, name: &str) -> OpFile {
    let name = Some(name.to_string());
    if post {
        OpFile { post: name, ..Default::default() }
    } else {
        OpFile { await_flag: name, ..Default::default() }
    }
}

/// SSOR iterations simulated (NAS runs 250 for class B; the shape of one
/// iteration is what the scheduler sees, so a few suffice).
pub const NAS_LU_ITERATIONS: u32 = 5;

/// NAS lu as NPB3.3-OMP writes it, for one of `threads` threads of class B
/// (a 102³ grid, 100 interior k-planes). One SSOR iteration of NPB's `ssor`:
///
/// ```text
///   rsd scaled (omp do nowait) ; barrier
///   lower sweep, k = 2 … nz−1:  jacld(k) ; sync_left ; blts(k) ; sync_right
///   barrier
///   upper sweep, k = nz−1 … 2:  jacu(k)  ; sync_left ; buts(k) ; sync_right
///   barrier ; u updated (omp do nowait) ; end of the parallel region (a barrier)
///   rhs: four work-sharing loops, each ending at a barrier
/// ```
///
/// `sync_left` spins until the left neighbour's `isync` flag is set and
/// clears it; `sync_right` spins until its own flag is clear and sets it; the
/// first and last threads skip the side with no neighbour. Those are the
/// `await` / `post` steps with wait_policy "spin" (NAS's own loops); the
/// barriers are libgomp's (`omp_barrier`).
///
/// Durations [ESTIMATE]: NPB counts about 2.0 × 10⁹ operations per class-B
/// iteration (its Mop formula at n = 102); at about 1 Gop/s per core, 2 s of
/// serial work per iteration, split as NPB's timers usually show it
/// [RECALL]: jacld and jacu 13 % each, blts and buts 20 % each, rhs 32 %,
/// the update 2 %. Each thread does 1/threads of every part (a plane's
/// share for the sweeps). Nothing here is fitted to the paper's slowdowns.
pub fn nas_lu_program(threads: u32) -> Vec<OpFile> {
    use DistFile::Fixed;
    let t = u64::from(threads.max(1));
    // Serial microseconds per iteration, by part.
    let (jac, solve, rhs, update) = (260_000, 400_000, 640_000, 40_000);
    let planes = 100;
    let share = |us: u64| (us / t).max(1);
    let sweep = || {
        repeat(
            Some(planes),
            vec![
                run(Fixed(share(jac / u64::from(planes)))),
                flag(false, "isync"),
                run(Fixed(share(solve / u64::from(planes)))),
                flag(true, "isync"),
            ],
        )
    };
    let mut rhs_loops = Vec::new();
    for _ in 0..4 {
        rhs_loops.push(run(Fixed(share(rhs / 4))));
        rhs_loops.push(omp_barrier("rhs"));
    }
    let mut body = vec![omp_barrier("ssor"), sweep(), omp_barrier("ssor"), sweep(), omp_barrier("ssor")];
    body.push(run(Fixed(share(update))));
    body.push(omp_barrier("ssor"));
    body.extend(rhs_loops);
    vec![repeat(Some(NAS_LU_ITERATIONS), body)]
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
        "nas-lu" => nas_lu_program(64),
        "nas-ep" => vec![run(Fixed(2_000_000)), omp_barrier("end")],
        "nas-cg" => vec![repeat(Some(200), vec![run(Fixed(5_000)), omp_barrier("iter")])],
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

//! The threads every run of this module is made on, and the memory its sched_ext policies are counted by: what
//! `schedsim` gives a policy (`wasm-core/src/bin/schedsim.rs`), so that a policy run from Python meets the same
//! limits with the same words, and a hostile one ends as a failed policy in its run's report, not with the Python
//! process.
//!
//! - **Stack.** boa recurses in Rust where a policy makes it read through a deep structure (a prototype chain of
//!   100,000 objects, `JSON.stringify` of an object nested as deep), and its parser recurses on a policy file's
//!   brackets; a Python thread's stack (8 MiB as a rule) or rayon's default one (2 MiB) would overflow, and an
//!   overflow aborts the process. Every run, and every read of a scenario file, is made on a rayon pool whose
//!   threads have `schedsim`'s 256 MiB stack (reserved; its pages touched only as used), built once per process.
//! - **Memory.** The policy's heap is counted by the module's global allocator (`policy_heap::Counting`) and read
//!   by the guard through the probe `register_policy_memory` sets: past 64 MiB the policy fails. A single request
//!   past the hard cap (twice that) is let through: `schedsim` exits there and the page's guest traps, but a Python
//!   process must not be ended by a guest; the guard ends the policy at its next step (what one statement
//!   allocates before that step is not bounded: the allocator can only let a request through or abort).

use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use schedlab_edges::sim::ext::guard;
use schedlab_edges::sim::ext::policy_heap::{self, Counting, FatalLine};
use std::sync::Mutex;

#[global_allocator]
static ALLOC: Counting = Counting { on_fatal: let_through };

/// A request past the hard cap goes through (false: it does not fail): the process lives on, and the guard reads
/// the heap at the policy's next step and ends it with the memory limit's message.
fn let_through(_line: &FatalLine) -> bool {
    false
}

/// How the guard reads a policy's heap: once, when the module is imported.
pub fn register_policy_memory() {
    guard::set_memory_probe(policy_heap::policy_bytes, policy_heap::reset);
}

/// Each engine thread's stack, as `schedsim`'s main thread and its sweep workers have
/// (`wasm-core/src/bin/shared/parallel.rs`, `WORKER_STACK_BYTES`).
const STACK_BYTES: usize = 256 << 20;

/// The pool and the process that built it. A forked child (`multiprocessing`'s default start on Linux, after a run
/// in the parent) inherits the pool but none of its threads, and would wait on it for ever: it builds its own, and
/// the parent's is left alone (dropping it would wait for threads that are not there).
static POOL: Mutex<Option<(u32, &'static rayon::ThreadPool)>> = Mutex::new(None);

/// This process's pool: one thread per core (`RAYON_NUM_THREADS` caps them), built at first use.
fn pool() -> PyResult<&'static rayon::ThreadPool> {
    let mut kept = POOL.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    let pid = std::process::id();
    if let Some((built_by, pool)) = *kept {
        if built_by == pid {
            return Ok(pool);
        }
    }
    let built = rayon::ThreadPoolBuilder::new()
        .stack_size(STACK_BYTES)
        .thread_name(|i| format!("schedlab-engine-{i}"))
        .build()
        .map_err(|e| PyRuntimeError::new_err(format!("cannot start the engine's threads: {e}")))?;
    let pool: &'static rayon::ThreadPool = Box::leak(Box::new(built));
    *kept = Some((pid, pool));
    Ok(pool)
}

/// `f` on the engine's threads (its parallel iterators there too), without the GIL; the caller waits for it.
pub fn on_engine_threads<R: Send>(py: Python<'_>, f: impl FnOnce() -> R + Send) -> PyResult<R> {
    let pool = pool()?;
    Ok(py.allow_threads(|| pool.install(f)))
}

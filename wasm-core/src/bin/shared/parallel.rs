//! Independent simulations on every core, for the native binaries (rayon
//! is a native-only dependency: the wasm build never compiles it). Each run
//! is a pure function of its scenario and seed, so running them at once
//! changes nothing but the wall time; results come back in the order of
//! their inputs, whichever finished first, so output is the same bytes at
//! any thread count.

// Each binary includes this file and uses part of it.
#![allow(dead_code)]

use rayon::prelude::*;

/// `f` of each of `items`, computed in parallel, in the items' order.
pub fn map_in_order<T: Sync, R: Send>(items: &[T], f: impl Fn(&T) -> R + Sync + Send) -> Vec<R> {
    items.par_iter().map(f).collect()
}

/// `f(i)` for `i` in `0..n`, computed in parallel, in index order.
pub fn map_indices<R: Send>(n: usize, f: impl Fn(usize) -> R + Sync + Send) -> Vec<R> {
    (0..n).into_par_iter().map(f).collect()
}

/// `f(i)` for `i` in `0..n` on every thread of the current pool, the
/// indices handed out in order (each thread takes the lowest not taken), so
/// results come in close to index order and a consumer printing them in
/// order waits for little; `stop` ends the handing out.
pub fn for_each_index(n: usize, f: impl Fn(usize) + Sync, stop: impl Fn() -> bool + Sync) {
    use std::sync::atomic::{AtomicUsize, Ordering};
    let next = AtomicUsize::new(0);
    rayon::scope(|s| {
        for _ in 0..rayon::current_num_threads() {
            s.spawn(|_| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= n || stop() {
                    break;
                }
                f(i);
            });
        }
    });
}

/// Each worker's stack: reserved, its pages touched only as used.
pub const WORKER_STACK_BYTES: usize = 256 << 20;

/// The most threads `--jobs` may ask for.
pub const MAX_JOBS: usize = 1024;

/// A pool of `jobs` threads (None: one per core, or `RAYON_NUM_THREADS`).
pub fn pool(jobs: Option<usize>) -> Result<rayon::ThreadPool, String> {
    // The stack a policy's engine may need (`schedsim`'s main thread has as much).
    let mut b = rayon::ThreadPoolBuilder::new().stack_size(WORKER_STACK_BYTES);
    if let Some(n) = jobs {
        b = b.num_threads(n);
    }
    b.build().map_err(|e| format!("cannot start the worker threads: {e}"))
}

/// Reads `--jobs`' argument: a thread count, 1 to `MAX_JOBS`.
pub fn parse_jobs(s: &str) -> Result<usize, String> {
    s.parse()
        .ok()
        .filter(|n| (1..=MAX_JOBS).contains(n))
        .ok_or_else(|| format!("--jobs {s}: expected a thread count, 1 to {MAX_JOBS}"))
}

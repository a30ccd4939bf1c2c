//! The guest's allocator: the system's (dlmalloc in wasm), counting a
//! policy's heap as the CLI's does (`sim/ext/policy_heap.rs`). A single
//! request past the hard cap cannot be refused gracefully: the line that
//! names it is kept here, the allocation fails (a trap), and the page reads
//! the line (`scx_fatal`) from the stopped instance's memory.

use schedlab_engine::sim::ext::policy_heap::{self, Counting, FatalLine};
use std::cell::UnsafeCell;
use std::sync::atomic::{AtomicUsize, Ordering};

#[cfg(target_arch = "wasm32")]
#[global_allocator]
static ALLOC: Counting = Counting { on_fatal: keep };

struct Kept {
    bytes: UnsafeCell<[u8; 200]>,
    len: AtomicUsize,
}

// SAFETY: the guest is one thread (a wasm instance without threads); the
// bytes are written once, just before the trap, and read after it.
unsafe impl Sync for Kept {}

static FATAL: Kept = Kept { bytes: UnsafeCell::new([0; 200]), len: AtomicUsize::new(0) };

/// Keeps the line's reason (the page's engine names the callback itself) and
/// fails the request.
fn keep(line: &FatalLine) -> bool {
    keep_text(line.reason());
    true
}

/// Keeps `src` (cut at 200 bytes) as the words for the trap that follows.
pub fn keep_text(src: &[u8]) {
    let n = src.len().min(200);
    // SAFETY: see `Kept`: no other reference to the bytes is alive.
    unsafe { (&mut *FATAL.bytes.get())[..n].copy_from_slice(&src[..n]) };
    FATAL.len.store(n, Ordering::Relaxed);
}

/// The kept line ("" if none).
pub fn fatal_text() -> &'static [u8] {
    let n = FATAL.len.load(Ordering::Relaxed);
    // SAFETY: see `Kept`: the bytes are not being written.
    unsafe { &(&*FATAL.bytes.get())[..n] }
}

pub fn policy_bytes() -> usize {
    policy_heap::policy_bytes()
}

pub fn reset() {
    policy_heap::reset()
}

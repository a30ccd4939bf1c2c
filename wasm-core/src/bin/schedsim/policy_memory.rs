//! The CLI's end of a policy's allocation past the hard cap
//! (`sim/ext/policy_heap.rs` counts; this decides): one line on stderr
//! naming the callback and the limit, and the exit status, instead of
//! Rust's abort and backtrace.

use schedlab_core::sim::ext::policy_heap::{Counting, FatalLine};

/// Status for a run ended by its policy's single allocation past the limit.
pub const POLICY_OUT_OF_MEMORY: i32 = 4;

/// The binary's allocator: the system's, counting a policy's heap.
pub const ALLOCATOR: Counting = Counting { on_fatal: exit_on };

fn exit_on(line: &FatalLine) -> bool {
    // SAFETY: writing buffers we own to stderr, then ending the process
    // without running destructors (the heap may be mid-update).
    unsafe {
        for part in [&b"schedsim: the sched_ext policy failed: "[..], line.bytes(), b"; the run stops\n"] {
            libc::write(2, part.as_ptr().cast(), part.len());
        }
        libc::_exit(POLICY_OUT_OF_MEMORY)
    }
}

//! The memory a sched_ext policy may take, counted by the allocator of
//! whatever runs it (the library has no allocator of its own to ask): the
//! CLI's binary and the page's policy guest each install `Counting` as
//! their global allocator. While a policy's callback runs on a thread
//! (`guard::current_callback`), what it allocates, less what it frees, is
//! that callback's heap (each callback starts from zero, `guard::begin`):
//! the host reads it between interpreter steps (`guard::set_memory_probe`)
//! and ends the policy with a message past `guard::MEMORY_LIMIT`, the same
//! point on every machine. One request that would take the heap past
//! `HARD_LIMIT` at once (a string doubled to gigabytes) cannot be refused
//! gracefully: the engine treats a failed allocation as fatal. The
//! allocator then writes one line naming the callback, without allocating
//! (`FixedLine`),
//! and hands it to its owner's `on_fatal`, which says whether the request
//! fails: the CLI prints the line and exits; the guest keeps it for the page
//! and fails the allocation (a trap that drops the instance); a host that
//! must not stop (a Python process) lets it through, and the guard ends the
//! policy at its next step (`guard::look_at_memory`).

use crate::sim::ext::guard;
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

/// The policy heap no single request may take it past.
pub const HARD_LIMIT: usize = 2 * guard::MEMORY_LIMIT;

thread_local! {
    static POLICY_BYTES: Cell<isize> = const { Cell::new(0) };
}

/// The system allocator, counting a policy's heap; `on_fatal` gets the line
/// for a request past `HARD_LIMIT` and answers whether the request fails.
pub struct Counting {
    pub on_fatal: fn(&FatalLine) -> bool,
}

/// Up to 200 bytes of text in a fixed buffer, written with `write!`: core's
/// formatting of strings and integers allocates nothing, so an allocator may
/// write one. Past 200 bytes the text is cut at a character's start.
pub struct FixedLine {
    buf: [u8; 200],
    len: usize,
}

impl FixedLine {
    pub const fn new() -> FixedLine {
        FixedLine { buf: [0; 200], len: 0 }
    }

    pub fn bytes(&self) -> &[u8] {
        &self.buf[..self.len]
    }
}

impl Default for FixedLine {
    fn default() -> Self {
        FixedLine::new()
    }
}

impl std::fmt::Write for FixedLine {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        for c in s.chars() {
            let n = c.len_utf8();
            if self.len + n > self.buf.len() {
                return Err(std::fmt::Error);
            }
            c.encode_utf8(&mut self.buf[self.len..self.len + n]);
            self.len += n;
        }
        Ok(())
    }
}

/// "CALLBACK: it asked for N MiB at once, past its memory limit of M MiB",
/// in a fixed buffer.
pub struct FatalLine {
    line: FixedLine,
    /// Where the words after "CALLBACK: " start.
    reason: usize,
}

impl FatalLine {
    fn of(callback: &str, asked: usize) -> FatalLine {
        use std::fmt::Write;
        let mut line = FixedLine::new();
        let _ = write!(line, "{callback}: ");
        let reason = line.len;
        let _ = write!(
            line,
            "it asked for {} MiB at once, past its memory limit of {} MiB",
            asked >> 20,
            guard::MEMORY_LIMIT >> 20
        );
        FatalLine { line, reason }
    }

    /// The whole line.
    pub fn bytes(&self) -> &[u8] {
        self.line.bytes()
    }

    /// The line without its callback (a host that names the callback itself).
    pub fn reason(&self) -> &[u8] {
        &self.line.bytes()[self.reason..]
    }
}

/// Counts `by` bytes; false if the request fails (past the hard limit, as
/// its owner decided).
fn grow(by: isize, callback: &'static str, on_fatal: fn(&FatalLine) -> bool) -> bool {
    let now = POLICY_BYTES.with(|b| b.get().saturating_add(by));
    if by > 0 && now > HARD_LIMIT as isize {
        if on_fatal(&FatalLine::of(callback, by as usize)) {
            return false;
        }
        guard::look_at_memory();
    }
    POLICY_BYTES.with(|b| b.set(now));
    true
}

impl Counting {
    fn admits(&self, by: isize) -> bool {
        match guard::current_callback() {
            Some(cb) => grow(by, cb, self.on_fatal),
            None => true,
        }
    }
}

// SAFETY: every call goes to the system allocator unchanged (or fails, as
// an allocator may); the counting beside it touches only a
// const-initialised thread-local without a destructor and a fixed buffer,
// which never allocate.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if !self.admits(layout.size() as isize) {
            return std::ptr::null_mut();
        }
        System.alloc(layout)
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if !self.admits(layout.size() as isize) {
            return std::ptr::null_mut();
        }
        System.alloc_zeroed(layout)
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        if guard::current_callback().is_some() {
            POLICY_BYTES.with(|b| b.set(b.get() - layout.size() as isize));
        }
        System.dealloc(ptr, layout)
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if !self.admits(new_size as isize - layout.size() as isize) {
            return std::ptr::null_mut();
        }
        System.realloc(ptr, layout, new_size)
    }
}

/// The policy heap of the calling thread (`guard`'s probe).
pub fn policy_bytes() -> usize {
    POLICY_BYTES.with(|b| b.get().max(0) as usize)
}

/// Zeroes the calling thread's policy heap (a new policy starts).
pub fn reset() {
    POLICY_BYTES.with(|b| b.set(0));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fatal_line_names_the_callback_and_both_sizes() {
        let line = FatalLine::of("enqueue", 3 << 30);
        assert_eq!(
            std::str::from_utf8(line.bytes()).unwrap(),
            "enqueue: it asked for 3072 MiB at once, past its memory limit of 64 MiB"
        );
        assert_eq!(
            std::str::from_utf8(line.reason()).unwrap(),
            "it asked for 3072 MiB at once, past its memory limit of 64 MiB"
        );
    }

    #[test]
    fn a_request_let_through_past_the_hard_cap_ends_the_policy_at_its_next_step() {
        // This thread's heap, as a binary with the counting allocator reads it (none here: only `grow` counts).
        guard::set_memory_probe(policy_bytes, reset);
        guard::begin("enqueue");
        assert!(grow(HARD_LIMIT as isize + 1, "enqueue", |_| false), "the host let it through");
        // One step, far from the regular look every few thousand: the heap is read now.
        let err = guard::charge(1).expect_err("the policy ends at its next step");
        assert!(
            err.to_string().contains("the policy's memory went past its limit of 64 MiB (128 MiB in use)"),
            "{err}"
        );
        assert!(matches!(guard::end(), Some(guard::Limit::Memory(_))));
        // A request the host fails is not counted, and the next step goes on.
        guard::begin("enqueue");
        assert!(!grow(HARD_LIMIT as isize + 1, "enqueue", |_| true));
        assert!(guard::charge(1).is_ok());
        assert_eq!(guard::end(), None);
    }
}

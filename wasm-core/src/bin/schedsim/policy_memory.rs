//! The memory a sched_ext policy may take, counted by the binary's
//! allocator (the library has no allocator of its own to ask). While a
//! policy's callback runs on a thread (`guard::current_callback`), what it
//! allocates, less what it frees, is that callback's heap (each callback
//! starts from zero, `guard::begin`): the host
//! reads it between interpreter steps (`guard::set_memory_probe`) and ends
//! the policy with a message past `guard::MEMORY_LIMIT`, the same point on
//! every machine. One request that would take the heap past `HARD_LIMIT`
//! at once (a string doubled to gigabytes) cannot be refused gracefully:
//! the engine treats a failed allocation as fatal. The allocator then
//! prints one line naming the callback and exits with `POLICY_OUT_OF_MEMORY`
//! instead of Rust's abort and backtrace.

use schedlab_core::sim::ext::guard;
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

/// Status for a run ended by its policy's single allocation past the limit.
pub const POLICY_OUT_OF_MEMORY: i32 = 4;
/// The policy heap no single request may take it past.
const HARD_LIMIT: usize = 2 * guard::MEMORY_LIMIT;

thread_local! {
    static POLICY_BYTES: Cell<isize> = const { Cell::new(0) };
}

pub struct Counting;

fn in_policy() -> Option<&'static str> {
    guard::current_callback()
}

fn grow(by: isize, callback: &'static str) {
    let now = POLICY_BYTES.with(|b| {
        let v = b.get().saturating_add(by);
        b.set(v);
        v
    });
    if by > 0 && now > HARD_LIMIT as isize {
        fatal(callback, by as usize);
    }
}

/// One line on stderr and the exit status, allocating nothing.
fn fatal(callback: &str, asked: usize) -> ! {
    let mut line = [0u8; 256];
    let mut n = 0;
    for part in [
        "schedsim: the sched_ext policy failed: ",
        callback,
        ": it asked for ",
        &mib(asked),
        " MiB at once, past its memory limit of ",
        &mib(guard::MEMORY_LIMIT),
        " MiB; the run stops\n",
    ] {
        for &c in part.as_bytes() {
            if n < line.len() {
                line[n] = c;
                n += 1;
            }
        }
    }
    // SAFETY: writing a buffer we own to stderr, then ending the process
    // without running destructors (the heap may be mid-update).
    unsafe {
        libc::write(2, line.as_ptr().cast(), n);
        libc::_exit(POLICY_OUT_OF_MEMORY)
    }
}

/// A size in MiB as decimal digits, in a fixed buffer (no allocation).
fn mib(bytes: usize) -> Digits {
    Digits::of(bytes >> 20)
}

struct Digits {
    buf: [u8; 20],
    start: usize,
}

impl Digits {
    fn of(mut v: usize) -> Digits {
        let mut buf = [0u8; 20];
        let mut start = buf.len();
        loop {
            start -= 1;
            buf[start] = b'0' + (v % 10) as u8;
            v /= 10;
            if v == 0 {
                break;
            }
        }
        Digits { buf, start }
    }
}

impl std::ops::Deref for Digits {
    type Target = str;
    fn deref(&self) -> &str {
        std::str::from_utf8(&self.buf[self.start..]).unwrap_or("?")
    }
}

// SAFETY: every call goes to the system allocator unchanged; the counting
// beside it touches only a const-initialised thread-local without a
// destructor, which never allocates.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if let Some(cb) = in_policy() {
            grow(layout.size() as isize, cb);
        }
        System.alloc(layout)
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if let Some(cb) = in_policy() {
            grow(layout.size() as isize, cb);
        }
        System.alloc_zeroed(layout)
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        if in_policy().is_some() {
            POLICY_BYTES.with(|b| b.set(b.get() - layout.size() as isize));
        }
        System.dealloc(ptr, layout)
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if let Some(cb) = in_policy() {
            grow(new_size as isize - layout.size() as isize, cb);
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

//! The policy guest: the host the CLI runs sched_ext policies with (boa,
//! the runtime, the guard's limits: `sim/ext/host_boa.rs`), compiled to a
//! wasm module of its own that the page loads only for runs with a policy
//! (src/engine/guest.ts). One instance holds one policy.
//!
//! The module imports nothing: a policy inside it has no way to the page,
//! the network, a clock or chance, whatever it reaches in its own realm.
//! Its limits are the CLI's, counted in Rust where the policy cannot touch
//! them, so a link plays to the same trace in the page as in `schedsim run`.
//!
//! The boundary is plain numbers over the module's memory, this file alone:
//! the page writes text into `scx_input`'s buffer, calls an entry point, and
//! reads the answer's text at `scx_output`. A NaN (or a non-zero status)
//! means the policy failed, and the output is why. A limit the guest cannot
//! keep without stopping (one allocation past the hard cap) ends in a trap;
//! the page then reads `scx_fatal` and drops the instance.

mod memory;

use schedlab_engine::sim::ext::guard;
use schedlab_engine::sim::ext::host::{HostOp, PolicyHost};
use schedlab_engine::sim::ext::host_boa::BoaHost;
use schedlab_engine::sim::ext::policy_heap::FixedLine;
use std::cell::RefCell;

thread_local! {
    static HOST: RefCell<Option<Box<dyn PolicyHost>>> = const { RefCell::new(None) };
    static INPUT: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
    static OUTPUT: RefCell<String> = const { RefCell::new(String::new()) };
}

/// The fixed seed `getrandom` gives boa's own generator. A policy's chance
/// is `scx.random()`; `Math.random` is hidden by the runtime.
fn no_chance(buf: &mut [u8]) -> Result<(), getrandom::Error> {
    buf.fill(0);
    Ok(())
}
getrandom::register_custom_getrandom!(no_chance);

fn answer(text: String) {
    OUTPUT.with(|o| *o.borrow_mut() = text);
}

fn input() -> String {
    INPUT.with(|i| String::from_utf8_lossy(&i.borrow()).into_owned())
}

/// A buffer of `len` bytes for the page to write the next call's text into.
#[no_mangle]
pub extern "C" fn scx_input(len: usize) -> *mut u8 {
    INPUT.with(|i| {
        let mut i = i.borrow_mut();
        i.clear();
        i.resize(len, 0);
        i.as_mut_ptr()
    })
}

/// Where the last answer's text starts; `scx_output_len` bytes of UTF-8.
#[no_mangle]
pub extern "C" fn scx_output() -> *const u8 {
    OUTPUT.with(|o| o.borrow().as_ptr())
}

#[no_mangle]
pub extern "C" fn scx_output_len() -> usize {
    OUTPUT.with(|o| o.borrow().len())
}

/// Why the last trap happened, if the guest knew it was coming (a policy's
/// allocation past the hard cap); written without allocating.
#[no_mangle]
pub extern "C" fn scx_fatal() -> *const u8 {
    memory::fatal_text().as_ptr()
}

#[no_mangle]
pub extern "C" fn scx_fatal_len() -> usize {
    memory::fatal_text().len()
}

/// Boots the policy in the input buffer on `nr_cpus` CPUs with the run's
/// seed (under 2^53, as the engine gives it): 0, or 1 with the reason.
#[no_mangle]
pub extern "C" fn scx_boot(nr_cpus: u32, seed: f64) -> u32 {
    let source = input();
    HOST.with(|h| *h.borrow_mut() = None);
    match BoaHost::create(&source, nr_cpus, seed as u64) {
        Ok(host) => {
            HOST.with(|h| *h.borrow_mut() = Some(host));
            0
        }
        Err(why) => {
            answer(why);
            1
        }
    }
}

fn with_host<R>(f: impl FnOnce(&mut dyn PolicyHost) -> Result<R, String>) -> Option<R> {
    let r = HOST.with(|h| match h.borrow_mut().as_mut() {
        Some(host) => f(host.as_mut()),
        None => Err("the policy guest holds no policy".into()),
    });
    r.map_err(answer).ok()
}

/// `__scx_call(op, a, b, c, d)`: its number, or NaN with the reason.
#[no_mangle]
pub extern "C" fn scx_call(op: u32, a: f64, b: f64, c: f64, d: f64) -> f64 {
    let Some(op) = HostOp::from_number(op) else {
        answer(format!("no policy operation numbered {op}"));
        return f64::NAN;
    };
    with_host(|h| h.call(op, [a, b, c, d])).unwrap_or(f64::NAN)
}

/// `__scx_init_task(now, pid, weight, nice, cpus)`, `cpus` in the input
/// buffer: 0, or NaN with the reason.
#[no_mangle]
pub extern "C" fn scx_init_task(now: f64, pid: f64, weight: f64, nice: f64) -> f64 {
    let cpus = input();
    with_host(|h| h.init_task(now, pid, weight, nice, &cpus)).map_or(f64::NAN, |()| 0.0)
}

/// The CPUs kicked since the last call, "cpu,preempt,…" in the output: 0,
/// or NaN with the reason.
#[no_mangle]
pub extern "C" fn scx_kicks() -> f64 {
    match with_host(|h| h.kicks()) {
        Some(kicks) => {
            let text: Vec<String> =
                kicks.iter().map(|(cpu, preempt)| format!("{cpu},{}", u8::from(*preempt))).collect();
            answer(text.join(","));
            0.0
        }
        None => f64::NAN,
    }
}

/// The guard reads the policy's heap from this module's allocator; a panic
/// (a fault of the interpreter's own, not the policy's) leaves its words for
/// the page before the trap.
#[no_mangle]
pub extern "C" fn scx_start() {
    guard::set_memory_probe(memory::policy_bytes, memory::reset);
    std::panic::set_hook(Box::new(|info| {
        use std::fmt::Write;
        let mut line = FixedLine::new();
        let _ = write!(line, "the policy's interpreter failed on its own ({info})");
        memory::keep_text(line.bytes());
    }));
}

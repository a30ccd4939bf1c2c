//! The sched_ext room: a policy written in JavaScript as the run's class
//! (`class.rs`), the host that runs the policy over the runtime
//! (`host.rs`; through boa, `host_boa.rs`, natively and in the page's
//! policy guest, `guest/`), and the syntax check the CLI runs before a run
//! (`syntax.rs`).

pub mod class;
#[cfg(any(not(target_arch = "wasm32"), feature = "guest"))]
pub mod guard;
pub mod host;
#[cfg(any(not(target_arch = "wasm32"), feature = "guest"))]
pub mod host_boa;
#[cfg(any(not(target_arch = "wasm32"), feature = "guest"))]
pub mod policy_heap;
#[cfg(any(not(target_arch = "wasm32"), feature = "guest"))]
mod reprint;
#[cfg(any(not(target_arch = "wasm32"), feature = "guest"))]
pub mod syntax;

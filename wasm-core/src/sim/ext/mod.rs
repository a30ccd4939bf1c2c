//! The sched_ext room: a policy written in JavaScript as the run's class
//! (`class.rs`), the host that runs the policy over the runtime
//! (`host.rs`; natively through boa, `host_boa.rs`; in the page through the
//! worker's own engine, `wasm/policy_host.rs`), and the syntax check the CLI
//! runs before a run (`syntax.rs`).

pub mod class;
#[cfg(not(target_arch = "wasm32"))]
pub mod guard;
pub mod host;
#[cfg(not(target_arch = "wasm32"))]
mod host_boa;
#[cfg(not(target_arch = "wasm32"))]
pub mod syntax;

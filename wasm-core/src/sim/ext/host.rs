//! Where a user's sched_ext policy runs: a JavaScript engine holding the
//! policy and `sched/ext/runtime.js` (its dispatch queues and helpers).
//! Natively that engine is boa (`host_boa.rs`); the class reaches it only
//! through `PolicyHost`, so another host (the browser's) can stand in.
//!
//! A JavaScript engine is neither `Clone` nor `Send`, and the class's state
//! must be both (snapshots, sweeps on worker threads): the engine lives in a
//! per-thread registry and the state holds a `HostHandle`, which frees the
//! engine when its last holder goes. A clone of a running simulator shares
//! the policy's engine (its JavaScript state cannot be copied), so a
//! snapshot of a sched_ext run is only good at its start.

use std::cell::RefCell;
use std::sync::Arc;

/// The runtime's entry points (`__scx_call` operations).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u32)]
pub enum HostOp {
    SelectCpu = 1,
    Enqueue = 2,
    Dequeue = 3,
    Pick = 4,
    PutPrev = 5,
    Tick = 6,
    UpdateIdle = 7,
    ExitTask = 8,
    Yield = 9,
}

impl HostOp {
    /// The operation numbered `n` (`__scx_call`'s first argument), if any.
    pub fn from_number(n: u32) -> Option<HostOp> {
        use HostOp::*;
        [SelectCpu, Enqueue, Dequeue, Pick, PutPrev, Tick, UpdateIdle, ExitTask, Yield]
            .into_iter()
            .find(|op| *op as u32 == n)
    }

    /// The policy callback an operation runs, as messages name it.
    pub fn callback(self) -> &'static str {
        match self {
            HostOp::SelectCpu => "select_cpu",
            HostOp::Enqueue => "enqueue",
            HostOp::Dequeue => "dequeue",
            HostOp::Pick => "dispatch",
            HostOp::PutPrev => "stopping/enqueue",
            HostOp::Tick => "tick",
            HostOp::UpdateIdle => "update_idle",
            HostOp::ExitTask => "exit_task",
            HostOp::Yield => "yield",
        }
    }
}

/// A JavaScript engine running one policy through the runtime.
pub trait PolicyHost {
    /// `__scx_call(op, a, b, c, d)`; an exception or a runaway loop in the
    /// policy is an `Err` with its reason.
    fn call(&mut self, op: HostOp, args: [f64; 4]) -> Result<f64, String>;
    /// `__scx_init_task(now, pid, weight, nice, cpus)`: `cpus` lists the
    /// allowed CPUs ("" = all).
    fn init_task(&mut self, now: f64, pid: f64, weight: f64, nice: f64, cpus: &str) -> Result<(), String>;
    /// The CPUs the policy kicked since the last call, as (cpu, preempt).
    fn kicks(&mut self) -> Result<Vec<(u32, bool)>, String>;
}

/// The JavaScript half of sched_ext, shared by every host.
pub const RUNTIME_JS: &str = include_str!("../../sched/ext/runtime.js");

/// `__scx_kicks()`'s answer, "cpu,preempt,cpu,preempt…", as (cpu, preempt).
pub fn parse_kicks(s: &str) -> Vec<(u32, bool)> {
    let n: Vec<u32> = s.split(',').filter(|x| !x.is_empty()).filter_map(|x| x.parse().ok()).collect();
    n.chunks(2).filter(|c| c.len() == 2).map(|c| (c[0], c[1] == 1)).collect()
}

/// Builds a host for a policy's source on `nr_cpus` CPUs with the run's seed.
pub type HostFactory = fn(source: &str, nr_cpus: u32, seed: u64) -> Result<Box<dyn PolicyHost>, String>;

thread_local! {
    static HOSTS: RefCell<Vec<Option<Box<dyn PolicyHost>>>> = const { RefCell::new(Vec::new()) };
}

#[cfg(target_arch = "wasm32")]
thread_local! {
    /// The host a build without boa was given (`set_factory`).
    static FACTORY: std::cell::Cell<Option<HostFactory>> = const { std::cell::Cell::new(None) };
}

/// Gives the engine its JavaScript host where it has none of its own: the
/// wasm build's binding layer registers the page's (`wasm/`), so the
/// simulator knows no JavaScript interop.
#[cfg(target_arch = "wasm32")]
pub fn set_factory(f: HostFactory) {
    FACTORY.with(|x| x.set(Some(f)));
}

/// The engine this build runs policies with: boa natively, the one
/// registered in wasm.
fn factory() -> Result<HostFactory, String> {
    #[cfg(not(target_arch = "wasm32"))]
    {
        Ok(crate::sim::ext::host_boa::BoaHost::create)
    }
    #[cfg(target_arch = "wasm32")]
    {
        FACTORY.with(|x| x.get()).ok_or_else(|| "no JavaScript host is registered for sched_ext policies".into())
    }
}

/// A registered engine; dropping the last handle frees it.
#[derive(Debug)]
pub struct HostHandle {
    id: usize,
}

impl HostHandle {
    pub fn create(source: &str, nr_cpus: u32, seed: u64) -> Result<Arc<HostHandle>, String> {
        let host = factory()?(source, nr_cpus, seed)?;
        let id = HOSTS.with(|h| {
            let mut h = h.borrow_mut();
            let id = h.iter().position(Option::is_none).unwrap_or(h.len());
            if id == h.len() {
                h.push(None);
            }
            h[id] = Some(host);
            id
        });
        Ok(Arc::new(HostHandle { id }))
    }

    /// Runs `f` on the engine (an `Err` if this thread does not hold it).
    pub fn with<R>(&self, f: impl FnOnce(&mut dyn PolicyHost) -> Result<R, String>) -> Result<R, String> {
        HOSTS.with(|h| match h.borrow_mut().get_mut(self.id).and_then(|x| x.as_mut()) {
            Some(host) => f(host.as_mut()),
            None => Err("the policy's engine belongs to another thread".into()),
        })
    }
}

impl Drop for HostHandle {
    fn drop(&mut self) {
        // `try_with`: at thread exit the registry may be gone already.
        let _ = HOSTS.try_with(|h| {
            if let Some(slot) = h.borrow_mut().get_mut(self.id) {
                *slot = None;
            }
        });
    }
}

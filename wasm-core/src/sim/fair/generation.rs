//! What a kernel generation brings to the fair class: its balancer (periodic,
//! newly idle, NOHZ idle balancing, the stopper's push) and its wakeup, fork
//! and exec placement. The fair class reaches them only through
//! `FairGeneration`, so a second generation is a sibling folder of
//! `linux41/` with its own `impl FairGeneration`, not flags inside 4.1's.
//!
//! ```text
//!   FairClass { strategy (CFS | EEVDF pick), generation: &dyn FairGeneration }
//!                                                   └── linux41::LINUX41
//! ```
//!
//! Still shared by every generation (issue 37): the per-entity load tracking
//! (`load.rs`, `h_load.rs`, over `sched::pelt`) and the domain building
//! (`topology/`), both 4.1's.

use super::cx::FairCx;
use crate::balance::placement::PlaceKind;
use crate::sim::class::Balance;
use crate::time::{CpuId, Pid};
use std::fmt::Debug;

/// A kernel generation's parts of the fair class.
pub(crate) trait FairGeneration: Debug + Send + Sync {
    /// The balancer; true if it pulled work to `cpu`.
    fn balance(&self, cx: &mut FairCx<'_>, cpu: CpuId, why: Balance) -> bool;
    /// `select_task_rq_fair`: the CPU a waking, forked or exec'ing task goes to.
    fn select_task_rq(&self, cx: &mut FairCx<'_>, pid: Pid, waker: CpuId, kind: PlaceKind) -> CpuId;
    /// Whether an idle CPU stops its tick, leaving its balancing to the idle load balancer.
    fn stops_idle_tick(&self, nohz: bool) -> bool;
    /// `cpu` entered idle with its tick stopped: the idle balancer's bookkeeping.
    fn tick_stopped(&self, cx: &mut FairCx<'_>, cpu: CpuId);
    /// The fair class stops being the run's class: the balancer's pending
    /// kicks and pushes are dropped with it.
    fn exit(&self, cx: &mut FairCx<'_>);
}

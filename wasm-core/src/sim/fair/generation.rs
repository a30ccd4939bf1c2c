//! What a kernel generation brings to the fair class: its load tracking
//! (how an entity's and a runqueue's load averages follow enqueues,
//! dequeues, ticks and migrations, and how a group's shares follow them),
//! its balancer (periodic, newly idle, NOHZ idle balancing, the stopper's
//! push) and its wakeup, fork and exec placement. The class's walk over the
//! group hierarchy (`class.rs`) is shared; at each point where a generation
//! differs it calls the run's generation here, so a second generation is a
//! sibling folder of `linux41/` with its own `impl FairGeneration`, not
//! flags inside 4.1's.
//!
//! The run's generation is `Core::kernel` (`sim/kernel.rs`), dispatched by a
//! `match` (the `generation!` macro), not a vtable: the load hooks run at
//! every level of every enqueue, dequeue and tick, and a static call is
//! inlined where a virtual one is not.
//!
//! ```text
//!   class.rs walk ──load hooks──► generation!(cx, …) ──match Core::kernel──► linux41::LINUX41
//!   hooks.rs ──balance / select_task_rq──┘
//! ```
//!
//! The domains' flags and parameters per level are the generation's too,
//! chosen by the core when it builds them (`Kernel::domain_rules`).

use super::cx::FairCx;
use crate::balance::placement::PlaceKind;
use crate::sched::entity::EntId;
use crate::sched::fair::FairStrategy;
use crate::sim::class::Balance;
use crate::time::{CpuId, Pid};
use std::fmt::Debug;

/// A kernel generation's parts of the fair class.
pub(crate) trait FairGeneration: Debug + Send + Sync {
    // The balancer and placement.

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

    // The load tracking, called by the class's walk at level `tg` of `cpu`.

    /// A new task's load before its first enqueue (`init_task_runnable_average`).
    fn new_task_load(&self, cx: &mut FairCx<'_>, tg: u32, cpu: CpuId, id: EntId);
    /// Entity `id` is about to be enqueued (`wakeup`: back from a sleep).
    fn enqueue_load(&self, cx: &mut FairCx<'_>, tg: u32, cpu: CpuId, id: EntId, wakeup: bool);
    /// Entity `id` is about to be dequeued (`sleep`: it goes to sleep, not elsewhere).
    fn dequeue_load(&self, cx: &mut FairCx<'_>, tg: u32, cpu: CpuId, id: EntId, sleep: bool);
    /// Entity `id`, queued, has its load brought up to date (set_next,
    /// put_prev, a level above an enqueue or dequeue that stopped).
    fn refresh_load(&self, cx: &mut FairCx<'_>, tg: u32, cpu: CpuId, id: EntId);
    /// `entity_tick`'s update of the running entity `id` and its runqueue.
    fn tick_load(&self, cx: &mut FairCx<'_>, tg: u32, cpu: CpuId, id: EntId);
    /// Group `tg`'s entity on `cpu` is reweighted by the group's load there.
    fn update_group_shares(&self, cx: &mut FairCx<'_>, st: FairStrategy, tg: u32, cpu: CpuId);
    /// Group `tg`'s runqueue on `cpu` took its first entity.
    fn leaf_cfs_rq_queued(&self, cx: &mut FairCx<'_>, tg: u32, cpu: CpuId);
    /// Task `pid` leaves `from` for another CPU (`migrate_task_rq_fair`).
    fn migrate_load(&self, cx: &mut FairCx<'_>, pid: Pid, from: CpuId);
    /// Task `pid` leaves the fair class (`switched_from_fair`).
    fn switched_from_load(&self, cx: &mut FairCx<'_>, pid: Pid);
}

/// Calls the run's generation's `FairGeneration::$method` with `$cx` (a
/// `&mut FairCx`) and the arguments.
macro_rules! generation {
    ($cx:expr, $method:ident($($arg:expr),* $(,)?)) => {
        match $cx.core.kernel {
            $crate::sim::kernel::Kernel::Linux41 => $crate::sim::fair::generation::FairGeneration::$method(
                &$crate::sim::fair::linux41::LINUX41,
                $cx,
                $($arg),*
            ),
            // 6.12 has a class of its own (`linux612/hooks.rs`); `class_for` never gives it this walk.
            $crate::sim::kernel::Kernel::Linux612 => unreachable!("the 4.1-shaped fair class under 6.12"),
        }
    };
}
pub(crate) use generation;

/// The generation's `stops_idle_tick`, for a caller with no context (the core's tick, the limits check).
pub(crate) fn stops_idle_tick(kernel: crate::sim::kernel::Kernel, nohz: bool) -> bool {
    match kernel {
        crate::sim::kernel::Kernel::Linux41 => super::linux41::LINUX41.stops_idle_tick(nohz),
        // As the 6.12 class's own hook (`linux612/hooks.rs`).
        crate::sim::kernel::Kernel::Linux612 => nohz,
    }
}

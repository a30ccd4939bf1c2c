//! What a scheduling class is handed: `Sched`, the core (`&mut Core`: the
//! clock, runqueues, tasks, topology, trace, costs, PRNG) with the run's
//! class and that class's own state slot, and nothing of another class.
//!
//! The core's dispatch paths that a class may need in the middle of its own
//! work (`__schedule`, `move_queued_task`, the stopper's preemption, the
//! resched on return) are `Sched` methods, so a class calls them with its own
//! state handed back in, as the kernel's `load_balance` calls
//! `deactivate_task` through `p->sched_class`.
//!
//! ```text
//!   Simulator { core, fair, class, class_data } ──sched()──► Sched { core, class, own }
//!        own = the state boot builds (the fair class's)  | the class's own box (O(1), sched_ext)
//! ```

use super::class::{Balance, ClassData, SchedClass, StateSlot};
use super::fair::state::FairState;
use super::{Core, Simulator};
use crate::balance::placement::PlaceKind;
use crate::sched::fair::EnqueueKind;
use crate::time::{CpuId, Pid};
use std::any::Any;

/// The core with the run's class and that class's state slot.
pub struct Sched<'a> {
    pub(crate) core: &'a mut Core,
    class: &'static dyn SchedClass,
    own: Slot<'a>,
}

/// A class's state slot. The fair class's is named here, not found by a
/// downcast: it is reached on every hook of every event (a downcast through
/// `Any` costs four indirect calls each time).
pub(crate) enum Slot<'a> {
    /// The state boot builds for every run: the fair class's (`StateSlot::Boot`).
    Boot(&'a mut FairState),
    /// A class's own box (`StateSlot::Own`), empty until its `init` fills it.
    Own(&'a mut OwnBox),
}

/// A class's own box: empty until the class's `init` fills it.
pub(crate) type OwnBox = Option<Box<dyn ClassData>>;

impl<'a> Sched<'a> {
    /// A class's context again, from the parts it holds (its own state handed back).
    pub(crate) fn new(core: &'a mut Core, class: &'static dyn SchedClass, own: Slot<'a>) -> Self {
        Sched { core, class, own }
    }

    /// The run's class.
    pub(crate) fn class(&self) -> &'static dyn SchedClass {
        self.class
    }

    /// The class's own state, if it keeps a `T` in its box.
    pub(crate) fn state<T: Any>(&mut self) -> Option<&mut T> {
        match &mut self.own {
            Slot::Own(b) => b.as_deref_mut().and_then(|d| d.as_any_mut().downcast_mut::<T>()),
            Slot::Boot(_) => None,
        }
    }

    /// The core and the state boot builds, for the class that keeps its state there
    /// (`StateSlot::Boot`). Only that class calls it: its hooks are only
    /// called with its own slot.
    #[inline(always)]
    pub(crate) fn split_boot(&mut self) -> (&mut Core, &mut FairState, &'static dyn SchedClass) {
        match &mut self.own {
            Slot::Boot(f) => (&mut *self.core, &mut **f, self.class),
            Slot::Own(_) => unreachable!("split_boot: the class keeps its state in a box of its own"),
        }
    }

    /// The core and the class's own box (for a class that hands it back to the core's dispatch).
    pub(crate) fn split_own(&mut self) -> (&mut Core, Option<&mut OwnBox>, &'static dyn SchedClass) {
        let own = match &mut self.own {
            Slot::Own(b) => Some(&mut **b),
            Slot::Boot(_) => None,
        };
        (&mut *self.core, own, self.class)
    }

    /// A class of its own fills its box (`init`); the state boot builds has no box.
    pub(crate) fn set_state(&mut self, data: Box<dyn ClassData>) {
        match &mut self.own {
            Slot::Own(b) => **b = Some(data),
            Slot::Boot(_) => panic!("set_state: the class keeps its state in the slot boot builds"),
        }
    }
}

/// The class's hooks, called on the run's class with this context.
impl Sched<'_> {
    pub(crate) fn init(&mut self) {
        self.class.init(self)
    }
    pub(crate) fn exit(&mut self) {
        self.class.exit(self)
    }
    pub(crate) fn switched_from(&mut self, pid: Pid) {
        self.class.switched_from(self, pid)
    }
    pub(crate) fn switched_to(&mut self, pid: Pid) {
        self.class.switched_to(self, pid)
    }
    pub(crate) fn enqueue_task(&mut self, pid: Pid, cpu: CpuId, kind: EnqueueKind) {
        self.class.enqueue_task(self, pid, cpu, kind)
    }
    pub(crate) fn dequeue_task(&mut self, pid: Pid, cpu: CpuId, sleeping: bool) {
        self.class.dequeue_task(self, pid, cpu, sleeping)
    }
    pub(crate) fn yield_task(&mut self, pid: Pid, cpu: CpuId) {
        self.class.yield_task(self, pid, cpu)
    }
    /// The class's verdict only (`check_preempt_curr` also marks the resched).
    pub(crate) fn wakeup_preempts(&mut self, cpu: CpuId, pid: Pid, is_fork: bool) -> bool {
        self.class.check_preempt_curr(self, cpu, pid, is_fork)
    }
    pub(crate) fn pick_next_task(&mut self, cpu: CpuId) -> Option<Pid> {
        self.class.pick_next_task(self, cpu)
    }
    pub(crate) fn put_prev_task(&mut self, pid: Pid, cpu: CpuId) {
        self.class.put_prev_task(self, pid, cpu)
    }
    pub(crate) fn update_curr(&mut self, cpu: CpuId) {
        self.class.update_curr(self, cpu)
    }
    pub(crate) fn task_tick(&mut self, pid: Pid, cpu: CpuId) -> bool {
        self.class.task_tick(self, pid, cpu)
    }
    pub(crate) fn select_task_rq(&mut self, pid: Pid, waker: CpuId, kind: PlaceKind) -> CpuId {
        self.class.select_task_rq(self, pid, waker, kind)
    }
    pub(crate) fn migrate_task_rq(&mut self, pid: Pid, from: CpuId, to: CpuId) {
        self.class.migrate_task_rq(self, pid, from, to)
    }
    pub(crate) fn task_fork(&mut self, child: Pid, cpu: CpuId) {
        self.class.task_fork(self, child, cpu)
    }
    pub(crate) fn task_new(&mut self, pid: Pid) {
        self.class.task_new(self, pid)
    }
    pub(crate) fn task_dead(&mut self, pid: Pid) {
        self.class.task_dead(self, pid)
    }
    pub(crate) fn cpus_changed(&mut self) {
        self.class.cpus_changed(self)
    }
    pub(crate) fn task_switched(&mut self, cpu: CpuId, prev: Option<Pid>, next: Option<Pid>) {
        self.class.task_switched(self, cpu, prev, next)
    }
    pub(crate) fn kick(&mut self, cpu: CpuId) {
        self.class.kick(self, cpu)
    }
    pub(crate) fn timer(&mut self) -> bool {
        self.class.timer(self)
    }
    pub(crate) fn balance(&mut self, cpu: CpuId, why: Balance) -> bool {
        self.class.balance(self, cpu, why)
    }
    pub(crate) fn tick_stopped(&mut self, cpu: CpuId) {
        self.class.tick_stopped(self, cpu)
    }
}

impl Simulator {
    /// The core as the run's class sees it, with that class's state.
    pub(crate) fn sched(&mut self) -> Sched<'_> {
        let own = match self.class_slot {
            StateSlot::Boot => Slot::Boot(&mut self.fair),
            StateSlot::Own => Slot::Own(&mut self.class_data),
        };
        Sched { core: &mut self.core, class: self.class, own }
    }

    /// The run's class's own state, if it is a `T` (the views read O(1)'s arrays through it).
    pub fn class_state<T: Any>(&self) -> Option<&T> {
        self.class_data.as_deref().and_then(|d| d.as_any().downcast_ref::<T>())
    }
}

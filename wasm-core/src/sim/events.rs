//! The events that drive a run.
//!
//! Same-time ordering follows the queue's insertion order (see
//! `event_queue`): at time 0 the process spawns are queued before the first
//! ticks, so tasks exist when the first tick observes the runqueues; a
//! wakeup scheduled for the same instant as a tick is handled in the order the
//! two were scheduled.

use crate::config::TimedEventKind;
use crate::time::{CpuId, Pid};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    /// The periodic scheduler tick of one CPU (`scheduler_tick`).
    Tick(CpuId),
    /// The running task finished its current CPU burst. `gen` must match the
    /// CPU's burst generation, otherwise the task was switched out meanwhile
    /// and the event is stale.
    BurstEnd {
        cpu: CpuId,
        gen: u64,
    },
    /// A sleeping task's timer fires.
    Wakeup(Pid),
    /// A process starts: its threads are created.
    Spawn(u32),
    /// The stopper of `cpu`, woken with works queued (`sim::stop`), runs.
    CpuStop(CpuId),
    /// The idle load balancer was kicked (NOHZ).
    NohzKick(CpuId),
    /// The sanity checker's periodic check, and the end of its watch window.
    SanityCheck,
    SanityWatchEnd,
    /// An IPI a class sent reaches its CPU (`SchedClass::kick`): Group Identity's SMT-expel reschedule of a
    /// sibling, a sched_ext policy's kick.
    ClassKick(CpuId),
    /// A timer a class armed (`SchedClass::timer`), the class in that room: sched_ext's watchdog, delayed work
    /// that runs whether or not any CPU runs a task; the real-time class's bandwidth period.
    ClassTimer(super::dispatch::Room),
    /// The periodic load-average sample (every LOAD_FREQ).
    LoadAvg,
    /// A scenario's timed event (CPU hotplug).
    Timed(TimedEventKind),
}

/// What a processed event was, for stepping "to the next tick".
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EventClass {
    Tick,
    Other,
}

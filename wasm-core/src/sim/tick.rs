//! The tick: `scheduler_tick` on a busy CPU, and NO_HZ idle's stop and
//! restart (kernel/time's `tick_nohz_idle_enter` / `_exit`, as far as the
//! scheduler sees them). Under a class that `stops_idle_tick` an idle CPU
//! takes no ticks: its tick stops on entering idle (the pending event then
//! fires as nothing) and restarts on its grid when the CPU leaves idle. What
//! the tick records of a CPU's load, and how a CPU leaving idle catches up,
//! is the kernel generation's (`kernel.rs`; 4.1's `cpu_load[]` is
//! `sim/fair/linux41/cpu_load.rs`).
//!
//! ```text
//!   schedule → idle ──► tick_nohz_idle_enter: tick_stopped, class.tick_stopped (nohz mask)
//!   schedule → task ──► tick_nohz_idle_exit: the generation's catch-up, next tick on the grid
//!   Tick event ───────► scheduler_tick (or nothing, if stopped)
//!   cpu_offline ──────► the pending tick is its last; cpu_online restarts it on its grid
//! ```

use super::class::Balance;
use super::events::EventClass;
use super::Simulator;
use crate::time::{CpuId, Pid, SimTime};
use crate::trace::TraceKind;

impl Simulator {
    /// A tick event of `cpu`: None (it does not count) when the tick was
    /// stopped on entering idle.
    pub(super) fn tick_event(&mut self, cpu: CpuId) -> Option<EventClass> {
        self.core.rqs[cpu.idx()].tick_pending = false;
        if self.core.rqs[cpu.idx()].tick_stopped {
            return None;
        }
        self.scheduler_tick(cpu);
        Some(EventClass::Tick)
    }

    /// `scheduler_tick`: charge and possibly preempt curr, record the load
    /// as the generation does, then run periodic balancing when due; a resched requested
    /// by either happens on the way out of the interrupt.
    /// A CPU idle since the run began (it never went through `schedule`)
    /// stops its tick here instead (NO_HZ idle), as the idle loop it boots
    /// into would.
    fn scheduler_tick(&mut self, cpu: CpuId) {
        let rq = &self.core.rqs[cpu.idx()];
        if !rq.online {
            // An offline CPU takes no ticks: the one pending when it went down
            // was its last (`cpu_online` restarts it).
            return;
        }
        if rq.is_idle() && self.class().stops_idle_tick(self.core.kernel, self.core.nohz) {
            self.sched().tick_nohz_idle_enter(cpu);
            return;
        }
        self.core.push_tick(self.core.now.after(self.core.tick_ns), cpu);
        self.sched().scheduler_tick_busy(cpu);
    }
}

impl super::dispatch::Sched<'_> {
    /// `scheduler_tick` on a CPU whose tick runs: one context for the
    /// class's tick, the load history and the balancer.
    fn scheduler_tick_busy(&mut self, cpu: CpuId) {
        if let Some(curr) = self.core.rqs[cpu.idx()].curr() {
            if self.task_tick(curr, cpu) {
                self.core.rqs[cpu.idx()].need_resched = true;
                self.core.trace.emit(self.core.now, cpu, TraceKind::TickPreempt { pid: curr });
            }
        }
        let jiffies = self.core.jiffies();
        let kernel = self.core.kernel;
        kernel.tick_load(&mut self.core.rqs[cpu.idx()], jiffies);
        self.balance(cpu, Balance::Tick);
        self.resched_if_needed(cpu);
    }

    /// After `__schedule` switched `cpu` from `prev` to `next`: leaving idle
    /// restarts a stopped tick, entering idle stops it (the idle loop's
    /// `tick_nohz_idle_exit` / `_enter`).
    pub(super) fn tick_nohz_switch(&mut self, cpu: CpuId, prev: Option<Pid>, next: Option<Pid>) {
        let rq = &self.core.rqs[cpu.idx()];
        if prev.is_none() && next.is_some() && rq.tick_stopped {
            self.core.tick_nohz_idle_exit(cpu);
        } else if next.is_none()
            && rq.online
            && !rq.tick_stopped
            && self.class().stops_idle_tick(self.core.kernel, self.core.nohz)
        {
            self.tick_nohz_idle_enter(cpu);
        }
    }

    /// `tick_nohz_idle_enter`: the tick stops (its pending event fires as
    /// nothing) and the class's idle balancer counts the CPU as tickless.
    fn tick_nohz_idle_enter(&mut self, cpu: CpuId) {
        self.core.rqs[cpu.idx()].tick_stopped = true;
        self.tick_stopped(cpu);
    }
}

impl super::Core {
    /// `tick_nohz_idle_exit`: the missed ticks caught up (the generation's), and
    /// the tick restarted on its grid (the first tick boundary after now),
    /// unless the stopped one has not fired yet: that one is the next.
    fn tick_nohz_idle_exit(&mut self, cpu: CpuId) {
        let jiffies = self.jiffies();
        let rq = &mut self.rqs[cpu.idx()];
        rq.tick_stopped = false;
        self.kernel.idle_exit_load(rq, jiffies);
        self.restart_tick(cpu);
    }

    /// Restarts `cpu`'s tick on its grid (the first tick boundary after
    /// now), unless a tick of it is still queued: that one is the next.
    pub(super) fn restart_tick(&mut self, cpu: CpuId) {
        if !self.rqs[cpu.idx()].tick_pending {
            self.push_tick(SimTime((self.jiffies() + 1) * self.tick_ns), cpu);
        }
    }
}

#[cfg(test)]
#[path = "tick_hotplug_test.rs"]
mod tick_hotplug_test;

//! SMT contention: hardware threads of one core share its execution units,
//! so a thread runs its task's work more slowly while a sibling thread is
//! busy (`costs.smt_sibling_speed_pct`; 100 = no contention, the default).
//!
//! The scheduler does not see this: CPU time is charged by the clock, as the
//! kernel charges it. Only the work left in the running task's burst is
//! rated: at `r` percent, `w` ns of full-speed work take `w * 100 / r` ns of
//! CPU time. A task's `burst_rate_pct` says at which speed its remaining
//! burst was reckoned; whenever that speed changes (a sibling starts or stops
//! running, the task moves), the remainder is converted and the burst end
//! re-armed.

use crate::config::FULL_SPEED_PCT;
use crate::time::{CpuId, Pid};

impl super::Core {
    /// The speed of `cpu` now: full unless another thread of its core runs a task.
    pub(crate) fn cpu_speed_pct(&self, cpu: CpuId) -> u32 {
        let slow = self.costs.smt_sibling_speed_pct;
        if slow >= FULL_SPEED_PCT {
            return FULL_SPEED_PCT;
        }
        let busy_sibling = self.machine.smt_siblings(cpu).any(|s| s != cpu && self.rqs[s.idx()].curr_task.is_some());
        if busy_sibling {
            slow
        } else {
            FULL_SPEED_PCT
        }
    }

    /// Follows a woken task's prelude (IPI + switch, `task::Prelude`) up to
    /// now, at the speed its burst is reckoned at (`burst_rate_pct`; the
    /// task's sum_exec_runtime must be current). Once done, records the wakeup
    /// latency at the moment it ended: the task's own code runs from there.
    pub(crate) fn settle_prelude(&mut self, pid: Pid) {
        let now = self.now;
        let task = &mut self.tasks[pid.idx()];
        let Some(p) = task.prelude.as_mut() else { return };
        let rate = match task.burst_rate_pct {
            0 => FULL_SPEED_PCT,
            r => r,
        } as u64;
        let ran = task.se.sum_exec_runtime.saturating_sub(p.exec0);
        // On the CPU, exec time passes with the clock.
        let need = (p.work * FULL_SPEED_PCT as u64).div_ceil(rate);
        if ran >= need {
            let done = p.since.after(need);
            let woken = p.woken;
            task.prelude = None;
            let tgid = task.tgid as usize;
            self.procs[tgid].wakeup_latency.record(done.since(woken));
        } else {
            p.work = p.work.saturating_sub(ran * rate / FULL_SPEED_PCT as u64);
            p.since = now;
            p.exec0 = task.se.sum_exec_runtime;
        }
    }
}

impl super::dispatch::Sched<'_> {
    /// `cpu` went from idle to busy or back: its siblings' running tasks
    /// change speed. Charge each up to now at the old speed, then re-arm its
    /// burst end at the new one.
    pub(crate) fn smt_siblings_changed_speed(&mut self, cpu: CpuId) {
        if self.core.costs.smt_sibling_speed_pct >= FULL_SPEED_PCT {
            return;
        }
        for s in self.core.machine.smt_siblings(cpu) {
            if s != cpu && self.core.rqs[s.idx()].curr().is_some() {
                self.update_curr(s);
                self.core.arm_burst_end(s);
            }
        }
    }
}

impl super::Core {
    /// Re-reckons the rest of `pid`'s burst at `rate` percent. The task's
    /// sum_exec_runtime must be current (not running, or just charged).
    /// Rounds up, so a burst never ends early.
    pub(crate) fn rate_burst(&mut self, pid: Pid, rate: u32) {
        if let Some(left) = self.busy_left(pid) {
            // A busy loop ends at its wall-clock time, whatever ran meanwhile
            // (`sim/timer.rs`): its burst is cut to that each time it is armed.
            let task = &mut self.tasks[pid.idx()];
            task.burst_end_exec = task.se.sum_exec_runtime + left;
            return;
        }
        let old = self.tasks[pid.idx()].burst_rate_pct;
        if old == 0 || old == rate {
            return;
        }
        // What ran so far ran at the old speed.
        self.settle_prelude(pid);
        let task = &mut self.tasks[pid.idx()];
        let left = task.burst_end_exec.saturating_sub(task.se.sum_exec_runtime);
        let work = left as u128 * old as u128;
        let exec = work.div_ceil(rate as u128) as u64;
        task.burst_end_exec = task.se.sum_exec_runtime + exec;
        task.burst_rate_pct = rate;
    }
}

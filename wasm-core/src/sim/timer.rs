//! Steps measured by the wall clock rather than by the thread's own CPU time:
//! rt-app's periodic `timer` and its `runtime` busy loop.
//!
//! A timer step sleeps until the timer's next period starts, as rt-app's
//! timer does with `clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME)`:
//!
//! ```text
//!   first use:   next = the process's start (rt-app's t_first) + period
//!   later uses:  next = next + period
//!   now <  next  sleep until next
//!   now >= next  go on at once (late, now > next: an overrun, counted in the
//!                task's stats and recorded as a missed deadline, `next`, in
//!                `misses.rs`); "relative" mode: next = now, so the following
//!                period starts at the late use; "absolute": next stays, and
//!                the timer catches up period by period
//! ```
//!
//! A shared timer (every thread naming it, in its process or address space)
//! moves on by a period at each use by any of them, as rt-app's timers
//! without the "unique" prefix do; a thread's own timer lives in its task.
//! The core turns a timer step into a plain sleep of the time left (or into
//! nothing), so a timer's wakeup is a sleep's: an hrtimer at `next`.
//!
//! A busy loop (`Action::Busy`, rt-app's `runtime`) spins on the CPU until a
//! wall-clock time: its burst is measured in time (`burst_rate_pct` 0, as a
//! barrier's spin), and whenever the task is put on a CPU its burst is cut
//! to end at that time (`Core::rate_burst`), so time spent preempted counts
//! against it as it does for rt-app's loop on `clock_gettime`.

use super::misses::{DeadlineMiss, MissKind};
use super::Simulator;
use crate::program::TimerStep;
use crate::task::{PeriodTimer, Spin};
use crate::time::{CpuId, Pid};

impl super::Core {
    /// `pid` reaches a timer step: how long it sleeps until the timer's next
    /// period starts, or None if that start is not in the future (the task
    /// goes on at once; an overrun if it is past).
    pub(crate) fn timer_sleep(&mut self, pid: Pid, step: TimerStep) -> Option<u64> {
        let now = self.now;
        let task = &mut self.tasks[pid.idx()];
        let proc = &self.procs[task.tgid as usize];
        let start = proc.start_at;
        let timer = if step.shared {
            &mut self.sync[proc.sync].timers[step.id]
        } else {
            if task.timers.len() <= step.id {
                task.timers.resize(step.id + 1, PeriodTimer::default());
            }
            &mut task.timers[step.id]
        };
        let next = timer.next.unwrap_or(start).after(step.period_ns);
        if now < next {
            timer.next = Some(next);
            return Some(next.since(now));
        }
        timer.next = Some(if step.absolute { next } else { now });
        if now > next {
            task.stats.timer_overruns += 1;
            // The job ran past the period's end, its implicit deadline: one record for the lanes.
            let miss = DeadlineMiss { at: now, pid, cpu: task.cpu, deadline: next, kind: MissKind::Timer };
            self.misses.push(miss);
        }
        None
    }

    /// The rest of a busy loop's burst, if `pid` is in one: up to its end,
    /// whatever it ran meanwhile (nothing left once that has passed).
    pub(crate) fn busy_left(&self, pid: Pid) -> Option<u64> {
        match self.tasks[pid.idx()].spin {
            Some(Spin::Until(end)) => Some(end.since(self.now)),
            _ => None,
        }
    }
}

impl Simulator {
    /// The running task starts a busy loop of `ns` of wall-clock time.
    pub(super) fn busy(&mut self, cpu: CpuId, pid: Pid, ns: u64) {
        let end = self.core.now.after(ns);
        let task = &mut self.core.tasks[pid.idx()];
        task.spin = Some(Spin::Until(end));
        task.burst_end_exec = task.se.sum_exec_runtime + ns;
        // Measured in time: SMT contention does not stretch it.
        task.burst_rate_pct = 0;
        self.core.arm_burst_end(cpu);
    }
}

//! One-slot flags between two threads of a process: the point-to-point
//! synchronisation of a pipeline, as NAS lu's SSOR sweeps use it. Thread i
//! posts to its successor by waiting until its own flag is clear and setting
//! it; the successor waits until the flag is set and clears it. Whoever
//! changes a flag lets the threads waiting on it look again.
//!
//! ```text
//!   post  (flag of me)          await (flag of me + offset)
//!   wait while set, then set    wait while clear, then clear
//! ```
//!
//! How a thread waits is its step's `WaitPolicy`:
//! - `Spin`: NAS's own loops, busy on the CPU until the flag changes; a
//!   spinner that is not running notices when it next runs.
//! - `Yield`: spin `spin_ns`, `sched_yield`, look again (an OpenMP runtime's
//!   spin-then-yield).
//! - `Block`: spin `spin_ns` (perhaps 0), then block until the flag changes
//!   (a futex wait, as a passive OpenMP wait policy).
//!
//! A waiting step is kept as the task's pending call and tried again when its
//! wait ends, so the flag is read and changed by the waiter itself, when it
//! runs: the moment it can see the change, never earlier.

use super::core::From;
use super::Simulator;
use crate::program::{Action, FlagSide, FlagStep, WaitPolicy};
use crate::task::{Block, Spin, TaskState};
use crate::time::{CpuId, Pid};

/// A spin with no end of its own: it ends when the flag changes.
const SPIN_FOREVER_NS: u64 = u64::MAX / 4;

/// One flag: set or clear, and the threads that wait for it to change.
#[derive(Clone, Debug, Default)]
pub struct FlagSlot {
    pub set: bool,
    pub waiters: Vec<Pid>,
}

impl Simulator {
    /// Carries out a flag step of the task running on `cpu`. True if the
    /// program goes on at once; false if the task waits (spinning, yielding
    /// or blocked) and will try the step again.
    pub(super) fn flag_step(&mut self, cpu: CpuId, pid: Pid, step: FlagStep) -> bool {
        let tgid = self.core.tasks[pid.idx()].tgid as usize;
        let space = self.core.procs[tgid].sync;
        // As NAS's first and last threads skip the side with no neighbour,
        // a step whose peer does not exist does nothing.
        let Some(poster) = self.core.flag_poster(pid, step) else { return true };
        let slots = &mut self.core.sync[space].flags[step.id];
        if slots.len() <= poster {
            slots.resize_with(poster + 1, FlagSlot::default);
        }
        let slot = &mut slots[poster];
        let ready = match step.side {
            FlagSide::Post => !slot.set,
            FlagSide::Await => slot.set,
        };
        if ready {
            slot.set = step.side == FlagSide::Post;
            let waiters = std::mem::take(&mut slot.waiters);
            for w in waiters {
                self.flag_changed(w, cpu);
            }
            return true;
        }
        if !slot.waiters.contains(&pid) {
            slot.waiters.push(pid);
        }
        self.core.tasks[pid.idx()].pending = Some(Action::Flag(step));
        match step.wait {
            WaitPolicy::Spin => self.flag_spin(cpu, pid, step, SPIN_FOREVER_NS),
            WaitPolicy::Yield => self.flag_spin(cpu, pid, step, step.spin_ns),
            WaitPolicy::Block if step.spin_ns > 0 => self.flag_spin(cpu, pid, step, step.spin_ns),
            WaitPolicy::Block => self.block(cpu, pid, Block::Flag(step.id)),
        }
        false
    }

    /// The running task spins for `ns` of time (however fast its CPU runs).
    fn flag_spin(&mut self, cpu: CpuId, pid: Pid, step: FlagStep, ns: u64) {
        let task = &mut self.core.tasks[pid.idx()];
        task.spin = Some(Spin::Flag(step));
        task.burst_end_exec = task.se.sum_exec_runtime.saturating_add(ns);
        task.burst_rate_pct = 0;
        self.core.arm_burst_end(cpu);
    }

    /// A flag a task waits on changed: a spinner stops spinning (and looks at
    /// once if running, or when it next runs); a blocked one wakes.
    fn flag_changed(&mut self, pid: Pid, waker: CpuId) {
        let task = &self.core.tasks[pid.idx()];
        if matches!(task.spin, Some(Spin::Flag(_))) {
            self.stop_spinning(pid);
        } else if task.state == TaskState::Sleeping && matches!(task.blocked_on, Some(Block::Flag(_))) {
            self.core.tasks[pid.idx()].blocked_on = None;
            self.advance(pid, From::Waking { is_new: false, waker: Some(waker), sync: false });
        }
    }

    /// A bounded spin ran out with the flag unchanged: yield and look again,
    /// or block, as the step's wait says.
    pub(super) fn flag_spin_expired(&mut self, cpu: CpuId, pid: Pid, step: FlagStep) {
        match step.wait {
            WaitPolicy::Block => self.block(cpu, pid, Block::Flag(step.id)),
            WaitPolicy::Yield | WaitPolicy::Spin => {
                // Out of the waiters while it yields: the step puts it back
                // when it looks again.
                let tgid = self.core.tasks[pid.idx()].tgid as usize;
                let space = self.core.procs[tgid].sync;
                if let Some(slot) =
                    self.core.flag_poster(pid, step).and_then(|i| self.core.sync[space].flags[step.id].get_mut(i))
                {
                    slot.waiters.retain(|&w| w != pid);
                }
                self.core.rqs[cpu.idx()].schedstat.yld_count += 1;
                self.sched().yield_task(pid, cpu);
                self.core.set_burst(pid, 1);
                self.sched().schedule(cpu);
            }
        }
    }
}

impl super::Core {
    /// The index of the thread whose flag the step reads, or None if its
    /// peer does not exist (yet, or at all).
    fn flag_poster(&self, pid: Pid, step: FlagStep) -> Option<usize> {
        let task = &self.tasks[pid.idx()];
        let me = task.thread_ix as i64;
        let peer = me + step.peer as i64;
        if step.peer == 0 || peer < 0 || peer >= self.procs[task.tgid as usize].threads.len() as i64 {
            return None;
        }
        Some(match step.side {
            FlagSide::Post => me,
            FlagSide::Await => peer,
        } as usize)
    }
}

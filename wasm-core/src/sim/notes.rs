//! Outcomes of a run that the scenario did not ask for and that would
//! otherwise pass unseen: a thread ended because its program went round
//! without ever taking time, a fork refused at the thread limit, a hotplug
//! event that could not be carried out. The report words them
//! (`api::report`). Validation refuses what it can see coming; these cover
//! what only the run shows. Kept out of the trace, so they never change a
//! run's hash, and bounded: counts, and the first few cases.

use super::core::From;
use super::Simulator;
use crate::config::MAX_THREADS;
use crate::time::{CpuId, Pid, SimTime};

/// How many cases of each kind are kept (the rest are counted).
pub const KEPT: usize = 8;

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RunNotes {
    /// Threads ended because their program made `MAX_ZERO_TIME_STEPS` steps
    /// in a row without taking time: the first few (pid, when), and how many.
    pub stalled: Vec<(Pid, SimTime)>,
    pub stalled_count: u64,
    /// Forks refused because the run had made `MAX_THREADS` threads: the
    /// first few (forking pid, when), and how many.
    pub forks_refused: Vec<(Pid, SimTime)>,
    pub forks_refused_count: u64,
    /// Hotplug events not carried out (validation refuses them in a
    /// scenario): the first few, and how many.
    pub hotplug_ignored: Vec<(SimTime, HotplugIgnored)>,
    pub hotplug_ignored_count: u64,
    /// A sched_ext policy failed (an exception, a runaway loop, a bad
    /// answer): when, the callback and the reason. The run stopped there.
    pub policy_error: Option<(SimTime, String)>,
    /// The sched_ext watchdog ended the policy: when and why. The fair
    /// class ran every task from then on.
    pub policy_fallback: Option<(SimTime, String)>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HotplugIgnored {
    /// The CPU was offline already (or does not exist).
    AlreadyOffline(CpuId),
    /// It was the last online CPU (the kernel refuses too).
    LastOnline(CpuId),
    /// The CPU was online already (or does not exist).
    AlreadyOnline(CpuId),
}

impl RunNotes {
    pub fn is_empty(&self) -> bool {
        self.stalled_count == 0
            && self.forks_refused_count == 0
            && self.hotplug_ignored_count == 0
            && self.policy_error.is_none()
            && self.policy_fallback.is_none()
    }
}

fn keep<T>(list: &mut Vec<T>, count: &mut u64, item: T) {
    *count += 1;
    if list.len() < KEPT {
        list.push(item);
    }
}

impl Simulator {
    pub fn notes(&self) -> &RunNotes {
        &self.core.notes
    }

    /// The thread's program went round without taking time (a loop of
    /// zero-length steps or of instantaneous calls): it is ended, as the
    /// bad-input rule wants a run that cannot hang, and the report says so.
    pub(crate) fn end_stalled(&mut self, pid: Pid, from: From) {
        keep(&mut self.core.notes.stalled, &mut self.core.notes.stalled_count, (pid, self.core.now));
        match from {
            From::Running(cpu) => self.exit_running(cpu, pid),
            From::Waking { .. } => self.exit_sleeping(pid),
        }
    }
}

impl super::Core {
    /// Whether a fork may make another thread; if not, the refusal is noted
    /// (fork() fails with EAGAIN and the program goes on without a child).
    pub(crate) fn fork_allowed(&mut self, parent: Pid) -> bool {
        if self.tasks.len() < MAX_THREADS as usize {
            return true;
        }
        keep(&mut self.notes.forks_refused, &mut self.notes.forks_refused_count, (parent, self.now));
        false
    }

    pub(crate) fn note_hotplug_ignored(&mut self, what: HotplugIgnored) {
        keep(&mut self.notes.hotplug_ignored, &mut self.notes.hotplug_ignored_count, (self.now, what));
    }
}

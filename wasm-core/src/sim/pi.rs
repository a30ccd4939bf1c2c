//! Priority inheritance for the processes' mutexes under
//! `"mutex_protocol": "inherit"` (PTHREAD_PRIO_INHERIT: glibc locks such a
//! mutex with PI futexes, which the kernel backs with an rt_mutex).
//!
//! What the model keeps of kernel/locking/rtmutex.c (not in our reference
//! tree; its scheduler half, `rt_mutex_setprio`, is core.c 2998–3078 in 4.1):
//! - a mutex's waiters queue by prio, the most urgent first and in arrival
//!   order among equals (`rt_mutex_waiter_less`);
//! - an owner runs at its own prio or at that of the most urgent waiter of
//!   any mutex it holds, whichever is more urgent (`rt_mutex_getprio`); a
//!   real-time prio moves it into the real-time class (`rt_mutex_setprio`);
//! - an owner that itself waits for a mutex passes the change on to that
//!   mutex's owner, and so on (`rt_mutex_adjust_prio_chain`), for at most
//!   `max_lock_depth` links;
//! - unlock gives the mutex to its most urgent waiter and drops what the
//!   unlocker was lent (`rt_mutex_slowunlock`, then `rt_mutex_adjust_prio`).
//!
//! Departures (docs/fidelity.md): the kernel wakes the top waiter, which
//! takes the lock when it runs, and a more urgent task may take it first
//! (`try_to_take_rt_mutex`'s steal); the model hands it over at unlock, as
//! its plain mutexes do. A deadline waiter's boost (`dl_boosted`) is not
//! modelled (validation refuses deadline processes with PI mutexes).

use super::Simulator;
use crate::task::{Block, TaskState};
use crate::time::Pid;

/// `max_lock_depth` (rtmutex.c): the longest chain a boost is passed along.
pub const MAX_LOCK_DEPTH: u32 = 1024;

impl Simulator {
    /// `pid` starts to wait for mutex `id` of address space `space`: by prio
    /// under priority inheritance, else at the back.
    pub(super) fn mutex_enqueue_waiter(&mut self, space: usize, id: usize, pid: Pid) {
        if !self.core.pi_mutexes {
            self.core.sync[space].mutexes[id].waiters.push_back(pid);
            return;
        }
        let prio = self.core.tasks[pid.idx()].prio;
        let tasks = &self.core.tasks;
        let waiters = &mut self.core.sync[space].mutexes[id].waiters;
        let at = waiters.iter().position(|w| tasks[w.idx()].prio > prio).unwrap_or(waiters.len());
        waiters.insert(at, pid);
    }

    /// The prio `pid` runs at: its own, or the most urgent of the first
    /// waiters of the mutexes it holds (`rt_mutex_getprio`).
    fn pi_effective_prio(&self, pid: Pid) -> u32 {
        let own = self.core.tasks[pid.idx()].normal_prio();
        self.pi_top_waiter_prio(pid).map_or(own, |lent| lent.min(own))
    }

    /// `rt_mutex_adjust_prio_chain` from `owner`, whose waiters changed:
    /// its prio is set anew, and while that changes something and it waits
    /// for a mutex, its place in that mutex's queue and that mutex's owner
    /// are set anew too.
    pub(super) fn pi_adjust_chain(&mut self, mut owner: Pid) {
        if !self.core.pi_mutexes {
            return;
        }
        for _ in 0..MAX_LOCK_DEPTH {
            let prio = self.pi_effective_prio(owner);
            if prio == self.core.tasks[owner.idx()].prio {
                return;
            }
            self.rt_mutex_setprio(owner, prio);
            let task = &self.core.tasks[owner.idx()];
            let Some(Block::Mutex(id)) = task.blocked_on.filter(|_| task.state == TaskState::Sleeping) else {
                return;
            };
            let space = self.core.procs[task.tgid as usize].sync;
            self.core.sync[space].mutexes[id].waiters.retain(|&w| w != owner);
            self.mutex_enqueue_waiter(space, id, owner);
            let Some(next) = self.core.sync[space].mutexes[id].owner else { return };
            owner = next;
        }
    }

    /// The prio of the most urgent first waiter of the mutexes `pid` holds, if any waits.
    pub(super) fn pi_top_waiter_prio(&self, pid: Pid) -> Option<u32> {
        if !self.core.pi_mutexes {
            return None;
        }
        let space = self.core.procs[self.core.tasks[pid.idx()].tgid as usize].sync;
        self.core.sync[space]
            .mutexes
            .iter()
            .filter(|m| m.owner == Some(pid))
            .filter_map(|m| m.waiters.front())
            .map(|w| self.core.tasks[w.idx()].prio)
            .min()
    }

    /// `rt_mutex_setprio` (core.c 2998–3078 in 4.1): `pid` runs at `prio`
    /// from now on, in the class the prio gives (the real-time class below
    /// MAX_RT_PRIO, its policy's above: `setattr.rs`).
    pub(super) fn rt_mutex_setprio(&mut self, pid: Pid, prio: u32) {
        let task = &self.core.tasks[pid.idx()];
        let (cpu, oldprio, policy) = (task.cpu, task.prio, task.policy);
        self.change_sched(pid, policy, prio, |t| t.prio = prio);
        self.core.trace.emit(self.core.now, cpu, crate::trace::TraceKind::PiSetprio { pid, oldprio, newprio: prio });
    }
}

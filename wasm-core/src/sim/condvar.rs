//! Condition variables, as pthreads has them (and rt-app's `wait`, `signal`,
//! `broad`, `sync`, `suspend` and `resume` events are made of):
//!
//! ```text
//!   cond_wait(c, m)    release m if held (its longest waiter takes it), sleep on c
//!   cond_signal(c)     c's longest waiter takes m back and goes on
//!   cond_broadcast(c)  every waiter, longest first
//!   (no waiter: nothing happens; a signal is not remembered, unlike a futex wake)
//! ```
//!
//! A woken waiter must hold its mutex again before it goes on. If the mutex
//! is free it takes it and wakes; if not (the signaller usually holds it) it
//! moves to the mutex's queue without waking and is handed the mutex at its
//! unlock, as glibc's FUTEX_CMP_REQUEUE did: it does not wake only to find the
//! mutex held. A waiter that did not hold the mutex still holds it on
//! waking, as `pthread_cond_wait` returns with it locked.

use super::core::From;
use super::Simulator;
use crate::task::Block;
use crate::time::{CpuId, Pid};
use std::collections::VecDeque;

/// A condition variable: its waiters in arrival order, each with the mutex
/// it takes back on waking.
#[derive(Clone, Debug, Default)]
pub struct CondVar {
    pub waiters: VecDeque<(Pid, usize)>,
}

impl Simulator {
    /// `pthread_cond_wait` by the task running on `cpu`: it always blocks.
    pub(super) fn cond_wait(&mut self, cpu: CpuId, pid: Pid, space: usize, cond: usize, mutex: usize) -> bool {
        if self.core.sync[space].mutexes[mutex].owner == Some(pid) {
            self.mutex_unlock(space, mutex, cpu);
        }
        self.core.sync[space].conds[cond].waiters.push_back((pid, mutex));
        self.block(cpu, pid, Block::Cond(cond));
        false
    }

    /// `pthread_cond_signal` (`all`: `pthread_cond_broadcast`) from `waker`.
    pub(super) fn cond_wake(&mut self, space: usize, cond: usize, all: bool, waker: CpuId) {
        while let Some((pid, mutex)) = self.core.sync[space].conds[cond].waiters.pop_front() {
            let m = &mut self.core.sync[space].mutexes[mutex];
            if m.owner.is_none() {
                m.owner = Some(pid);
                self.core.tasks[pid.idx()].blocked_on = None;
                self.advance(pid, From::Waking { is_new: false, waker: Some(waker), sync: false });
            } else {
                // Requeued onto the mutex (FUTEX_CMP_REQUEUE_PI under priority inheritance: a waiter there lends
                // the owner its prio like any other).
                let owner = m.owner;
                self.core.tasks[pid.idx()].blocked_on = Some(Block::Mutex(mutex));
                self.mutex_enqueue_waiter(space, mutex, pid);
                if let Some(owner) = owner {
                    self.pi_adjust_chain(owner);
                }
            }
            if !all {
                break;
            }
        }
    }
}

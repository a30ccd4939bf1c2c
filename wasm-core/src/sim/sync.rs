//! Synchronisation between threads: futex-style wait/wake, process-wide
//! barriers (spin for a while, then block, like NAS lu's pipelined waits),
//! mutexes, sched_yield, and a per-process job pool (make's job server);
//! condition variables are `condvar.rs`'s, timers and busy loops
//! `timer.rs`'s. All are instantaneous system calls made by a running task;
//! blocking deactivates it, waking goes through try_to_wake_up with the
//! waker's CPU (which matters to wake_affine).
//!
//! Named objects belong to an address space (`ProcSync`): a process's own,
//! or one several processes share (`ProcessSpec::address_space`, the
//! threads of one rt-app run). A process's barrier waits for all its
//! threads; a shared space's waits for as many arrivals as its steps name it
//! times their processes' threads (`Barrier::parties`), as rt-app counts a
//! barrier's users.

use super::core::From;
use super::Simulator;
use crate::program::Action;
use crate::task::{Block, Spin, TaskState};
use crate::time::{CpuId, Pid};
use std::collections::VecDeque;

#[derive(Clone, Debug, Default)]
pub struct Barrier {
    /// Arrivals that open it; None: every thread of the arriving process.
    pub parties: Option<u32>,
    pub arrived: u32,
    pub generation: u64,
    pub spinning: Vec<Pid>,
    pub blocked: Vec<Pid>,
}

#[derive(Clone, Debug, Default)]
pub struct Mutex {
    pub owner: Option<Pid>,
    pub waiters: VecDeque<Pid>,
}

/// The synchronisation objects of one address space (a process's own, or
/// shared by the processes naming one).
#[derive(Clone, Debug, Default)]
pub struct ProcSync {
    pub barriers: Vec<Barrier>,
    pub mutexes: Vec<Mutex>,
    pub conds: Vec<super::condvar::CondVar>,
    /// Shared periodic timers (a thread's own are in its task).
    pub timers: Vec<crate::task::PeriodTimer>,
    /// Jobs left in the process's job pool (make's job server).
    pub jobs: u32,
    /// One-slot flags, by flag and then by the posting thread's index
    /// (grown as threads use them).
    pub flags: Vec<Vec<super::flags::FlagSlot>>,
}

impl Simulator {
    /// Carries out one system call of the task running on `cpu`. Returns
    /// true if the task goes on with its program, false if it blocked or
    /// gave up the CPU.
    pub(crate) fn syscall(&mut self, cpu: CpuId, pid: Pid, action: Action) -> bool {
        let tgid = self.core.tasks[pid.idx()].tgid as usize;
        let space = self.core.procs[tgid].sync;
        match action {
            Action::Wait => {
                let task = &mut self.core.tasks[pid.idx()];
                if task.wake_tokens > 0 {
                    task.wake_tokens -= 1;
                    return true;
                }
                self.block(cpu, pid, Block::Wait);
                false
            }
            Action::Wake { tgid: target_tgid, thread } => {
                if let Some(&target) = self.core.procs[target_tgid as usize].threads.get(thread as usize) {
                    self.futex_wake(target, cpu);
                }
                true
            }
            Action::Barrier { id, spin_ns } => {
                let nthreads = self.core.procs[tgid].threads.len() as u32;
                let b = &mut self.core.sync[space].barriers[id];
                b.arrived += 1;
                if b.arrived >= b.parties.unwrap_or(nthreads) {
                    self.release_barrier(space, id, cpu);
                    return true;
                }
                let gen = b.generation;
                if spin_ns > 0 {
                    b.spinning.push(pid);
                    let task = &mut self.core.tasks[pid.idx()];
                    task.spin = Some(Spin::Barrier { id, gen });
                    task.burst_end_exec = task.se.sum_exec_runtime + spin_ns;
                    // Spinning lasts spin_ns of time however fast the thread runs.
                    task.burst_rate_pct = 0;
                    self.core.arm_burst_end(cpu);
                } else {
                    b.blocked.push(pid);
                    self.block(cpu, pid, Block::Barrier(id));
                }
                false
            }
            Action::Lock(id) => {
                let m = &mut self.core.sync[space].mutexes[id];
                if m.owner.is_none() {
                    m.owner = Some(pid);
                    return true;
                }
                let owner = m.owner;
                // The waiter lends the owner its prio before it sleeps (`task_blocks_on_rt_mutex`).
                self.mutex_enqueue_waiter(space, id, pid);
                if let Some(owner) = owner {
                    self.pi_adjust_chain(owner);
                }
                self.block(cpu, pid, Block::Mutex(id));
                false
            }
            Action::Unlock(id) => {
                self.mutex_unlock(space, id, cpu);
                true
            }
            Action::CondWait { cond, mutex } => self.cond_wait(cpu, pid, space, cond, mutex),
            Action::CondSignal(cond) => {
                self.cond_wake(space, cond, false, cpu);
                true
            }
            Action::CondBroadcast(cond) => {
                self.cond_wake(space, cond, true, cpu);
                true
            }
            Action::SchedSetattr(attr) => {
                self.sched_setattr(pid, attr);
                true
            }
            Action::SetCpus(mask) => self.sched_setaffinity(cpu, pid, mask),
            Action::SetCgroup(group) => {
                self.sched_move_task(pid, group);
                true
            }
            Action::Busy(ns) => {
                self.busy(cpu, pid, ns);
                false
            }
            Action::Yield => {
                // yield_task_fair: become the skip buddy, then schedule at once;
                // the program goes on when the task next runs.
                self.core.rqs[cpu.idx()].schedstat.yld_count += 1;
                let mut s = self.sched();
                s.yield_task(pid, cpu);
                s.core.set_burst(pid, 1);
                s.schedule(cpu);
                false
            }
            Action::TakeJob => {
                let pool = &mut self.core.sync[space].jobs;
                if *pool > 0 {
                    *pool -= 1;
                    return true;
                }
                // No job left: the worker exits.
                self.exit_running(cpu, pid);
                false
            }
            Action::Fork(program) => {
                self.fork(cpu, pid, program);
                true
            }
            Action::CreateThread => {
                self.create_thread(cpu, pid);
                true
            }
            Action::WaitChild => {
                let task = &mut self.core.tasks[pid.idx()];
                if task.child_exits > 0 {
                    task.child_exits -= 1;
                    return true;
                }
                if task.live_children == 0 {
                    return true;
                }
                self.block(cpu, pid, Block::Child);
                false
            }
            Action::Exec => self.sched_exec(cpu, pid),
            Action::Flag(step) => self.flag_step(cpu, pid, step),
            // A timer step reaches the core as a sleep (`timer.rs`).
            Action::Run(_) | Action::Sleep(_) | Action::Timer(_) | Action::Exit | Action::Stalled => true,
        }
    }

    pub(super) fn block(&mut self, cpu: CpuId, pid: Pid, on: Block) {
        self.core.tasks[pid.idx()].blocked_on = Some(on);
        let mut s = self.sched();
        s.deactivate(cpu, pid, TaskState::Sleeping);
        s.schedule(cpu);
    }

    /// A futex wake: a task waiting in Wait wakes; otherwise the wakeup is
    /// remembered so its next Wait returns at once.
    fn futex_wake(&mut self, target: Pid, waker: CpuId) {
        let task = &mut self.core.tasks[target.idx()];
        if task.state == TaskState::Sleeping && task.blocked_on == Some(Block::Wait) {
            task.blocked_on = None;
            self.advance(target, From::Waking { is_new: false, waker: Some(waker), sync: false });
        } else {
            task.wake_tokens += 1;
        }
    }

    /// `pthread_mutex_unlock`: the lock goes to its first waiter (the
    /// longest waiting, or under priority inheritance the most urgent), who
    /// goes on after its lock (or its condition wait). Under priority
    /// inheritance the unlocker then runs at what the mutexes it still holds
    /// lend it (`rt_mutex_adjust_prio`), and the new owner at what its
    /// remaining waiters lend it.
    pub(super) fn mutex_unlock(&mut self, space: usize, id: usize, cpu: CpuId) {
        let m = &mut self.core.sync[space].mutexes[id];
        let unlocker = m.owner;
        m.owner = m.waiters.pop_front();
        if let Some(next) = m.owner {
            self.core.tasks[next.idx()].blocked_on = None;
            self.advance(next, From::Waking { is_new: false, waker: Some(cpu), sync: false });
            self.pi_adjust_chain(next);
        }
        if let Some(unlocker) = unlocker {
            self.pi_adjust_chain(unlocker);
        }
    }

    /// The last thread arrived: spinners stop spinning, blocked ones wake.
    fn release_barrier(&mut self, space: usize, id: usize, waker: CpuId) {
        let b = &mut self.core.sync[space].barriers[id];
        b.arrived = 0;
        b.generation += 1;
        let spinning = std::mem::take(&mut b.spinning);
        let blocked = std::mem::take(&mut b.blocked);
        for pid in spinning {
            self.stop_spinning(pid);
        }
        for pid in blocked {
            self.core.tasks[pid.idx()].blocked_on = None;
            self.advance(pid, From::Waking { is_new: false, waker: Some(waker), sync: false });
        }
    }

    /// A spinner sees the barrier open: its spin ends now (at once if it is
    /// running, as soon as it runs if it is waiting for a CPU).
    pub(super) fn stop_spinning(&mut self, pid: Pid) {
        let task = &self.core.tasks[pid.idx()];
        let cpu = task.cpu;
        let running = task.state == TaskState::Running;
        if running {
            self.sched().update_curr(cpu);
        }
        let task = &mut self.core.tasks[pid.idx()];
        task.spin = None;
        task.burst_end_exec = task.se.sum_exec_runtime;
        if running {
            self.core.arm_burst_end(cpu);
        }
    }

    /// The spin ran out before the barrier opened (or the flag changed).
    pub(crate) fn spin_expired(&mut self, cpu: CpuId, pid: Pid) {
        let (id, gen) = match self.core.tasks[pid.idx()].spin.take() {
            Some(Spin::Barrier { id, gen }) => (id, gen),
            Some(Spin::Flag(step)) => return self.flag_spin_expired(cpu, pid, step),
            // A busy loop's end: the program goes on.
            Some(Spin::Until(_)) => return self.advance(pid, From::Running(cpu)),
            None => return,
        };
        let tgid = self.core.tasks[pid.idx()].tgid as usize;
        let space = self.core.procs[tgid].sync;
        let b = &mut self.core.sync[space].barriers[id];
        if b.generation != gen {
            self.advance(pid, From::Running(cpu));
            return;
        }
        b.spinning.retain(|&p| p != pid);
        b.blocked.push(pid);
        self.block(cpu, pid, Block::Barrier(id));
    }
}

impl Simulator {
    /// `pthread_create` by a process's first thread: its next thread starts
    /// from the creator's vruntime (`task_fork_fair`), placed by
    /// `wake_up_new_task` from the creator's CPU.
    fn create_thread(&mut self, cpu: CpuId, creator: Pid) {
        self.sched().update_curr(cpu);
        let t = &mut self.core.tasks[creator.idx()];
        t.threads_to_create -= 1;
        t.next_thread += 1;
        let (tgid, ix) = (t.tgid, t.next_thread - 1);
        let pid = self.core.procs[tgid as usize].threads[ix as usize];
        self.wake_up_new_task(cpu, creator, pid);
    }

    /// `sched_fork` + `wake_up_new_task` for a new task made by `parent` on
    /// `cpu`: it starts from the parent's vruntime (`task_fork_fair`) and is
    /// placed from the parent's CPU.
    fn wake_up_new_task(&mut self, cpu: CpuId, parent: Pid, pid: Pid) {
        let vruntime = self.core.tasks[parent.idx()].se.vruntime;
        let now = self.core.now;
        let task = &mut self.core.tasks[pid.idx()];
        task.cpu = cpu;
        task.se.vruntime = vruntime;
        task.stats.started_at = Some(now);
        self.sched().task_fork(pid, cpu);
        self.advance(pid, From::Waking { is_new: true, waker: Some(cpu), sync: false });
    }

    /// fork(): a child task in the parent's process and group, with its
    /// affinity and nice level, starting from the parent's vruntime
    /// (`task_fork_fair`), placed by `wake_up_new_task` from the parent's CPU.
    /// Past `config::MAX_THREADS` threads the fork fails (EAGAIN): the
    /// parent goes on without a child and the run's notes count it.
    fn fork(&mut self, cpu: CpuId, parent: Pid, program: usize) {
        // sched_fork (core.c 1931–1933 in 4.1): a deadline task's fork fails (validation refuses such programs).
        if !self.core.fork_allowed(parent) || self.core.tasks[parent.idx()].policy.is_dl() {
            return;
        }
        self.sched().update_curr(cpu);
        let pid = Pid(self.core.tasks.len() as u32);
        let p = &self.core.tasks[parent.idx()];
        let tgid = p.tgid;
        let name = crate::task::numbered_name(&self.core.procs[tgid as usize].name, '#', pid.0);
        let mut child = crate::task::Task::new(
            pid,
            tgid,
            name,
            p.nice,
            crate::program::ProgramCursor::new(program),
            p.allowed.clone(),
        );
        // sched_fork (core.c 1906–1908 in 4.1): the child has its parent's policy at the parent's normal prio,
        // never a prio a PI mutex lends the parent. (Validation refuses a deadline task's fork: EAGAIN.)
        child.set_policy(p.policy, p.rt_priority);
        child.tg = p.tg;
        child.parent = Some(parent);
        self.core.tasks.push(child);
        self.core.tasks[pid.idx()].thread_ix = self.core.procs[tgid as usize].threads.len() as u32;
        self.core.procs[tgid as usize].threads.push(pid);
        self.core.tasks[parent.idx()].live_children += 1;
        self.wake_up_new_task(cpu, parent, pid);
    }

    /// A child exited: its waiting parent wakes, or the exit is remembered.
    pub(crate) fn notify_parent(&mut self, child: Pid, cpu: CpuId) {
        let Some(parent) = self.core.tasks[child.idx()].parent else { return };
        let p = &mut self.core.tasks[parent.idx()];
        p.live_children = p.live_children.saturating_sub(1);
        if p.state == TaskState::Sleeping && p.blocked_on == Some(Block::Child) {
            p.blocked_on = None;
            // __wake_up_parent: a synchronous wakeup (the child is exiting).
            self.advance(parent, From::Waking { is_new: false, waker: Some(cpu), sync: true });
        } else {
            p.child_exits += 1;
        }
    }
}

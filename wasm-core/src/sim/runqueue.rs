//! The per-CPU runqueue (`struct rq`): the CFS runqueue plus the CPU-level
//! bookkeeping the simulator needs (tasks of every class, resched flag, burst
//! generation, busy and idle time, the start of the current run slice).

use crate::sched::cfs_rq::CfsRq;
use crate::time::{CpuId, Pid, SimTime};
use crate::topology::domains::SchedDomain;
use std::collections::VecDeque;

// repr(C), in this order: what a balancing pass or a fork placement reads
// of every CPU of a domain (`cpu_load`, the running task, the length, online,
// then the root runqueue's loads at the start of `cfs`) lies in the first
// 80 bytes, where the compiler's layout spread it over the struct: on 256
// CPUs those reads were a quarter of the run's L1 misses.
#[derive(Clone, Debug)]
#[repr(C)]
pub struct Rq {
    /// 6.12's per-CPU `distribute_cpu_mask_prev` (lib/cpumask.c): the CPU
    /// `cpumask_any_and_distribute` last picked when called on this CPU.
    pub distribute_cpu_mask_prev: u32,
    /// `cpu_load[]`: per-tick decayed history of the CPU load (load_idx 1..5).
    pub cpu_load: [u64; 5],
    /// The task running on this CPU (the root cfs_rq's curr may be a group).
    pub curr_task: Option<Pid>,
    /// `rq->nr_running`: tasks on this CPU, running or queued, whatever their
    /// class; each class counts its enqueues and dequeues here
    /// (`add_nr_running` / `sub_nr_running`).
    pub nr_running: u32,
    pub cpu: CpuId,
    pub online: bool,
    /// TIF_NEED_RESCHED of the running task.
    pub need_resched: bool,
    /// The root CFS runqueue.
    pub cfs: CfsRq,
    /// Bumped at every pick so stale BurstEnd events can be recognised.
    pub burst_gen: u64,
    /// When the current task (or idle) started on this CPU.
    pub slice_start: SimTime,
    pub busy_ns: u64,
    pub idle_ns: u64,
    /// This CPU's scheduling domains, lowest level first.
    pub domains: Vec<SchedDomain>,
    /// `rq->cfs_tasks`: queued tasks, most recently run first; detach_tasks
    /// walks it from the front.
    pub cfs_tasks: VecDeque<Pid>,
    /// The queued tasks of the classes above the fair class (deadline, real-time), for
    /// the core's whole-machine readers; their class keeps its own order.
    pub upper_tasks: VecDeque<Pid>,
    /// `rq->leaf_cfs_rq_list`: the groups whose runqueue on this CPU still
    /// has load to decay, each before its parent; `update_blocked_averages`
    /// walks it (the root's runqueue, always last, is not kept here).
    pub leaf_cfs_rqs: VecDeque<u32>,
    /// When the CPU last went idle (None while busy), for the longest-idle
    /// choice and `avg_idle`.
    pub idle_stamp: Option<SimTime>,
    /// `rq->idle_stamp` as 4.1 keeps it for `avg_idle`: set each time
    /// `idle_balance` runs, cleared when it pulls or when a wakeup onto this
    /// CPU folds the idle time into `avg_idle` (`ttwu_do_wakeup`). Kept apart
    /// from `idle_stamp`, the "idle since" of the placement and the index:
    /// the two agree on idle CPUs, but this one outlives a pull by periodic
    /// balancing, as the kernel's does.
    pub avg_idle_stamp: Option<SimTime>,
    /// `rq->avg_idle`: running average of idle periods (gates newidle balancing).
    pub avg_idle_ns: u64,
    /// `rq->max_idle_balance_cost`: the dearest whole `idle_balance` seen,
    /// never below the migration cost; caps `avg_idle` at twice itself.
    pub max_idle_balance_cost_ns: u64,
    /// Next jiffy at which periodic balancing is due.
    pub next_balance: u64,
    /// A stopper push is pending from this CPU (`rq->active_balance`).
    pub active_balance: bool,
    /// The CPU's stopper, the stop class's one task (`rq->stop`), and its queued works.
    pub stopper: super::stop::CpuStopper,
    /// A NOHZ idle-balance kick is pending for this CPU.
    pub nohz_kicked: bool,
    /// The jiffy `cpu_load[]` last took in (`rq->last_load_update_tick`).
    pub last_load_update_tick: u64,
    /// The tick is stopped: the CPU idles tickless (`ts->tick_stopped`).
    pub tick_stopped: bool,
    /// A tick event of this CPU is in the queue (one stopped on entering
    /// idle may still be: it fires as nothing).
    pub tick_pending: bool,
    /// schedstat counters of the runqueue (the `cpuN` line of /proc/schedstat).
    pub schedstat: crate::topology::schedstat::RqSchedstat,
}

impl Rq {
    pub fn new(cpu: CpuId) -> Rq {
        Rq {
            distribute_cpu_mask_prev: 0,
            cpu,
            online: true,
            cfs: CfsRq::new(0),
            nr_running: 0,
            curr_task: None,
            need_resched: false,
            burst_gen: 0,
            slice_start: SimTime::ZERO,
            busy_ns: 0,
            idle_ns: 0,
            domains: Vec::new(),
            cpu_load: [0; 5],
            last_load_update_tick: 0,
            tick_stopped: false,
            tick_pending: false,
            cfs_tasks: VecDeque::new(),
            upper_tasks: VecDeque::new(),
            leaf_cfs_rqs: VecDeque::new(),
            idle_stamp: Some(SimTime::ZERO),
            avg_idle_stamp: None,
            avg_idle_ns: 0,
            max_idle_balance_cost_ns: 0,
            next_balance: 0,
            active_balance: false,
            stopper: Default::default(),
            nohz_kicked: false,
            schedstat: Default::default(),
        }
    }

    pub fn curr(&self) -> Option<Pid> {
        self.curr_task
    }

    /// Busy time up to `now`, the current slice included.
    pub fn busy_ns_at(&self, now: SimTime) -> u64 {
        self.busy_ns + if self.curr().is_some() { now.since(self.slice_start) } else { 0 }
    }

    /// Idle time up to `now`, the current idle stretch included.
    pub fn idle_ns_at(&self, now: SimTime) -> u64 {
        self.idle_ns + if self.curr().is_none() { now.since(self.slice_start) } else { 0 }
    }

    /// `weighted_cpuload`: the load the balancer compares.
    pub fn weighted_cpuload(&self) -> u64 {
        self.cfs.runnable_load_avg.max(0) as u64
    }

    /// `idle_cpu`: nothing running and nothing queued.
    pub fn is_idle(&self) -> bool {
        self.curr_task.is_none() && self.nr_running == 0
    }

    /// A task joins this runqueue's list: `cfs_tasks` for the run's class, `upper_tasks` for a class above it.
    pub fn enlist(&mut self, pid: Pid, upper: bool) {
        if upper {
            self.upper_tasks.push_back(pid);
        } else {
            self.cfs_tasks.push_front(pid);
        }
    }

    /// A task leaves this runqueue's list, whichever it is on.
    pub fn delist(&mut self, pid: Pid) {
        if let Some(i) = self.cfs_tasks.iter().position(|&p| p == pid) {
            self.cfs_tasks.remove(i);
        } else if let Some(i) = self.upper_tasks.iter().position(|&p| p == pid) {
            self.upper_tasks.remove(i);
        }
    }

    /// Every queued task of every class (running included): the core's whole-machine readers.
    pub fn queued(&self) -> impl Iterator<Item = Pid> + '_ {
        self.upper_tasks.iter().chain(self.cfs_tasks.iter()).copied()
    }

    /// The picked task moves to the front (most recently run first); one
    /// already there (a task woken onto an idle CPU, picked at once) stays.
    pub fn cfs_tasks_touch(&mut self, pid: Pid) {
        if self.cfs_tasks.front() == Some(&pid) {
            return;
        }
        self.delist(pid);
        self.cfs_tasks.push_front(pid);
    }

    /// Tasks on this CPU, running or waiting (`rq->nr_running`, which counts
    /// tasks, not the root's entities).
    pub fn nr_running(&self) -> u32 {
        self.nr_running
    }
}

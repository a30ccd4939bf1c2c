//! The per-CPU runqueue (`struct rq`): the CFS runqueue plus the CPU-level
//! bookkeeping the simulator needs (resched flag, burst generation, busy and
//! idle time, the start of the current run slice).

use crate::sched::cfs_rq::CfsRq;
use crate::time::{CpuId, Pid, SimTime};

#[derive(Clone, Debug)]
pub struct Rq {
    pub cpu: CpuId,
    pub online: bool,
    pub cfs: CfsRq,
    /// TIF_NEED_RESCHED of the running task.
    pub need_resched: bool,
    /// Bumped at every pick so stale BurstEnd events can be recognised.
    pub burst_gen: u64,
    /// When the current task (or idle) started on this CPU.
    pub slice_start: SimTime,
    pub busy_ns: u64,
    pub idle_ns: u64,
}

impl Rq {
    pub fn new(cpu: CpuId) -> Rq {
        Rq {
            cpu,
            online: true,
            cfs: CfsRq::new(),
            need_resched: false,
            burst_gen: 0,
            slice_start: SimTime::ZERO,
            busy_ns: 0,
            idle_ns: 0,
        }
    }

    pub fn curr(&self) -> Option<Pid> {
        self.cfs.curr
    }

    /// Busy time up to `now`, the current slice included.
    pub fn busy_ns_at(&self, now: SimTime) -> u64 {
        self.busy_ns + if self.curr().is_some() { now.since(self.slice_start) } else { 0 }
    }

    /// Idle time up to `now`, the current idle stretch included.
    pub fn idle_ns_at(&self, now: SimTime) -> u64 {
        self.idle_ns + if self.curr().is_none() { now.since(self.slice_start) } else { 0 }
    }

    pub fn nr_running(&self) -> u32 {
        self.cfs.nr_running
    }
}

//! Tasks (threads) and the processes (thread groups) they belong to.
//!
//! A task carries its CFS scheduling entity, its position in its program and
//! the statistics the report needs. Tasks live in one `Vec` indexed by pid and
//! are never removed, so a pid is a stable index for the whole run.

use crate::program::ProgramCursor;
use crate::sched::entity::{HasEntity, SchedEntity};
use crate::time::{CpuId, Pid, SimTime};
use crate::topology::cpumask::CpuMask;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(any(test, feature = "gen"), derive(ts_rs::TS), ts(rename_all = "lowercase"))]
pub enum TaskState {
    /// Created by the scenario but not started yet.
    New,
    /// On a CPU right now.
    Running,
    /// On a runqueue, waiting for a CPU.
    Runnable,
    /// Blocked (sleeping); not on any runqueue.
    Sleeping,
    Exited,
}

impl HasEntity for Task {
    fn se(&self) -> &SchedEntity {
        &self.se
    }
    fn se_mut(&mut self) -> &mut SchedEntity {
        &mut self.se
    }
}

impl TaskState {
    pub fn as_str(self) -> &'static str {
        match self {
            TaskState::New => "new",
            TaskState::Running => "running",
            TaskState::Runnable => "runnable",
            TaskState::Sleeping => "sleeping",
            TaskState::Exited => "exited",
        }
    }
}

/// Per-task statistics for the report.
#[derive(Clone, Debug, Default)]
pub struct TaskStats {
    pub wait_ns: u64,
    /// When the task last became runnable without running (None otherwise).
    pub wait_start: Option<SimTime>,
    /// Voluntary context switches: the task blocked or exited.
    pub nvcsw: u64,
    /// Involuntary ones: the task was still runnable (tick or wakeup preemption).
    pub nivcsw: u64,
    pub started_at: Option<SimTime>,
    /// Moves to another CPU (balancing, wakeup placement, hotplug).
    pub migrations: u64,
    /// When the task was last woken (for wakeup latency).
    pub woken_at: Option<SimTime>,
    pub exited_at: Option<SimTime>,
    /// Its longest time on a CPU between two switches (a run slice), ns: kept
    /// here because the trace keeps a bounded number of slices.
    pub longest_run_ns: u64,
    /// Timer steps reached after their period had already ended (the thread
    /// ran late: it went on at once instead of sleeping).
    pub timer_overruns: u64,
}

#[derive(Clone, Debug)]
pub struct Task {
    pub pid: Pid,
    pub tgid: u32,
    pub name: String,
    pub nice: i32,
    /// `p->policy` and `p->rt_priority` (1–99 for FIFO and RR, else 0).
    pub policy: crate::sched::policy::SchedPolicy,
    pub rt_priority: u32,
    /// `p->prio`: the kernel's priority (0–99 real-time, 100–139 nice).
    pub prio: u32,
    /// `p->rt.time_slice`: an RR task's ticks left in its slice.
    pub rt_time_slice: u32,
    /// A SCHED_DEADLINE task's reservation (its server's state is the deadline class's).
    pub dl: Option<crate::sched::policy::DlParams>,
    pub state: TaskState,
    /// The CPU the task runs on, is queued on, or last ran on.
    pub cpu: CpuId,
    pub se: SchedEntity,
    /// The task group (cgroup or autogroup) the task belongs to; 0 = root.
    pub tg: u32,
    /// CPUs the task may run on (`cpus_allowed`).
    pub allowed: CpuMask,
    pub program: ProgramCursor,
    /// The sum_exec_runtime at which the current CPU burst of its program
    /// ends. Kept as an absolute target so every update_curr, wherever it
    /// happens, counts against the burst.
    pub burst_end_exec: u64,
    /// The speed, in percent of a lone hardware thread, at which the rest of
    /// the burst (burst_end_exec − sum_exec_runtime) was reckoned; 0 for a
    /// burst measured in time (spinning), which SMT contention does not
    /// stretch. See `sim/smt_speed.rs`.
    pub burst_rate_pct: u32,
    /// A system call to carry out when the task next runs.
    pub pending: Option<crate::program::Action>,
    /// What the task is blocked on, if it is (besides a timed sleep).
    pub blocked_on: Option<Block>,
    /// Futex-style wakeups received while not waiting (not lost).
    pub wake_tokens: u32,
    /// Extra CPU work owed when the task next runs (cache refill after a
    /// migration, a cross-CPU wakeup), from the cost model.
    pub owed_ns: u64,
    /// The part of `owed_ns` that is a cross-CPU wakeup's IPI: delivered
    /// before the task's own code runs again, so its wakeup latency counts it.
    pub owed_ipi_ns: u64,
    /// The task that forked this one, if any.
    pub parent: Option<Pid>,
    /// A forked child's vruntime relative to the min_vruntime of the runqueue
    /// it was made on (`task_fork_fair`), until its first enqueue.
    pub fork_vruntime: Option<u64>,
    /// Children still alive, and child exits not yet waited for.
    pub live_children: u32,
    pub child_exits: u32,
    /// What the task is spinning for, if it is (its burst is the spin).
    pub spin: Option<Spin>,
    /// Its index among its process's threads (forked ones follow the
    /// scenario's), which flag steps count their peer from.
    pub thread_ix: u32,
    /// A process's first thread creates the others before its own program
    /// (`pthread_create`, one `costs.clone_ns` of its CPU each): how many are
    /// still to come, the index of the next among the process's threads, and
    /// whether the next one's cost is paid.
    pub threads_to_create: u32,
    pub next_thread: u32,
    pub thread_cost_paid: bool,
    /// `wakee_flips`: how often this task, as a waker, switched to waking a
    /// different task (wake_wide reads it); wiped once a second.
    pub wakee_flips: u32,
    pub wakee_flip_decay_ts: SimTime,
    pub last_wakee: Option<Pid>,
    pub stats: TaskStats,
    /// After a wakeup, the work still to run before the task's own code (the
    /// wakeup's IPI and the switch): its wakeup latency is recorded when that
    /// work is done, at whatever speeds the CPU ran it.
    pub prelude: Option<Prelude>,
    /// Its own periodic timers (rt-app's "unique" ones), by index among its
    /// program's, grown as it first uses each (`sim/timer.rs`).
    pub timers: Vec<PeriodTimer>,
}

/// The work a woken task runs before its own code, followed as the CPU's
/// speed changes (SMT contention comes and goes while it runs).
#[derive(Clone, Copy, Debug)]
pub struct Prelude {
    pub woken: SimTime,
    /// Full-speed ns of it still to run, as of `since` / `exec0`.
    pub work: u64,
    pub since: SimTime,
    /// The task's sum_exec_runtime at `since`.
    pub exec0: u64,
}

impl TaskStats {
    /// Wait time up to `now`, the current wait included.
    pub fn wait_ns_at(&self, now: SimTime) -> u64 {
        self.wait_ns + self.wait_start.map_or(0, |since| now.since(since))
    }
}

impl Task {
    pub fn new(pid: Pid, tgid: u32, name: String, nice: i32, program: ProgramCursor, allowed: CpuMask) -> Task {
        Task {
            pid,
            tgid,
            name,
            nice,
            policy: crate::sched::policy::SchedPolicy::Normal,
            rt_priority: 0,
            prio: crate::sched::policy::nice_prio(nice),
            rt_time_slice: 0,
            dl: None,
            state: TaskState::New,
            cpu: CpuId(0),
            se: SchedEntity::for_nice(nice),
            tg: 0,
            allowed,
            program,
            burst_end_exec: 0,
            burst_rate_pct: crate::time::FULL_SPEED_PCT,
            pending: None,
            blocked_on: None,
            wake_tokens: 0,
            parent: None,
            fork_vruntime: None,
            live_children: 0,
            child_exits: 0,
            spin: None,
            thread_ix: 0,
            threads_to_create: 0,
            next_thread: 0,
            thread_cost_paid: false,
            owed_ns: 0,
            prelude: None,
            owed_ipi_ns: 0,
            wakee_flips: 0,
            wakee_flip_decay_ts: SimTime::ZERO,
            last_wakee: None,
            stats: TaskStats::default(),
            timers: Vec::new(),
        }
    }
}

impl Task {
    /// `normal_prio` (core.c 934–945 in 4.1): the prio its policy and
    /// parameters give, without what a PI mutex lends it. (A deadline task
    /// carries its nice prio in this model: `Task::prio` is unsigned.)
    pub fn normal_prio(&self) -> u32 {
        use crate::sched::policy::{nice_prio, rt_prio};
        if self.policy.is_rt() {
            rt_prio(self.rt_priority)
        } else {
            nice_prio(self.nice)
        }
    }

    /// `rt_task(p)` by the class the task is in now: a deadline task, or a
    /// prio in the real-time range, its policy's or one lent by a PI mutex
    /// (`rt_mutex_setprio` moves the task to the real-time class).
    #[inline(always)]
    pub fn above_fair(&self) -> bool {
        self.policy.is_dl() || self.prio < crate::sched::policy::MAX_RT_PRIO
    }

    /// In the real-time class now (`p->sched_class == &rt_sched_class`).
    #[inline(always)]
    pub fn in_rt_class(&self) -> bool {
        !self.policy.is_dl() && self.prio < crate::sched::policy::MAX_RT_PRIO
    }

    /// `__setscheduler_params`: its policy, real-time priority, the prio they
    /// give and the weight (a task already queued is dequeued first:
    /// `sim/setattr.rs`).
    pub fn set_policy(&mut self, policy: crate::sched::policy::SchedPolicy, rt_priority: u32) {
        use crate::sched::policy::{nice_prio, rt_prio};
        let was_idle = self.policy == crate::sched::policy::SchedPolicy::Idle;
        self.policy = policy;
        self.rt_priority = if policy.is_rt() { rt_priority } else { 0 };
        self.prio = if policy.is_rt() { rt_prio(rt_priority) } else { nice_prio(self.nice) };
        if policy == crate::sched::policy::SchedPolicy::Idle {
            // set_load_weight (core.c 787–800 in 4.1): SCHED_IDLE weighs WEIGHT_IDLEPRIO whatever its nice.
            self.se.weight = crate::sched::policy::WEIGHT_IDLEPRIO;
            self.se.inv_weight = crate::sched::policy::WMULT_IDLEPRIO;
        } else if was_idle {
            // A task leaving SCHED_IDLE weighs its nice again.
            let fair = crate::sched::entity::SchedEntity::for_nice(self.nice);
            (self.se.weight, self.se.inv_weight) = (fair.weight, fair.inv_weight);
        }
    }
}

/// A periodic timer (`sim/timer.rs`): when its current period ends (None
/// until first used).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PeriodTimer {
    pub next: Option<SimTime>,
}

/// What a spinning task waits for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Spin {
    /// A barrier to open past this generation (then the spin ends; if the
    /// spin runs out first, the task blocks there).
    Barrier { id: usize, gen: u64 },
    /// A flag to change; the step is tried again when the spin ends.
    Flag(crate::program::FlagStep),
    /// The wall-clock time a busy loop ends (`Op::Busy`): its burst is cut to
    /// end then whenever it runs again (`Core::rate_burst`).
    Until(SimTime),
}

/// What a blocked task waits for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Block {
    Wait,
    Barrier(usize),
    Mutex(usize),
    /// wait() for a child's exit.
    Child,
    /// A flag to change (a flag step with the `block` wait).
    Flag(usize),
    /// A condition variable's signal (`pthread_cond_wait`).
    Cond(usize),
}

/// A process: a named group of threads sharing nice level and program.
#[derive(Clone, Debug)]
pub struct Process {
    pub tgid: u32,
    pub name: String,
    pub threads: Vec<Pid>,
    /// Its synchronisation objects' index in `Core::sync`: its own, or its
    /// address space's, shared with the other processes naming it.
    pub sync: usize,
    /// The task group its threads join when they move to the root cgroup: its
    /// session's autogroup (`autogroup_task_group`), or the root itself.
    pub root_tg: u32,
    pub start_at: SimTime,
    /// Its threads' wakeup latencies (wakeup to running its own code), in
    /// bounded memory.
    pub wakeup_latency: crate::latency::LatencyRecord,
    /// Of those wakeups, how many queued (were not running at once).
    pub queued_wakeups: u64,
}

/// A numbered task's name, `base` `sep` `n` (`make#4100`, `svc0/17`): a
/// fork's and a multi-threaded process's threads'. Written by hand because
/// `format!` went through the formatting machinery at every fork (3.3M
/// instructions for make's 3,840 forks, 1.2 % of its run, under callgrind).
pub fn numbered_name(base: &str, sep: char, n: u32) -> String {
    let mut digits = [0u8; 10];
    let (mut n, mut at) = (n, digits.len());
    loop {
        at -= 1;
        digits[at] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    let mut name = String::with_capacity(base.len() + sep.len_utf8() + digits.len() - at);
    name.push_str(base);
    name.push(sep);
    name.extend(digits[at..].iter().map(|&d| d as char));
    name
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbered_names_spell_what_format_spells() {
        for n in [0, 7, 10, 99, 100, 4_096, 123_456, u32::MAX] {
            assert_eq!(numbered_name("make", '#', n), format!("make#{n}"));
            assert_eq!(numbered_name("svc0", '/', n), format!("svc0/{n}"));
        }
        assert_eq!(numbered_name("", '#', 5), "#5");
    }
}

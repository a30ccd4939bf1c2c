//! The simulator: owns the whole state of a run — the machine state (clock,
//! event queue, runqueues, tasks, trace) and the run's scheduling class —
//! and advances it event by event. A run is a pure function of its
//! `SimConfig` (seed included).
//!
//! ```text
//!   SimConfig ──► Simulator::new ──► step_event / step_tick / run_until ──► views, report
//!                     │                         │
//!                     └── EventQueue<Event> ◄───┘  (Tick, BurstEnd, Wakeup, Spawn)
//!   core.rs, sync.rs, migrate.rs, hotplug.rs ──SchedClass──► fair/ (+ fair/linux41/) | o1/ | ext/
//! ```
//!
//! `Simulator` is `Clone`: a clone is a full snapshot, and restoring is
//! assigning it back. Equivalence tests rely on this.

pub mod accounting;
mod affinity;
mod boot;
pub mod class;
mod condvar;
mod core;
pub mod dispatch;
pub mod dl;
pub mod events;
mod exec;
pub mod ext;
pub mod fair;
pub mod flags;
mod hotplug;
pub mod kernel;
mod migrate;
pub mod misses;
mod move_group;
pub mod notes;
pub mod o1;
mod pi;
mod requeue;
pub mod rq_index;
pub mod rt;
mod runqueue;
pub mod sanity;
mod setattr;
mod smt_speed;
pub mod stop;
pub mod sync;
#[cfg(test)]
pub(crate) mod test_config;
mod tick;
mod timer;
mod wakeup;

pub use runqueue::Rq;

use crate::balance::decision::BalanceDecision;
use crate::config::BugSwitches;
use crate::event_queue::EventQueue;
use crate::machine::Machine;
use crate::program::Program;
use crate::rbtree::Rotation;
use crate::rng::Rng;
use crate::sched::cfs_rq::CfsRq;
use crate::sched::entity::{EntId, SchedEntity};
use crate::sched::group::TaskGroup;
use crate::sched::tunables::CfsTunables;
use crate::task::{Process, Task};
use crate::time::{CpuId, SimTime};
use crate::topology::cpumask::CpuMask;
use crate::topology::table::TopologyTable;
use crate::trace::Trace;
use events::{Event, EventClass};
use std::collections::VecDeque;

/// Rotations remembered for the UI (the most recent ones).
const ROTATION_LOG: usize = 64;
/// Balancing decisions kept for the inspector (the most recent ones).
pub const DECISION_LOG: usize = 4096;
/// At most this many group statistics are kept across those decisions (about
/// 30 MB): on a large flat machine one pass records a thousand groups, and
/// 4,096 such decisions would hold half a gigabyte.
pub const DECISION_GROUPS: usize = 1 << 18;

/// A run: the scheduler core's state, the fair class's state (always there,
/// as the kernel's `rq->cfs` is), and the run's class with its own state.
#[derive(Clone, Debug)]
pub struct Simulator {
    /// The machine and the scheduler core: what every class is handed.
    pub(crate) core: Core,
    /// The fair class's state (task groups, balancer, tunables).
    pub(crate) fair: fair::state::FairState,
    /// The run's classes: the one at the fair class's place (the only way
    /// the core reaches one is `sched()`) with its own box, and the
    /// real-time class's box.
    pub(crate) rooms: dispatch::Rooms,
}

/// The scheduler core's state: the clock, the event queue, the CPUs and
/// their runqueues, the tasks and their programs, the trace, the costs and
/// the PRNG: everything of a run that belongs to no class.
#[derive(Clone, Debug)]
pub struct Core {
    pub(crate) name: String,
    pub(crate) seed: u64,
    pub(crate) duration: SimTime,
    pub(crate) tick_ns: u64,
    pub(crate) now: SimTime,
    pub(crate) queue: EventQueue<Event>,
    pub(crate) rng: Rng,
    pub(crate) tasks: Vec<Task>,
    pub(crate) procs: Vec<Process>,
    pub(crate) programs: Vec<Program>,
    pub(crate) rqs: Vec<Rq>,
    pub(crate) trace: Trace,
    pub(crate) events: u64,
    pub(crate) finished: bool,
    pub(crate) rotations: Vec<(CpuId, Rotation<EntId>)>,
    pub(crate) machine: Machine,
    pub(crate) bugs: BugSwitches,
    /// The topology table domain rebuilds use (`sched_domain_topology`): what
    /// boot left, until a hotplug online on a machine whose packages span
    /// nodes replaces it (the Missing Scheduling Domains bug, `hotplug.rs`).
    pub(crate) topology_table: TopologyTable,
    pub(crate) online: CpuMask,
    pub(crate) cpu_capacity: u64,
    pub(crate) stats: accounting::MachineStats,
    /// Barriers and mutexes of each process, by tgid.
    pub(crate) sync: Vec<sync::ProcSync>,
    /// The CPU whose running task is inside a system call: a resched it
    /// causes waits until the call returns (as on return to user space).
    pub(crate) syscall_cpu: Option<CpuId>,
    pub(crate) costs: crate::config::CostModel,
    /// The kernel generation the run models.
    pub(crate) kernel: kernel::Kernel,
    /// The task being moved between runqueues while queued
    /// (TASK_ON_RQ_MIGRATING): its dequeue and enqueue are a move.
    pub(crate) migrating: Option<crate::time::Pid>,
    /// CONFIG_NO_HZ_IDLE: idle CPUs stop their tick.
    pub(crate) nohz: bool,
    /// CONFIG_PREEMPT_*: under full preemption a newly-idle pass detaches one task.
    pub(crate) preempt: crate::config::PreemptModel,
    pub(crate) sanity_cfg: Option<sanity::SanityConfig>,
    pub(crate) event_budget: u64,
    /// When the run stopped because it used up its event budget.
    pub(crate) budget_stop: Option<SimTime>,
    pub(crate) sanity: sanity::SanityState,
    /// The policy and its options (thread weights, Group Identity, EEVDF slices).
    pub(crate) policy: crate::config::PolicyConfig,
    /// Mutexes inherit priority (`pi.rs`).
    pub(crate) pi_mutexes: bool,
    /// Some thread of the run may be SCHED_IDLE: Linux 6.12's placement and balancer then look for CPUs running
    /// only such tasks (`sched_idle_cpu`); a run without one skips the look.
    pub(crate) idle_policy: bool,
    /// Whole-machine state kept up to date where runqueues change.
    pub(crate) index: rq_index::RqIndex,
    /// Compare the index with a full scan after every event (tests).
    pub(crate) index_check: bool,
    /// What the run did that the scenario did not ask for (`notes`).
    pub(crate) notes: notes::RunNotes,
    /// Every deadline missed (`misses.rs`): the lanes mark them.
    pub(crate) misses: misses::MissLog,
    /// A class asked to hand every task to another class (sched_ext's
    /// fallback): the switch needs both classes' state, so the simulator
    /// carries it out when the class's call returns.
    pub(crate) switch_to: Option<&'static dyn class::SchedClass>,
    /// The run's class holds queued tasks in queues of its own (sched_ext):
    /// a CPU that runs nothing idles whatever its runqueue counts
    /// (`Core::runs_idle`).
    pub(crate) class_holds_queued: bool,
}

impl Simulator {
    pub fn machine_stats(&self) -> &accounting::MachineStats {
        &self.core.stats
    }

    pub fn task_groups(&self) -> &[TaskGroup] {
        &self.fair.tgs
    }

    /// Every CFS runqueue of `cpu`: the root first, then one per task group.
    pub fn cfs_rqs_of(&self, cpu: CpuId) -> Vec<&CfsRq> {
        (0..self.fair.tgs.len() as u32).map(|tg| fair::chain::cfs_rq_of(&self.core, &self.fair, tg, cpu)).collect()
    }

    /// Linux 6.12's EEVDF queues of `cpu` for the runqueue view: its root's,
    /// then each task group's that holds an entity there (none under 4.1).
    pub fn eevdf_queues(&self, cpu: CpuId) -> Vec<fair::linux612::queue_view::EevdfQueue> {
        // TICK_NSEC as the walk reads it (`FairCx::tick_nsec`).
        let tick_nsec = 1_000_000_000 / self.core.hz();
        fair::linux612::queue_view::queues_of(&self.fair.gen612, cpu, tick_nsec)
    }

    /// The task group a group entity stands for.
    pub fn group_of_entity(&self, id: crate::sched::entity::EntId) -> u32 {
        fair::chain::group_of_ent(&self.core, id)
    }

    /// A scheduling entity (task or group) by id.
    pub fn entity(&self, id: crate::sched::entity::EntId) -> &SchedEntity {
        crate::sched::entity::entity(&self.core.tasks[..], &self.fair.gses, id)
    }

    /// The current jiffy count.
    pub fn jiffies(&self) -> u64 {
        self.core.jiffies()
    }

    /// One 4.1 `load_balance` pass of `cpu` at domain `level`, as the
    /// periodic balancer runs it (the benchmarks time it alone).
    pub fn balance_pass(&mut self, cpu: CpuId, level: usize) -> (u32, bool) {
        fair::cx::fair_cx(self).balance_pass(cpu, level)
    }

    /// The most recent balancing decisions, oldest first.
    pub fn decisions(&self) -> &VecDeque<BalanceDecision> {
        &self.fair.lb.decisions
    }

    /// The most recent wakeup and fork placements, oldest first.
    pub fn placements(&self) -> &VecDeque<crate::balance::placement::Placement> {
        &self.fair.lb.placements
    }

    /// The kernel generation the run models.
    pub fn kernel(&self) -> crate::config::Kernel {
        self.core.kernel
    }

    /// How many decision records were ever kept (each pass of 4.1; 6.12's that took part).
    pub fn decisions_kept(&self) -> u64 {
        self.fair.lb.decisions_kept
    }

    pub fn decisions_total(&self) -> u64 {
        self.fair.decisions_total()
    }

    /// The scheduling costs the run charges (context switch, IPI, cache refill, SMT contention).
    pub fn costs(&self) -> &crate::config::CostModel {
        &self.core.costs
    }

    pub fn machine(&self) -> &Machine {
        &self.core.machine
    }

    pub fn online(&self) -> &CpuMask {
        &self.core.online
    }

    /// Processes the next event. Returns false once the run is finished.
    pub fn step_event(&mut self) -> bool {
        self.step().is_some()
    }

    /// Processes the next event and tells whether it was a tick (None once
    /// the run is finished); the UI's rewind timeline steps through this.
    pub fn step_classified(&mut self) -> Option<EventClass> {
        self.step()
    }

    /// As `step_classified`, but only an event due by `limit`: None (and the
    /// run not ended) when the next one that counts is later. The stale events
    /// passed on the way are consumed either way.
    pub fn step_classified_by(&mut self, limit: SimTime) -> Option<EventClass> {
        self.step_by(limit)
    }

    /// Processes events up to and including the next scheduler tick.
    pub fn step_tick(&mut self) -> bool {
        loop {
            match self.step() {
                None => return false,
                Some(EventClass::Tick) => return true,
                Some(EventClass::Other) => {}
            }
        }
    }

    /// Processes every event up to time `t` (capped at the run's duration);
    /// afterwards `now()` is `t`.
    pub fn run_until(&mut self, t: SimTime) {
        let t = t.min(self.core.duration);
        while self.core.queue.peek_time().is_some_and(|next| next <= t) {
            // A stale event due by t may be the last one: stepping on would
            // handle the next live one, after t.
            if self.step_by(t).is_none() {
                break;
            }
        }
        if !self.core.finished {
            self.core.now = self.core.now.max(t);
            if t == self.core.duration {
                self.finish();
            }
        }
    }

    /// Runs to the end.
    pub fn run_to_end(&mut self) {
        while self.step().is_some() {}
    }

    fn step(&mut self) -> Option<EventClass> {
        self.step_by(SimTime(u64::MAX))
    }

    /// The next event that counts, if it is due by `limit` (stale events are
    /// skipped on the way, and do not count).
    fn step_by(&mut self, limit: SimTime) -> Option<EventClass> {
        if self.core.finished {
            return None;
        }
        if self.core.events >= self.core.event_budget {
            self.stop_at_budget();
            return None;
        }
        loop {
            match self.core.queue.peek_time() {
                Some(t) if t <= self.core.duration && t <= limit => {}
                Some(t) if t <= self.core.duration => return None,
                _ => {
                    self.finish();
                    return None;
                }
            }
            let (at, event) = self.core.queue.pop()?;
            self.core.account_interval(at);
            self.core.now = self.core.now.max(at);
            if let Some(class) = self.handle(event) {
                self.core.events += 1;
                self.core.collect_rotations();
                if self.core.index_check() {
                    self.check_index();
                }
                return Some(class);
            }
        }
    }

    /// Forgets remembered rotations; the UI calls this before each step so it
    /// can show what that step did.
    pub fn clear_rotations(&mut self) {
        self.core.rotations.clear();
    }

    pub fn rotations(&self) -> &[(CpuId, Rotation<EntId>)] {
        &self.core.rotations
    }

    /// The time of the next pending event, if any.
    pub fn next_event_time(&self) -> Option<SimTime> {
        self.core.queue.peek_time()
    }

    pub fn name(&self) -> &str {
        &self.core.name
    }
    pub fn seed(&self) -> u64 {
        self.core.seed
    }
    pub fn now(&self) -> SimTime {
        self.core.now
    }
    pub fn duration(&self) -> SimTime {
        self.core.duration
    }
    pub fn tick_ns(&self) -> u64 {
        self.core.tick_ns
    }
    pub fn finished(&self) -> bool {
        self.core.finished
    }
    /// When the run stopped short because it used up its event budget.
    pub fn budget_stop(&self) -> Option<SimTime> {
        self.core.budget_stop
    }
    pub fn events_processed(&self) -> u64 {
        self.core.events
    }
    pub fn tasks(&self) -> &[Task] {
        &self.core.tasks
    }
    pub fn processes(&self) -> &[Process] {
        &self.core.procs
    }
    pub fn rqs(&self) -> &[Rq] {
        &self.core.rqs
    }
    pub fn tunables(&self) -> &CfsTunables {
        &self.fair.tunables
    }
    pub fn trace(&self) -> &Trace {
        &self.core.trace
    }
    /// The deadlines missed so far: deadline servers' and periodic timers'.
    pub fn deadline_misses(&self) -> &misses::MissLog {
        &self.core.misses
    }
}

impl Core {
    /// The current jiffy count.
    pub(crate) fn jiffies(&self) -> u64 {
        self.now.ns() / self.tick_ns
    }

    /// Ticks a second (`HZ`).
    pub(crate) fn hz(&self) -> u64 {
        crate::time::NSEC_PER_SEC / self.tick_ns
    }

    fn collect_rotations(&mut self) {
        // Only trees touched since the last collection can have rotated (none
        // after most ticks).
        if self.index.cpus.is_empty(rq_index::ROT) {
            return;
        }
        let mut dirty = std::mem::take(&mut self.index.scratch);
        self.index.cpus.drain_sorted_into(rq_index::ROT, &mut dirty);
        for &cpu in &dirty {
            self.rqs[cpu.idx()].cfs.tree.drain_rotations_into(&mut self.rotations, |r| (cpu, r));
        }
        self.index.scratch = dirty;
        if self.rotations.len() > ROTATION_LOG {
            let excess = self.rotations.len() - ROTATION_LOG;
            self.rotations.drain(..excess);
        }
    }

    pub(crate) fn push(&mut self, at: SimTime, event: Event) {
        // Every caller schedules at or after `now`; the queue refuses the past.
        if self.queue.push(at, event).is_err() {
            debug_assert!(false, "event scheduled in the past");
        }
    }

    /// Schedules `cpu`'s next tick. Ticks are scheduled one period after
    /// the tick (or the start) that schedules them, so their times never
    /// decrease: they join the queue's sorted run, not its heap.
    pub(crate) fn push_tick(&mut self, at: SimTime, cpu: CpuId) {
        self.rqs[cpu.idx()].tick_pending = true;
        if self.queue.push_in_order(at, Event::Tick(cpu)).is_err() {
            debug_assert!(false, "tick scheduled in the past");
        }
    }
}

//! Scheduling classes: the kernel's `struct sched_class` as a trait. The
//! scheduler core (`sim::core`, `sync`, `migrate`, `hotplug`, …) reaches the
//! run's class only through `SchedClass`; it never asks which class runs.
//!
//! ```text
//!   core: wakeup / tick / __schedule / migrate ──sched()──► Sched { core, class, own state }
//!                                                     ├── fair::class::CFS, ::EEVDF  (FairCx over FairState)
//!                                                     ├── o1::class::O1              (O1Cx over O1State)
//!                                                     └── ext::class::EXT            (over ExtState)
//!   state: CFS runqueues in every Rq; the fair class's state in the slot every run has
//!          (StateSlot::Boot); another class's in its own box (StateSlot::Own)
//! ```
//!
//! A class is a stateless `static` (as the kernel's `fair_sched_class` is):
//! each hook is handed `Sched` (`dispatch.rs`): the core — the per-CPU `Rq`,
//! the tasks, the clock, trace, costs and PRNG — and the class's own state,
//! nothing of another class's; so `Simulator: Clone` stays the snapshot.
//! `class_for` picks the run's class from `policy.kind` once, when the run
//! is built; `Simulator::switch_class` moves every task to another class
//! mid-run (as sched_ext's disable path moves them back to the fair class).
//!
//! Adding a class: one file with a unit struct (or a struct of constants),
//! its `static`, `impl SchedClass`, its state as a `ClassData` set in `init`
//! (`Sched::set_state`); then one arm in `class_for`.

use super::dispatch::Sched;
use super::Simulator;
use crate::balance::placement::PlaceKind;
use crate::config::{Kernel, PolicyKind};
use crate::sched::fair::EnqueueKind;
use crate::task::TaskState;
use crate::time::{CpuId, Pid};
use std::any::Any;
use std::fmt::Debug;

/// Why the class's balancer runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Balance {
    /// The scheduler tick (`trigger_load_balance` / `rebalance_tick`).
    Tick,
    /// The CPU is about to go idle with nothing to pick (`idle_balance`).
    NewlyIdle,
    /// A NOHZ kick reached this CPU: it balances for the idle CPUs.
    NohzKick,
    /// This CPU's stopper runs a push to `target` the balancer asked for.
    Stopper { target: CpuId },
}

/// The kernel's `struct sched_class`, over the simulator's machine state.
/// Every method takes `Sched`: the core and the class's own state, nothing
/// of another class; the class object itself holds nothing that changes.
///
/// What the core relies on (the test class in this file's tests is the
/// smallest class that keeps it):
/// - `enqueue_task` / `dequeue_task` count the task in `Rq::nr_running`
///   and set / clear `task.se.on_rq` (a task put back while still on_rq is
///   Runnable);
/// - `update_curr` charges the running task's `se.sum_exec_runtime` from
///   `se.exec_start` up to now, and `pick_next_task` sets `se.exec_start`
///   (a burst ends when sum_exec_runtime reaches it);
/// - the running task stays the class's until `put_prev_task`, and a task
///   is on one CPU's queue at a time (`migrate_task_rq` precedes a move);
/// - a class may keep a task that blocks queued (6.12's DELAY_DEQUEUE): its
///   `dequeue_task(…, sleeping = true)` then leaves `se.on_rq` set and
///   `nr_running` as it was. The task is asleep (state `Sleeping`: not
///   waiting, not counted by the wasted-core readers) yet stays on its
///   runqueue's `cfs_tasks`, and balancing may move it, until either the
///   class finishes the dequeue (`Core::block_delayed`, as `__block_task`)
///   or the task wakes: then the core skips placement and hands the class
///   `EnqueueKind::Delayed` on the CPU it is queued on (`ttwu_runnable`).
///   A class that never does this never sees a sleeping task with `on_rq`.
pub trait SchedClass: Debug + Send + Sync {
    /// The class's name (the `policy.kind` that selects it).
    fn name(&self) -> &'static str;

    /// Where the class keeps its state: the slot every run has (the state
    /// boot builds, which outlives a switch to another class), or a box of
    /// its own that `init` fills (`Sched::set_state`) and a switch away drops.
    fn state_slot(&self) -> StateSlot {
        StateSlot::Own
    }
    /// The class becomes the run's class: set up its state.
    fn init(&self, _s: &mut Sched<'_>) {}
    /// The class stops being the run's class (every task has left it).
    fn exit(&self, _s: &mut Sched<'_>) {}
    /// A live task (queued or not) leaves this class for another (`switched_from`).
    fn switched_from(&self, _s: &mut Sched<'_>, _pid: Pid) {}
    /// A live task (queued or not) arrives from another class (`switched_to`).
    fn switched_to(&self, _s: &mut Sched<'_>, _pid: Pid) {}

    /// `enqueue_task`: `pid` becomes runnable on `cpu` (new, waking or moved).
    fn enqueue_task(&self, s: &mut Sched<'_>, pid: Pid, cpu: CpuId, kind: EnqueueKind);
    /// `dequeue_task`: `pid` leaves `cpu`'s queue (`sleeping`: it blocks),
    /// or, blocking, stays queued with `se.on_rq` set (see the contract above).
    fn dequeue_task(&self, s: &mut Sched<'_>, pid: Pid, cpu: CpuId, sleeping: bool);
    /// `yield_task`: the running `pid` gives way (sched_yield).
    fn yield_task(&self, s: &mut Sched<'_>, pid: Pid, cpu: CpuId);
    /// `check_preempt_curr`: whether `pid`, just queued on `cpu`, preempts
    /// what runs there.
    fn check_preempt_curr(&self, s: &mut Sched<'_>, cpu: CpuId, pid: Pid, is_fork: bool) -> bool;
    /// `pick_next_task` (the previous task already put back).
    fn pick_next_task(&self, s: &mut Sched<'_>, cpu: CpuId) -> Option<Pid>;
    /// `put_prev_task`: the running `pid` stops running (it may stay queued).
    fn put_prev_task(&self, s: &mut Sched<'_>, pid: Pid, cpu: CpuId);
    /// `update_curr`: charge the running task of `cpu` up to now.
    fn update_curr(&self, s: &mut Sched<'_>, cpu: CpuId);
    /// `task_tick`: the tick for the running `pid`; true = reschedule.
    fn task_tick(&self, s: &mut Sched<'_>, pid: Pid, cpu: CpuId) -> bool;
    /// `select_task_rq`: the CPU a waking or new task goes to; `waker` is the
    /// CPU doing the wakeup or fork.
    fn select_task_rq(&self, s: &mut Sched<'_>, pid: Pid, waker: CpuId, kind: PlaceKind) -> CpuId;
    /// `migrate_task_rq`: `pid` is about to move from `from` to `to`.
    fn migrate_task_rq(&self, _s: &mut Sched<'_>, _pid: Pid, _from: CpuId, _to: CpuId) {}
    /// `task_move_group` (4.1's hook of `sched_move_task`): `pid`, off its
    /// queue, now belongs to another task group than `from_tg`.
    fn task_move_group(&self, _s: &mut Sched<'_>, _pid: Pid, _from_tg: u32) {}
    /// `task_fork`: `child` was just forked on `cpu` (not yet enqueued).
    fn task_fork(&self, _s: &mut Sched<'_>, _child: Pid, _cpu: CpuId) {}
    /// A thread starts (a process's first threads, or a fork's child).
    fn task_new(&self, _s: &mut Sched<'_>, _pid: Pid) {}
    /// `task_woken`: `pid` was just woken onto `cpu` and checked for
    /// preemption (the real-time class pushes one that will wait).
    fn task_woken(&self, _s: &mut Sched<'_>, _pid: Pid, _cpu: CpuId) {}
    /// `task_dead`: a thread exited.
    fn task_dead(&self, _s: &mut Sched<'_>, _pid: Pid) {}
    /// The online CPUs changed (`rq_online` / `rq_offline`).
    fn cpus_changed(&self, _s: &mut Sched<'_>) {}
    /// After `__schedule` on `cpu` switched from `prev` to `next`.
    fn task_switched(&self, _s: &mut Sched<'_>, _cpu: CpuId, _prev: Option<Pid>, _next: Option<Pid>) {}
    /// An IPI this class sent to `cpu` lands (a reschedule it asked for).
    fn kick(&self, _s: &mut Sched<'_>, _cpu: CpuId) {}
    /// A timer this class armed (`Event::ClassTimer`) fires; false if it was
    /// not this class's (armed by a class the run has left: stale).
    fn timer(&self, _s: &mut Sched<'_>) -> bool {
        false
    }

    /// The class's own balancer; true if it pulled work to `cpu`.
    fn balance(&self, s: &mut Sched<'_>, cpu: CpuId, why: Balance) -> bool;
    /// Whether an idle CPU stops its tick (CONFIG_NO_HZ_IDLE), leaving its
    /// balancing to the class's idle load balancer. A class without one
    /// keeps every tick, as kernels before NO_HZ did.
    fn stops_idle_tick(&self, _kernel: crate::sim::kernel::Kernel, _nohz: bool) -> bool {
        false
    }
    /// `cpu` has just entered idle with its tick stopped (a class that
    /// `stops_idle_tick`): its idle balancer's bookkeeping.
    fn tick_stopped(&self, _s: &mut Sched<'_>, _cpu: CpuId) {}

    /// Linux 6.12's fair server (the deadline class's): `cpu`'s fair class had no task and now has one
    /// (`dl_server_start` from `enqueue_task_fair`).
    fn fair_class_woke(&self, _s: &mut Sched<'_>, _cpu: CpuId) {}
    /// Linux 6.12's fair server: the fair task running on `cpu` may have been charged more time since the server
    /// last looked (`dl_server_update` from `update_curr`).
    fn fair_ran(&self, _s: &mut Sched<'_>, _cpu: CpuId) {}
}

/// Where a class keeps its state (`SchedClass::state_slot`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StateSlot {
    /// The state boot builds for every run (task groups, balancer, tunables).
    Boot,
    /// A box of the class's own.
    Own,
}

/// The class that runs a policy: the fair class with its strategy, or O(1).
pub fn class_for(kind: PolicyKind, kernel: Kernel) -> &'static dyn SchedClass {
    match kind {
        // 6.12 has one fair class (validation refuses 4.1's weight patches on 6.12).
        PolicyKind::Cfs | PolicyKind::Eevdf | PolicyKind::Pfs | PolicyKind::DwCfs if kernel == Kernel::Linux612 => {
            &super::fair::linux612::hooks::FAIR612
        }
        // PFS and DW-CFS are thread-weight options of CFS (`sim::fair::weight_policy`).
        PolicyKind::Cfs | PolicyKind::Pfs | PolicyKind::DwCfs => &super::fair::class::CFS,
        PolicyKind::Eevdf => &super::fair::class::EEVDF,
        PolicyKind::O1 => &super::o1::class::O1,
        PolicyKind::Ext => &super::ext::class::EXT,
    }
}

/// The real-time class, above the run's class in every run (`rt_sched_class`).
#[inline(always)]
pub fn rt_class() -> &'static dyn SchedClass {
    &super::rt::class::RT
}

/// The deadline class, above the real-time class in every run (`dl_sched_class`).
#[inline(always)]
pub fn dl_class() -> &'static dyn SchedClass {
    &super::dl::class::DL
}

/// A class's private state, kept in the machine state so that a clone of
/// the simulator (a snapshot) clones it too. Any `Clone + Debug + Send`
/// type is one.
pub trait ClassData: Any + Debug + Send {
    fn clone_box(&self) -> Box<dyn ClassData>;
    fn as_any(&self) -> &dyn Any;
    fn as_any_mut(&mut self) -> &mut dyn Any;
}

impl<T: Any + Clone + Debug + Send> ClassData for T {
    fn clone_box(&self) -> Box<dyn ClassData> {
        Box::new(self.clone())
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
    fn as_any_mut(&mut self) -> &mut dyn Any {
        self
    }
}

impl Clone for Box<dyn ClassData> {
    fn clone(&self) -> Self {
        // Through the box to the class's own type (the box is a ClassData too).
        (**self).clone_box()
    }
}

impl Simulator {
    /// The run's scheduling class.
    pub fn class(&self) -> &'static dyn SchedClass {
        self.rooms.class
    }

    /// Moves every task to `class` at this instant, as sched_ext's enable and
    /// disable paths do: each CPU's running task is put back, every queued
    /// task is dequeued from the old class, every live task is told it
    /// switched, and the queued ones are enqueued in the new class on the
    /// same CPU, in the same order; each CPU that was running a task then
    /// reschedules (`switched_to_fair` reschedules a running task), and one
    /// whose new pick is the same task goes on running it.
    pub fn switch_class(&mut self, class: &'static dyn SchedClass) {
        let old = self.rooms.class;
        // By name, not by address: O1 and EXT are zero-sized statics, whose address may be any other
        // static's (a link that put O1 at CFS's address made a switch from CFS to O(1) a no-op).
        if old.name() == class.name() || self.core.finished {
            return;
        }
        let nr_cpus = self.core.rqs.len() as u32;
        let mut queued: Vec<Vec<Pid>> = Vec::with_capacity(self.core.rqs.len());
        for cpu in CpuId::all(nr_cpus) {
            self.sched().update_curr(cpu);
            if let Some(curr) = self.core.rqs[cpu.idx()].curr_task {
                self.sched().put_prev_task(curr, cpu);
            }
            // (The real-time tasks stay queued in their class: `cfs_tasks` lists the run's class's.)
            // Oldest first: re-enqueued in the order they were queued.
            let on_cpu: Vec<Pid> = self.core.rqs[cpu.idx()].cfs_tasks.iter().rev().copied().collect();
            for &pid in &on_cpu {
                self.sched().dequeue_task(pid, cpu, false);
            }
            // A sleeper the old class kept queued (DELAY_DEQUEUE) had its dequeue
            // finished there (core.c 7223–7224): it stays asleep, not queued anew.
            let on_cpu =
                on_cpu.into_iter().filter(|&p| self.core.tasks[p.idx()].state != TaskState::Sleeping).collect();
            queued.push(on_cpu);
        }
        let live: Vec<Pid> = self
            .core
            .tasks
            .iter()
            // A real-time task stays in its class, above whichever runs at the fair class's place.
            .filter(|t| t.stats.started_at.is_some() && t.state != TaskState::Exited && !t.above_fair())
            .map(|t| t.pid)
            .collect();
        for &pid in &live {
            self.sched().switched_from(pid);
        }
        self.sched().exit();
        self.rooms.class = class;
        self.rooms.slot = class.state_slot();
        self.rooms.own = None;
        self.sched().init();
        for &pid in &live {
            self.sched().switched_to(pid);
        }
        for (cpu, on_cpu) in CpuId::all(nr_cpus).zip(queued) {
            for pid in on_cpu {
                self.sched().enqueue_task(pid, cpu, EnqueueKind::Migrate);
                self.core.index.touch_task(pid);
            }
            self.core.touch(cpu);
        }
        // A CPU running a task, and one idling beside tasks the old class held
        // (a sched_ext policy that dispatched nothing), picks under the new one.
        for cpu in CpuId::all(nr_cpus) {
            let rq = &self.core.rqs[cpu.idx()];
            if rq.curr_task.is_some() || (rq.online && rq.nr_running() > 0) {
                self.core.rqs[cpu.idx()].need_resched = true;
                self.sched().resched_if_needed(cpu);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    //! The smallest class that keeps the core's contract: round robin with a
    //! one-tick slice over a FIFO per CPU, its queues its own `ClassData`. It
    //! is what a new class looks like, and it runs a mid-run switch both ways.

    use super::*;
    use std::collections::VecDeque;

    #[derive(Debug)]
    struct RoundRobin;
    static RR: RoundRobin = RoundRobin;

    #[derive(Clone, Debug)]
    struct RrState {
        queues: Vec<VecDeque<Pid>>,
    }

    fn queues<'s>(s: &'s mut Sched<'_>) -> &'s mut Vec<VecDeque<Pid>> {
        &mut s.state::<RrState>().expect("RR runs").queues
    }

    impl SchedClass for RoundRobin {
        fn name(&self) -> &'static str {
            "rr"
        }
        fn init(&self, s: &mut Sched<'_>) {
            let queues = vec![VecDeque::new(); s.core.rqs.len()];
            s.set_state(Box::new(RrState { queues }));
        }
        fn enqueue_task(&self, s: &mut Sched<'_>, pid: Pid, cpu: CpuId, _kind: EnqueueKind) {
            queues(s)[cpu.idx()].push_back(pid);
            s.core.rqs[cpu.idx()].nr_running += 1;
            s.core.tasks[pid.idx()].se.on_rq = true;
        }
        fn dequeue_task(&self, s: &mut Sched<'_>, pid: Pid, cpu: CpuId, _sleeping: bool) {
            self.update_curr(s, cpu);
            queues(s)[cpu.idx()].retain(|&p| p != pid);
            s.core.rqs[cpu.idx()].nr_running -= 1;
            s.core.tasks[pid.idx()].se.on_rq = false;
        }
        fn yield_task(&self, _s: &mut Sched<'_>, _pid: Pid, _cpu: CpuId) {}
        fn check_preempt_curr(&self, s: &mut Sched<'_>, cpu: CpuId, _pid: Pid, _is_fork: bool) -> bool {
            s.core.rqs[cpu.idx()].curr_task.is_none()
        }
        fn pick_next_task(&self, s: &mut Sched<'_>, cpu: CpuId) -> Option<Pid> {
            let pid = *queues(s)[cpu.idx()].front()?;
            s.core.tasks[pid.idx()].se.exec_start = s.core.now;
            Some(pid)
        }
        fn put_prev_task(&self, s: &mut Sched<'_>, pid: Pid, cpu: CpuId) {
            self.update_curr(s, cpu);
            let q = &mut queues(s)[cpu.idx()];
            if q.front() == Some(&pid) {
                q.rotate_left(1);
            }
        }
        fn update_curr(&self, s: &mut Sched<'_>, cpu: CpuId) {
            let Some(pid) = s.core.rqs[cpu.idx()].curr_task else { return };
            let now = s.core.now;
            let se = &mut s.core.tasks[pid.idx()].se;
            se.sum_exec_runtime += now.since(se.exec_start);
            se.exec_start = now;
        }
        fn task_tick(&self, s: &mut Sched<'_>, _pid: Pid, cpu: CpuId) -> bool {
            self.update_curr(s, cpu);
            queues(s)[cpu.idx()].len() > 1
        }
        fn select_task_rq(&self, s: &mut Sched<'_>, pid: Pid, waker: CpuId, kind: PlaceKind) -> CpuId {
            let cpu = if kind == PlaceKind::Fork { waker } else { s.core.tasks[pid.idx()].cpu };
            if s.core.online.test(cpu) && s.core.tasks[pid.idx()].allowed.test(cpu) {
                cpu
            } else {
                s.core.select_fallback_rq(pid, cpu)
            }
        }
        fn balance(&self, _s: &mut Sched<'_>, _cpu: CpuId, _why: Balance) -> bool {
            false
        }
    }

    /// Two CPUs and three hogs, CFS at first.
    fn sim() -> Simulator {
        use crate::sim::test_config::{config, hog};
        let cfg = config(
            1,
            2,
            1,
            1000,
            false,
            vec![hog("a", 5_000_000, None), hog("b", 5_000_000, None), hog("c", 5_000_000, None)],
        );
        let mut sim = Simulator::new(&cfg);
        sim.set_index_check(true);
        sim
    }

    #[test]
    fn a_class_in_one_file_takes_over_mid_run_and_gives_back() {
        let mut sim = sim();
        sim.run_until(crate::time::SimTime(30_000_000));
        sim.switch_class(&RR);
        assert_eq!(sim.class().name(), "rr");
        let before: Vec<u64> = sim.core.tasks.iter().map(|t| t.se.sum_exec_runtime).collect();
        sim.run_until(crate::time::SimTime(60_000_000));
        for (t, b) in sim.core.tasks.iter().zip(&before) {
            assert!(t.se.sum_exec_runtime > *b, "{} ran under the round robin", t.name);
        }
        let queued: usize = sim.class_state::<RrState>().expect("RR state").queues.iter().map(|q| q.len()).sum();
        assert_eq!(queued, 3, "the three hogs are queued (the running ones included)");
        sim.switch_class(class_for(PolicyKind::Cfs, Kernel::Linux41));
        assert!(sim.class_state::<RrState>().is_none(), "its state goes with it");
        sim.run_to_end();
        assert!(sim.core.tasks.iter().all(|t| t.se.sum_exec_runtime > 30_000_000));
    }
}

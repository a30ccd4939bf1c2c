//! Scheduling classes: the kernel's `struct sched_class` as a trait. The
//! scheduler core (`sim::core`, `sync`, `migrate`, `hotplug`, …) reaches the
//! run's class only through `SchedClass`; it never asks which class runs.
//!
//! ```text
//!   core: wakeup / tick / __schedule / migrate ──► sim.class(): &'static dyn SchedClass
//!                                                     ├── fair::class::CFS, ::EEVDF  (FairClass { strategy })
//!                                                     └── o1::class::O1            (O1Class)
//!   state: CFS runqueues in every Rq (always there); a class's private state in `Simulator::class_data`
//! ```
//!
//! A class is a stateless `static` (as the kernel's `fair_sched_class` is):
//! what it keeps lives in the machine state it is handed — the per-CPU `Rq`,
//! the tasks, or its own `ClassData` box — so `Simulator: Clone` stays the
//! snapshot. `class_for` picks the run's class from `policy.kind` once, when
//! the run is built; `Simulator::switch_class` moves every task to another
//! class mid-run (as sched_ext's disable path moves them back to the fair
//! class).
//!
//! Adding a class: one file with a unit struct (or a struct of constants),
//! its `static`, `impl SchedClass`, its state as a `ClassData` created in
//! `init`; then one arm in `class_for`.

use super::Simulator;
use crate::balance::placement::PlaceKind;
use crate::config::PolicyKind;
use crate::sched::fair::EnqueueKind;
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
/// Every method takes the simulator: the class object itself holds nothing
/// that changes.
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
///   is on one CPU's queue at a time (`migrate_task_rq` precedes a move).
pub trait SchedClass: Debug + Send + Sync {
    /// The class's name (the `policy.kind` that selects it).
    fn name(&self) -> &'static str;

    /// The class becomes the run's class: set up its state.
    fn init(&self, _sim: &mut Simulator) {}
    /// The class stops being the run's class (every task has left it).
    fn exit(&self, _sim: &mut Simulator) {}
    /// A live task (queued or not) leaves this class for another (`switched_from`).
    fn switched_from(&self, _sim: &mut Simulator, _pid: Pid) {}
    /// A live task (queued or not) arrives from another class (`switched_to`).
    fn switched_to(&self, _sim: &mut Simulator, _pid: Pid) {}

    /// `enqueue_task`: `pid` becomes runnable on `cpu` (new, waking or moved).
    fn enqueue_task(&self, sim: &mut Simulator, pid: Pid, cpu: CpuId, kind: EnqueueKind);
    /// `dequeue_task`: `pid` leaves `cpu`'s queue (`sleeping`: it blocks).
    fn dequeue_task(&self, sim: &mut Simulator, pid: Pid, cpu: CpuId, sleeping: bool);
    /// `yield_task`: the running `pid` gives way (sched_yield).
    fn yield_task(&self, sim: &mut Simulator, pid: Pid, cpu: CpuId);
    /// `check_preempt_curr`: whether `pid`, just queued on `cpu`, preempts
    /// what runs there.
    fn check_preempt_curr(&self, sim: &mut Simulator, cpu: CpuId, pid: Pid, is_fork: bool) -> bool;
    /// `pick_next_task` (the previous task already put back).
    fn pick_next_task(&self, sim: &mut Simulator, cpu: CpuId) -> Option<Pid>;
    /// `put_prev_task`: the running `pid` stops running (it may stay queued).
    fn put_prev_task(&self, sim: &mut Simulator, pid: Pid, cpu: CpuId);
    /// `update_curr`: charge the running task of `cpu` up to now.
    fn update_curr(&self, sim: &mut Simulator, cpu: CpuId);
    /// `task_tick`: the tick for the running `pid`; true = reschedule.
    fn task_tick(&self, sim: &mut Simulator, pid: Pid, cpu: CpuId) -> bool;
    /// `select_task_rq`: the CPU a waking or new task goes to; `waker` is the
    /// CPU doing the wakeup or fork.
    fn select_task_rq(&self, sim: &mut Simulator, pid: Pid, waker: CpuId, kind: PlaceKind) -> CpuId;
    /// `migrate_task_rq`: `pid` is about to move from `from` to `to`.
    fn migrate_task_rq(&self, _sim: &mut Simulator, _pid: Pid, _from: CpuId, _to: CpuId) {}
    /// `task_fork`: `child` was just forked on `cpu` (not yet enqueued).
    fn task_fork(&self, _sim: &mut Simulator, _child: Pid, _cpu: CpuId) {}
    /// A thread starts (a process's first threads, or a fork's child).
    fn task_new(&self, _sim: &mut Simulator, _pid: Pid) {}
    /// `task_dead`: a thread exited.
    fn task_dead(&self, _sim: &mut Simulator, _pid: Pid) {}
    /// The online CPUs changed (`rq_online` / `rq_offline`).
    fn cpus_changed(&self, _sim: &mut Simulator) {}
    /// After `__schedule` on `cpu` switched from `prev` to `next`.
    fn task_switched(&self, _sim: &mut Simulator, _cpu: CpuId, _prev: Option<Pid>, _next: Option<Pid>) {}
    /// An IPI this class sent to `cpu` lands (a reschedule it asked for).
    fn kick(&self, _sim: &mut Simulator, _cpu: CpuId) {}

    /// The class's own balancer; true if it pulled work to `cpu`.
    fn balance(&self, sim: &mut Simulator, cpu: CpuId, why: Balance) -> bool;
    /// Whether an idle CPU stops its tick (CONFIG_NO_HZ_IDLE), leaving its
    /// balancing to the class's idle load balancer. A class without one
    /// keeps every tick, as kernels before NO_HZ did.
    fn stops_idle_tick(&self, _nohz: bool) -> bool {
        false
    }
    /// `cpu` has just entered idle with its tick stopped (a class that
    /// `stops_idle_tick`): its idle balancer's bookkeeping.
    fn tick_stopped(&self, _sim: &mut Simulator, _cpu: CpuId) {}
}

/// The class that runs a policy: the fair class with its strategy, or O(1).
pub fn class_for(kind: PolicyKind) -> &'static dyn SchedClass {
    match kind {
        // PFS and DW-CFS are thread-weight options of CFS (`sim::fair::weight_policy`).
        PolicyKind::Cfs | PolicyKind::Pfs | PolicyKind::DwCfs => &super::fair::class::CFS,
        PolicyKind::Eevdf => &super::fair::class::EEVDF,
        PolicyKind::O1 => &super::o1::class::O1,
        PolicyKind::Ext => &super::ext::class::EXT,
    }
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
        self.class
    }

    /// The running class's private state, if it is a `T`.
    pub fn class_data<T: Any>(&self) -> Option<&T> {
        self.class_data.as_deref().and_then(|d| d.as_any().downcast_ref::<T>())
    }

    /// The running class's private state, if it is a `T`.
    pub(crate) fn class_data_mut<T: Any>(&mut self) -> Option<&mut T> {
        self.class_data.as_deref_mut().and_then(|d| d.as_any_mut().downcast_mut::<T>())
    }

    /// Moves every task to `class` at this instant, as sched_ext's enable and
    /// disable paths do: each CPU's running task is put back, every queued
    /// task is dequeued from the old class, every live task is told it
    /// switched, and the queued ones are enqueued in the new class on the
    /// same CPU, in the same order; each CPU that was running a task then
    /// reschedules (`switched_to_fair` reschedules a running task), and one
    /// whose new pick is the same task goes on running it.
    pub fn switch_class(&mut self, class: &'static dyn SchedClass) {
        let old = self.class;
        if std::ptr::addr_eq(old as *const dyn SchedClass, class as *const dyn SchedClass) || self.core.finished {
            return;
        }
        let nr_cpus = self.core.rqs.len() as u32;
        let mut queued: Vec<Vec<Pid>> = Vec::with_capacity(self.core.rqs.len());
        for cpu in CpuId::all(nr_cpus) {
            old.update_curr(self, cpu);
            if let Some(curr) = self.core.rqs[cpu.idx()].curr_task {
                old.put_prev_task(self, curr, cpu);
            }
            // Oldest first: re-enqueued in the order they were queued.
            let on_cpu: Vec<Pid> = self.core.rqs[cpu.idx()].cfs_tasks.iter().rev().copied().collect();
            for &pid in &on_cpu {
                old.dequeue_task(self, pid, cpu, false);
            }
            queued.push(on_cpu);
        }
        let live: Vec<Pid> = self
            .core
            .tasks
            .iter()
            .filter(|t| t.stats.started_at.is_some() && t.state != crate::task::TaskState::Exited)
            .map(|t| t.pid)
            .collect();
        for &pid in &live {
            old.switched_from(self, pid);
        }
        old.exit(self);
        self.class = class;
        self.class_data = None;
        class.init(self);
        for &pid in &live {
            class.switched_to(self, pid);
        }
        for (cpu, on_cpu) in CpuId::all(nr_cpus).zip(queued) {
            for pid in on_cpu {
                class.enqueue_task(self, pid, cpu, EnqueueKind::Migrate);
                self.core.index.touch_task(pid);
            }
            self.core.touch(cpu);
        }
        for cpu in CpuId::all(nr_cpus) {
            if self.core.rqs[cpu.idx()].curr_task.is_some() {
                self.core.rqs[cpu.idx()].need_resched = true;
                self.resched_if_needed(cpu);
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

    fn queues(sim: &mut Simulator) -> &mut Vec<VecDeque<Pid>> {
        &mut sim.class_data_mut::<RrState>().expect("RR runs").queues
    }

    impl SchedClass for RoundRobin {
        fn name(&self) -> &'static str {
            "rr"
        }
        fn init(&self, sim: &mut Simulator) {
            let queues = vec![VecDeque::new(); sim.core.rqs.len()];
            sim.class_data = Some(Box::new(RrState { queues }));
        }
        fn enqueue_task(&self, sim: &mut Simulator, pid: Pid, cpu: CpuId, _kind: EnqueueKind) {
            queues(sim)[cpu.idx()].push_back(pid);
            sim.core.rqs[cpu.idx()].nr_running += 1;
            sim.core.tasks[pid.idx()].se.on_rq = true;
        }
        fn dequeue_task(&self, sim: &mut Simulator, pid: Pid, cpu: CpuId, _sleeping: bool) {
            self.update_curr(sim, cpu);
            queues(sim)[cpu.idx()].retain(|&p| p != pid);
            sim.core.rqs[cpu.idx()].nr_running -= 1;
            sim.core.tasks[pid.idx()].se.on_rq = false;
        }
        fn yield_task(&self, _sim: &mut Simulator, _pid: Pid, _cpu: CpuId) {}
        fn check_preempt_curr(&self, sim: &mut Simulator, cpu: CpuId, _pid: Pid, _is_fork: bool) -> bool {
            sim.core.rqs[cpu.idx()].curr_task.is_none()
        }
        fn pick_next_task(&self, sim: &mut Simulator, cpu: CpuId) -> Option<Pid> {
            let pid = *queues(sim)[cpu.idx()].front()?;
            sim.core.tasks[pid.idx()].se.exec_start = sim.core.now;
            Some(pid)
        }
        fn put_prev_task(&self, sim: &mut Simulator, pid: Pid, cpu: CpuId) {
            self.update_curr(sim, cpu);
            let q = &mut queues(sim)[cpu.idx()];
            if q.front() == Some(&pid) {
                q.rotate_left(1);
            }
        }
        fn update_curr(&self, sim: &mut Simulator, cpu: CpuId) {
            let Some(pid) = sim.core.rqs[cpu.idx()].curr_task else { return };
            let now = sim.core.now;
            let se = &mut sim.core.tasks[pid.idx()].se;
            se.sum_exec_runtime += now.since(se.exec_start);
            se.exec_start = now;
        }
        fn task_tick(&self, sim: &mut Simulator, _pid: Pid, cpu: CpuId) -> bool {
            self.update_curr(sim, cpu);
            queues(sim)[cpu.idx()].len() > 1
        }
        fn select_task_rq(&self, sim: &mut Simulator, pid: Pid, waker: CpuId, kind: PlaceKind) -> CpuId {
            let cpu = if kind == PlaceKind::Fork { waker } else { sim.core.tasks[pid.idx()].cpu };
            if sim.core.online.test(cpu) && sim.core.tasks[pid.idx()].allowed.test(cpu) {
                cpu
            } else {
                sim.core.select_fallback_rq(pid, cpu)
            }
        }
        fn balance(&self, _sim: &mut Simulator, _cpu: CpuId, _why: Balance) -> bool {
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
        let queued: usize = sim.class_data::<RrState>().expect("RR state").queues.iter().map(|q| q.len()).sum();
        assert_eq!(queued, 3, "the three hogs are queued (the running ones included)");
        sim.switch_class(class_for(PolicyKind::Cfs));
        assert!(sim.class_data::<RrState>().is_none(), "its state goes with it");
        sim.run_to_end();
        assert!(sim.core.tasks.iter().all(|t| t.se.sum_exec_runtime > 30_000_000));
    }
}

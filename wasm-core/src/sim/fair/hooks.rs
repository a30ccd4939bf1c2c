//! The fair class behind `SchedClass`: each hook takes the fair class's
//! context (`FairCx`) from what the core hands it and runs the class's own
//! function (`class.rs`, `load.rs`, `weight_policy.rs`, `group_identity.rs`)
//! or its kernel generation's (`FairGeneration`: the balancer and placement).

use super::class::FairClass;
use crate::balance::placement::PlaceKind;
use crate::sched::fair::{EnqueueKind, FairStrategy};
use crate::sim::class::{Balance, SchedClass, StateSlot};
use crate::sim::dispatch::Sched;
use crate::sim::fair::cx::FairCx;
use crate::sim::fair::generation::generation;
use crate::sim::kernel::Kernel;
use crate::time::{CpuId, Pid};

impl SchedClass for FairClass {
    fn name(&self) -> &'static str {
        match self.strategy {
            FairStrategy::Cfs => "cfs",
            FairStrategy::Eevdf => "eevdf",
        }
    }

    /// The task groups and the balancer's state outlive a switch to another
    /// class (sched_ext hands every task back to the fair class).
    fn state_slot(&self) -> StateSlot {
        StateSlot::Boot
    }

    fn exit(&self, s: &mut Sched<'_>) {
        let cx = &mut FairCx::of(s);
        generation!(cx, exit());
    }

    /// `switched_from_fair`: the vruntime is kept relative to the queue's
    /// min_vruntime while the task is away.
    fn switched_from(&self, s: &mut Sched<'_>, pid: Pid) {
        let cx = &mut FairCx::of(s);
        let t = &cx.core.tasks[pid.idx()];
        let min = cx.cfs_of(t.tg, t.cpu).min_vruntime;
        let se = &mut cx.core.tasks[pid.idx()].se;
        se.vruntime = se.vruntime.saturating_sub(min);
        generation!(cx, switched_from_load(pid));
    }

    /// `switched_to_fair`: made absolute again on the queue it comes back to.
    fn switched_to(&self, s: &mut Sched<'_>, pid: Pid) {
        let cx = &mut FairCx::of(s);
        let t = &cx.core.tasks[pid.idx()];
        let min = cx.cfs_of(t.tg, t.cpu).min_vruntime;
        cx.core.tasks[pid.idx()].se.vruntime += min;
    }

    fn enqueue_task(&self, s: &mut Sched<'_>, pid: Pid, cpu: CpuId, kind: EnqueueKind) {
        let cx = &mut FairCx::of(s);
        cx.fair_enqueue(self.strategy, pid, cpu, kind);
    }

    fn dequeue_task(&self, s: &mut Sched<'_>, pid: Pid, cpu: CpuId, sleeping: bool) {
        let cx = &mut FairCx::of(s);
        cx.fair_dequeue(self.strategy, pid, cpu, sleeping);
    }

    fn yield_task(&self, s: &mut Sched<'_>, pid: Pid, cpu: CpuId) {
        let cx = &mut FairCx::of(s);
        cx.fair_yield(self.strategy, pid, cpu);
    }

    fn check_preempt_curr(&self, s: &mut Sched<'_>, cpu: CpuId, pid: Pid, is_fork: bool) -> bool {
        let cx = &mut FairCx::of(s);
        cx.check_preempt_wakeup(self.strategy, cpu, pid, is_fork)
    }

    fn pick_next_task(&self, s: &mut Sched<'_>, cpu: CpuId) -> Option<Pid> {
        let cx = &mut FairCx::of(s);
        cx.fair_pick_next(self.strategy, cpu)
    }

    fn put_prev_task(&self, s: &mut Sched<'_>, pid: Pid, cpu: CpuId) {
        let cx = &mut FairCx::of(s);
        cx.fair_put_prev(self.strategy, pid, cpu);
    }

    fn update_curr(&self, s: &mut Sched<'_>, cpu: CpuId) {
        let cx = &mut FairCx::of(s);
        cx.fair_update_curr(self.strategy, cpu);
    }

    fn task_tick(&self, s: &mut Sched<'_>, pid: Pid, cpu: CpuId) -> bool {
        let cx = &mut FairCx::of(s);
        cx.fair_task_tick(self.strategy, pid, cpu)
    }

    fn select_task_rq(&self, s: &mut Sched<'_>, pid: Pid, waker: CpuId, kind: PlaceKind) -> CpuId {
        let cx = &mut FairCx::of(s);
        generation!(cx, select_task_rq(pid, waker, kind))
    }

    fn migrate_task_rq(&self, s: &mut Sched<'_>, pid: Pid, from: CpuId, to: CpuId) {
        let cx = &mut FairCx::of(s);
        cx.renormalise_vruntime(pid, from, to);
        if from != to {
            generation!(cx, migrate_load(pid, from));
        }
    }

    /// `task_move_group_fair` (fair.c 7997–8040) for a task that was queued:
    /// the dequeue left its vruntime relative to the old group's runqueue's
    /// min_vruntime and the enqueue makes it absolute on the new one's (the
    /// model's dequeue and enqueue keep it absolute, so it is carried here).
    fn task_move_group(&self, s: &mut Sched<'_>, pid: Pid, from_tg: u32) {
        let cx = &mut FairCx::of(s);
        let t = &cx.core.tasks[pid.idx()];
        let (tg, cpu) = (t.tg, t.cpu);
        let old_min = cx.cfs_of(from_tg, cpu).min_vruntime;
        let new_min = cx.cfs_of(tg, cpu).min_vruntime;
        let se = &mut cx.core.tasks[pid.idx()].se;
        se.vruntime = (se.vruntime + new_min).saturating_sub(old_min);
    }

    fn task_fork(&self, s: &mut Sched<'_>, child: Pid, cpu: CpuId) {
        let cx = &mut FairCx::of(s);
        cx.task_fork_fair(self.strategy, child, cpu);
    }

    /// A new thread changes its process's thread count (PFS, DW-CFS).
    fn task_new(&self, s: &mut Sched<'_>, pid: Pid) {
        let cx = &mut FairCx::of(s);
        cx.refresh_thread_weights(self.strategy, cx.core.tasks[pid.idx()].tgid);
    }

    fn task_dead(&self, s: &mut Sched<'_>, pid: Pid) {
        let cx = &mut FairCx::of(s);
        cx.refresh_thread_weights(self.strategy, cx.core.tasks[pid.idx()].tgid);
    }

    /// DW-CFS weights follow the online CPU count.
    fn cpus_changed(&self, s: &mut Sched<'_>) {
        let cx = &mut FairCx::of(s);
        cx.refresh_all_thread_weights(self.strategy);
    }

    /// Group Identity: an SMT expeller starting or stopping kicks its siblings.
    fn task_switched(&self, s: &mut Sched<'_>, cpu: CpuId, prev: Option<Pid>, next: Option<Pid>) {
        let cx = &mut FairCx::of(s);
        cx.smt_expel_siblings(cpu, prev, next);
    }

    fn kick(&self, s: &mut Sched<'_>, cpu: CpuId) {
        let cx = &mut FairCx::of(s);
        cx.expel_kick(cpu);
    }

    fn stops_idle_tick(&self, kernel: Kernel, nohz: bool) -> bool {
        super::generation::stops_idle_tick(kernel, nohz)
    }

    fn tick_stopped(&self, s: &mut Sched<'_>, cpu: CpuId) {
        let cx = &mut FairCx::of(s);
        generation!(cx, tick_stopped(cpu));
    }

    /// The generation's balancer.
    fn balance(&self, s: &mut Sched<'_>, cpu: CpuId, why: Balance) -> bool {
        let cx = &mut FairCx::of(s);
        generation!(cx, balance(cpu, why))
    }
}

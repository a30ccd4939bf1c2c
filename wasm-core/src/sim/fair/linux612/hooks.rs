//! Linux 6.12's fair class behind `SchedClass`: each hook takes the fair
//! class's context and runs the 6.12 room's function (`walk.rs`, `load.rs`,
//! `placement.rs`, `balance.rs`). The task groups are the shared ones
//! (`FairState`); everything 6.12 keeps of its own is `State612`.

use super::delay_dequeue::DequeueFlags;
use crate::balance::placement::PlaceKind;
use crate::sched::fair::EnqueueKind;
use crate::sim::class::{Balance, SchedClass, StateSlot};
use crate::sim::dispatch::Sched;
use crate::sim::fair::cx::FairCx;
use crate::sim::kernel::Kernel;
use crate::time::{CpuId, Pid};

/// The fair class of Linux 6.12: EEVDF over the group hierarchy with its
/// own load tracking, balancer and placement.
#[derive(Debug)]
pub struct Fair612;

/// The run's fair class under `Kernel::Linux612` (policies `cfs` and `eevdf` alike: 6.12 has no other).
pub static FAIR612: Fair612 = Fair612;

impl SchedClass for Fair612 {
    fn name(&self) -> &'static str {
        "eevdf"
    }

    /// The task groups and the balancer's state outlive a switch to another class.
    fn state_slot(&self) -> StateSlot {
        StateSlot::Boot
    }

    /// Across a class switch 6.12 keeps vruntime and lag as they are; only the load leaves.
    fn switched_from(&self, s: &mut Sched<'_>, pid: Pid) {
        FairCx::of(s).switched_from_fair_612(pid);
    }

    fn switched_to(&self, s: &mut Sched<'_>, pid: Pid) {
        FairCx::of(s).switched_to_fair_612(pid);
    }

    fn enqueue_task(&self, s: &mut Sched<'_>, pid: Pid, cpu: CpuId, kind: EnqueueKind) {
        FairCx::of(s).enqueue_task_fair_612(pid, cpu, kind);
    }

    /// A dequeue that is not a move is a DEQUEUE_SLEEP in 6.12: a block
    /// (which DELAY_DEQUEUE may keep queued), or an exit or a class switch
    /// (DEQUEUE_SPECIAL: TASK_DEAD is a special state, include/linux/sched.h
    /// 154–156, never delayed). A delayed task leaving otherwise than by a
    /// move has its delayed dequeue finished (core.c 7223–7224).
    fn dequeue_task(&self, s: &mut Sched<'_>, pid: Pid, cpu: CpuId, sleeping: bool) {
        let cx = &mut FairCx::of(s);
        let moving = cx.core.migrating == Some(pid);
        let ix = cx.fair.gen612.ensure_task(pid);
        let flags = if moving {
            DequeueFlags::default()
        } else if cx.fair.gen612.ents[ix].sched_delayed {
            super::delayed::FINISH
        } else {
            DequeueFlags { sleep: true, special: !sleeping, delayed: false }
        };
        cx.dequeue_task_fair_612(pid, cpu, flags);
    }

    fn yield_task(&self, s: &mut Sched<'_>, pid: Pid, cpu: CpuId) {
        FairCx::of(s).yield_task_fair_612(pid, cpu);
    }

    fn check_preempt_curr(&self, s: &mut Sched<'_>, cpu: CpuId, pid: Pid, _is_fork: bool) -> bool {
        FairCx::of(s).check_preempt_wakeup_fair_612(cpu, pid)
    }

    fn pick_next_task(&self, s: &mut Sched<'_>, cpu: CpuId) -> Option<Pid> {
        FairCx::of(s).pick_next_task_fair_612(cpu)
    }

    fn put_prev_task(&self, s: &mut Sched<'_>, pid: Pid, cpu: CpuId) {
        FairCx::of(s).put_prev_task_fair_612(pid, cpu);
    }

    fn update_curr(&self, s: &mut Sched<'_>, cpu: CpuId) {
        FairCx::of(s).update_curr_fair_612(cpu);
    }

    fn task_tick(&self, s: &mut Sched<'_>, pid: Pid, cpu: CpuId) -> bool {
        FairCx::of(s).task_tick_fair_612(pid, cpu)
    }

    fn select_task_rq(&self, s: &mut Sched<'_>, pid: Pid, waker: CpuId, kind: PlaceKind) -> CpuId {
        FairCx::of(s).select_task_rq_fair_612(pid, waker, kind)
    }

    /// `migrate_task_rq_fair` (a new task's placement never comes here under
    /// 6.12: `Kernel::new_task_placement_migrates`).
    fn migrate_task_rq(&self, s: &mut Sched<'_>, pid: Pid, from: CpuId, to: CpuId) {
        let cx = &mut FairCx::of(s);
        if from == to {
            return;
        }
        let queued = cx.core.migrating == Some(pid);
        cx.migrate_task_rq_fair_612(pid, from, queued);
    }

    /// `task_dead_fair`: the dead task's signals are removed from its last runqueue.
    fn task_dead(&self, s: &mut Sched<'_>, pid: Pid) {
        FairCx::of(s).task_dead_fair_612(pid);
    }

    /// A CPU that has just gone idle may complete an idle core (`update_idle_core`).
    fn task_switched(&self, s: &mut Sched<'_>, cpu: CpuId, _prev: Option<Pid>, next: Option<Pid>) {
        if next.is_none() {
            FairCx::of(s).update_idle_core(cpu);
        }
    }

    /// With NOHZ (the scenario's `nohz`) an idle CPU stops its tick and the
    /// idle load balancer (`nohz.rs`) balances for it; without, it ticks on
    /// and balances for itself.
    fn stops_idle_tick(&self, _kernel: Kernel, nohz: bool) -> bool {
        nohz
    }

    /// `nohz_balance_enter_idle`: the CPU joins the tickless idle CPUs.
    fn tick_stopped(&self, s: &mut Sched<'_>, cpu: CpuId) {
        FairCx::of(s).nohz_balance_enter_idle_612(cpu);
    }

    /// The fair class stops being the run's class: kicks on their way are
    /// dropped with it (the events then find no flags).
    fn exit(&self, s: &mut Sched<'_>) {
        let cx = &mut FairCx::of(s);
        cx.fair.gen612.nohz.flags.iter_mut().for_each(|f| *f = 0);
    }

    fn balance(&self, s: &mut Sched<'_>, cpu: CpuId, why: Balance) -> bool {
        FairCx::of(s).balance_612(cpu, why)
    }
}

//! DELAY_DEQUEUE over the group hierarchy (Debian 6.12.117, fair.c): what
//! the class does around `delay_dequeue.rs`'s one-runqueue model.
//!
//! ```text
//!   task sleeps, not eligible ─► set_delayed: queued still, counted in h_nr_delayed at every level;
//!                                its load stays on the runqueue (on_rq for PELT, not runnable)
//!   a pick meets it ──────────► dequeue_entities(SLEEP|DELAYED): off every level it empties, then
//!                                `Core::block_delayed` (the kernel's __block_task); pick again
//!   it wakes first ───────────► ttwu_runnable ─► enqueue_task_fair(ENQUEUE_DELAYED): requeue in place
//!   moved while delayed ──────► dequeued and enqueued as a move, still delayed where it lands
//!   exits, or leaves the class ► its delayed dequeue is finished first (task_dead_fair, core.c 7223)
//! ```
//!
//! A group entity whose queue emptied may be delayed as well (only a task is
//! counted in `h_nr_delayed`: `set_delayed`, 5496–5515); a task waking below
//! it requeues it on the way up (`enqueue_task_fair`, 7055–7059).

use super::delay_dequeue::{self, DequeueFlags};
use crate::sched::entity::{is_group, task_ent_id};
use crate::sim::fair::chain::Chain;
use crate::sim::fair::cx::FairCx;
use crate::time::{CpuId, Pid};

/// The flags of finishing a delayed dequeue (`DEQUEUE_SLEEP | DEQUEUE_DELAYED`).
pub(super) const FINISH: DequeueFlags = DequeueFlags { sleep: true, special: false, delayed: true };

impl FairCx<'_> {
    /// `set_delayed` (fair.c 5496–5515): the entity stays queued, marked; a
    /// task is counted delayed (and so not runnable) at every level above it.
    pub(super) fn set_delayed_612(&mut self, cpu: CpuId, ix: usize) {
        self.fair.gen612.ents[ix].sched_delayed = true;
        self.count_delayed_612(cpu, ix, false);
    }

    /// `clear_delayed`'s counts (fair.c 5518–5538; the mark itself is cleared
    /// by `delay_dequeue.rs`): a task is no longer counted delayed above it.
    pub(super) fn clear_delayed_counts_612(&mut self, cpu: CpuId, ix: usize) {
        self.count_delayed_612(cpu, ix, true);
    }

    fn count_delayed_612(&mut self, cpu: CpuId, ix: usize, clear: bool) {
        let st = &self.fair.gen612;
        let id = st.ent_id(ix);
        if is_group(id) {
            return;
        }
        for (tg, _) in self.chain(crate::sched::entity::ent_pid(id), cpu) {
            let st = &mut self.fair.gen612;
            let r = st.rq_ix(tg, cpu);
            if clear {
                st.h_nr_delayed[r] -= 1;
            } else {
                st.h_nr_delayed[r] += 1;
            }
        }
    }

    /// `requeue_delayed_entity` at level `tg` (fair.c 6984–7009): the delayed
    /// entity wakes in place; owed time it gained waiting is dropped (DELAY_ZERO,
    /// placed again at V); its load is brought up to date while still
    /// delayed, then it is runnable again.
    pub(super) fn requeue_delayed_612(&mut self, tg: u32, cpu: CpuId, ix: usize) {
        let (base, tick, features) = (self.base_slice(), self.tick_nsec(), self.fair.gen612.features);
        let st = &mut self.fair.gen612;
        let r = st.rq_ix(tg, cpu);
        debug_assert!(st.ents[ix].sched_delayed && st.ents[ix].on_rq);
        delay_dequeue::requeue_delayed_place(&mut st.rqs[r], &mut st.ents, ix, base, tick, features);
        self.update_load_avg_612(tg, cpu, ix, 0);
        self.fair.gen612.ents[ix].sched_delayed = false;
        self.clear_delayed_counts_612(cpu, ix);
    }

    /// `pick_next_entity` met delayed entity `ix` at level `tg` (fair.c
    /// 5684–5690): its dequeue is finished, up the levels it empties.
    pub(super) fn finish_delayed_dequeue_612(&mut self, tg: u32, cpu: CpuId, ix: usize) {
        let id = self.fair.gen612.ent_id(ix);
        if !is_group(id) {
            let chain = self.chain(crate::sched::entity::ent_pid(id), cpu);
            self.dequeue_entities_612(&chain, cpu, true, FINISH);
            return;
        }
        // The group entity queued at level `tg`, then each group entity above it.
        let mut chain = Chain::default();
        chain.push((tg, id));
        let mut t = tg;
        while t != 0 {
            chain.push((self.parent_tg(t), self.gse_id(t, cpu)));
            t = self.parent_tg(t);
        }
        self.dequeue_entities_612(&chain, cpu, false, FINISH);
    }

    /// A delayed task that exits or leaves the class has its dequeue
    /// finished first (`task_dead_fair`, fair.c 8790–8805; `__sched_setscheduler`
    /// and `rt_mutex_setprio`, core.c 7223–7224). False if it was not delayed.
    pub(crate) fn finish_delayed_task_612(&mut self, pid: Pid) -> bool {
        let ix = self.fair.gen612.ensure_task(pid);
        let ent = &self.fair.gen612.ents[ix];
        if !(ent.sched_delayed && ent.on_rq) {
            return false;
        }
        debug_assert_eq!(self.fair.gen612.ent_ix(task_ent_id(pid)), ix);
        let cpu = self.core.tasks[pid.idx()].cpu;
        let chain = self.chain(pid, cpu);
        self.dequeue_entities_612(&chain, cpu, true, FINISH);
        true
    }
}

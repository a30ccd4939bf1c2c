//! `wake_affine` and `effective_load` (Linux 4.1.15): whether a woken task
//! is pulled to the waker's CPU. The two CPUs' loads are compared as they
//! would be with the task on the waker's CPU: the task's weight
//! (`se.load.weight`) added there and nothing taken from its previous CPU,
//! each seen through the group hierarchy — a task inside a group adds to its
//! CPU's load only what its group entity's weight would gain, once the
//! group's shares are dealt out again (`effective_load`).
//!
//! With WF_SYNC the waker is about to give its CPU up, so its own weight is
//! taken off both sides first, through its group. 4.1 passes it for pipe and
//! socket wakeups and for a child's exit waking its waiting parent
//! (`__wake_up_parent`); the model has only the last (fork and wait).

use crate::balance::stats::{source_load, target_load};
use crate::sched::group::MIN_SHARES;
use crate::sim::fair::cx::FairCx;
use crate::time::{CpuId, Pid};

impl FairCx<'_> {
    /// `effective_load`: the change in `cpu`'s root load if `wl` weight joined
    /// group `tg`'s runqueue there and `wg` the group's total weight. From the
    /// task's group up to the root's child: the group entity's new weight is
    /// the group's shares in the ratio of its runqueue's weight (plus `wl`)
    /// to the group's (plus `wg`), at least MIN_SHARES; the change of that
    /// entity's weight (`se->load.weight`, fair.c 4519, not its PELT
    /// contribution) goes up as the next level's `wl`, with no change of the
    /// upper groups' totals.
    pub(crate) fn effective_load(&self, tg: u32, cpu: CpuId, wl: i64, wg: i64) -> i64 {
        let (mut tg, mut wl, mut wg) = (tg, wl, wg);
        while tg != 0 {
            let gi = self.gidx(tg, cpu);
            let my_q = &self.fair.gcfs[gi];
            let group = &self.fair.tgs[tg as usize];
            // calc_tg_weight: the group's load, this CPU's part by its current weight.
            let tg_weight = group.load_avg - my_q.tg_load_contrib + my_q.load_weight as i64;
            let big_w = wg + tg_weight;
            let w = my_q.load_weight as i64 + wl;
            wl = if big_w > 0 && w < big_w { w * group.shares as i64 / big_w } else { group.shares as i64 };
            wl = wl.max(MIN_SHARES as i64);
            wl -= self.fair.gses[gi].weight as i64;
            wg = 0;
            tg = self.fair.tgs[tg as usize].parent.unwrap_or(0);
        }
        wl
    }

    /// `wake_affine`: pull the wakee to the waker's CPU if, with it there
    /// (and, with `sync`, the waker gone from it), that CPU is not more loaded
    /// than the previous one by more than half the domain's imbalance margin,
    /// capacities weighed.
    pub(super) fn wake_affine(
        &self,
        pid: Pid,
        this_cpu: CpuId,
        prev: CpuId,
        idx: usize,
        imbalance_pct: u32,
        sync: bool,
    ) -> bool {
        // Only the two CPUs compared are read (this runs on every wakeup).
        let (prev_l, this_l) = (self.cpu_load(prev), self.cpu_load(this_cpu));
        let mut load = source_load(&prev_l, idx) as i64;
        let mut this_load = target_load(&this_l, idx) as i64;
        if let Some(curr) = self.core.rqs[this_cpu.idx()].curr().filter(|_| sync) {
            let waker = &self.core.tasks[curr.idx()];
            let (tg, weight) = (waker.tg, waker.se.weight as i64);
            this_load += self.effective_load(tg, this_cpu, -weight, -weight);
            load += self.effective_load(tg, prev, 0, -weight);
        }
        let task = &self.core.tasks[pid.idx()];
        let (tg, weight) = (task.tg, task.se.weight as i64);
        let mut this_eff = 100 * prev_l.capacity as i64;
        let mut prev_eff = (100 + (imbalance_pct as i64 - 100) / 2) * this_l.capacity as i64;
        if this_load > 0 {
            this_eff *= this_load + self.effective_load(tg, this_cpu, weight, weight);
            prev_eff *= load + self.effective_load(tg, prev, 0, weight);
        }
        this_eff <= prev_eff
    }
}

#[cfg(test)]
#[path = "wake_affine_test.rs"]
mod wake_affine_test;

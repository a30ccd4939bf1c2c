//! `task_h_load` and `update_cfs_rq_h_load` (4.1.15): a task's share of its
//! CPU's load through the group hierarchy, which load_balance's
//! `detach_tasks` weighs tasks by; each runqueue's h_load kept for its jiffy.

use crate::sim::fair::cx::FairCx;
use crate::time::{CpuId, Pid};

impl FairCx<'_> {
    /// `task_h_load` after `update_cfs_rq_h_load`: the task's share of its
    /// CPU's load through the hierarchy. A runqueue's `h_load` is computed
    /// top-down once per jiffy: the walk goes up from the task's runqueue to
    /// the first one already computed this jiffy (or the root, whose h_load is
    /// its runnable load), then down again, each level's h_load its parent's
    /// times the group entity's part of the parent's runnable load. Within the
    /// jiffy the kept values stand even though the loads move (a balancing
    /// pass detaching tasks reads them so); the task's own part uses the
    /// current figures.
    pub(crate) fn task_h_load(&mut self, pid: Pid, cpu: CpuId) -> u64 {
        let now = self.core.jiffies();
        let chain = self.chain(pid, cpu);
        let own_tg = chain[0].0;
        if self.cfs_of(own_tg, cpu).last_h_load_update != Some(now) {
            // Up: chain[i] = (level tg, the entity queued on it); the group
            // entity of level chain[i].0 is chain[i + 1].1, queued on chain[i + 1].0.
            let mut top = chain.len() - 1;
            for (i, &(tg, _)) in chain.iter().enumerate().skip(1) {
                if self.cfs_of(tg, cpu).last_h_load_update == Some(now) {
                    top = i;
                    break;
                }
            }
            if self.cfs_of(chain[top].0, cpu).last_h_load_update != Some(now) {
                let root = &mut self.core.rqs[cpu.idx()].cfs;
                root.h_load = root.runnable_load_avg.max(0) as u64;
                root.last_h_load_update = Some(now);
            }
            // Down: from the level found to the task's own runqueue.
            for i in (1..=top).rev() {
                let parent = self.cfs_of(chain[i].0, cpu);
                let gse = chain[i].1;
                let load =
                    parent.h_load * self.ent(gse).avg.load_avg_contrib / (parent.runnable_load_avg.max(0) as u64 + 1);
                let gi = self.gidx(chain[i - 1].0, cpu);
                let child = &mut self.fair.gcfs[gi];
                child.h_load = load;
                child.last_h_load_update = Some(now);
            }
        }
        let own = self.cfs_of(own_tg, cpu);
        self.core.tasks[pid.idx()].se.avg.load_avg_contrib * own.h_load / (own.runnable_load_avg.max(0) as u64 + 1)
    }
}

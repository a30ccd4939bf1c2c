//! Linux 4.1's `update_cfs_shares`: a group's entity on a CPU weighs the
//! group's shares in proportion to the group's load there
//! (`calc_cfs_shares`, `sched::group`), as last passed on by the load
//! tracking (`load.rs`).

use crate::sched::entity::group_ent_id;
use crate::sched::fair::{self, FairStrategy};
use crate::sched::group::calc_cfs_shares;
use crate::sim::fair::cx::{level, FairCx};
use crate::time::CpuId;

impl FairCx<'_> {
    /// `update_cfs_shares` for group `tg` on `cpu`: reweight the group's
    /// entity on its parent by this CPU's part of the group's load
    /// (`calc_cfs_shares`, reading the group's load_avg as last passed on).
    pub(crate) fn update_cfs_shares(&mut self, st: FairStrategy, tg: u32, cpu: CpuId) {
        let gi = self.gidx(tg, cpu);
        let now = self.core.now;
        let group = &self.fair.tgs[tg as usize];
        let my_q = &self.fair.gcfs[gi];
        let shares = calc_cfs_shares(group.shares, group.load_avg, my_q.tg_load_contrib, my_q.load_weight);
        let parent = self.parent_tg(tg);
        let id = group_ent_id(gi);
        let (pcfs, mut ents) = level!(self, parent, cpu);
        if pcfs.curr == Some(id) {
            fair::update_curr(pcfs, &mut ents, now, st);
        }
        fair::reweight_entity(pcfs, ents.se_mut(id), shares);
    }
}

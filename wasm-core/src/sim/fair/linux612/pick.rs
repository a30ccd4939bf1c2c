//! Linux 6.12's pick over the group hierarchy: `pick_task_fair` with
//! `pick_next_entity` and `set_next_entity` at each level, and
//! `put_prev_entity` (kernel/sched/fair.c). Split from `walk.rs`.

use super::eevdf;
use super::load_avg::UPDATE_TG;
use crate::sched::entity::{ent_pid, is_group};
use crate::sim::fair::chain::Chain;
use crate::sim::fair::cx::FairCx;
use crate::time::{CpuId, Pid};

impl FairCx<'_> {
    /// `pick_task_fair` (fair.c 8956–8985), then `set_next_entity` at each
    /// level of the chosen path, from the root down: at each level the next
    /// buddy if it is eligible, else EEVDF's pick.
    ///
    /// A delayed entity EEVDF chooses is not run: its dequeue is finished
    /// (`pick_next_entity`, fair.c 5684–5690) and the pick starts again from
    /// the root (`pick_task_fair`'s `again`), the entities put back still
    /// standing as the kernel's curr where they are still queued.
    pub(crate) fn pick_next_task_fair_612(&mut self, cpu: CpuId) -> Option<Pid> {
        let mut tg = 0;
        // The put-back entities taken on the way down (as runqueue, entity), to stand again after a restart.
        let mut taken = Chain::default();
        // The entities picked on the way down, each with its level: set as curr once the task is known.
        let mut path = Chain::default();
        loop {
            let st = &mut self.fair.gen612;
            let r = st.rq_ix(tg, cpu);
            // The entity put back just before stands as the kernel's curr of this pick.
            let put_back = st.put_back[r].take();
            if let Some(pb) = put_back {
                taken.push((r as u32, st.ent_id(pb)));
            }
            let picked = if st.rqs[r].nr_running == 0 { None } else { next_pick(st, r, put_back) };
            let Some(ix) = picked else {
                self.set_next_path_612(&path, cpu);
                return None;
            };
            if st.ents[ix].sched_delayed {
                self.finish_delayed_dequeue_612(tg, cpu, ix);
                let st = &mut self.fair.gen612;
                for &(r, pb) in taken.iter() {
                    let pb = st.ent_ix(pb);
                    if st.ents[pb].on_rq {
                        st.put_back[r as usize] = Some(pb);
                    }
                }
                (taken, path, tg) = (Chain::default(), Chain::default(), 0);
                continue;
            }
            let id = st.ent_id(ix);
            path.push((tg, id));
            if is_group(id) {
                tg = self.tg_of_gse(id);
            } else {
                self.set_next_path_612(&path, cpu);
                return Some(ent_pid(id));
            }
        }
    }

    /// `set_next_entity` at each level of a picked path, from the root down.
    fn set_next_path_612(&mut self, path: &[(u32, crate::sched::entity::EntId)], cpu: CpuId) {
        for &(tg, id) in path {
            let ix = self.fair.gen612.ent_ix(id);
            self.set_next_entity_612(tg, cpu, ix);
        }
    }

    /// `set_next_entity`: out of the queue, its load brought up to date, its
    /// slice protected (RUN_TO_PARITY), curr from now.
    fn set_next_entity_612(&mut self, tg: u32, cpu: CpuId, ix: usize) {
        self.clear_next_buddy(tg, cpu, ix);
        let r = self.fair.gen612.rq_ix(tg, cpu);
        if self.fair.gen612.ents[ix].on_rq {
            let st = &mut self.fair.gen612;
            eevdf::dequeue_timeline(&mut st.rqs[r], &st.ents, ix);
            self.update_load_avg_612(tg, cpu, ix, UPDATE_TG);
            eevdf::set_protect_slice(&mut self.fair.gen612.ents[ix]);
        }
        let st = &mut self.fair.gen612;
        st.rqs[r].curr = Some(ix);
        let id = st.ent_id(ix);
        let now = self.core.now;
        self.cfs_mut(tg, cpu).curr = Some(id);
        let se = self.shared_ent_mut(id);
        se.exec_start = now;
        se.prev_sum_exec_runtime = se.sum_exec_runtime;
    }

    /// `put_prev_entity` at every level of the running task's chain: charged,
    /// back into its queue if still queued, its load brought up to date.
    pub(crate) fn put_prev_task_fair_612(&mut self, pid: Pid, cpu: CpuId) {
        for (tg, id) in self.chain(pid, cpu) {
            let st = &mut self.fair.gen612;
            let ix = st.ent_ix(id);
            let r = st.rq_ix(tg, cpu);
            if st.rqs[r].curr != Some(ix) {
                continue;
            }
            let on_rq = st.ents[ix].on_rq;
            if on_rq {
                self.update_curr_612(tg, cpu);
                let st = &mut self.fair.gen612;
                eevdf::enqueue_timeline(&mut st.rqs[r], &st.ents, ix);
                st.put_back[r] = Some(ix);
                // The curr stays set during this update, as in the kernel's.
                self.update_load_avg_612(tg, cpu, ix, 0);
            }
            self.fair.gen612.rqs[r].curr = None;
            self.cfs_mut(tg, cpu).curr = None;
        }
    }
}

/// `pick_next_entity` at runqueue `r` (fair.c 5670–5690): the next buddy if
/// it is eligible, else EEVDF's pick, with `put_back` standing as the
/// kernel's curr when the running entity was just put back. The walk's pick
/// and the runqueue view's mark (`queue_view.rs`) both ask here.
pub(super) fn next_pick(st: &super::state::State612, r: usize, put_back: Option<usize>) -> Option<usize> {
    let rq = &st.rqs[r];
    match st.next[r].filter(|&b| eevdf::entity_eligible(rq, &st.ents, b)) {
        Some(b) => Some(b),
        None => pick_with_put_back(rq, &st.ents, put_back, st.features),
    }
}

/// `pick_eevdf` as the kernel runs it with its curr still set: the entity
/// just put back (`put_back`) keeps the CPU while it is eligible and inside
/// its protected slice (RUN_TO_PARITY); otherwise the earliest eligible
/// deadline, which the put-back entity, queued after its equals, wins only
/// with a strictly earlier one, as curr does in the kernel's comparison.
fn pick_with_put_back(
    rq: &eevdf::EevdfRq,
    ents: &[eevdf::Entity],
    put_back: Option<usize>,
    features: eevdf::Features,
) -> Option<usize> {
    if let Some(c) = put_back {
        if rq.nr_running > 1
            && features.run_to_parity
            && eevdf::protect_slice(&ents[c])
            && eevdf::entity_eligible(rq, ents, c)
        {
            return Some(c);
        }
    }
    eevdf::pick_eevdf(rq, ents, features)
}

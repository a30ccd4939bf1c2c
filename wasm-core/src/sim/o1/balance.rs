//! Load balancing under the O(1) scheduler (kernel-model.md 5): load is
//! nr_running × SCHED_LOAD_SCALE, averaged per tick; a CPU compares itself
//! with the busiest one and, past imbalance_pct, pulls tasks — from the
//! busiest CPU's expired array first (likely cache-cold), best priority
//! first — skipping the running task, tasks not allowed here and cache-hot
//! ones (unless balancing kept failing). Each CPU balances every tick while
//! idle, every BUSY_INTERVAL ticks while busy, and when about to go idle.
//!
//! Simplified [our reading]: one balancing domain spanning all online CPUs
//! (2.6's per-domain intervals and cpu_load[] indices collapse into one),
//! and no active balancing through the migration thread.

use super::class::O1Cx;
use crate::time::{CpuId, Pid};
use crate::trace::MigrateCause;

const SCHED_LOAD_SCALE: u64 = 128;
const IMBALANCE_PCT: u64 = 125;
/// Busy CPUs balance every this many ticks [RECALL: about 64 ms in 2.6].
const BUSY_INTERVAL: u64 = 64;
/// sd.cache_hot_time [RECALL: 2.5 ms for an SMP domain].
const CACHE_HOT_NS: u64 = 2_500_000;
const CACHE_NICE_TRIES: u32 = 1;

impl O1Cx<'_> {
    /// `rebalance_tick`: fold nr_running into cpu_load, then balance when due.
    pub(in crate::sim) fn o1_rebalance_tick(&mut self, cpu: CpuId) {
        let nr = self.core.rqs[cpu.idx()].nr_running() as u64;
        let rq = &mut self.o1_state_mut().rqs[cpu.idx()];
        rq.cpu_load = (rq.cpu_load + nr * SCHED_LOAD_SCALE) / 2;
        let idle = self.core.rqs[cpu.idx()].curr_task.is_none();
        let interval = if idle { 1 } else { BUSY_INTERVAL };
        if self.core.online.weight() > 1 && self.core.jiffies().is_multiple_of(interval) {
            self.o1_load_balance(cpu, false);
        }
    }

    /// source_load / target_load: the busier or the lighter of the average and now.
    fn o1_load(&self, cpu: CpuId, source: bool) -> u64 {
        let now = self.core.rqs[cpu.idx()].nr_running() as u64 * SCHED_LOAD_SCALE;
        let avg = self.o1_state().rqs[cpu.idx()].cpu_load;
        if source {
            now.max(avg)
        } else {
            now.min(avg)
        }
    }

    /// `load_balance` / `load_balance_newidle` from `this`; true if it pulled.
    pub(in crate::sim) fn o1_load_balance(&mut self, this: CpuId, newidle: bool) -> bool {
        let this_load = self.o1_load(this, false);
        let busiest = self
            .core
            .rqs
            .iter()
            .filter(|rq| rq.online && rq.cpu != this)
            .map(|rq| (self.o1_load(rq.cpu, true), rq.cpu))
            .max_by_key(|&(load, cpu)| (load, std::cmp::Reverse(cpu)));
        let Some((busiest_load, busiest)) = busiest else { return false };
        if busiest_load * 100 <= this_load * IMBALANCE_PCT || self.core.rqs[busiest.idx()].nr_running() < 2 {
            return false;
        }
        // Half the difference, in tasks; at least one if that evens things out.
        let gap = self.core.rqs[busiest.idx()].nr_running().saturating_sub(self.core.rqs[this.idx()].nr_running());
        let mut imbalance = (busiest_load - this_load) / 2 / SCHED_LOAD_SCALE;
        if imbalance == 0 && gap >= 2 {
            imbalance = 1;
        }
        let failed = self.o1_state().rqs[this.idx()].nr_balance_failed;
        let mut moved = 0;
        for pid in self.o1_pull_candidates(busiest, this, failed > CACHE_NICE_TRIES) {
            if moved >= imbalance {
                break;
            }
            let cause = if newidle { MigrateCause::NewIdle } else { MigrateCause::Balance };
            self.sched().move_queued_task(pid, this, cause);
            moved += 1;
        }
        let rq = &mut self.o1_state_mut().rqs[this.idx()];
        rq.nr_balance_failed = if moved == 0 { rq.nr_balance_failed + 1 } else { 0 };
        moved > 0
    }

    /// Movable tasks of `from`, in `move_tasks` order: expired array then
    /// active, best priority first, list order within a level.
    fn o1_pull_candidates(&self, from: CpuId, to: CpuId, ignore_cache_hot: bool) -> Vec<Pid> {
        let o1 = self.o1_state();
        let rq = &o1.rqs[from.idx()];
        let curr = self.core.rqs[from.idx()].curr_task;
        let now = self.core.now.ns();
        [rq.expired(), rq.active()]
            .into_iter()
            .flat_map(|a| a.queue.iter().flatten().copied())
            .filter(|&p| {
                let hot = o1.tasks.get(p.idx()).is_some_and(|t| now.saturating_sub(t.timestamp_ns) < CACHE_HOT_NS);
                Some(p) != curr && self.core.tasks[p.idx()].allowed.test(to) && (ignore_cache_hot || !hot)
            })
            .collect()
    }
}

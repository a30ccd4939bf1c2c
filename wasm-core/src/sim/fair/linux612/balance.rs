//! Linux 6.12's balancer around `sched_balance_rq` (`load_balance.rs`):
//! the tick's trigger and the walk over the CPU's domains when their
//! intervals are due (`sched_balance_trigger`, `sched_balance_softirq`,
//! `sched_balance_domains`), balancing by a CPU about to go idle
//! (`sched_balance_newidle`, with the NI_RANDOM backport), the blocked load
//! brought up to date first (`sched_balance_update_blocked_averages`), and
//! the stopper's push (`active_load_balance_cpu_stop`). The NOHZ idle
//! balancer, which balances for the idle CPUs whose tick is stopped, is
//! `nohz.rs`: the tick kicks it, and a kicked CPU comes here for each idle one.
//!
//! ```text
//!   tick ─► nohz_balancer_kick; due? ─► update_blocked_averages ─► for each domain due: sched_balance_rq(CPU_IDLE | CPU_NOT_IDLE)
//!   about to idle ─► gate (overloaded, avg_idle) ─► update_blocked_averages ─► newidle_walk ─► sched_balance_rq(NEWLY_IDLE)
//!                    nothing pulled ─► nohz_newidle_balance (the idle CPUs' blocked load)
//!   NOHZ kick ─► _nohz_idle_balance ─► for each idle CPU due: sched_balance_domains(CPU_IDLE)
//!   a pass failing on a task imbalance ─► stopper of the busiest ─► push one task
//! ```

use super::load_avg::{self, update_tg_load_avg, RqLoad};
use super::newidle::{newidle_may_walk, newidle_walk, PassResult, WalkDomain, NI_RANDOM};
use super::pelt::SCHED_CAPACITY_SCALE;
use crate::sim::class::Balance;
use crate::sim::fair::cx::FairCx;
use crate::time::{CpuId, Pid};
use crate::topology::domains::SchedDomain;
use crate::topology::schedstat::IdleType;
use crate::trace::MigrateCause;

/// One runqueue read across the machine, as 4.1's room models a newly-idle
/// pass's cost (about 100 ns a remote cache line [RECALL]).
const LB_CPU_READ_NS: u64 = 100;

impl FairCx<'_> {
    /// The 6.12 balancer; true if it pulled work to `cpu`.
    pub(crate) fn balance_612(&mut self, cpu: CpuId, why: Balance) -> bool {
        match why {
            Balance::Tick => {
                self.sched_balance_trigger(cpu);
                false
            }
            Balance::NewlyIdle => self.sched_balance_newidle(cpu),
            Balance::NohzKick => {
                self.nohz_csd_612(cpu);
                false
            }
            Balance::Stopper { target } => {
                self.active_load_balance_cpu_stop(cpu, target);
                false
            }
        }
    }

    /// `sched_balance_trigger` (fair.c 13046–13059) and the softirq it
    /// raises (`sched_balance_softirq`, 13023–13040): the NOHZ kick is
    /// decided at the tick (`nohz_balancer_kick`), then the softirq balances
    /// the CPU's domains when its next balance is due, counted idle if it is.
    fn sched_balance_trigger(&mut self, cpu: CpuId) {
        let rq = &self.core.rqs[cpu.idx()];
        if !rq.online || rq.domains.is_empty() {
            return;
        }
        let due = self.core.jiffies() >= rq.next_balance;
        self.nohz_balancer_kick_612(cpu);
        if !due {
            return;
        }
        let idle = if self.available_idle_cpu(cpu) { IdleType::Idle } else { IdleType::NotIdle };
        self.update_blocked_averages_612(cpu);
        self.sched_balance_domains(cpu, idle);
        if self.core.rqs[cpu.idx()].need_resched {
            self.sched().schedule(cpu);
        }
    }

    /// `get_sd_balance_interval` in jiffies (a busy CPU's one jiffy shorter,
    /// so that levels do not fall due together).
    fn sd_balance_interval(&self, sd: &SchedDomain, busy: bool) -> u64 {
        let hz = self.core.hz();
        let max = (hz * u64::from(self.core.online.weight()) / 10).max(1);
        let ms = if busy { sd.balance_interval_ms * sd.busy_factor } else { sd.balance_interval_ms };
        let mut jiffies = (ms * hz).div_ceil(1000);
        if busy {
            jiffies = jiffies.saturating_sub(1);
        }
        jiffies.clamp(1, max)
    }

    /// `sched_balance_domains`: each domain whose interval has passed is
    /// balanced, lowest first, until a pass says the domains above are not
    /// this CPU's to balance; the newly-idle costs decay on the way.
    pub(super) fn sched_balance_domains(&mut self, cpu: CpuId, mut idle: IdleType) {
        let jiffies = self.core.jiffies();
        let hz = self.core.hz();
        // sched_balance_domains: a CPU running only SCHED_IDLE tasks balances at the idle interval.
        let mut busy = idle != IdleType::Idle && !self.sched_idle_cpu(cpu);
        let mut next_balance = jiffies + 60 * hz;
        let mut update_next = false;
        let (mut go_on, mut need_decay, mut max_cost) = (true, false, 0);
        for level in 0..self.core.rqs[cpu.idx()].domains.len() {
            need_decay = self.fair.gen612.newidle_stats(cpu, level).update_cost(0, 0, jiffies, hz);
            max_cost += self.fair.gen612.newidle_stats(cpu, level).max_newidle_lb_cost;
            if !go_on {
                if need_decay {
                    continue;
                }
                break;
            }
            let mut interval = self.sd_balance_interval(&self.core.rqs[cpu.idx()].domains[level], busy);
            let last = self.core.rqs[cpu.idx()].domains[level].last_balance.ns() / self.core.tick_ns;
            if jiffies >= last + interval {
                let (moved, cont) = self.sched_balance_rq(cpu, level, idle);
                go_on = cont;
                if moved > 0 {
                    let now_idle = self.available_idle_cpu(cpu);
                    idle = if now_idle { IdleType::Idle } else { IdleType::NotIdle };
                    busy = !now_idle && !self.sched_idle_cpu(cpu);
                }
                self.core.rqs[cpu.idx()].domains[level].last_balance = self.core.now;
                interval = self.sd_balance_interval(&self.core.rqs[cpu.idx()].domains[level], busy);
            }
            let last = self.core.rqs[cpu.idx()].domains[level].last_balance.ns() / self.core.tick_ns;
            if next_balance > last + interval {
                next_balance = last + interval;
                update_next = true;
            }
        }
        if need_decay {
            let floor = self.fair.tunables.migration_cost_ns;
            self.core.rqs[cpu.idx()].max_idle_balance_cost_ns = max_cost.max(floor);
        }
        if update_next {
            self.core.rqs[cpu.idx()].next_balance = next_balance;
            self.core.index.touch(cpu);
        }
    }

    /// `sched_balance_update_blocked_averages`: every runqueue of the CPU
    /// with load left brings its signals to now, children before parents,
    /// passing what changed up to its group entity; fully decayed group
    /// runqueues leave the list. The CPU's blocked load is known gone when no
    /// runqueue walked has load or utilization left (`cfs_rq_has_blocked`,
    /// `update_blocked_load_status`, fair.c 9801–9838), which ends the NOHZ
    /// balancer's updates of it.
    pub(super) fn update_blocked_averages_612(&mut self, cpu: CpuId) {
        let now = self.pelt_clock();
        let jiffies = self.core.jiffies();
        self.fair.gen612.nohz.last_blocked_update[cpu.idx()] = jiffies;
        let mut blocked = false;
        // Children have higher ids than their parents: walked downwards, a group's children are settled
        // before it, and whether one stays listed is known when the group is judged (child_cfs_rq_on_list).
        let mut child_listed = vec![false; self.fair.tgs.len()];
        for tg in (0..self.fair.tgs.len() as u32).rev() {
            let r = self.fair.gen612.rq_ix(tg, cpu);
            if tg != 0 && !self.fair.gen612.on_list[r] {
                continue;
            }
            let delayed = self.fair.gen612.h_nr_delayed[r];
            let cfs = self.cfs_of(tg, cpu);
            let (weight, runnable) = (cfs.load_weight, u64::from(cfs.h_nr_running - delayed));
            let st = &mut self.fair.gen612;
            let rq = RqLoad { weight, runnable, running: st.rqs[r].curr.is_some() };
            if load_avg::update_cfs_rq_load_avg(now, &mut st.rq_avgs[r], rq) && tg != 0 && self.core.online.test(cpu) {
                update_tg_load_avg(&mut st.rq_avgs[r], &mut self.fair.tgs[tg as usize].load_avg, now);
            }
            if tg == 0 {
                blocked |= super::nohz::cfs_rq_has_blocked(&st.rq_avgs[r].avg);
                continue;
            }
            let parent = self.fair.tgs[tg as usize].parent.unwrap_or(0);
            let gix = self.fair.gen612.ent_ix(self.gse_id(tg, cpu));
            let st = &self.fair.gen612;
            if !load_avg::skip_blocked_update(&st.avgs[gix], &st.rq_avgs[r]) {
                self.update_load_avg_612(parent, cpu, gix, load_avg::UPDATE_TG);
            }
            // cfs_rq_is_decayed: nothing queued, nothing left to decay, no listed child, no part in the group's sum.
            let st = &mut self.fair.gen612;
            let avg = &st.rq_avgs[r];
            if weight == 0
                && load_avg::load_avg_is_decayed(&avg.avg)
                && !child_listed[tg as usize]
                && avg.tg_load_avg_contrib == 0
            {
                st.on_list[r] = false;
            } else {
                child_listed[parent as usize] = true;
            }
            blocked |= super::nohz::cfs_rq_has_blocked(&st.rq_avgs[r].avg);
        }
        if !blocked {
            self.fair.gen612.nohz.has_blocked_load[cpu.idx()] = false;
        }
    }

    /// The modelled cost of a newly-idle pass at domain `level`: one runqueue
    /// read per online CPU of the domain (the kernel times it; the model charges no time for it).
    fn newidle_pass_cost_612(&self, cpu: CpuId, level: usize) -> u64 {
        let span = &self.core.rqs[cpu.idx()].domains[level].span;
        u64::from(span.and(&self.core.online).weight()) * LB_CPU_READ_NS
    }

    /// `sched_balance_newidle`: a CPU about to go idle pulls work, unless the
    /// root domain is not overloaded or it expects to idle less than its
    /// lowest domain's dearest pass. True if it has a task to run.
    fn sched_balance_newidle(&mut self, cpu: CpuId) -> bool {
        let c = cpu.idx();
        let (jiffies, hz) = (self.core.jiffies(), self.core.hz());
        let mut next_balance = jiffies + hz;
        self.core.rqs[c].avg_idle_stamp = Some(self.core.now);
        if !self.core.rqs[c].online || self.core.rqs[c].domains.is_empty() {
            return false;
        }
        let avg_idle = self.core.rqs[c].avg_idle_ns;
        let lowest = self.fair.gen612.newidle_stats(cpu, 0).max_newidle_lb_cost;
        let mut pulled = false;
        if !newidle_may_walk(self.fair.gen612.rd_overloaded, avg_idle, lowest) {
            next_balance = next_balance.min(self.next_balance_at(cpu, 0));
        } else {
            self.update_blocked_averages_612(cpu);
            let levels = self.core.rqs[c].domains.len();
            for level in 0..levels {
                next_balance = next_balance.min(self.next_balance_at(cpu, level));
            }
            let flags: Vec<bool> = self.core.rqs[c].domains.iter().map(|sd| sd.flags.balance_newidle).collect();
            let mut stats = std::mem::take(&mut self.fair.gen612.newidle[c]);
            let mut rng = self.fair.gen612.rng.clone();
            let walk = {
                let mut domains: Vec<WalkDomain<'_>> = stats
                    .iter_mut()
                    .zip(&flags)
                    .map(|(stats, &balance_newidle)| WalkDomain { stats, balance_newidle })
                    .collect();
                newidle_walk(
                    &mut domains,
                    avg_idle,
                    jiffies,
                    hz,
                    NI_RANDOM,
                    || (rng.next_u64() % 1024) as u32,
                    |level| {
                        let (moved, go_on) = self.sched_balance_rq(cpu, level, IdleType::NewlyIdle);
                        PassResult { pulled: moved > 0, go_on, cost: self.newidle_pass_cost_612(cpu, level) }
                    },
                )
            };
            self.fair.gen612.newidle[c] = stats;
            self.fair.gen612.rng = rng;
            pulled = walk.pulled;
            let rq = &mut self.core.rqs[c];
            rq.max_idle_balance_cost_ns = rq.max_idle_balance_cost_ns.max(walk.cost);
            pulled |= rq.cfs.h_nr_running > 0;
        }
        if next_balance < self.core.rqs[c].next_balance {
            self.core.rqs[c].next_balance = next_balance;
            self.core.index.touch(cpu);
        }
        if pulled {
            self.core.rqs[c].avg_idle_stamp = None;
        } else {
            self.nohz_newidle_balance_612(cpu);
        }
        pulled
    }

    /// `update_next_balance` with the CPU counted idle: when domain `level` is next due.
    fn next_balance_at(&self, cpu: CpuId, level: usize) -> u64 {
        let sd = &self.core.rqs[cpu.idx()].domains[level];
        sd.last_balance.ns() / self.core.tick_ns + self.sd_balance_interval(sd, false)
    }

    /// `update_idle_cpu_scan` (SIS_UTIL): a periodic pass over the LLC sets
    /// how many CPUs a wakeup may scan for an idle one, fewer the busier the
    /// LLC: llc · (1 − min(1, (util/llc)² · pct² / 10⁴ / 1024)).
    pub(super) fn update_idle_cpu_scan(&mut self, cpu: CpuId, sd: &SchedDomain, idle: IdleType, sum_util: u64) {
        if idle == IdleType::NewlyIdle {
            return;
        }
        // Read from the cache, not the CPU's domains: they are out for the pass that calls this.
        let Some((_, span)) = &self.fair.gen612.llc[cpu.idx()] else { return };
        let llc_weight = u64::from(span.weight());
        if u64::from(sd.span.weight()) != llc_weight || llc_weight == 0 {
            return;
        }
        let x = sum_util / llc_weight;
        let pct = u64::from(sd.imbalance_pct);
        let tmp = (x * x * pct * pct / (10_000 * SCHED_CAPACITY_SCALE)).min(SCHED_CAPACITY_SCALE);
        let y = (SCHED_CAPACITY_SCALE - tmp) * llc_weight / SCHED_CAPACITY_SCALE;
        let llc = self.llc_id(cpu) as usize;
        self.fair.gen612.llc_shared[llc].nr_idle_scan = y as u32;
    }

    /// `active_load_balance_cpu_stop`: the stopper of `cpu` pushes one task
    /// that may go (as an idle pass judges it) to `target`, through the
    /// target's lowest domain that spans both.
    fn active_load_balance_cpu_stop(&mut self, cpu: CpuId, target: CpuId) {
        self.core.rqs[cpu.idx()].active_balance = false;
        if !self.core.online.test(cpu) || !self.core.online.test(target) || self.core.rqs[cpu.idx()].nr_running() == 0 {
            return;
        }
        let Some(level) = self.core.rqs[target.idx()].domains.iter().position(|sd| sd.span.test(cpu)) else {
            return;
        };
        // The stopper has preempted the running task (`run_stopper`): it is queued like any other.
        let sd = self.core.rqs[target.idx()].domains[level].clone();
        let candidate = self.core.rqs[cpu.idx()]
            .cfs_tasks
            .iter()
            .rev()
            .copied()
            .collect::<Vec<Pid>>()
            .into_iter()
            .find(|&p| self.can_push_612(p, cpu, target, &sd));
        let st = &mut self.core.rqs[target.idx()].domains[level].schedstat;
        st.alb_count += 1;
        if candidate.is_some() {
            st.alb_pushed += 1;
        } else {
            st.alb_failed += 1;
        }
        if let Some(pid) = candidate {
            self.sched().move_queued_task(pid, target, MigrateCause::Active);
        }
    }

    /// `can_migrate_task` under LBF_ACTIVE_LB: allowed there and not running.
    fn can_push_612(&self, pid: Pid, src: CpuId, dst: CpuId, _sd: &SchedDomain) -> bool {
        self.core.tasks[pid.idx()].allowed.test(dst) && self.core.rqs[src.idx()].curr_task != Some(pid)
    }

    /// `task_dead_fair` (fair.c 8790–8808): a task that dies delayed has its
    /// dequeue finished; the dead task's signals leave its last runqueue.
    pub(crate) fn task_dead_fair_612(&mut self, pid: Pid) {
        self.finish_delayed_task_612(pid);
        let (tg, cpu) = (self.core.tasks[pid.idx()].tg, self.core.tasks[pid.idx()].cpu);
        let st = &mut self.fair.gen612;
        let ix = st.ensure_task(pid);
        if st.avgs[ix].last_update_time == 0 {
            return;
        }
        let r = st.rq_ix(tg, cpu);
        let weight = st.ents[ix].weight;
        load_avg::remove_entity_load_avg(&mut st.rq_avgs[r], &mut st.avgs[ix], weight);
    }
}

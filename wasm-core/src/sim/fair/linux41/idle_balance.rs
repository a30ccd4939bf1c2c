//! `idle_balance` of Linux 4.1.15: a CPU about to go idle tries to pull work,
//! lowest domain first, unless it is not worth it. It is not when the CPU's
//! idle periods have been short (`avg_idle` below the migration cost), when
//! no runqueue has held two tasks since the root domain was last balanced
//! (`rd->overload`), or, domain by domain, when the passes so far plus this
//! domain's dearest pass would take longer than the CPU is expected to idle.
//!
//! The kernel times each pass with the CPU's clock. The engine charges no time
//! for balancing, so a pass's cost is modelled: reading one runqueue's load
//! and task count is a remote cache line, about 100 ns [RECALL], and a pass
//! reads every online CPU of its domain (`newidle_pass_cost_ns`). The figure
//! only feeds `max_newidle_lb_cost` and `max_idle_balance_cost`; the pass
//! itself takes no simulated time.

use crate::balance::IdleType;
use crate::sim::fair::cx::FairCx;
use crate::time::CpuId;

/// What reading one CPU's runqueue costs a balancing pass, in ns.
pub const LB_CPU_READ_NS: u64 = 100;

impl FairCx<'_> {
    /// The modelled cost of one newly-idle pass of `cpu` at domain `level`:
    /// one runqueue read per online CPU of the domain.
    pub(crate) fn newidle_pass_cost_ns(&self, cpu: CpuId, level: usize) -> u64 {
        let span = &self.core.rqs[cpu.idx()].domains[level].span;
        span.iter().filter(|&c| self.core.online.test(c)).count() as u64 * LB_CPU_READ_NS
    }

    /// `update_next_balance` with the CPU counted idle: the jiffy at which
    /// domain `level` is next due, if earlier than `next`.
    fn next_balance_of(&self, cpu: CpuId, level: usize, next: u64) -> u64 {
        let last = self.core.rqs[cpu.idx()].domains[level].last_balance.ns() / self.core.tick_ns;
        next.min(last + self.balance_interval_jiffies(cpu, level, false))
    }

    /// `idle_balance`: the CPU is about to go idle. Returns true if it has a
    /// task to run (one was pulled).
    pub(crate) fn idle_balance(&mut self, cpu: CpuId) -> bool {
        let c = cpu.idx();
        let mut next_balance = self.core.jiffies() + self.core.hz();
        self.core.rqs[c].avg_idle_stamp = Some(self.core.now);
        let avg_idle = self.core.rqs[c].avg_idle_ns;
        let mut pulled = false;
        if avg_idle < self.fair.tunables.migration_cost_ns || !self.fair.lb.rd_overload {
            // Not worth a pass; the lowest domain still brings the next periodic pass forward.
            if !self.core.rqs[c].domains.is_empty() {
                next_balance = self.next_balance_of(cpu, 0, next_balance);
            }
        } else {
            self.update_blocked_averages(cpu);
            let mut curr_cost = 0;
            for level in 0..self.core.rqs[c].domains.len() {
                let sd = &self.core.rqs[c].domains[level];
                if !sd.flags.load_balance {
                    continue;
                }
                if avg_idle < curr_cost + sd.max_newidle_lb_cost_ns {
                    // The CPU would be needed again before this domain's pass ends.
                    next_balance = self.next_balance_of(cpu, level, next_balance);
                    break;
                }
                if sd.flags.balance_newidle {
                    let (moved, _) = self.load_balance(cpu, level, IdleType::NewlyIdle);
                    pulled = moved > 0;
                    let cost = self.newidle_pass_cost_ns(cpu, level);
                    let sd = &mut self.core.rqs[c].domains[level];
                    sd.max_newidle_lb_cost_ns = sd.max_newidle_lb_cost_ns.max(cost);
                    curr_cost += cost;
                }
                next_balance = self.next_balance_of(cpu, level, next_balance);
                if pulled || self.core.rqs[c].nr_running() > 0 {
                    break;
                }
            }
            let rq = &mut self.core.rqs[c];
            rq.max_idle_balance_cost_ns = rq.max_idle_balance_cost_ns.max(curr_cost);
            pulled |= rq.nr_running() > 0;
        }
        if next_balance < self.core.rqs[c].next_balance {
            self.core.rqs[c].next_balance = next_balance;
            self.core.index.touch(cpu);
        }
        if pulled {
            // Not going idle after all: no idle time for avg_idle to fold.
            self.core.rqs[c].avg_idle_stamp = None;
        }
        pulled
    }
}

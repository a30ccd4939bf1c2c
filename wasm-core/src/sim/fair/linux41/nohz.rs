//! The NOHZ idle balancer (CONFIG_NO_HZ_IDLE, Linux 4.1). An idle CPU stops
//! its tick, so it cannot balance for itself; instead a busy CPU's tick
//! checks `nohz_kick_needed` and kicks the idle load balancer (the first
//! tickless CPU, when it is idle), which runs `rebalance_domains` on behalf of
//! every tickless idle CPU whose balance is due (`nohz_idle_balance`), then
//! its own. A CPU is tickless from entering idle to its first busy tick.
//!
//! ```text
//!   busy CPU tick ─► nohz_kick_needed? ─► kick ilb ─► for each idle CPU due: rebalance_domains(CPU_IDLE)
//! ```

use crate::balance::IdleType;
use crate::sim::events::Event;
use crate::sim::fair::cx::FairCx;
use crate::time::CpuId;

impl FairCx<'_> {
    /// `nohz_balance_enter_idle` and `set_cpu_sd_state_idle`, as the CPU
    /// stops its tick on entering idle: it joins `nohz.idle_cpus_mask` (unless
    /// it has no domain to balance) and stops counting as busy in its
    /// `sd_busy` group.
    pub(crate) fn nohz_balance_enter_idle(&mut self, cpu: CpuId) {
        self.fair.lb.nohz_sd_idle.set(cpu);
        if !self.core.rqs[cpu.idx()].domains.is_empty() {
            self.fair.lb.nohz_idle_cpus.set(cpu);
        }
    }

    /// `nohz_kick_needed` (4.1.15), at a busy CPU's tick. First the busy
    /// tick's own bookkeeping (`set_cpu_sd_state_busy`, `nohz_balance_exit_idle`):
    /// a CPU back from idle counts as busy, and leaves the idle CPUs, only
    /// here. Then: no kick while no CPU is tickless or before
    /// `nohz.next_balance`; a kick if this CPU has more than one task, or if
    /// more than one CPU is busy in its `sd_busy` group. `sd_busy` is the
    /// parent of the highest domain sharing package resources (the LLC), and
    /// its group holding this CPU spans the whole LLC, so two busy CPUs
    /// anywhere in this CPU's LLC ask for a kick (none without a parent).
    pub(crate) fn nohz_kick_needed(&mut self, cpu: CpuId) -> bool {
        self.fair.lb.nohz_sd_idle.clear(cpu);
        self.fair.lb.nohz_idle_cpus.clear(cpu);
        if self.fair.lb.nohz_idle_cpus.is_empty() || self.core.jiffies() < self.fair.lb.nohz_next_balance {
            return false;
        }
        let rq = &self.core.rqs[cpu.idx()];
        if rq.nr_running() >= 2 {
            return true;
        }
        let llc = rq.domains.iter().rposition(|sd| sd.flags.share_pkg_resources);
        if let Some(sd_busy) = llc.map(|l| l + 1).filter(|&b| b < rq.domains.len()) {
            let idle = self.fair.lb.nohz_sd_idle.words();
            let mut busy = 0;
            for (w, &span) in rq.domains[sd_busy].groups[0].span.words().iter().enumerate() {
                busy += (span & !idle.get(w).copied().unwrap_or(0)).count_ones();
                if busy > 1 {
                    return true;
                }
            }
        }
        false
    }

    /// `nohz_balancer_kick`: moves `nohz.next_balance` on by a jiffy, then
    /// kicks the idle load balancer (`find_new_ilb`): the first CPU of
    /// `nohz.idle_cpus_mask`, if it is idle (a CPU back from idle stays in the
    /// mask until its first tick: then no kick).
    pub(crate) fn nohz_kick(&mut self) {
        self.fair.lb.nohz_next_balance += 1;
        let ilb = self.fair.lb.nohz_idle_cpus.first().filter(|c| self.core.rqs[c.idx()].is_idle());
        if let Some(ilb) = ilb {
            if !self.core.rqs[ilb.idx()].nohz_kicked {
                self.core.rqs[ilb.idx()].nohz_kicked = true;
                self.core.push(self.core.now, Event::NohzKick(ilb));
            }
        }
    }

    /// `nohz_idle_balance` run by the kicked CPU, then its own
    /// `rebalance_domains` (`run_rebalance_domains`). Idle, it balances for
    /// every other idle CPU whose balance is due, lowering its own
    /// `next_balance` to the earliest of theirs, and leaves that as
    /// `nohz.next_balance`; a balancer no longer idle does neither.
    pub(crate) fn nohz_idle_balance(&mut self, ilb: CpuId) {
        self.core.rqs[ilb.idx()].nohz_kicked = false;
        let jiffies = self.core.jiffies();
        if self.core.rqs[ilb.idx()].is_idle() {
            // `nohz.idle_cpus_mask` in CPU order, skipping the balancer and any
            // CPU no longer idle (read afresh, as balancing moves tasks).
            let mut next = CpuId(0);
            loop {
                // A pulled task may have made the balancer busy (need_resched): stop then.
                if !self.core.rqs[ilb.idx()].is_idle() {
                    break;
                }
                let Some(cpu) = self.fair.lb.nohz_idle_cpus.next_from(next) else { break };
                next = CpuId(cpu.0 + 1);
                if cpu == ilb || !self.core.rqs[cpu.idx()].is_idle() {
                    continue;
                }
                if jiffies >= self.core.rqs[cpu.idx()].next_balance {
                    self.core.rqs[cpu.idx()].update_idle_cpu_load(jiffies);
                    self.rebalance_domains(cpu, IdleType::Idle);
                }
                let theirs = self.core.rqs[cpu.idx()].next_balance;
                let own = &mut self.core.rqs[ilb.idx()].next_balance;
                *own = (*own).min(theirs);
            }
            self.fair.lb.nohz_next_balance = self.core.rqs[ilb.idx()].next_balance;
        }
        // The softirq runs the balancer's own pass whatever its next_balance (each domain checks its own
        // interval), which also sets next_balance back from its domains.
        if self.core.rqs[ilb.idx()].online {
            let idle = if self.core.rqs[ilb.idx()].is_idle() { IdleType::Idle } else { IdleType::NotIdle };
            self.rebalance_domains(ilb, idle);
        }
    }
}

#[cfg(test)]
#[path = "nohz_test.rs"]
mod nohz_test;

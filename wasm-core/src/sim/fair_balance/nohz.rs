//! The NOHZ idle balancer (CONFIG_NO_HZ_IDLE, Linux 4.1). An idle CPU stops
//! its tick, so it cannot balance for itself; instead a busy CPU's tick
//! checks `nohz_kick_needed` and kicks the idle load balancer (the first
//! idle CPU), which runs `rebalance_domains` on behalf of every idle CPU
//! whose balance is due (`nohz_idle_balance`), then its own.
//!
//! ```text
//!   busy CPU tick ─► nohz_kick_needed? ─► kick ilb ─► for each idle CPU due: rebalance_domains(CPU_IDLE)
//! ```

use crate::balance::IdleType;
use crate::sim::events::Event;
use crate::sim::Simulator;
use crate::time::CpuId;

impl Simulator {
    /// `nohz_kick_needed`: some CPU idles with balancing due, and this CPU
    /// has more than one task, or its package has more than one busy CPU.
    /// Runs on every busy tick: it reads the index (the kernel's
    /// `nohz.next_balance` and `nr_busy_cpus` play that part), not every CPU.
    pub(crate) fn nohz_kick_needed(&mut self, cpu: CpuId) -> bool {
        let jiffies = self.jiffies();
        self.sync_index();
        if self.index.idle_due.first().is_none_or(|&(next_balance, _)| jiffies < next_balance) {
            return false;
        }
        let rq = &self.rqs[cpu as usize];
        if rq.nr_running() >= 2 {
            return true;
        }
        // sd_busy: the highest domain sharing the package (the LLC); more than
        // one busy CPU in this CPU's group there asks for a kick.
        let llc = rq.domains.iter().rposition(|sd| sd.flags.share_pkg_resources);
        if let Some(l) = llc {
            let idle = self.index.idle.words();
            let mut busy = 0;
            for (w, &span) in rq.domains[l].groups[0].span.words().iter().enumerate() {
                busy += (span & !idle.get(w).copied().unwrap_or(0)).count_ones();
                if busy > 1 {
                    return true;
                }
            }
        }
        false
    }

    /// Kicks the idle load balancer: the first idle online CPU.
    pub(crate) fn nohz_kick(&mut self) {
        self.sync_index();
        if let Some(ilb) = self.index.idle.first() {
            if !self.rqs[ilb as usize].nohz_kicked {
                self.rqs[ilb as usize].nohz_kicked = true;
                self.push(self.now, Event::NohzKick(ilb));
            }
        }
    }

    /// `nohz_idle_balance` run by the kicked CPU.
    pub(crate) fn nohz_idle_balance(&mut self, ilb: CpuId) {
        self.rqs[ilb as usize].nohz_kicked = false;
        let jiffies = self.jiffies();
        // The idle CPUs in CPU order, read afresh after each balancing (which
        // may move tasks), as a pass over every CPU would see them.
        let mut next = 0;
        loop {
            // A pulled task may have made the balancer busy: stop then.
            if !self.rqs[ilb as usize].is_idle() {
                break;
            }
            self.sync_index();
            let Some(cpu) = self.index.idle.next_from(next) else { break };
            next = cpu + 1;
            if cpu != ilb && jiffies >= self.rqs[cpu as usize].next_balance {
                self.rebalance_domains(cpu, IdleType::Idle);
            }
        }
        if self.rqs[ilb as usize].online && jiffies >= self.rqs[ilb as usize].next_balance {
            let idle = if self.rqs[ilb as usize].is_idle() { IdleType::Idle } else { IdleType::NotIdle };
            self.rebalance_domains(ilb, idle);
        }
    }
}

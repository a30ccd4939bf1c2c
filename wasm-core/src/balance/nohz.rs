//! The NOHZ idle balancer (CONFIG_NO_HZ_IDLE, Linux 4.1). An idle CPU stops
//! its tick, so it cannot balance for itself; instead a busy CPU's tick
//! checks `nohz_kick_needed` and kicks the idle load balancer (the first
//! idle CPU), which runs `rebalance_domains` on behalf of every idle CPU
//! whose balance is due (`nohz_idle_balance`), then its own.
//!
//! ```text
//!   busy CPU tick ─► nohz_kick_needed? ─► kick ilb ─► for each idle CPU due: rebalance_domains(CPU_IDLE)
//! ```

use super::IdleType;
use crate::sim::events::Event;
use crate::sim::Simulator;
use crate::time::CpuId;

impl Simulator {
    /// `nohz_kick_needed`: some CPU idles with balancing due, and this CPU
    /// has more than one task, or its package has more than one busy CPU.
    pub(crate) fn nohz_kick_needed(&self, cpu: CpuId) -> bool {
        // Runs on every busy tick: no allocation, one pass.
        let jiffies = self.jiffies();
        if !self.rqs.iter().any(|rq| rq.online && rq.is_idle() && jiffies >= rq.next_balance) {
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
            let busy = rq.domains[l].groups[0].span.iter().filter(|&c| !self.rqs[c as usize].is_idle()).count();
            if busy > 1 {
                return true;
            }
        }
        false
    }

    /// Kicks the idle load balancer: the first idle online CPU.
    pub(crate) fn nohz_kick(&mut self) {
        if let Some(ilb) = self.rqs.iter().find(|rq| rq.online && rq.is_idle()).map(|rq| rq.cpu) {
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
        for cpu in 0..self.rqs.len() as CpuId {
            if cpu == ilb {
                continue;
            }
            // A pulled task may have made the balancer busy: stop then.
            if !self.rqs[ilb as usize].is_idle() {
                break;
            }
            let rq = &self.rqs[cpu as usize];
            if rq.online && rq.is_idle() && jiffies >= rq.next_balance {
                self.rebalance_domains(cpu, IdleType::Idle);
            }
        }
        if self.rqs[ilb as usize].online && jiffies >= self.rqs[ilb as usize].next_balance {
            let idle = if self.rqs[ilb as usize].is_idle() { IdleType::Idle } else { IdleType::NotIdle };
            self.rebalance_domains(ilb, idle);
        }
    }
}

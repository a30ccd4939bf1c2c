//! Linux 6.12's NOHZ idle balancer (CONFIG_NO_HZ_COMMON), with the blocked
//! load of tickless idle CPUs kept decaying. An idle CPU stops its tick, so
//! neither balances for itself nor ages its own load signals; a busy CPU's
//! tick decides whether an idle CPU should do both on behalf of every
//! tickless one (`nohz_balancer_kick`, fair.c 12429–12543), and sends it the
//! work as flags: NOHZ_STATS_KICK (bring the idle CPUs' blocked load up to
//! date), NOHZ_BALANCE_KICK (balance each idle CPU whose balance is due),
//! NOHZ_NEXT_KICK (only collate their `next_balance`). A CPU about to idle
//! may also run the stats pass itself (`nohz_newidle_balance` then
//! `nohz_run_idle_balance`, fair.c 12824, 12810).
//!
//! ```text
//!   enter tickless idle ─► nohz_balance_enter_idle: idle_cpus_mask, nr_busy_cpus−1, has_blocked
//!   busy tick ─► nohz_balancer_kick: exit_idle (nr_busy_cpus+1); flags ─► kick_ilb ─► find_new_ilb
//!   NohzKick event (nohz_csd_func) ─► _nohz_idle_balance: for each idle CPU after the ilb, wrapping:
//!        STATS: update_nohz_stats;  BALANCE and due: sched_balance_domains(CPU_IDLE);  next_balance collated
//!   newly idle, nothing pulled ─► nohz_newidle_balance ─► nohz_run_idle_balance: _nohz_idle_balance(STATS)
//! ```
//!
//! The pure decisions are the functions below (tested by hand in
//! `nohz_test.rs`); the machine wiring is `FairCx`'s part at the end. What
//! the model leaves out, having no such machines or knobs: the capacity,
//! asymmetric-packing and misfit reasons to kick (every CPU has the full
//! capacity), housekeeping masks (every CPU is a housekeeper), and the
//! IPI's latency (the kick lands at the instant of the tick, as 4.1's does).

use super::pelt::{SchedAvg, LOAD_AVG_PERIOD};
use crate::sim::events::Event;
use crate::sim::fair::cx::FairCx;
use crate::time::CpuId;
use crate::topology::cpumask::CpuMask;
use crate::topology::schedstat::IdleType;

/// The kick flags (sched.h 3192–3206): balance the idle CPUs.
pub const NOHZ_BALANCE_KICK: u8 = 1 << 0;
/// Update the idle CPUs' blocked load.
pub const NOHZ_STATS_KICK: u8 = 1 << 1;
/// A CPU going idle runs the stats pass itself, with no IPI.
pub const NOHZ_NEWILB_KICK: u8 = 1 << 2;
/// Collate the idle CPUs' `next_balance` into `nohz.next_balance`.
pub const NOHZ_NEXT_KICK: u8 = 1 << 3;
/// The flags an IPI carries.
pub const NOHZ_KICK_MASK: u8 = NOHZ_BALANCE_KICK | NOHZ_STATS_KICK | NOHZ_NEXT_KICK;

/// The idle balancer's state: fair.c's `nohz` (7312–7319) and what each
/// runqueue and LLC keep of it.
#[derive(Clone, Debug, Default)]
pub(crate) struct Nohz {
    /// `nohz.idle_cpus_mask`: the CPUs that stopped their tick and have not
    /// had a busy tick since (`rq->nohz_tick_stopped` is membership).
    pub(crate) idle_cpus: CpuMask,
    /// `nohz.has_blocked`: some tickless CPU may have load left to decay.
    pub(crate) has_blocked: bool,
    /// `nohz.needs_update`: a CPU went tickless since `next_balance` was collated.
    pub(crate) needs_update: bool,
    /// `nohz.next_balance` and `nohz.next_blocked`, in jiffies.
    pub(crate) next_balance: u64,
    pub(crate) next_blocked: u64,
    /// Per CPU: `nohz_flags(cpu)`, the kick work pending there.
    pub(crate) flags: Vec<u8>,
    /// Per CPU: `rq->has_blocked_load`.
    pub(crate) has_blocked_load: Vec<bool>,
    /// Per CPU: `rq->last_blocked_load_update_tick`.
    pub(crate) last_blocked_update: Vec<u64>,
    /// Per CPU: its LLC domain's `nohz_idle`, counted out of the busy CPUs.
    pub(crate) sd_nohz_idle: Vec<bool>,
    /// Per LLC, by its first CPU: `sds->nr_busy_cpus`.
    pub(crate) nr_busy_cpus: Vec<u32>,
}

impl Nohz {
    /// The state at boot over `cpus` CPUs (`init_sched_fair_class` sets both
    /// times to jiffies, 0 here).
    pub(crate) fn boot(cpus: usize) -> Nohz {
        Nohz {
            flags: vec![0; cpus],
            has_blocked_load: vec![false; cpus],
            last_blocked_update: vec![0; cpus],
            sd_nohz_idle: vec![false; cpus],
            nr_busy_cpus: vec![0; cpus],
            ..Nohz::default()
        }
    }

    /// The domains were rebuilt: each LLC's shared count starts at the LLC's
    /// weight and no CPU is counted idle (`sd_init`, topology.c 1693–1698),
    /// even a CPU still tickless: it is counted idle again only when it next
    /// enters tickless idle from a busy tick.
    pub(crate) fn domains_rebuilt(&mut self, llc: &[Option<(usize, CpuMask)>], llc_id: &[u32]) {
        self.sd_nohz_idle.iter_mut().for_each(|f| *f = false);
        for (c, l) in llc.iter().enumerate() {
            if let Some((_, span)) = l {
                self.nr_busy_cpus[llc_id[c] as usize] = span.weight();
            }
        }
    }
}

/// What `nohz_balancer_kick` reads at a busy CPU's tick.
#[derive(Clone, Copy, Debug)]
pub struct KickView {
    pub jiffies: u64,
    /// `nohz.nr_cpus`: tickless CPUs.
    pub nr_idle: u32,
    pub has_blocked: bool,
    pub next_blocked: u64,
    pub next_balance: u64,
    pub needs_update: bool,
    /// The ticking CPU's `nr_running`.
    pub nr_running: u32,
    /// Its LLC's `nr_busy_cpus` (None: no LLC domain).
    pub llc_busy: Option<u32>,
}

/// `nohz_balancer_kick`'s flags (fair.c 12429–12543), after the CPU has
/// left the tickless set: none while no CPU is tickless; STATS once
/// `nohz.next_blocked` has passed with blocked load about; before
/// `nohz.next_balance` nothing more; then STATS|BALANCE if this CPU runs two
/// tasks or its LLC has two busy CPUs; NEXT whenever a CPU went tickless
/// since the last collation.
pub fn balancer_kick_flags(v: &KickView) -> u8 {
    if v.nr_idle == 0 {
        return 0;
    }
    let mut flags = 0;
    if v.has_blocked && v.jiffies > v.next_blocked {
        flags = NOHZ_STATS_KICK;
    }
    if v.jiffies >= v.next_balance && (v.nr_running >= 2 || v.llc_busy.is_some_and(|b| b > 1)) {
        flags = NOHZ_STATS_KICK | NOHZ_BALANCE_KICK;
    }
    if v.needs_update {
        flags |= NOHZ_NEXT_KICK;
    }
    flags
}

/// `find_new_ilb` (fair.c 12362–12380): the first tickless CPU, other than
/// the kicking one, that is idle.
pub fn find_new_ilb(idle_cpus: &CpuMask, this: CpuId, idle: impl Fn(CpuId) -> bool) -> Option<CpuId> {
    idle_cpus.iter().find(|&c| c != this && idle(c))
}

/// `kick_ilb`'s gate (fair.c 12402–12418) on the ilb's pending flags: the
/// flags left pending, and whether an IPI goes (none if every flag was
/// already pending, nor if an IPI carrying some is already on its way).
pub fn ilb_kick(pending: u8, flags: u8) -> (u8, bool) {
    if pending & flags == flags {
        return (pending, false);
    }
    (pending | flags, pending & NOHZ_KICK_MASK == 0)
}

/// What `update_nohz_stats` (fair.c 12652–12668) does for one idle CPU.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StatsStep {
    /// No blocked load, or no longer tickless: nothing left to decay here.
    Clean,
    /// Already updated this jiffy: still counted as blocked.
    Pending,
    /// Bring its blocked averages up to date.
    Update,
}

pub fn nohz_stats_step(has_blocked_load: bool, tickless: bool, jiffies: u64, last_update: u64) -> StatsStep {
    if !has_blocked_load || !tickless {
        StatsStep::Clean
    } else if jiffies <= last_update {
        StatsStep::Pending
    } else {
        StatsStep::Update
    }
}

/// `nohz_newidle_balance` (fair.c 12824–12849): a CPU about to idle runs the
/// stats pass itself if it expects to idle at least the migration cost and
/// the idle CPUs' blocked load is due.
pub fn newidle_wants_stats(
    avg_idle: u64,
    migration_cost: u64,
    has_blocked: bool,
    jiffies: u64,
    next_blocked: u64,
) -> bool {
    avg_idle >= migration_cost && has_blocked && jiffies >= next_blocked
}

/// `nohz.next_blocked` after a stats pass at `now` (fair.c 12764–12766):
/// LOAD_AVG_PERIOD (32 ms) later, in jiffies rounded up.
pub fn next_blocked_after(now: u64, hz: u64) -> u64 {
    now + (LOAD_AVG_PERIOD * hz).div_ceil(1000)
}

/// `cfs_rq_has_blocked` (fair.c 9801–9810): a runqueue with load or
/// utilization left still has something to decay.
pub fn cfs_rq_has_blocked(sa: &SchedAvg) -> bool {
    sa.load_avg != 0 || sa.util_avg != 0
}

/// `for_each_cpu_wrap(mask, start)`: the CPUs of `mask` from `start` up, then from 0.
pub fn wrap_order(mask: &CpuMask, start: u32) -> Vec<CpuId> {
    let (mut high, low): (Vec<CpuId>, Vec<CpuId>) = mask.iter().partition(|c| c.0 >= start);
    high.extend(low);
    high
}

impl FairCx<'_> {
    /// `nohz_balance_enter_idle` (fair.c 12595–12650), as `cpu` stops its
    /// tick: its load is assumed blocked; a CPU not yet tickless (and with a
    /// domain) joins the idle mask and leaves its LLC's busy count.
    pub(crate) fn nohz_balance_enter_idle_612(&mut self, cpu: CpuId) {
        if !self.core.rqs[cpu.idx()].online {
            return;
        }
        let nohz = &mut self.fair.gen612.nohz;
        nohz.has_blocked_load[cpu.idx()] = true;
        if !nohz.idle_cpus.test(cpu) {
            if self.core.rqs[cpu.idx()].domains.is_empty() {
                return;
            }
            nohz.idle_cpus.set(cpu);
            self.set_cpu_sd_state_612(cpu, true);
            self.fair.gen612.nohz.needs_update = true;
        }
        self.fair.gen612.nohz.has_blocked = true;
    }

    /// `nohz_balance_exit_idle` (fair.c 12561–12573): at the first busy tick
    /// after tickless idle (or as the CPU goes down), it leaves the mask and
    /// counts busy again.
    pub(crate) fn nohz_balance_exit_idle_612(&mut self, cpu: CpuId) {
        let nohz = &mut self.fair.gen612.nohz;
        if !nohz.idle_cpus.test(cpu) {
            return;
        }
        nohz.idle_cpus.clear(cpu);
        self.set_cpu_sd_state_612(cpu, false);
    }

    /// `set_cpu_sd_state_idle` / `_busy` (fair.c 12575–12589, 12545–12559):
    /// the CPU's LLC counts it out of, or back into, its busy CPUs, once.
    fn set_cpu_sd_state_612(&mut self, cpu: CpuId, idle: bool) {
        let st = &mut self.fair.gen612;
        if st.llc.get(cpu.idx()).is_none_or(|l| l.is_none()) || st.nohz.sd_nohz_idle[cpu.idx()] == idle {
            return;
        }
        st.nohz.sd_nohz_idle[cpu.idx()] = idle;
        let busy = &mut st.nohz.nr_busy_cpus[st.llc_id[cpu.idx()] as usize];
        *busy = if idle { busy.saturating_sub(1) } else { *busy + 1 };
    }

    /// `nohz_balancer_kick` (fair.c 12429–12543) at `cpu`'s tick, then
    /// `kick_ilb` (12387–12423) with its flags.
    pub(super) fn nohz_balancer_kick_612(&mut self, cpu: CpuId) {
        if self.core.rqs[cpu.idx()].is_idle() {
            return;
        }
        self.nohz_balance_exit_idle_612(cpu);
        let st = &self.fair.gen612;
        let llc_busy = st.llc[cpu.idx()].as_ref().map(|_| st.nohz.nr_busy_cpus[st.llc_id[cpu.idx()] as usize]);
        let flags = balancer_kick_flags(&KickView {
            jiffies: self.core.jiffies(),
            nr_idle: st.nohz.idle_cpus.weight(),
            has_blocked: st.nohz.has_blocked,
            next_blocked: st.nohz.next_blocked,
            next_balance: st.nohz.next_balance,
            needs_update: st.nohz.needs_update,
            nr_running: self.core.rqs[cpu.idx()].nr_running(),
            llc_busy,
        });
        if flags == 0 {
            return;
        }
        if flags & NOHZ_BALANCE_KICK != 0 {
            self.fair.gen612.nohz.next_balance = self.core.jiffies() + 1;
        }
        let Some(ilb) = find_new_ilb(&self.fair.gen612.nohz.idle_cpus, cpu, |c| self.core.rqs[c.idx()].is_idle())
        else {
            return;
        };
        let pending = &mut self.fair.gen612.nohz.flags[ilb.idx()];
        let (now_pending, ipi) = ilb_kick(*pending, flags);
        *pending = now_pending;
        if ipi {
            self.core.push(self.core.now, Event::NohzKick(ilb));
        }
    }

    /// The kick lands (`nohz_csd_func`, core.c 1247–1264, then
    /// `sched_balance_softirq` 13023–13040 and `nohz_idle_balance`
    /// 12778–12792): the pending flags are taken; an idle ilb balances for
    /// the tickless CPUs, itself among them, and not again for itself alone.
    pub(super) fn nohz_csd_612(&mut self, ilb: CpuId) {
        let flags = std::mem::take(&mut self.fair.gen612.nohz.flags[ilb.idx()]);
        if flags & NOHZ_KICK_MASK == 0 || !self.available_idle_cpu(ilb) {
            return;
        }
        self.nohz_idle_balance_612(ilb, flags & NOHZ_KICK_MASK);
    }

    /// `_nohz_idle_balance` (fair.c 12675–12772) run by `this` with `flags`:
    /// each idle tickless CPU, starting after `this` and ending with it, has
    /// its blocked load brought up to date (STATS) and, when its balance is
    /// due, its domains balanced as an idle CPU (BALANCE); the earliest
    /// `next_balance` among them becomes `nohz.next_balance`.
    pub(super) fn nohz_idle_balance_612(&mut self, this: CpuId, flags: u8) {
        let (jiffies, hz) = (self.core.jiffies(), self.core.hz());
        let mut next_balance = jiffies + 60 * hz;
        let (mut update_next, mut has_blocked_load) = (false, false);
        let nohz = &mut self.fair.gen612.nohz;
        if flags & NOHZ_STATS_KICK != 0 {
            nohz.has_blocked = false;
        }
        if flags & NOHZ_NEXT_KICK != 0 {
            nohz.needs_update = false;
        }
        for cpu in wrap_order(&nohz.idle_cpus, this.0 + 1) {
            if !self.fair.gen612.nohz.idle_cpus.test(cpu) || !self.core.rqs[cpu.idx()].is_idle() {
                continue;
            }
            let me = &self.core.rqs[this.idx()];
            if !me.is_idle() && me.need_resched {
                // The balancer has work of its own: the next one picks up what is left.
                let nohz = &mut self.fair.gen612.nohz;
                nohz.has_blocked |= flags & NOHZ_STATS_KICK != 0;
                nohz.needs_update |= flags & NOHZ_NEXT_KICK != 0;
                return;
            }
            if flags & NOHZ_STATS_KICK != 0 {
                has_blocked_load |= self.update_nohz_stats_612(cpu);
            }
            if flags & NOHZ_BALANCE_KICK != 0 && jiffies >= self.core.rqs[cpu.idx()].next_balance {
                self.sched_balance_domains(cpu, IdleType::Idle);
                if self.core.rqs[cpu.idx()].need_resched {
                    self.sched().schedule(cpu);
                }
            }
            if next_balance > self.core.rqs[cpu.idx()].next_balance {
                next_balance = self.core.rqs[cpu.idx()].next_balance;
                update_next = true;
            }
        }
        let nohz = &mut self.fair.gen612.nohz;
        if update_next {
            nohz.next_balance = next_balance;
        }
        if flags & NOHZ_STATS_KICK != 0 {
            nohz.next_blocked = next_blocked_after(jiffies, hz);
        }
        nohz.has_blocked |= has_blocked_load;
    }

    /// `update_nohz_stats` (fair.c 12652–12668): true while `cpu` has
    /// blocked load left.
    fn update_nohz_stats_612(&mut self, cpu: CpuId) -> bool {
        let nohz = &self.fair.gen612.nohz;
        let step = nohz_stats_step(
            nohz.has_blocked_load[cpu.idx()],
            nohz.idle_cpus.test(cpu),
            self.core.jiffies(),
            nohz.last_blocked_update[cpu.idx()],
        );
        match step {
            StatsStep::Clean => false,
            StatsStep::Pending => true,
            StatsStep::Update => {
                self.update_blocked_averages_612(cpu);
                self.fair.gen612.nohz.has_blocked_load[cpu.idx()]
            }
        }
    }

    /// `cpu` found nothing to pull and goes idle: `nohz_newidle_balance`
    /// marks it for the stats pass, and the idle loop's first step
    /// (`nohz_run_idle_balance`, idle.c 279) runs it, unless a kick already
    /// on its way will.
    pub(super) fn nohz_newidle_balance_612(&mut self, cpu: CpuId) {
        let nohz = &self.fair.gen612.nohz;
        let (avg_idle, cost) = (self.core.rqs[cpu.idx()].avg_idle_ns, self.fair.tunables.migration_cost_ns);
        if !newidle_wants_stats(avg_idle, cost, nohz.has_blocked, self.core.jiffies(), nohz.next_blocked) {
            return;
        }
        // NOHZ_NEWILB_KICK set and at once taken back: the pass runs if it was the only flag.
        if self.fair.gen612.nohz.flags[cpu.idx()] == 0 && !self.core.rqs[cpu.idx()].need_resched {
            self.nohz_idle_balance_612(cpu, NOHZ_STATS_KICK);
        }
    }
}

#[cfg(test)]
#[path = "nohz_test.rs"]
mod nohz_test;

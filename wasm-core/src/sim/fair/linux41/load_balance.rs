//! `rebalance_domains`, `load_balance`, `detach_tasks` and `can_migrate_task`
//! of Linux 4.1, as methods of the simulator. The decision itself (which group
//! is busiest, how much to move) is in `stats.rs`; the stopper's push in
//! `active_balance.rs`, newly-idle balancing in `idle_balance.rs`.

use crate::balance::decision::{BalanceDecision, Outcome, Why};
use crate::balance::stats::{find_busiest_queue, FbgInput};
use crate::balance::{IdleType, MAX_PINNED_INTERVAL_MS};
use crate::sim::fair::cx::FairCx;
use crate::sim::stop::StopWork;
use crate::time::CpuId;
use crate::topology::cpumask::CpuMask;
use crate::topology::domains::SchedDomain;
use crate::topology::schedstat::LbCounters;
use crate::trace::TraceKind;

/// What one `load_balance` pass is: on which CPU and level, as which idle
/// type, whether this CPU is the designated balancer, and the parent
/// domain's local group (whose imbalance flag the pass sets or clears).
struct Round {
    cpu: CpuId,
    level: usize,
    idle: IdleType,
    designated: bool,
    parent_group: Option<usize>,
}

/// How the pass's rounds ended, for its settling.
#[derive(Default)]
struct PassEnd {
    /// Tasks pulled over the rounds (only the count is read).
    moved: u32,
    /// The pass's schedstat counters, added to the domain's at the end.
    st: LbCounters,
    /// out_all_pinned was taken (no CPU left to redo with).
    all_pinned: bool,
    /// LBF_ALL_PINNED as the last detach left it.
    env_all_pinned: bool,
    /// The busiest CPU the stopper may push from when enough passes failed.
    active_from: Option<CpuId>,
}

/// Why detach_tasks skipped tasks, for the decision record.
#[derive(Default)]
pub(super) struct SkipCounts {
    pub(super) pinned: u32,
    pub(super) running: u32,
    pub(super) hot: u32,
    pub(super) too_heavy: u32,
    /// Cache-hot tasks let go because balancing failed too often (schedstat lb_hot_gained).
    pub(super) hot_gained: u32,
}

impl SkipCounts {
    fn why(&self) -> Why {
        Why::Skipped {
            running: self.running,
            pinned: self.pinned,
            hot: self.hot,
            too_heavy: self.too_heavy,
            over_imbalance: 0,
        }
    }
}

impl FairCx<'_> {
    /// `trigger_load_balance` from the tick: run `rebalance_domains` when due.
    /// With NOHZ, an idle CPU's tick is stopped (its balancing is done by the
    /// idle load balancer), and a busy CPU may kick that balancer.
    pub(crate) fn trigger_load_balance(&mut self, cpu: CpuId) {
        let rq = &self.core.rqs[cpu.idx()];
        if !rq.online {
            return;
        }
        let idle = rq.is_idle();
        if self.core.nohz && idle {
            return;
        }
        if self.core.jiffies() >= rq.next_balance {
            self.rebalance_domains(cpu, if idle { IdleType::Idle } else { IdleType::NotIdle });
        }
        if self.core.nohz && self.nohz_kick_needed(cpu) {
            self.nohz_kick();
        }
    }

    /// `get_sd_balance_interval` in jiffies.
    pub(super) fn balance_interval_jiffies(&self, cpu: CpuId, level: usize, busy: bool) -> u64 {
        self.interval_jiffies(&self.core.rqs[cpu.idx()].domains[level], busy, self.interval_cap())
    }

    /// HZ and the longest balance interval (`max_load_balance_interval`: a
    /// tenth of a second per online CPU), in jiffies: read once per
    /// `rebalance_domains`, which asks for an interval twice per domain.
    fn interval_cap(&self) -> (u64, u64) {
        let hz = self.core.hz();
        (hz, (hz * self.core.online.weight() as u64 / 10).max(1))
    }

    /// `get_sd_balance_interval` of `sd`, with `interval_cap`'s figures.
    fn interval_jiffies(&self, sd: &SchedDomain, busy: bool, (hz, max): (u64, u64)) -> u64 {
        let mut ms = sd.balance_interval_ms;
        if busy {
            ms *= sd.busy_factor;
        }
        // msecs_to_jiffies rounds up: 6 ms at HZ 250 is 2 jiffies, not 1.
        let jiffies = (ms * hz).div_ceil(1000);
        jiffies.clamp(1, max)
    }

    pub(crate) fn rebalance_domains(&mut self, cpu: CpuId, mut idle: IdleType) {
        let jiffies = self.core.jiffies();
        let mut next_balance = jiffies + 60 * self.core.hz();
        let mut continue_balancing = true;
        let (mut need_decay, mut max_cost, hz) = (false, 0, self.core.hz());
        self.update_blocked_averages(cpu);
        // Nothing below changes the online CPUs.
        let cap = self.interval_cap();
        for level in 0..self.core.rqs[cpu.idx()].domains.len() {
            // This regular visit of every domain decays its newly-idle cost by 3/256 (about 1 %) a second.
            let sd = &mut self.core.rqs[cpu.idx()].domains[level];
            if jiffies > sd.next_decay_max_lb_cost {
                sd.max_newidle_lb_cost_ns = sd.max_newidle_lb_cost_ns * 253 / 256;
                sd.next_decay_max_lb_cost = jiffies + hz;
                need_decay = true;
            }
            max_cost += sd.max_newidle_lb_cost_ns;
            if !sd.flags.load_balance {
                continue;
            }
            if !continue_balancing {
                // The domains above are not balanced, but still decayed.
                if need_decay {
                    continue;
                }
                break;
            }
            let mut interval =
                self.interval_jiffies(&self.core.rqs[cpu.idx()].domains[level], idle != IdleType::Idle, cap);
            let last = self.core.rqs[cpu.idx()].domains[level].last_balance.ns() / self.core.tick_ns;
            if jiffies >= last + interval {
                let (moved, cont) = self.load_balance(cpu, level, idle);
                continue_balancing = cont;
                if moved > 0 {
                    idle = if self.core.rqs[cpu.idx()].is_idle() { IdleType::Idle } else { IdleType::NotIdle };
                }
                self.core.rqs[cpu.idx()].domains[level].last_balance = self.core.now;
                interval = self.interval_jiffies(&self.core.rqs[cpu.idx()].domains[level], idle != IdleType::Idle, cap);
            }
            let last = self.core.rqs[cpu.idx()].domains[level].last_balance.ns() / self.core.tick_ns;
            next_balance = next_balance.min(last + interval);
        }
        if need_decay {
            // The runqueue's figure decays with them, floored at the migration cost.
            let floor = self.fair.tunables.migration_cost_ns;
            self.core.rqs[cpu.idx()].max_idle_balance_cost_ns = max_cost.max(floor);
        }
        self.core.rqs[cpu.idx()].next_balance = next_balance;
        self.core.index.touch(cpu);
        if self.core.rqs[cpu.idx()].need_resched {
            self.sched().schedule(cpu);
        }
    }

    /// `should_we_balance`: only the first idle CPU of the local group (or
    /// its balance CPU) balances a domain periodically. The Scheduling Group
    /// Construction fix lets every CPU balance.
    fn designated_balancer(&self, cpu: CpuId, sd: &SchedDomain, idle: IdleType, env_cpus: &CpuMask) -> CpuId {
        if idle == IdleType::NewlyIdle || !self.core.bugs.group_construction {
            return cpu;
        }
        let local = &sd.groups[0];
        local
            .span
            .iter()
            .find(|&c| env_cpus.test(c) && local.balance_mask.test(c) && self.core.rqs[c.idx()].is_idle())
            .or_else(|| local.balance_cpu())
            .unwrap_or(cpu)
    }

    /// One `load_balance` pass of `cpu` at domain `level`, as the periodic
    /// balancer runs it (idle or busy as the CPU is): for micro-benchmarks and
    /// experiments. Returns (tasks moved, whether higher domains should still
    /// be balanced).
    pub fn balance_pass(&mut self, cpu: CpuId, level: usize) -> (u32, bool) {
        let idle = if self.core.rqs[cpu.idx()].is_idle() { IdleType::Idle } else { IdleType::NotIdle };
        self.load_balance(cpu, level, idle)
    }

    /// `load_balance` for one domain of `cpu`. Returns (tasks moved,
    /// whether higher domains should still be balanced).
    pub(crate) fn load_balance(&mut self, cpu: CpuId, level: usize, idle: IdleType) -> (u32, bool) {
        // The CPU's domains are taken out for the pass (nothing it calls reads
        // them) so the domain can be borrowed without a copy.
        let mut doms = std::mem::take(&mut self.core.rqs[cpu.idx()].domains);
        let result = self.load_balance_in(cpu, &mut doms, level, idle);
        self.core.rqs[cpu.idx()].domains = doms;
        result
    }

    fn load_balance_in(&mut self, cpu: CpuId, doms: &mut [SchedDomain], level: usize, idle: IdleType) -> (u32, bool) {
        let sd = &doms[level];
        let (mut env_cpus, read_cpus) = self.pass_masks(sd);
        let mut d = BalanceDecision {
            at: self.core.now,
            cpu,
            level: sd.kind,
            idle,
            groups: Vec::new(),
            busiest_group: None,
            domain_avg_load: 0,
            imbalance: 0,
            migration: None,
            busiest_cpu: None,
            outcome: Outcome::NoBusiestQueue,
        };
        let balancer = self.designated_balancer(cpu, sd, idle, &env_cpus);
        if balancer != cpu {
            d.outcome = Outcome::NotDesignated { balance_cpu: balancer };
        }
        let parent_group = doms.get(level + 1).map(|p| p.groups[0].id);
        let mut pass = PassEnd { st: LbCounters { lb_count: 1, ..Default::default() }, ..Default::default() };
        let round = Round { cpu, level, idle, designated: balancer == cpu, parent_group };
        self.balance_rounds(&round, doms, &mut env_cpus, &read_cpus, &mut d, &mut pass);
        self.fair.lb.env_buf = env_cpus;
        self.fair.lb.read_buf = read_cpus;
        self.settle_pass(&round, doms, &mut d, &mut pass);
        let n = pass.moved;
        let designated = !matches!(d.outcome, Outcome::NotDesignated { .. });
        self.finish_decision(cpu, level, d, n);
        (n, designated)
    }

    /// The pass's CPU masks in reused storage: env.cpus, the candidates,
    /// and the CPUs whose loads it reads (its groups' CPUs: the span unless
    /// groups overlap).
    fn pass_masks(&mut self, sd: &SchedDomain) -> (CpuMask, CpuMask) {
        // env.cpus starts as every active CPU (cpumask_copy of cpu_active_mask, fair.c 6941): at a NUMA
        // level an overlapping group may reach past the domain's span, and its CPUs there count too.
        let mut env_cpus = std::mem::take(&mut self.fair.lb.env_buf);
        env_cpus.clone_from(&self.core.online);
        env_cpus.trim();
        // The CPUs whose loads the pass reads: its groups' CPUs (the span unless groups overlap).
        let mut read_cpus = std::mem::take(&mut self.fair.lb.read_buf);
        read_cpus.clone_from(&sd.span);
        if sd.flags.overlap {
            for g in &sd.groups {
                read_cpus.or_with(&g.span);
            }
        }
        read_cpus.and_with(&self.core.online);
        read_cpus.trim();
        (env_cpus, read_cpus)
    }

    /// The pass proper (find_busiest_group, find_busiest_queue, detach_tasks),
    /// redone without a busiest CPU whose tasks were all pinned; only when
    /// this CPU is the designated balancer. The group statistics it fills
    /// go to the decision record.
    fn balance_rounds(
        &mut self,
        round: &Round,
        doms: &[SchedDomain],
        env_cpus: &mut CpuMask,
        read_cpus: &CpuMask,
        d: &mut BalanceDecision,
        pass: &mut PassEnd,
    ) {
        let Round { cpu, level, idle, designated, parent_group } = *round;
        let sd = &doms[level];
        let child_prefers_sibling = level > 0 && doms[level - 1].flags.prefer_sibling;
        let mut done = false;
        // Nothing moves before a redo: the loads are read once, and a redo
        // recomputes only the groups that lost that CPU (balance/search.rs).
        let mut search = std::mem::take(&mut self.fair.lb.search);
        search.reset(self.fair.lb.groups_storage(sd.groups.len()));
        let mut loads = None;
        // env.dst_cpu: an LBF_DST_PINNED retry may hand it to another CPU of the local group.
        let mut dst = cpu;
        let mut redo = false;
        while designated && !done {
            if redo {
                // `redo:` asks should_we_balance again, for the destination as it now is and without the
                // CPUs cleared from env.cpus; a CPU that is no longer the one stops balancing here and above.
                let again = self.designated_balancer(dst, sd, idle, env_cpus);
                if again != dst {
                    d.outcome = Outcome::NotDesignated { balance_cpu: again };
                    break;
                }
            }
            redo = true;
            // After an LBF_DST_PINNED retry the redo balances toward the new env.dst_cpu, whose own load
            // and load per task (cpu_avg_load_per_task) the search reads.
            let dst_load_per_task = {
                let rq = &self.core.rqs[dst.idx()];
                if rq.nr_running() > 0 {
                    rq.weighted_cpuload() / rq.nr_running() as u64
                } else {
                    0
                }
            };
            let loads = self.pass_loads(&mut loads, read_cpus, cpu);
            let inp = FbgInput {
                loads,
                sd,
                dst_cpu: dst,
                child_prefers_sibling,
                env_cpus,
                idle,
                sgc_imbalance: &self.fair.lb.sgc_imbalance,
                min_load_fix: !self.core.bugs.group_imbalance,
                dst_load_per_task,
                dst_load: crate::balance::stats::target_load(
                    &loads[dst.idx()],
                    crate::balance::stats::load_idx(sd, idle),
                ),
            };
            let fbg = search.run(&inp);
            if level + 1 == doms.len() {
                // The root domain's update_sd_lb_stats sets rd->overload to what it saw.
                self.fair.lb.rd_overload = read_cpus.iter_and(env_cpus).any(|c| loads[c.idx()].nr_running > 1);
            }
            if self.core.index_check() {
                let fresh = crate::balance::stats::find_busiest_group(&inp).0;
                assert_eq!(fbg, fresh, "a redo's find_busiest_group at {:?}", self.core.now);
            }
            d.busiest_group = fbg.busiest;
            d.domain_avg_load = fbg.domain_avg_load;
            let (Some(bg), Some(imbalance)) = (fbg.busiest, fbg.imbalance) else {
                d.outcome = Outcome::Balanced { why: fbg.why.unwrap_or(Why::NoOtherGroup) };
                pass.st.lb_nobusyg += 1;
                break;
            };
            d.imbalance = imbalance;
            let Some(busiest) = find_busiest_queue(loads, &sd.groups[bg].span, env_cpus, imbalance) else {
                d.outcome = Outcome::NoBusiestQueue;
                pass.st.lb_nobusyq += 1;
                break;
            };
            pass.st.lb_imbalance += imbalance;
            d.busiest_cpu = Some(busiest);
            if self.core.rqs[busiest.idx()].nr_running() <= 1 {
                // load_balance tries to detach only from a CPU running more than one task; with one the
                // group stays unbalanced and the pass counts as failed, which is what lets the stopper
                // push that running task once enough passes have failed.
                d.outcome = Outcome::NothingMoved { from: busiest, why: Why::SingleTask };
                pass.active_from = Some(busiest);
                break;
            }
            let (pulled, flags, skips, last_dst) =
                self.detach_tasks(dst, busiest, sd, idle, imbalance, &sd.groups[0].span, env_cpus);
            dst = last_dst;
            pass.st.lb_gained += pulled.len() as u64;
            pass.st.lb_hot_gained += u64::from(skips.hot_gained);
            pass.moved += pulled.len() as u32;
            if let Some(parent_id) = parent_group {
                if flags.some_pinned && flags.imbalance_left > 0 {
                    self.fair.lb.sgc_imbalance[parent_id] = true;
                }
            }
            pass.env_all_pinned = flags.all_pinned;
            if flags.all_pinned {
                // Redo without the busiest CPU while any active CPU is left in env.cpus (fair.c 7059–7067).
                env_cpus.clear(busiest);
                if !env_cpus.is_empty() {
                    self.fair.lb.give_back_pids(pulled);
                    continue;
                }
                pass.all_pinned = true;
            }
            d.outcome = if pulled.is_empty() {
                self.fair.lb.give_back_pids(pulled);
                Outcome::NothingMoved { from: busiest, why: skips.why() }
            } else {
                Outcome::Moved { tasks: pulled, from: busiest }
            };
            if pass.moved == 0 && !pass.all_pinned {
                pass.active_from = Some(busiest);
            }
            done = true;
        }
        if let Some(l) = loads {
            self.fair.lb.cpu_load_buf = l;
        }
        d.groups = search.take_groups();
        self.fair.lb.search = search;
        if d.groups.is_empty() {
            // No search ran (not this CPU's turn): the record keeps no storage.
            self.fair.lb.give_back_groups(std::mem::take(&mut d.groups));
        }
    }

    /// After the pass: the group-imbalance flag, the schedstat counters, the
    /// failure count and the interval, and a stopper push when enough
    /// periodic passes have failed (`need_active_balance`).
    fn settle_pass(&mut self, round: &Round, doms: &mut [SchedDomain], d: &mut BalanceDecision, pass: &mut PassEnd) {
        let Round { cpu, level, idle, parent_group, .. } = *round;
        let balanced =
            matches!(d.outcome, Outcome::Balanced { .. } | Outcome::NoBusiestQueue | Outcome::NotDesignated { .. });
        if balanced {
            if let (Some(parent_id), false) = (parent_group, pass.all_pinned) {
                self.fair.lb.sgc_imbalance[parent_id] = false;
            }
        }
        // lb_balanced on the balanced and all-pinned exits; lb_failed whenever nothing moved otherwise.
        if balanced || (pass.all_pinned && pass.moved == 0) {
            pass.st.lb_balanced += 1;
        } else if pass.moved == 0 {
            pass.st.lb_failed += 1;
        }
        doms[level].schedstat.add_pass(idle, &pass.st);
        let sdm = &mut doms[level];
        if balanced {
            sdm.nr_balance_failed = 0;
            // out_one_pinned: a redo that ended balanced after an all-pinned CPU backs off as far as pinned passes.
            let pinned_cap = pass.env_all_pinned && sdm.balance_interval_ms < MAX_PINNED_INTERVAL_MS;
            if pinned_cap || sdm.balance_interval_ms < sdm.max_interval_ms {
                sdm.balance_interval_ms *= 2;
            }
        } else if pass.all_pinned && pass.moved == 0 {
            sdm.nr_balance_failed = 0;
            if sdm.balance_interval_ms < MAX_PINNED_INTERVAL_MS || sdm.balance_interval_ms < sdm.max_interval_ms {
                sdm.balance_interval_ms *= 2;
            }
        } else if pass.moved == 0 {
            if idle != IdleType::NewlyIdle {
                sdm.nr_balance_failed += 1;
            }
            let mut active = false;
            let mut curr_pinned = false;
            // need_active_balance (no SD_ASYM_PACKING here): enough periodic passes have failed.
            let need_active = sdm.nr_balance_failed > sdm.cache_nice_tries + 2;
            if let (Some(from), true) = (pass.active_from, need_active) {
                let rq = &self.core.rqs[from.idx()];
                // The stopper can only push the task running there if it may run here (an idle
                // busiest CPU runs its idle task, which may not).
                let curr_allows = rq.curr().is_some_and(|p| self.core.tasks[p.idx()].allowed.test(cpu));
                if !curr_allows {
                    curr_pinned = true;
                } else {
                    if !rq.active_balance {
                        active = true;
                        self.core.rqs[from.idx()].active_balance = true;
                        self.core.stop_one_cpu_nowait(from, StopWork::ActiveBalance { target: cpu });
                        d.outcome = Outcome::ActiveBalance { from };
                    }
                    // Reset even when a push from that CPU is already pending.
                    let sdm = &mut doms[level];
                    sdm.nr_balance_failed = sdm.cache_nice_tries + 1;
                }
            }
            let sdm = &mut doms[level];
            if curr_pinned {
                // out_one_pinned: the failure count stands and the interval backs off as for pinned tasks.
                if sdm.balance_interval_ms < MAX_PINNED_INTERVAL_MS || sdm.balance_interval_ms < sdm.max_interval_ms {
                    sdm.balance_interval_ms *= 2;
                }
            } else if !active {
                sdm.balance_interval_ms = sdm.min_interval_ms;
            } else if sdm.balance_interval_ms < sdm.max_interval_ms {
                sdm.balance_interval_ms *= 2;
            }
        } else {
            sdm.nr_balance_failed = 0;
            sdm.balance_interval_ms = sdm.min_interval_ms;
        }
    }

    fn finish_decision(&mut self, cpu: CpuId, level: usize, d: BalanceDecision, moved: u32) {
        if !matches!(d.outcome, Outcome::NotDesignated { .. }) {
            self.core.trace.emit(self.core.now, cpu, TraceKind::Balance { level: level as u8, moved });
        }
        self.fair.lb.record_decision(d);
    }
}

/// The LBF_* flags of one pass.
pub(super) struct DetachFlags {
    pub(super) all_pinned: bool,
    pub(super) some_pinned: bool,
    pub(super) imbalance_left: i64,
}

#[cfg(test)]
#[path = "interval_test.rs"]
mod interval_test;

#[cfg(test)]
#[path = "redo_test.rs"]
mod redo_test;

#[cfg(test)]
#[path = "env_cpus_test.rs"]
mod env_cpus_test;

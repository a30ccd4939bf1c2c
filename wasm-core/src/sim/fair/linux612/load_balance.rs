//! `sched_balance_rq` of Linux 6.12 (fair.c 11754–12035), the balancing of
//! one domain by one CPU, over the machine state: which CPU balances
//! (`should_balance.rs`), each group's statistics and the busiest group
//! (`group_stats.rs`), the verdict and the imbalance in its migration type
//! (`imbalance.rs`), the runqueue to pull from (`find_src_rq.rs`), and the
//! tasks taken (`detach.rs`, with `can_migrate_task` and `task_hot` here);
//! then the bookkeeping of a pass: the pinned retries, the failure count,
//! the stopper's push, and the balance interval's back-off.

use super::decision::{self as record, Skips};
use super::detach::{detach_tasks, Candidate, DetachEnv, Probe};
use super::find_src_rq::{find_src_rq, RqSample};
use super::group_stats::{update_sd_pick_busiest, update_sg_lb_stats, CpuSample, GroupFacts, SgLbStats};
use super::imbalance::{domain_avg_load, find_src_group_verdict, DomainView, MigrationType, Verdict};
use super::pelt::{task_util_est, SCHED_CAPACITY_SCALE};
use super::should_balance::{balancing_cpu, BalanceEnv};
use crate::balance::decision::{BalanceDecision, Outcome as Recorded};
use crate::sched::policy::SchedPolicy;
use crate::sim::fair::cx::FairCx;
use crate::sim::stop::StopWork;
use crate::time::{CpuId, Pid};
use crate::topology::cpumask::CpuMask;
use crate::topology::domains::SchedDomain;
use crate::topology::schedstat::IdleType;
use crate::trace::{MigrateCause, TraceKind};

/// `MAX_PINNED_INTERVAL` (ms): how far an all-pinned domain's interval may grow.
const MAX_PINNED_INTERVAL: u64 = 512;

/// The `lb_env` flags a pass carries between its steps.
#[derive(Clone, Copy, Debug, Default)]
struct Flags {
    all_pinned: bool,
    some_pinned: bool,
    /// LBF_DST_PINNED, with the other CPU of the local group that could take the task.
    dst_pinned: Option<CpuId>,
    /// Why tasks were passed over (for the record).
    skips: Skips,
}

/// The source found for a pass.
struct Source {
    cpu: CpuId,
    migration: MigrationType,
    imbalance: i64,
}

impl FairCx<'_> {
    /// `sched_balance_rq` of `cpu` at domain `level`. Returns (tasks moved,
    /// whether the domains above are still to be balanced).
    pub(super) fn sched_balance_rq(&mut self, cpu: CpuId, level: usize, idle: IdleType) -> (u32, bool) {
        // The CPU's domains are out for the pass (nothing it calls reads them).
        let mut doms = std::mem::take(&mut self.core.rqs[cpu.idx()].domains);
        let r = self.sched_balance_rq_in(cpu, &mut doms, level, idle);
        self.core.rqs[cpu.idx()].domains = doms;
        r
    }

    fn sched_balance_rq_in(
        &mut self,
        cpu: CpuId,
        doms: &mut [SchedDomain],
        level: usize,
        idle: IdleType,
    ) -> (u32, bool) {
        let parent_group = doms.get(level + 1).map(|p| p.groups[0].id);
        let sd = &doms[level];
        let mut env_cpus = sd.span.and(&self.core.online);
        let dst_grpmask = sd.groups[0].balance_mask.and(&sd.groups[0].span);
        let mut counters = crate::topology::schedstat::LbCounters { lb_count: 1, ..Default::default() };
        let mut flags = Flags::default();
        let mut d = self.new_decision(cpu, sd, idle);
        let mut dst = cpu;
        let mut source = None;
        let mut designated = true;
        // redo: a source whose every task was pinned leaves env.cpus, and the search starts again.
        let outcome = loop {
            let balancer = self.balancing_cpu_612(cpu, &doms[level], &env_cpus, idle);
            if balancer != Some(cpu) {
                designated = false;
                d.outcome = match balancer {
                    Some(other) => Recorded::NotDesignated { balance_cpu: other },
                    // Newly idle with work back, or outside the pass: nothing worth a record.
                    None => Recorded::NoBusiestQueue,
                };
                break Outcome::Balanced { go_on: false };
            }
            let Some((src, migration, imbalance)) = self.find_src_612(cpu, doms, level, idle, &env_cpus, &mut d) else {
                counters.lb_nobusyg += 1;
                break Outcome::Balanced { go_on: true };
            };
            let Some(src) = src else {
                counters.lb_nobusyq += 1;
                d.outcome = Recorded::NoBusiestQueue;
                break Outcome::Balanced { go_on: true };
            };
            counters.lb_imbalance += imbalance as u64;
            flags = Flags { all_pinned: true, ..Flags::default() };
            let mut src_env = Source { cpu: src, migration, imbalance };
            d.busiest_cpu = Some(src);
            d.outcome = Recorded::NothingMoved { from: src, why: crate::balance::decision::Why::SingleTask };
            if self.core.rqs[src.idx()].nr_running() > 1 {
                self.detach_pass(
                    &mut src_env,
                    &mut dst,
                    &doms[level],
                    idle,
                    &dst_grpmask,
                    &mut env_cpus,
                    &mut flags,
                    &mut d,
                );
                if let Some(pg) = parent_group {
                    if flags.some_pinned && src_env.imbalance > 0 {
                        self.fair.gen612.set_sgc_imbalance(pg, true);
                    }
                }
                if flags.all_pinned {
                    env_cpus.clear(src);
                    if !env_cpus.is_subset_of(&dst_grpmask) {
                        continue;
                    }
                    source = Some(src_env);
                    break Outcome::AllPinned;
                }
            }
            source = Some(src_env);
            break Outcome::Ran;
        };
        let moved = match &d.outcome {
            Recorded::Moved { tasks, .. } => tasks.len() as u32,
            _ => 0,
        };
        let sd = &mut doms[level];
        let go_on = match outcome {
            Outcome::Balanced { go_on } => {
                if let Some(pg) = parent_group.filter(|_| !flags.all_pinned) {
                    self.fair.gen612.set_sgc_imbalance(pg, false);
                }
                counters.lb_balanced += 1;
                sd.nr_balance_failed = 0;
                self.back_off(sd, idle, None, flags);
                go_on
            }
            Outcome::AllPinned => {
                counters.lb_balanced += 1;
                sd.nr_balance_failed = 0;
                self.back_off(sd, idle, source.as_ref().map(|s| s.migration), flags);
                true
            }
            Outcome::Ran => {
                let s = source.expect("a pass that ran has a source");
                if moved > 0 {
                    sd.nr_balance_failed = 0;
                    sd.balance_interval_ms = sd.min_interval_ms;
                } else {
                    counters.lb_failed += 1;
                    if self.failed_pass(cpu, sd, idle, &s, &mut flags) {
                        d.outcome = Recorded::ActiveBalance { from: s.cpu };
                    }
                }
                true
            }
        };
        counters.lb_gained += u64::from(moved);
        doms[level].schedstat.add_pass(idle, &counters);
        // Every pass counts as a decision, as 4.1's do; the balancing CPU's are traced (the timeline's
        // decision marks). A pass that did not take part (newly idle with work back) is not kept.
        self.fair.gen612.decisions_total += 1;
        if designated {
            self.core.trace.emit(self.core.now, cpu, TraceKind::Balance { level: level as u8, moved });
        }
        if designated || matches!(d.outcome, Recorded::NotDesignated { .. }) {
            self.fair.lb.keep_decision(d);
        } else {
            self.fair.lb.give_back_groups(d.groups);
        }
        (moved, go_on)
    }

    /// The record a pass starts with: no groups yet, balanced for want of a busiest group.
    fn new_decision(&mut self, cpu: CpuId, sd: &SchedDomain, idle: IdleType) -> BalanceDecision {
        BalanceDecision {
            at: self.core.now,
            cpu,
            level: sd.kind,
            idle,
            groups: self.fair.lb.groups_storage(sd.groups.len()),
            busiest_group: None,
            domain_avg_load: 0,
            imbalance: 0,
            migration: None,
            busiest_cpu: None,
            outcome: Recorded::Balanced { why: crate::balance::decision::Why::NoGroupToGive },
        }
    }

    /// No task moved: count the failure and, if the imbalance is of tasks and
    /// the domain has failed often enough, ask the source's stopper to push
    /// its running task here; then the interval (reset unless a push is under way).
    /// True if the stopper was asked.
    fn failed_pass(&mut self, cpu: CpuId, sd: &mut SchedDomain, idle: IdleType, s: &Source, flags: &mut Flags) -> bool {
        if idle != IdleType::NewlyIdle && s.migration != MigrationType::Misfit {
            sd.nr_balance_failed += 1;
        }
        let mut active = false;
        if need_active_balance(sd, s.migration) {
            let curr_allows =
                self.core.rqs[s.cpu.idx()].curr().is_none_or(|p| self.core.tasks[p.idx()].allowed.test(cpu));
            if !curr_allows {
                // out_one_pinned: no reset of the failures, and the back-off.
                self.back_off(sd, idle, Some(s.migration), *flags);
                return false;
            }
            flags.all_pinned = false;
            if !self.core.rqs[s.cpu.idx()].active_balance {
                self.core.rqs[s.cpu.idx()].active_balance = true;
                self.core.stop_one_cpu_nowait(s.cpu, StopWork::ActiveBalance { target: cpu });
                active = true;
            }
        }
        if !active || need_active_balance(sd, s.migration) {
            sd.balance_interval_ms = sd.min_interval_ms;
        }
        active
    }

    /// `out_one_pinned`'s back-off: a periodic pass that found nothing to do
    /// doubles the domain's interval, up to its maximum (an all-pinned one up
    /// to MAX_PINNED_INTERVAL).
    fn back_off(&self, sd: &mut SchedDomain, idle: IdleType, migration: Option<MigrationType>, flags: Flags) {
        if idle == IdleType::NewlyIdle || migration == Some(MigrationType::Misfit) {
            return;
        }
        if (flags.all_pinned && sd.balance_interval_ms < MAX_PINNED_INTERVAL)
            || sd.balance_interval_ms < sd.max_interval_ms
        {
            sd.balance_interval_ms *= 2;
        }
    }

    /// `should_we_balance` on the machine as it stands: the CPU it lets balance.
    fn balancing_cpu_612(&self, cpu: CpuId, sd: &SchedDomain, env_cpus: &CpuMask, idle: IdleType) -> Option<CpuId> {
        let local = &sd.groups[0];
        let balance_mask = local.balance_mask.and(&local.span);
        let env = BalanceEnv {
            dst: cpu,
            env_cpus,
            balance_mask: &balance_mask,
            group_balance_cpu: balance_mask.first().unwrap_or(cpu),
            newly_idle: idle == IdleType::NewlyIdle,
            dst_has_work: self.core.rqs[cpu.idx()].nr_running() > 0,
            smt_domain: sd.flags.share_cpucapacity,
        };
        balancing_cpu(&env, |c| self.available_idle_cpu(c), |c| self.smt_mask(c).clone())
    }

    /// What `update_sg_lb_stats` reads of one CPU.
    fn cpu_sample(&self, c: CpuId) -> CpuSample {
        let st = &self.fair.gen612;
        let avg = &st.rq_avgs[st.rq_ix(0, c)].avg;
        let rq = &self.core.rqs[c.idx()];
        CpuSample {
            load: avg.load_avg,
            // cpu_util_cfs: util_avg, or the estimate if larger (UTIL_EST), capped at the CPU's capacity.
            util: avg.util_avg.max(u64::from(avg.util_est)).min(SCHED_CAPACITY_SCALE),
            runnable: avg.runnable_avg,
            h_nr_queued: rq.cfs.h_nr_running,
            nr_running: rq.nr_running(),
            idle: self.available_idle_cpu(c),
        }
    }

    /// `sched_balance_find_src_group` then `sched_balance_find_src_rq`: None
    /// if the domain is balanced; else the source CPU (None if no runqueue
    /// of the busiest group will do), the migration type and the imbalance.
    #[allow(clippy::type_complexity)]
    fn find_src_612(
        &mut self,
        cpu: CpuId,
        doms: &[SchedDomain],
        level: usize,
        idle: IdleType,
        env_cpus: &CpuMask,
        d: &mut BalanceDecision,
    ) -> Option<(Option<CpuId>, MigrationType, i64)> {
        let sd = &doms[level];
        d.groups.clear();
        let dst_idle = idle != IdleType::NotIdle;
        let smt_groups = level > 0 && doms[level - 1].flags.share_cpucapacity;
        let mut local = SgLbStats::default();
        let mut busiest: Option<(usize, SgLbStats, GroupFacts)> = None;
        let mut overloaded = false;
        let (mut total_load, mut total_capacity, mut sum_util) = (0u64, 0u64, 0u64);
        let mut cores = Vec::with_capacity(sd.groups.len());
        for (gi, g) in sd.groups.iter().enumerate() {
            let span = g.span.and(env_cpus);
            let samples: Vec<CpuSample> = span.iter().map(|c| self.cpu_sample(c)).collect();
            let loads = samples.iter().map(|s| s.load);
            let facts = GroupFacts {
                capacity: SCHED_CAPACITY_SCALE * u64::from(g.span.and(&self.core.online).weight()),
                weight: g.span.weight(),
                smt: smt_groups,
                sgc_imbalance: self.fair.gen612.sgc_imbalance(g.id),
            };
            cores.push(self.cores_of(&g.span));
            let is_local = gi == 0;
            let (sgs, ovl) = update_sg_lb_stats(&samples, &facts, is_local, dst_idle, u64::from(sd.imbalance_pct));
            d.groups.push(record::group_stats(&g.span, is_local, &sgs, loads));
            overloaded |= ovl;
            if is_local {
                local = sgs;
            } else {
                let (bs, bf) = match &busiest {
                    Some((_, s, f)) => (*s, Some(f)),
                    None => (SgLbStats::no_busiest(), None),
                };
                if update_sd_pick_busiest(&sgs, &facts, &bs, bf) {
                    busiest = Some((gi, sgs, facts));
                }
            }
            total_load += sgs.group_load;
            total_capacity += sgs.group_capacity;
            sum_util += sgs.group_util;
        }
        if level + 1 == doms.len() {
            // The root domain's overload flag follows its top-level passes.
            self.fair.gen612.rd_overloaded = overloaded;
        }
        self.update_idle_cpu_scan(cpu, sd, idle, sum_util);
        let view = DomainView {
            imbalance_pct: u64::from(sd.imbalance_pct),
            share_llc: sd.flags.share_pkg_resources,
            numa: sd.flags.numa,
            imb_numa_nr: self.fair.gen612.imb_numa_nr(cpu, level),
            prefer_sibling: level > 0 && doms[level - 1].flags.prefer_sibling,
            total_load,
            total_capacity,
            busiest_cores: busiest.as_ref().map_or(0, |(gi, _, _)| cores[*gi]),
            local_cores: cores[0],
            local_smt: smt_groups,
            busiest_smt: smt_groups,
            dst_idle,
        };
        let (bgi, bstats) = match &busiest {
            Some((gi, s, _)) => (Some(*gi), Some(*s)),
            None => (None, None),
        };
        d.busiest_group = bgi;
        d.domain_avg_load = domain_avg_load(&view);
        let verdict = find_src_group_verdict(&view, &mut local, bstats.as_ref());
        // calculate_imbalance may have worked out the local group's avg_load.
        d.groups[0].avg_load = local.avg_load;
        let (migration, amount) = match verdict {
            Verdict::Imbalance { migration, amount } => (migration, amount),
            Verdict::Balanced(b) => {
                let span = bgi.map(|gi| &sd.groups[gi].span);
                let why = record::why_balanced(b, &local, bstats.as_ref(), span, d.domain_avg_load, view.imbalance_pct);
                d.outcome = Recorded::Balanced { why };
                return None;
            }
        };
        d.imbalance = amount;
        d.migration = Some(record::migration(migration));
        let group = &sd.groups[bgi.expect("an imbalance has a busiest group")];
        let cpus: Vec<CpuId> = group.span.iter_and(env_cpus).collect();
        let samples: Vec<RqSample> = cpus
            .iter()
            .map(|&c| {
                let s = self.cpu_sample(c);
                // cpu_util_cfs_boost: the runnable signal counts too, so a CPU whose tasks wait looks busier.
                let util = s.util.max(s.runnable).min(SCHED_CAPACITY_SCALE);
                RqSample {
                    h_nr_queued: s.h_nr_queued,
                    load: s.load,
                    util,
                    capacity: SCHED_CAPACITY_SCALE,
                    misfit_task_load: 0,
                }
            })
            .collect();
        let src = find_src_rq(&samples, migration, amount).map(|i| cpus[i]);
        Some((src, migration, amount as i64))
    }

    /// `sched_group::cores`: the distinct SMT cores of a group's span.
    fn cores_of(&self, span: &CpuMask) -> i64 {
        let mut left = span.clone();
        let mut cores = 0;
        while let Some(c) = left.first() {
            cores += 1;
            left = left.and_not(self.smt_mask(c));
            left.clear(c);
        }
        cores
    }

    /// `detach_tasks` and `attach_tasks` against the source, with the breather
    /// (LBF_NEED_BREAK) and the retry toward another CPU of the local group
    /// for tasks pinned away from this one (LBF_DST_PINNED). Returns the tasks moved.
    #[allow(clippy::too_many_arguments)]
    fn detach_pass(
        &mut self,
        s: &mut Source,
        dst: &mut CpuId,
        sd: &SchedDomain,
        idle: IdleType,
        dst_grpmask: &CpuMask,
        env_cpus: &mut CpuMask,
        flags: &mut Flags,
        d: &mut BalanceDecision,
    ) {
        let nr = self.core.rqs[s.cpu.idx()].nr_running();
        // Debian builds 6.12 with CONFIG_PREEMPTION (PREEMPT_DYNAMIC): a newly idle pass takes one task.
        let mut env = DetachEnv::new(idle, s.migration, s.imbalance, sd.nr_balance_failed, nr);
        let cause = if idle == IdleType::NewlyIdle { MigrateCause::NewIdle } else { MigrateCause::Balance };
        let mut moved = self.fair.lb.pids_storage();
        loop {
            let mut list: Vec<Candidate> = self.core.rqs[s.cpu.idx()]
                .cfs_tasks
                .iter()
                .map(|&p| Candidate { pid: p.0, h_load: 0, util_est: 0, fits_src_cpu: true })
                .collect();
            let nr = self.core.rqs[s.cpu.idx()].nr_running();
            let (src, to, migration) = (s.cpu, *dst, s.migration);
            let mut allowed = 0u32;
            let taken = detach_tasks(&mut env, &mut list, nr, |probe| match probe {
                Probe::CanMigrate(c) => {
                    let pid = Pid(c.pid);
                    if !self.can_migrate_task_612(pid, src, to, sd, idle, dst_grpmask, env_cpus, flags) {
                        return false;
                    }
                    // Read only for the type that weighs it: task_h_load caches per jiffy.
                    match migration {
                        MigrationType::Load => c.h_load = self.task_h_load_612(pid),
                        MigrationType::Util => {
                            let ix = self.fair.gen612.ensure_task(pid);
                            c.util_est = task_util_est(&self.fair.gen612.avgs[ix]);
                        }
                        MigrationType::Task | MigrationType::Misfit => {}
                    }
                    allowed += 1;
                    true
                }
                Probe::Detach(c) => {
                    self.sched().move_queued_task(Pid(c.pid), to, cause);
                    true
                }
            });
            flags.skips.over_imbalance += allowed - taken.len() as u32;
            moved.extend(taken.iter().map(|c| Pid(c.pid)));
            // The walk's order of the source's list is the kernel's list after it.
            let rq = &mut self.core.rqs[s.cpu.idx()];
            rq.cfs_tasks = list.iter().map(|c| Pid(c.pid)).collect();
            if env.need_break {
                env.need_break = false;
                continue;
            }
            match flags.dst_pinned.take() {
                Some(other) if env.imbalance > 0 => {
                    env_cpus.clear(*dst);
                    *dst = other;
                    env.loop_count = 0;
                    env.loop_break = super::detach::NR_MIGRATE_BREAK;
                }
                _ => break,
            }
        }
        s.imbalance = env.imbalance;
        d.outcome = if moved.is_empty() {
            self.fair.lb.give_back_pids(moved);
            Recorded::NothingMoved { from: s.cpu, why: flags.skips.why() }
        } else {
            Recorded::Moved { tasks: moved, from: s.cpu }
        };
    }

    /// `can_migrate_task`: not when the destination is outside the task's
    /// affinity (noting another CPU of the local group that is in it), not
    /// while it runs, and not while cache-hot unless the domain has failed
    /// more than `cache_nice_tries` times.
    #[allow(clippy::too_many_arguments)]
    fn can_migrate_task_612(
        &mut self,
        pid: Pid,
        src: CpuId,
        dst: CpuId,
        sd: &SchedDomain,
        idle: IdleType,
        dst_grpmask: &CpuMask,
        env_cpus: &CpuMask,
        flags: &mut Flags,
    ) -> bool {
        let allowed = &self.core.tasks[pid.idx()].allowed;
        if !allowed.test(dst) {
            flags.some_pinned = true;
            flags.skips.pinned += 1;
            if idle == IdleType::NewlyIdle || flags.dst_pinned.is_some() {
                return false;
            }
            flags.dst_pinned = dst_grpmask.iter_and(env_cpus).find(|&c| allowed.test(c));
            return false;
        }
        flags.all_pinned = false;
        if self.core.rqs[src.idx()].curr_task == Some(pid) {
            flags.skips.running += 1;
            return false;
        }
        if self.task_hot_612(pid, src, dst, sd) && sd.nr_balance_failed <= sd.cache_nice_tries {
            flags.skips.hot += 1;
            return false;
        }
        true
    }

    /// `task_hot`: never across SMT siblings; the destination's next buddy
    /// when it has work (CACHE_HOT_BUDDY); else run within the migration cost.
    fn task_hot_612(&mut self, pid: Pid, src: CpuId, dst: CpuId, sd: &SchedDomain) -> bool {
        // A SCHED_IDLE task is never cache-hot (fair.c 9378), nor are SMT siblings' caches apart.
        if self.core.tasks[pid.idx()].policy == SchedPolicy::Idle || sd.flags.share_cpucapacity {
            return false;
        }
        let tg = self.core.tasks[pid.idx()].tg;
        let st = &mut self.fair.gen612;
        let ix = st.ensure_task(pid);
        if self.core.rqs[dst.idx()].nr_running() > 0 && st.next[st.rq_ix(tg, src)] == Some(ix) {
            return true;
        }
        let cost = self.fair.tunables.migration_cost_ns;
        if cost == 0 {
            return false;
        }
        let delta = self.core.now.ns() as i64 - self.core.tasks[pid.idx()].se.exec_start.ns() as i64;
        delta < cost as i64
    }
}

/// How a pass ended.
enum Outcome {
    /// `out_balanced` (with whether the domains above are still to be balanced).
    Balanced { go_on: bool },
    /// `out_all_pinned`.
    AllPinned,
    /// Tasks were looked at: moved, or the pass failed.
    Ran,
}

/// `need_active_balance` on a machine of one capacity and no CPU
/// priorities: a task imbalance the domain failed to fix more than
/// `cache_nice_tries + 2` times, or a misfit.
fn need_active_balance(sd: &SchedDomain, migration: MigrationType) -> bool {
    (migration == MigrationType::Task && sd.nr_balance_failed > sd.cache_nice_tries + 2)
        || migration == MigrationType::Misfit
}

//! Linux 4.1's generation of the fair class: its load tracking over the
//! group hierarchy (`load.rs`, `h_load.rs`, `shares.rs`, over the one-level
//! arithmetic of `sched::linux41`), and its balancer over the machine state:
//! periodic balancing from the tick, newly-idle balancing, the NOHZ idle
//! balancer, the stopper's push, and wakeup and fork placement. The fair
//! class reaches it through `FairGeneration`; the pure parts the balancer
//! drives — group statistics, the busiest-group search, decision and
//! placement records — are in `balance`, the counters in
//! `topology::schedstat`. The `cpu_load[]` history the balancer reads is the
//! core's (`sim/kernel/cpu_load.rs`): 4.1's tick folds it for every class.
//!
//! ```text
//!   enqueue / dequeue / tick ─► load.rs, shares.rs (PELT, update_cfs_shares)
//!   tick ─► trigger_load_balance ─► rebalance_domains ─► load_balance(sd)   (load_balance.rs)
//!   about to idle ─► idle_balance                                          (idle_balance.rs)
//!   busy tick ─► nohz kick ─► nohz_idle_balance for the idle CPUs           (nohz.rs)
//!   load_balance failing ─► stopper ─► active_load_balance_cpu_stop         (active_balance.rs)
//!   wakeup / fork ─► select_task_rq_fair                                    (placement.rs)
//! ```

mod active_balance;
mod detach;
mod h_load;
#[cfg(test)]
mod h_load_test;
// Native only: the wasm build places forks by the scan (placement.rs says why).
#[cfg(not(target_arch = "wasm32"))]
mod group_loads;
mod idle_balance;
mod load;
mod load_balance;
mod nohz;
mod placement;
mod shares;
mod wake_affine;

use crate::balance::decision::BalanceDecision;
use crate::balance::placement::PlaceKind;
use crate::balance::placement::Placement;
use crate::balance::stats::CpuLoad;
use crate::sched::entity::{ent_pid, EntId};
use crate::sched::fair::{self, FairStrategy};
use crate::sched::linux41::pelt::SchedAvg;
use crate::sim::class::Balance;
use crate::sim::fair::cx::FairCx;
use crate::sim::fair::generation::FairGeneration;
use crate::time::{CpuId, Pid};
use std::collections::VecDeque;

/// Linux 4.1's balancer and placement, as the fair class's generation.
#[derive(Debug)]
pub(crate) struct Linux41;
pub(crate) static LINUX41: Linux41 = Linux41;

impl FairGeneration for Linux41 {
    fn balance(&self, cx: &mut FairCx<'_>, cpu: CpuId, why: Balance) -> bool {
        match why {
            Balance::Tick => {
                cx.trigger_load_balance(cpu);
                false
            }
            Balance::NewlyIdle => cx.idle_balance(cpu),
            Balance::NohzKick => {
                cx.nohz_idle_balance(cpu);
                false
            }
            Balance::Stopper { target } => {
                cx.active_balance(cpu, target);
                false
            }
        }
    }

    fn select_task_rq(&self, cx: &mut FairCx<'_>, pid: Pid, waker: CpuId, kind: PlaceKind) -> CpuId {
        cx.select_task_rq_fair(pid, waker, kind)
    }

    /// 4.1's NOHZ idle balancer stands in for the idle CPUs' own ticks.
    fn stops_idle_tick(&self, nohz: bool) -> bool {
        nohz
    }

    fn tick_stopped(&self, cx: &mut FairCx<'_>, cpu: CpuId) {
        cx.nohz_balance_enter_idle(cpu);
    }

    /// `init_task_runnable_average`: a new task's load starts at its weight
    /// over its first slice.
    fn new_task_load(&self, cx: &mut FairCx<'_>, tg: u32, cpu: CpuId, id: EntId) {
        let slice = fair::sched_slice(cx.cfs_of(tg, cpu), cx.ent(id), &cx.fair.tunables);
        let now = cx.core.now;
        let se = &mut cx.core.tasks[ent_pid(id).idx()].se;
        se.avg = SchedAvg::new_task(slice, se.weight, now);
    }

    fn enqueue_load(&self, cx: &mut FairCx<'_>, tg: u32, cpu: CpuId, id: EntId, wakeup: bool) {
        cx.enqueue_entity_load_avg(tg, cpu, id, wakeup);
    }

    fn dequeue_load(&self, cx: &mut FairCx<'_>, tg: u32, cpu: CpuId, id: EntId, sleep: bool) {
        cx.dequeue_entity_load_avg(tg, cpu, id, sleep);
    }

    fn refresh_load(&self, cx: &mut FairCx<'_>, tg: u32, cpu: CpuId, id: EntId) {
        cx.update_entity_load_avg(tg, cpu, id, true);
    }

    /// `entity_tick`: the entity's load, then its runqueue's blocked load, forced.
    fn tick_load(&self, cx: &mut FairCx<'_>, tg: u32, cpu: CpuId, id: EntId) {
        cx.update_entity_load_avg(tg, cpu, id, true);
        cx.update_cfs_rq_blocked_load(tg, cpu, true);
    }

    fn update_group_shares(&self, cx: &mut FairCx<'_>, st: FairStrategy, tg: u32, cpu: CpuId) {
        cx.update_cfs_shares(st, tg, cpu);
    }

    fn leaf_cfs_rq_queued(&self, cx: &mut FairCx<'_>, tg: u32, cpu: CpuId) {
        cx.list_add_leaf_cfs_rq(tg, cpu);
    }

    fn migrate_load(&self, cx: &mut FairCx<'_>, pid: Pid, from: CpuId) {
        cx.migrate_task_load(pid, from);
    }

    fn switched_from_load(&self, cx: &mut FairCx<'_>, pid: Pid) {
        cx.switched_from_fair_load(pid);
    }

    fn exit(&self, cx: &mut FairCx<'_>) {
        for rq in &mut cx.core.rqs {
            rq.active_balance = false;
            rq.nohz_kicked = false;
        }
    }
}

/// Spare group-statistics vectors kept for reuse (passes at different
/// levels want different sizes; a few of each are enough).
const SPARE_GROUPS: usize = 16;
/// Spare moved-pid vectors kept for reuse: a pass takes one and an evicted
/// record gives one back, so a few cover the passes between evictions.
const SPARE_PIDS: usize = 16;

impl LbState {
    /// The domains were (re)built with `groups` group ids: a rebuild attaches
    /// a new root domain, whose overload flag starts clear; new domains count
    /// every CPU busy in its `sd_busy` group until it next enters idle
    /// (`nr_busy_cpus` starts at the group's weight).
    pub(crate) fn domains_rebuilt(&mut self, groups: usize) {
        self.sgc_imbalance = vec![false; groups];
        self.rd_overload = false;
        self.nohz_sd_idle = crate::topology::cpumask::CpuMask::new();
        // The fork walk's kept group sums start afresh for the new groups (the next fork counts them): kept
        // across rebuilds, every span a hotplug history ever made would hold its slot and be summed at
        // each sync. Only the native fork walk keeps them.
        #[cfg(not(target_arch = "wasm32"))]
        {
            self.group_loads = Default::default();
        }
    }

    /// Keeps a balancing decision for the inspector, evicting the oldest past
    /// `crate::sim::DECISION_LOG` records or `DECISION_GROUPS` group statistics.
    pub(crate) fn record_decision(&mut self, d: BalanceDecision) {
        self.keep_decision(d);
        self.decisions_total += 1;
    }

    /// Keeps a decision without counting it (6.12 counts its passes itself,
    /// the ones it does not record too).
    pub(crate) fn keep_decision(&mut self, d: BalanceDecision) {
        let lb = self;
        lb.decisions_kept += 1;
        lb.decision_groups += d.groups.len();
        while lb.decisions.len() == crate::sim::DECISION_LOG
            || (lb.decision_groups > crate::sim::DECISION_GROUPS && !lb.decisions.is_empty())
        {
            let old = lb.decisions.pop_front().expect("not empty");
            lb.decision_groups -= old.groups.len();
            // The next passes fill the evicted record's storage instead of allocating.
            lb.give_back_groups(old.groups);
            if let crate::balance::decision::Outcome::Moved { tasks, .. } = old.outcome {
                lb.give_back_pids(tasks);
            }
        }
        lb.decisions.push_back(d);
    }

    /// An empty vector for a pass over `n` groups: a spare one that holds
    /// them without holding much more (the decision keeps it), else a new one.
    /// A new one is made for a power of two of groups, at least 8: the small
    /// levels' vectors (SMT, MC, a few NUMA groups) are then interchangeable,
    /// so an evicted decision's vector serves whichever pass comes next
    /// instead of being freed while another is allocated (about 30
    /// instructions an event on group-imbalance-make).
    pub(crate) fn groups_storage(&mut self, n: usize) -> Vec<crate::balance::decision::GroupStats> {
        match self.spare_groups.iter().position(|v| v.capacity() >= n && v.capacity() <= 2 * n + 8) {
            Some(i) => self.spare_groups.swap_remove(i),
            None => Vec::with_capacity(n.next_power_of_two().max(8)),
        }
    }

    /// Keeps an evicted or unused vector for a later pass.
    pub(crate) fn give_back_groups(&mut self, mut v: Vec<crate::balance::decision::GroupStats>) {
        if self.spare_groups.len() < SPARE_GROUPS && v.capacity() > 0 {
            v.clear();
            self.spare_groups.push(v);
        }
    }

    /// The mask a new placement record fills: the oldest record's once the
    /// log is full (its storage reused, no allocation per wakeup), else a new one.
    pub(crate) fn placement_mask(&mut self) -> crate::topology::cpumask::CpuMask {
        match self.placements.len() {
            crate::balance::placement::PLACEMENT_LOG => {
                self.placements.pop_front().map(|p| p.considered).unwrap_or_default()
            }
            _ => crate::topology::cpumask::CpuMask::new(),
        }
    }

    /// Keeps a placement for the inspector, the oldest evicted past `PLACEMENT_LOG`.
    pub(crate) fn record_placement(&mut self, p: crate::balance::placement::Placement) {
        if self.placements.len() == crate::balance::placement::PLACEMENT_LOG {
            self.placements.pop_front();
        }
        self.placements.push_back(p);
    }

    /// An empty vector for the pids a pass moves: an evicted record's, else a new one.
    pub(crate) fn pids_storage(&mut self) -> Vec<Pid> {
        self.spare_pids.pop().unwrap_or_default()
    }

    /// Keeps a moved-pids vector (an evicted record's, or a pass's that moved
    /// nothing) for a later pass.
    pub(crate) fn give_back_pids(&mut self, mut v: Vec<Pid>) {
        if self.spare_pids.len() < SPARE_PIDS && v.capacity() > 0 {
            v.clear();
            self.spare_pids.push(v);
        }
    }
}

/// The balancer's machine-wide state and its records (its per-CPU state is
/// in each `Rq` and its domains, as the kernel keeps it in `struct rq`).
#[derive(Clone, Debug, Default)]
pub(crate) struct LbState {
    /// `sched_group_capacity::imbalance`, by group id.
    pub sgc_imbalance: Vec<bool>,
    /// `rd->overload`: set when a runqueue reaches two tasks, cleared only by a
    /// root-domain `find_busiest_group` that finds none with more than one.
    pub rd_overload: bool,
    /// The most recent balancing decisions (`DECISION_LOG`, `DECISION_GROUPS`).
    pub decisions: VecDeque<BalanceDecision>,
    pub decisions_total: u64,
    /// Decisions kept over the run (with the evicted ones): the timeline finds new records by it.
    pub decisions_kept: u64,
    /// Group statistics held by the kept decisions (bounded by DECISION_GROUPS).
    pub decision_groups: usize,
    /// The most recent wakeup and fork placements (`PLACEMENT_LOG`).
    pub placements: VecDeque<Placement>,
    /// Reused by balancing passes: per-CPU loads (only the pass's CPUs fresh).
    pub cpu_load_buf: Vec<CpuLoad>,
    /// Storage of evicted decisions' group statistics, for the next passes
    /// (at most SPARE_GROUPS vectors, empty).
    pub spare_groups: Vec<Vec<crate::balance::decision::GroupStats>>,
    /// Storage of evicted decisions' moved pids, for the next passes (at
    /// most SPARE_PIDS vectors, empty).
    pub spare_pids: Vec<Vec<Pid>>,
    /// Reused by balancing passes: the candidate CPUs (env->cpus).
    pub env_buf: crate::topology::cpumask::CpuMask,
    /// The CPUs a pass reads loads of (its domain's groups), reused likewise.
    pub read_buf: crate::topology::cpumask::CpuMask,
    /// Reused by balancing passes: the busiest-group search's buffers.
    pub search: crate::balance::search::BusiestSearch,
    /// `nohz.next_balance` (jiffies): no kick before it. A kick moves it on by
    /// one; the idle load balancer sets it to the earliest balance due among
    /// the idle CPUs it went through (0 at boot).
    pub nohz_next_balance: u64,
    /// `nohz.idle_cpus_mask`: the CPUs that stopped their tick on entering
    /// idle, each until its first busy tick after (or until it goes offline).
    pub nohz_idle_cpus: crate::topology::cpumask::CpuMask,
    /// Each CPU's `sd_busy->nohz_idle`: set on entering idle, cleared at the
    /// first busy tick after; a group's `nr_busy_cpus` is its CPUs without
    /// it. A (re)built domain starts with every CPU counted busy.
    pub nohz_sd_idle: crate::topology::cpumask::CpuMask,
    /// Fork placement's per-group loads, kept up to date from marks.
    #[cfg(not(target_arch = "wasm32"))]
    pub group_loads: group_loads::GroupLoads,
}

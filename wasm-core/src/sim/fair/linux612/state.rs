//! The 6.12 fair class's own state beside the shared hierarchy
//! (`FairState`'s task groups, group entities and group runqueues): what
//! 6.12's `struct sched_entity` and `struct cfs_rq` hold that 4.1's do not —
//! EEVDF's per-entity fields and per-runqueue sums with its deadline-ordered
//! queue, the three-signal load tracking, the next buddy — kept in flat
//! arrays of the room's own.
//!
//! The shared `CfsRq` of each level still carries the counts every class and
//! view reads (`nr_running`, `h_nr_running`, `load_weight`, `curr`); its
//! vruntime tree stays empty under 6.12, whose queue is `EevdfRq::timeline`.
//!
//! ```text
//!   entities: [ group entity 0 … G−1 | task pid 0, 1, … ]     (ent_ix)
//!   runqueues: [ root of CPU 0 … n−1 | group 1 on CPU 0 … ]  (rq_ix = tg·n + cpu)
//! ```

use super::eevdf::{inv_weight_of, EevdfRq, Entity, Features};
use super::idle_sibling::LlcShared;
use super::load_avg::{init_entity_runnable_average, CfsRqAvg};
use super::newidle::NewidleStats;
use super::nohz::Nohz;
use super::pelt::SchedAvg;
use crate::rng::Rng;
use crate::sched::entity::{ent_pid, group_ent_id, group_index, is_group, task_ent_id, EntId};
use crate::time::{CpuId, Pid};
use crate::topology::cpumask::CpuMask;
use crate::topology::domains::SchedDomain;

#[derive(Clone, Debug)]
pub(crate) struct State612 {
    /// EEVDF's fields of each entity (`ent_ix`).
    pub(crate) ents: Vec<Entity>,
    /// Each entity's load tracking.
    pub(crate) avgs: Vec<SchedAvg>,
    /// A group entity's `runnable_weight`: its runqueue's queued tasks at its
    /// last enqueue, dequeue or update (`se_update_runnable`).
    pub(crate) runnable_weight: Vec<u64>,
    /// Each runqueue's EEVDF sums and queue (`rq_ix`).
    pub(crate) rqs: Vec<EevdfRq>,
    /// Each runqueue's load tracking.
    pub(crate) rq_avgs: Vec<CfsRqAvg>,
    /// Each runqueue's `h_nr_delayed`: tasks in its hierarchy asleep but kept
    /// queued by DELAY_DEQUEUE (the shared `h_nr_running` is 6.12's
    /// `h_nr_queued`, which counts them; `h_nr_runnable` is the difference).
    pub(crate) h_nr_delayed: Vec<u32>,
    /// Each runqueue's next buddy (`cfs_rq->next`).
    pub(crate) next: Vec<Option<usize>>,
    /// The entity each runqueue put back as the core rescheduled, so that
    /// the pick that follows sees it as the kernel's pick sees its curr
    /// (the kernel picks before it puts the previous task back).
    pub(crate) put_back: Vec<Option<usize>>,
    /// Each runqueue's hierarchical load (`h_load`) and the jiffy it was computed.
    pub(crate) h_load: Vec<u64>,
    pub(crate) last_h_load_update: Vec<Option<u64>>,
    /// Each LLC's shared state, by its first CPU (`sd_llc_shared`).
    pub(crate) llc_shared: Vec<LlcShared>,
    /// Each task's `recent_used_cpu`, by pid.
    pub(crate) recent_used_cpu: Vec<CpuId>,
    /// Each group runqueue is on its CPU's leaf list (has had load not yet decayed).
    pub(crate) on_list: Vec<bool>,
    /// Each CPU's domains' newly-idle statistics, lowest first.
    pub(crate) newidle: Vec<Vec<NewidleStats>>,
    /// Each CPU's domains' NUMA allowance (`imb_numa_nr`), lowest first.
    pub(crate) imb_numa: Vec<Vec<u32>>,
    /// `sgc->imbalance` by group id.
    pub(crate) sgc_imbalance: Vec<bool>,
    /// NI_RANDOM's die (`sched_rng`), a stream of its own so that a 6.12 run
    /// draws the workload's random numbers as a 4.1 run of it does.
    pub(crate) rng: Rng,
    /// Each CPU's SMT siblings (itself included), its LLC's first CPU, its
    /// LLC's span and level (`sd_llc`): read off the domains at each rebuild.
    pub(crate) smt: Vec<CpuMask>,
    pub(crate) llc_id: Vec<u32>,
    pub(crate) llc: Vec<Option<(usize, CpuMask)>>,
    /// `sched_smt_present`: some core has two threads online.
    pub(crate) smt_active: bool,
    /// Each CPU's domains' groups as the fork and exec slow path reads them
    /// (spans, capacities), built at each rebuild; their imbalance flags are read at use.
    pub(crate) dst_groups: Vec<Vec<Vec<super::find_dst_group::DstGroup>>>,
    /// Reused by the fork and exec slow path: every CPU as it reads them.
    pub(crate) wake_cpus: Vec<super::find_dst_group::WakeupCpu>,
    /// Balancing passes run (`sched_balance_rq`), as the report counts decisions.
    pub(crate) decisions_total: u64,
    /// Group entities (the arena's length at boot).
    pub(crate) groups: usize,
    /// CPUs.
    pub(crate) cpus: usize,
    pub(crate) features: Features,
    /// `rd->overloaded`: some runqueue has held two tasks since the root
    /// domain was last balanced.
    pub(crate) rd_overloaded: bool,
    /// The NOHZ idle balancer's state (`nohz.rs`).
    pub(crate) nohz: Nohz,
}

impl Default for State612 {
    /// The empty state of a run of another generation.
    fn default() -> Self {
        State612::boot(std::iter::empty(), 0, 0, 0)
    }
}

impl State612 {
    /// The state for `groups` group entities (their weights given) over
    /// `cpus` CPUs and `tgs` task groups (the root included).
    pub(crate) fn boot(group_weights: impl Iterator<Item = u64>, cpus: usize, tgs: usize, seed: u64) -> State612 {
        let ents: Vec<Entity> =
            group_weights.map(|w| Entity { weight: w, inv_weight: inv_weight_of(w), ..Entity::default() }).collect();
        let groups = ents.len();
        let nrq = tgs * cpus;
        State612 {
            avgs: vec![init_entity_runnable_average(0, false); groups],
            runnable_weight: vec![0; groups],
            ents,
            rqs: vec![EevdfRq::default(); nrq],
            rq_avgs: vec![CfsRqAvg::default(); nrq],
            h_nr_delayed: vec![0; nrq],
            next: vec![None; nrq],
            put_back: vec![None; nrq],
            h_load: vec![0; nrq],
            last_h_load_update: vec![None; nrq],
            llc_shared: vec![LlcShared::default(); cpus],
            recent_used_cpu: Vec::new(),
            on_list: vec![false; nrq],
            newidle: Vec::new(),
            imb_numa: Vec::new(),
            sgc_imbalance: Vec::new(),
            rng: Rng::new(seed ^ 0x6120_6120),
            smt: Vec::new(),
            llc_id: Vec::new(),
            llc: Vec::new(),
            smt_active: false,
            wake_cpus: Vec::new(),
            dst_groups: Vec::new(),
            decisions_total: 0,
            groups,
            cpus,
            // As Debian's 6.12 ships them (features.h 58–59: DELAY_DEQUEUE and DELAY_ZERO on).
            features: Features::default(),
            rd_overloaded: false,
            nohz: Nohz::boot(cpus),
        }
    }

    /// An entity's index in the arrays.
    #[inline]
    pub(crate) fn ent_ix(&self, id: EntId) -> usize {
        if is_group(id) {
            group_index(id)
        } else {
            self.groups + ent_pid(id).idx()
        }
    }

    /// The entity at index `ix`.
    #[inline]
    pub(crate) fn ent_id(&self, ix: usize) -> EntId {
        if ix < self.groups {
            group_ent_id(ix)
        } else {
            task_ent_id(Pid((ix - self.groups) as u32))
        }
    }

    /// Group `tg`'s runqueue on `cpu` (group 0's is the CPU's root).
    #[inline]
    pub(crate) fn rq_ix(&self, tg: u32, cpu: CpuId) -> usize {
        tg as usize * self.cpus + cpu.idx()
    }

    /// Makes room for task `pid` (tasks are made as the run goes).
    pub(crate) fn ensure_task(&mut self, pid: Pid) -> usize {
        let ix = self.groups + pid.idx();
        if ix >= self.ents.len() {
            self.ents.resize(ix + 1, Entity::default());
            self.avgs.resize(ix + 1, SchedAvg::default());
            self.recent_used_cpu.resize(pid.idx() + 1, CpuId(0));
        }
        ix
    }

    /// `cfs_rq_min_slice`: the shortest request among the queued entities, the running one included.
    pub(crate) fn min_slice(&self, r: usize) -> u64 {
        let rq = &self.rqs[r];
        let curr = rq.curr.filter(|&c| self.ents[c].on_rq).map(|c| self.ents[c].slice);
        rq.timeline.iter().map(|&i| self.ents[i].slice).chain(curr).min().unwrap_or(u64::MAX)
    }
}

impl State612 {
    /// The domains were (re)built (`build_sched_domains`): each domain's
    /// newly-idle statistics start afresh (`sd_init`), its NUMA allowance is
    /// computed (`imb_numa_nr`), and the group capacities' imbalance flags
    /// are cleared for `groups` group ids.
    pub(crate) fn domains_rebuilt(
        &mut self,
        domains: &[&[SchedDomain]],
        online: &CpuMask,
        jiffies: u64,
        groups: usize,
    ) {
        self.newidle = domains.iter().map(|d| vec![NewidleStats::new(jiffies); d.len()]).collect();
        self.imb_numa = domains.iter().map(|d| imb_numa_nr_of(d)).collect();
        self.sgc_imbalance = vec![false; groups];
        self.smt = domains
            .iter()
            .enumerate()
            .map(|(c, d)| match d.first() {
                Some(sd) if sd.flags.share_cpucapacity => sd.span.clone(),
                _ => CpuMask::from_cpus([CpuId(c as u32)]),
            })
            .collect();
        self.llc = domains
            .iter()
            .map(|d| d.iter().rposition(|sd| sd.flags.share_pkg_resources).map(|l| (l, d[l].span.clone())))
            .collect();
        self.llc_id = self
            .llc
            .iter()
            .enumerate()
            .map(|(c, l)| l.as_ref().and_then(|(_, s)| s.first()).map_or(c as u32, |f| f.0))
            .collect();
        self.smt_active = self.smt.iter().any(|m| m.weight() > 1);
        self.dst_groups = domains.iter().map(|d| dst_groups_of(d, online)).collect();
        self.nohz.domains_rebuilt(&self.llc, &self.llc_id);
    }

    /// Domain `level` of `cpu`'s newly-idle statistics.
    pub(crate) fn newidle_stats(&mut self, cpu: CpuId, level: usize) -> &mut NewidleStats {
        &mut self.newidle[cpu.idx()][level]
    }

    /// `sd->imb_numa_nr` of `cpu`'s domain at `level`.
    pub(crate) fn imb_numa_nr(&self, cpu: CpuId, level: usize) -> u32 {
        self.imb_numa[cpu.idx()].get(level).copied().unwrap_or(0)
    }

    /// `sgc->imbalance` of group `id`.
    pub(crate) fn sgc_imbalance(&self, id: usize) -> bool {
        self.sgc_imbalance.get(id).copied().unwrap_or(false)
    }

    pub(crate) fn set_sgc_imbalance(&mut self, id: usize, v: bool) {
        if let Some(f) = self.sgc_imbalance.get_mut(id) {
            *f = v;
        }
    }
}

/// `imb_numa_nr` of one CPU's domains, lowest first (topology.c 2481–2513):
/// at the first domain above the LLC, the number of LLCs it spans (an eighth
/// of its CPUs if it spans one); above, that times how many of the first
/// NUMA domain's spans the domain covers.
fn imb_numa_nr_of(doms: &[SchedDomain]) -> Vec<u32> {
    let (mut imb, mut imb_span) = (0u32, 1u32);
    let mut out = Vec::with_capacity(doms.len());
    for (i, sd) in doms.iter().enumerate() {
        let child = i.checked_sub(1).map(|c| &doms[c]);
        let weight = sd.span.weight();
        match child {
            Some(c) if !sd.flags.share_pkg_resources && c.flags.share_pkg_resources => {
                let nr_llcs = weight / c.span.weight();
                imb = if nr_llcs == 1 { weight >> 3 } else { nr_llcs }.max(1);
                out.push(imb);
                imb_span = doms[i + 1..].iter().find(|p| p.flags.numa).map_or(weight, |p| p.span.weight());
            }
            _ => out.push(imb * (weight / imb_span).max(1)),
        }
    }
    out
}

/// One CPU's domains' groups as `find_dst_group` reads them: each group's
/// CPUs, its capacity (a full CPU per online one) and weight; a domain's
/// groups are SMT cores when the level below shares CPU capacity.
fn dst_groups_of(doms: &[SchedDomain], online: &CpuMask) -> Vec<Vec<super::find_dst_group::DstGroup>> {
    use super::find_dst_group::DstGroup;
    use super::group_stats::GroupFacts;
    doms.iter()
        .enumerate()
        .map(|(l, d)| {
            let smt = l > 0 && doms[l - 1].flags.share_cpucapacity;
            d.groups
                .iter()
                .map(|g| DstGroup {
                    span: g.span.iter().map(|c| c.idx()).collect(),
                    facts: GroupFacts {
                        capacity: super::pelt::SCHED_CAPACITY_SCALE * u64::from(g.span.and(online).weight()),
                        weight: g.span.weight(),
                        smt,
                        sgc_imbalance: false,
                    },
                })
                .collect()
        })
        .collect()
}

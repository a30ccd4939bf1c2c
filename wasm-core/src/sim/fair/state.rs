//! The fair class's own state (as O(1)'s `O1State` and sched_ext's
//! `ExtState` are theirs): the task-group hierarchy with its group entities
//! and group runqueues, the balancer's machine-wide state, and the tunables
//! the class scales from the knobs at boot and at each hotplug.
//!
//! The root runqueue of each CPU stays in its `Rq` (`rq->cfs`, as the
//! kernel's `struct rq` embeds it); everything above the root is here.

use crate::config::Kernel;
use crate::config::SimConfig;
use crate::sched::cfs_rq::CfsRq;
use crate::sched::entity::SchedEntity;
use crate::sched::group::TaskGroup;
use crate::sched::tunables::{CfsKnobs, CfsTunables};
use crate::sim::fair::linux41::LbState;
use crate::sim::fair::linux612::state::State612;
use crate::sim::Rq;
use crate::time::CpuId;

#[derive(Clone, Debug)]
pub(crate) struct FairState {
    /// The tunables in force (`sysctl_sched_*` scaled by the online CPUs).
    pub(crate) tunables: CfsTunables,
    /// The scenario's knobs the tunables are scaled from (`update_sysctl`).
    pub(crate) knobs: CfsKnobs,
    /// The balancer: its machine-wide state and records.
    pub(crate) lb: LbState,
    /// Task groups; index 0 is the root.
    pub(crate) tgs: Vec<TaskGroup>,
    /// Linux 6.12's own state of the class (empty under 4.1).
    pub(crate) gen612: State612,
    /// Group entities and group runqueues, index (tg − 1) × CPUs + cpu.
    pub(crate) gses: Vec<SchedEntity>,
    pub(crate) gcfs: Vec<CfsRq>,
}

impl FairState {
    /// The state at boot: the tunables for `nr_cpus`, the root group, the
    /// scenario's cgroups and the autogroups. Returns it with each process's
    /// group and its group at the root cgroup (`build_task_groups`).
    pub(crate) fn boot(cfg: &SimConfig, nr_cpus: u32) -> (FairState, (Vec<u32>, Vec<u32>)) {
        let mut fair = FairState {
            tunables: CfsTunables::for_cpus(&cfg.knobs, &cfg.features, nr_cpus),
            knobs: cfg.knobs.clone(),
            lb: LbState::default(),
            tgs: vec![TaskGroup::root()],
            gses: Vec::new(),
            gcfs: Vec::new(),
            gen612: State612::default(),
        };
        let groups = fair.build_task_groups(cfg, nr_cpus);
        fair.apply_identities(cfg, nr_cpus as usize);
        if cfg.kernel == Kernel::Linux612 {
            let weights = fair.gses.iter().map(|se| se.weight);
            fair.gen612 = State612::boot(weights, nr_cpus as usize, fair.tgs.len(), cfg.seed);
        }
        (fair, groups)
    }

    /// Gives each cgroup's task group its identity (children inherit their
    /// parent's) and marks its group entities. Cgroups are the first task
    /// groups built, in scenario order (ids 1..).
    fn apply_identities(&mut self, cfg: &SimConfig, n: usize) {
        if !cfg.policy.group_identity {
            return;
        }
        for (i, cg) in cfg.cgroups.iter().enumerate() {
            let tg = i + 1;
            let parent = self.tgs[tg].parent.unwrap_or(0) as usize;
            let (identity, expeller) = if parent == 0 {
                (cg.identity, cg.smt_expeller)
            } else {
                (self.tgs[parent].identity, self.tgs[parent].smt_expeller)
            };
            self.tgs[tg].identity = identity;
            self.tgs[tg].smt_expeller = expeller;
            for se in &mut self.gses[(tg - 1) * n..tg * n] {
                se.identity = identity;
            }
        }
    }

    /// sched_init: each runqueue's avg_idle starts at twice the migration
    /// cost, its idle-balance cost at the migration cost.
    pub(crate) fn init_idle_costs(&self, rqs: &mut [Rq]) {
        for rq in rqs {
            rq.avg_idle_ns = 2 * self.tunables.migration_cost_ns;
            rq.max_idle_balance_cost_ns = self.tunables.migration_cost_ns;
        }
    }

    /// A CPU went offline (CPU_DYING): out of the idle load balancer's
    /// reach (`nohz_balance_exit_idle`).
    pub(crate) fn cpu_dying(&mut self, cpu: CpuId) {
        self.lb.nohz_idle_cpus.clear(cpu);
        // 6.12: `sched_cpu_deactivate`'s `nohz_balance_exit_idle` (core.c 8229); the domains' rebuild that
        // follows counts the LLC's busy CPUs afresh.
        let nohz = &mut self.gen612.nohz;
        if nohz.idle_cpus.test(cpu) {
            nohz.idle_cpus.clear(cpu);
            if let Some(f) = nohz.sd_nohz_idle.get_mut(cpu.idx()) {
                *f = false;
            }
        }
    }

    /// Balancing decisions taken so far, by whichever generation runs.
    pub(crate) fn decisions_total(&self) -> u64 {
        self.lb.decisions_total + self.gen612.decisions_total
    }

    /// `update_sysctl`: the tunables rescaled for the online CPUs.
    pub(crate) fn rescale_tunables(&mut self, online: u32) {
        let features = self.tunables.features.clone();
        self.tunables = CfsTunables::for_cpus(&self.knobs, &features, online);
    }

    /// Creates the cgroups and the autogroups (one per session of processes
    /// not in a cgroup), with a group entity and runqueue per CPU. Returns
    /// each process's group, and the group its threads join on a move to the
    /// root cgroup (`autogroup_task_group`: its session's autogroup when
    /// autogroup is on). A process that starts in a cgroup has its session's
    /// autogroup built, after all the others, only when its program moves to
    /// the root.
    fn build_task_groups(&mut self, cfg: &SimConfig, nr_cpus: u32) -> (Vec<u32>, Vec<u32>) {
        let add = |fair: &mut FairState, name: String, parent: u32, shares: u64, autogroup: bool| -> u32 {
            let id = fair.tgs.len() as u32;
            let depth = fair.tgs[parent as usize].depth + 1;
            fair.tgs.push(TaskGroup { id, name, parent: Some(parent), shares, autogroup, depth, ..TaskGroup::root() });
            for _ in 0..nr_cpus {
                let mut se = SchedEntity::for_nice(0);
                se.set_weight(shares);
                fair.gses.push(se);
                fair.gcfs.push(CfsRq::new(id));
            }
            id
        };
        let mut by_name: Vec<(String, u32)> = Vec::new();
        for cg in &cfg.cgroups {
            let parent =
                cg.parent.as_ref().and_then(|p| by_name.iter().find(|(n, _)| n == p).map(|(_, id)| *id)).unwrap_or(0);
            let id = add(self, cg.name.clone(), parent, cg.shares, false);
            by_name.push((cg.name.clone(), id));
        }
        let mut sessions: Vec<(String, u32)> = Vec::new();
        let mut autogroup_of = |fair: &mut FairState, p: &crate::config::ProcessSpec| -> u32 {
            let session = p.session.clone().unwrap_or_else(|| "default".into());
            if let Some((_, id)) = sessions.iter().find(|(n, _)| *n == session) {
                return *id;
            }
            let id = add(fair, format!("autogroup:{session}"), 0, 1024, true);
            sessions.push((session, id));
            id
        };
        let groups: Vec<u32> = cfg
            .processes
            .iter()
            .map(|p| {
                if let Some(cg) = &p.cgroup {
                    return by_name.iter().find(|(n, _)| n == cg).map_or(0, |(_, id)| *id);
                }
                if !cfg.autogroup {
                    return 0;
                }
                autogroup_of(self, p)
            })
            .collect();
        let roots = cfg
            .processes
            .iter()
            .zip(&groups)
            .map(|(p, &g)| match &p.cgroup {
                None => g,
                Some(_) if cfg.autogroup && crate::program::moves_to_root_cgroup(&p.program) => autogroup_of(self, p),
                Some(_) => 0,
            })
            .collect();
        (groups, roots)
    }
}

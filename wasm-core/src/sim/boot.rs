//! A run's start: `sched_init` and the boot of the machine (runqueues,
//! tunables, the root group), the cgroups and autogroups, each process and
//! its threads, the first ticks; and `build_sched_domains`, which hotplug
//! runs again.

use super::events::Event;
use super::{accounting, class, notes, rq_index, sanity, sync, Rq, Simulator};
use crate::config::SimConfig;
use crate::event_queue::EventQueue;
use crate::program::ProgramCursor;
use crate::rng::Rng;
use crate::sched::cfs_rq::CfsRq;
use crate::sched::entity::SchedEntity;
use crate::sched::group::TaskGroup;
use crate::sched::tunables::CfsTunables;
use crate::task::{Process, Task};
use crate::time::{CpuId, Pid, SimTime, NSEC_PER_SEC};
use crate::topology::cpumask::CpuMask;
use crate::topology::domains::{build_domains, cpu_capacity, DomainOptions};
use crate::topology::table::TopologyTable;
use crate::trace::Trace;

impl Simulator {
    pub fn new(cfg: &SimConfig) -> Simulator {
        let nr_cpus = cfg.machine.nr_cpus();
        let tunables = CfsTunables::for_cpus(&cfg.knobs, &cfg.features, nr_cpus);
        let online = CpuMask::from_range(0..nr_cpus);
        let mut sim = Simulator {
            name: cfg.name.clone(),
            seed: cfg.seed,
            duration: SimTime(cfg.duration_ns),
            tick_ns: NSEC_PER_SEC / cfg.hz.max(1) as u64,
            now: SimTime::ZERO,
            queue: EventQueue::new(),
            rng: Rng::new(cfg.seed),
            tasks: Vec::new(),
            procs: Vec::new(),
            programs: Vec::new(),
            rqs: CpuId::all(nr_cpus).map(Rq::new).collect(),
            trace: Trace::default(),
            events: 0,
            finished: false,
            rotations: Vec::new(),
            machine: cfg.machine.clone(),
            bugs: cfg.bugs.clone(),
            topology_table: TopologyTable::at_boot(&cfg.machine, &online),
            online,
            cpu_capacity: cpu_capacity(&cfg.machine),
            stats: accounting::MachineStats::default(),
            fair: super::fair::state::FairState::new(tunables, cfg.knobs.clone()),
            sync: Vec::new(),
            syscall_cpu: None,
            costs: cfg.costs.clone(),
            nohz: cfg.nohz,
            preempt: cfg.preempt,
            sanity_cfg: cfg.sanity.clone(),
            event_budget: cfg.event_budget,
            budget_stop: None,
            sanity: sanity::SanityState::default(),
            policy: cfg.policy.clone(),
            class: class::class_for(cfg.policy.kind),
            class_data: None,
            index: rq_index::RqIndex::new(nr_cpus as usize),
            index_check: false,
            notes: notes::RunNotes::default(),
        };
        let class = sim.class;
        class.init(&mut sim);
        let group_of_process = sim.build_task_groups(cfg);
        sim.apply_identities(cfg);
        sim.rebuild_domains();
        for rq in &mut sim.rqs {
            // sched_init: avg_idle starts at twice the migration cost, the
            // idle-balance cost at the migration cost.
            rq.avg_idle_ns = 2 * sim.fair.tunables.migration_cost_ns;
            rq.max_idle_balance_cost_ns = sim.fair.tunables.migration_cost_ns;
        }
        let process_names: Vec<&str> = cfg.processes.iter().map(|p| p.name.as_str()).collect();
        for spec in &cfg.processes {
            let tgid = sim.procs.len() as u32;
            let program = sim.programs.len();
            let compiled = crate::program_names::compile_process(&spec.program, &process_names, program + 1);
            sim.programs.extend(compiled.programs);
            sim.sync.push(sync::ProcSync {
                barriers: vec![sync::Barrier::default(); compiled.barriers],
                mutexes: vec![sync::Mutex::default(); compiled.mutexes],
                jobs: spec.job_pool,
                flags: vec![Vec::new(); compiled.flags],
            });
            let mut threads = Vec::new();
            for i in 0..spec.threads {
                let pid = Pid(sim.tasks.len() as u32);
                let name =
                    if spec.threads == 1 { spec.name.clone() } else { crate::task::numbered_name(&spec.name, '/', i) };
                let allowed = spec.affinity.clone().unwrap_or_else(|| CpuMask::from_range(0..nr_cpus));
                let mut task = Task::new(pid, tgid, name, spec.nice, ProgramCursor::new(program), allowed);
                task.thread_ix = i;
                sim.tasks.push(task);
                threads.push(pid);
            }
            for &pid in &threads {
                sim.tasks[pid.idx()].tg = group_of_process[tgid as usize];
            }
            let start_at = SimTime(spec.start_ns);
            sim.procs.push(Process {
                tgid,
                name: spec.name.clone(),
                threads,
                start_at,
                wakeup_latency: Default::default(),
                queued_wakeups: 0,
            });
            sim.push(start_at, Event::Spawn(tgid));
        }
        for ev in &cfg.events {
            sim.push(SimTime(ev.at_ns), Event::Timed(ev.kind));
        }
        for cpu in CpuId::all(nr_cpus) {
            sim.push_tick(SimTime(sim.tick_ns), cpu);
            // Every CPU starts idle: the index reads each once.
            sim.touch(cpu);
        }
        sim.push(SimTime(accounting::LOAD_FREQ_NS + sim.tick_ns), Event::LoadAvg);
        if let Some(s) = &cfg.sanity {
            sim.push(SimTime(s.period_ns), Event::SanityCheck);
        }
        sim
    }

    /// Creates the cgroups and the autogroups (one per session of processes
    /// not in a cgroup), with a group entity and runqueue per CPU. Returns
    /// each process's group.
    fn build_task_groups(&mut self, cfg: &SimConfig) -> Vec<u32> {
        let add = |sim: &mut Simulator, name: String, parent: u32, shares: u64, autogroup: bool| -> u32 {
            let id = sim.fair.tgs.len() as u32;
            let depth = sim.fair.tgs[parent as usize].depth + 1;
            sim.fair.tgs.push(TaskGroup {
                id,
                name,
                parent: Some(parent),
                shares,
                autogroup,
                depth,
                ..TaskGroup::root()
            });
            for _ in 0..sim.rqs.len() {
                let mut se = SchedEntity::for_nice(0);
                se.set_weight(shares);
                sim.fair.gses.push(se);
                sim.fair.gcfs.push(CfsRq::new(id));
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
        cfg.processes
            .iter()
            .map(|p| {
                if let Some(cg) = &p.cgroup {
                    return by_name.iter().find(|(n, _)| n == cg).map_or(0, |(_, id)| *id);
                }
                if !cfg.autogroup {
                    return 0;
                }
                let session = p.session.clone().unwrap_or_else(|| "default".into());
                if let Some((_, id)) = sessions.iter().find(|(n, _)| *n == session) {
                    return *id;
                }
                let id = add(self, format!("autogroup:{session}"), 0, 1024, true);
                sessions.push((session, id));
                id
            })
            .collect()
    }

    /// (Re)builds every CPU's scheduling domains for the online CPUs
    /// (`build_sched_domains`, also run on hotplug).
    pub(crate) fn rebuild_domains(&mut self) {
        let opts = DomainOptions { groups_from_each_cpu: !self.bugs.group_construction, table: self.topology_table };
        let mut per_cpu = build_domains(&self.machine, &self.online, &opts);
        let groups = per_cpu.iter().flatten().flat_map(|d| d.groups.iter().map(|g| g.id + 1)).max().unwrap_or(0);
        self.fair.lb.sgc_imbalance = vec![false; groups];
        // A rebuild attaches a new root domain: its overload flag starts clear,
        // and each domain's newly-idle cost decays, and its balance interval
        // runs, from now (sd_init sets last_balance to jiffies).
        self.fair.lb.rd_overload = false;
        // New domains count every CPU busy in its `sd_busy` group until it next
        // enters idle (`nr_busy_cpus` starts at the group's weight).
        self.fair.lb.nohz_sd_idle = crate::topology::cpumask::CpuMask::new();
        // The fork walk's kept group sums start afresh for the new groups (the next fork counts them): kept
        // across rebuilds, every span a hotplug history ever made would hold its slot and be summed at
        // each sync. Only the native fork walk keeps them.
        #[cfg(not(target_arch = "wasm32"))]
        {
            self.fair.lb.group_loads = Default::default();
        }
        let (jiffies, now) = (self.jiffies(), self.now);
        for (rq, mut doms) in self.rqs.iter_mut().zip(per_cpu.drain(..)) {
            for sd in &mut doms {
                sd.next_decay_max_lb_cost = jiffies;
                sd.last_balance = now;
            }
            rq.domains = doms;
        }
    }
}

//! A run's start: `sched_init` and the boot of the machine (runqueues,
//! tunables, the root group), the cgroups and autogroups, each process and
//! its threads, the first ticks; and `build_sched_domains`, which hotplug
//! runs again.

use super::events::Event;
use super::fair::state::FairState;
use super::{accounting, class, notes, rq_index, sanity, sync, Core, Rq, Simulator};
use crate::config::SimConfig;
use crate::event_queue::EventQueue;
use crate::program::ProgramCursor;
use crate::program_names::SpaceNames;
use crate::rng::Rng;
use crate::sched::policy::SchedPolicy;
use crate::task::{Process, Task};
use crate::time::{CpuId, Pid, SimTime, NSEC_PER_SEC};
use crate::topology::cpumask::CpuMask;
use crate::topology::domains::{build_domains, cpu_capacity, DomainOptions};
use crate::topology::table::TopologyTable;
use crate::trace::Trace;

impl Simulator {
    pub fn new(cfg: &SimConfig) -> Simulator {
        let nr_cpus = cfg.machine.nr_cpus();
        let (fair, (group_of_process, root_of_process)) = FairState::boot(cfg, nr_cpus);
        let online = CpuMask::from_range(0..nr_cpus);
        let mut sim = Simulator {
            core: Core {
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
                sync: Vec::new(),
                syscall_cpu: None,
                costs: cfg.costs.clone(),
                kernel: cfg.kernel,
                migrating: None,
                nohz: cfg.nohz,
                preempt: cfg.preempt,
                sanity_cfg: cfg.sanity.clone(),
                event_budget: cfg.event_budget,
                budget_stop: None,
                sanity: sanity::SanityState::default(),
                policy: cfg.policy.clone(),
                pi_mutexes: cfg.pi_mutexes,
                idle_policy: cfg.processes.iter().any(|p| {
                    p.sched_policy == SchedPolicy::Idle
                        || crate::program::sets_policy(&p.program, |q| q == SchedPolicy::Idle)
                }),
                index: rq_index::RqIndex::new(nr_cpus as usize),
                index_check: false,
                notes: notes::RunNotes::default(),
                misses: super::misses::MissLog::default(),
                switch_to: None,
                class_holds_queued: false,
            },
            fair,
            rooms: super::dispatch::Rooms::new(class::class_for(cfg.policy.kind, cfg.kernel)),
        };
        sim.sched().init();
        // The classes above the fair class keep their queues only in a run that has their tasks.
        // (A task a PI mutex boosts has a real-time waiter: that waiter's process is one of these.)
        let has = |wanted: fn(SchedPolicy) -> bool| {
            cfg.processes.iter().any(|p| wanted(p.sched_policy) || crate::program::sets_policy(&p.program, wanted))
        };
        if has(SchedPolicy::is_rt) {
            sim.sched().at(super::dispatch::Room::Rt).init();
        }
        // Under 6.12 the deadline class also holds each CPU's fair server, which only tasks of a higher class
        // can make run (a run of fair tasks alone never needs it: its runtime is spent in the background).
        if has(SchedPolicy::is_dl) || (cfg.kernel == crate::config::Kernel::Linux612 && has(SchedPolicy::is_rt)) {
            sim.sched().at(super::dispatch::Room::Dl).init();
        }
        sim.rebuild_domains();
        sim.fair.init_idle_costs(&mut sim.core.rqs);
        let process_names: Vec<&str> = cfg.processes.iter().map(|p| p.name.as_str()).collect();
        // Each process's objects live in its own address space, or in the one it names with others.
        let mut spaces: Vec<(Option<&str>, SpaceNames, Vec<u32>)> = Vec::new();
        let mut space_of = Vec::new();
        for spec in &cfg.processes {
            let program = sim.core.programs.len();
            let shared = spec.address_space.as_deref();
            let space = match shared.and_then(|name| spaces.iter().position(|(n, ..)| *n == Some(name))) {
                Some(space) => space,
                None => {
                    spaces.push((shared, SpaceNames::default(), Vec::new()));
                    spaces.len() - 1
                }
            };
            let (_, names, parties) = &mut spaces[space];
            let compiled = crate::program_names::compile_process(&spec.program, &process_names, program + 1, names);
            sim.core.programs.extend(compiled.programs);
            if parties.len() < compiled.barrier_uses.len() {
                parties.resize(compiled.barrier_uses.len(), 0);
            }
            for (id, uses) in compiled.barrier_uses.iter().enumerate() {
                parties[id] = parties[id].saturating_add(uses.saturating_mul(spec.threads));
            }
            space_of.push((space, program));
        }
        for (shared, names, parties) in &spaces {
            let barrier = |id: usize| sync::Barrier {
                // A process's own barrier waits for all its threads; a shared one for its users.
                parties: shared.map(|_| parties.get(id).copied().unwrap_or(0)),
                ..Default::default()
            };
            sim.core.sync.push(sync::ProcSync {
                barriers: (0..names.barriers()).map(barrier).collect(),
                mutexes: vec![sync::Mutex::default(); names.mutexes()],
                conds: vec![Default::default(); names.conds()],
                timers: vec![Default::default(); names.timers()],
                jobs: 0,
                flags: vec![Vec::new(); names.flags()],
            });
        }
        for (spec, &(space, program)) in cfg.processes.iter().zip(&space_of) {
            let tgid = sim.core.procs.len() as u32;
            // A job pool is a process's own (validation keeps it out of shared address spaces).
            sim.core.sync[space].jobs += spec.job_pool;
            let mut threads = Vec::new();
            for i in 0..spec.threads {
                let pid = Pid(sim.core.tasks.len() as u32);
                let name =
                    if spec.threads == 1 { spec.name.clone() } else { crate::task::numbered_name(&spec.name, '/', i) };
                let allowed = spec.affinity.clone().unwrap_or_else(|| CpuMask::from_range(0..nr_cpus));
                let mut task = Task::new(pid, tgid, name, spec.nice, ProgramCursor::new(program), allowed);
                task.thread_ix = i;
                task.set_policy(spec.sched_policy, spec.rt_priority);
                task.dl = spec.dl;
                sim.core.tasks.push(task);
                threads.push(pid);
            }
            for &pid in &threads {
                sim.core.tasks[pid.idx()].tg = group_of_process[tgid as usize];
            }
            let start_at = SimTime(spec.start_ns);
            sim.core.procs.push(Process {
                tgid,
                name: spec.name.clone(),
                threads,
                sync: space,
                root_tg: root_of_process[tgid as usize],
                start_at,
                wakeup_latency: Default::default(),
                queued_wakeups: 0,
            });
            sim.core.push(start_at, Event::Spawn(tgid));
        }
        for ev in &cfg.events {
            sim.core.push(SimTime(ev.at_ns), Event::Timed(ev.kind));
        }
        for cpu in CpuId::all(nr_cpus) {
            sim.core.push_tick(SimTime(sim.core.tick_ns), cpu);
            // Every CPU starts idle: the index reads each once.
            sim.core.touch(cpu);
        }
        sim.core.push(SimTime(accounting::LOAD_FREQ_NS + sim.core.tick_ns), Event::LoadAvg);
        if let Some(s) = &cfg.sanity {
            sim.core.push(SimTime(s.period_ns), Event::SanityCheck);
        }
        sim
    }

    /// (Re)builds every CPU's scheduling domains for the online CPUs
    /// (`build_sched_domains`, also run on hotplug).
    pub(crate) fn rebuild_domains(&mut self) {
        let opts = DomainOptions {
            groups_from_each_cpu: !self.core.bugs.group_construction,
            table: self.core.topology_table,
            rules: self.core.kernel.domain_rules(),
        };
        let mut per_cpu = build_domains(&self.core.machine, &self.core.online, &opts);
        let groups = per_cpu.iter().flatten().flat_map(|d| d.groups.iter().map(|g| g.id + 1)).max().unwrap_or(0);
        self.fair.lb.domains_rebuilt(groups);
        // Each domain's newly-idle cost decays, and its balance interval runs, from now (sd_init sets
        // last_balance to jiffies).
        let (jiffies, now) = (self.core.jiffies(), self.core.now);
        for (rq, mut doms) in self.core.rqs.iter_mut().zip(per_cpu.drain(..)) {
            for sd in &mut doms {
                sd.next_decay_max_lb_cost = jiffies;
                sd.last_balance = now;
            }
            rq.domains = doms;
        }
        if self.core.kernel == super::kernel::Kernel::Linux612 {
            let domains: Vec<&[crate::topology::domains::SchedDomain]> =
                self.core.rqs.iter().map(|rq| &rq.domains[..]).collect();
            self.fair.gen612.domains_rebuilt(&domains, &self.core.online, jiffies, groups);
        }
    }
}

//! What a real run will do with a validated scenario, or why it will not:
//! every part the host kernel cannot be made to do is refused with the field
//! it comes from, never skipped. Parts that belong to the model only (its
//! policy, tunables, costs…) are listed as notes in the report.
//!
//! Durations are drawn from the engine's own `Rng` and `Dist` code, but from
//! one seeded stream per thread (`thread_seed`): the model draws from one
//! stream in event order, an order a real run cannot reproduce.

use super::host::HostMachine;
use crate::api::scenario::policy_kind::policy_kind_name;
use crate::config::SimConfig;
use crate::program::{Op, Program};
use crate::sched::policy::{DlParams, SchedPolicy};

/// At most this many threads, scenario threads and forks together.
pub const MAX_REAL_THREADS: u32 = 256;
/// At most this long.
pub const MAX_REAL_DURATION_NS: u64 = 60_000_000_000;
/// Every scenario thread reports that it started within this long, or the run fails.
pub const START_WITHIN_NS: u64 = 10_000_000_000;
/// How long a workload process may outlive the run's window before the kernel
/// kills it (`sys::KillTimer`), should the runner be unable to (stopped, or
/// starved by the run's own real-time threads).
pub const OUTLIVE_WINDOW_NS: u64 = 2_000_000_000;

#[derive(Clone, Debug)]
pub struct Plan {
    pub name: String,
    pub seed: u64,
    pub duration_ns: u64,
    /// setsid per session (the kernel's autogroup then groups each session).
    pub autogroup: bool,
    pub host: HostMachine,
    pub processes: Vec<PlanProcess>,
    pub cgroups: Vec<PlanCgroup>,
    pub notes: Vec<String>,
}

#[derive(Clone, Debug)]
pub struct PlanProcess {
    pub name: String,
    pub nice: i32,
    /// The policy every thread sets on itself before its program (`sched_setscheduler`); forks inherit it.
    pub sched_policy: SchedPolicy,
    /// 1–99 for FIFO and RR, else 0.
    pub rt_priority: u32,
    /// A deadline process's reservation, which each thread asks for with `sched_setattr` before its program
    /// (a deadline thread cannot fork, so the plan refuses a program that does).
    pub dl: Option<DlParams>,
    /// EEVDF's custom slice in ns (`sched_setattr`'s sched_runtime, Linux 6.12+); 0 = the base slice.
    pub slice_ns: u64,
    pub threads: u32,
    pub start_ns: u64,
    /// Allowed host CPUs (None = as the runner's).
    pub host_cpus: Option<Vec<u32>>,
    /// The session (processes of one session share an autogroup).
    pub session: String,
    pub cgroup: Option<usize>,
    pub job_pool: u32,
    /// The main program first, then the programs its forks run.
    pub programs: Vec<Program>,
    pub barriers: usize,
    pub mutexes: usize,
    /// One-slot flags (each one word per thread).
    pub flags: usize,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlanCgroup {
    pub name: String,
    pub parent: Option<usize>,
    pub shares: u64,
}

/// The seed of thread `thread` of process `process`'s draw stream.
pub fn thread_seed(seed: u64, process: usize, thread: usize) -> u64 {
    seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ ((process as u64) << 32 | thread as u64)
}

/// The first step of `ops` that only the model carries out (timers, busy
/// loops, condition variables), by its scenario name.
fn first_model_only_step(ops: &[Op]) -> Option<&'static str> {
    ops.iter().find_map(|op| match op {
        Op::Timer(_) => Some("timer"),
        Op::Busy(_) => Some("busy_us"),
        Op::SetCpus(_) => Some("set_cpus"),
        Op::SetCgroup(_) => Some("set_cgroup"),
        Op::CondWait { .. } => Some("cond_wait"),
        Op::CondSignal(_) => Some("cond_signal"),
        Op::CondBroadcast(_) => Some("cond_broadcast"),
        Op::SchedSetattr(_) => Some("sched_setattr"),
        Op::Repeat { body, .. } | Op::Fork(body) => first_model_only_step(body),
        _ => None,
    })
}

/// The plan of a real run of `cfg` on `host`, or every reason it cannot run.
pub fn plan(cfg: &SimConfig, host: HostMachine) -> Result<Plan, Vec<String>> {
    let mut refused = Vec::new();
    let (m, h) = (&cfg.machine, &host.machine);
    if (m.nodes, m.cores_per_node, m.threads_per_core) != (h.nodes, h.cores_per_node, h.threads_per_core) {
        refused.push(format!(
            "machine: a real run uses this host ({} node(s) × {} core(s) × {} thread(s), {} CPUs); the scenario's \
             machine '{}' is {} × {} × {} — use \"machine\": {{\"preset\": \"host\"}}",
            h.nodes,
            h.cores_per_node,
            h.threads_per_core,
            h.nr_cpus(),
            m.name,
            m.nodes,
            m.cores_per_node,
            m.threads_per_core
        ));
    }
    if cfg.duration_ns > MAX_REAL_DURATION_NS {
        refused.push(format!("duration_ms: a real run lasts at most {} ms", MAX_REAL_DURATION_NS / 1_000_000));
    }
    let threads: u64 = cfg.processes.iter().map(|p| p.threads as u64).sum();
    if threads > MAX_REAL_THREADS as u64 {
        refused.push(format!("processes: {threads} threads; a real run starts at most {MAX_REAL_THREADS}"));
    }
    for (i, e) in cfg.events.iter().enumerate() {
        let what = match e.kind {
            crate::config::TimedEventKind::CpuOffline(c) => format!("cpu_offline {c}"),
            crate::config::TimedEventKind::CpuOnline(c) => format!("cpu_online {c}"),
        };
        refused.push(format!("events[{i}]: {what} — a real run does not take the host's CPUs off or on line"));
    }
    if cfg.policy.group_identity {
        refused.push("policy.group_identity: Group Identity is Alibaba Cloud Linux's; a real run has none".into());
    }
    let cgroups: Vec<PlanCgroup> = cfg
        .cgroups
        .iter()
        .map(|g| PlanCgroup {
            name: g.name.clone(),
            parent: g.parent.as_ref().and_then(|p| cfg.cgroups.iter().position(|c| &c.name == p)),
            shares: g.shares,
        })
        .collect();
    let process_names: Vec<&str> = cfg.processes.iter().map(|p| p.name.as_str()).collect();
    let mut processes = Vec::new();
    let mut unsliced = Vec::new();
    for (i, p) in cfg.processes.iter().enumerate() {
        if let Some(space) = &p.address_space {
            refused.push(format!(
                "processes[{i}].address_space: '{space}' — a real run's processes share no objects by name"
            ));
        }
        if let Some(step) = first_model_only_step(&p.program) {
            refused.push(format!("processes[{i}].program: {step} — a real run has no such step yet"));
        }
        if p.sched_policy.is_dl() {
            refused.extend(super::plan_dl::refusals(i, p, h.nr_cpus()));
        }
        let mut space = crate::program_names::SpaceNames::default();
        let compiled = crate::program_names::compile_process(&p.program, &process_names, 1, &mut space);
        let mut slice_ns = cfg.policy.slices.get(i).copied().unwrap_or(0);
        // A custom slice is set with SCHED_OTHER (sched_setattr): it would make a real-time or deadline thread
        // fair again.
        if p.sched_policy.above_fair() && slice_ns > 0 {
            unsliced.push(format!("processes[{i}] ('{}')", p.name));
            slice_ns = 0;
        }
        processes.push(PlanProcess {
            name: p.name.clone(),
            nice: p.nice,
            sched_policy: p.sched_policy,
            rt_priority: p.rt_priority,
            dl: p.dl.filter(|_| p.sched_policy.is_dl()),
            slice_ns,
            threads: p.threads,
            start_ns: p.start_ns,
            host_cpus: p.affinity.as_ref().map(|mask| mask.iter().map(|c| host.host_cpu[c.idx()]).collect()),
            session: p.session.clone().unwrap_or_else(|| "default".into()),
            cgroup: p.cgroup.as_ref().and_then(|g| cfg.cgroups.iter().position(|c| &c.name == g)),
            job_pool: p.job_pool,
            programs: compiled.programs,
            barriers: space.barriers(),
            flags: space.flags(),
            mutexes: space.mutexes(),
        });
    }
    if !refused.is_empty() {
        return Err(refused);
    }
    let kind = policy_kind_name(cfg.policy.kind);
    let release = super::sys::kernel_release();
    let mut notes = vec![format!(
        "the host runs its own scheduler (Linux {release}) as built and configured: the model's policy '{kind}', \
         tunables, features, bug switches, costs, preemption model, hz and nohz do not apply"
    )];
    // Every thread of a scenario starts as a new task (the model places a process's first thread as a fork from
    // the first CPU it may use, the others and forked children from their creator's), so this holds for any
    // scenario on such a host.
    // The 6.12 model places them as 6.12 does (Kernel::new_task_placement_migrates): nothing to say then.
    if places_new_tasks_untraced(&release) && cfg.kernel.new_task_placement_migrates() {
        notes.push(
            "migrations are not comparable: the model follows 4.1, which counts a new task (a starting thread or a \
             fork's child) placed away from the CPU it was created on as a migration and traces it (set_task_cpu); \
             the host's kernel (4.8 and later) places it without either (__set_task_cpu), so the real count leaves \
             those placements out"
                .into(),
        );
    }
    if let Some(n) = rt_note(&processes) {
        notes.push(n);
    }
    if let Some(n) = super::plan_dl::note(&processes) {
        notes.push(n);
    }
    if !unsliced.is_empty() {
        notes.push(format!(
            "{}: a real-time or deadline process has no EEVDF slice; its slice_us is not applied",
            unsliced.join(", ")
        ));
    }
    Ok(Plan {
        name: cfg.name.clone(),
        seed: cfg.seed,
        duration_ns: cfg.duration_ns,
        autogroup: cfg.autogroup,
        host,
        processes,
        cgroups,
        notes,
    })
}

/// What the report says of the real-time processes, if there are any: their
/// policy is the host's own (each thread sets it on itself before its
/// program), and the run is bounded whatever happens to the runner.
fn rt_note(processes: &[PlanProcess]) -> Option<String> {
    let rt: Vec<String> = processes
        .iter()
        .filter(|p| p.sched_policy.is_rt())
        .map(|p| format!("'{}' SCHED_{} {}", p.name, p.sched_policy.name().to_uppercase(), p.rt_priority))
        .collect();
    (!rt.is_empty()).then(|| {
        format!(
            "real-time threads on the host: {} (each thread sets its policy before its program; its forks inherit \
             it); every process of the run is killed by the kernel {} s after the window at the latest",
            rt.join(", "),
            OUTLIVE_WINDOW_NS / 1_000_000_000
        )
    })
}

/// Whether a kernel of this release places a new task without counting or
/// tracing a migration. 4.1.15's `wake_up_new_task` calls `set_task_cpu`
/// (core.c 2089), which bumps `nr_migrations` and traces `sched_migrate_task`
/// (core.c 1046-1051). From 4.8 on it calls `__set_task_cpu` (commit
/// e210bffd39d0, "sched/fair: Fix and optimize the fork() path", merged for
/// 4.8-rc1; outside the reference set, read from the published patch). An
/// unreadable release says nothing.
fn places_new_tasks_untraced(release: &str) -> bool {
    let mut parts = release.split(|c: char| !c.is_ascii_digit());
    let number = |p: Option<&str>| p.and_then(|s| s.parse::<u32>().ok());
    match (number(parts.next()), number(parts.next())) {
        (Some(major), Some(minor)) => (major, minor) >= (4, 8),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::scenario::load_scenario;

    fn host(cpus: u32) -> HostMachine {
        HostMachine {
            machine: crate::machine::Machine::uniform("host", 1, cpus, 1, 10),
            host_cpu: (0..cpus).rev().collect(),
        }
    }

    fn cfg(extra: &str, machine: &str) -> SimConfig {
        load_scenario(&format!(
            r#"{{"version":1,"name":"t","duration_ms":100,"machine":{machine},{extra}
               "processes":[{{"name":"a","threads":2,"cpus":"0","program":[{{"barrier":"b"}},{{"fork":[{{"run_us":5}}]}},{{"lock":"m"}}]}}]}}"#
        ))
        .unwrap()
    }

    #[test]
    fn a_plan_maps_cpus_to_the_host_and_compiles_programs() {
        let p = plan(&cfg("", r#"{"nodes":1,"cores_per_node":4}"#), host(4)).unwrap();
        let a = &p.processes[0];
        assert_eq!(a.host_cpus, Some(vec![3]));
        assert_eq!((a.programs.len(), a.barriers, a.mutexes, a.session.as_str()), (2, 1, 1, "default"));
        assert!(p.notes[0].contains("own scheduler"));
    }

    #[test]
    fn what_the_host_cannot_do_is_refused_by_field() {
        let c = cfg(
            r#""events":[{"at_ms":5,"cpu_offline":1}],"policy":{"kind":"eevdf"},"#,
            r#"{"nodes":1,"cores_per_node":4}"#,
        );
        let mut c = c;
        c.policy.slices[0] = 3_000_000;
        let err = plan(&c, host(2)).unwrap_err();
        assert!(err[0].starts_with("machine:"), "{err:?}");
        assert!(err[1].starts_with("events[0]:"), "{err:?}");
        assert_eq!(err.len(), 2, "a custom slice is applied, not refused: {err:?}");
    }

    #[test]
    fn real_time_processes_keep_their_policy_and_lose_only_a_slice() {
        let c = load_scenario(
            r#"{"version":1,"name":"t","duration_ms":100,"machine":{"nodes":1,"cores_per_node":2},
               "policy":{"kind":"eevdf"},"processes":[
                 {"name":"f","cpus":"0","sched_policy":"fifo","rt_priority":50,"slice_us":3000,"template":"cpu-hog"},
                 {"name":"r","sched_policy":"rr","rt_priority":1,"template":"cpu-hog"},
                 {"name":"n","cpus":"0","slice_us":2000,"template":"cpu-hog"}]}"#,
        )
        .unwrap();
        let p = plan(&c, host(2)).unwrap();
        let got: Vec<_> = p.processes.iter().map(|p| (p.sched_policy, p.rt_priority, p.slice_ns)).collect();
        assert_eq!(got, vec![(SchedPolicy::Fifo, 50, 0), (SchedPolicy::Rr, 1, 0), (SchedPolicy::Normal, 0, 2_000_000)]);
        let rt = p.notes.iter().find(|n| n.starts_with("real-time threads")).expect("a note on them");
        assert!(rt.contains("'f' SCHED_FIFO 50, 'r' SCHED_RR 1") && rt.contains("killed by the kernel 2 s"), "{rt}");
        assert!(p
            .notes
            .iter()
            .any(|n| n.starts_with("processes[0] ('f'): a real-time or deadline process has no EEVDF")));
        // A run without them says nothing of them.
        let fair = plan(&cfg("", r#"{"nodes":1,"cores_per_node":4}"#), host(4)).unwrap();
        assert!(fair.notes.iter().all(|n| !n.contains("real-time")), "{:?}", fair.notes);
    }

    #[test]
    fn a_deadline_process_keeps_its_reservation_and_pinned_or_forking_ones_are_refused() {
        let text = r#"{"version":1,"name":"t","duration_ms":100,"machine":{"nodes":1,"cores_per_node":2},
          "policy":{"kind":"eevdf"},"processes":[
            {"name":"d","sched_policy":"deadline","dl_runtime_us":10000,"dl_deadline_us":50000,"dl_period_us":100000,
             "slice_us":3000,"template":"cpu-hog"},
            {"name":"n","template":"cpu-hog"}]}"#;
        let c = load_scenario(text).unwrap();
        let p = plan(&c, host(2)).unwrap();
        let dl = DlParams { runtime_ns: 10_000_000, deadline_ns: 50_000_000, period_ns: 100_000_000, reclaim: false };
        assert_eq!(
            (p.processes[0].sched_policy, p.processes[0].dl, p.processes[0].slice_ns),
            (SchedPolicy::Deadline, Some(dl), 0)
        );
        assert_eq!(p.processes[1].dl, None);
        let note = p.notes.iter().find(|n| n.starts_with("deadline threads on the host")).expect("a note on them");
        assert!(note.contains("'d' SCHED_DEADLINE runtime 10 ms, deadline 50 ms, period 100 ms"), "{note}");
        assert!(p.notes.iter().any(|n| n.contains("a real-time or deadline process has no EEVDF slice")));
        // The scenario's validation refuses both; a configuration built otherwise is refused here.
        let mut bad = c.clone();
        bad.processes[0].affinity = Some(crate::topology::cpumask::CpuMask::from_range(0..1));
        bad.processes[0].program.push(crate::program::Op::Fork(vec![crate::program::Op::Exit]));
        let err = plan(&bad, host(2)).unwrap_err();
        assert_eq!(err.len(), 2, "{err:?}");
        assert!(err[0].starts_with("processes[0].cpus: '0' — a deadline process may not be pinned"), "{err:?}");
        assert!(err[1].starts_with("processes[0].program: fork — a deadline thread cannot fork"), "{err:?}");
        // A run without them says nothing of them.
        let fair = plan(&cfg("", r#"{"nodes":1,"cores_per_node":4}"#), host(4)).unwrap();
        assert!(fair.notes.iter().all(|n| !n.contains("deadline")), "{:?}", fair.notes);
    }

    #[test]
    fn steps_and_address_spaces_the_runner_lacks_are_refused() {
        let text = r#"{"version":1,"name":"t","duration_ms":100,"machine":{"nodes":1,"cores_per_node":2},
          "processes":[{"name":"a","address_space":"s","program":[{"body":[{"timer":"t","period_us":9}]}]},
                       {"name":"b","address_space":"s","program":[{"cond_signal":"q"}]}]}"#;
        let err = plan(&load_scenario(text).unwrap(), host(2)).unwrap_err();
        assert_eq!(
            err,
            [
                "processes[0].address_space: 's' — a real run's processes share no objects by name",
                "processes[0].program: timer — a real run has no such step yet",
                "processes[1].address_space: 's' — a real run's processes share no objects by name",
                "processes[1].program: cond_signal — a real run has no such step yet",
            ]
        );
    }

    #[test]
    fn thread_streams_differ() {
        assert_ne!(thread_seed(1, 0, 1), thread_seed(1, 1, 0));
        assert_ne!(thread_seed(1, 0, 0), thread_seed(2, 0, 0));
    }

    #[test]
    fn new_tasks_are_placed_untraced_from_4_8_on() {
        assert!(places_new_tasks_untraced("6.18.44-fc-v669"));
        assert!(places_new_tasks_untraced("4.8.0"));
        assert!(!places_new_tasks_untraced("4.7.10-generic"));
        assert!(!places_new_tasks_untraced("4.1.15"));
        assert!(!places_new_tasks_untraced("3.19.0"));
        assert!(!places_new_tasks_untraced("unknown"));
    }
}

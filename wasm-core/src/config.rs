//! The engine's run configuration: what a validated scenario turns into.
//! Plain Rust types, no serialization (that lives in `api::scenario`).

use crate::machine::Machine;
use crate::program::Op;
use crate::sched::identity::Identity;
use crate::sched::thread_weight::AlphaFormula;
use crate::sched::tunables::{CfsFeatures, CfsKnobs};
use crate::topology::cpumask::CpuMask;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SimConfig {
    pub name: String,
    /// The kernel generation the run models (4.1 unless the scenario says otherwise).
    pub kernel: Kernel,
    pub seed: u64,
    pub duration_ns: u64,
    /// Scheduler tick frequency (CONFIG_HZ).
    pub hz: u32,
    pub machine: Machine,
    pub knobs: CfsKnobs,
    pub features: CfsFeatures,
    /// Which fair-class policy runs (CFS unless the scenario says otherwise).
    pub policy: PolicyConfig,
    pub bugs: BugSwitches,
    /// `sched_autogroup_enabled`: one task group per session.
    pub autogroup: bool,
    /// Mutexes are PI futexes (PTHREAD_PRIO_INHERIT): the kernel's rt_mutex
    /// boosts an owner to its most urgent waiter's prio (`sim/pi.rs`).
    pub pi_mutexes: bool,
    pub costs: CostModel,
    /// CONFIG_NO_HZ_IDLE (default on): idle CPUs stop their tick and are
    /// balanced by the idle load balancer.
    pub nohz: bool,
    /// The kernel's preemption model (CONFIG_PREEMPT_*).
    pub preempt: PreemptModel,
    /// The paper's sanity checker (None = off).
    pub sanity: Option<SanityConfig>,
    pub cgroups: Vec<CgroupSpec>,
    pub processes: Vec<ProcessSpec>,
    pub events: Vec<TimedEvent>,
    /// The event budget: a run stops (with a message) after this many
    /// events, so no scenario can keep the engine busy without end.
    pub event_budget: u64,
}

/// A kernel generation the model speaks for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Kernel {
    /// Linux 4.1.15: CFS with per-entity load tracking over `cpu_load[]`.
    #[default]
    Linux41,
    /// Linux 6.12.117 as Debian ships it: EEVDF, three-signal PELT, the
    /// 5.5 balancer (issue 40; being built, not yet offered by the format).
    Linux612,
}

/// The most threads a run may have. Validation counts a scenario's; at run
/// time a fork past it fails, as fork() does with EAGAIN, and the report
/// says so. Exited threads count (each keeps its statistics in the report),
/// so a fork loop cannot grow the run without bound.
pub const MAX_THREADS: u32 = 10_000;

/// The default event budget: at most a few minutes of engine time natively
/// (0.6 to 2 µs an event on the largest shapes the limits admit:
/// `npm run bench:limits`), far beyond every preset (the largest uses a few
/// million events). Validation refuses a run estimated past it (`api::scenario::limits`).
pub const DEFAULT_EVENT_BUDGET: u64 = 100_000_000;

/// The paper's sanity checker (`sim::sanity`): every `period_ns` it looks
/// for an idle CPU while a thread waits, and reports one that lasts
/// `window_ns`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SanityConfig {
    pub period_ns: u64,
    pub window_ns: u64,
}

/// The scheduling policy of the fair class.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PolicyKind {
    /// CFS as in Linux 4.1.
    Cfs,
    /// CFS with PFS thread weights: process weight / its threads.
    Pfs,
    /// CFS with DW-CFS thread weights: W · α(Nt, No).
    DwCfs,
    /// EEVDF (Linux 6.6+): eligibility by lag, earliest virtual deadline.
    Eevdf,
    /// The O(1) scheduler of 2.6.0–2.6.22 (its own class; `sim::o1::class`).
    O1,
    /// A sched_ext policy written in JavaScript (`sim::ext::class`).
    Ext,
}

/// A sched_ext policy: its JavaScript source and the watchdog's timeout.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExtPolicy {
    pub source: String,
    pub watchdog_ns: u64,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PolicyConfig {
    pub kind: PolicyKind,
    /// DW-CFS: which reconstruction of α, and β (α at Nt = No) in thousandths.
    pub alpha: AlphaFormula,
    pub beta_milli: u32,
    /// `sched_group_identity_enabled`: cgroup identities take effect.
    pub group_identity: bool,
    /// EEVDF: each process's custom slice in ns, by tgid (0 = base slice).
    pub slices: Vec<u64>,
    /// Policy `ext`: the user's policy.
    pub ext: Option<ExtPolicy>,
}

impl PolicyConfig {
    pub fn cfs() -> PolicyConfig {
        PolicyConfig {
            kind: PolicyKind::Cfs,
            alpha: AlphaFormula::A,
            beta_milli: 1100,
            group_identity: false,
            slices: Vec::new(),
            ext: None,
        }
    }
}

/// The four load-balancing bugs of "The Linux Scheduler: a Decade of Wasted
/// Cores"; true = the bug is present (Linux 4.1 as shipped).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BugSwitches {
    /// Busiest group chosen by average load (fix: compare minimum loads).
    pub group_imbalance: bool,
    /// Overlapping NUMA groups built from the lowest CPU's view (fix: each CPU's own).
    pub group_construction: bool,
    /// Wakeups search only the previous CPU's LLC (fix: idle prev, else longest-idle CPU).
    pub overload_on_wakeup: bool,
    /// Domain rebuilds after hotplug drop the NUMA levels (fix: keep them).
    pub missing_domains: bool,
}

impl BugSwitches {
    pub fn linux_4_1() -> BugSwitches {
        BugSwitches { group_imbalance: true, group_construction: true, overload_on_wakeup: true, missing_domains: true }
    }

    pub fn all_fixed() -> BugSwitches {
        BugSwitches {
            group_imbalance: false,
            group_construction: false,
            overload_on_wakeup: false,
            missing_domains: false,
        }
    }
}

/// What scheduling costs the machine, charged as extra CPU work to the task
/// that pays it. Defaults [kernel-model.md 8; RECALL for the cache figures]:
/// 1.5 µs per context switch (direct cost measured about 1–2 µs), 2 µs for a
/// wakeup sent to another CPU (IPI), and a cache refill after a migration of
/// 10 µs within a node and 40 µs across nodes. The IPI is taken by the target
/// CPU before the wakee's own code runs, so wakeup latencies include it; the
/// cache refill does not delay the wakee's first instruction and is left out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CostModel {
    pub context_switch_ns: u64,
    pub wakeup_ipi_ns: u64,
    pub migration_cold_ns: u64,
    pub migration_cold_remote_ns: u64,
    /// SMT contention: the speed, in percent, at which a hardware thread
    /// runs its task's work while another thread of its core is busy.
    /// 100 (the default) models no contention, as the paper's figures need;
    /// Intel Hyper-Threading is often quoted at 1.2-1.3x the throughput of one
    /// thread for two, i.e. about 60-65 % each [RECALL: configurable].
    pub smt_sibling_speed_pct: u32,
    /// Creating a thread (`pthread_create`: a stack mapped, `clone`), paid by
    /// the process's first thread for each of the others before its own
    /// program [RECALL: about 15 µs]. 0 starts all threads at once.
    pub clone_ns: u64,
}

pub use crate::time::FULL_SPEED_PCT;

impl CostModel {
    pub fn defaults() -> CostModel {
        CostModel {
            context_switch_ns: 1_500,
            wakeup_ipi_ns: 2_000,
            migration_cold_ns: 10_000,
            migration_cold_remote_ns: 40_000,
            smt_sibling_speed_pct: FULL_SPEED_PCT,
            clone_ns: 15_000,
        }
    }
}

/// A CPU-controller cgroup; parents come before children.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CgroupSpec {
    pub name: String,
    pub shares: u64,
    pub parent: Option<String>,
    /// Group Identity class (`cpu.identity`), and the SMT-expeller bit
    /// (highclass only); children inherit their parent's.
    pub identity: Identity,
    pub smt_expeller: bool,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProcessSpec {
    pub name: String,
    pub nice: i32,
    /// `sched_setscheduler`'s policy and real-time priority (1–99 for FIFO and RR).
    pub sched_policy: crate::sched::policy::SchedPolicy,
    pub rt_priority: u32,
    /// SCHED_DEADLINE's reservation (deadline processes only).
    pub dl: Option<crate::sched::policy::DlParams>,
    pub threads: u32,
    pub start_ns: u64,
    pub program: Vec<Op>,
    /// Allowed CPUs (taskset / numactl); None = all.
    pub affinity: Option<CpuMask>,
    /// The login session / tty (its autogroup); None = the default session.
    pub session: Option<String>,
    /// An explicit cgroup (then autogroup does not apply).
    pub cgroup: Option<String>,
    /// Jobs shared by the threads through `take_job` (0 = none).
    pub job_pool: u32,
    /// The address space whose named objects (mutexes, barriers, condition
    /// variables, shared timers) it shares with the other processes naming
    /// it, as threads of one program do; None = its own.
    pub address_space: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TimedEvent {
    pub at_ns: u64,
    pub kind: TimedEventKind,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimedEventKind {
    CpuOffline(u32),
    CpuOnline(u32),
}

/// The kernel's preemption model. Distributions ship CONFIG_PREEMPT_VOLUNTARY;
/// of the modelled scheduler code only `detach_tasks` reads it (4.1 stops a
/// newly-idle pass after one task under CONFIG_PREEMPT only).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum PreemptModel {
    None,
    #[default]
    Voluntary,
    Full,
}

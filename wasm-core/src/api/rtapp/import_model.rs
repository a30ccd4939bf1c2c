//! An rt-app file as the import reads it, before it becomes a scenario: its
//! tasks with their properties, phases and events, and what the reading
//! found (keys refused, notes). The files beside it fill it in
//! (`import_task`, `import_events`) and turn it into processes
//! (`import_program`).

/// What the file does not say (a plain rt-app file has no machine or seed).
#[derive(Clone, Debug)]
pub struct Defaults {
    pub name: String,
    pub machine: String,
    pub policy: String,
    /// Used when `global.duration` is -1 (until every task ends) or absent.
    pub duration_ms: u64,
}

impl Default for Defaults {
    fn default() -> Self {
        Defaults { name: "rt-app".into(), machine: "laptop-2c4t".into(), policy: "cfs".into(), duration_ms: 10_000 }
    }
}

/// What reading found besides the workload: keys with no schedlab
/// equivalent (the import is refused, each named), and notes on what was
/// read another way or left out.
#[derive(Debug, Default)]
pub struct Findings {
    pub refused: Vec<String>,
    pub notes: Vec<String>,
}

impl Findings {
    pub fn refuse(&mut self, at: &str, why: impl std::fmt::Display) {
        self.refused.push(format!("{at}: {why}"));
    }

    pub fn note(&mut self, at: &str, what: impl std::fmt::Display) {
        self.notes.push(format!("{at}: {what}"));
    }
}

/// An rt-app event as schedlab carries it out. rt-app's compound events are
/// already spelt out: `sync` is a signal then a wait, `suspend` a wait on
/// the task's own condition under its own mutex, `resume` a broadcast under
/// the named one's.
#[derive(Clone, Debug, PartialEq)]
pub enum Event {
    Run(u64),
    Sleep(u64),
    /// rt-app's `runtime`: busy until this much wall-clock time has passed.
    Busy(u64),
    Lock(String),
    Unlock(String),
    CondWait {
        cond: String,
        mutex: String,
    },
    Signal(String),
    Broadcast(String),
    Barrier(String),
    /// `unique`: the ref begins with "unique", so each thread has its own;
    /// `absolute`: this use says so (rt-app keeps the mode on the timer).
    Timer {
        name: String,
        period_us: u64,
        unique: bool,
        absolute: bool,
    },
    Yield,
    /// A new thread running the named task.
    Fork(String),
}

/// rt-app's scheduling policies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Policy {
    Other,
    Batch,
    Idle,
    Fifo,
    Rr,
    Deadline,
}

/// A SCHED_DEADLINE reservation, µs (rt-app's dl-runtime, dl-deadline and
/// dl-period, with its defaults filled in).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reservation {
    pub runtime_us: u64,
    pub deadline_us: u64,
    pub period_us: u64,
}

/// A task's properties, as its threads start with them.
#[derive(Clone, Debug, PartialEq)]
pub struct Props {
    pub policy: Policy,
    /// The nice level (SCHED_OTHER, SCHED_BATCH) or the real-time priority
    /// (SCHED_FIFO, SCHED_RR); SCHED_IDLE has none.
    pub priority: i64,
    pub cpus: Option<Vec<u32>>,
    /// The taskgroup's path ("/a/b"); None: the root.
    pub taskgroup: Option<String>,
    /// A custom slice (sched_runtime under a fair policy, Linux 6.12).
    pub slice_us: Option<u64>,
    /// SCHED_DEADLINE's reservation.
    pub reservation: Option<Reservation>,
    /// The initial delay, in whole milliseconds.
    pub delay_ms: u64,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Phase {
    /// None: forever.
    pub looped: Option<u32>,
    pub events: Vec<Event>,
    /// The phase's own properties, which rt-app applies each time it begins it.
    pub props: PhaseProps,
}

/// What a phase sets when it begins (rt-app.c's `thread_body`: `set_thread_affinity`,
/// `set_thread_param` and `set_thread_taskgroup` before each pass of a phase).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PhaseProps {
    /// Its `cpus`; a phase without them runs on the task's (or the thread's first affinity).
    pub cpus: Option<Vec<u32>>,
    /// Its `taskgroup`: Some(None) for "/", the root; a phase without one stays where the thread is.
    pub taskgroup: Option<Option<String>>,
    /// Its scheduling keys as written; None when it has none that count (rt-app's
    /// `parse_sched_data` then gives the phase no sched data and the thread keeps what it has).
    pub asked: Option<PhaseSched>,
    /// The policy the phase's `sched_setattr` step sets, when it begins with one
    /// (`import_phase_sched`: where what it asks differs from what the thread has).
    pub sched: Option<SchedSet>,
}

/// The scheduling keys an object (a task or a phase) sets, as written: its
/// policy, priority and dl-runtime, dl-period, dl-deadline (a task's legacy
/// runtime, period and deadline where those are absent), µs; a dl-* of 0 is
/// absent, as rt-app reads it. rt-app fills in the defaults where the thread
/// takes them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PhaseSched {
    pub policy: Option<Policy>,
    pub priority: Option<i64>,
    pub runtime: Option<i64>,
    pub period: Option<i64>,
    pub deadline: Option<i64>,
}

/// What a thread's scheduling is as a `sched_setattr` step sets it: a policy,
/// its real-time priority (FIFO, RR) or its reservation (DEADLINE). Its nice
/// level and custom slice are the task's throughout (a step keeps them).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SchedSet {
    pub policy: Policy,
    pub rt_priority: Option<i64>,
    pub reservation: Option<Reservation>,
    /// SCHED_OTHER and SCHED_BATCH: the nice level the phase sets.
    pub nice: Option<i64>,
}

/// A task of the file: `instances` threads (0: only forked), each running its
/// phases `looped` times.
#[derive(Clone, Debug, PartialEq)]
pub struct Task {
    pub name: String,
    pub instances: u32,
    pub props: Props,
    pub looped: Option<u32>,
    pub phases: Vec<Phase>,
}

impl Task {
    /// Every event of the task, in order, with the number of times one pass
    /// of the task's loop runs it (a phase looping forever counts once).
    pub fn events(&self) -> impl Iterator<Item = (&Event, u64)> {
        self.phases.iter().flat_map(|p| p.events.iter().map(move |e| (e, u64::from(p.looped.unwrap_or(1)))))
    }
}

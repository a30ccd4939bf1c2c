//! What a run will cost, estimated from its shape before it starts, and the
//! shapes refused because they could not finish in a few minutes.
//!
//! The engine's time is about proportional to the events it handles (natively
//! 0.3 to 2 µs each, the most on 1,024 CPUs: `npm run bench`). The estimate:
//!
//! * **ticks**: a CPU takes `hz` ticks a second while it is busy; an idle one
//!   stops its tick (NO_HZ idle, the fair class's default), so the ticks are
//!   hz × the CPU time the programs want (at most CPUs × duration). Without
//!   NO_HZ, or under a class that keeps idle ticks, every online CPU ticks —
//!   CPUs × hz × duration;
//! * **program events**: each burst and each sleep a thread takes ends with
//!   an event (system calls happen inside the event that reaches them, and
//!   one that may switch the CPU away costs a context switch of CPU time).
//!   A thread that loops goes round its
//!   loop at most once per (mean run + mean sleep) of one pass, a pass without
//!   time at most once per µs; when the threads' loops want more CPU time
//!   than there are CPUs, they go round slower in proportion (they share the
//!   CPUs), and no faster together than one at a time through the time they
//!   hold a mutex; a thread of a finite program takes its steps once; threads
//!   that take jobs from a pool share its jobs; a forked child's steps count,
//!   and its CPU time runs beside its parent's rather than in it.
//!
//! It leaves out what the engine adds on its own (balancing kicks, stale
//! timers) and what programs decide at run time (a barrier's waiting, a
//! wake chain's timing): the tests hold it to within a factor of the events
//! every preset and benchmark shape really takes.
//!
//! A scenario estimated above `MAX_ESTIMATED_EVENTS` (the run's event
//! budget, 100 million) is refused at validation with the estimate and the
//! reason. The engine takes 0.6 to 2 µs an event natively on the largest
//! shapes the limits admit (the most with many task groups), so an admitted
//! run ends within about 3 minutes (`npm run bench:limits` runs them); one
//! the estimate misjudged still stops at its event budget.
//!
//! Memory: a run's own state is fixed by its shape, apart from records kept
//! in bounded rings. The largest part is the task groups: every cgroup and
//! autogroup session has a runqueue and an entity on every CPU (about
//! 0.5 KB), so more than `MAX_GROUP_RUNQUEUES` of them are refused too.

use super::diagnostic::Diagnostic;
use crate::config::SimConfig;
use crate::program::{Dist, Op};

/// The most events a run may be estimated to take: its event budget.
pub const MAX_ESTIMATED_EVENTS: u64 = crate::config::DEFAULT_EVENT_BUDGET;
/// The most group runqueues a run may hold: every task group (cgroup or
/// autogroup session) has a runqueue and an entity on every CPU, about
/// 0.5 KB each, so this is about 256 MB (512 groups on 1,024 CPUs).
pub const MAX_GROUP_RUNQUEUES: u64 = 524_288;
/// A loop pass that takes no time is counted as taking this long.
const MIN_PASS_NS: f64 = 1_000.0;

/// The estimated events of a run.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Estimate {
    pub ticks: u64,
    pub program: u64,
    /// The CPU time that ticks, in CPU-seconds: every CPU's whole run, or
    /// (NO_HZ idle) the CPU time the programs want.
    pub ticking_cpu_s: f64,
    /// Every online CPU ticks all through the run.
    pub every_cpu_ticks: bool,
}

impl Estimate {
    /// Events in all.
    pub fn total(&self) -> u64 {
        self.ticks.saturating_add(self.program)
    }
}

/// One pass through a list of steps: CPU time, sleep time, steps (means),
/// the CPU time spent holding a mutex (which the process's threads cannot
/// spend at once), and the CPU time of the children it forks (which runs
/// beside the thread's own time, not in it).
#[derive(Clone, Copy, Debug, Default)]
struct Pass {
    run: f64,
    sleep: f64,
    steps: f64,
    locked: f64,
    forked: f64,
}

impl Pass {
    fn add(&mut self, o: Pass, times: f64) {
        self.run += o.run * times;
        self.sleep += o.sleep * times;
        self.steps += o.steps * times;
        self.locked += o.locked * times;
        self.forked += o.forked * times;
    }

    /// The CPU time the pass keeps busy: its own and its children's.
    fn cpu(&self) -> f64 {
        self.run + self.forked
    }
}

/// A program: the steps it takes before looping forever (or ending), and the
/// endless loop's pass if it has one.
#[derive(Clone, Copy, Debug, Default)]
struct Shape {
    once: Pass,
    forever: Option<Pass>,
    takes_jobs: bool,
}

fn mean(d: &Dist) -> f64 {
    match *d {
        Dist::Fixed(v) => v as f64,
        Dist::Uniform(lo, hi) => (lo as f64 + hi as f64) / 2.0,
        Dist::Exponential { mean } => mean as f64,
    }
}

/// The shape of `ops` run from the start (steps after an endless loop or an
/// exit are never reached). A run step ends with an event (its burst's end),
/// a sleep with one (its timer), a barrier's spin with one; system calls are
/// carried out inside the event that reaches them, and one that may switch
/// the CPU away (wait, lock, yield, barrier, wait for a child) costs a
/// context switch (`switch_ns`) of CPU time.
fn shape(ops: &[Op], switch_ns: f64) -> Shape {
    let mut s = Shape::default();
    let step = |run: f64, sleep: f64, steps: f64| Pass { run, sleep, steps, ..Pass::default() };
    let mut held = 0u32;
    // The time of this list's steps since its last timer: a timer sleeps out the rest of its period.
    let mut since_timer = 0.0;
    for op in ops {
        let before = s.once.run + s.once.sleep;
        match op {
            Op::Run(d) | Op::Busy(d) => {
                s.once.add(step(mean(d), 0.0, 1.0), 1.0);
                if held > 0 {
                    s.once.locked += mean(d);
                }
            }
            Op::Sleep(d) => s.once.add(step(0.0, mean(d), 1.0), 1.0),
            Op::Timer(t) => {
                s.once.add(step(0.0, (t.period_ns as f64 - since_timer).max(0.0), 1.0), 1.0);
                since_timer = 0.0;
                continue;
            }
            Op::Barrier { spin, .. } => s.once.add(step(mean(spin) + switch_ns, 0.0, 1.0), 1.0),
            // Like a barrier: a wait that may end with an event and a switch.
            Op::Flag { spin, .. } => s.once.add(step(mean(spin) + switch_ns, 0.0, 1.0), 1.0),
            Op::Wait | Op::CondWait { .. } | Op::Yield | Op::WaitChild | Op::Exec => {
                s.once.add(step(switch_ns, 0.0, 0.0), 1.0)
            }
            Op::Lock(_) => {
                s.once.add(step(switch_ns, 0.0, 0.0), 1.0);
                held += 1;
            }
            Op::Unlock(_) => held = held.saturating_sub(1),
            Op::Wake { .. }
            | Op::CondSignal(_)
            | Op::CondBroadcast(_)
            | Op::SchedSetattr(_)
            | Op::SetCpus(_)
            | Op::SetCgroup(_) => {}
            Op::Exit => return s,
            Op::Repeat { times, body } => {
                let inner = shape(body, switch_ns);
                s.takes_jobs |= inner.takes_jobs;
                match (times, inner.forever) {
                    (_, Some(f)) => {
                        // The body's own endless loop is reached on the first pass.
                        s.once.add(inner.once, 1.0);
                        s.forever = Some(f);
                        return s;
                    }
                    (None, None) => {
                        s.forever = Some(inner.once);
                        return s;
                    }
                    (Some(n), None) => s.once.add(inner.once, *n as f64),
                }
            }
            Op::Fork(child) => {
                // The child's steps and CPU time are the run's too (it ends at its end), its
                // time spent beside this thread's.
                let c = shape(child, switch_ns);
                s.once.add(Pass { steps: c.once.steps, forked: c.once.cpu(), ..Pass::default() }, 1.0);
            }
            Op::TakeJob => s.takes_jobs = true,
        }
        since_timer += s.once.run + s.once.sleep - before;
    }
    s
}

/// The estimated events of a run of `cfg` (see the module's description).
pub fn estimate(cfg: &SimConfig) -> Estimate {
    let cpus = cfg.machine.nr_cpus() as f64;
    let duration = cfg.duration_ns as f64;
    let tickless = crate::sim::class::class_for(cfg.policy.kind, cfg.kernel).stops_idle_tick(cfg.kernel, cfg.nohz);
    // Each process: its threads' time in the run, its shape.
    let procs: Vec<(f64, f64, Shape, u32)> = cfg
        .processes
        .iter()
        .map(|p| {
            let s = shape(&p.program, cfg.costs.context_switch_ns as f64);
            ((duration - p.start_ns as f64).max(0.0), p.threads as f64, s, p.job_pool)
        })
        .collect();
    // CPU time the endless loops want, against what the CPUs give.
    let demand: f64 = procs
        .iter()
        .filter_map(|(t, n, s, _)| s.forever.map(|f| n * t * f.cpu() / (f.run + f.sleep).max(MIN_PASS_NS)))
        .sum();
    let share = if demand > cpus * duration { cpus * duration / demand } else { 1.0 };
    let (mut program, mut busy_ns) = (0.0, 0.0);
    for (time, threads, s, jobs) in &procs {
        let once_time = (s.once.run + s.once.sleep).max(1.0);
        // A finite part longer than the run is cut short by the run's end.
        let once = s.once.steps * (time / once_time).min(1.0);
        let left = (time - once_time).max(0.0);
        let passes = s.forever.map_or(0.0, |f| {
            let mut passes = threads * left / (f.run + f.sleep).max(MIN_PASS_NS) * share;
            if f.locked > 0.0 {
                // The threads take the mutex one at a time.
                passes = passes.min(left / f.locked);
            }
            passes
        });
        busy_ns += threads * s.once.cpu() * (time / once_time).min(1.0) + passes * s.forever.map_or(0.0, |f| f.cpu());
        let mut events = threads * once + passes * s.forever.map_or(0.0, |f| f.steps);
        if s.takes_jobs {
            // The pool's jobs are shared: each is one pass of one thread.
            let per_job = s.forever.map_or(s.once.steps, |f| f.steps);
            events = events.min((*jobs as f64 + threads) * per_job.max(1.0));
        }
        program += events;
    }
    // Demand summed thread by thread may fall short of the CPUs' whole time
    // by a rounding: within a millionth, every CPU ticks.
    let every_cpu_ticks = !tickless || busy_ns >= cpus * duration * (1.0 - 1e-6);
    let ticking_ns = if every_cpu_ticks { cpus * duration } else { busy_ns };
    let ticks = (cfg.hz as f64 * ticking_ns / 1e9).round();
    Estimate {
        ticks: ticks as u64,
        ticking_cpu_s: ticking_ns / 1e9,
        every_cpu_ticks,
        program: program.min(u64::MAX as f64 / 2.0) as u64,
    }
}

/// The configuration, or the refusal of its cost: its memory on `processes`
/// (their sessions make the groups), its events on `duration_ms` (the field
/// most often to change).
pub fn admit(cfg: SimConfig) -> Result<SimConfig, Vec<Diagnostic>> {
    match refusal(&cfg) {
        None => Ok(cfg),
        Some((field, reason)) => Err(vec![Diagnostic { field: field.into(), reason }]),
    }
}

/// The task groups a run creates besides the root: its cgroups, and one
/// autogroup per session of the processes outside a cgroup (as
/// `Simulator::new` builds them).
pub fn task_groups(cfg: &SimConfig) -> u64 {
    let mut sessions: Vec<&str> = Vec::new();
    if cfg.autogroup {
        for p in cfg.processes.iter().filter(|p| p.cgroup.is_none()) {
            let s = p.session.as_deref().unwrap_or("default");
            if !sessions.contains(&s) {
                sessions.push(s);
            }
        }
    }
    (cfg.cgroups.len() + sessions.len()) as u64
}

/// Why a scenario is refused for its cost, if it is: (field, reason).
pub fn refusal(cfg: &SimConfig) -> Option<(&'static str, String)> {
    let groups = task_groups(cfg);
    let cpus = cfg.machine.nr_cpus() as u64;
    if groups * cpus > MAX_GROUP_RUNQUEUES {
        return Some((
            "processes",
            format!(
                "{groups} task groups (cgroups and autogroup sessions) on {cpus} CPUs need {} group runqueues, more \
             than the {} a run may hold (about 0.5 KB each): use at most {} sessions or cgroups, or \
             \"autogroup\": false",
                group(groups * cpus),
                group(MAX_GROUP_RUNQUEUES),
                MAX_GROUP_RUNQUEUES / cpus
            ),
        ));
    }
    let e = estimate(cfg);
    if e.total() <= MAX_ESTIMATED_EVENTS {
        return None;
    }
    let secs = cfg.duration_ns as f64 / 1e9;
    let max_ms = (cfg.duration_ns as f64 * MAX_ESTIMATED_EVENTS as f64 / e.total() as f64 / 1e6).floor();
    let ticking = if e.every_cpu_ticks {
        format!("{} CPUs x {} Hz x {secs} s", cfg.machine.nr_cpus(), cfg.hz)
    } else {
        format!("{} Hz x {:.2} busy CPU-seconds, idle CPUs stopping their tick", cfg.hz, e.ticking_cpu_s)
    };
    Some((
        "duration_ms",
        format!(
            "the run is estimated at {} events ({} ticks: {ticking}, and {} from the programs), \
         more than its event budget of {} (a few minutes natively): shorten duration_ms to about {max_ms} or \
         less, or lower hz, the CPUs or the threads' rate of steps",
            group(e.total()),
            group(e.ticks),
            group(e.program),
            group(MAX_ESTIMATED_EVENTS),
        ),
    ))
}

/// 1234567 → "1,234,567".
fn group(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, ch) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(ch);
    }
    out
}

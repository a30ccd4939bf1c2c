//! The simulator: owns the whole state of a run and advances it event by
//! event. A run is a pure function of its `SimConfig` (seed included).
//!
//! ```text
//!   SimConfig ──► Simulator::new ──► step_event / step_tick / run_until ──► views, report
//!                     │                         │
//!                     └── EventQueue<Event> ◄───┘  (Tick, BurstEnd, Wakeup, Spawn)
//! ```
//!
//! `Simulator` is `Clone`: a clone is a full snapshot, and restoring is
//! assigning it back. Equivalence tests rely on this.

mod core;
pub mod events;
mod runqueue;

pub use runqueue::Rq;

use crate::config::SimConfig;
use crate::event_queue::EventQueue;
use crate::program::{Program, ProgramCursor};
use crate::rbtree::Rotation;
use crate::rng::Rng;
use crate::sched::tunables::CfsTunables;
use crate::task::{Process, Task};
use crate::time::{CpuId, Pid, SimTime, NSEC_PER_SEC};
use crate::trace::Trace;
use events::{Event, EventClass};

/// Rotations remembered for the UI (the most recent ones).
const ROTATION_LOG: usize = 64;

#[derive(Clone, Debug)]
pub struct Simulator {
    name: String,
    seed: u64,
    duration: SimTime,
    tick_ns: u64,
    now: SimTime,
    queue: EventQueue<Event>,
    rng: Rng,
    tasks: Vec<Task>,
    procs: Vec<Process>,
    programs: Vec<Program>,
    rqs: Vec<Rq>,
    tunables: CfsTunables,
    trace: Trace,
    events: u64,
    finished: bool,
    rotations: Vec<(CpuId, Rotation<Pid>)>,
}

impl Simulator {
    pub fn new(cfg: &SimConfig) -> Simulator {
        let nr_cpus = cfg.machine.nr_cpus();
        let tunables = CfsTunables::for_cpus(&cfg.knobs, &cfg.features, nr_cpus);
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
            rqs: (0..nr_cpus).map(Rq::new).collect(),
            tunables,
            trace: Trace::default(),
            events: 0,
            finished: false,
            rotations: Vec::new(),
        };
        for spec in &cfg.processes {
            let tgid = sim.procs.len() as u32;
            let program = sim.programs.len();
            sim.programs.push(Program::compile(&spec.program));
            let mut threads = Vec::new();
            for i in 0..spec.threads {
                let pid = sim.tasks.len() as Pid;
                let name = if spec.threads == 1 { spec.name.clone() } else { format!("{}/{}", spec.name, i) };
                sim.tasks.push(Task::new(pid, tgid, name, spec.nice, ProgramCursor::new(program)));
                threads.push(pid);
            }
            let start_at = SimTime(spec.start_ns);
            sim.procs.push(Process { tgid, name: spec.name.clone(), threads, start_at });
            sim.push(start_at, Event::Spawn(tgid));
        }
        for cpu in 0..nr_cpus {
            sim.push(SimTime(sim.tick_ns), Event::Tick(cpu));
        }
        sim
    }

    /// Processes the next event. Returns false once the run is finished.
    pub fn step_event(&mut self) -> bool {
        self.step().is_some()
    }

    /// Processes events up to and including the next scheduler tick.
    pub fn step_tick(&mut self) -> bool {
        loop {
            match self.step() {
                None => return false,
                Some(EventClass::Tick) => return true,
                Some(EventClass::Other) => {}
            }
        }
    }

    /// Processes every event up to time `t` (capped at the run's duration);
    /// afterwards `now()` is `t`.
    pub fn run_until(&mut self, t: SimTime) {
        let t = t.min(self.duration);
        while self.queue.peek_time().is_some_and(|next| next <= t) {
            if self.step().is_none() {
                return;
            }
        }
        if !self.finished {
            self.now = self.now.max(t);
            if t == self.duration {
                self.finish();
            }
        }
    }

    /// Runs to the end.
    pub fn run_to_end(&mut self) {
        while self.step().is_some() {}
    }

    fn step(&mut self) -> Option<EventClass> {
        if self.finished {
            return None;
        }
        loop {
            match self.queue.peek_time() {
                Some(t) if t <= self.duration => {}
                _ => {
                    self.finish();
                    return None;
                }
            }
            let (at, event) = self.queue.pop()?;
            self.now = self.now.max(at);
            if let Some(class) = self.handle(event) {
                self.events += 1;
                self.collect_rotations();
                return Some(class);
            }
        }
    }

    fn collect_rotations(&mut self) {
        for rq in &mut self.rqs {
            for r in rq.cfs.tree.take_rotations() {
                self.rotations.push((rq.cpu, r));
            }
        }
        if self.rotations.len() > ROTATION_LOG {
            let excess = self.rotations.len() - ROTATION_LOG;
            self.rotations.drain(..excess);
        }
    }

    /// Forgets remembered rotations; the UI calls this before each step so it
    /// can show what that step did.
    pub fn clear_rotations(&mut self) {
        self.rotations.clear();
    }

    pub fn rotations(&self) -> &[(CpuId, Rotation<Pid>)] {
        &self.rotations
    }

    fn push(&mut self, at: SimTime, event: Event) {
        // Every caller schedules at or after `now`; the queue refuses the past.
        if self.queue.push(at, event).is_err() {
            debug_assert!(false, "event scheduled in the past");
        }
    }

    /// The time of the next pending event, if any.
    pub fn next_event_time(&self) -> Option<SimTime> {
        self.queue.peek_time()
    }

    pub fn name(&self) -> &str {
        &self.name
    }
    pub fn seed(&self) -> u64 {
        self.seed
    }
    pub fn now(&self) -> SimTime {
        self.now
    }
    pub fn duration(&self) -> SimTime {
        self.duration
    }
    pub fn tick_ns(&self) -> u64 {
        self.tick_ns
    }
    pub fn finished(&self) -> bool {
        self.finished
    }
    pub fn events_processed(&self) -> u64 {
        self.events
    }
    pub fn tasks(&self) -> &[Task] {
        &self.tasks
    }
    pub fn processes(&self) -> &[Process] {
        &self.procs
    }
    pub fn rqs(&self) -> &[Rq] {
        &self.rqs
    }
    pub fn tunables(&self) -> &CfsTunables {
        &self.tunables
    }
    pub fn trace(&self) -> &Trace {
        &self.trace
    }
}

//! The small programs tasks run: bursts of CPU, sleeps, loops.
//!
//! A scenario describes a program as nested operations; here it is compiled
//! into flat bytecode so a task's position is just a program counter plus a
//! stack of loop counters (cheap to clone for snapshots).
//!
//! ```text
//!   [ LoopBegin{times, end} , Run(d) , Sleep(d) , LoopEnd{begin} , ... ]  then Exit
//! ```
//!
//! `next_action` executes control flow until it reaches something that takes
//! time. A loop whose body takes no time would spin forever at one instant, so
//! the interpreter gives up after `MAX_ZERO_TIME_STEPS` and says so
//! (`Action::Stalled`): the simulator ends the task and notes it. Validation
//! refuses a loop that repeats forever with nothing that takes time.

use crate::rng::Rng;

/// A duration drawn per use from the run's single PRNG.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Dist {
    Fixed(u64),
    /// Inclusive bounds.
    Uniform(u64, u64),
    Exponential {
        mean: u64,
    },
}

impl Dist {
    pub fn sample(&self, rng: &mut Rng) -> u64 {
        match *self {
            Dist::Fixed(v) => v,
            Dist::Uniform(lo, hi) => rng.uniform(lo, hi),
            Dist::Exponential { mean } => rng.exponential(mean),
        }
    }
}

/// A program as written in a scenario.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Op {
    Run(Dist),
    Sleep(Dist),
    /// `times: None` repeats forever.
    Repeat {
        times: Option<u32>,
        body: Vec<Op>,
    },
    Exit,
    /// Block until woken (a futex wait); a wakeup that came first is not lost.
    Wait,
    /// Wake thread `thread` of the process named `process` (a futex wake).
    Wake {
        process: String,
        thread: u32,
    },
    /// Wait at the process-wide barrier `name`: spin up to `spin`, then block.
    Barrier {
        name: String,
        spin: Dist,
    },
    Lock(String),
    Unlock(String),
    /// `sched_yield`.
    Yield,
    /// Take a job from the process's job pool (make's job server); the
    /// thread exits when the pool is empty.
    TakeJob,
    /// fork(): start a child (in the same process and group) running `0`;
    /// it exits at the end of its program.
    Fork(Vec<Op>),
    /// wait(): block until a child exits (at once if one already has, or if
    /// there is no child left).
    WaitChild,
    /// execve(): the thread starts a new program image; the scheduler places
    /// it again (`sched_exec`).
    Exec,
    /// One side of a one-slot flag between two threads of the process (NAS
    /// lu's `isync`), waited for as `wait` says.
    Flag {
        name: String,
        side: FlagSide,
        /// The other thread, as an offset from this one's index.
        peer: i32,
        wait: WaitPolicy,
        spin: Dist,
    },
    /// A busy loop until this much wall-clock time has passed since the step
    /// began, however long the thread waited for a CPU meanwhile (rt-app's
    /// `runtime`; `Run` is an amount of work instead).
    Busy(Dist),
    /// Sleep until the timer's next period starts, as `clock_nanosleep`
    /// with TIMER_ABSTIME sleeps (rt-app's `timer`).
    Timer(TimerOp),
    /// `pthread_cond_wait`: release `mutex` (if held), sleep on `cond`, and
    /// hold `mutex` again on waking.
    CondWait {
        cond: String,
        mutex: String,
    },
    /// `pthread_cond_signal`: the longest waiter on the condition wakes.
    CondSignal(String),
    /// `pthread_cond_broadcast`: every waiter on the condition wakes.
    CondBroadcast(String),
    /// `sched_setattr` on the calling thread: its policy and parameters from
    /// now on (`sim/setattr.rs`).
    SchedSetattr(crate::sched::policy::SchedAttr),
    /// `sched_setaffinity` on the calling thread: the CPUs it may run on from
    /// now on (`sim/affinity.rs`).
    SetCpus(crate::topology::cpumask::CpuMask),
    /// The calling thread moves itself to a cgroup (a write of its tid to the
    /// cgroup's `tasks`): the index of the scenario's cgroup, or None for the
    /// root (`sim/move_group.rs`).
    SetCgroup(Option<u32>),
}

/// A timer step as written: which timer, its period, and how it catches up.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TimerOp {
    pub name: String,
    pub period_ns: u64,
    /// One timer for every thread that names it (each use moves it on by a
    /// period), rather than one per thread.
    pub shared: bool,
    /// After an overrun the next period still starts where the last one
    /// ended (the timer catches up), rather than at the late use.
    pub absolute: bool,
}

/// A timer step as the engine carries it out: the timer's index (in its
/// thread's timers, or shared ones), its period, and how it catches up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimerStep {
    pub id: usize,
    pub shared: bool,
    pub period_ns: u64,
    pub absolute: bool,
}

/// Which side of a one-slot flag a step is. The flag between threads i and
/// j = i + offset belongs to the poster: `Post` waits until it is clear and
/// sets it, `Await` (on the other thread) waits until it is set and clears it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FlagSide {
    Post,
    Await,
}

/// How a thread waits for a flag: the waits OpenMP runtimes offer (and what
/// NAS's own loops do: spin).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WaitPolicy {
    /// Busy-wait until the flag changes, on the CPU the whole time.
    Spin,
    /// Spin for a while, `sched_yield`, and again, until the flag changes.
    Yield,
    /// Spin for a while (perhaps not at all), then block until woken.
    Block,
}

/// A flag step as the engine carries it out: the flag's index in its
/// process, the side, the peer offset, the wait, and this use's spin.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FlagStep {
    pub id: usize,
    pub side: FlagSide,
    pub peer: i32,
    pub wait: WaitPolicy,
    pub spin_ns: u64,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Insn {
    Run(Dist),
    Sleep(Dist),
    LoopBegin {
        times: Option<u32>,
        end: usize,
    },
    LoopEnd {
        begin: usize,
    },
    Exit,
    /// A barrier's spin is drawn per use, so it stays an instruction.
    Barrier {
        id: usize,
        spin: Dist,
    },
    /// So is a flag wait's.
    Flag {
        id: usize,
        side: FlagSide,
        peer: i32,
        wait: WaitPolicy,
        spin: Dist,
    },
    /// So is a busy loop's length.
    Busy(Dist),
    /// Every other system call is fixed at compile time.
    Call(Action),
}

/// Resolves names when compiling: process names to tgids, and the names of
/// synchronisation objects to indices among their process's (or address
/// space's).
pub trait NameResolver {
    fn tgid(&self, process: &str) -> u32;
    fn barrier(&mut self, name: &str) -> usize;
    fn mutex(&mut self, name: &str) -> usize;
    fn flag(&mut self, name: &str) -> usize;
    fn cond(&mut self, name: &str) -> usize;
    /// A shared timer's index among the shared ones, or a thread's own
    /// timer's among each thread's.
    fn timer(&mut self, name: &str, shared: bool) -> usize;
    /// Compiles a forked child's program and returns its program index.
    fn subprogram(&mut self, ops: &[Op]) -> usize;
}

/// Compiled, immutable bytecode shared by all threads of a process.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Program {
    code: Vec<Insn>,
    /// The masks of its `set_cpus` steps (an action is `Copy`; a mask is not).
    cpumasks: Vec<crate::topology::cpumask::CpuMask>,
}

/// What a task does next. Run and Sleep take time; the others are
/// instantaneous system calls the simulator carries out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    Run(u64),
    Sleep(u64),
    Exit,
    Wait,
    Wake {
        tgid: u32,
        thread: u32,
    },
    Barrier {
        id: usize,
        spin_ns: u64,
    },
    Lock(usize),
    Unlock(usize),
    Yield,
    TakeJob,
    Fork(usize),
    WaitChild,
    Exec,
    Flag(FlagStep),
    /// Busy on the CPU for this much wall-clock time (`Op::Busy`).
    Busy(u64),
    Timer(TimerStep),
    CondWait {
        cond: usize,
        mutex: usize,
    },
    CondSignal(usize),
    CondBroadcast(usize),
    SchedSetattr(crate::sched::policy::SchedAttr),
    /// `Op::SetCpus`: the index of the mask among its program's (`Program::cpumask`).
    SetCpus(usize),
    SetCgroup(Option<u32>),
    /// A process's first thread creates its next thread (`pthread_create`);
    /// the engine puts these before the first thread's program, never a
    /// scenario's.
    CreateThread,
    /// The program went round `MAX_ZERO_TIME_STEPS` steps without reaching
    /// anything that takes time: it would spin at one instant forever.
    Stalled,
}

pub const MAX_ZERO_TIME_STEPS: u32 = 10_000;

impl Program {
    pub fn compile(ops: &[Op], names: &mut dyn NameResolver) -> Program {
        let mut program = Program { code: Vec::new(), cpumasks: Vec::new() };
        emit(ops, &mut program, names);
        program.code.push(Insn::Exit);
        program
    }

    /// The mask of a `SetCpus(i)` action of this program.
    pub fn cpumask(&self, i: usize) -> &crate::topology::cpumask::CpuMask {
        &self.cpumasks[i]
    }

    pub fn len(&self) -> usize {
        self.code.len()
    }

    pub fn is_empty(&self) -> bool {
        self.code.is_empty()
    }
}

fn emit(ops: &[Op], program: &mut Program, names: &mut dyn NameResolver) {
    for op in ops {
        let code = &mut program.code;
        match op {
            Op::Run(d) => code.push(Insn::Run(d.clone())),
            Op::Sleep(d) => code.push(Insn::Sleep(d.clone())),
            Op::Exit => code.push(Insn::Exit),
            Op::Wait => code.push(Insn::Call(Action::Wait)),
            Op::Wake { process, thread } => {
                code.push(Insn::Call(Action::Wake { tgid: names.tgid(process), thread: *thread }))
            }
            Op::Barrier { name, spin } => code.push(Insn::Barrier { id: names.barrier(name), spin: spin.clone() }),
            Op::Lock(name) => code.push(Insn::Call(Action::Lock(names.mutex(name)))),
            Op::Unlock(name) => code.push(Insn::Call(Action::Unlock(names.mutex(name)))),
            Op::Yield => code.push(Insn::Call(Action::Yield)),
            Op::TakeJob => code.push(Insn::Call(Action::TakeJob)),
            Op::Fork(child) => {
                let program = names.subprogram(child);
                code.push(Insn::Call(Action::Fork(program)));
            }
            Op::WaitChild => code.push(Insn::Call(Action::WaitChild)),
            Op::Exec => code.push(Insn::Call(Action::Exec)),
            Op::Flag { name, side, peer, wait, spin } => code.push(Insn::Flag {
                id: names.flag(name),
                side: *side,
                peer: *peer,
                wait: *wait,
                spin: spin.clone(),
            }),
            Op::Busy(d) => code.push(Insn::Busy(d.clone())),
            Op::Timer(t) => code.push(Insn::Call(Action::Timer(TimerStep {
                id: names.timer(&t.name, t.shared),
                shared: t.shared,
                period_ns: t.period_ns,
                absolute: t.absolute,
            }))),
            Op::CondWait { cond, mutex } => {
                code.push(Insn::Call(Action::CondWait { cond: names.cond(cond), mutex: names.mutex(mutex) }))
            }
            Op::CondSignal(cond) => code.push(Insn::Call(Action::CondSignal(names.cond(cond)))),
            Op::CondBroadcast(cond) => code.push(Insn::Call(Action::CondBroadcast(names.cond(cond)))),
            Op::SchedSetattr(attr) => code.push(Insn::Call(Action::SchedSetattr(*attr))),
            Op::SetCpus(mask) => {
                code.push(Insn::Call(Action::SetCpus(program.cpumasks.len())));
                program.cpumasks.push(mask.clone());
            }
            Op::SetCgroup(group) => code.push(Insn::Call(Action::SetCgroup(*group))),
            Op::Repeat { times, body } => {
                let begin = code.len();
                code.push(Insn::LoopBegin { times: *times, end: 0 });
                emit(body, program, names);
                let end = program.code.len();
                program.code.push(Insn::LoopEnd { begin });
                program.code[begin] = Insn::LoopBegin { times: *times, end };
            }
        }
    }
}

/// A task's position in its process's program.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ProgramCursor {
    pub program: usize,
    pc: usize,
    /// Remaining iterations of each open loop (None = forever).
    loops: Vec<Option<u32>>,
}

impl ProgramCursor {
    pub fn new(program: usize) -> ProgramCursor {
        ProgramCursor { program, pc: 0, loops: Vec::new() }
    }

    /// Runs control flow up to the next action that takes time.
    pub fn next_action(&mut self, prog: &Program, rng: &mut Rng) -> Action {
        for _ in 0..MAX_ZERO_TIME_STEPS {
            let Some(insn) = prog.code.get(self.pc) else {
                return Action::Exit;
            };
            match insn {
                // A zero-length run or sleep takes no time: keep going, so it
                // counts against MAX_ZERO_TIME_STEPS like any other control step.
                Insn::Run(d) => {
                    self.pc += 1;
                    match d.sample(rng) {
                        0 => {}
                        ns => return Action::Run(ns),
                    }
                }
                Insn::Sleep(d) => {
                    self.pc += 1;
                    match d.sample(rng) {
                        0 => {}
                        ns => return Action::Sleep(ns),
                    }
                }
                Insn::Busy(d) => {
                    self.pc += 1;
                    match d.sample(rng) {
                        0 => {}
                        ns => return Action::Busy(ns),
                    }
                }
                Insn::Exit => return Action::Exit,
                Insn::Barrier { id, spin } => {
                    self.pc += 1;
                    return Action::Barrier { id: *id, spin_ns: spin.sample(rng) };
                }
                Insn::Flag { id, side, peer, wait, spin } => {
                    self.pc += 1;
                    let spin_ns = spin.sample(rng);
                    return Action::Flag(FlagStep { id: *id, side: *side, peer: *peer, wait: *wait, spin_ns });
                }
                Insn::Call(action) => {
                    self.pc += 1;
                    return *action;
                }
                Insn::LoopBegin { times, end } => {
                    if *times == Some(0) {
                        self.pc = end + 1;
                    } else {
                        self.loops.push(*times);
                        self.pc += 1;
                    }
                }
                Insn::LoopEnd { begin } => {
                    let again = match self.loops.last_mut() {
                        Some(None) => true,
                        Some(Some(n)) => {
                            *n -= 1;
                            *n > 0
                        }
                        None => false,
                    };
                    if again {
                        self.pc = begin + 1;
                    } else {
                        self.loops.pop();
                        self.pc += 1;
                    }
                }
            }
        }
        Action::Stalled
    }
}

/// Whether `ops` (loops and forked programs included) move to the root cgroup.
pub fn moves_to_root_cgroup(ops: &[Op]) -> bool {
    ops.iter().any(|op| match op {
        Op::SetCgroup(None) => true,
        Op::Repeat { body, .. } | Op::Fork(body) => moves_to_root_cgroup(body),
        _ => false,
    })
}

/// Whether `ops` (loops and forked programs included) set a policy `wanted` picks.
pub fn sets_policy(ops: &[Op], wanted: fn(crate::sched::policy::SchedPolicy) -> bool) -> bool {
    ops.iter().any(|op| match op {
        Op::SchedSetattr(attr) => wanted(attr.policy),
        Op::Repeat { body, .. } | Op::Fork(body) => sets_policy(body, wanted),
        _ => false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    struct NoNames;
    impl NameResolver for NoNames {
        fn tgid(&self, _: &str) -> u32 {
            0
        }
        fn barrier(&mut self, _: &str) -> usize {
            0
        }
        fn mutex(&mut self, _: &str) -> usize {
            0
        }
        fn flag(&mut self, _: &str) -> usize {
            0
        }
        fn cond(&mut self, _: &str) -> usize {
            0
        }
        fn timer(&mut self, _: &str, _: bool) -> usize {
            0
        }
        fn subprogram(&mut self, _: &[Op]) -> usize {
            0
        }
    }

    fn actions(ops: &[Op], n: usize) -> Vec<Action> {
        let p = Program::compile(ops, &mut NoNames);
        let mut c = ProgramCursor::new(0);
        let mut rng = Rng::new(1);
        (0..n).map(|_| c.next_action(&p, &mut rng)).collect()
    }

    #[test]
    fn nested_loops_repeat_the_right_number_of_times() {
        let ops = vec![Op::Repeat {
            times: Some(2),
            body: vec![Op::Run(Dist::Fixed(1)), Op::Repeat { times: Some(2), body: vec![Op::Sleep(Dist::Fixed(2))] }],
        }];
        use Action::*;
        assert_eq!(actions(&ops, 8), vec![Run(1), Sleep(2), Sleep(2), Run(1), Sleep(2), Sleep(2), Exit, Exit]);
    }

    #[test]
    fn empty_infinite_loop_ends_instead_of_hanging() {
        let ops = vec![Op::Repeat { times: None, body: vec![] }];
        assert_eq!(actions(&ops, 1), vec![Action::Stalled]);
    }

    #[test]
    fn a_busy_loop_of_zero_is_skipped_and_calls_pass_through() {
        let t = TimerOp { name: "t".into(), period_ns: 5, shared: true, absolute: true };
        let ops = vec![Op::Busy(Dist::Fixed(0)), Op::Busy(Dist::Fixed(7)), Op::Timer(t), Op::CondSignal("q".into())];
        let timer = TimerStep { id: 0, shared: true, period_ns: 5, absolute: true };
        use Action::*;
        assert_eq!(actions(&ops, 4), vec![Busy(7), Timer(timer), CondSignal(0), Exit]);
    }

    #[test]
    fn zero_times_skips_the_body() {
        let ops = vec![Op::Repeat { times: Some(0), body: vec![Op::Run(Dist::Fixed(5))] }, Op::Sleep(Dist::Fixed(3))];
        assert_eq!(actions(&ops, 2), vec![Action::Sleep(3), Action::Exit]);
    }
}

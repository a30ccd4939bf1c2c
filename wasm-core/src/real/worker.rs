//! Inside a workload process: a thread per scenario thread running its
//! program with real primitives, and the process's first thread holding the
//! process open until the last of them (forks included) has exited.
//!
//! ```text
//!   run_us    burn CPU until the thread's own CPU clock advanced that much
//!   sleep_us  clock_nanosleep(CLOCK_MONOTONIC)       yield      sched_yield
//!   wait/wake a per-thread futex counter in shared memory (a wake first is not lost)
//!   barrier   spin on CPU time, then futex           lock       futex mutex
//!   take_job  the process's shared pool               fork       a new thread of the process
//!   wait_child block until a forked child exits (at once if one has, or none is left)
//!   exec      nothing: a thread cannot execve alone, so the host's sched_exec is not exercised
//!   post/await a one-slot flag word per posting thread (`real::flag`), skipped without a peer
//! ```
//!
//! Each thread sets its nice level, slice, affinity and, last, its policy
//! (SCHED_FIFO / SCHED_RR with its priority, or SCHED_DEADLINE with its
//! reservation through `sched_setattr`: its first run of the program is then
//! real-time or deadline), reports its tid to the runner, then waits at the
//! gate (the runner closes the gate pipe) and sleeps until the workload's
//! start plus its process's `start_ms`. Durations come from the thread's own
//! stream. The process's first thread, which only holds the process open,
//! stays fair: it creates the scenario's threads, which a deadline thread
//! could not (`sched_fork` refuses it).

use super::flag::Flag;
use super::plan::{thread_seed, PlanProcess, OUTLIVE_WINDOW_NS, START_WITHIN_NS};
use super::shared::{Barrier, Mutex, Shared, MAX_THREADS_PER_PROC};
use super::sys;
use crate::program::{Action, FlagSide, Program, ProgramCursor};
use crate::rng::Rng;
use crate::sched::policy::SchedPolicy;
use std::os::fd::RawFd;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering::SeqCst};
use std::sync::Arc;

/// What a thread reports to the runner: a tid, or a set-up step that failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Report {
    Tid { proc_: u32, thread: u32, tid: u32 },
    Failed { proc_: u32, step: Step, errno: i32 },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    Affinity = 1,
    Nice = 2,
    Cgroup = 3,
    Thread = 4,
    Slice = 5,
    /// sched_setscheduler: the process's policy (a real-time one refused: EPERM).
    Policy = 6,
    /// The process's kill timer (`sys::KillTimer`).
    Timer = 7,
    /// sched_setattr(SCHED_DEADLINE): the process's reservation (refused: EBUSY, EPERM, EINVAL).
    Deadline = 8,
}

impl Report {
    pub fn encode(self) -> [u8; 16] {
        let w: [u32; 4] = match self {
            Report::Tid { proc_, thread, tid } => [0, proc_, thread, tid],
            Report::Failed { proc_, step, errno } => [1, proc_, step as u32, errno as u32],
        };
        let mut out = [0u8; 16];
        for (i, v) in w.iter().enumerate() {
            out[i * 4..i * 4 + 4].copy_from_slice(&v.to_ne_bytes());
        }
        out
    }

    pub fn decode(b: &[u8; 16]) -> Option<Report> {
        let w = |i: usize| u32::from_ne_bytes([b[i * 4], b[i * 4 + 1], b[i * 4 + 2], b[i * 4 + 3]]);
        let step = match w(2) {
            1 => Step::Affinity,
            2 => Step::Nice,
            3 => Step::Cgroup,
            5 => Step::Slice,
            6 => Step::Policy,
            7 => Step::Timer,
            8 => Step::Deadline,
            _ => Step::Thread,
        };
        match w(0) {
            0 => Some(Report::Tid { proc_: w(1), thread: w(2), tid: w(3) }),
            1 => Some(Report::Failed { proc_: w(1), step, errno: w(3) as i32 }),
            _ => None,
        }
    }
}

/// One workload process's context, shared by its threads.
pub struct Proc {
    pub index: usize,
    pub spec: PlanProcess,
    pub seed: u64,
    /// The run's window length, for the kill timer's deadline.
    duration_ns: u64,
    timer: Option<sys::KillTimer>,
    /// Whether a thread has moved the timer to the window's end.
    deadline_moved: AtomicBool,
    pub shared: &'static Shared,
    pub gate_fd: RawFd,
    pub report_fd: RawFd,
    barriers: Vec<Barrier>,
    mutexes: Vec<Mutex>,
    /// Flag `f` of thread `k` at `f * MAX_THREADS_PER_PROC + k`.
    flags: Vec<Flag>,
    /// Threads of this process still running (the holder waits for 0).
    live: AtomicU32,
}

/// A thread's forked children: alive, and exits not yet waited for.
#[derive(Default)]
struct Family {
    live_children: AtomicU32,
    child_exits: AtomicU32,
}

/// Sends a report to the runner (a 16-byte write, atomic on a pipe).
pub fn report(fd: RawFd, r: Report) {
    let b = r.encode();
    // SAFETY: writing 16 bytes (< PIPE_BUF, so atomic) from a live buffer.
    unsafe { libc::write(fd, b.as_ptr() as *const libc::c_void, b.len()) };
}

fn errno() -> i32 {
    std::io::Error::last_os_error().raw_os_error().unwrap_or(0)
}

/// Runs workload process `index` (the caller has forked and joined its cgroup); never returns.
///
/// Before any thread starts, the process arms its kill timer: the kernel kills
/// it if it is still alive `OUTLIVE_WINDOW_NS` after the latest window the run
/// could have (threads may take `START_WITHIN_NS` to start); once the gate
/// opens, the first thread moves the deadline to that after the window
/// itself. So a thread of the run, a real-time hog pinned to a CPU above all,
/// never outlives it by more, whatever becomes of the runner.
pub fn run_process(
    index: usize,
    spec: PlanProcess,
    seed: u64,
    duration_ns: u64,
    shared: &'static Shared,
    gate_fd: RawFd,
    report_fd: RawFd,
) -> ! {
    // The threads' start and the runner's preparations (tracing, counters) each take well under START_WITHIN_NS.
    let latest_end = sys::mono_ns() + 2 * START_WITHIN_NS + duration_ns;
    let timer = match sys::KillTimer::arm(latest_end + OUTLIVE_WINDOW_NS) {
        Ok(t) => Some(t),
        Err(_) => {
            report(report_fd, Report::Failed { proc_: index as u32, step: Step::Timer, errno: errno() });
            None
        }
    };
    let proc_ = Arc::new(Proc {
        index,
        barriers: (0..spec.barriers).map(|_| Barrier::default()).collect(),
        mutexes: (0..spec.mutexes).map(|_| Mutex::default()).collect(),
        flags: (0..spec.flags * MAX_THREADS_PER_PROC).map(|_| Flag::default()).collect(),
        live: AtomicU32::new(spec.threads),
        spec,
        seed,
        duration_ns,
        timer,
        deadline_moved: AtomicBool::new(false),
        shared,
        gate_fd,
        report_fd,
    });
    sys::set_thread_name(&format!("{}-main", proc_.spec.name));
    for k in 0..proc_.spec.threads as usize {
        let p = proc_.clone();
        if spawn(move || thread_main(p, k, 0, None, true)).is_err() {
            report(report_fd, Report::Failed { proc_: index as u32, step: Step::Thread, errno: errno() });
            proc_.live.fetch_sub(1, SeqCst);
        }
    }
    loop {
        let v = proc_.live.load(SeqCst);
        if v == 0 {
            break;
        }
        sys::futex_wait(&proc_.live, v);
    }
    // SAFETY: ends the process without running the runner's exit handlers.
    unsafe { libc::_exit(0) }
}

fn spawn(f: impl FnOnce() + Send + 'static) -> std::io::Result<()> {
    std::thread::Builder::new().stack_size(256 * 1024).spawn(f).map(|_| ())
}

fn thread_main(p: Arc<Proc>, k: usize, program: usize, parent: Option<Arc<Family>>, gated: bool) {
    let tid = sys::gettid();
    let spec = &p.spec;
    sys::set_thread_name(&format!("{}/{k}", spec.name));
    let idx = p.index as u32;
    if sys::set_nice(tid, spec.nice).is_err() {
        report(p.report_fd, Report::Failed { proc_: idx, step: Step::Nice, errno: errno() });
    }
    if spec.slice_ns > 0 && sys::set_slice(tid, spec.nice, spec.slice_ns).is_err() {
        report(p.report_fd, Report::Failed { proc_: idx, step: Step::Slice, errno: errno() });
    }
    if let Some(cpus) = &spec.host_cpus {
        if sys::set_affinity(cpus).is_err() {
            report(p.report_fd, Report::Failed { proc_: idx, step: Step::Affinity, errno: errno() });
        }
    }
    // Last, on its own CPUs already: from here on the thread is what the scenario says (a fork inherits it).
    if let Some(dl) = spec.dl.as_ref().filter(|_| spec.sched_policy.is_dl()) {
        if sys::set_deadline(0, spec.nice, dl).is_err() {
            report(p.report_fd, Report::Failed { proc_: idx, step: Step::Deadline, errno: errno() });
        }
    } else if spec.sched_policy != SchedPolicy::Normal
        && sys::set_policy(tid, spec.sched_policy, spec.rt_priority).is_err()
    {
        report(p.report_fd, Report::Failed { proc_: idx, step: Step::Policy, errno: errno() });
    }
    report(p.report_fd, Report::Tid { proc_: idx, thread: k as u32, tid });
    if gated {
        let mut b = [0u8; 1];
        // The gate opens when the runner closes its end: read returns 0.
        // SAFETY: reading into a live one-byte buffer.
        while unsafe { libc::read(p.gate_fd, b.as_mut_ptr() as *mut libc::c_void, 1) } != 0 && errno() == libc::EINTR {}
        let t0 = p.shared.t0_ns.load(SeqCst);
        if !p.deadline_moved.swap(true, SeqCst) {
            if let Some(t) = &p.timer {
                // Earlier only: a failure leaves the first deadline, which still holds.
                let _ = t.set(t0.saturating_add(p.duration_ns).saturating_add(OUTLIVE_WINDOW_NS));
            }
        }
        sys::sleep_until_ns(t0.saturating_add(spec.start_ns));
    }
    let family = Arc::new(Family::default());
    run_program(&p, k, program, &family);
    if let Some(parent) = parent {
        let _ = parent.live_children.fetch_update(SeqCst, SeqCst, |v| v.checked_sub(1));
        parent.child_exits.fetch_add(1, SeqCst);
        sys::futex_wake(&parent.child_exits, u32::MAX);
    }
    if p.live.fetch_sub(1, SeqCst) == 1 {
        sys::futex_wake(&p.live, 1);
    }
}

fn run_program(p: &Arc<Proc>, k: usize, program: usize, family: &Arc<Family>) {
    let programs: &[Program] = &p.spec.programs;
    let shared = p.shared;
    let mut rng = Rng::new(thread_seed(p.seed, p.index, k));
    let mut cursor = ProgramCursor::new(program);
    loop {
        let Some(prog) = programs.get(cursor.program) else { return };
        match cursor.next_action(prog, &mut rng) {
            Action::Run(ns) => sys::burn_cpu_ns(ns),
            Action::Sleep(ns) => sys::sleep_ns(ns),
            Action::Exit => return,
            // The engine's own step for its first thread; a program never yields it (here the runner creates
            // the threads itself).
            Action::CreateThread => {}
            // As the model does: a program going round without taking time ends its thread.
            Action::Stalled => {
                shared.stalled.fetch_add(1, SeqCst);
                return;
            }
            Action::Wait => shared.wait(p.index, k),
            Action::Wake { tgid, thread } => shared.wake(tgid as usize, thread as usize),
            Action::Barrier { id, spin_ns } => {
                p.barriers[id].arrive(shared.procs[p.index].threads.load(SeqCst), spin_ns)
            }
            Action::Lock(id) => p.mutexes[id].lock(),
            Action::Unlock(id) => p.mutexes[id].unlock(),
            Action::Yield => sys::sched_yield(),
            Action::TakeJob => {
                if !shared.take_job(p.index) {
                    return;
                }
            }
            Action::Fork(child) => fork_thread(p, child, family),
            Action::Exec => {}
            // Refused by the plan as the arm below (`plan::first_model_only_step`).
            Action::SetCpus(_) | Action::SetCgroup(_) => {}
            // The plan refuses a program with these steps (`plan::first_model_only_step`).
            Action::Busy(_)
            | Action::Timer(_)
            | Action::CondWait { .. }
            | Action::CondSignal(_)
            | Action::CondBroadcast(_)
            | Action::SchedSetattr(_) => {}
            Action::Flag(step) => {
                let started = shared.procs[p.index].threads.load(SeqCst) as i64;
                let peer = k as i64 + step.peer as i64;
                if step.peer != 0 && (0..started).contains(&peer) {
                    let (poster, from) = match step.side {
                        FlagSide::Post => (k, 0),
                        FlagSide::Await => (peer as usize, 1),
                    };
                    p.flags[step.id * MAX_THREADS_PER_PROC + poster].pass(from, step.wait, step.spin_ns);
                }
            }
            Action::WaitChild => loop {
                let exits = family.child_exits.load(SeqCst);
                if exits > 0 {
                    if family.child_exits.compare_exchange(exits, exits - 1, SeqCst, SeqCst).is_ok() {
                        break;
                    }
                    continue;
                }
                if family.live_children.load(SeqCst) == 0 {
                    break;
                }
                sys::futex_wait(&family.child_exits, 0);
            },
        }
    }
}

/// The model's fork: a child in the parent's process running `program`.
/// Past the thread cap it fails (counted), and the parent goes on.
fn fork_thread(p: &Arc<Proc>, program: usize, family: &Arc<Family>) {
    let shared = p.shared;
    let refuse = || {
        shared.forks_refused.fetch_add(1, SeqCst);
    };
    if shared.threads.fetch_add(1, SeqCst) >= super::plan::MAX_REAL_THREADS {
        shared.threads.fetch_sub(1, SeqCst);
        return refuse();
    }
    let k = shared.procs[p.index].threads.fetch_add(1, SeqCst) as usize;
    if k >= MAX_THREADS_PER_PROC {
        shared.procs[p.index].threads.fetch_sub(1, SeqCst);
        shared.threads.fetch_sub(1, SeqCst);
        return refuse();
    }
    family.live_children.fetch_add(1, SeqCst);
    p.live.fetch_add(1, SeqCst);
    let (child_p, parent) = (p.clone(), family.clone());
    if spawn(move || thread_main(child_p, k, program, Some(parent), false)).is_err() {
        family.live_children.fetch_sub(1, SeqCst);
        p.live.fetch_sub(1, SeqCst);
        refuse();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reports_survive_the_pipe_encoding() {
        for r in [
            Report::Tid { proc_: 3, thread: 7, tid: 12345 },
            Report::Failed { proc_: 1, step: Step::Affinity, errno: 22 },
            Report::Failed { proc_: 0, step: Step::Policy, errno: libc::EPERM },
            Report::Failed { proc_: 2, step: Step::Timer, errno: 12 },
            Report::Failed { proc_: 4, step: Step::Deadline, errno: libc::EBUSY },
        ] {
            assert_eq!(Report::decode(&r.encode()), Some(r));
        }
    }
}

//! Starting and stopping the workload's processes.
//!
//! ```text
//!   runner (child subreaper) ─fork─► session leader (setsid if autogroup, else its own process group)
//!                                      ─fork─► workload process (joins its cgroup) ─► threads (worker.rs)
//! ```
//!
//! One leader per scenario session, so the processes of a session share the
//! kernel's autogroup as they share the model's. Every process started dies
//! with its parent (PR_SET_PDEATHSIG); `Kids` kills each leader's process
//! group and reaps every descendant (the runner is their subreaper) when the
//! run ends, fails or is interrupted; and each workload process arms its own
//! kill timer first (`worker::run_process`), for when the runner cannot.

use super::plan::Plan;
use super::shared::Shared;
use super::worker::{report, run_process, Report, Step};
use std::os::fd::RawFd;
use std::path::PathBuf;

/// The session leaders' name (`comm`).
pub const LEADER_NAME: &str = "schedlab-lead";

/// The processes a run started. Dropping it stops them all.
#[derive(Default)]
pub struct Kids {
    leaders: Vec<libc::pid_t>,
    /// Leaders reaped so far.
    exited: Vec<libc::pid_t>,
    reaped: bool,
}

/// Pipes of the run: the gate (closed by the runner to start) and the reports (threads → runner).
pub struct Pipes {
    pub gate_r: RawFd,
    pub gate_w: RawFd,
    pub report_r: RawFd,
    pub report_w: RawFd,
}

fn pipe() -> Result<(RawFd, RawFd), String> {
    let mut fds = [0; 2];
    // SAFETY: fds is a valid 2-element out-array.
    if unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) } != 0 {
        return Err(format!("pipe: {}", std::io::Error::last_os_error()));
    }
    Ok((fds[0], fds[1]))
}

pub fn close(fd: RawFd) {
    if fd >= 0 {
        // SAFETY: closing a descriptor this process owns.
        unsafe { libc::close(fd) };
    }
}

impl Pipes {
    pub fn new() -> Result<Pipes, String> {
        let (gate_r, gate_w) = pipe()?;
        let (report_r, report_w) = pipe()?;
        Ok(Pipes { gate_r, gate_w, report_r, report_w })
    }
}

/// In a child just forked: die with the parent, take default signal actions.
fn child_setup(parent: libc::pid_t) {
    // SAFETY: plain system calls in the child.
    unsafe {
        libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL as libc::c_ulong, 0, 0, 0);
        if libc::getppid() != parent {
            libc::_exit(1);
        }
        for sig in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
            libc::signal(sig, libc::SIG_DFL);
        }
    }
}

impl Kids {
    /// Forks one leader per session and the workload processes under them.
    /// The caller must be single-threaded.
    pub fn start(plan: &Plan, shared: &'static Shared, pipes: &Pipes, cgroups: &[PathBuf]) -> Result<Kids, String> {
        // SAFETY: prctl on the calling process.
        unsafe { libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) };
        let mut sessions: Vec<&str> = Vec::new();
        for p in &plan.processes {
            if !sessions.contains(&p.session.as_str()) {
                sessions.push(&p.session);
            }
        }
        let mut kids = Kids::default();
        let runner = std::process::id() as libc::pid_t;
        for session in sessions {
            // SAFETY: the runner is single-threaded here; the child only makes system
            // calls and forks before it runs workload code, and ends with _exit.
            let pid = unsafe { libc::fork() };
            if pid < 0 {
                return Err(format!("fork: {}", std::io::Error::last_os_error()));
            }
            if pid == 0 {
                leader(plan, session, shared, pipes, cgroups, runner);
            }
            kids.leaders.push(pid);
        }
        Ok(kids)
    }

    /// Whether every leader has exited (all workload processes are done).
    pub fn all_done(&mut self) -> bool {
        loop {
            // SAFETY: non-blocking reap of any child (leaders, and orphans handed to us).
            let pid = unsafe { libc::waitpid(-1, std::ptr::null_mut(), libc::WNOHANG) };
            if pid <= 0 {
                break;
            }
            if self.leaders.contains(&pid) {
                self.exited.push(pid);
            }
        }
        self.exited.len() == self.leaders.len()
    }

    /// Kills every process started and reaps them all.
    pub fn stop(&mut self) {
        if self.reaped {
            return;
        }
        for &l in self.leaders.iter().filter(|l| !self.exited.contains(l)) {
            // SAFETY: signalling the process group this run created (its leader still unreaped,
            // so the id is still ours), then the leader itself.
            unsafe {
                libc::kill(-l, libc::SIGKILL);
                libc::kill(l, libc::SIGKILL);
            }
        }
        // Orphans come to the runner (subreaper): wait until no child is left.
        // SAFETY: blocking reap; every child was sent SIGKILL.
        while unsafe { libc::waitpid(-1, std::ptr::null_mut(), 0) } > 0 {}
        self.reaped = true;
    }
}

impl Drop for Kids {
    fn drop(&mut self) {
        self.stop();
    }
}

/// A session leader: starts the session's workload processes and waits for them.
fn leader(
    plan: &Plan,
    session: &str,
    shared: &'static Shared,
    pipes: &Pipes,
    cgroups: &[PathBuf],
    runner: libc::pid_t,
) -> ! {
    child_setup(runner);
    super::sys::set_thread_name(LEADER_NAME);
    // SAFETY: system calls in the single-threaded leader.
    unsafe {
        if plan.autogroup {
            libc::setsid();
        } else {
            libc::setpgid(0, 0);
        }
    }
    close(pipes.gate_w);
    close(pipes.report_r);
    let me = std::process::id() as libc::pid_t;
    for (i, p) in plan.processes.iter().enumerate().filter(|(_, p)| p.session == session) {
        // SAFETY: the leader is single-threaded; the child never returns.
        let pid = unsafe { libc::fork() };
        if pid < 0 {
            let errno = std::io::Error::last_os_error().raw_os_error().unwrap_or(0);
            report(pipes.report_w, Report::Failed { proc_: i as u32, step: Step::Thread, errno });
        }
        if pid == 0 {
            child_setup(me);
            if let Some(dir) = p.cgroup.and_then(|g| cgroups.get(g)) {
                if let Err(e) = super::cgroup::Groups::join(dir, std::process::id()) {
                    let errno = e.raw_os_error().unwrap_or(0);
                    report(pipes.report_w, Report::Failed { proc_: i as u32, step: Step::Cgroup, errno });
                }
            }
            run_process(i, p.clone(), plan.seed, plan.duration_ns, shared, pipes.gate_r, pipes.report_w);
        }
    }
    close(pipes.report_w);
    // SAFETY: reaping this leader's children, then leaving without unwinding.
    unsafe {
        while libc::waitpid(-1, std::ptr::null_mut(), 0) > 0 {}
        libc::_exit(0)
    }
}

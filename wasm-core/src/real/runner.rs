//! `schedsim real`: a scenario's workload on the host kernel, recorded.
//!
//! ```text
//!   checks (root, the plan) → cgroups → shared memory, pipes → fork the processes (threads wait at the gate)
//!   → tids reported → tracefs instance on, /proc/schedstat → t0 = now + settle; gate opens
//!   → until t0 + duration (or Ctrl-C): drain the trace → kill and reap everything
//!   → /proc/schedstat, instance off and removed, cgroups removed → parse → report
//! ```
//!
//! Every resource is held by a guard (`Kids`, `tracefs::Instance`,
//! `cgroup::Groups`) whose drop undoes it, so an error, a panic or SIGINT /
//! SIGTERM / SIGHUP (which only set a flag the loops read) leave nothing
//! behind. A real-time hog stops by the same path (SIGKILL to its process
//! group); and since the runner itself is a fair task its hogs could starve,
//! or a stopped one, every workload process also carries a kernel timer that
//! kills it `OUTLIVE_WINDOW_NS` after the window (`worker::run_process`).
//! A thread whose real-time policy or deadline reservation is refused fails
//! the run (`policy_refused`, `dl_host::DlHost::refused`): the process never
//! runs as a fair one.

use super::analysis::{analyse, RealReport};
use super::manifest::{Workload, WorkloadProcess};
use super::plan::{plan, Plan, START_WITHIN_NS};
use super::shared::Shared;
use super::spawn::{close, Kids, Pipes};
use super::worker::{Report, Step};
use super::{cgroup, dl_host, host, rt_host, schedstat_delta, sys, trace_text, tracefs};
use crate::config::SimConfig;
use std::sync::atomic::{AtomicBool, Ordering::SeqCst};

/// A finished real run.
pub struct RealRun {
    pub report: RealReport,
    pub workload: Workload,
    /// The trace as recorded, with the workload's header lines first.
    pub trace: String,
    /// What the report should say besides its figures.
    pub notes: Vec<String>,
    /// /proc/schedstat after − before, or why there is none.
    pub schedstat: Result<String, String>,
}

static STOP: AtomicBool = AtomicBool::new(false);

extern "C" fn on_signal(_: libc::c_int) {
    STOP.store(true, SeqCst);
}

/// SIGINT, SIGTERM and SIGHUP set `STOP` while it lives.
struct Signals(Vec<(libc::c_int, libc::sigaction)>);

impl Signals {
    fn install() -> Signals {
        STOP.store(false, SeqCst);
        let mut old = Vec::new();
        for sig in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
            // SAFETY: installing a handler that only stores to an atomic.
            unsafe {
                let mut act: libc::sigaction = std::mem::zeroed();
                act.sa_sigaction = on_signal as *const () as usize;
                let mut prev: libc::sigaction = std::mem::zeroed();
                libc::sigaction(sig, &act, &mut prev);
                old.push((sig, prev));
            }
        }
        Signals(old)
    }
}

impl Drop for Signals {
    fn drop(&mut self) {
        for (sig, prev) in &self.0 {
            // SAFETY: restoring the action saved above.
            unsafe { libc::sigaction(*sig, prev, std::ptr::null_mut()) };
        }
    }
}

fn interrupted() -> Result<(), String> {
    if STOP.load(SeqCst) {
        Err("interrupted: every process the run started was stopped, tracing and cgroups removed".into())
    } else {
        Ok(())
    }
}

/// What is missing for a real run on this machine, if anything.
pub fn missing() -> Option<String> {
    if sys::geteuid() != 0 {
        return Some(
            "a real run needs root: it records the scheduler's tracepoints through tracefs, sets priorities and \
             cgroups (run it with sudo)"
                .into(),
        );
    }
    None
}

/// Runs `cfg`'s workload on this machine's kernel and reports what it did.
pub fn run_real(cfg: &SimConfig) -> Result<RealRun, String> {
    if let Some(m) = missing() {
        return Err(m);
    }
    let host = host::read_host()?;
    let plan =
        plan(cfg, host).map_err(|r| format!("this scenario cannot run on the real kernel:\n  {}", r.join("\n  ")))?;
    let _signals = Signals::install();
    cgroup::remove_stale_groups();
    let mut notes = plan.notes.clone();
    if plan.processes.iter().any(|p| p.sched_policy.is_rt()) {
        notes.push(rt_host::read().note());
    }
    if plan.processes.iter().any(|p| p.sched_policy.is_dl()) {
        notes.push(dl_host::read().note());
    }
    let autogroup_on = std::fs::read_to_string("/proc/sys/kernel/sched_autogroup_enabled").map(|s| s.trim() == "1");
    match (plan.autogroup, autogroup_on) {
        (true, Ok(false)) => notes.push("the scenario has autogroup on; the host has it off".into()),
        (false, Ok(true)) => notes.push(
            "the scenario has autogroup off; the host has it on: the processes share the runner's session's autogroup"
                .into(),
        ),
        _ => {}
    }
    let groups = if plan.cgroups.is_empty() {
        None
    } else {
        let ctl =
            cgroup::find().ok_or("the scenario names cgroups, but this host has no cpu cgroup controller mounted")?;
        let procs_in: Vec<bool> =
            (0..plan.cgroups.len()).map(|g| plan.processes.iter().any(|p| p.cgroup == Some(g))).collect();
        let g = cgroup::Groups::create(&ctl, &plan.cgroups, &procs_in)?;
        notes.push(format!("cgroups under {}: {}", g.root().display(), g.settings.join(", ")));
        Some(g)
    };
    let shared = Shared::map().map_err(|e| format!("mmap: {e}"))?;
    let total: u32 = plan.processes.iter().map(|p| p.threads).sum();
    shared.threads.store(total, SeqCst);
    for (i, p) in plan.processes.iter().enumerate() {
        shared.procs[i].threads.store(p.threads, SeqCst);
        shared.procs[i].jobs.store(p.job_pool, SeqCst);
    }
    let pipes = Pipes::new()?;
    let dirs = groups.as_ref().map_or(Vec::new(), |g| g.dirs.clone());
    let result = (|| {
        let mut kids = Kids::start(&plan, shared, &pipes, &dirs)?;
        close(pipes.report_w);
        let mut tids = collect_tids(&plan, pipes.report_r, total)?;
        record(&plan, shared, &pipes, &mut kids, &mut tids, notes)
    })();
    close(pipes.gate_r);
    close(pipes.gate_w);
    close(pipes.report_r);
    drop(groups);
    result
}

/// Reads the threads' reports until every scenario thread has given its tid.
fn collect_tids(plan: &Plan, fd: i32, total: u32) -> Result<Vec<Vec<(u32, u32)>>, String> {
    let mut tids: Vec<Vec<(u32, u32)>> = plan.processes.iter().map(|_| Vec::new()).collect();
    let deadline = sys::mono_ns() + START_WITHIN_NS;
    let mut got = 0;
    while got < total {
        interrupted()?;
        if sys::mono_ns() > deadline {
            return Err(format!("only {got} of {total} threads started within {} s", START_WITHIN_NS / 1_000_000_000));
        }
        match read_report(fd, 100)? {
            Some(Report::Tid { proc_, thread, tid }) => {
                tids[proc_ as usize].push((thread, tid));
                got += 1;
            }
            Some(Report::Failed { proc_, step, errno }) => {
                let p = &plan.processes[proc_ as usize];
                let what = match step {
                    Step::Affinity => "sched_setaffinity".to_string(),
                    Step::Nice => "setpriority".into(),
                    Step::Cgroup => "joining its cgroup".into(),
                    Step::Thread => "starting a thread".into(),
                    Step::Slice => "sched_setattr (its custom slice)".into(),
                    Step::Policy => format!(
                        "sched_setscheduler(SCHED_{}, priority {})",
                        p.sched_policy.name().to_uppercase(),
                        p.rt_priority
                    ),
                    Step::Timer => "timer_create (the timer that bounds its life)".into(),
                    Step::Deadline => p.dl.map_or("sched_setattr(SCHED_DEADLINE)".into(), |d| {
                        format!(
                            "sched_setattr(SCHED_DEADLINE, runtime {} ns, deadline {} ns, period {} ns)",
                            d.runtime_ns, d.deadline_ns, d.period_ns
                        )
                    }),
                };
                let err = std::io::Error::from_raw_os_error(errno);
                let why = match (step, p.dl) {
                    (Step::Policy, _) => policy_refused(errno, p.cgroup.is_some()),
                    (Step::Deadline, Some(d)) => dl_host::read().refused(errno, &d),
                    _ => String::new(),
                };
                return Err(format!("processes[{proc_}] ('{}'): {what} failed: {err}{why}", p.name));
            }
            None => {}
        }
    }
    Ok(tids)
}

/// What a refused real-time policy means: the run stops rather than run the
/// process as a fair one, which the scenario did not ask for.
pub fn policy_refused(errno: i32, in_cgroup: bool) -> String {
    let cause = if errno != libc::EPERM {
        return "; the run was stopped (it does not run a real-time process as a fair one)".into();
    } else if in_cgroup {
        "the kernel schedules real-time tasks by cgroup here (CONFIG_RT_GROUP_SCHED) and the scenario's new group \
         has no real-time runtime (cpu.rt_runtime_us 0); the model has no real-time group bandwidth, so give the \
         real-time process no cgroup"
    } else {
        "the runner may not make real-time threads here: it lacks CAP_SYS_NICE (a container, or capabilities \
         dropped), or under CONFIG_RT_GROUP_SCHED the cgroup it runs in has no real-time runtime \
         (cpu.rt_runtime_us 0)"
    };
    format!("; {cause}. The run was stopped: it does not run a real-time process as a fair one")
}

/// One report from the pipe, waiting up to `ms`; an error if every writer is gone.
fn read_report(fd: i32, ms: i32) -> Result<Option<Report>, String> {
    let mut pfd = libc::pollfd { fd, events: libc::POLLIN, revents: 0 };
    // SAFETY: one valid pollfd.
    if unsafe { libc::poll(&mut pfd, 1, ms) } <= 0 {
        return Ok(None);
    }
    let mut b = [0u8; 16];
    // SAFETY: reading 16 bytes into a live buffer; writes are whole 16-byte records.
    let n = unsafe { libc::read(fd, b.as_mut_ptr() as *mut libc::c_void, 16) };
    match n {
        16 => Ok(Report::decode(&b)),
        0 => Err("the workload's processes ended before they started".into()),
        _ => Ok(None),
    }
}

/// Opens the gate, records the window, stops everything, reports.
fn record(
    plan: &Plan,
    shared: &'static Shared,
    pipes: &Pipes,
    kids: &mut Kids,
    tids: &mut [Vec<(u32, u32)>],
    mut notes: Vec<String>,
) -> Result<RealRun, String> {
    let mut trace = tracefs::Instance::create()?;
    let before = schedstat_delta::read();
    let settle = 10_000_000 + 50_000 * tids.iter().map(Vec::len).sum::<usize>() as u64;
    let t0 = sys::mono_ns() + settle;
    shared.t0_ns.store(t0, SeqCst);
    trace.mark("schedlab start");
    close(pipes.gate_w);
    let end = t0 + plan.duration_ns;
    let mut stop_at = end;
    while sys::mono_ns() < end {
        if let Err(e) = interrupted() {
            kids.stop();
            return Err(e);
        }
        trace.drain_until(end);
        if trace.full {
            stop_at = sys::mono_ns();
            notes.push(format!(
                "the trace reached {} MiB; the run stopped {:.3} ms after its start",
                tracefs::MAX_TRACE_BYTES >> 20,
                stop_at.saturating_sub(t0) as f64 / 1e6
            ));
            break;
        }
        kids.all_done();
        let left = end.saturating_sub(sys::mono_ns());
        sys::sleep_ns(left.min(5_000_000));
    }
    let after = schedstat_delta::read();
    kids.stop();
    trace.mark("schedlab end");
    let text = trace.finish()?;
    // Forked threads reported as they started.
    while let Ok(Some(r)) = read_report(pipes.report_r, 0) {
        if let Report::Tid { proc_, thread, tid } = r {
            tids[proc_ as usize].push((thread, tid));
        }
    }
    let stalled = shared.stalled.load(SeqCst);
    if stalled > 0 {
        notes.push(format!(
            "{stalled} thread(s) ended: their program went round {} steps without taking time (as the model ends them)",
            crate::program::MAX_ZERO_TIME_STEPS
        ));
    }
    let refused = shared.forks_refused.load(SeqCst);
    if refused > 0 {
        notes.push(format!("{refused} fork(s) refused at the cap of {} threads", super::plan::MAX_REAL_THREADS));
    }
    let workload = Workload {
        scenario: plan.name.clone(),
        seed: plan.seed,
        kernel: sys::kernel_release(),
        window: (t0, stop_at),
        host_cpus: plan.host.host_cpu.clone(),
        processes: plan
            .processes
            .iter()
            .zip(tids.iter_mut())
            .map(|(p, t)| {
                t.sort();
                WorkloadProcess {
                    name: p.name.clone(),
                    start_ns: p.start_ns,
                    tids: t.iter().map(|&(_, tid)| tid).collect(),
                    policy: Some((p.sched_policy, p.rt_priority)),
                    dl: p.dl,
                }
            })
            .collect(),
    };
    let text = String::from_utf8_lossy(&text).into_owned();
    let header = workload.to_header();
    let t = trace_text::parse_trace(&text);
    let report = analyse(&workload, &t.records, t.lost);
    if t.lost > 0 {
        notes.push(format!("the trace buffer lost {} events: the figures are incomplete", t.lost));
    }
    if let Some((line, why)) = &t.first_unread {
        // The run is over and cannot be redone: said, not an error. Numbered as in the saved trace (header first).
        notes.push(format!(
            "{} scheduler event line(s) of the trace could not be read and are left out of the figures (the \
             first, line {} of the saved trace: {why})",
            t.unread,
            line + header.lines().count()
        ));
    }
    let schedstat = match (before, after) {
        (Some(b), Some(a)) => schedstat_delta::delta(&b, &a),
        _ => Err("/proc/schedstat is missing (a kernel built without CONFIG_SCHEDSTATS)".into()),
    };
    Ok(RealRun { trace: format!("{header}{text}"), report, workload, notes, schedstat })
}

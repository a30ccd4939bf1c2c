//! The sched_ext class: a scheduler written as a JavaScript policy (the
//! callbacks of sched_ext's `struct sched_ext_ops`), run by a `PolicyHost`
//! over `sched/ext/runtime.js`. The class keeps what the core relies on (the
//! runqueue counts, `on_rq`, run time) and what sched_ext's core keeps
//! outside the policy: each task's slice is charged here and asked of the
//! runtime, a task taken from a shared queue by another CPU migrates there,
//! and the watchdog.
//!
//! Two ways a policy ends, as in the kernel:
//! - the watchdog (`scx_watchdog_workfn`, delayed work: a timer of the
//!   class's own every half timeout, whether or not any task runs): a
//!   runnable task that has not run for `watchdog_ns` ends the policy and
//!   every task goes back to the fair class (`switch_class`); the run goes
//!   on and its notes say why;
//! - an error (an exception, a loop past its bound, a bad return): sched_ext
//!   would also fall back, but a student wants the line and the reason, so
//!   the run stops there and its notes say what failed. A dispatch the
//!   engine's own masks forbid (a CPU outside the task's affinity, or
//!   offline) is such an error, as sched_ext's `scx_ops_error` for a local
//!   dispatch to a CPU the task may not run on: the task objects the policy
//!   holds are its to write (`p.cpus`), the engine's masks are not.

use crate::balance::placement::PlaceKind;
use crate::config::PolicyKind;
use crate::sched::fair::EnqueueKind;
use crate::sim::class::{class_for, Balance, SchedClass};
use crate::sim::dispatch::Sched;
use crate::sim::events::Event;
use crate::sim::ext::host::{HostHandle, HostOp};
use crate::time::{CpuId, Pid, SimTime};
use crate::trace::{MigrateCause, TraceKind};
use std::sync::Arc;

/// sched_ext's default watchdog timeout (`SCX_WATCHDOG_MAX_TIMEOUT` is 30 s).
pub const DEFAULT_WATCHDOG_NS: u64 = 30_000_000_000;

#[derive(Debug)]
pub struct ExtClass;
pub static EXT: ExtClass = ExtClass;

/// The class's state (the policy's own lives in its engine).
#[derive(Clone, Debug)]
pub struct ExtState {
    host: Arc<HostHandle>,
    /// When each task became runnable and has not run since (the watchdog).
    runnable_since: Vec<Option<SimTime>>,
    /// Each task's sum_exec_runtime when its slice was last charged.
    charged: Vec<u64>,
    /// Kicks on their way to each CPU: whether one asks for preemption.
    kick_preempt: Vec<bool>,
    failed: bool,
    /// The instant of the last call into the policy and the calls made at
    /// it: a policy whose callbacks make more (kicks that preempt on every
    /// enqueue) holds simulated time still for good.
    instant: SimTime,
    at_instant: u64,
}

/// Calls into the policy at one simulated instant before the run stops:
/// twice what the most threads a scenario may start together make (about
/// ten calls each).
pub const CALLS_PER_INSTANT: u64 = 20 * crate::config::MAX_THREADS as u64;

fn state<'s>(s: &'s mut Sched<'_>) -> &'s mut ExtState {
    s.state::<ExtState>().expect("the sched_ext class runs")
}

fn ext_watchdog_ns(s: &Sched<'_>) -> u64 {
    s.core.policy.ext.as_ref().map_or(DEFAULT_WATCHDOG_NS, |e| e.watchdog_ns)
}

/// One call into the policy; on an error the run stops with its reason.
fn scx(s: &mut Sched<'_>, op: HostOp, args: [f64; 4]) -> Option<f64> {
    let now = s.core.now;
    let st = state(s);
    if st.failed {
        return None;
    }
    if st.instant == now {
        st.at_instant += 1;
    } else {
        (st.instant, st.at_instant) = (now, 1);
    }
    if st.at_instant > CALLS_PER_INSTANT {
        let why = format!(
            "the policy's callbacks ran {CALLS_PER_INSTANT} times at this instant without time passing \
             (kicks that preempt on every enqueue?)"
        );
        scx_fail(s, op.callback(), why);
        return None;
    }
    let host = st.host.clone();
    let r = host.with(|h| h.call(op, args));
    let r = r.and_then(|v| host.with(|h| h.kicks()).map(|k| (v, k)));
    match r {
        Ok((v, kicks)) => {
            for (cpu, preempt) in kicks {
                scx_kick(s, CpuId(cpu), preempt);
            }
            Some(v)
        }
        Err(reason) => {
            scx_fail(s, op.callback(), reason);
            None
        }
    }
}

fn scx_fail(s: &mut Sched<'_>, callback: &str, reason: String) {
    state(s).failed = true;
    let at = s.core.now;
    s.core.notes.policy_error = Some((at, format!("{callback}: {reason}")));
    s.end_run(at);
}

/// A kick reaches its CPU as an IPI (an event now), never inside the
/// callback that sent it.
fn scx_kick(s: &mut Sched<'_>, cpu: CpuId, preempt: bool) {
    if cpu.idx() < s.core.rqs.len() {
        let st = state(s);
        st.kick_preempt[cpu.idx()] |= preempt;
        s.core.push(s.core.now, Event::ClassKick(cpu));
    }
}

fn scx_init_task(s: &mut Sched<'_>, pid: Pid) {
    let t = &s.core.tasks[pid.idx()];
    let all = CpuId::all(s.core.rqs.len() as u32).all(|c| t.allowed.test(c));
    let cpus = if all { String::new() } else { t.allowed.iter().map(|c| c.to_string()).collect::<Vec<_>>().join(",") };
    let (now, weight, nice) = (s.core.now.0 as f64, t.se.weight as f64, t.nice as f64);
    let st = state(s);
    if st.failed {
        return;
    }
    let host = st.host.clone();
    if let Err(reason) = host.with(|h| h.init_task(now, f64::from(pid.0), weight, nice, &cpus)) {
        scx_fail(s, "init_task", reason);
    }
}

/// The watchdog's next run, half a timeout from now (as
/// `scx_watchdog_workfn` queues itself again).
fn arm_watchdog(s: &mut Sched<'_>) {
    let at = s.core.now.after((ext_watchdog_ns(s) / 2).max(1));
    s.core.push(at, Event::ClassTimer(crate::sim::dispatch::Room::Own));
}

/// `scx_watchdog_workfn`: a runnable task left waiting past the timeout
/// ends the policy; the fair class takes every task back (the core carries
/// out `switch_to` when the timer returns). Runs from the class's timer, so
/// it fires when no CPU runs anything, as well.
fn scx_watchdog(s: &mut Sched<'_>) {
    let now = s.core.now;
    let timeout = ext_watchdog_ns(s);
    let st = state(s);
    let starved = st
        .runnable_since
        .iter()
        .enumerate()
        .filter_map(|(pid, s)| s.map(|s| (pid, s)))
        .find(|&(_, since)| now.since(since) >= timeout);
    if let Some((pid, since)) = starved {
        let why = format!(
            "watchdog: runnable task {} (pid {}) was not run for {} ms (timeout {} ms); the policy ended \
             and every task went back to the fair class",
            s.core.tasks[pid].name,
            pid,
            now.since(since) / 1_000_000,
            timeout / 1_000_000
        );
        s.core.notes.policy_fallback = Some((now, why));
        s.core.switch_to = Some(class_for(PolicyKind::Cfs, s.core.kernel));
    } else {
        arm_watchdog(s);
    }
}

/// A task enqueued here counts on its CPU's runqueue though the policy may
/// hold it in a queue of its own: while this class runs, a CPU that runs
/// nothing is idle for the wasted-core readers (`Core::runs_idle`). Every
/// CPU is read again under the new rule.
fn holds_queued(s: &mut Sched<'_>, on: bool) {
    s.core.class_holds_queued = on;
    for cpu in CpuId::all(s.core.rqs.len() as u32) {
        s.core.touch(cpu);
    }
}

/// Why `pid` may not run on `cpu` by the engine's own masks (the task's
/// affinity, the online CPUs), if it may not: the policy's copy of the mask
/// (`p.cpus`) is the policy's to write and proves nothing.
fn forbidden_on(s: &Sched<'_>, pid: Pid, cpu: CpuId) -> Option<String> {
    let t = &s.core.tasks[pid.idx()];
    let who = format!("the policy dispatched task {} (pid {pid}) to CPU {cpu}", t.name);
    if !s.core.online.test(cpu) {
        Some(format!("{who}, which is offline"))
    } else if !t.allowed.test(cpu) {
        Some(format!("{who}, outside its allowed CPUs {}; the dispatch is refused", t.allowed.to_list()))
    } else {
        None
    }
}

fn grow<T: Clone>(v: &mut Vec<T>, pid: Pid, fill: T) {
    if v.len() <= pid.idx() {
        v.resize(pid.idx() + 1, fill);
    }
}

impl SchedClass for ExtClass {
    fn name(&self) -> &'static str {
        "ext"
    }

    fn init(&self, s: &mut Sched<'_>) {
        let source = s.core.policy.ext.as_ref().map(|e| e.source.clone()).unwrap_or_default();
        let nr = s.core.rqs.len();
        holds_queued(s, true);
        let host = match HostHandle::create(&source, nr as u32, s.core.seed) {
            Ok(h) => h,
            Err(reason) => {
                // No state: every later call would fail; the run stops at once.
                let at = s.core.now;
                s.core.notes.policy_error = Some((at, reason));
                s.end_run(at);
                return;
            }
        };
        s.set_state(Box::new(ExtState {
            host,
            runnable_since: Vec::new(),
            charged: Vec::new(),
            kick_preempt: vec![false; nr],
            failed: false,
            instant: SimTime(u64::MAX),
            at_instant: 0,
        }));
        arm_watchdog(s);
        for cpu in CpuId::all(nr as u32) {
            let idle = s.core.online.test(cpu) && s.core.rqs[cpu.idx()].curr_task.is_none();
            scx(s, HostOp::UpdateIdle, [s.core.now.0 as f64, f64::from(cpu.0), idle as u8 as f64, 0.0]);
        }
    }

    fn exit(&self, s: &mut Sched<'_>) {
        holds_queued(s, false);
    }

    fn switched_to(&self, s: &mut Sched<'_>, pid: Pid) {
        if s.state::<ExtState>().is_some() {
            scx_init_task(s, pid);
        }
    }

    fn task_new(&self, s: &mut Sched<'_>, pid: Pid) {
        if s.state::<ExtState>().is_some() {
            scx_init_task(s, pid);
        }
    }

    fn enqueue_task(&self, s: &mut Sched<'_>, pid: Pid, cpu: CpuId, kind: EnqueueKind) {
        s.core.rqs[cpu.idx()].nr_running += 1;
        s.core.tasks[pid.idx()].se.on_rq = true;
        if s.state::<ExtState>().is_none() {
            return;
        }
        let now = s.core.now;
        let st = state(s);
        grow(&mut st.runnable_since, pid, None);
        st.runnable_since[pid.idx()].get_or_insert(now);
        let flags = if kind == EnqueueKind::Wakeup { 1.0 } else { 0.0 };
        scx(s, HostOp::Enqueue, [now.0 as f64, f64::from(pid.0), f64::from(cpu.0), flags]);
    }

    fn dequeue_task(&self, s: &mut Sched<'_>, pid: Pid, cpu: CpuId, sleeping: bool) {
        self.update_curr(s, cpu);
        s.core.rqs[cpu.idx()].nr_running -= 1;
        s.core.tasks[pid.idx()].se.on_rq = false;
        if s.state::<ExtState>().is_none() {
            return;
        }
        let was_curr = s.core.rqs[cpu.idx()].curr_task == Some(pid);
        let st = state(s);
        grow(&mut st.runnable_since, pid, None);
        st.runnable_since[pid.idx()] = None;
        let now = s.core.now.0 as f64;
        scx(s, HostOp::Dequeue, [now, f64::from(pid.0), sleeping as u8 as f64, was_curr as u8 as f64]);
    }

    fn yield_task(&self, s: &mut Sched<'_>, pid: Pid, _cpu: CpuId) {
        if s.state::<ExtState>().is_some() {
            scx(s, HostOp::Yield, [s.core.now.0 as f64, f64::from(pid.0), 0.0, 0.0]);
        }
    }

    /// sched_ext preempts on wakeup only through the policy's kicks; an idle
    /// CPU reschedules to pick.
    fn check_preempt_curr(&self, s: &mut Sched<'_>, cpu: CpuId, _pid: Pid, _is_fork: bool) -> bool {
        s.core.rqs[cpu.idx()].curr_task.is_none()
    }

    fn pick_next_task(&self, s: &mut Sched<'_>, cpu: CpuId) -> Option<Pid> {
        s.state::<ExtState>()?;
        let now = s.core.now;
        let r = scx(s, HostOp::Pick, [now.0 as f64, f64::from(cpu.0), 0.0, 0.0])?;
        if r < 0.0 {
            return None;
        }
        let pid = Pid(r as u32);
        let ok = pid.idx() < s.core.tasks.len()
            && s.core.tasks[pid.idx()].se.on_rq
            && !s.core.rqs.iter().any(|rq| rq.curr_task == Some(pid));
        if !ok {
            scx_fail(s, "dispatch", format!("the runtime handed out task {pid}, which is not runnable"));
            return None;
        }
        if let Some(why) = forbidden_on(s, pid, cpu) {
            scx_fail(s, "dispatch", why);
            return None;
        }
        let from = s.core.tasks[pid.idx()].cpu;
        if from != cpu {
            // Taken from a shared queue: the task moves to the CPU that runs it.
            s.core.rqs[from.idx()].nr_running -= 1;
            s.core.rqs[from.idx()].delist(pid);
            s.core.touch(from);
            s.core.charge_migration(pid, from, cpu);
            let t = &mut s.core.tasks[pid.idx()];
            t.cpu = cpu;
            s.core.rqs[cpu.idx()].nr_running += 1;
            s.core.rqs[cpu.idx()].enlist(pid, false);
            s.core.touch(cpu);
            s.core.index.touch_task(pid);
            s.core.trace.emit(now, cpu, TraceKind::Migrate { pid, from, cause: MigrateCause::Dispatch });
        }
        let sum = s.core.tasks[pid.idx()].se.sum_exec_runtime;
        s.core.tasks[pid.idx()].se.exec_start = now;
        let st = state(s);
        grow(&mut st.runnable_since, pid, None);
        grow(&mut st.charged, pid, 0);
        st.runnable_since[pid.idx()] = None;
        st.charged[pid.idx()] = sum;
        Some(pid)
    }

    fn put_prev_task(&self, s: &mut Sched<'_>, pid: Pid, cpu: CpuId) {
        self.update_curr(s, cpu);
        if s.state::<ExtState>().is_none() || !s.core.tasks[pid.idx()].se.on_rq {
            return;
        }
        let now = s.core.now;
        let st = state(s);
        grow(&mut st.runnable_since, pid, None);
        st.runnable_since[pid.idx()] = Some(now);
        scx(s, HostOp::PutPrev, [now.0 as f64, f64::from(pid.0), 0.0, 0.0]);
    }

    fn update_curr(&self, s: &mut Sched<'_>, cpu: CpuId) {
        let Some(pid) = s.core.rqs[cpu.idx()].curr_task else { return };
        let now = s.core.now;
        let se = &mut s.core.tasks[pid.idx()].se;
        se.sum_exec_runtime += now.since(se.exec_start);
        se.exec_start = now;
    }

    fn task_tick(&self, s: &mut Sched<'_>, pid: Pid, cpu: CpuId) -> bool {
        self.update_curr(s, cpu);
        if s.state::<ExtState>().is_none() {
            return false;
        }
        let sum = s.core.tasks[pid.idx()].se.sum_exec_runtime;
        let st = state(s);
        grow(&mut st.charged, pid, 0);
        let ran = sum.saturating_sub(st.charged[pid.idx()]);
        st.charged[pid.idx()] = sum;
        scx(s, HostOp::Tick, [s.core.now.0 as f64, f64::from(pid.0), ran as f64, 0.0]) == Some(1.0)
    }

    fn select_task_rq(&self, s: &mut Sched<'_>, pid: Pid, waker: CpuId, kind: PlaceKind) -> CpuId {
        if kind == PlaceKind::Exec {
            // 6.12's select_task_rq_scx answers an exec with the task's own CPU, asking no policy (ext.c 3363).
            return s.core.tasks[pid.idx()].cpu;
        }
        let prev = if kind == PlaceKind::Fork { waker } else { s.core.tasks[pid.idx()].cpu };
        let flags = if kind == PlaceKind::Fork { 1.0 } else { 2.0 };
        let cpu = match s.state::<ExtState>() {
            Some(_) => scx(s, HostOp::SelectCpu, [s.core.now.0 as f64, f64::from(pid.0), f64::from(prev.0), flags]),
            None => None,
        };
        let cpu = cpu.map_or(prev, |c| CpuId(c as u32));
        if s.core.online.test(cpu) && s.core.tasks[pid.idx()].allowed.test(cpu) {
            cpu
        } else {
            s.core.select_fallback_rq(pid, cpu)
        }
    }

    fn task_dead(&self, s: &mut Sched<'_>, pid: Pid) {
        if s.state::<ExtState>().is_some() {
            scx(s, HostOp::ExitTask, [s.core.now.0 as f64, f64::from(pid.0), 0.0, 0.0]);
        }
    }

    fn task_switched(&self, s: &mut Sched<'_>, cpu: CpuId, _prev: Option<Pid>, next: Option<Pid>) {
        if s.state::<ExtState>().is_some() {
            let idle = next.is_none() as u8 as f64;
            scx(s, HostOp::UpdateIdle, [s.core.now.0 as f64, f64::from(cpu.0), idle, 0.0]);
        }
    }

    /// A kick lands: an idle CPU picks; a preempting kick ends the running
    /// task's slice first.
    fn kick(&self, s: &mut Sched<'_>, cpu: CpuId) {
        // An offline CPU takes no kick: it schedules nothing.
        if s.state::<ExtState>().is_none() || s.core.finished || !s.core.online.test(cpu) {
            return;
        }
        let preempt = std::mem::take(&mut state(s).kick_preempt[cpu.idx()]);
        match s.core.rqs[cpu.idx()].curr_task {
            None => s.core.rqs[cpu.idx()].need_resched = true,
            Some(curr) if preempt => {
                scx(s, HostOp::Yield, [s.core.now.0 as f64, f64::from(curr.0), 0.0, 0.0]);
                s.core.rqs[cpu.idx()].need_resched = true;
            }
            Some(_) => {}
        }
        s.resched_if_needed(cpu);
    }

    /// The watchdog's timer; stale once the policy has ended.
    fn timer(&self, s: &mut Sched<'_>) -> bool {
        if s.state::<ExtState>().is_none_or(|st| st.failed) || s.core.finished {
            return false;
        }
        scx_watchdog(s);
        true
    }

    /// sched_ext has no balancer: the policy's dispatch() is where work moves.
    fn balance(&self, _s: &mut Sched<'_>, _cpu: CpuId, _why: Balance) -> bool {
        false
    }
}

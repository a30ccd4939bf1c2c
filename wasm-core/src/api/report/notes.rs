//! What a run did that its scenario did not ask for (`sim::notes`: threads
//! ended for never taking time, forks refused at the thread limit, hotplug
//! events not carried out, a sched_ext policy that failed or fell back),
//! worded as the report's sentences.

use super::terminal::ms;
use crate::api::text::escape_controls as shown;
use crate::config::MAX_THREADS;
use crate::program::MAX_ZERO_TIME_STEPS;
use crate::sim::notes::HotplugIgnored;
use crate::sim::Simulator;
use crate::time::{Pid, SimTime};

/// The run's notes (`sim::notes`) as sentences.
pub fn notes(sim: &Simulator) -> Vec<String> {
    let n = sim.notes();
    let name = |pid: Pid| sim.tasks().get(pid.idx()).map_or("?", |t| t.name.as_str()).to_string();
    let cases = |list: &[(Pid, SimTime)], count: u64| {
        let shown: Vec<String> =
            list.iter().map(|&(pid, at)| format!("{} at {:.3} ms", shown(&name(pid)), ms(at.ns()))).collect();
        let more = count.saturating_sub(list.len() as u64);
        if more > 0 {
            format!("{} and {more} more", shown.join(", "))
        } else {
            shown.join(", ")
        }
    };
    let mut out = Vec::new();
    if n.stalled_count > 0 {
        out.push(format!(
            "{} thread(s) ended because their program made {MAX_ZERO_TIME_STEPS} steps in a row that took no time \
             (zero-length runs or sleeps, or calls that return at once): {}",
            n.stalled_count,
            cases(&n.stalled, n.stalled_count)
        ));
    }
    if n.forks_refused_count > 0 {
        out.push(format!(
            "{} fork(s) failed: the run had made its limit of {MAX_THREADS} threads; as fork() fails with EAGAIN, \
             the program went on without a child: {}",
            n.forks_refused_count,
            cases(&n.forks_refused, n.forks_refused_count)
        ));
    }
    for &(at, what) in &n.hotplug_ignored {
        let why = match what {
            HotplugIgnored::AlreadyOffline(cpu) => format!("CPU {cpu} offline not done: it was not online"),
            HotplugIgnored::LastOnline(cpu) => format!("CPU {cpu} offline not done: it was the last online CPU"),
            HotplugIgnored::AlreadyOnline(cpu) => format!("CPU {cpu} online not done: it was not offline"),
        };
        out.push(format!("at {:.3} ms: {why}", ms(at.ns())));
    }
    let more = n.hotplug_ignored_count.saturating_sub(n.hotplug_ignored.len() as u64);
    if more > 0 {
        out.push(format!("{more} more hotplug event(s) not done"));
    }
    if let Some((at, why)) = &n.policy_fallback {
        out.push(format!("at {:.3} ms: sched_ext {why}", ms(at.ns())));
    }
    if let Some((at, why)) = &n.policy_error {
        out.push(format!("at {:.3} ms: the sched_ext policy failed and the run stopped there: {why}", ms(at.ns())));
    }
    out
}

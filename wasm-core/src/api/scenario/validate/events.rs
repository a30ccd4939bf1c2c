//! Validation of the timed events (CPU hotplug). Each names one CPU of the
//! machine; and, replayed in the order the run carries them out (by time,
//! then as listed), each must change something: a CPU goes offline only if
//! it is online and not the last CPU online (the kernel refuses to offline
//! the last one), online only if it is offline. The engine would skip such an
//! event; the scenario's author hears why instead. Part of `validate`.

use crate::api::scenario::diagnostic::Checker;
use crate::api::scenario::file::{EventFile, MAX_DURATION_MS};
use crate::config::{TimedEvent, TimedEventKind};
use crate::time::NSEC_PER_MSEC;

/// The events for the engine. `nr_cpus`: the machine's CPU count, None when
/// the CPUs are not to be checked (the machine itself is wrong, or hotplug is
/// refused as a whole).
pub(super) fn events_of(list: &[EventFile], nr_cpus: Option<u32>, c: &mut Checker) -> Vec<TimedEvent> {
    let mut events = Vec::new();
    // (at_ms, index, kind) of the events naming an existing CPU.
    let mut replay = Vec::new();
    for (i, e) in list.iter().enumerate() {
        let at = format!("events[{i}]");
        c.range(&format!("{at}.at_ms"), e.at_ms, 0, MAX_DURATION_MS);
        let kind = match (e.cpu_offline, e.cpu_online) {
            (Some(cpu), None) => TimedEventKind::CpuOffline(cpu),
            (None, Some(cpu)) => TimedEventKind::CpuOnline(cpu),
            _ => {
                c.fail(&at, "must have exactly one of cpu_offline or cpu_online");
                continue;
            }
        };
        let (TimedEventKind::CpuOffline(cpu) | TimedEventKind::CpuOnline(cpu)) = kind;
        match nr_cpus {
            Some(n) if cpu >= n => c.fail(&at, format!("CPU {cpu} does not exist (the machine has {n})")),
            // An event at a time out of range is wrong already; the rest are replayed.
            Some(_) if e.at_ms <= MAX_DURATION_MS => replay.push((e.at_ms, i, kind)),
            Some(_) => {}
            None => {}
        }
        events.push(TimedEvent { at_ns: e.at_ms.saturating_mul(NSEC_PER_MSEC), kind });
    }
    if let Some(n) = nr_cpus {
        check_each_changes_something(&mut replay, n, c);
    }
    events
}

fn check_each_changes_something(replay: &mut [(u64, usize, TimedEventKind)], nr_cpus: u32, c: &mut Checker) {
    replay.sort_by_key(|&(at, i, _)| (at, i));
    let mut online = vec![true; nr_cpus as usize];
    let mut online_count = nr_cpus;
    for &(at, i, kind) in replay.iter() {
        match kind {
            TimedEventKind::CpuOffline(cpu) => {
                let field = format!("events[{i}].cpu_offline");
                if !online[cpu as usize] {
                    c.fail(field, format!("CPU {cpu} is already offline at {at} ms"));
                } else if online_count == 1 {
                    c.fail(
                        field,
                        format!(
                            "would take CPU {cpu}, the last CPU online, offline at {at} ms; the kernel refuses, so \
                             one CPU must stay online"
                        ),
                    );
                } else {
                    online[cpu as usize] = false;
                    online_count -= 1;
                }
            }
            TimedEventKind::CpuOnline(cpu) => {
                if online[cpu as usize] {
                    c.fail(format!("events[{i}].cpu_online"), format!("CPU {cpu} is already online at {at} ms"));
                } else {
                    online[cpu as usize] = true;
                    online_count += 1;
                }
            }
        }
    }
}

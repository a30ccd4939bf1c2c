//! PIDs the kernel handed out again within one trace. A text trace names a
//! task by its pid alone, so a task that exited and a new one given the same
//! pid later read as one thread: their CPU time, switches and wakeups are
//! added together. Splitting them would need every per-thread table keyed by
//! (pid, generation); until then the import says so in its notes.

use super::tid_table::TidTable;
use super::trace_text::{Event, Record};

/// How many reused pids a note names; the rest are counted.
const NAMED: usize = 8;

/// A note naming the pids that appear again after their `sched_process_exit`, if any (`records` in time order).
pub fn note(records: &[Record]) -> Option<String> {
    let mut exited: TidTable<u64> = TidTable::default();
    let mut reused: Vec<(u32, u64)> = Vec::new();
    let mut count = 0usize;
    for r in records {
        let born = match &r.event {
            Event::Exit { pid } => {
                exited.insert(*pid, r.ts_ns);
                continue;
            }
            Event::Fork { child_pid, .. } => *child_pid,
            Event::WakeupNew { pid, .. } => *pid,
            Event::Switch { next_pid, .. } => *next_pid,
            _ => continue,
        };
        if let Some(&at) = exited.get(born) {
            exited.remove(born);
            count += 1;
            if reused.len() < NAMED {
                reused.push((born, at));
            }
        }
    }
    if count == 0 {
        return None;
    }
    let named: Vec<String> =
        reused.iter().map(|(pid, at)| format!("{pid} (exited at {:.6} s)", *at as f64 / 1e9)).collect();
    let more = if count > reused.len() { format!(" and {} more", count - reused.len()) } else { String::new() };
    Some(format!(
        "{count} pid(s) were used again after their task exited: {}{more}; each pid's tasks are counted as one thread",
        named.join(", ")
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rec(ts_ns: u64, event: Event) -> Record {
        Record { cpu: 0, ts_ns, pid: 1, event }
    }

    #[test]
    fn a_pid_seen_again_after_its_exit_is_noted() {
        let switch_to = |pid: u32| Event::Switch {
            prev_pid: 0,
            prev_prio: 120,
            prev_state: "R".into(),
            next_pid: pid,
            next_prio: 120,
            next_comm: "x".into(),
        };
        let once = [rec(1, switch_to(7)), rec(2, Event::Exit { pid: 7 })];
        assert_eq!(note(&once), None);
        let again = [
            rec(1, switch_to(7)),
            rec(2_000_000_000, Event::Exit { pid: 7 }),
            rec(3_000_000_000, Event::Fork { parent_pid: 1, child_pid: 7 }),
            rec(4_000_000_000, switch_to(7)),
        ];
        let n = note(&again).expect("noted");
        assert!(n.starts_with("1 pid(s) were used again after their task exited: 7 (exited at 2.000000 s)"), "{n}");
    }
}

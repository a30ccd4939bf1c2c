//! `perf script` output of `perf sched record` (or `perf record -e
//! 'sched:*'`) as records. A line is
//!
//! ```text
//!   <comm> <tid> [<cpu>] <secs>.<usecs>: sched:<event>: <fields>
//!            perf 25482 [000] 12586.228620:       sched:sched_switch: prev_comm=perf prev_pid=25482 ...
//! ```
//!
//! with the kernel's own field format (as ftrace prints it, so `trace_text`
//! reads the fields). `-F` can print `pid/tid` instead of the tid; either is
//! read. The comm may hold spaces, so the tid is the last word before the
//! CPU column. `perf script --header` adds `# nrcpus online : N` and
//! `# os release : R`, the machine's CPU count and kernel.

use super::trace_text::{cpu_column, damaged_or_skipped, event_line, int, timestamp_ns, Line};

/// Parses one line of `perf script` output.
pub fn parse_line(line: &str) -> Line {
    let line = line.trim_end_matches(['\n', '\r']);
    let trimmed = line.trim_start();
    if trimmed.is_empty() || trimmed.starts_with('#') {
        return Line::Skip;
    }
    let Some((open, close, cpu)) = cpu_column(trimmed) else {
        return damaged_or_skipped(trimmed, "cannot read the CPU column");
    };
    let who = trimmed[..open].trim_end();
    let Some(tid) = who.rsplit(' ').next().map(|t| t.rsplit('/').next().unwrap_or(t)).and_then(int) else {
        return damaged_or_skipped(trimmed, "cannot read the task's tid");
    };
    let mut words = trimmed[close + 1..].trim_start().splitn(2, char::is_whitespace);
    let Some(ts_ns) = words.next().and_then(|t| t.strip_suffix(':')).and_then(timestamp_ns) else {
        return damaged_or_skipped(trimmed, "cannot read the timestamp");
    };
    let rest = words.next().unwrap_or("").trim_start();
    let (event, fields) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
    // `sched:sched_switch:`: a subsystem, the tracepoint, a colon.
    let Some(name) = event.strip_suffix(':').and_then(|e| e.split_once(':')).map(|(_, n)| n) else {
        return damaged_or_skipped(trimmed, "cannot read the event's name");
    };
    event_line(cpu, ts_ns, tid, name, fields.trim_start())
}

/// A value of `perf script --header`'s `# key : value` lines.
pub fn header_value<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    let rest = line.strip_prefix('#')?.trim_start().strip_prefix(key)?;
    Some(rest.trim_start().strip_prefix(':')?.trim())
}

#[cfg(test)]
mod tests {
    use super::super::trace_text::{record_of, Event, Record};
    use super::*;

    fn rec(line: &str) -> Record {
        record_of(line, parse_line)
    }

    #[test]
    fn perf_script_lines_as_this_machine_printed_them() {
        let r = rec("            perf 25482 [000] 12586.228620:       sched:sched_switch: prev_comm=perf prev_pid=25482 prev_prio=120 prev_state=D ==> next_comm=migration/0 next_pid=18 next_prio=0");
        assert_eq!((r.cpu, r.ts_ns, r.pid), (0, 12_586_228_620_000, 25482));
        let Event::Switch { prev_state, next_pid, next_comm, .. } = r.event else { panic!() };
        assert_eq!((prev_state.as_str(), next_pid, next_comm.as_str()), ("D", 18, "migration/0"));
        let m = rec("     migration/0    18 [000] 12586.228627: sched:sched_migrate_task: comm=perf pid=25482 prio=120 orig_cpu=0 dest_cpu=1");
        assert_eq!(m.event, Event::Migrate { pid: 25482, orig_cpu: 0, dest_cpu: 1 });
    }

    #[test]
    fn comms_with_spaces_and_pid_slash_tid() {
        let r = rec("  opt cgu.0  1200/1234 [001]  5.5: sched:sched_waking: comm=x pid=9 prio=120 target_cpu=001");
        assert_eq!((r.pid, r.ts_ns, r.event), (1234, 5_500_000_000, Event::Waking { pid: 9, target_cpu: 1 }));
    }

    #[test]
    fn headers_other_events_and_cut_lines() {
        assert_eq!(parse_line("# nrcpus online : 2"), Line::Skip);
        assert_eq!(header_value("# nrcpus online : 2", "nrcpus online"), Some("2"));
        assert_eq!(header_value("# os release : 6.1.0-x", "os release"), Some("6.1.0-x"));
        assert_eq!(parse_line("  a 1 [000] 1.0: irq:irq_handler_entry: irq=1"), Line::Skip);
        assert!(matches!(
            parse_line("  a 1 [000] 1.0: sched:sched_switch: prev_comm=a prev_pid=1 prev_pr"),
            Line::Bad(_)
        ));
    }
}

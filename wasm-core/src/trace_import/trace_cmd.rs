//! `trace-cmd report` text. Its lines have ftrace's columns (an instance's
//! name may stand first, `NAME:`, when the file holds several buffers; no
//! flags column), so `trace_text` reads them; what differs is the fields of
//! the events libtraceevent's sched plugin prints itself:
//!
//! ```text
//!   sched_switch:      bash:25288 [120] S ==> opt cgu.0:25277 [120]
//!   sched_wakeup:      bash:25291 [120] CPU:001          (also sched_wakeup_new;
//!                                                          older plugins add success=1)
//! ```
//!
//! The plugin prints prev_state from its bits: R when none is set (a
//! preempted task), otherwise letters such as S or D. A comm may hold spaces
//! or colons, so the pid is taken after the last colon before the ` [prio]`.
//! The file's first line, `cpus=N`, is the machine's CPU count.

use super::trace_text::{int, Event};

/// `comm:pid` → pid.
fn pid_of(comm_pid: &str) -> Option<u32> {
    int(comm_pid.rsplit_once(':')?.1.trim())
}

/// `comm:pid [prio]` and what follows `]`.
fn task(s: &str) -> Option<(u32, i32, &str)> {
    let (who, rest) = s.rsplit_once(" [")?;
    let (prio, tail) = rest.split_once(']')?;
    Some((pid_of(who)?, int(prio.trim())?, tail))
}

/// The event of a line whose fields the sched plugin printed, or None.
pub fn plugin_event(name: &str, fields: &str) -> Option<Event> {
    let f = fields.trim();
    match name {
        "sched_switch" => {
            let (prev, next) = f.split_once(" ==> ")?;
            let (prev_pid, prev_prio, state) = task(prev)?;
            let (next_pid, next_prio, _) = task(next)?;
            let prev_state = state.trim();
            if prev_state.is_empty() {
                return None;
            }
            let next_comm = next.rsplit_once(" [")?.0.rsplit_once(':')?.0.to_string();
            Some(Event::Switch {
                prev_pid,
                prev_prio,
                prev_state: prev_state.to_string(),
                next_pid,
                next_prio,
                next_comm,
            })
        }
        "sched_wakeup" | "sched_wakeup_new" => {
            let (who, cpu) = f.rsplit_once(" CPU:")?;
            let target_cpu = int(cpu.trim())?;
            let (pid, _, _) = task(who)?;
            Some(if name == "sched_wakeup" {
                Event::Wakeup { pid, target_cpu }
            } else {
                Event::WakeupNew { pid, target_cpu }
            })
        }
        _ => None,
    }
}

/// The CPU count of a `cpus=N` line, as its digits (`cpu_limit` caps its value).
pub fn cpus_line(line: &str) -> Option<&str> {
    let v = line.trim().strip_prefix("cpus=")?;
    (!v.is_empty() && v.bytes().all(|b| b.is_ascii_digit())).then_some(v)
}

#[cfg(test)]
mod tests {
    use super::super::trace_text::{parse_line, record_of, Line, Record};
    use super::*;

    fn rec(line: &str) -> Record {
        record_of(line, parse_line)
    }

    #[test]
    fn a_report_line_with_an_instance_name_and_plugin_fields() {
        let r = rec("schedlab-fx:        opt cgu.0-25277 [001] 12573.016284: sched_switch:         opt cgu.0:25277 [120] R ==> bash:25291 [120]");
        assert_eq!((r.cpu, r.ts_ns, r.pid), (1, 12_573_016_284_000, 25277));
        assert_eq!(
            r.event,
            Event::Switch {
                prev_pid: 25277,
                prev_prio: 120,
                prev_state: "R".into(),
                next_pid: 25291,
                next_prio: 120,
                next_comm: "bash".into()
            }
        );
        let w = rec("     bash-25288 [001] 12573.014080: sched_wakeup_new:     bash:25291 [120] CPU:000");
        assert_eq!(w.event, Event::WakeupNew { pid: 25291, target_cpu: 0 });
        let w = rec("  x-1 [000] 5.000001: sched_wakeup: a:b c:77 [98] success=1 CPU:003");
        assert_eq!(w.event, Event::Wakeup { pid: 77, target_cpu: 3 });
    }

    #[test]
    fn cut_plugin_fields_are_bad_lines() {
        for cut in [
            "bash-1 [001] 1.000000: sched_switch:         bash:1 [120] S ==> opt:2 [12",
            "bash-1 [001] 1.000000: sched_switch:         bash:1 [120] ==> opt:2 [120]",
            "bash-1 [001] 1.000000: sched_wakeup:         bash:1 [120] CPU:",
            "bash-1 [001] 1.000000: sched_wakeup:         bash",
        ] {
            assert!(matches!(parse_line(cut), Line::Bad(_)), "{cut}");
        }
    }

    #[test]
    fn the_cpu_count_line() {
        assert_eq!(cpus_line("cpus=2"), Some("2"));
        assert_eq!(cpus_line("cpus=99999999999"), Some("99999999999"));
        assert_eq!(cpus_line("cpus=x"), None);
    }
}

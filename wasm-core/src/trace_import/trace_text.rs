//! ftrace's text output (`trace` / `trace_pipe`) for the scheduler events a
//! real run records, parsed into records. One line is
//!
//! ```text
//!   <comm>-<pid> [<cpu>] <flags> <secs>.<usecs>: <event>: <fields>
//!   rustc-1292    [001] d..2.  4320.298833: sched_switch: prev_comm=rustc prev_pid=1292 prev_prio=120
//!                                 prev_state=R ==> next_comm=bash next_pid=1327 next_prio=120
//! ```
//!
//! (the second line is one line in the file). A `(tgid)` column
//! (`record-tgid`) and a missing flags column (`noirq-info`) are accepted. A
//! comm may hold spaces, hyphens and `=`, so fields are found from the right
//! (`pid=` after `comm=`) and the task column's pid after its last hyphen.
//! Timestamps print as seconds with microseconds; they are kept in ns.
//! Lines of other events, comments and blanks are skipped; `CPU:n [LOST k
//! EVENTS]` lines are kept as a count of what the buffer dropped.

/// One parsed line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// The CPU the event was recorded on.
    pub cpu: u32,
    pub ts_ns: u64,
    /// The task that was current when the event fired.
    pub pid: u32,
    pub event: Event,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    Switch {
        prev_pid: u32,
        prev_prio: i32,
        prev_state: String,
        next_pid: u32,
        next_prio: i32,
        next_comm: String,
    },
    /// `sched_waking`: try_to_wake_up started (the latency's start).
    Waking {
        pid: u32,
        target_cpu: u32,
    },
    /// `sched_wakeup`: the task is on a runqueue.
    Wakeup {
        pid: u32,
        target_cpu: u32,
    },
    WakeupNew {
        pid: u32,
        target_cpu: u32,
    },
    Migrate {
        pid: u32,
        orig_cpu: u32,
        dest_cpu: u32,
    },
    Fork {
        parent_pid: u32,
        child_pid: u32,
    },
    Exit {
        pid: u32,
    },
    /// A `trace_marker` write.
    Marker(String),
}

impl Event {
    /// The tracepoint's name.
    pub fn name(&self) -> &'static str {
        match self {
            Event::Switch { .. } => "sched_switch",
            Event::Waking { .. } => "sched_waking",
            Event::Wakeup { .. } => "sched_wakeup",
            Event::WakeupNew { .. } => "sched_wakeup_new",
            Event::Migrate { .. } => "sched_migrate_task",
            Event::Fork { .. } => "sched_process_fork",
            Event::Exit { .. } => "sched_process_exit",
            Event::Marker(_) => "tracing_mark_write",
        }
    }
}

/// What a line held.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Line {
    Record(Record),
    /// `CPU:n [LOST k EVENTS]`.
    Lost {
        cpu: u32,
        events: u64,
    },
    /// A comment, a blank, or an event this parser does not read.
    Skip,
    /// A scheduler event whose fields cannot be read (a damaged or cut line).
    Bad(String),
}

/// The scheduler's tracepoints (`events/sched/<name>`): the ones a real run
/// records (`real::tracefs` enables them) and every reader here reads.
pub const SCHED_TRACEPOINTS: [&str; 7] = [
    "sched_switch",
    "sched_waking",
    "sched_wakeup",
    "sched_wakeup_new",
    "sched_migrate_task",
    "sched_process_fork",
    "sched_process_exit",
];

/// A `trace_marker` write: read wherever a trace holds one, never enabled
/// (it is not a scheduler event; a run writes its own marks).
pub const MARKER_EVENT: &str = "tracing_mark_write";

/// The events this parser reads, as a line names them.
fn read_event(name: &str) -> Option<&'static str> {
    SCHED_TRACEPOINTS.into_iter().chain([MARKER_EVENT]).find(|&e| e == name)
}

/// A number as the kernel prints one: decimal digits, a minus sign first for a signed value (a
/// deadline task's prio is -1). Rust's own parse also takes a leading `+`, which no trace prints: a
/// column holding one is damaged, not a number.
pub(crate) fn int<T: std::str::FromStr>(s: &str) -> Option<T> {
    let digits = s.strip_prefix('-').unwrap_or(s);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse().ok()
}

/// `secs.frac` as ns (the fraction has 6 digits with in-ns clocks, 9 when printed raw).
pub(crate) fn timestamp_ns(s: &str) -> Option<u64> {
    let (secs, frac) = s.split_once('.')?;
    if frac.is_empty() || frac.len() > 9 || !frac.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let scale = 10u64.pow(9 - frac.len() as u32);
    int::<u64>(secs)?.checked_mul(1_000_000_000)?.checked_add(frac.parse::<u64>().ok()? * scale)
}

/// The value of `key=` in `fields`: from its last occurrence (a comm before
/// it cannot fake it) to the next space.
fn field<'a>(fields: &'a str, key: &str) -> Option<&'a str> {
    let pat = format!(" {key}=");
    let start = match fields.rfind(&pat) {
        Some(i) => i + pat.len(),
        None if fields.starts_with(&pat[1..]) => pat.len() - 1,
        None => return None,
    };
    let rest = &fields[start..];
    Some(rest.split(' ').next().unwrap_or(rest))
}

fn num<T: std::str::FromStr>(fields: &str, key: &str) -> Option<T> {
    int(field(fields, key)?.trim())
}

/// The comm of `next_comm=` (it may hold spaces: it runs up to ` next_pid=`).
fn next_comm(fields: &str) -> String {
    let start = fields.find("next_comm=").map(|i| i + "next_comm=".len());
    let end = fields.rfind(" next_pid=");
    match (start, end) {
        (Some(s), Some(e)) if s <= e => fields[s..e].to_string(),
        _ => String::new(),
    }
}

pub(crate) fn parse_event(name: &str, f: &str) -> Option<Event> {
    Some(match name {
        "sched_switch" => {
            let (prev, next) = f.split_once(" ==> ")?;
            Event::Switch {
                prev_pid: num(prev, "prev_pid")?,
                prev_prio: num(prev, "prev_prio")?,
                prev_state: field(prev, "prev_state")?.to_string(),
                next_pid: num(next, "next_pid")?,
                next_prio: num(next, "next_prio")?,
                next_comm: next_comm(next),
            }
        }
        "sched_waking" => Event::Waking { pid: num(f, "pid")?, target_cpu: num(f, "target_cpu")? },
        "sched_wakeup" => Event::Wakeup { pid: num(f, "pid")?, target_cpu: num(f, "target_cpu")? },
        "sched_wakeup_new" => Event::WakeupNew { pid: num(f, "pid")?, target_cpu: num(f, "target_cpu")? },
        "sched_migrate_task" => {
            Event::Migrate { pid: num(f, "pid")?, orig_cpu: num(f, "orig_cpu")?, dest_cpu: num(f, "dest_cpu")? }
        }
        "sched_process_fork" => {
            // `comm=%s pid=%d child_comm=%s child_pid=%d`: the parent's pid is the
            // `pid=` before ` child_comm=`.
            let (parent, child) = f.split_once(" child_comm=")?;
            Event::Fork { parent_pid: num(parent, "pid")?, child_pid: num(child, "child_pid")? }
        }
        "sched_process_exit" => {
            let f = f.split(" group_dead=").next().unwrap_or(f);
            Event::Exit { pid: num(f, "pid")? }
        }
        "tracing_mark_write" => Event::Marker(f.trim_end().to_string()),
        _ => return None,
    })
}

/// Parses one line of text-format trace output.
pub fn parse_line(line: &str) -> Line {
    let line = line.trim_end_matches(['\n', '\r']);
    let trimmed = line.trim_start();
    if trimmed.is_empty() || trimmed.starts_with('#') {
        return Line::Skip;
    }
    if let Some(rest) = trimmed.strip_prefix("CPU:") {
        if let Some((cpu, tail)) = rest.split_once(" [LOST ") {
            let events = tail.split_whitespace().next().and_then(|n| n.parse().ok());
            if let (Ok(cpu), Some(events)) = (cpu.trim().parse(), events) {
                return Line::Lost { cpu, events };
            }
        }
        return Line::Skip;
    }
    match parse_head(trimmed) {
        Ok((cpu, ts_ns, pid, name, fields)) => event_line(cpu, ts_ns, pid, name, fields),
        Err(why) => damaged_or_skipped(trimmed, why),
    }
}

/// A line whose columns cannot be read: damaged if it names a tracepoint
/// this parser reads (a cut or corrupted scheduler event must stop the
/// import, not vanish from the figures), else some other text to skip.
pub(crate) fn damaged_or_skipped(line: &str, why: &str) -> Line {
    match names_event(line) {
        Some(name) => Line::Bad(format!("{why} of {name}")),
        None => Line::Skip,
    }
}

/// The tracepoint a line names as its event (`sched_switch:` as ftrace and
/// trace-cmd print it, `sched:sched_switch:` as perf does), if it is one this
/// parser reads.
fn names_event(line: &str) -> Option<&'static str> {
    line.split_whitespace()
        .filter_map(|w| w.strip_suffix(':'))
        .map(|w| w.strip_prefix("sched:").unwrap_or(w))
        .find_map(read_event)
}

/// The line of one event from its parsed columns: a tracepoint this parser
/// reads must have its fields, in the kernel's format or as trace-cmd's
/// plugins print them.
pub(crate) fn event_line(cpu: u32, ts_ns: u64, pid: u32, name: &str, fields: &str) -> Line {
    if read_event(name).is_none() {
        return Line::Skip;
    }
    match parse_event(name, fields).or_else(|| super::trace_cmd::plugin_event(name, fields)) {
        Some(event) => Line::Record(Record { cpu, ts_ns, pid, event }),
        None => Line::Bad(format!("cannot read the fields of {name}")),
    }
}

/// The CPU column: the first "[digits]" followed by a space (its brackets' offsets, the CPU).
pub(crate) fn cpu_column(line: &str) -> Option<(usize, usize, u32)> {
    let bytes = line.as_bytes();
    for (i, &b) in bytes.iter().enumerate() {
        if b != b'[' {
            continue;
        }
        let close = line[i..].find(']').map(|j| i + j)?;
        let inner = &line[i + 1..close];
        if !inner.is_empty() && inner.bytes().all(|c| c.is_ascii_digit()) && bytes.get(close + 1) == Some(&b' ') {
            return Some((i, close, inner.parse().ok()?));
        }
    }
    None
}

/// The CPU, time, task pid, event name and fields of an event line, or
/// which column could not be read.
fn parse_head(line: &str) -> Result<(u32, u64, u32, &str, &str), &'static str> {
    const CPU: &str = "cannot read the CPU column";
    const TASK: &str = "cannot read the task column";
    const TIME: &str = "cannot read the timestamp";
    let (open, close, cpu) = cpu_column(line).ok_or(CPU)?;
    // The task column, without the optional "(tgid)".
    let mut task = line[..open].trim_end();
    if task.ends_with(')') {
        task = task[..task.rfind('(').ok_or(TASK)?].trim_end();
    }
    let pid: u32 = task.rsplit_once('-').and_then(|(_, p)| int(p)).ok_or(TASK)?;
    // After the CPU: optional flags, then "secs.usecs:", then "event: fields".
    let rest = &line[close + 1..];
    let mut ts_ns = None;
    let mut after = rest;
    for tok in rest.split_whitespace().take(2) {
        if let Some(ts) = tok.strip_suffix(':').and_then(timestamp_ns) {
            ts_ns = Some(ts);
            let at = rest.find(tok).ok_or(TIME)? + tok.len();
            after = &rest[at..];
            break;
        }
    }
    let ts_ns = ts_ns.ok_or(TIME)?;
    let after = after.trim_start();
    let (name, fields) = after.split_once(": ").unwrap_or((after.trim_end_matches(':'), ""));
    Ok((cpu, ts_ns, pid, name, fields.trim_start()))
}

/// A text trace read leniently (`parse_trace`): its records in time order, the events the buffer lost,
/// and the scheduler lines it could not read, counted, the first named (its line number and why), so a
/// reader that must not stop (a real run, already over) can still say what its figures leave out.
#[derive(Debug, Default)]
pub struct LenientTrace {
    pub records: Vec<Record>,
    pub lost: u64,
    pub unread: u64,
    pub first_unread: Option<(usize, String)>,
}

/// Every record of a text trace, in time order (a concurrent `trace_pipe`
/// read may hand one CPU's events over late; equal times keep file order).
/// A damaged scheduler line is counted in `unread`, not read: the import of
/// a file (`import::parse`) stops on one instead.
pub fn parse_trace(text: &str) -> LenientTrace {
    let mut t = LenientTrace::default();
    for (i, line) in text.lines().enumerate() {
        match parse_line(line) {
            Line::Record(r) => t.records.push(r),
            Line::Lost { events, .. } => t.lost += events,
            Line::Bad(why) => {
                t.unread += 1;
                t.first_unread.get_or_insert((i + 1, why));
            }
            Line::Skip => {}
        }
    }
    t.records.sort_by_key(|r| r.ts_ns);
    t
}

/// A test's one record from `line` as `parse` reads it (panics on anything else).
#[cfg(test)]
pub(crate) fn record_of(line: &str, parse: fn(&str) -> Line) -> Record {
    match parse(line) {
        Line::Record(r) => r,
        other => panic!("{line:?} gave {other:?}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `Event::name` and the list say the same names, in the same order.
    #[test]
    fn each_event_is_a_tracepoint_of_the_list() {
        let s = String::new;
        let events = [
            Event::Switch { prev_pid: 1, prev_prio: 120, prev_state: s(), next_pid: 2, next_prio: 120, next_comm: s() },
            Event::Waking { pid: 1, target_cpu: 0 },
            Event::Wakeup { pid: 1, target_cpu: 0 },
            Event::WakeupNew { pid: 1, target_cpu: 0 },
            Event::Migrate { pid: 1, orig_cpu: 0, dest_cpu: 1 },
            Event::Fork { parent_pid: 1, child_pid: 2 },
            Event::Exit { pid: 1 },
        ];
        assert_eq!(events.iter().map(Event::name).collect::<Vec<_>>(), SCHED_TRACEPOINTS);
        assert_eq!(Event::Marker(s()).name(), MARKER_EVENT);
    }

    fn rec(line: &str) -> Record {
        record_of(line, parse_line)
    }

    #[test]
    fn a_switch_line_as_this_kernel_prints_it() {
        let r = rec("           rustc-1292    [001] d..2.  4320.298833: sched_switch: prev_comm=rustc prev_pid=1292 prev_prio=120 prev_state=R+ ==> next_comm=bash next_pid=1327 next_prio=120");
        assert_eq!((r.cpu, r.ts_ns, r.pid), (1, 4_320_298_833_000, 1292));
        assert_eq!(
            r.event,
            Event::Switch {
                prev_pid: 1292,
                prev_prio: 120,
                prev_state: "R+".into(),
                next_pid: 1327,
                next_prio: 120,
                next_comm: "bash".into()
            }
        );
    }

    #[test]
    fn comms_with_spaces_hyphens_and_equals_do_not_fool_the_fields() {
        let r = rec("  Web Content-77 pid=9-77     [000] d..2.     5.000001: sched_switch: prev_comm=Web Content-77 pid=9 prev_pid=77 prev_prio=120 prev_state=S ==> next_comm=a b next_pid=0 next_prio=120");
        assert_eq!(r.pid, 77);
        let Event::Switch { prev_pid, prev_state, next_pid, next_comm, .. } = r.event else { panic!() };
        assert_eq!((prev_pid, prev_state.as_str(), next_pid, next_comm.as_str()), (77, "S", 0, "a b"));
        let w = rec("x-1 [003] d..3. 1.5: sched_waking: comm=pid=3 z pid=42 prio=125 target_cpu=002");
        assert_eq!((w.ts_ns, w.event), (1_500_000_000, Event::Waking { pid: 42, target_cpu: 2 }));
    }

    #[test]
    fn every_recorded_event_parses() {
        let lines = [
            ("bash-1322 [000] ..... 4320.297813: sched_process_fork: comm=bash pid=1322 child_comm=bash child_pid=1327", Event::Fork { parent_pid: 1322, child_pid: 1327 }),
            ("bash-1322 [000] d..2. 4320.298784: sched_wakeup_new: comm=bash pid=1327 prio=120 target_cpu=001", Event::WakeupNew { pid: 1327, target_cpu: 1 }),
            ("<idle>-0 [001] dNh4. 1.000002: sched_wakeup: comm=hog pid=5 prio=120 target_cpu=001", Event::Wakeup { pid: 5, target_cpu: 1 }),
            ("ksoftirqd/0-14 [000] d..4. 1.000003: sched_migrate_task: comm=hog pid=5 prio=120 orig_cpu=0 dest_cpu=1", Event::Migrate { pid: 5, orig_cpu: 0, dest_cpu: 1 }),
            ("hog-5 [001] ..... 1.000004: sched_process_exit: comm=hog pid=5 prio=120 group_dead=true", Event::Exit { pid: 5 }),
            ("schedsim-9 [000] ..... 1.000005: tracing_mark_write: schedlab start", Event::Marker("schedlab start".into())),
        ];
        for (line, want) in lines {
            assert_eq!(rec(line).event, want, "{line}");
        }
    }

    #[test]
    fn tgid_column_and_missing_flags_are_accepted() {
        let r = rec("hog-5     (    5) [002] 12.000100: sched_process_exit: comm=hog pid=5 prio=120");
        assert_eq!((r.cpu, r.ts_ns, r.pid, r.event), (2, 12_000_100_000, 5, Event::Exit { pid: 5 }));
    }

    #[test]
    fn other_lines_are_skipped_and_losses_counted() {
        assert_eq!(parse_line("# tracer: nop"), Line::Skip);
        assert_eq!(parse_line(""), Line::Skip);
        assert_eq!(parse_line("x-1 [000] d..2. 1.0: sched_stat_runtime: comm=x pid=1 runtime=5 [ns]"), Line::Skip);
        // A scheduler event whose time cannot be read is damaged, not skipped.
        assert_eq!(
            parse_line("x-1 [000] d..2. banana: sched_waking: comm=x pid=1 prio=1 target_cpu=0"),
            Line::Bad("cannot read the timestamp of sched_waking".into())
        );
        assert_eq!(parse_line("CPU:1 [LOST 37 EVENTS]"), Line::Lost { cpu: 1, events: 37 });
        let text = "CPU:0 [LOST 2 EVENTS]\nb-2 [001] d..2. 2.000000: sched_waking: comm=b pid=2 prio=120 target_cpu=001\na-1 [000] d..2. 1.000000: sched_waking: comm=a pid=1 prio=120 target_cpu=000\n";
        let t = parse_trace(text);
        assert_eq!((t.records.len(), t.lost, t.records[0].pid, t.unread), (2, 2, 1, 0));
    }

    #[test]
    fn a_lenient_read_counts_and_names_the_lines_it_could_not_read() {
        let text = "a-1 [000] d..2. 1.000000: sched_waking: comm=a pid=1 prio=120 target_cpu=000\n\
                    a-1 [000] d..2. 1.000001: sched_waking: comm=a pid=x prio=120 target_cpu=000\n\
                    a-1 [000] d..2. +1.000002: sched_wakeup: comm=a pid=1 prio=120 target_cpu=000\n";
        let t = parse_trace(text);
        assert_eq!((t.records.len(), t.unread), (1, 2));
        assert_eq!(t.first_unread, Some((2, "cannot read the fields of sched_waking".into())));
    }

    #[test]
    fn numbers_are_digits_as_the_kernel_prints_them() {
        assert_eq!(int::<i32>("-1"), Some(-1));
        assert_eq!(int::<u32>("007"), Some(7));
        for bad in ["+5", "", "-", " 5", "5 ", "0x5", "-+5"] {
            assert_eq!(int::<i64>(bad), None, "{bad:?}");
        }
        assert_eq!(timestamp_ns("+1.000000"), None);
        let signed = "a-1 [000] d..2. 1.0: sched_waking: comm=a pid=+2 prio=120 target_cpu=000";
        assert_eq!(parse_line(signed), Line::Bad("cannot read the fields of sched_waking".into()));
    }

    #[test]
    fn timestamps_keep_their_digits() {
        assert_eq!(timestamp_ns("4320.298833"), Some(4_320_298_833_000));
        assert_eq!(timestamp_ns("0.000000001"), Some(1));
        assert_eq!(timestamp_ns("1."), None);
        assert_eq!(timestamp_ns("x.5"), None);
    }
}

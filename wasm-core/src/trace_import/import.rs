//! Real traces recorded anywhere, read as the run model (`schedsim real-trace`):
//!
//! ```text
//!   bytes ─► read_capped (size cap, UTF-8 with the bad line named)
//!         ─► detect: ftrace text (tracefs `trace`, a `schedsim real --save-trace` file) |
//!                    trace-cmd report | perf script
//!         ─► records, line by line (a damaged or cut scheduler line stops the import with its number)
//!         ─► workload: the file's `# schedlab` header, or `foreign` (threads grouped by comm)
//!         ─► analysis::analyse
//! ```
//!
//! The CPU count comes from the file where it says (`#P:N` in ftrace's
//! header, `cpus=N` in trace-cmd's, `# nrcpus online` in perf's), else from
//! what the user picks (`--cpus N`, `--machine PRESET`), else the highest
//! CPU seen. The input is untrusted: it is capped in size and records, and
//! nothing in it can make the import panic.

use super::analysis::{analyse, RealReport};
use super::manifest::Workload;
use super::trace_text::{self, Line, Record};
use super::{foreign, perf_script, trace_cmd};

/// The largest trace file read (a 2-CPU second of every sched event is about 10 MiB of text).
pub const MAX_TRACE_BYTES: u64 = 512 << 20;
/// The most records kept.
pub const MAX_RECORDS: usize = 4_000_000;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Ftrace,
    TraceCmd,
    Perf,
}

impl Format {
    pub fn name(self) -> &'static str {
        match self {
            Format::Ftrace => "ftrace text",
            Format::TraceCmd => "trace-cmd report",
            Format::Perf => "perf script",
        }
    }
}

/// The file at `path` as text (the CLI; the page reads its own file), refused past `MAX_TRACE_BYTES` or when it is not UTF-8.
#[cfg(not(target_arch = "wasm32"))]
pub fn read_capped(path: &str) -> Result<String, String> {
    use std::io::Read;
    let file = std::fs::File::open(path).map_err(|e| format!("cannot read {path}: {e}"))?;
    let mut bytes = Vec::new();
    file.take(MAX_TRACE_BYTES + 1).read_to_end(&mut bytes).map_err(|e| format!("cannot read {path}: {e}"))?;
    if bytes.len() as u64 > MAX_TRACE_BYTES {
        return Err(format!("{path} is larger than {} MiB, the largest trace read", MAX_TRACE_BYTES >> 20));
    }
    String::from_utf8(bytes).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        let line = 1 + e.as_bytes()[..at].iter().filter(|&&b| b == b'\n').count();
        format!(
            "line {line}: not text (a binary perf.data or trace.dat? convert it with `perf script` or \
             `trace-cmd report` first)"
        )
    })
}

/// The format of a trace, from its first lines.
pub fn detect(text: &str) -> Format {
    for line in text.lines().take(2_000) {
        let t = line.trim();
        if trace_cmd::cpus_line(t).is_some() || t.starts_with("version = ") {
            return Format::TraceCmd;
        }
        if perf_script::header_value(t, "nrcpus online").is_some() {
            return Format::Perf;
        }
        if t.starts_with('#') || t.is_empty() {
            continue;
        }
        if let Some((_, close, _)) = trace_text::cpu_column(t) {
            let after = &t[close + 1..];
            if after.split_whitespace().nth(1).is_some_and(|w| w.starts_with("sched:")) {
                return Format::Perf;
            }
            return Format::Ftrace;
        }
    }
    Format::Ftrace
}

/// What a trace file held.
#[derive(Debug, Default)]
pub struct Parsed {
    pub records: Vec<Record>,
    pub lost: u64,
    /// The machine's CPU count, where the file says it.
    pub cpus: Option<u32>,
    /// The kernel release, where the file says it.
    pub kernel: Option<String>,
}

/// Every record of `text` in time order; the first damaged scheduler line is an error with its number.
pub fn parse(text: &str, format: Format) -> Result<Parsed, String> {
    let mut p = Parsed::default();
    let ends_cut = !text.is_empty() && !text.ends_with('\n');
    let total = text.lines().count();
    for (i, line) in text.lines().enumerate() {
        let n = i + 1;
        let t = line.trim();
        if p.cpus.is_none() {
            p.cpus = match format {
                Format::TraceCmd => trace_cmd::cpus_line(t),
                Format::Perf => perf_script::header_value(t, "nrcpus online").and_then(|v| v.parse().ok()),
                Format::Ftrace => t.split_once("#P:").and_then(|(_, v)| v.trim().parse().ok()),
            };
        }
        if format == Format::Perf && p.kernel.is_none() {
            p.kernel = perf_script::header_value(t, "os release").map(str::to_string);
        }
        let parsed = match format {
            Format::Perf => perf_script::parse_line(line),
            Format::Ftrace | Format::TraceCmd => trace_text::parse_line(line),
        };
        match parsed {
            Line::Record(r) => {
                if p.records.len() == MAX_RECORDS {
                    return Err(format!("line {n}: more than {MAX_RECORDS} scheduler events; cut the trace shorter"));
                }
                p.records.push(r);
            }
            Line::Lost { events, .. } => p.lost = p.lost.saturating_add(events),
            Line::Bad(why) if ends_cut && n == total => {
                return Err(format!("line {n}: the file ends mid-line ({why})"))
            }
            Line::Bad(why) => return Err(format!("line {n}: {why}: {:?}", crate::api::text::escape_controls(cut(t)))),
            Line::Skip => {}
        }
    }
    if !p.records.iter().any(|r| matches!(r.event, trace_text::Event::Switch { .. })) {
        return Err(format!("no sched_switch events in {total} lines read as {}", format.name()));
    }
    p.records.sort_by_key(|r| r.ts_ns);
    Ok(p)
}

fn cut(line: &str) -> &str {
    match line.char_indices().nth(160) {
        Some((i, _)) => &line[..i],
        None => line,
    }
}

/// What the user says about a trace without a `# schedlab` header.
#[derive(Clone, Debug, Default)]
pub struct Choices {
    /// The machine's CPU count (`--cpus`, or a preset's).
    pub cpus: Option<u32>,
    /// Only these comms are the workload (`--comm a,b`); default every task.
    pub comms: Option<Vec<String>>,
}

/// The report of a trace file's text: the format it was read as, and the report.
pub fn report(text: &str, name: &str, choices: &Choices) -> Result<(Format, RealReport), String> {
    let format = detect(text);
    let parsed = parse(text, format)?;
    let workload = workload(text, name, choices, &parsed)?;
    Ok((format, analyse(&workload, &parsed.records, parsed.lost)))
}

/// What a trace's workload is: its `# schedlab` header's, else every task grouped by comm (`foreign`).
pub fn workload(text: &str, name: &str, choices: &Choices, parsed: &Parsed) -> Result<Workload, String> {
    if text.contains("# schedlab window ") {
        Workload::from_header(text)
    } else {
        let cpus = parsed.cpus.or(choices.cpus);
        let kernel = parsed.kernel.clone().unwrap_or_else(|| "unknown (not in the trace)".into());
        foreign::workload(&parsed.records, name, &kernel, cpus, choices.comms.as_deref())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SWITCH: &str = "a-1 [000] d..2. 1.000000: sched_switch: prev_comm=a prev_pid=1 prev_prio=120 prev_state=S ==> next_comm=b next_pid=2 next_prio=120\n";

    #[test]
    fn formats_are_told_apart() {
        assert_eq!(detect(&format!("# tracer: nop\n{SWITCH}")), Format::Ftrace);
        assert_eq!(detect("cpus=2\n  a-1 [000] 1.0: sched_switch: a:1 [120] S ==> b:2 [120]\n"), Format::TraceCmd);
        assert_eq!(detect("  a 1 [000] 1.0: sched:sched_switch: prev_comm=a\n"), Format::Perf);
        assert_eq!(detect("# nrcpus online : 4\n"), Format::Perf);
    }

    #[test]
    fn a_damaged_line_is_named_by_its_number() {
        let bad = format!("{SWITCH}# comment\na-1 [000] d..2. 1.1: sched_waking: comm=a pid=x\n{SWITCH}");
        let e = parse(&bad, Format::Ftrace).unwrap_err();
        assert!(e.starts_with("line 3: cannot read the fields of sched_waking"), "{e}");
        let cut = format!("{SWITCH}{SWITCH}a-1 [000] d..2. 1.2: sched_switch: prev_comm=a prev_pid=1 prev_p");
        let e = parse(&cut, Format::Ftrace).unwrap_err();
        assert!(e.starts_with("line 3: the file ends mid-line"), "{e}");
        let e = parse("# tracer: nop\nhello\n", Format::Ftrace).unwrap_err();
        assert!(e.contains("no sched_switch events in 2 lines"), "{e}");
    }

    #[test]
    fn the_cpu_count_is_taken_from_each_header() {
        let f = parse(&format!("# entries-in-buffer/entries-written: 5/5   #P:4\n{SWITCH}"), Format::Ftrace).unwrap();
        assert_eq!(f.cpus, Some(4));
        let perf = "# os release : 6.1.0\n# nrcpus online : 8\n  a 1 [003] 1.0: sched:sched_switch: prev_comm=a prev_pid=1 prev_prio=120 prev_state=R ==> next_comm=b next_pid=2 next_prio=120\n";
        let p = parse(perf, Format::Perf).unwrap();
        assert_eq!((p.cpus, p.kernel.as_deref(), p.records.len()), (Some(8), Some("6.1.0"), 1));
    }

    #[test]
    fn garbage_never_panics() {
        let mut junk = String::new();
        for (i, c) in
            "[]: -=>()/0123456789 sched_switch sched:prev_pid=\n#P:cpus=".chars().cycle().take(20_000).enumerate()
        {
            junk.push(c);
            if i % 37 == 0 {
                junk.push('\n');
            }
        }
        for f in [Format::Ftrace, Format::TraceCmd, Format::Perf] {
            let _ = parse(&junk, f);
            let _ = report(&junk, "junk", &Choices::default());
        }
    }
}

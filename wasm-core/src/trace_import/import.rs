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
use super::{cpu_limit, foreign, perf_script, trace_cmd};

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
    // A regular file's size is known before a byte is read: refused at once, not after 512 MiB in memory.
    // Pipes and devices have none (or 0): they are read through `take`, one byte past the cap at most.
    if let Some(len) = file.metadata().ok().filter(|m| m.is_file()).map(|m| m.len()) {
        if len > MAX_TRACE_BYTES {
            return Err(format!(
                "{path} is {len} bytes, larger than {} MiB, the largest trace read",
                MAX_TRACE_BYTES >> 20
            ));
        }
    }
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
            if let Some(count) = stated_cpus(t, format) {
                p.cpus = Some(cpu_limit::header_count(count, n)?);
            }
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
                cpu_limit::check_record(&r, n)?;
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

/// The CPU count a header line states, as written: trace-cmd's `cpus=N`,
/// perf's `# nrcpus online : N`, ftrace's `#P:N` (in a comment line only: an
/// event's text may hold the same characters).
fn stated_cpus(line: &str, format: Format) -> Option<&str> {
    match format {
        Format::TraceCmd => trace_cmd::cpus_line(line),
        Format::Perf => perf_script::header_value(line, "nrcpus online"),
        Format::Ftrace if line.starts_with('#') => line.split_once("#P:")?.1.split_whitespace().next(),
        Format::Ftrace => None,
    }
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
    report_noted(text, name, choices).map(|(format, r, _)| (format, r))
}

/// As `report`, with the import's notes: what the figures cannot tell apart (a pid used twice).
pub fn report_noted(text: &str, name: &str, choices: &Choices) -> Result<(Format, RealReport, Vec<String>), String> {
    let format = detect(text);
    let parsed = parse(text, format)?;
    let workload = workload(text, name, choices, &parsed)?;
    let notes = super::pid_reuse::note(&parsed.records).into_iter().collect();
    Ok((format, analyse(&workload, &parsed.records, parsed.lost), notes))
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
    fn a_cpu_count_past_the_cap_is_refused_with_its_line() {
        let ftrace = format!("# tracer: nop\n# entries-in-buffer/entries-written: 5/5   #P:100000000\n{SWITCH}");
        let e = parse(&ftrace, Format::Ftrace).unwrap_err();
        assert!(e.starts_with("line 2: the trace says it has 100000000 CPUs; at most 1024"), "{e}");
        let tc = "cpus=99999999\n  a-1 [000] 1.0: sched_switch: a:1 [120] S ==> b:2 [120]\n";
        let e = parse(tc, detect(tc)).unwrap_err();
        assert!(e.starts_with("line 1: the trace says it has 99999999 CPUs"), "{e}");
        // u32::MAX plus one would wrap to "0 CPUs".
        let perf = "# nrcpus online : 4294967295\n  a 1 [000] 1.0: sched:sched_switch: prev_comm=a prev_pid=1 prev_prio=120 prev_state=R ==> next_comm=b next_pid=2 next_prio=120\n";
        let e = report(perf, "p", &Choices::default()).unwrap_err();
        assert!(e.starts_with("line 1: the trace says it has 4294967295 CPUs"), "{e}");
        let far = SWITCH.replace("[000]", "[20000000]");
        let e = report(&far, "f", &Choices::default()).unwrap_err();
        assert!(e.starts_with("line 1: sched_switch names CPU 20000000; at most 1024 CPUs"), "{e}");
        let wake = "a-1 [000] d..2. 1.0: sched_waking: comm=a pid=2 prio=120 target_cpu=4294967295\n";
        let e = parse(&format!("{SWITCH}{wake}"), Format::Ftrace).unwrap_err();
        assert!(e.starts_with("line 2: sched_waking names CPU 4294967295"), "{e}");
        // A stated count within the cap is read.
        assert_eq!(parse(&format!("#P:1024\n{SWITCH}"), Format::Ftrace).unwrap().cpus, Some(1024));
    }

    #[test]
    fn a_damaged_timestamp_or_head_stops_the_import_with_its_line() {
        for ts in [
            "-1.000000",
            "nan",
            "NaN.5",
            "99999999999999.000000",
            "1234567890123456789012345678.000001",
            "1.0000000001",
            "+1.000000",
        ] {
            let bad = SWITCH.replace("1.000000", ts);
            let e = parse(&format!("{SWITCH}{bad}{SWITCH}"), Format::Ftrace).unwrap_err();
            assert!(e.starts_with("line 2: cannot read the timestamp of sched_switch"), "{ts}: {e}");
        }
        let no_pid = SWITCH.replace("a-1 ", "a-x ");
        let e = parse(&format!("{SWITCH}{no_pid}"), Format::Ftrace).unwrap_err();
        assert!(e.starts_with("line 2: cannot read the task column of sched_switch"), "{e}");
        let perf_ok = "  a 1 [000] 1.0: sched:sched_switch: prev_comm=a prev_pid=1 prev_prio=120 prev_state=R ==> next_comm=b next_pid=2 next_prio=120\n";
        for cut in [
            "  a [000] 1.0: sched:sched_switch: prev_comm=a prev_pid=1 prev_prio=120 prev_state=R ==> next_comm=b next_pid=2 next_prio=120\n",
            "  a 1 1.0: sched:sched_waking: comm=a pid=2 prio=120 target_cpu=000\n",
            "  a 1 [000] sched:sched_waking: comm=a pid=2 prio=120 target_cpu=000\n",
            "  a 1 [000] -5.0: sched:sched_wakeup: comm=a pid=2 prio=120 target_cpu=000\n",
        ] {
            let e = parse(&format!("# nrcpus online : 2\n{perf_ok}{cut}"), Format::Perf).unwrap_err();
            assert!(e.starts_with("line 3: cannot read the "), "{cut}: {e}");
        }
        // Lines of other events with damaged columns are still skipped.
        let other = "x-1 [000] d..2. banana: sched_stat_runtime: comm=x pid=1 runtime=5 [ns]\n";
        assert_eq!(parse(&format!("{SWITCH}{other}"), Format::Ftrace).unwrap().records.len(), 1);
    }

    #[test]
    fn a_file_past_the_cap_is_refused_by_its_size_unread() {
        // Sparse: no disk, and reading it would take 512 MiB of memory; the message gives the size read from
        // the file's metadata.
        let path = std::env::temp_dir().join(format!("schedlab-import-cap-{}.txt", std::process::id()));
        let f = std::fs::File::create(&path).unwrap();
        f.set_len(MAX_TRACE_BYTES + 1).unwrap();
        let e = read_capped(path.to_str().unwrap()).unwrap_err();
        let _ = std::fs::remove_file(&path);
        assert!(
            e.ends_with(&format!("is {} bytes, larger than 512 MiB, the largest trace read", MAX_TRACE_BYTES + 1)),
            "{e}"
        );
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

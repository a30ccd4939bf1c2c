//! The CPU numbers a trace may name. Every view of a trace holds a table per
//! CPU (the lanes, the heatmaps, the report's rows), sized by the highest CPU
//! or the count a header states, so a damaged or hostile number (`#P:100000000`,
//! `[20000000]`) would make the import allocate gigabytes. The cap is the
//! model's own (`--cpus`, a scenario's machine): `MAX_CPUS`.

use super::trace_text::{Event, Record};
use crate::machine::MAX_CPUS;

/// A CPU count a header states (`#P:N`, `cpus=N`, `# nrcpus online : N`):
/// 1 to `MAX_CPUS`, else an error naming the line. Read as a u64 so that a
/// count past u32 (or exactly u32::MAX, which plus one would wrap to 0) is
/// refused by its value, not mistaken for text.
pub fn header_count(value: &str, line: usize) -> Result<u32, String> {
    let v = value.trim();
    let n: u64 = v.parse().map_err(|_| format!("line {line}: cannot read the CPU count {:?}", cut(v)))?;
    if n == 0 || n > u64::from(MAX_CPUS) {
        return Err(format!("line {line}: the trace says it has {n} CPUs; at most {MAX_CPUS} are read"));
    }
    Ok(n as u32)
}

/// Every CPU a record names (where it was recorded, a wakeup's target, a
/// migration's ends) is below `MAX_CPUS`, else an error naming the line.
pub fn check_record(r: &Record, line: usize) -> Result<(), String> {
    let named = match r.event {
        Event::Waking { target_cpu, .. } | Event::Wakeup { target_cpu, .. } | Event::WakeupNew { target_cpu, .. } => {
            target_cpu
        }
        Event::Migrate { orig_cpu, dest_cpu, .. } => orig_cpu.max(dest_cpu),
        _ => 0,
    };
    let cpu = r.cpu.max(named);
    if cpu >= MAX_CPUS {
        return Err(format!(
            "line {line}: {} names CPU {cpu}; at most {MAX_CPUS} CPUs (0 to {}) are read",
            r.event.name(),
            MAX_CPUS - 1
        ));
    }
    Ok(())
}

fn cut(s: &str) -> &str {
    match s.char_indices().nth(40) {
        Some((i, _)) => &s[..i],
        None => s,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_counts_past_the_cap_or_zero_are_refused() {
        assert_eq!(header_count("4", 1), Ok(4));
        assert_eq!(header_count("1024", 1), Ok(1024));
        for bad in ["1025", "100000000", "4294967295", "99999999999999999999", "0"] {
            let e = header_count(bad, 3).unwrap_err();
            assert!(e.starts_with("line 3: "), "{e}");
        }
        assert!(header_count("4294967295", 3).unwrap_err().contains("4294967295 CPUs; at most 1024"));
        assert!(header_count("x", 2).unwrap_err().contains("cannot read the CPU count \"x\""));
    }

    #[test]
    fn a_record_naming_a_cpu_past_the_cap_is_refused() {
        let ok = Record { cpu: 1023, ts_ns: 1, pid: 1, event: Event::Exit { pid: 1 } };
        assert!(check_record(&ok, 1).is_ok());
        let far = Record { cpu: 20_000_000, ..ok.clone() };
        assert!(check_record(&far, 7).unwrap_err().starts_with("line 7: sched_process_exit names CPU 20000000"));
        let target = Record { cpu: 0, event: Event::Wakeup { pid: 2, target_cpu: u32::MAX }, ..ok };
        assert!(check_record(&target, 9).unwrap_err().contains("CPU 4294967295"));
    }
}

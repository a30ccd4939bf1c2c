//! The workload of a trace recorded without schedlab (no `# schedlab`
//! header): nothing says which threads were "the scenario", so every task
//! that ran is one, grouped into processes by comm (the name a thread was
//! last switched in with: a thread's comm changes at exec, and the text
//! formats do not all print the tgid). The window is the trace's span, from
//! its first event to just after its last; the CPUs are the machine's when
//! known, else those up to the highest one seen.

use super::manifest::{Workload, WorkloadProcess};
use super::trace_text::{Event, Record};

/// The most processes (distinct comms) a report lists.
pub const MAX_PROCESSES: usize = 4_096;

/// The workload of `records` (time-ordered, at least one): `comms` keeps only those names.
pub fn workload(
    records: &[Record],
    name: &str,
    kernel: &str,
    cpus: Option<u32>,
    comms: Option<&[String]>,
) -> Result<Workload, String> {
    let (Some(first), Some(last)) = (records.first(), records.last()) else {
        return Err("the trace has no scheduler events".into());
    };
    // Each thread's last name (a thread can rename itself), by tid.
    let mut comm_of: Vec<(u32, usize, &str)> = Vec::new();
    let mut highest = 0;
    for (i, r) in records.iter().enumerate() {
        highest = highest.max(r.cpu);
        if let Event::Switch { next_pid, next_comm, .. } = &r.event {
            if *next_pid != 0 {
                comm_of.push((*next_pid, usize::MAX - i, next_comm));
            }
        }
    }
    comm_of.sort_unstable();
    comm_of.dedup_by_key(|(tid, _, _)| *tid);
    // `parse` caps every CPU a record names (`cpu_limit`); checked again so that no caller's records can
    // wrap the count to zero or size the CPU table past the model's machines.
    let cap = crate::machine::MAX_CPUS;
    if highest >= cap {
        return Err(format!("the trace names CPU {highest}; at most {cap} CPUs are read"));
    }
    if let Some(n) = cpus.filter(|&n| n > cap) {
        return Err(format!("a machine of {n} CPUs; at most {cap} are read"));
    }
    let seen_cpus = highest + 1;
    let cpus = match cpus {
        Some(n) if n < seen_cpus => {
            return Err(format!("the trace has events on CPU {highest}, but the machine given has {n} CPUs"))
        }
        Some(n) => n,
        None => seen_cpus,
    };
    // The threads of each name, names in order, tids in order.
    let mut pairs: Vec<(&str, u32)> = comm_of.iter().map(|&(tid, _, comm)| (comm, tid)).collect();
    pairs.sort_unstable();
    if let Some(keep) = comms {
        if let Some(missing) = keep.iter().find(|c| !pairs.iter().any(|p| p.0 == c.as_str())) {
            return Err(format!("no task named {missing:?} ran in the trace"));
        }
        pairs.retain(|p| keep.iter().any(|k| k == p.0));
    }
    let mut by_comm: Vec<(&str, Vec<u32>)> = Vec::new();
    for (comm, tid) in pairs {
        match by_comm.last_mut() {
            Some((c, tids)) if *c == comm => tids.push(tid),
            _ => by_comm.push((comm, vec![tid])),
        }
    }
    if by_comm.len() > MAX_PROCESSES {
        return Err(format!(
            "{} distinct task names ran; at most {MAX_PROCESSES} are reported (pick some with --comm)",
            by_comm.len()
        ));
    }
    Ok(Workload {
        scenario: name.to_string(),
        seed: 0,
        kernel: kernel.to_string(),
        window: (first.ts_ns, last.ts_ns.saturating_add(1)),
        host_cpus: (0..cpus).collect(),
        processes: by_comm
            .into_iter()
            .map(|(comm, tids)| WorkloadProcess { name: comm.to_string(), start_ns: 0, tids, policy: None, dl: None })
            .collect(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn switch(ts_ns: u64, cpu: u32, prev: u32, next: u32, comm: &str) -> Record {
        let event = Event::Switch {
            prev_pid: prev,
            prev_prio: 120,
            prev_state: "S".into(),
            next_pid: next,
            next_prio: 120,
            next_comm: comm.into(),
        };
        Record { cpu, ts_ns, pid: prev, event }
    }

    #[test]
    fn threads_are_grouped_by_their_last_comm() {
        let recs = [
            switch(10, 0, 0, 5, "bash"),
            switch(20, 1, 0, 6, "hog"),
            switch(30, 0, 5, 5, "hog"),
            switch(40, 0, 5, 0, ""),
        ];
        let w = workload(&recs, "t", "k", None, None).unwrap();
        assert_eq!((w.window, w.host_cpus.clone()), ((10, 41), vec![0, 1]));
        let names: Vec<(&str, &[u32])> = w.processes.iter().map(|p| (p.name.as_str(), p.tids.as_slice())).collect();
        assert_eq!(names, vec![("hog", &[5, 6][..])]);
        assert_eq!(workload(&recs, "t", "k", Some(4), None).unwrap().host_cpus.len(), 4);
        assert!(workload(&recs, "t", "k", Some(1), None).unwrap_err().contains("CPU 1"));
        assert!(workload(&recs, "t", "k", None, Some(&["make".into()])).unwrap_err().contains("\"make\""));
    }
}

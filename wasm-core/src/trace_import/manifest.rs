//! What a real run's trace is about: the scenario, the measured window and
//! which kernel threads are which scenario threads. The runner knows it; a
//! saved trace carries it as comment lines ftrace's own format allows, so a
//! trace file read later (or a committed fixture) is self-contained:
//!
//! ```text
//! # schedlab scenario two-hogs
//! # schedlab seed 1
//! # schedlab kernel 6.18.44                          (the release it ran on)
//! # schedlab window 4320298000000 4320598000000      (trace clock ns: start, end)
//! # schedlab cpus 0,1                                (host CPU of each model CPU)
//! # schedlab process 0 0 hog0                        (index, start offset ns, name)
//! # schedlab policy 0 fifo 50                        (process, sched_policy, rt_priority; a trace
//!                                                     recorded before policies has none)
//! # schedlab deadline 1 10000000 100000000 100000000  (a deadline process's runtime, deadline and
//!                                                     period, ns; after its policy line; a trace
//!                                                     recorded before deadline threads has none)
//! # schedlab thread 0 0 1327                         (process, thread, tid)
//! ```

use crate::machine::MAX_CPUS;
use crate::sched::policy::{DlParams, SchedPolicy, MAX_RT_PRIORITY};
use std::fmt::Write;

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Workload {
    pub scenario: String,
    pub seed: u64,
    /// The kernel release it ran on.
    pub kernel: String,
    /// The measured window in trace-clock ns (CLOCK_MONOTONIC): [start, end).
    pub window: (u64, u64),
    /// The host CPU of each model CPU.
    pub host_cpus: Vec<u32>,
    pub processes: Vec<WorkloadProcess>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct WorkloadProcess {
    pub name: String,
    /// Its start, from the window's start.
    pub start_ns: u64,
    /// Kernel thread ids by scenario thread index (forked threads appended).
    pub tids: Vec<u32>,
    /// The policy and real-time priority the run gave its threads; None if the trace does not say.
    pub policy: Option<(SchedPolicy, u32)>,
    /// A deadline process's reservation as the run asked for it; None if it has none or the trace does not say.
    pub dl: Option<DlParams>,
}

const TAG: &str = "# schedlab ";

impl Workload {
    /// The scenario process and thread index of a kernel thread.
    pub fn thread_of(&self, tid: u32) -> Option<(usize, usize)> {
        self.processes
            .iter()
            .enumerate()
            .find_map(|(p, proc_)| proc_.tids.iter().position(|&t| t == tid).map(|k| (p, k)))
    }

    /// The header lines.
    pub fn to_header(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(out, "{TAG}scenario {}", self.scenario.replace('\n', " "));
        let _ = writeln!(out, "{TAG}seed {}", self.seed);
        let _ = writeln!(out, "{TAG}kernel {}", self.kernel);
        let _ = writeln!(out, "{TAG}window {} {}", self.window.0, self.window.1);
        let cpus: Vec<String> = self.host_cpus.iter().map(u32::to_string).collect();
        let _ = writeln!(out, "{TAG}cpus {}", cpus.join(","));
        for (i, p) in self.processes.iter().enumerate() {
            let _ = writeln!(out, "{TAG}process {i} {} {}", p.start_ns, p.name.replace('\n', " "));
            if let Some((policy, rt_priority)) = p.policy {
                let _ = writeln!(out, "{TAG}policy {i} {} {rt_priority}", policy.name());
            }
            if let Some(d) = p.dl {
                let _ = writeln!(out, "{TAG}deadline {i} {} {} {}", d.runtime_ns, d.deadline_ns, d.period_ns);
            }
            for (k, tid) in p.tids.iter().enumerate() {
                let _ = writeln!(out, "{TAG}thread {i} {k} {tid}");
            }
        }
        out
    }

    /// Reads the header lines of a saved trace; an error names the bad line.
    pub fn from_header(text: &str) -> Result<Workload, String> {
        let mut w = Workload::default();
        let mut seen_window = false;
        for (n, line) in text.lines().enumerate() {
            let Some(rest) = line.strip_prefix(TAG) else { continue };
            let bad = || format!("line {}: cannot read {line:?}", n + 1);
            let (key, val) = rest.split_once(' ').unwrap_or((rest, ""));
            let nums = |k: usize| -> Option<Vec<u64>> {
                let v: Vec<u64> = val.splitn(k, ' ').take(k).filter_map(|x| x.parse().ok()).collect();
                (v.len() == k).then_some(v)
            };
            match key {
                "scenario" => w.scenario = val.to_string(),
                "seed" => w.seed = val.parse().map_err(|_| bad())?,
                "kernel" => w.kernel = val.to_string(),
                "window" => {
                    let v = nums(2).ok_or_else(bad)?;
                    w.window = (v[0], v[1]);
                    seen_window = true;
                }
                "cpus" => {
                    // Capped as any trace's CPUs are (`cpu_limit`): every view holds a table per CPU.
                    let cpus: Vec<&str> = val.split(',').take(MAX_CPUS as usize + 1).collect();
                    w.host_cpus = cpus.iter().map(|c| c.parse().map_err(|_| bad())).collect::<Result<_, _>>()?;
                    if let Some(far) = w.host_cpus.iter().find(|&&c| c >= MAX_CPUS) {
                        return Err(format!("line {}: CPU {far}; at most {MAX_CPUS} CPUs are read", n + 1));
                    }
                    if w.host_cpus.len() > MAX_CPUS as usize {
                        return Err(format!("line {}: more than {MAX_CPUS} CPUs; at most {MAX_CPUS} are read", n + 1));
                    }
                }
                "process" => {
                    let mut it = val.splitn(3, ' ');
                    let (i, start, name) = (it.next(), it.next(), it.next().unwrap_or(""));
                    let i: usize = i.and_then(|v| v.parse().ok()).ok_or_else(bad)?;
                    let start_ns = start.and_then(|v| v.parse().ok()).ok_or_else(bad)?;
                    if i != w.processes.len() {
                        return Err(bad());
                    }
                    w.processes.push(WorkloadProcess {
                        name: name.to_string(),
                        start_ns,
                        tids: Vec::new(),
                        policy: None,
                        dl: None,
                    });
                }
                "policy" => {
                    let f: Vec<&str> = val.split(' ').collect();
                    let [i, name, prio] = f[..] else { return Err(bad()) };
                    let p = i.parse::<usize>().ok().and_then(|i| w.processes.get_mut(i)).ok_or_else(bad)?;
                    let policy = SchedPolicy::from_name(name).ok_or_else(bad)?;
                    let prio: u32 = prio.parse().map_err(|_| bad())?;
                    if prio > MAX_RT_PRIORITY || policy.is_rt() != (prio > 0) {
                        return Err(bad());
                    }
                    p.policy = Some((policy, prio));
                }
                "deadline" => {
                    let v = nums(4).ok_or_else(bad)?;
                    let p = w.processes.get_mut(v[0] as usize).ok_or_else(bad)?;
                    let d = DlParams { runtime_ns: v[1], deadline_ns: v[2], period_ns: v[3], reclaim: false };
                    // Only a deadline process's, after its policy line; as sched_setattr takes one (`__checkparam_dl`).
                    let deadline = matches!(p.policy, Some((SchedPolicy::Deadline, _)));
                    if !deadline || d.runtime_ns == 0 || d.runtime_ns > d.deadline_ns || d.deadline_ns > d.period_ns {
                        return Err(bad());
                    }
                    p.dl = Some(d);
                }
                "thread" => {
                    let v = nums(3).ok_or_else(bad)?;
                    let p = w.processes.get_mut(v[0] as usize).ok_or_else(bad)?;
                    if v[1] as usize != p.tids.len() {
                        return Err(bad());
                    }
                    p.tids.push(u32::try_from(v[2]).map_err(|_| bad())?);
                }
                _ => {}
            }
        }
        if !seen_window || w.processes.is_empty() || w.host_cpus.is_empty() {
            return Err("not a schedlab trace: it needs '# schedlab window', 'cpus' and 'process' lines".into());
        }
        Ok(w)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_header_reads_back() {
        let w = Workload {
            scenario: "two hogs".into(),
            seed: 7,
            kernel: "6.1.0".into(),
            window: (100, 300_000_100),
            host_cpus: vec![0, 2, 1, 3],
            processes: vec![
                WorkloadProcess {
                    name: "hog 0".into(),
                    start_ns: 0,
                    tids: vec![10, 11],
                    policy: Some((SchedPolicy::Fifo, 50)),
                    dl: None,
                },
                WorkloadProcess { name: "b".into(), start_ns: 5_000_000, tids: vec![12], policy: None, dl: None },
                WorkloadProcess {
                    name: "d".into(),
                    start_ns: 0,
                    tids: vec![14],
                    policy: Some((SchedPolicy::Deadline, 0)),
                    dl: Some(DlParams {
                        runtime_ns: 10_000_000,
                        deadline_ns: 50_000_000,
                        period_ns: 100_000_000,
                        reclaim: false,
                    }),
                },
            ],
        };
        let text = format!("# tracer: nop\n{}x-1 [000] ...\n", w.to_header());
        assert_eq!(Workload::from_header(&text).unwrap(), w);
        assert_eq!(w.thread_of(12), Some((1, 0)));
        assert_eq!(w.thread_of(13), None);
    }

    #[test]
    fn a_policy_line_names_a_known_policy_with_its_priority() {
        let head = "# schedlab window 1 2\n# schedlab cpus 0\n# schedlab process 0 0 a\n";
        let read = |line: &str| Workload::from_header(&format!("{head}{line}\n")).map(|w| w.processes[0].policy);
        assert_eq!(read("# schedlab policy 0 rr 7"), Ok(Some((SchedPolicy::Rr, 7))));
        assert_eq!(read("# schedlab policy 0 normal 0"), Ok(Some((SchedPolicy::Normal, 0))));
        assert_eq!(read("# schedlab thread 0 0 5"), Ok(None));
        for bad in [
            "policy 1 rr 7",
            "policy 0 rr 0",
            "policy 0 normal 3",
            "policy 0 fifo 100",
            "policy 0 hard 1",
            "policy 0 rr",
        ] {
            assert!(read(&format!("# schedlab {bad}")).unwrap_err().starts_with("line 4"), "{bad}");
        }
    }

    #[test]
    fn a_deadline_line_gives_a_deadline_process_its_reservation_and_older_traces_have_none() {
        let head =
            "# schedlab window 1 2\n# schedlab cpus 0\n# schedlab process 0 0 a\n# schedlab policy 0 deadline 0\n";
        let read = |line: &str| Workload::from_header(&format!("{head}{line}\n")).map(|w| w.processes[0].dl);
        let d = DlParams { runtime_ns: 10, deadline_ns: 20, period_ns: 30, reclaim: false };
        assert_eq!(read("# schedlab deadline 0 10 20 30"), Ok(Some(d)));
        // A trace of a deadline run recorded before the line: the policy alone.
        assert_eq!(read("# schedlab thread 0 0 5"), Ok(None));
        for bad in ["deadline 0 10 20", "deadline 0 30 20 10", "deadline 0 0 20 30", "deadline 1 10 20 30"] {
            assert!(read(&format!("# schedlab {bad}")).unwrap_err().starts_with("line 5"), "{bad}");
        }
        // Only a deadline process has one.
        let fifo = "# schedlab window 1 2\n# schedlab cpus 0\n# schedlab process 0 0 a\n# schedlab policy 0 fifo 5\n";
        let err = Workload::from_header(&format!("{fifo}# schedlab deadline 0 10 20 30\n")).unwrap_err();
        assert!(err.starts_with("line 5"), "{err}");
    }

    #[test]
    fn a_trace_without_a_header_is_refused() {
        assert!(Workload::from_header("# tracer: nop\n").unwrap_err().contains("not a schedlab trace"));
        assert!(Workload::from_header("# schedlab window 1\n").unwrap_err().contains("line 1"));
    }

    #[test]
    fn a_header_naming_too_many_cpus_is_refused() {
        let many = format!("# schedlab window 1 2\n# schedlab cpus {}\n", vec!["0"; 1025].join(","));
        assert!(Workload::from_header(&many).unwrap_err().starts_with("line 2: more than 1024 CPUs"));
        let far = "# schedlab window 1 2\n# schedlab cpus 0,4294967295\n";
        assert!(Workload::from_header(far).unwrap_err().starts_with("line 2: CPU 4294967295"));
    }
}

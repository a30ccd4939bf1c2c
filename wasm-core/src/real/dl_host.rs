//! The host's deadline settings, read (never changed) for the report of a run
//! with deadline threads, and what a refused `sched_setattr` means on it.
//!
//! ```text
//!   /proc/sys/kernel/sched_rt_runtime_us, sched_rt_period_us     admission: the share of each CPU of a root
//!                                                                domain its deadline reservations may add up to
//!   /proc/sys/kernel/sched_deadline_period_min_us, _max_us       the periods sched_setattr takes
//!   the fair servers (rt_host, debugfs)                          from 6.12, deadline entities admitted alike
//! ```
//!
//! Admission (`sched_dl_overflow`, kernel/sched/deadline.c 3484–3530 in 6.12) refuses a reservation that
//! would bring the root domain's total past `sched_rt_runtime_us / sched_rt_period_us` of its CPUs'
//! capacity (`__dl_overflow`, deadline.c 239); each CPU's fair server is added to that total when it starts
//! (`dl_server_apply_params`, deadline.c 1895–1917), so deadline tasks have that much less.

use super::rt_host::{ms, release_at_least, RtHost};
use crate::sched::policy::DlParams;
use std::path::Path;

/// What was read; None where a file could not be.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DlHost {
    /// The real-time settings (the throttling sysctls admission reads, the fair servers).
    pub rt: RtHost,
    pub period_min_us: Option<u64>,
    pub period_max_us: Option<u64>,
    /// The CPUs the runner may use (its threads' root domain, when the host has one).
    pub cpus: u32,
}

fn read_num(path: &Path) -> Option<u64> {
    std::fs::read_to_string(path).ok()?.trim().parse().ok()
}

/// The settings of this host.
pub fn read() -> DlHost {
    let k = Path::new("/proc/sys/kernel");
    DlHost {
        rt: super::rt_host::read(),
        period_min_us: read_num(&k.join("sched_deadline_period_min_us")),
        period_max_us: read_num(&k.join("sched_deadline_period_max_us")),
        cpus: super::sys::affinity().len() as u32,
    }
}

impl DlHost {
    /// The limit admission holds the root domain's reservations to, said with the sysctls it comes from.
    fn admission(&self) -> String {
        match (self.rt.runtime_us, self.rt.period_us) {
            (Some(-1), Some(_)) => {
                "sched_rt_runtime_us -1: admission control is off (any reservation is admitted)".to_string()
            }
            (Some(r), Some(p)) if r >= 0 && p > 0 => {
                let share = r as f64 / p as f64;
                format!(
                    "sched_rt_runtime_us {r} per sched_rt_period_us {p}: deadline reservations may add up to {:.0} % \
                     of each CPU ({:.2} CPUs on these {})",
                    share * 100.0,
                    share * f64::from(self.cpus),
                    self.cpus
                )
            }
            _ => "sched_rt_runtime_us / sched_rt_period_us not readable".to_string(),
        }
    }

    fn periods(&self) -> String {
        match (self.period_min_us, self.period_max_us) {
            (Some(lo), Some(hi)) => {
                format!(
                    "a period must lie within sched_deadline_period_min_us {lo} and sched_deadline_period_max_us {hi}"
                )
            }
            _ => "sched_deadline_period_min_us / _max_us not readable".to_string(),
        }
    }

    /// What the fair servers take of admission, where the host has them.
    fn servers(&self) -> Option<String> {
        match &self.rt.fair_server {
            Some(cpus) => {
                let held: f64 = cpus.iter().filter(|(_, p)| *p > 0).map(|&(r, p)| r as f64 / p as f64).sum();
                Some(format!(
                    "the fair servers hold {held:.2} CPUs of it ({} ms per {} ms on CPU 0, debugfs)",
                    ms(cpus[0].0),
                    ms(cpus[0].1)
                ))
            }
            None if release_at_least(&self.rt.release, 6, 12) => Some(
                "from 6.12 each CPU's fair server is a deadline entity admitted alike (by default 50 ms of every \
                 1000 ms; debugfs not readable here)"
                    .to_string(),
            ),
            None => None,
        }
    }

    /// The report's note.
    pub fn note(&self) -> String {
        let mut parts = vec![self.admission()];
        parts.extend(self.servers());
        parts.push(self.periods());
        format!("the host's deadline settings (read, not changed): {}", parts.join("; "))
    }

    /// Why the host refused `asked` to a thread (`sched_setattr`'s errno), and that the run stopped.
    pub fn refused(&self, errno: i32, asked: &DlParams) -> String {
        let cause = match errno {
            libc::EBUSY => format!(
                "admission control refused it: the root domain's deadline bandwidth is full ({}, less what other \
                 deadline tasks{} hold); this thread asked for {:.1} % of a CPU",
                self.admission(),
                if self.servers().is_some() { " and the fair servers" } else { "" },
                asked.runtime_ns as f64 * 100.0 / asked.period_ns.max(1) as f64
            ),
            libc::EPERM => "the runner may not make deadline threads here: it lacks CAP_SYS_NICE (a container, or \
                            capabilities dropped), or its affinity leaves out CPUs of its root domain (started under \
                            taskset, or in a narrower cpuset)"
                .to_string(),
            libc::EINVAL => format!(
                "the host refuses the parameters (runtime {} ms, deadline {} ms, period {} ms): it takes runtime ≤ \
                 deadline ≤ period and a runtime of at least 1024 ns; {}",
                ms(asked.runtime_ns),
                ms(asked.deadline_ns),
                ms(asked.period_ns),
                self.periods()
            ),
            _ => String::new(),
        };
        let stop = "The run was stopped: it does not run a deadline process as a fair one";
        if cause.is_empty() {
            format!("; {stop}")
        } else {
            format!("; {cause}. {stop}")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn host() -> DlHost {
        DlHost {
            rt: RtHost {
                release: "6.18.44".into(),
                runtime_us: Some(950_000),
                period_us: Some(1_000_000),
                ..RtHost::default()
            },
            period_min_us: Some(100),
            period_max_us: Some(4_194_304),
            cpus: 2,
        }
    }

    #[test]
    fn the_note_says_what_admission_allows_and_which_periods_the_host_takes() {
        let n = host().note();
        assert!(n.starts_with("the host's deadline settings (read, not changed): sched_rt_runtime_us 950000"), "{n}");
        assert!(n.contains("may add up to 95 % of each CPU (1.90 CPUs on these 2)"), "{n}");
        assert!(n.contains("fair server is a deadline entity admitted alike"), "{n}");
        assert!(n.contains("sched_deadline_period_min_us 100 and sched_deadline_period_max_us 4194304"), "{n}");
        let served =
            DlHost { rt: RtHost { fair_server: Some(vec![(50_000_000, 1_000_000_000); 2]), ..host().rt }, ..host() };
        assert!(served.note().contains("the fair servers hold 0.10 CPUs of it (50 ms per 1000 ms on CPU 0"));
        let old = DlHost { rt: RtHost { release: "5.10.0".into(), runtime_us: Some(-1), ..host().rt }, ..host() };
        let n = old.note();
        assert!(n.contains("admission control is off") && !n.contains("fair server"), "{n}");
    }

    #[test]
    fn each_refusal_names_its_likely_cause_and_that_the_run_stopped() {
        let h = host();
        let asked =
            DlParams { runtime_ns: 10_000_000, deadline_ns: 100_000_000, period_ns: 100_000_000, reclaim: false };
        let busy = h.refused(libc::EBUSY, &asked);
        assert!(busy.contains("admission control refused it") && busy.contains("asked for 10.0 % of a CPU"), "{busy}");
        assert!(busy.contains("and the fair servers hold"), "{busy}");
        let perm = h.refused(libc::EPERM, &asked);
        assert!(perm.contains("CAP_SYS_NICE") && perm.contains("affinity"), "{perm}");
        let inval = h.refused(libc::EINVAL, &asked);
        assert!(inval.contains("period 100 ms") && inval.contains("sched_deadline_period_max_us 4194304"), "{inval}");
        for r in [busy, perm, inval, h.refused(libc::ENOMEM, &asked)] {
            assert!(r.ends_with("it does not run a deadline process as a fair one"), "{r}");
        }
    }
}

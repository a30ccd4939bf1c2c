//! The host's real-time bandwidth settings, read (never changed) for the
//! report of a run with real-time threads, so a reader knows what bounded
//! them: the throttling sysctls, RR's slice, RT_RUNTIME_SHARE (debugfs's
//! sched features), the fair server of Linux 6.12 and later (debugfs), and
//! whether real-time tasks are scheduled by cgroup (CONFIG_RT_GROUP_SCHED:
//! the CPU controller has `cpu.rt_runtime_us`).
//!
//! ```text
//!   /proc/sys/kernel/sched_rt_runtime_us, sched_rt_period_us, sched_rr_timeslice_ms
//!   /sys/kernel/debug/sched/features                     RT_RUNTIME_SHARE | NO_RT_RUNTIME_SHARE
//!   /sys/kernel/debug/sched/fair_server/cpuN/{runtime,period}   ns
//!   <cpu controller>/cpu.rt_runtime_us                    present: group scheduling of real-time tasks
//! ```

use std::fs;
use std::path::{Path, PathBuf};

const DEBUG_SCHED: &str = "/sys/kernel/debug/sched";

/// What was read; None where a file could not be read (or made no sense).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RtHost {
    /// The kernel's release (`uname -r`).
    pub release: String,
    /// `sched_rt_runtime_us` (-1: no limit).
    pub runtime_us: Option<i64>,
    pub period_us: Option<u64>,
    pub rr_timeslice_ms: Option<u64>,
    /// RT_RUNTIME_SHARE in the scheduler's features.
    pub runtime_share: Option<bool>,
    /// Each CPU's fair server (runtime, period) in ns, by CPU number.
    pub fair_server: Option<Vec<(u64, u64)>>,
    /// The CPU controller's directory if it schedules real-time tasks by group.
    pub rt_group: Option<PathBuf>,
}

fn read_num<T: std::str::FromStr>(path: impl AsRef<Path>) -> Option<T> {
    fs::read_to_string(path).ok()?.trim().parse().ok()
}

/// RT_RUNTIME_SHARE's state in a `sched/features` text, if it is named there.
pub fn runtime_share_in(features: &str) -> Option<bool> {
    features.split_whitespace().find_map(|f| match f {
        "RT_RUNTIME_SHARE" => Some(true),
        "NO_RT_RUNTIME_SHARE" => Some(false),
        _ => None,
    })
}

/// Whether a release (`uname -r`) is at least `major.minor`; false if unreadable.
pub fn release_at_least(release: &str, major: u32, minor: u32) -> bool {
    let mut parts = release.split(|c: char| !c.is_ascii_digit());
    let number = |p: Option<&str>| p.and_then(|s| s.parse::<u32>().ok());
    match (number(parts.next()), number(parts.next())) {
        (Some(a), Some(b)) => (a, b) >= (major, minor),
        _ => false,
    }
}

/// Each CPU's fair server from debugfs, if there is one to read.
fn read_fair_server() -> Option<Vec<(u64, u64)>> {
    let dir = Path::new(DEBUG_SCHED).join("fair_server");
    let mut cpus: Vec<(u32, (u64, u64))> = fs::read_dir(&dir)
        .ok()?
        .flatten()
        .filter_map(|e| {
            let cpu: u32 = e.file_name().to_string_lossy().strip_prefix("cpu")?.parse().ok()?;
            Some((cpu, (read_num(e.path().join("runtime"))?, read_num(e.path().join("period"))?)))
        })
        .collect();
    cpus.sort();
    (!cpus.is_empty()).then(|| cpus.into_iter().map(|(_, rp)| rp).collect())
}

/// The settings of this host.
pub fn read() -> RtHost {
    let k = Path::new("/proc/sys/kernel");
    let rt_group = match super::cgroup::find() {
        Some(super::cgroup::Controller::V2(p) | super::cgroup::Controller::V1(p)) => {
            p.join("cpu.rt_runtime_us").exists().then_some(p)
        }
        None => None,
    };
    RtHost {
        release: super::sys::kernel_release(),
        runtime_us: read_num(k.join("sched_rt_runtime_us")),
        period_us: read_num(k.join("sched_rt_period_us")),
        rr_timeslice_ms: read_num(k.join("sched_rr_timeslice_ms")),
        runtime_share: fs::read_to_string(Path::new(DEBUG_SCHED).join("features"))
            .ok()
            .and_then(|f| runtime_share_in(&f)),
        fair_server: read_fair_server(),
        rt_group,
    }
}

/// Nanoseconds as milliseconds, whole when they are.
pub(super) fn ms(ns: u64) -> String {
    let v = ns as f64 / 1e6;
    if v.fract() == 0.0 {
        format!("{v:.0}")
    } else {
        format!("{v:.3}")
    }
}

impl RtHost {
    /// The report's note: what was read, and what the kernel's default is where nothing could be.
    pub fn note(&self) -> String {
        let unread = "not readable";
        let runtime = match (self.runtime_us, self.period_us) {
            (Some(-1), Some(p)) => format!("sched_rt_runtime_us -1 (no limit) per sched_rt_period_us {p}"),
            (Some(r), Some(p)) if r >= 0 && p > 0 => format!(
                "sched_rt_runtime_us {r} per sched_rt_period_us {p} (real-time tasks may take {:.0} % of each \
                 period)",
                r as f64 / p as f64 * 100.0
            ),
            _ => format!("sched_rt_runtime_us / sched_rt_period_us {unread}"),
        };
        let rr = self
            .rr_timeslice_ms
            .map_or(format!("sched_rr_timeslice_ms {unread}"), |ms| format!("sched_rr_timeslice_ms {ms}"));
        let share = match self.runtime_share {
            Some(on) => format!("RT_RUNTIME_SHARE {} (sched features)", if on { "on" } else { "off" }),
            None => format!(
                "RT_RUNTIME_SHARE unknown ({DEBUG_SCHED}/features {unread}: debugfs not mounted; the kernel's \
                 default is {})",
                if release_at_least(&self.release, 4, 18) { "off from 4.18" } else { "on before 4.18" }
            ),
        };
        let mut parts = vec![runtime, rr, share];
        match &self.fair_server {
            Some(cpus) => {
                let first = cpus[0];
                if cpus.iter().all(|&c| c == first) {
                    parts.push(format!(
                        "fair server {} ms per {} ms on each of {} CPUs (debugfs)",
                        ms(first.0),
                        ms(first.1),
                        cpus.len()
                    ));
                } else {
                    let each: Vec<String> = cpus.iter().map(|&(r, p)| format!("{}/{}", ms(r), ms(p))).collect();
                    parts.push(format!("fair server ms per ms by CPU: {} (debugfs)", each.join(", ")));
                }
            }
            None if release_at_least(&self.release, 6, 12) => parts.push(format!(
                "fair server {unread} ({DEBUG_SCHED}/fair_server; from 6.12 its default gives fair tasks 50 ms of \
                 every 1000 ms on each CPU beside real-time ones)"
            )),
            None => {}
        }
        if let Some(dir) = &self.rt_group {
            parts.push(format!(
                "real-time tasks are scheduled by cgroup (CONFIG_RT_GROUP_SCHED: {})",
                dir.join("cpu.rt_runtime_us").display()
            ));
        }
        format!("the host's real-time bandwidth (read, not changed): {}", parts.join("; "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_feature_is_read_on_or_off_and_releases_compare() {
        assert_eq!(runtime_share_in("GENTLE_FAIR_SLEEPERS NO_RT_RUNTIME_SHARE LB_MIN"), Some(false));
        assert_eq!(runtime_share_in("RT_PUSH_IPI RT_RUNTIME_SHARE\n"), Some(true));
        assert_eq!(runtime_share_in("NO_RT_RUNTIME_SHARE_X"), None);
        assert!(release_at_least("6.18.44-fc-v782", 6, 12));
        assert!(release_at_least("4.18.0", 4, 18) && !release_at_least("4.17.9", 4, 18));
        assert!(!release_at_least("unknown", 4, 18));
    }

    #[test]
    fn the_note_says_what_was_read_and_the_defaults_where_nothing_was() {
        let host = RtHost {
            release: "6.18.44".into(),
            runtime_us: Some(950_000),
            period_us: Some(1_000_000),
            rr_timeslice_ms: Some(100),
            runtime_share: None,
            fair_server: None,
            rt_group: Some("/sys/fs/cgroup/cpu".into()),
        };
        let n = host.note();
        assert!(n.contains("sched_rt_runtime_us 950000 per sched_rt_period_us 1000000 (real-time tasks may take 95 %"));
        assert!(n.contains("sched_rr_timeslice_ms 100"), "{n}");
        assert!(n.contains("RT_RUNTIME_SHARE unknown") && n.contains("default is off from 4.18"), "{n}");
        assert!(n.contains("fair server not readable") && n.contains("50 ms of every 1000 ms"), "{n}");
        assert!(n.contains("CONFIG_RT_GROUP_SCHED: /sys/fs/cgroup/cpu/cpu.rt_runtime_us"), "{n}");
        let read = RtHost {
            runtime_us: Some(-1),
            runtime_share: Some(false),
            fair_server: Some(vec![(50_000_000, 1_000_000_000); 4]),
            rt_group: None,
            ..host.clone()
        };
        let n = read.note();
        assert!(n.contains("-1 (no limit)") && n.contains("RT_RUNTIME_SHARE off (sched features)"), "{n}");
        assert!(n.contains("fair server 50 ms per 1000 ms on each of 4 CPUs"), "{n}");
        assert!(!n.contains("cgroup"), "{n}");
        let old = RtHost { release: "4.9.0".into(), runtime_share: None, fair_server: None, ..read };
        let n = old.note();
        assert!(n.contains("default is on before 4.18") && !n.contains("fair server"), "{n}");
        let uneven = RtHost { fair_server: Some(vec![(50_000_000, 1_000_000_000), (0, 1_000_000_000)]), ..host };
        assert!(uneven.note().contains("fair server ms per ms by CPU: 50/1000, 0/1000"), "{}", uneven.note());
    }
}

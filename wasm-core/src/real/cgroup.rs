//! The scenario's cgroups as real CPU-controller groups under
//! `<cpu controller>/schedlab-<pid>/`, removed at the end.
//!
//! cgroup v2 (a `cgroup2` mount whose `cgroup.controllers` lists `cpu`) takes
//! `cpu.weight`: shares map to it as the kernel maps one to the other
//! (`sched_weight_to_cgroup`: weight = round(shares · 100 / 1024), clamped to
//! 1..10000; the group then weighs round(weight · 1024 / 100)). A v1 `cpu`
//! hierarchy (a hybrid machine's `/sys/fs/cgroup/cpu`) takes `cpu.shares`
//! as written (2..262144).

use super::plan::PlanCgroup;
use std::fs;
use std::path::{Path, PathBuf};

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Controller {
    V2(PathBuf),
    V1(PathBuf),
}

/// cgroup v2 `cpu.weight` for a `cpu.shares` value, as the kernel converts.
pub fn shares_to_weight(shares: u64) -> u64 {
    ((shares * 100 + 512) / 1024).clamp(1, 10_000)
}

/// The group weight (shares) the kernel uses for a `cpu.weight`.
pub fn weight_to_shares(weight: u64) -> u64 {
    (weight * 1024 + 50) / 100
}

/// The CPU controller's hierarchy from `/proc/mounts` text, v2 first.
pub fn find_in(mounts: &str, v2_has_cpu: impl Fn(&Path) -> bool) -> Option<Controller> {
    let fields: Vec<Vec<&str>> =
        mounts.lines().map(|l| l.split_whitespace().collect()).filter(|f: &Vec<&str>| f.len() >= 4).collect();
    for f in &fields {
        if f[2] == "cgroup2" && v2_has_cpu(Path::new(f[1])) {
            return Some(Controller::V2(PathBuf::from(f[1])));
        }
    }
    fields
        .iter()
        .find(|f| f[2] == "cgroup" && f[3].split(',').any(|o| o == "cpu"))
        .map(|f| Controller::V1(PathBuf::from(f[1])))
}

/// The host's CPU controller, if any.
pub fn find() -> Option<Controller> {
    let mounts = fs::read_to_string("/proc/mounts").ok()?;
    find_in(&mounts, |p| {
        fs::read_to_string(p.join("cgroup.controllers")).is_ok_and(|c| c.split_whitespace().any(|x| x == "cpu"))
    })
}

/// Groups left by runs that were killed outright, in the host's CPU hierarchy.
pub fn remove_stale_groups() {
    if let Some(Controller::V2(base) | Controller::V1(base)) = find() {
        remove_stale(&base);
    }
}

/// Groups left by runs that were killed outright (empty by now: their processes died with the runner).
fn remove_stale(base: &Path) {
    fn remove(dir: &Path) {
        if let Ok(d) = fs::read_dir(dir) {
            for e in d.flatten().filter(|e| e.path().is_dir()) {
                remove(&e.path());
            }
        }
        let _ = fs::remove_dir(dir);
    }
    let Ok(dir) = fs::read_dir(base) else { return };
    for e in dir.flatten() {
        if super::sys::is_stale(&e.file_name().to_string_lossy(), "schedlab-") {
            remove(&e.path());
        }
    }
}

/// The groups a run made; dropping removes them (children first).
pub struct Groups {
    root: PathBuf,
    /// Each scenario cgroup's directory, by index.
    pub dirs: Vec<PathBuf>,
    made: Vec<PathBuf>,
    /// What was set, for the report: (name, file, value).
    pub settings: Vec<String>,
}

fn put(path: &Path, value: &str) -> Result<(), String> {
    fs::write(path, value).map_err(|e| format!("cannot write '{value}' to {}: {e}", path.display()))
}

impl Groups {
    /// Creates the groups (parents before children, as the scenario lists them).
    pub fn create(ctl: &Controller, specs: &[PlanCgroup], procs_in: &[bool]) -> Result<Groups, String> {
        let base = match ctl {
            Controller::V2(p) | Controller::V1(p) => p.clone(),
        };
        remove_stale(&base);
        let root = base.join(format!("schedlab-{}", std::process::id()));
        let mut g = Groups { root: root.clone(), dirs: Vec::new(), made: Vec::new(), settings: Vec::new() };
        fs::create_dir(&root).map_err(|e| format!("cannot create cgroup {}: {e}", root.display()))?;
        g.made.push(root.clone());
        let v2 = matches!(ctl, Controller::V2(_));
        if v2 {
            put(&root.join("cgroup.subtree_control"), "+cpu")?;
        }
        for (i, s) in specs.iter().enumerate() {
            let parent = s.parent.map_or(root.clone(), |p| g.dirs[p].clone());
            let dir = parent.join(&s.name);
            fs::create_dir(&dir).map_err(|e| format!("cannot create cgroup {}: {e}", dir.display()))?;
            g.made.push(dir.clone());
            if v2 {
                let has_children = specs.iter().any(|c| c.parent == Some(i));
                if has_children && procs_in[i] {
                    return Err(format!(
                        "cgroups[{i}]: cgroup v2 allows no process in a group with child groups ('{}')",
                        s.name
                    ));
                }
                if has_children {
                    put(&dir.join("cgroup.subtree_control"), "+cpu")?;
                }
                let w = shares_to_weight(s.shares);
                put(&dir.join("cpu.weight"), &w.to_string())?;
                g.settings.push(format!("{}: cpu.weight {w} (shares {} → {})", s.name, s.shares, weight_to_shares(w)));
            } else {
                let shares = s.shares.clamp(2, 262_144);
                put(&dir.join("cpu.shares"), &shares.to_string())?;
                g.settings.push(format!("{}: cpu.shares {shares}", s.name));
            }
            g.dirs.push(dir);
        }
        Ok(g)
    }

    /// Moves process `pid` into group `i` (called by the process itself).
    pub fn join(dir: &Path, pid: u32) -> std::io::Result<()> {
        fs::write(dir.join("cgroup.procs"), pid.to_string())
    }

    pub fn root(&self) -> &Path {
        &self.root
    }
}

impl Drop for Groups {
    fn drop(&mut self) {
        // The run's processes are gone; an exiting one may keep a group busy a moment.
        for dir in self.made.iter().rev() {
            for _ in 0..50 {
                if fs::remove_dir(dir).is_ok() || !dir.exists() {
                    break;
                }
                std::thread::sleep(std::time::Duration::from_millis(20));
            }
            if dir.exists() {
                eprintln!("schedsim: cannot remove cgroup {}", dir.display());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shares_map_to_weights_as_the_kernel_converts() {
        assert_eq!(shares_to_weight(1024), 100);
        assert_eq!(weight_to_shares(100), 1024);
        assert_eq!(shares_to_weight(2048), 200);
        assert_eq!(shares_to_weight(335), 33);
        assert_eq!(weight_to_shares(33), 338);
        assert_eq!(shares_to_weight(2), 1);
        assert_eq!(shares_to_weight(262_144), 10_000);
    }

    #[test]
    fn v2_with_cpu_comes_first_else_the_v1_cpu_hierarchy() {
        let hybrid = "tmpfs /sys/fs/cgroup tmpfs rw 0 0\ncgroup /sys/fs/cgroup/cpu cgroup rw,relatime,cpu 0 0\n\
                      cgroup /sys/fs/cgroup/cpuacct cgroup rw,cpuacct 0 0\ncgroup2 /sys/fs/cgroup/unified cgroup2 rw 0 0\n";
        assert_eq!(find_in(hybrid, |_| false), Some(Controller::V1("/sys/fs/cgroup/cpu".into())));
        assert_eq!(find_in(hybrid, |_| true), Some(Controller::V2("/sys/fs/cgroup/unified".into())));
        assert_eq!(find_in("proc /proc proc rw 0 0\n", |_| true), None);
    }
}

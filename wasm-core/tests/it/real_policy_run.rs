//! What the tests of real-time and deadline processes on the host
//! (`real_rt`, `real_dl`) share: a scenario written to a file, `schedsim
//! real` run on it (as it is, or without CAP_SYS_NICE), a run watched for a
//! thread's policy while it lives, a refused run's message, and the check
//! that nothing of a run is left afterwards.

use crate::common;
use crate::real_kernel::{assert_no_run_files_left, threads_named, tracefs_root};
use schedlab_core::real::spawn::LEADER_NAME;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};

pub fn scenario_file(name: &str, text: &str) -> PathBuf {
    let file = common::temp_path(name);
    std::fs::write(&file, text).unwrap();
    file
}

/// `schedsim real FILE --json`, its output captured.
pub fn schedsim_real(file: &Path) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_schedsim"));
    cmd.args(["real", file.to_str().unwrap(), "--json"]).stdout(Stdio::piped()).stderr(Stdio::piped());
    cmd
}

fn setpriv() -> Option<&'static str> {
    ["/usr/bin/setpriv", "/bin/setpriv", "/usr/sbin/setpriv"].into_iter().find(|p| Path::new(p).exists())
}

/// `schedsim real FILE` as root without CAP_SYS_NICE (and, with `no_rtprio`, with RLIMIT_RTPRIO 0, which
/// SCHED_FIFO also accepts in its place), its output captured; None (the test skipped, saying why) without
/// setpriv.
pub fn without_cap_sys_nice(file: &Path, no_rtprio: bool) -> Option<Command> {
    let Some(setpriv) = setpriv() else {
        common::skip("no setpriv (util-linux) to drop CAP_SYS_NICE with");
        return None;
    };
    let mut cmd = Command::new(setpriv);
    cmd.args(["--inh-caps=-sys_nice", "--bounding-set=-sys_nice", env!("CARGO_BIN_EXE_schedsim"), "real"])
        .arg(file)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    // SAFETY: setpriority and setrlimit only, between fork and exec. Nice 0 first, while the capability is
    // still there: a test run under `nice` would otherwise fail at the fair hogs' nice level, before the policy.
    unsafe {
        cmd.pre_exec(move || {
            let none = libc::rlimit { rlim_cur: 0, rlim_max: 0 };
            if libc::setpriority(libc::PRIO_PROCESS, 0, 0) != 0
                || (no_rtprio && libc::setrlimit(libc::RLIMIT_RTPRIO, &none) != 0)
            {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        })
    };
    Some(cmd)
}

/// Runs `cmd` on `file` (removed after) to its refusal: status 2, no report. Returns the runner's pid and
/// what it said on stderr.
pub fn refused_run(mut cmd: Command, file: &Path) -> (u32, String) {
    let child = cmd.spawn().unwrap();
    let runner = child.id();
    let out = child.wait_with_output().unwrap();
    let _ = std::fs::remove_file(file);
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(out.stdout.is_empty(), "a report was printed: {}", String::from_utf8_lossy(&out.stdout));
    (runner, err)
}

/// The tids of the threads named `comm` now.
pub fn tids_named(comm: &str) -> Vec<u32> {
    threads_named(|c| c == comm).iter().filter_map(|t| t.split(' ').next()?.parse().ok()).collect()
}

/// Waits for the run, looking at each thread named `comm` every 5 ms while it lives (`look` gets its tid).
pub fn wait_watching(mut child: Child, comm: &str, mut look: impl FnMut(u32)) -> Output {
    while child.try_wait().unwrap().is_none() {
        tids_named(comm).into_iter().for_each(&mut look);
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    child.wait_with_output().unwrap()
}

/// Nothing of the run `runner` is left: no thread whose name starts with one of `prefixes`, no leader, no
/// tracing instance, no cgroup; tracefs as it was.
pub fn assert_nothing_left(runner: u32, tracefs_before: &Option<String>, prefixes: &[&str]) {
    let left = threads_named(|c| prefixes.iter().any(|p| c.starts_with(p)) || c == LEADER_NAME);
    assert!(left.is_empty(), "threads of the run are left: {left:?}");
    assert!(!Path::new(&format!("/proc/{runner}")).exists(), "the runner is still alive");
    let tracefs_after = tracefs_root();
    assert_eq!(&tracefs_after, tracefs_before, "tracefs mounts changed");
    if let Some(root) = &tracefs_after {
        assert!(!Path::new(&format!("{root}/instances/schedlab-{runner}")).exists(), "the tracing instance is left");
    }
    if let Some(schedlab_core::real::cgroup::Controller::V2(base) | schedlab_core::real::cgroup::Controller::V1(base)) =
        schedlab_core::real::cgroup::find()
    {
        assert!(!base.join(format!("schedlab-{runner}")).exists(), "the run's cgroup is left");
    }
    assert_no_run_files_left();
}

//! The scheduler tracepoints through tracefs, in a dedicated instance
//! (`instances/schedlab-<pid>`): the global buffer and its settings are never
//! touched. tracefs is mounted at /sys/kernel/tracing if it is not mounted
//! anywhere, and unmounted by the last concurrent run to end (`tracefs_mount`).
//!
//! ```text
//!   mkdir instances/schedlab-<pid>   trace_clock = mono (CLOCK_MONOTONIC), buffer_size_kb
//!   events/sched/<each>/enable = 1   trace_pipe read (non-blocking) while the run goes on
//!   finish: tracing_on = 0, drain, events disabled, rmdir (the buffer goes with it)
//! ```

use std::fs::{self, File, OpenOptions};
use std::io::Read;
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};

use super::tracefs_mount;
// The tracepoints a real run records are the ones the trace readers read.
use crate::trace_import::trace_text::SCHED_TRACEPOINTS;

/// Per-CPU buffer of the instance (KiB): drained every few ms, so ample.
const BUFFER_KB: u32 = 8192;
/// The most trace text a run keeps; past it the run stops early.
pub const MAX_TRACE_BYTES: usize = 256 << 20;

const MOUNT_POINT: &str = "/sys/kernel/tracing";

/// Where tracefs is mounted, if it is.
fn mounted_at() -> Option<PathBuf> {
    let mounts = fs::read_to_string("/proc/mounts").ok()?;
    let points: Vec<&str> = mounts
        .lines()
        .filter_map(|l| l.split_whitespace().collect::<Vec<_>>().get(1..3).map(|f| (f[0], f[1])))
        .filter(|(_, t)| *t == "tracefs")
        .map(|(p, _)| p)
        .collect();
    points.iter().find(|p| **p == MOUNT_POINT).or(points.first()).map(PathBuf::from)
}

/// tracefs itself, at `MOUNT_POINT`.
struct SysMount;

impl tracefs_mount::Mounter for SysMount {
    fn is_mounted(&self) -> bool {
        mounted_at().is_some()
    }

    fn mount(&self) -> Result<(), String> {
        let target = std::ffi::CString::new(MOUNT_POINT).expect("no NUL");
        let fstype = std::ffi::CString::new("tracefs").expect("no NUL");
        // SAFETY: valid NUL-terminated strings; no mount data.
        let r = unsafe { libc::mount(fstype.as_ptr(), target.as_ptr(), fstype.as_ptr(), 0, std::ptr::null()) };
        if r != 0 {
            return Err(format!(
                "tracefs is not mounted and cannot be mounted at {MOUNT_POINT}: {}",
                std::io::Error::last_os_error()
            ));
        }
        Ok(())
    }

    fn unmount(&self) -> std::io::Result<()> {
        let target = std::ffi::CString::new(MOUNT_POINT).expect("no NUL");
        // SAFETY: a valid path.
        if unsafe { libc::umount(target.as_ptr()) } == 0 {
            Ok(())
        } else {
            Err(std::io::Error::last_os_error())
        }
    }
}

/// Instances left by runs that were killed outright: stopped and removed.
fn remove_stale(instances: &Path) {
    let Ok(dir) = fs::read_dir(instances) else { return };
    for e in dir.flatten() {
        if super::sys::is_stale(&e.file_name().to_string_lossy(), "schedlab-") {
            let _ = fs::write(e.path().join("tracing_on"), "0");
            let _ = fs::remove_dir(e.path());
        }
    }
}

/// A recording instance. Dropping it without `finish` still stops and removes it.
pub struct Instance {
    root: PathBuf,
    dir: PathBuf,
    pipe: Option<File>,
    /// This run's use of the mount (`tracefs_mount`): the last run out unmounts what a schedsim mounted.
    mount: Option<tracefs_mount::MountRef>,
    removed: bool,
    pub text: Vec<u8>,
    /// Set when the text reached MAX_TRACE_BYTES.
    pub full: bool,
}

fn write(path: &Path, value: &str) -> Result<(), String> {
    fs::write(path, value).map_err(|e| format!("cannot write '{value}' to {}: {e}", path.display()))
}

impl Instance {
    /// Mounts tracefs if needed and creates the instance with the events on.
    pub fn create() -> Result<Instance, String> {
        let mount = tracefs_mount::acquire(&tracefs_mount::lock_dir(), &SysMount)?;
        let Some(root) = mounted_at() else {
            if let Some(note) = mount.release(&SysMount) {
                eprintln!("schedsim: {note}");
            }
            return Err(format!("tracefs is not mounted and cannot be mounted at {MOUNT_POINT}"));
        };
        remove_stale(&root.join("instances"));
        let dir = root.join(format!("instances/schedlab-{}", std::process::id()));
        let mut inst =
            Instance { root, dir, pipe: None, mount: Some(mount), removed: true, text: Vec::new(), full: false };
        for e in SCHED_TRACEPOINTS {
            if !inst.root.join(format!("events/sched/{e}")).exists() {
                return Err(format!("this kernel has no {e} tracepoint ({}/events/sched)", inst.root.display()));
            }
        }
        fs::create_dir(&inst.dir).map_err(|e| format!("cannot create {}: {e}", inst.dir.display()))?;
        inst.removed = false;
        write(&inst.dir.join("tracing_on"), "0")?;
        write(&inst.dir.join("trace_clock"), "mono")?;
        write(&inst.dir.join("buffer_size_kb"), &BUFFER_KB.to_string())?;
        for e in SCHED_TRACEPOINTS {
            write(&inst.dir.join(format!("events/sched/{e}/enable")), "1")?;
        }
        let pipe = OpenOptions::new()
            .read(true)
            .custom_flags(libc::O_NONBLOCK)
            .open(inst.dir.join("trace_pipe"))
            .map_err(|e| format!("cannot open {}/trace_pipe: {e}", inst.dir.display()))?;
        inst.pipe = Some(pipe);
        write(&inst.dir.join("tracing_on"), "1")?;
        Ok(inst)
    }

    /// The instance's directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Writes a line into the trace (`trace_marker`).
    pub fn mark(&self, text: &str) {
        let _ = fs::write(self.dir.join("trace_marker"), text);
    }

    /// Reads what the buffer holds now (never blocks).
    pub fn drain(&mut self) {
        self.drain_until(u64::MAX);
    }

    /// Reads what the buffer holds, but not past `deadline_ns` (CLOCK_MONOTONIC): while
    /// the workload runs, events can arrive as fast as they are read (a ping-pong pinned
    /// beside the reader), and the run must still end on time.
    pub fn drain_until(&mut self, deadline_ns: u64) {
        let Some(pipe) = self.pipe.as_mut() else { return };
        let mut buf = vec![0u8; 1 << 16];
        while super::sys::mono_ns() < deadline_ns {
            match pipe.read(&mut buf) {
                Ok(0) => break,
                Ok(n) => {
                    if self.text.len() + n > MAX_TRACE_BYTES {
                        self.full = true;
                        break;
                    }
                    self.text.extend_from_slice(&buf[..n]);
                }
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(_) => break, // EAGAIN: empty for now
            }
        }
    }

    /// Stops recording, reads the rest, and removes the instance.
    pub fn finish(mut self) -> Result<Vec<u8>, String> {
        let _ = write(&self.dir.join("tracing_on"), "0");
        self.drain();
        // The trace is whole once drained: an instance that will not go away is said, not a lost run.
        if let Err(e) = self.teardown() {
            eprintln!("schedsim: {e}");
        }
        Ok(std::mem::take(&mut self.text))
    }

    fn teardown(&mut self) -> Result<(), String> {
        let mut err = None;
        if !self.removed {
            let _ = write(&self.dir.join("tracing_on"), "0");
            for e in SCHED_TRACEPOINTS {
                let _ = write(&self.dir.join(format!("events/sched/{e}/enable")), "0");
            }
            self.pipe = None; // an open trace_pipe keeps the instance busy
            for _ in 0..50 {
                match fs::remove_dir(&self.dir) {
                    Ok(()) => {
                        self.removed = true;
                        break;
                    }
                    Err(e) => err = Some(format!("cannot remove {}: {e}", self.dir.display())),
                }
                std::thread::sleep(std::time::Duration::from_millis(20));
            }
            if self.removed {
                err = None;
            }
        }
        // After the instance is gone (it holds the mount busy). Never an error: the report is whole either way.
        if let Some(note) = self.mount.take().and_then(|m| m.release(&SysMount)) {
            eprintln!("schedsim: {note}");
        }
        err.map_or(Ok(()), Err)
    }
}

impl Drop for Instance {
    fn drop(&mut self) {
        if let Err(e) = self.teardown() {
            eprintln!("schedsim: {e}");
        }
    }
}

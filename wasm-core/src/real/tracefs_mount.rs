//! tracefs mounted for as long as any `schedsim real` needs it, and
//! unmounted by the last one out if a schedsim mounted it. Two runs at once
//! each used to mount-or-use and then unmount at their end: the first to end
//! failed with EBUSY (the other's instance held the mount), lost its finished
//! report, and left tracefs mounted. Now, in a lock directory (`/run`):
//!
//! ```text
//!   tracefs.lock   flock LOCK_EX around every mount decision; its text says whether a schedsim mounted
//!                  tracefs ("mounted"), so whoever ends last unmounts what a schedsim mounted
//!   tracefs.users  flock LOCK_SH held by each run for as long as it uses tracefs
//!   acquire: lock; if not mounted: mount, mark; share users; unlock
//!   release: lock; drop our share; if users can be taken LOCK_EX at once (no other run):
//!            if marked: unmount (EBUSY, someone else's use: left mounted and marked, said, not an error);
//!            then both files removed (the machine as it was); unlock
//! ```
//!
//! Removing a lock file under its own lock is safe only if every locker
//! checks, once it holds the lock, that the path still names the file it
//! locked (`lock_named`): a run that opened the file just before the last
//! user removed it then opens the path again instead of deciding beside the
//! next run. The users file is opened only under the decision lock, and
//! removed only when no run holds it, so no run's share is ever on a removed
//! file. Both are opened without following a symlink (the temp-directory
//! fallback is writable by anyone).
//!
//! The kernel drops a killed run's locks, so a run killed outright blocks no
//! one; its files and mark stay for the next run's release. The mount itself
//! is a `Mounter`, so the protocol is tested without root.

use std::fs::{File, OpenOptions};
use std::io::{self, Read, Seek, Write};
use std::os::fd::AsRawFd;
use std::os::unix::fs::{MetadataExt, OpenOptionsExt};
use std::path::{Path, PathBuf};

const LOCK: &str = "schedlab-tracefs.lock";
const USERS: &str = "schedlab-tracefs.users";

/// Where the lock files live: `/run` (root's, cleared at boot), else the temp directory.
pub fn lock_dir() -> PathBuf {
    let run = Path::new("/run");
    if run.is_dir() {
        run.to_path_buf()
    } else {
        std::env::temp_dir()
    }
}

/// Mounting and unmounting tracefs (the real one is `tracefs`'s).
pub trait Mounter {
    fn is_mounted(&self) -> bool;
    fn mount(&self) -> Result<(), String>;
    fn unmount(&self) -> io::Result<()>;
}

fn flock(f: &File, op: libc::c_int) -> io::Result<()> {
    loop {
        // SAFETY: a valid open descriptor.
        if unsafe { libc::flock(f.as_raw_fd(), op) } == 0 {
            return Ok(());
        }
        let e = io::Error::last_os_error();
        if e.kind() != io::ErrorKind::Interrupted {
            return Err(e);
        }
    }
}

fn open(dir: &Path, name: &str) -> Result<File, String> {
    let path = dir.join(name);
    OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .custom_flags(libc::O_NOFOLLOW)
        .open(&path)
        .map_err(|e| format!("cannot open {}: {e}", path.display()))
}

/// The mount decision's lock, held while this lives (dropping the file releases it).
struct Decision(File);

/// Whether `path` still names the open file `f` (not removed, not replaced since it was opened).
fn names(path: &Path, f: &File) -> bool {
    match (std::fs::symlink_metadata(path), f.metadata()) {
        (Ok(p), Ok(m)) => (p.dev(), p.ino()) == (m.dev(), m.ino()),
        _ => false,
    }
}

/// `dir/name` opened and locked with LOCK_EX, on the file the path names once the lock is held: the
/// last user out removes the file under this lock, and a run that was waiting on it then holds a lock
/// no later run will contend for, so it opens the path again.
fn lock_named(dir: &Path, name: &str) -> Result<File, String> {
    loop {
        let f = open(dir, name)?;
        flock(&f, libc::LOCK_EX).map_err(|e| format!("cannot lock {}: {e}", dir.join(name).display()))?;
        if names(&dir.join(name), &f) {
            return Ok(f);
        }
    }
}

impl Decision {
    fn take(dir: &Path) -> Result<Decision, String> {
        lock_named(dir, LOCK).map(Decision)
    }

    fn marked(&mut self) -> bool {
        let mut s = String::new();
        let _ = self.0.rewind().and_then(|()| self.0.read_to_string(&mut s));
        s.trim() == "mounted"
    }

    fn mark(&mut self, mounted: bool) {
        let text: &[u8] = if mounted { b"mounted\n" } else { b"" };
        let _ = self.0.set_len(0).and_then(|()| self.0.rewind()).and_then(|()| self.0.write_all(text));
    }
}

/// A run's use of tracefs: its shared lock on the users file.
pub struct MountRef {
    dir: PathBuf,
    users: Option<File>,
}

/// Mounts tracefs if nothing has (marking that a schedsim did) and registers this run as a user.
pub fn acquire(dir: &Path, m: &dyn Mounter) -> Result<MountRef, String> {
    let mut decision = Decision::take(dir)?;
    if !m.is_mounted() {
        // A mark left by someone else's unmount (by hand, a reboot of tracefs) is stale.
        decision.mark(false);
        m.mount()?;
        decision.mark(true);
    }
    let users = open(dir, USERS)?;
    flock(&users, libc::LOCK_SH).map_err(|e| format!("cannot lock {}: {e}", dir.display()))?;
    Ok(MountRef { dir: dir.to_path_buf(), users: Some(users) })
}

impl MountRef {
    /// Ends this run's use; the last user unmounts what a schedsim mounted and removes the lock files.
    /// A sentence to print if tracefs stays mounted against that rule (busy), never an error: the run's
    /// report is whole.
    pub fn release(mut self, m: &dyn Mounter) -> Option<String> {
        let users = self.users.take()?;
        let Ok(mut decision) = Decision::take(&self.dir) else { return None };
        drop(users); // our share is gone
        let alone = open(&self.dir, USERS).ok()?;
        if flock(&alone, libc::LOCK_EX | libc::LOCK_NB).is_err() {
            return None; // another run still records: it decides when it ends
        }
        if decision.marked() && m.is_mounted() {
            if let Err(e) = m.unmount() {
                // The mark (and so the files) stays: the next run out unmounts it.
                return Some(format!("tracefs stays mounted: it is still in use ({e})"));
            }
        }
        // No run uses tracefs and nothing is left to unmount: the machine as it was. Under the lock, the
        // users file (opened only under it) first, then the lock file itself (`lock_named`).
        decision.mark(false);
        let _ = std::fs::remove_file(self.dir.join(USERS));
        let _ = std::fs::remove_file(self.dir.join(LOCK));
        None
    }
}

impl Drop for MountRef {
    fn drop(&mut self) {
        // Released without `release` (an early error path): only the share goes; the next release decides.
        self.users.take();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::Cell;

    #[derive(Default)]
    struct Fake {
        mounted: Cell<bool>,
        mounts: Cell<u32>,
        unmounts: Cell<u32>,
        busy: Cell<bool>,
    }

    impl Mounter for Fake {
        fn is_mounted(&self) -> bool {
            self.mounted.get()
        }
        fn mount(&self) -> Result<(), String> {
            self.mounts.set(self.mounts.get() + 1);
            self.mounted.set(true);
            Ok(())
        }
        fn unmount(&self) -> io::Result<()> {
            if self.busy.get() {
                return Err(io::Error::from_raw_os_error(libc::EBUSY));
            }
            self.unmounts.set(self.unmounts.get() + 1);
            self.mounted.set(false);
            Ok(())
        }
    }

    fn dir(tag: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("schedlab-tracefs-lock-{}-{tag}", std::process::id()));
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    /// The lock files left in `d` (none once the last run is out, as before any run).
    fn left(d: &Path) -> Vec<String> {
        let mut names: Vec<String> =
            std::fs::read_dir(d).unwrap().flatten().map(|e| e.file_name().to_string_lossy().into_owned()).collect();
        names.sort();
        names
    }

    #[test]
    fn two_runs_at_once_mount_once_and_the_last_out_unmounts() {
        let (d, fs) = (dir("two"), Fake::default());
        // flock locks belong to open files, so two acquisitions in one process behave as two runs.
        let first = acquire(&d, &fs).unwrap();
        let second = acquire(&d, &fs).unwrap();
        assert_eq!(fs.mounts.get(), 1);
        assert_eq!(first.release(&fs), None, "the first out leaves it for the second");
        assert!(fs.is_mounted());
        assert_eq!(left(&d), [LOCK, USERS], "the second still records");
        assert_eq!(second.release(&fs), None);
        assert!(!fs.is_mounted(), "the last out unmounts what a schedsim mounted");
        assert!(left(&d).is_empty(), "the last out removes the lock files: {:?}", left(&d));
        // The other order ends the same way.
        let a = acquire(&d, &fs).unwrap();
        let b = acquire(&d, &fs).unwrap();
        assert_eq!(b.release(&fs), None);
        assert!(fs.is_mounted());
        assert_eq!(a.release(&fs), None);
        assert_eq!((fs.mounts.get(), fs.unmounts.get(), fs.is_mounted()), (2, 2, false));
        assert!(left(&d).is_empty(), "{:?}", left(&d));
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn a_mount_made_before_any_schedsim_is_left_and_busy_is_no_error() {
        let (d, fs) = (dir("before"), Fake::default());
        fs.mounted.set(true);
        acquire(&d, &fs).unwrap().release(&fs);
        assert_eq!((fs.mounts.get(), fs.unmounts.get(), fs.is_mounted()), (0, 0, true));
        assert!(left(&d).is_empty(), "nothing to remember: the files go too: {:?}", left(&d));
        fs.mounted.set(false);
        let r = acquire(&d, &fs).unwrap();
        fs.busy.set(true);
        assert!(r.release(&fs).is_some_and(|s| s.contains("stays mounted")));
        // Still marked, so the files stay: the next run out unmounts it, then removes them.
        assert_eq!(std::fs::read_to_string(d.join(LOCK)).unwrap(), "mounted\n");
        fs.busy.set(false);
        acquire(&d, &fs).unwrap().release(&fs);
        assert!(!fs.is_mounted());
        assert!(left(&d).is_empty(), "{:?}", left(&d));
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn a_lock_taken_on_a_removed_lock_file_is_taken_again_on_the_path() {
        let d = dir("removed");
        // A run opened the lock file, then the last user out removed it before this run got the lock.
        let stale = open(&d, LOCK).unwrap();
        std::fs::remove_file(d.join(LOCK)).unwrap();
        assert!(!names(&d.join(LOCK), &stale), "a removed file is not the path's");
        // A next run created the path again: still not the file this run opened.
        let next = lock_named(&d, LOCK).unwrap();
        assert!(!names(&d.join(LOCK), &stale) && names(&d.join(LOCK), &next));
        // The stale handle's holder would now wait for `next`'s lock on the path, not decide beside it.
        let probe = open(&d, LOCK).unwrap();
        assert!(flock(&probe, libc::LOCK_EX | libc::LOCK_NB).is_err(), "the path's file is locked");
        drop(next);
        assert!(names(&d.join(LOCK), &lock_named(&d, LOCK).unwrap()));
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn a_symlink_planted_at_a_lock_path_is_not_followed() {
        let (d, fs) = (dir("symlink"), Fake::default());
        let target = d.join("precious");
        std::fs::write(&target, "keep me\n").unwrap();
        std::os::unix::fs::symlink(&target, d.join(LOCK)).unwrap();
        assert!(acquire(&d, &fs).is_err(), "refused, not written through the link");
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "keep me\n");
        assert_eq!(fs.mounts.get(), 0);
        let _ = std::fs::remove_dir_all(&d);
    }
}

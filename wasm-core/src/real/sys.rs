//! Thin wrappers over the system calls a real run makes (libc). Each returns
//! the errno as an `io::Error` where the caller must know of a failure.

use crate::sched::policy::{DlParams, SchedPolicy};
use std::io;
use std::sync::atomic::AtomicU32;

fn check(ret: libc::c_int) -> io::Result<()> {
    if ret == -1 {
        Err(io::Error::last_os_error())
    } else {
        Ok(())
    }
}

fn clock_ns(clock: libc::clockid_t) -> u64 {
    let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: `ts` is a valid out-pointer; these clocks always exist on Linux.
    unsafe { libc::clock_gettime(clock, &mut ts) };
    ts.tv_sec as u64 * 1_000_000_000 + ts.tv_nsec as u64
}

/// CLOCK_MONOTONIC, which the trace clock `mono` also reads.
pub fn mono_ns() -> u64 {
    clock_ns(libc::CLOCK_MONOTONIC)
}

/// The calling thread's own CPU time (CLOCK_THREAD_CPUTIME_ID).
pub fn thread_cpu_ns() -> u64 {
    clock_ns(libc::CLOCK_THREAD_CPUTIME_ID)
}

fn timespec(ns: u64) -> libc::timespec {
    libc::timespec { tv_sec: (ns / 1_000_000_000) as libc::time_t, tv_nsec: (ns % 1_000_000_000) as libc::c_long }
}

/// Sleeps `ns` on CLOCK_MONOTONIC (through signals).
pub fn sleep_ns(ns: u64) {
    sleep_until_ns(mono_ns().saturating_add(ns));
}

/// Sleeps until CLOCK_MONOTONIC reads `deadline`.
pub fn sleep_until_ns(deadline: u64) {
    let ts = timespec(deadline);
    // SAFETY: valid timespec; a null remainder is allowed with TIMER_ABSTIME.
    while unsafe { libc::clock_nanosleep(libc::CLOCK_MONOTONIC, libc::TIMER_ABSTIME, &ts, std::ptr::null_mut()) }
        == libc::EINTR
    {}
}

/// Burns CPU until the calling thread's CPU clock advanced `ns`.
pub fn burn_cpu_ns(ns: u64) {
    let end = thread_cpu_ns().saturating_add(ns);
    while thread_cpu_ns() < end {
        std::hint::spin_loop();
    }
}

pub fn gettid() -> u32 {
    // SAFETY: gettid cannot fail.
    unsafe { libc::gettid() as u32 }
}

/// `setpriority(PRIO_PROCESS, tid, nice)`: on Linux the nice level of one thread.
pub fn set_nice(tid: u32, nice: i32) -> io::Result<()> {
    // SAFETY: plain system call.
    check(unsafe { libc::setpriority(libc::PRIO_PROCESS, tid as libc::id_t, nice) })
}

/// `struct sched_attr` as far as SCHED_ATTR_SIZE_VER0 (48 bytes): size, policy, flags, nice, priority, then
/// the deadline triple, in the order and widths of include/uapi/linux/sched/types.h (linux-6.12; the
/// utilisation clamps of VER1 follow and are left out). `sched_copy_attr` (kernel/sched/syscalls.c 921–945 in
/// 6.12) reads `size` bytes and zeroes the rest, so a VER0 struct with its size set is a whole request.
#[repr(C)]
struct SchedAttr {
    size: u32,
    policy: u32,
    flags: u64,
    nice: i32,
    priority: u32,
    runtime: u64,
    deadline: u64,
    period: u64,
}

/// `sched_setattr(tid, SCHED_OTHER, nice, runtime = slice)`: from Linux 6.12 a fair
/// task's `sched_runtime` is its EEVDF request size (clamped to 0.1-100 ms); earlier
/// kernels ignore it.
pub fn set_slice(tid: u32, nice: i32, slice_ns: u64) -> io::Result<()> {
    let attr = SchedAttr {
        size: std::mem::size_of::<SchedAttr>() as u32,
        policy: libc::SCHED_OTHER as u32,
        flags: 0,
        nice,
        priority: 0,
        runtime: slice_ns,
        deadline: 0,
        period: 0,
    };
    // SAFETY: the kernel reads `size` bytes of a live, initialised struct.
    let r = unsafe { libc::syscall(libc::SYS_sched_setattr, tid as libc::c_long, &attr as *const SchedAttr, 0) };
    check(r as libc::c_int)
}

/// `sched_setattr(tid, SCHED_DEADLINE, runtime, deadline, period)`: thread `tid`
/// (0: the calling thread, as each worker thread sets its own) becomes a
/// deadline task with this reservation. The kernel checks the
/// parameters (`__checkparam_dl`, kernel/sched/deadline.c 3584–3627 in 6.12:
/// EINVAL, the period also within sched_deadline_period_min_us/max_us), the
/// caller's right (CAP_SYS_NICE; and an affinity narrower than its root domain,
/// syscalls.c 656–669: EPERM) and admission (`sched_dl_overflow`, syscalls.c
/// 688–690: EBUSY when the root domain's reserved bandwidth would pass
/// sched_rt_runtime_us / sched_rt_period_us of its CPUs).
pub fn set_deadline(tid: u32, nice: i32, dl: &DlParams) -> io::Result<()> {
    let attr = SchedAttr {
        size: std::mem::size_of::<SchedAttr>() as u32,
        policy: policy_number(SchedPolicy::Deadline) as u32,
        flags: if dl.reclaim { crate::sched::policy::SCHED_FLAG_RECLAIM } else { 0 },
        nice,
        priority: 0,
        runtime: dl.runtime_ns,
        deadline: dl.deadline_ns,
        period: dl.period_ns,
    };
    // SAFETY: the kernel reads `size` bytes of a live, initialised struct.
    let r = unsafe { libc::syscall(libc::SYS_sched_setattr, tid as libc::c_long, &attr as *const SchedAttr, 0) };
    check(r as libc::c_int)
}

/// The kernel's number for a policy (`SCHED_*` of include/uapi/linux/sched.h).
pub fn policy_number(policy: SchedPolicy) -> libc::c_int {
    match policy {
        SchedPolicy::Normal => libc::SCHED_OTHER,
        SchedPolicy::Batch => libc::SCHED_BATCH,
        SchedPolicy::Idle => libc::SCHED_IDLE,
        SchedPolicy::Fifo => libc::SCHED_FIFO,
        SchedPolicy::Rr => libc::SCHED_RR,
        // Set by sched_setattr only (`set_deadline`): sched_setscheduler has no reservation to give.
        SchedPolicy::Deadline => 6,
    }
}

/// `sched_setscheduler(tid, policy, rt_priority)`: one thread's policy (a
/// real-time one needs CAP_SYS_NICE, or an RLIMIT_RTPRIO that allows the
/// priority, and under CONFIG_RT_GROUP_SCHED a cgroup with real-time runtime).
/// Threads it creates afterwards inherit it, as the kernel's clone does.
pub fn set_policy(tid: u32, policy: SchedPolicy, rt_priority: u32) -> io::Result<()> {
    let param = libc::sched_param { sched_priority: if policy.is_rt() { rt_priority as libc::c_int } else { 0 } };
    // SAFETY: a live sched_param; the kernel only reads it.
    check(unsafe { libc::sched_setscheduler(tid as libc::pid_t, policy_number(policy), &param) })
}

/// `sched_getscheduler(tid)`: a thread's policy number (`SCHED_*`, without SCHED_RESET_ON_FORK).
pub fn policy_of(tid: u32) -> io::Result<libc::c_int> {
    // SAFETY: plain system call.
    let r = unsafe { libc::sched_getscheduler(tid as libc::pid_t) };
    if r == -1 {
        Err(io::Error::last_os_error())
    } else {
        Ok(r & !libc::SCHED_RESET_ON_FORK)
    }
}

/// `sched_getattr(tid)`: a deadline thread's reservation (None for a thread of another policy).
pub fn deadline_of(tid: u32) -> io::Result<Option<DlParams>> {
    let mut attr = SchedAttr { size: 0, policy: 0, flags: 0, nice: 0, priority: 0, runtime: 0, deadline: 0, period: 0 };
    let size = std::mem::size_of::<SchedAttr>() as libc::c_uint;
    // SAFETY: the kernel writes at most `size` bytes into a live struct of that size.
    let r = unsafe {
        libc::syscall(
            libc::SYS_sched_getattr,
            tid as libc::c_long,
            &mut attr as *mut SchedAttr,
            size,
            0 as libc::c_uint,
        )
    };
    check(r as libc::c_int)?;
    Ok((attr.policy as libc::c_int == policy_number(SchedPolicy::Deadline)).then_some(DlParams {
        runtime_ns: attr.runtime,
        deadline_ns: attr.deadline,
        period_ns: attr.period,
        reclaim: attr.flags & crate::sched::policy::SCHED_FLAG_RECLAIM != 0,
    }))
}

/// A POSIX timer that sends the calling process SIGKILL when CLOCK_MONOTONIC
/// reads its deadline: the kernel's own bound on the process's life, which
/// holds when nothing of the runner can run (stopped, or starved by real-time
/// threads on every CPU it may use). A timer is not inherited by fork.
pub struct KillTimer(libc::timer_t);

// SAFETY: a timer_t is the kernel's id of the process's timer, valid from any of its threads.
unsafe impl Send for KillTimer {}
// SAFETY: as above; timer_settime may be called from several threads at once.
unsafe impl Sync for KillTimer {}

impl KillTimer {
    /// Armed to fire at `deadline_ns` (CLOCK_MONOTONIC).
    pub fn arm(deadline_ns: u64) -> io::Result<KillTimer> {
        // SAFETY: an all-zero sigevent is valid plain data; the kernel reads the fields set here.
        let mut ev: libc::sigevent = unsafe { std::mem::zeroed() };
        ev.sigev_notify = libc::SIGEV_SIGNAL;
        ev.sigev_signo = libc::SIGKILL;
        let mut id: libc::timer_t = std::ptr::null_mut();
        // SAFETY: valid pointers to a sigevent and an out timer id.
        check(unsafe { libc::timer_create(libc::CLOCK_MONOTONIC, &mut ev, &mut id) })?;
        let t = KillTimer(id);
        t.set(deadline_ns)?;
        Ok(t)
    }

    /// Moves the deadline (absolute, CLOCK_MONOTONIC).
    pub fn set(&self, deadline_ns: u64) -> io::Result<()> {
        let spec = libc::itimerspec { it_interval: timespec(0), it_value: timespec(deadline_ns.max(1)) };
        // SAFETY: a timer this process created; a valid itimerspec; no old value asked for.
        check(unsafe { libc::timer_settime(self.0, libc::TIMER_ABSTIME, &spec, std::ptr::null_mut()) })
    }
}

impl Drop for KillTimer {
    /// Disarmed and deleted (a workload process never drops its own: it ends with `_exit`).
    fn drop(&mut self) {
        // SAFETY: a timer this process created, deleted once.
        unsafe { libc::timer_delete(self.0) };
    }
}

/// `sched_setaffinity(0, cpus)`: the calling thread's allowed CPUs.
pub fn set_affinity(cpus: &[u32]) -> io::Result<()> {
    // SAFETY: cpu_set_t is plain data; CPU_SET stays within it (checked below).
    unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        for &c in cpus {
            if c as usize >= libc::CPU_SETSIZE as usize {
                return Err(io::Error::from_raw_os_error(libc::EINVAL));
            }
            libc::CPU_SET(c as usize, &mut set);
        }
        check(libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &set))
    }
}

/// The calling thread's allowed CPUs.
pub fn affinity() -> Vec<u32> {
    // SAFETY: as above.
    unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        if libc::sched_getaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &mut set) != 0 {
            return Vec::new();
        }
        (0..libc::CPU_SETSIZE as usize).filter(|&c| libc::CPU_ISSET(c, &set)).map(|c| c as u32).collect()
    }
}

pub fn sched_yield() {
    // SAFETY: plain system call.
    unsafe { libc::sched_yield() };
}

/// The calling thread's name (15 bytes at most, as the kernel keeps it).
pub fn set_thread_name(name: &str) {
    let mut bytes: Vec<u8> = name.bytes().filter(|&b| b != 0).take(15).collect();
    bytes.push(0);
    // SAFETY: a NUL-terminated buffer of at most 16 bytes.
    unsafe { libc::prctl(libc::PR_SET_NAME, bytes.as_ptr() as libc::c_ulong, 0, 0, 0) };
}

/// FUTEX_WAIT (shared: the word may live in memory several processes map):
/// sleeps while `*word == expected`.
pub fn futex_wait(word: &AtomicU32, expected: u32) {
    // SAFETY: `word` is a valid, aligned u32 for the call's duration.
    unsafe {
        libc::syscall(libc::SYS_futex, word.as_ptr(), libc::FUTEX_WAIT, expected, std::ptr::null::<libc::timespec>())
    };
}

/// FUTEX_WAKE: wakes up to `n` waiters on `word`.
pub fn futex_wake(word: &AtomicU32, n: u32) {
    // SAFETY: as above.
    unsafe { libc::syscall(libc::SYS_futex, word.as_ptr(), libc::FUTEX_WAKE, n.min(i32::MAX as u32)) };
}

pub fn geteuid() -> u32 {
    // SAFETY: cannot fail.
    unsafe { libc::geteuid() }
}

/// The kernel's release (`uname -r`).
pub fn kernel_release() -> String {
    std::fs::read_to_string("/proc/sys/kernel/osrelease").map_or_else(|_| "unknown".into(), |s| s.trim().to_string())
}

/// Whether `name` is `<prefix><pid>` of a process that no longer exists (a
/// run killed with SIGKILL could not remove what it made).
pub fn is_stale(name: &str, prefix: &str) -> bool {
    name.strip_prefix(prefix)
        .and_then(|p| p.parse::<u32>().ok())
        .is_some_and(|pid| pid != std::process::id() && !std::path::Path::new(&format!("/proc/{pid}")).exists())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_burn_takes_its_cpu_time_and_a_sleep_its_wall_time() {
        let c0 = thread_cpu_ns();
        burn_cpu_ns(2_000_000);
        assert!(thread_cpu_ns() - c0 >= 2_000_000);
        let m0 = mono_ns();
        sleep_ns(1_000_000);
        assert!(mono_ns() - m0 >= 1_000_000);
    }

    #[test]
    fn policies_have_the_kernels_numbers() {
        let n: Vec<libc::c_int> =
            SchedPolicy::NAMES.iter().map(|n| policy_number(SchedPolicy::from_name(n).unwrap())).collect();
        // include/uapi/linux/sched.h: SCHED_NORMAL 0, FIFO 1, RR 2, BATCH 3, IDLE 5, DEADLINE 6.
        assert_eq!(n, vec![0, 3, 5, 1, 2, 6]);
    }

    #[test]
    fn sched_attr_is_the_kernels_first_version() {
        // SCHED_ATTR_SIZE_VER0; the deadline triple at offsets 24, 32 and 40.
        assert_eq!(std::mem::size_of::<SchedAttr>(), 48);
        let a = SchedAttr { size: 0, policy: 0, flags: 0, nice: 0, priority: 0, runtime: 0, deadline: 0, period: 0 };
        let at = |f: *const u64| f as usize - &a as *const SchedAttr as usize;
        assert_eq!((at(&a.runtime), at(&a.deadline), at(&a.period)), (24, 32, 40));
    }

    #[test]
    fn a_thread_may_make_itself_normal_and_reads_its_policy_back() {
        let tid = gettid();
        std::thread::spawn(move || {
            let me = gettid();
            assert_ne!(me, tid);
            set_policy(me, SchedPolicy::Batch, 0).unwrap();
            assert_eq!(policy_of(me).unwrap(), libc::SCHED_BATCH);
            set_policy(me, SchedPolicy::Normal, 0).unwrap();
            assert_eq!(policy_of(me).unwrap(), libc::SCHED_OTHER);
        })
        .join()
        .unwrap();
    }

    #[test]
    fn a_kill_timer_kills_a_spinning_process_at_its_deadline() {
        // SAFETY: the child makes only system calls and spins, then is killed (or leaves with _exit).
        let pid = unsafe { libc::fork() };
        assert!(pid >= 0);
        if pid == 0 {
            let t = KillTimer::arm(mono_ns() + 3_600_000_000_000);
            let moved = t.as_ref().map(|t| t.set(mono_ns() + 50_000_000));
            if !matches!(moved, Ok(Ok(()))) {
                // SAFETY: leaving the forked child without unwinding.
                unsafe { libc::_exit(2) };
            }
            let end = mono_ns() + 10_000_000_000;
            while mono_ns() < end {
                std::hint::spin_loop();
            }
            // SAFETY: as above.
            unsafe { libc::_exit(0) };
        }
        let mut status = 0;
        // SAFETY: reaping the child forked above.
        assert_eq!(unsafe { libc::waitpid(pid, &mut status, 0) }, pid);
        assert!(libc::WIFSIGNALED(status) && libc::WTERMSIG(status) == libc::SIGKILL, "status {status:#x}");
        // And one dropped before its deadline never fires.
        drop(KillTimer::arm(mono_ns() + 1_000_000).unwrap());
        sleep_ns(5_000_000);
    }

    #[test]
    fn only_names_of_dead_processes_are_stale() {
        assert!(!is_stale(&format!("schedlab-{}", std::process::id()), "schedlab-"));
        assert!(!is_stale("schedlab-1", "schedlab-")); // init is alive
        assert!(!is_stale("other-123", "schedlab-"));
        assert!(is_stale("schedlab-4194304", "schedlab-")); // above pid_max
    }

    #[test]
    fn a_futex_wake_without_waiters_and_a_wait_on_a_changed_word_return() {
        let w = AtomicU32::new(1);
        futex_wake(&w, 1);
        futex_wait(&w, 0); // the word is not 0: returns at once (EAGAIN)
    }
}

//! Memory the runner and every workload process share (one anonymous
//! `MAP_SHARED` mapping made before the forks), and the process-local
//! synchronisation objects, all on futexes:
//!
//! ```text
//!   Shared { t0_ns, threads (the cap), forks_refused,
//!            procs[p] { threads started, jobs left, tokens[thread] (wait/wake) } }
//!   Local  { barriers[id] (mutex-held count + futex generation), mutexes[id] (0 free, 1 held, 2 contended) }
//! ```

use super::sys::{futex_wait, futex_wake};
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering::SeqCst};

/// Processes and threads per process a run may have (the thread cap bounds both).
pub const MAX_PROCS: usize = super::plan::MAX_REAL_THREADS as usize;
pub const MAX_THREADS_PER_PROC: usize = super::plan::MAX_REAL_THREADS as usize;

#[repr(C)]
pub struct ProcShared {
    /// Threads started so far (scenario threads, then forks): wake targets and barrier counts.
    pub threads: AtomicU32,
    /// Jobs left in the process's pool.
    pub jobs: AtomicU32,
    /// Futex wakeups not yet consumed, per thread.
    pub tokens: [AtomicU32; MAX_THREADS_PER_PROC],
}

#[repr(C)]
pub struct Shared {
    /// When the workload starts (CLOCK_MONOTONIC ns); written before the gate opens.
    pub t0_ns: AtomicU64,
    /// Threads started in all processes (a fork past the cap is refused).
    pub threads: AtomicU32,
    pub forks_refused: AtomicU32,
    /// Threads ended because their program stalled (steps without time, `Action::Stalled`).
    pub stalled: AtomicU32,
    pub procs: [ProcShared; MAX_PROCS],
}

impl Shared {
    /// A zeroed shared mapping that lives until the process (and its forks) exit.
    pub fn map() -> std::io::Result<&'static Shared> {
        let len = std::mem::size_of::<Shared>();
        // SAFETY: a fresh anonymous mapping, zero-filled; all-zero is a valid `Shared`
        // (atomics of 0). It is never unmapped, hence 'static.
        unsafe {
            let p = libc::mmap(
                std::ptr::null_mut(),
                len,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_SHARED | libc::MAP_ANONYMOUS,
                -1,
                0,
            );
            if p == libc::MAP_FAILED {
                return Err(std::io::Error::last_os_error());
            }
            Ok(&*(p as *const Shared))
        }
    }

    /// `wake`: a futex wakeup for thread `thread` of process `proc_`; a
    /// thread not started yet is not woken (as the model ignores it).
    pub fn wake(&self, proc_: usize, thread: usize) {
        let p = &self.procs[proc_];
        if thread < p.threads.load(SeqCst) as usize && thread < MAX_THREADS_PER_PROC {
            p.tokens[thread].fetch_add(1, SeqCst);
            futex_wake(&p.tokens[thread], 1);
        }
    }

    /// `wait`: consumes a wakeup, blocking until there is one.
    pub fn wait(&self, proc_: usize, thread: usize) {
        let t = &self.procs[proc_].tokens[thread];
        loop {
            let v = t.load(SeqCst);
            if v > 0 {
                if t.compare_exchange(v, v - 1, SeqCst, SeqCst).is_ok() {
                    return;
                }
            } else {
                futex_wait(t, 0);
            }
        }
    }

    /// `take_job`: true if a job was left (and is now taken).
    pub fn take_job(&self, proc_: usize) -> bool {
        self.procs[proc_].jobs.fetch_update(SeqCst, SeqCst, |j| j.checked_sub(1)).is_ok()
    }
}

/// A process-wide barrier: all the process's started threads meet.
#[derive(Default)]
pub struct Barrier {
    arrived: std::sync::Mutex<u32>,
    generation: AtomicU32,
}

impl Barrier {
    /// Arrives; spins `spin_ns` of CPU time, then blocks, until the last arrives.
    pub fn arrive(&self, nthreads: u32, spin_ns: u64) {
        let gen = {
            let mut arrived = self.arrived.lock().unwrap_or_else(|e| e.into_inner());
            *arrived += 1;
            let gen = self.generation.load(SeqCst);
            if *arrived >= nthreads {
                *arrived = 0;
                self.generation.store(gen.wrapping_add(1), SeqCst);
                drop(arrived);
                futex_wake(&self.generation, u32::MAX);
                return;
            }
            gen
        };
        let until = super::sys::thread_cpu_ns().saturating_add(spin_ns);
        while spin_ns > 0 && self.generation.load(SeqCst) == gen && super::sys::thread_cpu_ns() < until {
            std::hint::spin_loop();
        }
        while self.generation.load(SeqCst) == gen {
            futex_wait(&self.generation, gen);
        }
    }
}

/// A mutex held from a `lock` step to an `unlock` step (0 free, 1 held, 2 held with waiters).
#[derive(Default)]
pub struct Mutex {
    state: AtomicU32,
}

impl Mutex {
    pub fn lock(&self) {
        if self.state.compare_exchange(0, 1, SeqCst, SeqCst).is_ok() {
            return;
        }
        while self.state.swap(2, SeqCst) != 0 {
            futex_wait(&self.state, 2);
        }
    }

    /// Frees it whoever holds it (as the model's unlock does).
    pub fn unlock(&self) {
        if self.state.swap(0, SeqCst) == 2 {
            futex_wake(&self.state, 1);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    #[test]
    fn a_wakeup_before_the_wait_is_not_lost_and_unstarted_threads_are_not_woken() {
        let s = Shared::map().unwrap();
        s.procs[1].threads.store(2, SeqCst);
        s.wake(1, 1);
        s.wake(1, 5);
        s.wait(1, 1);
        assert_eq!(s.procs[1].tokens[1].load(SeqCst), 0);
        assert_eq!(s.procs[1].tokens[5].load(SeqCst), 0);
        s.procs[0].jobs.store(1, SeqCst);
        assert!(s.take_job(0) && !s.take_job(0));
    }

    #[test]
    fn threads_meet_at_the_barrier_and_the_mutex_excludes() {
        let b = Arc::new(Barrier::default());
        let m = Arc::new(Mutex::default());
        let count = Arc::new(AtomicU32::new(0));
        let hs: Vec<_> = (0..4)
            .map(|i| {
                let (b, m, count) = (b.clone(), m.clone(), count.clone());
                std::thread::spawn(move || {
                    for round in 0..3u32 {
                        m.lock();
                        let v = count.load(SeqCst);
                        std::thread::yield_now();
                        count.store(v + 1, SeqCst);
                        m.unlock();
                        b.arrive(4, if i % 2 == 0 { 100_000 } else { 0 });
                        assert!(count.load(SeqCst) >= 4 * (round + 1));
                    }
                })
            })
            .collect();
        for h in hs {
            h.join().unwrap();
        }
        assert_eq!(count.load(SeqCst), 12);
    }
}

//! The real runner's one-slot flags (the model's `sim::flags`): a word per
//! posting thread, 0 clear and 1 set, waited for as the step's policy says.
//! A spinner reads the word in a loop as NAS lu's own code does; a yielder
//! spins on its CPU clock, then calls `sched_yield`; a blocker spins, then
//! sleeps on the word with a futex. Whoever changes the word wakes sleepers.

use super::sys::{futex_wait, futex_wake, sched_yield, thread_cpu_ns};
use crate::program::WaitPolicy;
use std::sync::atomic::{AtomicU32, Ordering::SeqCst};

#[derive(Default)]
pub struct Flag {
    word: AtomicU32,
    /// Threads asleep on the word (so a change makes a futex call only then).
    sleepers: AtomicU32,
}

impl Flag {
    /// Waits until the word is `from` (0: clear, for a post; 1: set, for an
    /// await), then turns it over.
    pub fn pass(&self, from: u32, wait: WaitPolicy, spin_ns: u64) {
        loop {
            if self.word.compare_exchange(from, 1 - from, SeqCst, SeqCst).is_ok() {
                if self.sleepers.load(SeqCst) > 0 {
                    futex_wake(&self.word, u32::MAX);
                }
                return;
            }
            match wait {
                WaitPolicy::Spin => {
                    while self.word.load(SeqCst) != from {
                        std::hint::spin_loop();
                    }
                }
                WaitPolicy::Yield => {
                    if !self.spin_for(from, spin_ns) {
                        sched_yield();
                    }
                }
                WaitPolicy::Block => {
                    if !self.spin_for(from, spin_ns) {
                        self.sleepers.fetch_add(1, SeqCst);
                        futex_wait(&self.word, 1 - from);
                        self.sleepers.fetch_sub(1, SeqCst);
                    }
                }
            }
        }
    }

    /// Spins up to `spin_ns` of this thread's CPU time; true if the word
    /// became `from` meanwhile.
    fn spin_for(&self, from: u32, spin_ns: u64) -> bool {
        let until = thread_cpu_ns().saturating_add(spin_ns);
        loop {
            if self.word.load(SeqCst) == from {
                return true;
            }
            if spin_ns == 0 || thread_cpu_ns() >= until {
                return false;
            }
            std::hint::spin_loop();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    #[test]
    fn a_post_waits_for_the_await_and_each_policy_passes_every_token() {
        for wait in [WaitPolicy::Spin, WaitPolicy::Yield, WaitPolicy::Block] {
            let flag = Arc::new(Flag::default());
            let seen = Arc::new(AtomicU32::new(0));
            let (f, s) = (flag.clone(), seen.clone());
            let consumer = std::thread::spawn(move || {
                for _ in 0..200 {
                    f.pass(1, wait, 2_000);
                    s.fetch_add(1, SeqCst);
                }
            });
            for i in 0..200u32 {
                flag.pass(0, wait, 2_000);
                // One slot: the consumer is never more than one token behind.
                assert!(i - seen.load(SeqCst).min(i) <= 1);
            }
            consumer.join().unwrap();
            assert_eq!(seen.load(SeqCst), 200);
            assert_eq!(flag.word.load(SeqCst), 0);
        }
    }
}

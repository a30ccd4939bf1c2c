//! The constant bandwidth server on one entity (deadline.c of 4.1), pure:
//! a task's scheduling deadline and remaining runtime, set up when it first
//! runs, renewed at a wakeup that would overflow its bandwidth
//! (`update_dl_entity` 469–489, `dl_entity_overflow` 430–458), charged as it
//! runs, and replenished a period at a time when its runtime is spent
//! (`replenish_dl_entity` 357–404).

use crate::sched::policy::DlParams;

/// One task's `sched_dl_entity`: its reservation and the server's state.
#[derive(Clone, Copy, Debug)]
pub struct DlEntity {
    pub params: DlParams,
    /// Runtime left in the current reservation (negative after an overrun).
    pub runtime: i64,
    /// The absolute scheduling deadline (ns).
    pub deadline: u64,
    /// Out of runtime: off the queue until the replenishment timer at `deadline`.
    pub throttled: bool,
    /// Never run yet (`dl_new`): its first enqueue sets the server up.
    pub new: bool,
    /// The deadlines it missed (runtime still owed when the deadline passed) and the last one counted.
    pub misses: u64,
    last_missed: u64,
    /// Its place in 6.12's GRUB counts (`grub.rs`); unused under 4.1.
    pub grub: super::grub::GrubState,
}

impl DlEntity {
    pub fn new(params: DlParams) -> DlEntity {
        DlEntity {
            params,
            runtime: 0,
            deadline: 0,
            throttled: false,
            new: true,
            misses: 0,
            last_missed: u64::MAX,
            grub: Default::default(),
        }
    }

    /// `setup_new_dl_entity`: a whole runtime, due a relative deadline from now.
    fn setup_new(&mut self, now: u64) {
        self.deadline = now + self.params.deadline_ns;
        self.runtime = self.params.runtime_ns as i64;
        self.new = false;
    }

    /// `dl_entity_overflow`: running the rest of the runtime by the current
    /// deadline would take more than the reserved bandwidth (both sides in
    /// units of 2^10 ns, as the kernel compares them).
    pub fn overflows(&self, now: u64) -> bool {
        let left = i128::from(self.params.period_ns >> 10) * i128::from(self.runtime >> 10);
        let right = i128::from(self.deadline.saturating_sub(now) >> 10) * i128::from(self.params.runtime_ns >> 10);
        right < left
    }

    /// `update_dl_entity` at a wakeup (or the first enqueue): a new server,
    /// or a fresh deadline and runtime if the old deadline passed or keeping
    /// it would overflow the bandwidth.
    pub fn update_at_wakeup(&mut self, now: u64) {
        if self.new {
            self.setup_new(now);
        } else if self.deadline < now || self.overflows(now) {
            self.deadline = now + self.params.deadline_ns;
            self.runtime = self.params.runtime_ns as i64;
        }
    }

    /// `replenish_dl_entity`: a period's runtime at a time, each pushing the
    /// deadline a period on, until the runtime is positive; a deadline left
    /// behind now starts afresh. Unthrottles.
    pub fn replenish(&mut self, now: u64) {
        while self.runtime <= 0 {
            self.deadline += self.params.period_ns;
            self.runtime += self.params.runtime_ns as i64;
        }
        if self.deadline < now {
            self.deadline = now + self.params.deadline_ns;
            self.runtime = self.params.runtime_ns as i64;
        }
        self.throttled = false;
    }

    /// `update_curr_dl`'s charge: true once the runtime is spent
    /// (`dl_runtime_exceeded`). A deadline passed with runtime still owed
    /// counts as one miss.
    pub fn charge(&mut self, delta: u64, now: u64) -> bool {
        if now > self.deadline && self.runtime > 0 && self.last_missed != self.deadline {
            self.misses += 1;
            self.last_missed = self.deadline;
        }
        self.runtime -= delta as i64;
        self.runtime <= 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MS: u64 = 1_000_000;

    fn e(runtime: u64, deadline: u64, period: u64) -> DlEntity {
        DlEntity::new(DlParams {
            runtime_ns: runtime * MS,
            deadline_ns: deadline * MS,
            period_ns: period * MS,
            reclaim: false,
        })
    }

    #[test]
    fn a_new_server_gets_its_runtime_due_a_deadline_from_now() {
        let mut d = e(10, 30, 100);
        d.update_at_wakeup(5 * MS);
        assert_eq!((d.runtime, d.deadline), (10 * MS as i64, 35 * MS));
    }

    /// Waking with 8 ms left and 10 ms to the deadline: 8/10 > 10/100, so the
    /// old deadline would overflow the bandwidth and the server starts afresh;
    /// with 1 ms left and 20 ms to go (1/20 < 10/100) it keeps them.
    #[test]
    fn a_wakeup_keeps_the_deadline_only_within_the_bandwidth() {
        let mut d = e(10, 100, 100);
        d.update_at_wakeup(0);
        d.runtime = 8 * MS as i64;
        d.update_at_wakeup(90 * MS);
        assert_eq!((d.runtime, d.deadline), (10 * MS as i64, 190 * MS));
        d.runtime = MS as i64;
        d.update_at_wakeup(170 * MS);
        assert_eq!((d.runtime, d.deadline), (MS as i64, 190 * MS));
    }

    /// Overrun by 3 ms past a 10 ms runtime: one replenishment leaves 7 ms and
    /// the deadline a period on.
    #[test]
    fn replenishment_pays_the_overrun_from_the_next_period() {
        let mut d = e(10, 100, 100);
        d.update_at_wakeup(0);
        assert!(d.charge(13 * MS, 13 * MS));
        d.throttled = true;
        d.replenish(100 * MS);
        assert_eq!((d.runtime, d.deadline, d.throttled), (7 * MS as i64, 200 * MS, false));
    }

    #[test]
    fn a_deadline_passed_with_runtime_owed_is_one_miss() {
        let mut d = e(10, 20, 100);
        d.update_at_wakeup(0);
        d.charge(MS, 25 * MS);
        d.charge(MS, 26 * MS);
        assert_eq!(d.misses, 1);
    }
}

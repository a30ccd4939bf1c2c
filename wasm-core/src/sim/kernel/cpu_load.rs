//! `rq->cpu_load[]`, the per-tick decayed history of a CPU's load that
//! `source_load`/`target_load` read for load_idx 1..4 (4.1.15 `proc.c`).
//!
//! A busy CPU folds its load in at every tick. A CPU idling tickless
//! (CONFIG_NO_HZ_IDLE) takes no ticks, so its history stands still, stale,
//! until one of two catch-ups: when it leaves idle (`update_cpu_load_nohz`,
//! with load 0 for the missed ticks) or when the idle load balancer is about
//! to balance on its behalf (`update_idle_cpu_load`). A catch-up over n
//! jiffies decays the old history n-1 times at once (`decay_load_missed`),
//! on the kernel's 128-point approximation, then folds the load in once.
//!
//! ```text
//!   busy tick ───────────► fold(load, 1 jiffy)
//!   idle exit ───────────► fold(0, jiffies since the last fold)
//!   nohz balance for it ─► fold(0, …) when it has no load
//! ```

use crate::sim::runqueue::Rq;

/// Missed ticks after which index i's history counts as decayed to zero.
const ZERO_AFTER_TICKS: [u8; 5] = [0, 8, 32, 64, 128];

/// Index i's decay over 2^j missed ticks, in 128ths: ((2^i - 1) / 2^i)^(2^j),
/// rounded as 4.1.15 tabulates it (row 1 is never read: a shift does it).
const DECAY_128THS: [[u8; 8]; 5] = [
    [0, 0, 0, 0, 0, 0, 0, 0],
    [64, 32, 8, 0, 0, 0, 0, 0],
    [96, 72, 40, 12, 1, 0, 0, 0],
    [112, 98, 75, 43, 15, 1, 0, 0],
    [120, 112, 98, 76, 45, 16, 2, 0],
];

/// `decay_load_missed`: `load` of index `idx` after `missed` ticks of no load,
/// by the binary digits of `missed` (one table factor per set bit).
fn decay_missed(mut load: u64, mut missed: u64, idx: usize) -> u64 {
    if missed == 0 {
        return load;
    }
    if missed >= u64::from(ZERO_AFTER_TICKS[idx]) {
        return 0;
    }
    if idx == 1 {
        return load >> missed;
    }
    let mut bit = 0;
    while missed > 0 {
        if missed & 1 == 1 {
            load = (load * u64::from(DECAY_128THS[idx][bit])) >> 7;
        }
        missed >>= 1;
        bit += 1;
    }
    load
}

impl Rq {
    /// `__update_cpu_load`: `load` now, after `pending` jiffies since the
    /// last fold; each index i averages over about 2^i ticks, rounding up
    /// while the load rises.
    // One copy for its three callers: the wasm bundle is near its budget.
    #[inline(never)]
    fn fold_cpu_load(&mut self, load: u64, pending: u64) {
        // A history decayed to nothing that takes in nothing stays so (most
        // folds on a part-idle machine): every index would stay 0.
        if load == 0 && self.cpu_load == [0; 5] {
            return;
        }
        self.cpu_load[0] = load;
        for i in 1..5 {
            let scale = 1u64 << i;
            let old = decay_missed(self.cpu_load[i], pending - 1, i);
            let new = if load > old { load + scale - 1 } else { load };
            self.cpu_load[i] = (old * (scale - 1) + new) >> i;
        }
    }

    /// `update_cpu_load_active`, from a tick: this jiffy's load.
    pub fn update_cpu_load_active(&mut self, jiffies: u64) {
        self.last_load_update_tick = jiffies;
        self.fold_cpu_load(self.weighted_cpuload(), 1);
    }

    /// `update_cpu_load_nohz`, on leaving tickless idle: the ticks missed
    /// while idle, at load 0 (a task just woken here is not counted yet).
    pub fn update_cpu_load_nohz(&mut self, jiffies: u64) {
        let pending = jiffies - self.last_load_update_tick;
        if pending > 0 {
            self.last_load_update_tick = jiffies;
            self.fold_cpu_load(0, pending);
        }
    }

    /// `update_idle_cpu_load`, before the idle load balancer balances for
    /// this CPU: catch up unless it has load or is up to date.
    pub fn update_idle_cpu_load(&mut self, jiffies: u64) {
        let load = self.weighted_cpuload();
        if load != 0 || jiffies == self.last_load_update_tick {
            return;
        }
        let pending = jiffies - self.last_load_update_tick;
        self.last_load_update_tick = jiffies;
        self.fold_cpu_load(0, pending);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Index 1 halves per tick and index 2..4 follow the table: after 8 missed
    /// ticks index 2 keeps 12/128 (the exact 3^8/4^8 is about 13/128).
    #[test]
    fn missed_ticks_decay_by_the_table() {
        assert_eq!(decay_missed(1024, 3, 1), 128);
        assert_eq!(decay_missed(1024, 8, 2), 96);
        assert_eq!(decay_missed(1024, 1, 4), 960);
        assert_eq!(decay_missed(1024, 200, 4), 0);
        assert_eq!(decay_missed(1024, 0, 3), 1024);
    }

    proptest! {
        /// The table's decay stays close to decaying tick by tick: never
        /// above it, and within a few hundredths of the load below it.
        #[test]
        fn table_decay_tracks_tick_by_tick(load in 0u64..100_000, missed in 1u64..130, idx in 1usize..5) {
            let mut exact = load as f64;
            for _ in 0..missed {
                exact *= ((1u64 << idx) - 1) as f64 / (1u64 << idx) as f64;
            }
            let table = decay_missed(load, missed, idx) as f64;
            prop_assert!(table <= exact + 1.0, "table {table} exact {exact}");
            prop_assert!(exact - table <= 0.07 * load as f64 + 1.0, "table {table} exact {exact}");
        }
    }

    /// A CPU idle for 10 jiffies after a busy tick catches up in one fold on
    /// leaving idle; a second catch-up in the same jiffy changes nothing.
    #[test]
    fn nohz_exit_catches_up_once() {
        let mut rq = Rq::new(crate::time::CpuId(0));
        rq.cpu_load = [1024; 5];
        rq.last_load_update_tick = 5;
        rq.update_cpu_load_nohz(15);
        assert_eq!(rq.cpu_load[0], 0);
        assert_eq!(rq.cpu_load[1], 0, "index 1 halves 9 times, then folds in 0");
        let after = rq.cpu_load;
        assert!(after[4] > 0 && after[4] < 1024);
        rq.update_cpu_load_nohz(15);
        assert_eq!(rq.cpu_load, after);
        assert_eq!(rq.last_load_update_tick, 15);
    }
}

#[cfg(test)]
#[path = "cpu_load_test.rs"]
mod cpu_load_test;

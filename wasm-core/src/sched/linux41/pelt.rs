//! Per-entity load tracking as in Linux 4.1 (`__update_entity_runnable_avg`,
//! `__update_task_entity_contrib`, `decay_load`, `__compute_runnable_contrib`).
//!
//! Time is counted in units of 1024 ns (≈1 µs); a period is 1024 units
//! (≈1 ms); history decays by y per period with y^32 = 1/2. A task's load
//! contribution is runnable_avg_sum × weight / (avg_period + 1): about its
//! weight when always runnable, about half when runnable half the time.
//!
//! ```text
//!   |<- d1 ->|<------ full periods ------>|<- d3 ->|
//!   finish the old period, decay by y^(p+1), add the full periods' sum, add d3
//! ```
//!
//! The tables are the kernel's (computed with its recurrences, integers only),
//! so native and wasm builds agree bit for bit.

use crate::time::SimTime;

pub const LOAD_AVG_PERIOD: u64 = 32;
pub const LOAD_AVG_MAX: u64 = 47742;
pub const LOAD_AVG_MAX_N: u64 = 345;

/// floor((2^32 − 1) · y^n) for n in 0..32.
const RUNNABLE_AVG_YN_INV: [u64; 32] = [
    0xffffffff, 0xfa83b2da, 0xf5257d14, 0xefe4b99a, 0xeac0c6e6, 0xe5b906e6, 0xe0ccdeeb, 0xdbfbb796, 0xd744fcc9,
    0xd2a81d91, 0xce248c14, 0xc9b9bd85, 0xc5672a10, 0xc12c4cc9, 0xbd08a39e, 0xb8fbaf46, 0xb504f333, 0xb123f581,
    0xad583ee9, 0xa9a15ab4, 0xa5fed6a9, 0xa2704302, 0x9ef5325f, 0x9b8d39b9, 0x9837f050, 0x94f4efa8, 0x91c3d373,
    0x8ea4398a, 0x8b95c1e3, 0x88980e80, 0x85aac367, 0x82cd8698,
];

/// Σ 1024·y^k for k = 1..n, as the kernel's recurrence computes it.
const RUNNABLE_AVG_YN_SUM: [u64; 33] = [
    0, 1002, 1982, 2941, 3880, 4798, 5697, 6576, 7437, 8279, 9103, 9909, 10698, 11470, 12226, 12966, 13690, 14398,
    15091, 15769, 16433, 17082, 17718, 18340, 18949, 19545, 20128, 20698, 21256, 21802, 22336, 22859, 23371,
];

/// `decay_load`: val · y^n, as 4.1.15 computes it: n = 0 leaves val as it
/// is (the table's y^0 entry, 2^32 − 1, would take one off), past 63 half
/// lives it is 0, whole half lives are shifts and the rest one multiply.
pub fn decay_load(val: u64, n: u64) -> u64 {
    if n == 0 {
        return val;
    }
    if n > LOAD_AVG_PERIOD * 63 {
        return 0;
    }
    let mut val = val;
    let mut n = n;
    if n >= LOAD_AVG_PERIOD {
        val >>= n / LOAD_AVG_PERIOD;
        n %= LOAD_AVG_PERIOD;
    }
    // 4.1.15 multiplies in 64 bits, so a value from about 2^32 up (2^64 over the inverse) wraps before the
    // shift (later kernels' PELT uses mul_u64_u32_shr [RECALL]). No sum decayed here comes near it (10,000
    // blocked nice -20 tasks on one CPU would be 887M); the model wraps as the kernel does all the same. A 64-bit product is also one instruction in the
    // wasm build, where a 128-bit one is a call to `__multi3`.
    val.wrapping_mul(RUNNABLE_AVG_YN_INV[n as usize]) >> 32
}

/// `__compute_runnable_contrib`: Σ 1024·y^k for k = 1..n, as 4.1.15 does it:
/// the table up to n = 32 included, LOAD_AVG_MAX from LOAD_AVG_MAX_N on, and
/// between them whole half lives folded while more than 32 periods remain,
/// leaving 1 to 32 for the last decay and table read.
pub fn compute_runnable_contrib(n: u64) -> u64 {
    if n <= LOAD_AVG_PERIOD {
        return RUNNABLE_AVG_YN_SUM[n as usize];
    }
    if n >= LOAD_AVG_MAX_N {
        return LOAD_AVG_MAX;
    }
    let mut n = n;
    let mut contrib = 0;
    loop {
        contrib /= 2;
        contrib += RUNNABLE_AVG_YN_SUM[LOAD_AVG_PERIOD as usize];
        n -= LOAD_AVG_PERIOD;
        if n <= LOAD_AVG_PERIOD {
            break;
        }
    }
    decay_load(contrib, n) + RUNNABLE_AVG_YN_SUM[n as usize]
}

/// `struct sched_avg` (4.1).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SchedAvg {
    pub runnable_avg_sum: u64,
    pub running_avg_sum: u64,
    pub avg_period: u64,
    pub last_update: SimTime,
    pub load_avg_contrib: u64,
    pub utilization_avg_contrib: u64,
    /// `decay_count`: 0 while queued (or new); the runqueue's decay_counter
    /// when the entity went to sleep there; minus the periods already
    /// decayed once it was moved away asleep (`migrate_task_rq_fair`).
    pub decay_count: i64,
}

impl SchedAvg {
    /// A new task starts as if it had run for one slice, so its initial load
    /// contribution is about its weight and its utilisation about a full CPU
    /// (`init_task_runnable_average` sets the runnable and running sums).
    pub fn new_task(slice_ns: u64, weight: u64, now: SimTime) -> SchedAvg {
        let s = slice_ns >> 10;
        let mut sa =
            SchedAvg { runnable_avg_sum: s, running_avg_sum: s, avg_period: s, last_update: now, ..Default::default() };
        sa.update_contrib(weight);
        sa
    }

    /// `__update_entity_runnable_avg`: accrues the time since the last update
    /// as runnable and/or running. Returns true if a period boundary passed.
    pub fn accrue(&mut self, now: SimTime, runnable: bool, running: bool) -> bool {
        // The kernel drops the sub-1024 ns remainder by setting
        // last_update = now; we do the same.
        let mut delta = now.since(self.last_update) >> 10;
        if delta == 0 {
            return false;
        }
        self.last_update = now;
        let mut decayed = false;
        let mut delta_w = self.avg_period % 1024;
        if delta + delta_w >= 1024 {
            decayed = true;
            delta_w = 1024 - delta_w;
            self.add(delta_w, runnable, running);
            delta -= delta_w;
            let periods = delta / 1024;
            delta %= 1024;
            self.runnable_avg_sum = decay_load(self.runnable_avg_sum, periods + 1);
            self.running_avg_sum = decay_load(self.running_avg_sum, periods + 1);
            self.avg_period = decay_load(self.avg_period, periods + 1);
            let contrib = compute_runnable_contrib(periods);
            self.add(contrib, runnable, running);
        }
        self.add(delta, runnable, running);
        decayed
    }

    fn add(&mut self, units: u64, runnable: bool, running: bool) {
        if runnable {
            self.runnable_avg_sum += units;
        }
        if running {
            self.running_avg_sum += units;
        }
        self.avg_period += units;
    }

    /// `__update_task_entity_contrib` and utilisation; returns the change in
    /// load contribution.
    pub fn update_contrib(&mut self, weight: u64) -> i64 {
        let old = self.load_avg_contrib as i64;
        self.load_avg_contrib = self.runnable_avg_sum * weight / (self.avg_period + 1);
        self.utilization_avg_contrib = self.running_avg_sum * 1024 / (self.avg_period + 1);
        self.load_avg_contrib as i64 - old
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 4.1.15's 64-bit product: exact below 2^32, wrapped from there on.
    #[test]
    fn decay_load_wraps_as_the_64_bit_product() {
        let inv1 = RUNNABLE_AVG_YN_INV[1];
        assert_eq!(decay_load(47_742, 1), ((47_742u128 * inv1 as u128) >> 32) as u64);
        // 2^40 · inv[1] keeps only inv[1]'s low 24 bits below 2^64: 0x83b2da, shifted up 8 after the >> 32
        // (the exact product would give 0xfa83b2da00).
        assert_eq!(decay_load(1 << 40, 1), 0x83b2_da00);
    }

    /// The tables from their definitions, in integer arithmetic: y is the
    /// 32nd root of 1/2, `inv[n]` = ⌊(2^32 − 1) · y^n⌋, and `sum[n]` the
    /// recurrence ⌊(sum[n − 1] + 1024) · y⌋ (a floor at every step, so a sum
    /// never overestimates Σ 1024 · y^k: sum[3] is 2941, not ⌊2942.3⌋). y^n
    /// (y^0 = 1 exactly) is found by bisection on (y^n)^32 = 2^-n with 62-bit
    /// fractions; the floors are exact unless a true value falls within about
    /// 2^-50 of an integer.
    #[test]
    fn the_tables_are_their_definitions() {
        const ONE: u128 = 1 << 62;
        // x^32 for a fraction x scaled by 2^62.
        fn pow32(x: u128) -> u128 {
            (0..32).fold(ONE, |r, _| (r * x) >> 62)
        }
        let y_pow = |n: u32| -> u128 {
            if n == 0 {
                return ONE;
            }
            let (mut lo, mut hi) = (0u128, ONE);
            for _ in 0..64 {
                let mid = (lo + hi) / 2;
                if pow32(mid) <= ONE >> n {
                    lo = mid;
                } else {
                    hi = mid;
                }
            }
            lo
        };
        for n in 0..32u32 {
            assert_eq!(((u32::MAX as u128 * y_pow(n)) >> 62) as u64, RUNNABLE_AVG_YN_INV[n as usize], "inv[{n}]");
        }
        let (y, mut sum) = (y_pow(1), 0u128);
        for (n, &table) in RUNNABLE_AVG_YN_SUM.iter().enumerate().skip(1) {
            sum = ((sum + 1024) * y) >> 62;
            assert_eq!(sum as u64, table, "sum[{n}]");
        }
    }

    #[test]
    fn half_life_is_32_periods() {
        // The inverse table's first entry is 2^32 − 1, so the kernel's
        // arithmetic lands one below the exact half.
        assert_eq!(decay_load(1 << 20, 32), (1 << 19) - 1);
        assert_eq!(decay_load(1000, 0), 1000, "no period: no decay");
        assert_eq!(decay_load(u32::MAX as u64, 32 * 64), 0);
    }

    #[test]
    fn contrib_series_reaches_load_avg_max() {
        assert_eq!(compute_runnable_contrib(31), 22859);
        assert_eq!(compute_runnable_contrib(32), 23371, "the table's last entry");
        // 64: one fold (23371), 32 left: decay_load(23371, 32) = 11685 × (2^32 − 1) >> 32 = 11684, + 23371.
        assert_eq!(compute_runnable_contrib(64), 11684 + 23371);
        // 33: one fold, 1 left: 23371 × 0xfa83b2da >> 32 = 22870, + 1002.
        assert_eq!(compute_runnable_contrib(33), 22870 + 1002);
        assert_eq!(compute_runnable_contrib(LOAD_AVG_MAX_N), LOAD_AVG_MAX);
        assert_eq!(compute_runnable_contrib(10_000), LOAD_AVG_MAX);
        assert!(compute_runnable_contrib(344) <= LOAD_AVG_MAX);
    }

    #[test]
    fn always_runnable_converges_to_weight_and_sleeping_decays() {
        let mut sa = SchedAvg::new_task(6_000_000, 1024, SimTime(0));
        let mut t = 0;
        for _ in 0..1000 {
            t += 1_000_000;
            sa.accrue(SimTime(t), true, true);
            sa.update_contrib(1024);
        }
        assert!((950..=1024).contains(&sa.load_avg_contrib), "{}", sa.load_avg_contrib);
        // 32 ms of sleep halves the runnable sum; the contrib falls accordingly.
        let before = sa.load_avg_contrib;
        sa.accrue(SimTime(t + 32 * 1_048_576), false, false);
        sa.update_contrib(1024);
        assert!(sa.load_avg_contrib < before * 6 / 10, "{} -> {}", before, sa.load_avg_contrib);
    }

    #[test]
    fn half_runnable_gives_about_half_the_weight() {
        let mut sa = SchedAvg::new_task(6_000_000, 1024, SimTime(0));
        let mut t = 0;
        for i in 0..4000 {
            t += 500_000;
            sa.accrue(SimTime(t), i % 2 == 0, i % 2 == 0);
        }
        sa.update_contrib(1024);
        assert!((450..=570).contains(&sa.load_avg_contrib), "{}", sa.load_avg_contrib);
    }
}

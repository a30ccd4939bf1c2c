//! The single seeded pseudo-random generator of a run.
//!
//! Every random choice in the engine draws from one `Rng` passed explicitly, so
//! a run is a pure function of (scenario, seed). The generator is xoshiro256**
//! seeded through SplitMix64; it is small, fast and gives the same sequence on
//! every target (no platform entropy, no floating point in the core paths).

#[derive(Clone, Debug)]
pub struct Rng {
    s: [u64; 4],
}

fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl Rng {
    pub fn new(seed: u64) -> Rng {
        let mut st = seed;
        let s = [splitmix64(&mut st), splitmix64(&mut st), splitmix64(&mut st), splitmix64(&mut st)];
        Rng { s }
    }

    pub fn next_u64(&mut self) -> u64 {
        let result = self.s[1].wrapping_mul(5).rotate_left(7).wrapping_mul(9);
        let t = self.s[1] << 17;
        self.s[2] ^= self.s[0];
        self.s[3] ^= self.s[1];
        self.s[1] ^= self.s[2];
        self.s[0] ^= self.s[3];
        self.s[2] ^= t;
        self.s[3] = self.s[3].rotate_left(45);
        result
    }

    /// Uniform integer in [lo, hi] (inclusive), without modulo bias worth
    /// caring about at simulator ranges (Lemire's multiply-shift).
    pub fn uniform(&mut self, lo: u64, hi: u64) -> u64 {
        if hi <= lo {
            return lo;
        }
        let span = hi - lo + 1;
        if span == 0 {
            return self.next_u64();
        }
        lo + ((self.next_u64() as u128 * span as u128) >> 64) as u64
    }

    /// Exponentially distributed integer with the given mean, using integer
    /// math only for the uniform draw; the logarithm is computed in f64, which
    /// is deterministic across targets for IEEE-754 `ln` of the same input.
    pub fn exponential(&mut self, mean: u64) -> u64 {
        // 53 random bits in (0, 1].
        let u = ((self.next_u64() >> 11) + 1) as f64 / (1u64 << 53) as f64;
        let v = -(u.ln()) * mean as f64;
        if v.is_finite() && v < 1e18 {
            v as u64
        } else {
            mean.saturating_mul(40)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_sequence() {
        let mut a = Rng::new(42);
        let mut b = Rng::new(42);
        for _ in 0..1000 {
            assert_eq!(a.next_u64(), b.next_u64());
        }
    }

    #[test]
    fn uniform_is_roughly_flat() {
        // Chi-square over 10 buckets; the 99.9% critical value for 9 dof is 27.9.
        let mut r = Rng::new(7);
        let mut buckets = [0u64; 10];
        let n = 100_000;
        for _ in 0..n {
            buckets[r.uniform(0, 9) as usize] += 1;
        }
        let expected = n as f64 / 10.0;
        let chi2: f64 = buckets.iter().map(|&c| (c as f64 - expected).powi(2) / expected).sum();
        assert!(chi2 < 27.9, "chi2 = {chi2}, buckets = {buckets:?}");
    }

    #[test]
    fn exponential_mean_is_close() {
        let mut r = Rng::new(3);
        let n = 200_000u64;
        let sum: u64 = (0..n).map(|_| r.exponential(1000)).sum();
        let mean = sum as f64 / n as f64;
        assert!((mean - 1000.0).abs() < 15.0, "mean {mean}");
    }
}

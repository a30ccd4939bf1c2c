//! The wakeup latencies of one process, in bounded memory.
//!
//! Up to `EXACT_CAP` samples are kept as they are, so short runs, small
//! processes and tests see exact nearest-rank percentiles. Past that the
//! samples move into an HdrHistogram with two significant digits (values
//! within 1 %), so a 10,000-thread run of a minute neither grows without
//! bound nor sorts millions of samples for every report. Count, sum, min and
//! max stay exact either way.

use hdrhistogram::Histogram;

/// Samples kept exactly before the histogram takes over.
pub const EXACT_CAP: usize = 4096;
const SIGNIFICANT_DIGITS: u8 = 2;

/// Records into an auto-resizing histogram: it grows to hold any value (a
/// clamped record would hide the outliers these figures are about).
fn put(h: &mut Histogram<u32>, ns: u64) {
    if h.record(ns).is_err() {
        // Only if growing failed (values near u64::MAX): clamp rather than lose the count.
        h.saturating_record(ns);
    }
}

#[derive(Clone, Debug, Default)]
pub struct LatencyRecord {
    exact: Vec<u64>,
    hist: Option<Box<Histogram<u32>>>,
    count: u64,
    sum: u128,
    min: u64,
    max: u64,
}

impl LatencyRecord {
    pub fn record(&mut self, ns: u64) {
        self.min = if self.count == 0 { ns } else { self.min.min(ns) };
        self.max = self.max.max(ns);
        self.count += 1;
        self.sum += ns as u128;
        match &mut self.hist {
            Some(h) => put(h, ns),
            None if self.exact.len() < EXACT_CAP => self.exact.push(ns),
            None => {
                let mut h = Histogram::<u32>::new(SIGNIFICANT_DIGITS).expect("2 significant digits are valid");
                for &v in &self.exact {
                    put(&mut h, v);
                }
                put(&mut h, ns);
                self.exact = Vec::new();
                self.hist = Some(Box::new(h));
            }
        }
    }

    /// Adds another record's samples (a group of processes).
    pub fn merge(&mut self, other: &LatencyRecord) {
        if other.count == 0 {
            return;
        }
        match &other.hist {
            None => other.exact.iter().for_each(|&v| self.record(v)),
            Some(oh) => {
                if self.hist.is_none() {
                    let mut h = Histogram::<u32>::new(SIGNIFICANT_DIGITS).expect("valid");
                    for &v in &self.exact {
                        put(&mut h, v);
                    }
                    self.exact = Vec::new();
                    self.hist = Some(Box::new(h));
                }
                let h = self.hist.as_mut().expect("just made");
                // Auto-resizing histograms of equal precision always add.
                h.add(oh.as_ref()).expect("histograms of equal precision add");
                self.min = if self.count == 0 { other.min } else { self.min.min(other.min) };
                self.max = self.max.max(other.max);
                self.count += other.count;
                self.sum += other.sum;
            }
        }
    }

    pub fn len(&self) -> u64 {
        self.count
    }

    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    pub fn max(&self) -> u64 {
        self.max
    }

    pub fn min(&self) -> u64 {
        self.min
    }

    pub fn mean(&self) -> f64 {
        if self.count == 0 {
            0.0
        } else {
            self.sum as f64 / self.count as f64
        }
    }

    /// Heap memory held (the benchmark's trace-memory figure counts it).
    pub fn heap_bytes(&self) -> usize {
        self.exact.capacity() * 8 + self.hist.as_ref().map_or(0, |h| h.distinct_values() * 4)
    }

    /// True while every sample is kept exactly.
    pub fn is_exact(&self) -> bool {
        self.hist.is_none()
    }

    /// `quantiles(&[p...])`: nearest-rank percentiles (0-100) of the samples;
    /// 0 and 100 give the exact min and max. Empty: all 0.
    pub fn percentiles(&self, ps: &[f64]) -> Vec<u64> {
        if self.count == 0 {
            return vec![0; ps.len()];
        }
        let mut sorted = Vec::new();
        if self.hist.is_none() {
            sorted = self.exact.clone();
            sorted.sort_unstable();
        }
        ps.iter()
            .map(|&p| {
                if p <= 0.0 {
                    return self.min;
                }
                if p >= 100.0 {
                    return self.max;
                }
                match &self.hist {
                    None => {
                        let rank = ((p / 100.0) * sorted.len() as f64).ceil() as usize;
                        sorted[rank.clamp(1, sorted.len()) - 1]
                    }
                    Some(h) => h.value_at_percentile(p).clamp(self.min, self.max),
                }
            })
            .collect()
    }

    /// `points + 1` evenly spaced percentiles from min to max (the CDF
    /// chart), nearest-rank as every other figure.
    pub fn cdf(&self, points: usize) -> Vec<u64> {
        if self.count == 0 {
            return Vec::new();
        }
        let points = points.max(1);
        let ps: Vec<f64> = (0..=points).map(|i| 100.0 * i as f64 / points as f64).collect();
        self.percentiles(&ps)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_then_within_one_percent_with_exact_extremes() {
        let mut r = LatencyRecord::default();
        let values: Vec<u64> = (1..=20_000u64).map(|i| (i * 7919) % 100_000 + 1_000).collect();
        for (i, &v) in values.iter().enumerate() {
            r.record(v);
            if i + 1 == EXACT_CAP {
                assert!(r.is_exact());
            }
        }
        assert!(!r.is_exact());
        let mut sorted = values.clone();
        sorted.sort_unstable();
        assert_eq!(r.len(), 20_000);
        assert_eq!(r.max(), *sorted.last().unwrap());
        assert_eq!(r.min(), sorted[0]);
        for p in [50.0, 90.0, 99.0, 99.9] {
            let exact = sorted[((p / 100.0) * sorted.len() as f64).ceil() as usize - 1] as f64;
            let got = r.percentiles(&[p])[0] as f64;
            assert!((got - exact).abs() / exact < 0.01, "p{p}: {got} vs {exact}");
        }
        let mean = values.iter().sum::<u64>() as f64 / values.len() as f64;
        assert!((r.mean() - mean).abs() < 1e-6);
    }

    #[test]
    fn merging_equals_recording_everything_in_one() {
        let (mut a, mut b, mut all) = (LatencyRecord::default(), LatencyRecord::default(), LatencyRecord::default());
        for i in 0..10_000u64 {
            let v = (i * 104_729) % 50_000;
            if i % 3 == 0 {
                a.record(v)
            } else {
                b.record(v)
            }
            all.record(v);
        }
        a.merge(&b);
        assert_eq!((a.len(), a.min(), a.max()), (all.len(), all.min(), all.max()));
        assert_eq!(a.percentiles(&[50.0, 99.0]), all.percentiles(&[50.0, 99.0]));
        let mut small = LatencyRecord::default();
        small.record(5);
        small.merge(&LatencyRecord::default());
        assert_eq!(small.percentiles(&[50.0]), vec![5]);
    }
}

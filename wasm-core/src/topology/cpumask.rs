//! `CpuMask`: a set of CPUs as a bitmap (`struct cpumask`). Iteration is in
//! increasing CPU order, which the domain builder and the balancer rely on
//! (the kernel's for_each_cpu order).

use crate::time::CpuId;

#[derive(Debug, Default, PartialEq, Eq, Hash)]
pub struct CpuMask {
    words: Vec<u64>,
}

// By hand, not derived: a derived `clone_from` is `*self = source.clone()`,
// a fresh allocation each time, and the hot paths (placement records, the
// balancer's candidate masks) reuse their masks through `clone_from`.
impl Clone for CpuMask {
    fn clone(&self) -> CpuMask {
        CpuMask { words: self.words.clone() }
    }

    fn clone_from(&mut self, source: &CpuMask) {
        self.words.clone_from(&source.words);
    }
}

impl CpuMask {
    pub fn new() -> CpuMask {
        CpuMask::default()
    }

    /// The CPUs numbered `r.start` to `r.end - 1`: the mask `set` would
    /// build one CPU at a time (as many words as the last CPU needs), filled
    /// a word at a time: every task of a scenario without affinity gets one.
    pub fn from_range(r: std::ops::Range<u32>) -> CpuMask {
        if r.is_empty() {
            return CpuMask::new();
        }
        let words = (0..=(r.end - 1) / 64)
            .map(|w| {
                // The range's bits within word w: [lo, hi) of 0..64.
                let (base, lo, hi) = (w * 64, r.start.max(w * 64), r.end.min(w * 64 + 64));
                if lo >= hi {
                    return 0;
                }
                let upto = |n: u32| if n - base == 64 { u64::MAX } else { (1u64 << (n - base)) - 1 };
                upto(hi) & !upto(lo)
            })
            .collect();
        CpuMask { words }
    }

    pub fn from_cpus(cpus: impl IntoIterator<Item = CpuId>) -> CpuMask {
        let mut m = CpuMask::new();
        for c in cpus {
            m.set(c);
        }
        m
    }

    pub fn set(&mut self, cpu: CpuId) {
        let w = cpu.idx() / 64;
        if self.words.len() <= w {
            self.words.resize(w + 1, 0);
        }
        self.words[w] |= 1 << (cpu.0 % 64);
    }

    pub fn clear(&mut self, cpu: CpuId) {
        if let Some(w) = self.words.get_mut(cpu.idx() / 64) {
            *w &= !(1 << (cpu.0 % 64));
        }
    }

    pub fn test(&self, cpu: CpuId) -> bool {
        self.words.get(cpu.idx() / 64).is_some_and(|w| w & (1 << (cpu.0 % 64)) != 0)
    }

    pub fn weight(&self) -> u32 {
        self.words.iter().map(|w| w.count_ones()).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.words.iter().all(|&w| w == 0)
    }

    pub fn first(&self) -> Option<CpuId> {
        self.iter().next()
    }

    pub fn iter(&self) -> impl Iterator<Item = CpuId> + '_ {
        self.words.iter().enumerate().flat_map(|(i, &w)| {
            let mut bits = w;
            std::iter::from_fn(move || {
                if bits == 0 {
                    return None;
                }
                let b = bits.trailing_zeros();
                bits &= bits - 1;
                Some(CpuId(i as u32 * 64 + b))
            })
        })
    }

    /// The CPUs in both sets, in increasing order, without building the set.
    pub fn iter_and<'a>(&'a self, other: &'a CpuMask) -> impl Iterator<Item = CpuId> + 'a {
        self.words.iter().zip(&other.words).enumerate().filter(|(_, (a, b))| *a & *b != 0).flat_map(|(i, (a, b))| {
            let mut bits = a & b;
            std::iter::from_fn(move || {
                if bits == 0 {
                    return None;
                }
                let bit = bits.trailing_zeros();
                bits &= bits - 1;
                Some(CpuId(i as u32 * 64 + bit))
            })
        })
    }

    pub fn and(&self, other: &CpuMask) -> CpuMask {
        let words = self.words.iter().zip(&other.words).map(|(a, b)| a & b).collect();
        CpuMask { words }.trimmed()
    }

    pub fn or(&self, other: &CpuMask) -> CpuMask {
        let n = self.words.len().max(other.words.len());
        let get = |v: &Vec<u64>, i: usize| v.get(i).copied().unwrap_or(0);
        CpuMask { words: (0..n).map(|i| get(&self.words, i) | get(&other.words, i)).collect() }.trimmed()
    }

    /// `self |= other`, in place.
    pub fn or_with(&mut self, other: &CpuMask) {
        if self.words.len() < other.words.len() {
            self.words.resize(other.words.len(), 0);
        }
        for (a, b) in self.words.iter_mut().zip(&other.words) {
            *a |= b;
        }
    }

    /// `self |= a & b`, in place.
    pub fn or_and(&mut self, a: &CpuMask, b: &CpuMask) {
        let n = a.words.len().min(b.words.len());
        if self.words.len() < n {
            self.words.resize(n, 0);
        }
        for i in 0..n {
            self.words[i] |= a.words[i] & b.words[i];
        }
    }

    /// `self &= other`, in place.
    pub fn and_with(&mut self, other: &CpuMask) {
        for (i, a) in self.words.iter_mut().enumerate() {
            *a &= other.words.get(i).copied().unwrap_or(0);
        }
    }

    /// The lowest CPU of the set at or above `from`.
    pub fn next_from(&self, from: CpuId) -> Option<CpuId> {
        let mut w = from.idx() / 64;
        let mut bits = self.words.get(w)? & (u64::MAX << (from.0 % 64));
        loop {
            if bits != 0 {
                return Some(CpuId(w as u32 * 64 + bits.trailing_zeros()));
            }
            w += 1;
            bits = *self.words.get(w)?;
        }
    }

    /// The 64-bit words (CPU i is bit i % 64 of word i / 64); trailing
    /// words may be missing or zero.
    pub fn words(&self) -> &[u64] {
        &self.words
    }

    pub fn and_not(&self, other: &CpuMask) -> CpuMask {
        let words = self.words.iter().enumerate().map(|(i, a)| a & !other.words.get(i).copied().unwrap_or(0)).collect();
        CpuMask { words }.trimmed()
    }

    pub fn intersects(&self, other: &CpuMask) -> bool {
        self.words.iter().zip(&other.words).any(|(a, b)| a & b != 0)
    }

    pub fn is_subset_of(&self, other: &CpuMask) -> bool {
        self.words.iter().enumerate().all(|(i, &a)| a & !other.words.get(i).copied().unwrap_or(0) == 0)
    }

    /// Drops trailing zero words in place (equal sets then compare equal).
    pub fn trim(&mut self) {
        while self.words.last() == Some(&0) {
            self.words.pop();
        }
    }

    /// Trailing zero words removed, so equal sets compare equal.
    fn trimmed(mut self) -> CpuMask {
        while self.words.last() == Some(&0) {
            self.words.pop();
        }
        self
    }

    /// Kernel-style list, e.g. "0-3,8,10-11".
    pub fn to_list(&self) -> String {
        let cpus: Vec<CpuId> = self.iter().collect();
        let mut parts = Vec::new();
        let mut i = 0;
        while i < cpus.len() {
            let mut j = i;
            while j + 1 < cpus.len() && cpus[j + 1].0 == cpus[j].0 + 1 {
                j += 1;
            }
            parts.push(if i == j { format!("{}", cpus[i]) } else { format!("{}-{}", cpus[i], cpus[j]) });
            i = j + 1;
        }
        parts.join(",")
    }

    /// Parses a taskset-style list ("0-3,8") of CPUs below `limit` (the number of CPUs); None if malformed.
    pub fn parse_list(s: &str, limit: u32) -> Option<CpuMask> {
        let mut m = CpuMask::new();
        for part in s.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let (lo, hi) = match part.split_once('-') {
                Some((a, b)) => (a.trim().parse().ok()?, b.trim().parse().ok()?),
                None => {
                    let v: u32 = part.parse().ok()?;
                    (v, v)
                }
            };
            if lo > hi || hi >= limit {
                return None;
            }
            for c in lo..=hi {
                m.set(CpuId(c));
            }
        }
        Some(m)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `from_range` fills whole words: the same mask (words and length) as
    /// setting each CPU, for ranges starting and ending on and off word edges.
    #[test]
    fn from_range_is_set_one_by_one() {
        for start in [0, 1, 5, 63, 64, 65, 127, 128, 200] {
            for end in [0, 1, 2, 63, 64, 65, 100, 128, 129, 256, 1024] {
                let mut slow = CpuMask::new();
                for c in start..end {
                    slow.set(CpuId(c));
                }
                assert_eq!(CpuMask::from_range(start..end), slow, "{start}..{end}");
            }
        }
    }

    #[test]
    fn list_round_trip() {
        let m = CpuMask::parse_list("0-3,8,10-11,70", 128).unwrap();
        assert_eq!(m.to_list(), "0-3,8,10-11,70");
        assert_eq!(m.weight(), 8);
        assert!(CpuMask::parse_list("3-1", 8).is_none());
        assert!(CpuMask::parse_list("9", 8).is_none());
    }

    #[test]
    fn set_operations() {
        let a = CpuMask::from_range(0..10);
        let b = CpuMask::from_range(5..70);
        assert_eq!(a.and(&b), CpuMask::from_range(5..10));
        assert_eq!(a.or(&b), CpuMask::from_range(0..70));
        assert_eq!(b.and_not(&a), CpuMask::from_range(10..70));
        assert!(CpuMask::from_range(6..8).is_subset_of(&a));
    }
}

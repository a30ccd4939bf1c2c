//! A duration as a scenario writes it (a number of µs, `{"uniform": [lo, hi]}`
//! or `{"exp": mean}`), checked and turned into the engine's `Dist` (ns).
//! Shared by the program steps and the flag steps' spins.

use crate::api::scenario::diagnostic::Checker;
use crate::api::scenario::file::MAX_DURATION_MS;
use crate::api::scenario::steps::DistFile;
use crate::program::Dist;
use crate::time::NSEC_PER_USEC;

const MAX_US: u64 = MAX_DURATION_MS * 1_000;

/// A duration as the engine draws it, checked: at most the longest run, in µs.
pub(super) fn dist_of(d: &DistFile, field: &str, c: &mut Checker) -> Dist {
    let ns = |us: u64| us.saturating_mul(NSEC_PER_USEC);
    match *d {
        DistFile::Fixed(us) => {
            c.range(field, us, 0, MAX_US);
            Dist::Fixed(ns(us))
        }
        DistFile::Uniform { uniform: [lo, hi] } => {
            if lo > hi || hi > MAX_US {
                c.fail(field, format!("uniform bounds must satisfy 0 <= lo <= hi <= {MAX_US}"));
            }
            Dist::Uniform(ns(lo), ns(hi))
        }
        DistFile::Exponential { exp } => {
            c.range(field, exp, 1, MAX_US);
            Dist::Exponential { mean: ns(exp) }
        }
    }
}

//! Thread-weight policies that change only the load weight CFS gives each
//! thread (kernel-model.md section 6):
//!
//! * **DW-CFS** (Zhu, Shen, Liu 2014, seed 001): W' = W · α(Nt, No), with Nt
//!   the threads of the process and No the online CPUs. α rewards a process
//!   for using up to No threads (peak β at Nt = No) and penalises "greedy"
//!   processes beyond. The paper's α is lost: the three closed forms below are
//!   the reconstructions of kernel-model.md 6 (A is the default), not the
//!   paper's formula — hence selectable, with β settable.
//! * **PFS** (Wong et al. 2008) [RECALL, unverified]: W' = W / Nt, so every
//!   process weighs as one thread at its nice level, whatever its thread count.
//!
//! Everything else — vruntime, picking, balancing — is plain CFS.

use super::det_math::{exp, ln, pow};

/// Which reconstruction of DW-CFS's α(Nt, No).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AlphaFormula {
    /// Two-sided power law in log space: β^min(1, ln Nt/ln No) · (2 − β)^max(0, log2(Nt/No)).
    A,
    /// Generalised-gamma bump in x = Nt/No, m fitted so that α(8; 4) = 0.99.
    B,
    /// Asymmetric log-Gaussian exponent: β^φ.
    C,
}

impl AlphaFormula {
    pub fn name(self) -> &'static str {
        match self {
            AlphaFormula::A => "A",
            AlphaFormula::B => "B",
            AlphaFormula::C => "C",
        }
    }
}

/// Formula B's shape exponent, fitted in kernel-model.md 6 (α(8; 4) = 0.99 at β = 1.1).
const B_M: f64 = 2.39845;

/// α(Nt, No) for a β given in thousandths (1100 = 1.1). Nt, No ≥ 1.
///
/// With one online CPU there is no "up to No" side: the left branches of A
/// and C divide by ln 1 = 0 and B's k is undefined. There we use A's right
/// branch, (2 − β)^log2(Nt), so a single thread keeps its weight (our reading).
pub fn alpha(formula: AlphaFormula, beta_milli: u32, nt: u32, no: u32) -> f64 {
    let beta = beta_milli as f64 / 1000.0;
    let (nt, no) = (nt.max(1) as f64, no.max(1) as f64);
    let log2 = |x: f64| ln(x) / ln(2.0);
    if no <= 1.0 {
        return pow(2.0 - beta, log2(nt));
    }
    match formula {
        AlphaFormula::A => {
            let up = (ln(nt) / ln(no)).min(1.0);
            let down = log2(nt / no).max(0.0);
            pow(beta, up) * pow(2.0 - beta, down)
        }
        AlphaFormula::B => {
            let k = ln(beta) / (ln(no) - (1.0 - pow(no, -B_M)) / B_M);
            let x = nt / no;
            beta * pow(x, k) * exp((k / B_M) * (1.0 - pow(x, B_M)))
        }
        AlphaFormula::C => {
            let r = ln(nt / no);
            let phi = if nt <= no {
                let q = r / ln(no);
                1.0 - q * q
            } else {
                // c_R makes α(2·No) = β(2 − β) for every No.
                let c_r = (1.0 - ln(beta * (2.0 - beta)) / ln(beta)) / (ln(2.0) * ln(2.0));
                1.0 - c_r * r * r
            };
            pow(beta, phi)
        }
    }
}

/// DW-CFS: the thread's weight, W · α rounded, at least 2 (the kernel's
/// smallest weight is 15 at nice 19; 2 keeps inv_weight finite).
pub fn dwcfs_weight(nice_weight: u64, formula: AlphaFormula, beta_milli: u32, nt: u32, no: u32) -> u64 {
    let w = nice_weight as f64 * alpha(formula, beta_milli, nt, no);
    ((w + 0.5) as u64).max(2)
}

/// PFS: the process's weight split evenly over its threads.
pub fn pfs_weight(nice_weight: u64, nt: u32) -> u64 {
    (nice_weight / nt.max(1) as u64).max(2)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 0.0015
    }

    /// The No = 4 table of kernel-model.md 6 for formula A.
    #[test]
    fn formula_a_matches_the_reference_table() {
        let nts = [1, 2, 3, 4, 5, 6, 8, 12, 16, 32, 64];
        let want = [1.000, 1.049, 1.079, 1.100, 1.063, 1.034, 0.990, 0.931, 0.891, 0.802, 0.722];
        for (nt, w) in nts.iter().zip(want) {
            let a = alpha(AlphaFormula::A, 1100, *nt, 4);
            assert!(close(a, w), "A({nt}; 4) = {a}, reference {w}");
        }
    }

    /// Each candidate meets the constraints: α(1) = 1, α(No) = β, α(8; 4) = 0.99,
    /// rising up to No and falling after.
    #[test]
    fn every_candidate_peaks_at_the_cpu_count() {
        for f in [AlphaFormula::A, AlphaFormula::B, AlphaFormula::C] {
            assert!(close(alpha(f, 1100, 1, 4), 1.0), "{f:?}");
            assert!(close(alpha(f, 1100, 4, 4), 1.1), "{f:?}");
            assert!(close(alpha(f, 1100, 8, 4), 0.99), "{f:?} {}", alpha(f, 1100, 8, 4));
            for no in [2, 4, 8] {
                for nt in 1..64 {
                    let (a, b) = (alpha(f, 1100, nt, no), alpha(f, 1100, nt + 1, no));
                    if nt < no {
                        assert!(b > a, "{f:?} rises below No={no}: α({nt})={a} α({})={b}", nt + 1);
                    } else {
                        assert!(b < a, "{f:?} falls above No={no}: α({nt})={a} α({})={b}", nt + 1);
                    }
                }
            }
        }
        // Tails quoted in the reference: B falls fast, C in between.
        assert!(close(alpha(AlphaFormula::B, 1100, 16, 4), 0.426));
        assert!(close(alpha(AlphaFormula::C, 1100, 16, 4), 0.722));
    }

    #[test]
    fn pfs_splits_the_process_weight() {
        assert_eq!(pfs_weight(1024, 1), 1024);
        assert_eq!(pfs_weight(1024, 8), 128);
        assert_eq!(dwcfs_weight(1024, AlphaFormula::A, 1100, 4, 4), 1126);
    }
}

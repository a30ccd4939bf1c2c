//! `ln`, `exp` and `pow` built only from IEEE-754 +, −, ×, ÷, which are
//! correctly rounded on every target. The standard library's versions call
//! the platform's libm natively and a different implementation in
//! WebAssembly; their last bits may differ, and a thread weight rounded from
//! them could then differ between the CLI and the browser. These keep a run a
//! pure function of its scenario on both.

const LN2: f64 = std::f64::consts::LN_2;

/// Natural logarithm of x > 0 (NaN otherwise).
pub fn ln(x: f64) -> f64 {
    if x.is_nan() || x <= 0.0 {
        return f64::NAN;
    }
    // x = m · 2^k with m in [1/√2, √2): ln x = k·ln 2 + ln m.
    let mut m = x;
    let mut k = 0i32;
    while m > std::f64::consts::SQRT_2 {
        m /= 2.0;
        k += 1;
    }
    while m < std::f64::consts::FRAC_1_SQRT_2 {
        m *= 2.0;
        k -= 1;
    }
    // ln m = 2·atanh(s), s = (m − 1)/(m + 1), |s| < 0.172: the odd series
    // converges by s² ≈ 0.03 per term.
    let s = (m - 1.0) / (m + 1.0);
    let s2 = s * s;
    let mut term = s;
    let mut sum = 0.0;
    let mut n = 1.0;
    while n < 60.0 {
        sum += term / n;
        term *= s2;
        n += 2.0;
    }
    k as f64 * LN2 + 2.0 * sum
}

/// e^x (0 for very negative x, +∞ for very positive x).
pub fn exp(x: f64) -> f64 {
    if x.is_nan() {
        return f64::NAN;
    }
    if x < -745.0 {
        return 0.0;
    }
    if x > 709.0 {
        return f64::INFINITY;
    }
    // x = k·ln 2 + r with |r| ≤ ln 2 / 2: e^x = 2^k · e^r, e^r by Taylor.
    let k = (x / LN2 + if x >= 0.0 { 0.5 } else { -0.5 }) as i32;
    let r = x - k as f64 * LN2;
    let mut term = 1.0;
    let mut sum = 1.0;
    for i in 1..30 {
        term *= r / i as f64;
        sum += term;
    }
    let mut out = sum;
    if k >= 0 {
        for _ in 0..k {
            out *= 2.0;
        }
    } else {
        for _ in 0..-k {
            out /= 2.0;
        }
    }
    out
}

/// base^e for base > 0.
pub fn pow(base: f64, e: f64) -> f64 {
    exp(e * ln(base))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn agrees_with_the_platform_to_a_few_ulps() {
        for &x in &[1e-6, 0.01, 0.5, 0.99, 1.0, 1.1, 2.0, 3.0, 4.0, 10.0, 1000.0, 1e9] {
            assert!((ln(x) - x.ln()).abs() <= 1e-14 * x.ln().abs().max(1.0), "ln {x}: {} vs {}", ln(x), x.ln());
        }
        for &x in &[-50.0, -3.0, -0.5, 0.0, 0.09, 1.0, 2.5, 40.0] {
            assert!((exp(x) - x.exp()).abs() <= 1e-14 * x.exp(), "exp {x}: {} vs {}", exp(x), x.exp());
        }
        assert!((pow(1.1, 0.5) - 1.1f64.powf(0.5)).abs() < 1e-14);
    }
}

//! The special functions the comparison's tests need, in `f64`: the log-gamma function, the
//! regularized incomplete gamma and beta functions, and from them the normal and Student's t
//! distributions (CDF, survival function, quantile). Accurate to about 1e-13 relative over the
//! ranges the tests use (checked against scipy in `stats::tests`); no tables, no dependencies.

use std::f64::consts::PI;

/// Relative size of the last term the series and continued fractions keep.
const EPSILON: f64 = 1e-16;
/// Iterations after which a series or continued fraction stops, converged or not.
const MAX_ITERATIONS: usize = 100_000;

/// ln Γ(x) for x > 0 (Lanczos, g = 7, n = 9).
pub fn ln_gamma(x: f64) -> f64 {
    const COEFFICIENTS: [f64; 9] = [
        0.999_999_999_999_809_9,
        676.520_368_121_885_1,
        -1_259.139_216_722_402_8,
        771.323_428_777_653_1,
        -176.615_029_162_140_6,
        12.507_343_278_686_905,
        -0.138_571_095_265_720_12,
        9.984_369_578_019_572e-6,
        1.505_632_735_149_311_6e-7,
    ];
    if x < 0.5 {
        return (PI / (PI * x).sin()).ln() - ln_gamma(1.0 - x);
    }
    let x = x - 1.0;
    let mut sum = COEFFICIENTS[0];
    for (k, coefficient) in COEFFICIENTS.iter().enumerate().skip(1) {
        sum += coefficient / (x + k as f64);
    }
    let t = x + 7.5;
    0.5 * (2.0 * PI).ln() + (x + 0.5) * t.ln() - t + sum.ln()
}

/// ln B(a, b). When one argument is large, ln Γ(large) − ln Γ(large + small) is taken from
/// Stirling's series written without the cancellation of the two logarithms (t quantiles with
/// 10⁵ degrees of freedom need it).
fn ln_beta(a: f64, b: f64) -> f64 {
    let (small, large) = if a < b { (a, b) } else { (b, a) };
    if large < 20.0 {
        return ln_gamma(a) + ln_gamma(b) - ln_gamma(a + b);
    }
    let sum = large + small;
    let ratio = -(large - 0.5) * (small / large).ln_1p() - small * sum.ln()
        + small
        + stirling_correction(large)
        - stirling_correction(sum);
    ln_gamma(small) + ratio
}

/// ln Γ(x) − ((x − ½)·ln x − x + ½·ln 2π) for x ≥ 20, to four terms.
fn stirling_correction(x: f64) -> f64 {
    let square = x * x;
    (1.0 / 12.0 - (1.0 / 360.0 - (1.0 / 1260.0 - 1.0 / (1680.0 * square)) / square) / square) / x
}

/// Q(a, x) = Γ(a, x) / Γ(a), the regularized upper incomplete gamma function.
pub fn gamma_q(a: f64, x: f64) -> f64 {
    if x <= 0.0 {
        return 1.0;
    }
    let front = (a * x.ln() - x - ln_gamma(a)).exp();
    if x < a + 1.0 {
        let mut term = 1.0 / a;
        let mut sum = term;
        let mut denominator = a;
        for _ in 0..MAX_ITERATIONS {
            denominator += 1.0;
            term *= x / denominator;
            sum += term;
            if term.abs() < sum.abs() * EPSILON {
                break;
            }
        }
        1.0 - sum * front
    } else {
        front
            * lentz(|m| {
                if m == 0 {
                    (0.0, x + 1.0 - a)
                } else {
                    let m = m as f64;
                    (-m * (m - a), x + 2.0 * m + 1.0 - a)
                }
            })
    }
}

/// I_x(a, b), the regularized incomplete beta function, for 0 ≤ x ≤ 1.
pub fn beta_inc(a: f64, b: f64, x: f64) -> f64 {
    if x <= 0.0 {
        return 0.0;
    }
    if x >= 1.0 {
        return 1.0;
    }
    if x > (a + 1.0) / (a + b + 2.0) {
        return 1.0 - beta_inc(b, a, 1.0 - x);
    }
    let front = (a * x.ln() + b * (-x).ln_1p() - ln_beta(a, b)).exp() / a;
    let fraction = lentz(|m| {
        if m == 0 {
            return (0.0, 1.0);
        }
        let k = (m / 2) as f64;
        let numerator = if m % 2 == 1 {
            -(a + k) * (a + b + k) * x / ((a + 2.0 * k) * (a + 2.0 * k + 1.0))
        } else {
            k * (b - k) * x / ((a + 2.0 * k - 1.0) * (a + 2.0 * k))
        };
        (numerator, 1.0)
    });
    front * fraction
}

/// The continued fraction 1 / (b0 + a1 / (b1 + a2 / (b2 + …))) by the modified Lentz method,
/// where `term(m)` is (a_m, b_m) and a_0 is unused. For the incomplete beta function the fraction
/// is 1 / (1 + d1 / (1 + d2 / …)); for the incomplete gamma function 1 / (x + 1 − a + …).
fn lentz(term: impl Fn(usize) -> (f64, f64)) -> f64 {
    const TINY: f64 = 1e-300;
    let nonzero = |value: f64| if value.abs() < TINY { TINY } else { value };
    let (_, b0) = term(0);
    let mut c = 1.0 / TINY;
    let mut d = 1.0 / nonzero(b0);
    let mut fraction = d;
    for m in 1..MAX_ITERATIONS {
        let (a, b) = term(m);
        d = 1.0 / nonzero(b + a * d);
        c = nonzero(b + a / c);
        let delta = c * d;
        fraction *= delta;
        if (delta - 1.0).abs() < EPSILON {
            break;
        }
    }
    fraction
}

/// P(Z > z) for a standard normal Z.
pub fn normal_sf(z: f64) -> f64 {
    let half_erfc = |x: f64| 0.5 * gamma_q(0.5, x * x);
    if z >= 0.0 {
        half_erfc(z / std::f64::consts::SQRT_2)
    } else {
        1.0 - half_erfc(-z / std::f64::consts::SQRT_2)
    }
}

/// The standard normal density.
fn normal_pdf(z: f64) -> f64 {
    (-0.5 * z * z).exp() / (2.0 * PI).sqrt()
}

/// The standard normal quantile: the z with P(Z ≤ z) = p, for 0 < p < 1.
pub fn normal_quantile(p: f64) -> f64 {
    quantile(p, |z| 1.0 - normal_sf(z), normal_pdf)
}

/// P(T > t) for Student's t with `df` degrees of freedom (df > 0).
pub fn t_sf(t: f64, df: f64) -> f64 {
    let tail = 0.5 * beta_inc(0.5 * df, 0.5, df / (df + t * t));
    if t >= 0.0 {
        tail
    } else {
        1.0 - tail
    }
}

/// Student's t density with `df` degrees of freedom.
fn t_pdf(t: f64, df: f64) -> f64 {
    let log = ln_gamma(0.5 * (df + 1.0))
        - ln_gamma(0.5 * df)
        - 0.5 * (df * PI).ln()
        - 0.5 * (df + 1.0) * (t * t / df).ln_1p();
    log.exp()
}

/// Student's t quantile: the t with P(T ≤ t) = p, for 0 < p < 1 and df > 0.
pub fn t_quantile(p: f64, df: f64) -> f64 {
    quantile(p, |t| 1.0 - t_sf(t, df), |t| t_pdf(t, df))
}

/// The x with `cdf(x) = p` for a symmetric, continuous distribution: the upper tail is
/// bracketed, then Newton steps refine it, falling back to bisection when a step leaves the
/// bracket. Not a number when p is outside (0, 1).
fn quantile(p: f64, cdf: impl Fn(f64) -> f64, pdf: impl Fn(f64) -> f64) -> f64 {
    if p.is_nan() || p <= 0.0 || p >= 1.0 {
        return f64::NAN;
    }
    if p < 0.5 {
        return -quantile(1.0 - p, cdf, pdf);
    }
    let (mut low, mut high) = (0.0_f64, 1.0_f64);
    while cdf(high) < p && high < 1e300 {
        low = high;
        high *= 2.0;
    }
    let mut x = 0.5 * (low + high);
    for _ in 0..200 {
        let error = cdf(x) - p;
        if error > 0.0 {
            high = x;
        } else {
            low = x;
        }
        let density = pdf(x);
        let newton = x - error / density;
        let next = if density > 0.0 && newton > low && newton < high {
            newton
        } else {
            0.5 * (low + high)
        };
        if (next - x).abs() <= 4.0 * f64::EPSILON * x.abs() {
            return next;
        }
        x = next;
    }
    x
}

//! The statistics of a paired comparison, as Microsoft's agent-evaluation analysis computes them
//! (microsoft/ai-agent-evals, `analysis/analysis.py`, with scipy): McNemar's mid-p test for pass
//! rates, the Wilcoxon signed-rank test (Pratt's zeros, normal approximation with the tie
//! correction, no continuity correction) for ordinal scores, the paired t-test for continuous
//! ones; per-run 95 % intervals (Wilson with continuity correction, the t interval of a mean);
//! and the smallest difference a sample could detect at 80 % power. Pure functions of numbers;
//! which test a metric gets is `metrics`'.

pub mod special;

use special::{normal_quantile, normal_sf, t_quantile, t_sf};

/// The confidence of every interval, and 1 − the significance level of every test.
pub const CONFIDENCE: f64 = 0.95;
/// The power [`detectable_delta`] assumes.
pub const POWER: f64 = 0.8;

/// McNemar's mid-p test: with `b` pairs pass → fail and `c` fail → pass,
/// 2·BinomCDF(min(b, c); b + c, ½) − BinomPMF(b; b + c, ½); 1 when b + c = 0.
pub fn mcnemar_mid_p(b: u64, c: u64) -> f64 {
    let n = b + c;
    if n == 0 {
        return 1.0;
    }
    2.0 * binomial_half_cdf(b.min(c), n) - binomial_half_pmf(b, n)
}

/// P(X = k) for X ~ Binomial(n, ½).
fn binomial_half_pmf(k: u64, n: u64) -> f64 {
    if k > n {
        return 0.0;
    }
    let (k, n) = (k as f64, n as f64);
    (special::ln_gamma(n + 1.0)
        - special::ln_gamma(k + 1.0)
        - special::ln_gamma(n - k + 1.0)
        - n * std::f64::consts::LN_2)
        .exp()
}

/// P(X ≤ k) for X ~ Binomial(n, ½): the probabilities from k down, each from the one above it,
/// until they no longer count.
fn binomial_half_cdf(k: u64, n: u64) -> f64 {
    if k >= n {
        return 1.0;
    }
    let mut term = binomial_half_pmf(k, n);
    let mut sum = term;
    let mut i = k;
    while i > 0 && term > sum * 1e-17 {
        term *= i as f64 / (n - i + 1) as f64;
        sum += term;
        i -= 1;
    }
    sum.min(1.0)
}

/// The two-sided p-value of the Wilcoxon signed-rank test of `differences` (scipy's
/// `wilcoxon(d, zero_method="pratt", method="approx", correction=False)`): zeros ranked and then
/// left out of the statistic (Pratt), the normal approximation with the tie correction. 1 when
/// every difference is 0 (or there is none).
pub fn wilcoxon_pratt(differences: &[f64]) -> f64 {
    if differences.iter().all(|difference| *difference == 0.0) {
        return 1.0;
    }
    let mut magnitudes: Vec<(f64, bool, bool)> = differences
        .iter()
        .map(|difference| (difference.abs(), *difference > 0.0, *difference == 0.0))
        .collect();
    magnitudes.sort_by(|a, b| a.0.total_cmp(&b.0));
    let count = magnitudes.len() as f64;
    let mut rank_sum_positive = 0.0;
    let mut tie_correction = 0.0;
    let mut zeros = 0.0;
    let mut start = 0;
    while let Some(&(value, _, is_zero)) = magnitudes.get(start) {
        let tied = magnitudes
            .get(start..)
            .map_or(0, |rest| rest.iter().take_while(|m| m.0 == value).count());
        let average_rank = start as f64 + (tied as f64 + 1.0) / 2.0;
        if is_zero {
            zeros = tied as f64;
        } else {
            let positives = magnitudes
                .get(start..start + tied)
                .map_or(0, |group| group.iter().filter(|m| m.1).count());
            rank_sum_positive += average_rank * positives as f64;
            let t = tied as f64;
            tie_correction += t * t * t - t;
        }
        start += tied;
    }
    let mean = (count * (count + 1.0) - zeros * (zeros + 1.0)) * 0.25;
    let variance = (count * (count + 1.0) * (2.0 * count + 1.0)
        - zeros * (zeros + 1.0) * (2.0 * zeros + 1.0)
        - tie_correction / 2.0)
        / 24.0;
    let z = (rank_sum_positive - mean) / variance.sqrt();
    (2.0 * normal_sf(z.abs())).min(1.0)
}

/// The two-sided p-value of the paired t-test of `differences` (scipy's `ttest_rel`): 1 when
/// every difference is 0, 0 when they are one non-zero constant, not a number with fewer than
/// two.
pub fn paired_t(differences: &[f64]) -> f64 {
    if differences.iter().all(|difference| *difference == 0.0) {
        return 1.0;
    }
    if differences.len() < 2 {
        return f64::NAN;
    }
    if differences.iter().all(|d| Some(d) == differences.first()) {
        return 0.0;
    }
    let n = differences.len() as f64;
    let (mean, sd) = mean_sd(differences);
    let t = mean / (sd / n.sqrt());
    (2.0 * t_sf(t.abs(), n - 1.0)).min(1.0)
}

/// The mean and the sample standard deviation (n − 1) of `values`; the deviation is not a
/// number with fewer than two values.
pub fn mean_sd(values: &[f64]) -> (f64, f64) {
    let n = values.len() as f64;
    let mean = values.iter().sum::<f64>() / n;
    let squares: f64 = values.iter().map(|value| (value - mean).powi(2)).sum();
    (mean, (squares / (n - 1.0)).sqrt())
}

/// The Wilson score interval with continuity correction of `successes` in `n` trials at
/// [`CONFIDENCE`] (scipy's `binomtest(k, n).proportion_ci(method="wilsoncc")`); `None` when n = 0.
pub fn wilson_cc(successes: u64, n: u64) -> Option<(f64, f64)> {
    if n == 0 || successes > n {
        return None;
    }
    let z = normal_quantile(0.5 + 0.5 * CONFIDENCE);
    let (k, n) = (successes as f64, n as f64);
    let p = k / n;
    let q = 1.0 - p;
    let denominator = 2.0 * (n + z * z);
    let center = (2.0 * n * p + z * z) / denominator;
    let low = if successes == 0 {
        0.0
    } else {
        center - (1.0 + z * (z * z - 2.0 - 1.0 / n + 4.0 * p * (n * q + 1.0)).sqrt()) / denominator
    };
    let high = if k == n {
        1.0
    } else {
        center + (1.0 + z * (z * z + 2.0 - 1.0 / n + 4.0 * p * (n * q - 1.0)).sqrt()) / denominator
    };
    Some((low, high))
}

/// The [`CONFIDENCE`] t interval of the mean of `values`: mean ± t(0.975, n − 1)·s/√n; `None`
/// with fewer than two values.
pub fn mean_interval(values: &[f64]) -> Option<(f64, f64)> {
    if values.len() < 2 {
        return None;
    }
    let n = values.len() as f64;
    let (mean, sd) = mean_sd(values);
    let half = t_quantile(0.5 + 0.5 * CONFIDENCE, n - 1.0) * sd / n.sqrt();
    Some((mean - half, mean + half))
}

/// The smallest mean paired difference a two-sided test at 1 − [`CONFIDENCE`] would detect with
/// [`POWER`] on a sample like this one: (t(0.975, n − 1) + t(0.8, n − 1))·s/√n, s the standard
/// deviation of `differences`. `None` with fewer than two differences or when they do not vary.
pub fn detectable_delta(differences: &[f64]) -> Option<f64> {
    if differences.len() < 2 {
        return None;
    }
    let n = differences.len() as f64;
    let (_, sd) = mean_sd(differences);
    if sd.is_nan() || sd <= 0.0 {
        return None;
    }
    let df = n - 1.0;
    Some((t_quantile(0.5 + 0.5 * CONFIDENCE, df) + t_quantile(POWER, df)) * sd / n.sqrt())
}

#[cfg(test)]
mod tests;

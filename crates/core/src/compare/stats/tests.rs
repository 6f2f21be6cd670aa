use super::*;
use crate::json::{self, Value};

/// `tests/fixtures/parity/compare_stats.json`, made by `tests/parity/gen_compare_stats.py`.
fn cases(section: &str) -> Vec<Value> {
    let text = include_str!("../../../../../tests/fixtures/parity/compare_stats.json");
    let value = json::parse(text.as_bytes()).unwrap();
    value.get(section).unwrap().as_array().unwrap().clone()
}

fn numbers(value: &Value) -> Vec<f64> {
    value
        .as_array()
        .unwrap()
        .iter()
        .map(|number| number.as_f64().unwrap())
        .collect()
}

fn assert_close(actual: f64, expected: f64, tolerance: f64, case: &str) {
    let scale = expected.abs().max(1e-300);
    assert!(
        (actual - expected).abs() <= tolerance * scale || actual == expected,
        "{case}: got {actual:e}, scipy {expected:e} (relative error {:e})",
        (actual - expected).abs() / scale
    );
}

#[test]
fn mcnemar_mid_p_matches_scipy() {
    let cases = cases("mcnemar");
    assert!(cases.len() > 40);
    for case in cases {
        let (b, c) = (case["b"].as_u64().unwrap(), case["c"].as_u64().unwrap());
        let expected = case["p"].as_f64().unwrap();
        assert_close(mcnemar_mid_p(b, c), expected, 1e-9, &format!("b={b} c={c}"));
    }
}

#[test]
fn mcnemar_is_one_without_discordant_pairs_and_symmetric() {
    assert_eq!(mcnemar_mid_p(0, 0), 1.0);
    assert_eq!(mcnemar_mid_p(3, 11), mcnemar_mid_p(11, 3));
    assert!(mcnemar_mid_p(0, 20) < 1e-5);
}

#[test]
fn wilcoxon_pratt_matches_scipy_on_rounded_differences() {
    let cases = cases("wilcoxon");
    assert!(cases.len() > 30);
    for case in cases {
        let differences: Vec<f64> = numbers(&case["d"])
            .into_iter()
            .map(f64::round_ties_even)
            .collect();
        let expected = case["p"].as_f64().unwrap();
        assert_close(
            wilcoxon_pratt(&differences),
            expected,
            1e-9,
            &format!("{differences:?}"),
        );
    }
}

#[test]
fn paired_t_matches_scipy_with_its_two_degenerate_cases() {
    let cases = cases("paired_t");
    for case in cases {
        let baseline = numbers(&case["baseline"]);
        let candidate = numbers(&case["candidate"]);
        let differences: Vec<f64> = candidate
            .iter()
            .zip(&baseline)
            .map(|(c, b)| c - b)
            .collect();
        let expected = case["p"].as_f64().unwrap();
        assert_close(
            paired_t(&differences),
            expected,
            1e-9,
            &format!("{differences:?}"),
        );
    }
    assert_eq!(paired_t(&[0.0, 0.0, 0.0]), 1.0);
    assert_eq!(paired_t(&[0.25, 0.25, 0.25]), 0.0);
    assert!(paired_t(&[0.5]).is_nan());
}

#[test]
fn wilson_intervals_with_continuity_correction_match_scipy() {
    for case in cases("wilson") {
        let (k, n) = (case["k"].as_u64().unwrap(), case["n"].as_u64().unwrap());
        let expected = numbers(&case["ci"]);
        let (low, high) = wilson_cc(k, n).unwrap();
        assert_close(low, expected[0], 1e-9, &format!("{k}/{n} low"));
        assert_close(high, expected[1], 1e-9, &format!("{k}/{n} high"));
    }
    assert_eq!(wilson_cc(0, 0), None);
}

#[test]
fn mean_intervals_match_scipy() {
    for case in cases("mean_interval") {
        let values = numbers(&case["values"]);
        let expected = numbers(&case["ci"]);
        let (low, high) = mean_interval(&values).unwrap();
        assert_close(low, expected[0], 1e-9, "low");
        assert_close(high, expected[1], 1e-9, "high");
    }
    assert_eq!(mean_interval(&[0.5]), None);
}

#[test]
fn detectable_deltas_match_scipy() {
    for case in cases("detectable_delta") {
        let differences = numbers(&case["d"]);
        let expected = case["delta"].as_f64().unwrap();
        assert_close(
            detectable_delta(&differences).unwrap(),
            expected,
            1e-9,
            "delta",
        );
    }
    assert_eq!(detectable_delta(&[0.0, 0.0, 0.0]), None);
    assert_eq!(detectable_delta(&[1.0]), None);
}

#[test]
fn t_quantiles_match_scipy() {
    for case in cases("t_quantile") {
        let (q, df) = (case["q"].as_f64().unwrap(), case["df"].as_f64().unwrap());
        let expected = case["x"].as_f64().unwrap();
        assert_close(
            special::t_quantile(q, df),
            expected,
            1e-11,
            &format!("t({q}, {df})"),
        );
    }
    assert_close(
        special::normal_quantile(0.975),
        1.959_963_984_540_054,
        1e-14,
        "z(0.975)",
    );
    assert!(special::t_quantile(1.0, 3.0).is_nan());
}

//! The `fuzzy_match` metric of `text_similarity`: RapidFuzz's `fuzz.ratio(input, reference) / 100`
//! (OpenAI documents only "fuzzy string match, using rapidfuzz"; `fuzz.ratio` is its plain
//! scorer). That is the normalised Indel similarity over Unicode scalar values, with no
//! preprocessing: `1 − (len₁ + len₂ − 2·LCS) / (len₁ + len₂)`, and 1 for two empty texts. The
//! longest common subsequence is computed bit-parallel (Hyyrö's algorithm, as RapidFuzz does), in
//! `len₁ · ⌈len₂ / 64⌉` word operations.

use std::collections::HashMap;

/// The most character pairs compared (about a second of work): beyond it the texts are refused
/// rather than keeping a worker busy for minutes.
pub const MAX_CHARACTER_PAIRS: u64 = 1 << 36;

/// `rapidfuzz.fuzz.ratio(a, b) / 100`, in RapidFuzz's order of operations.
///
/// # Errors
/// When the texts' lengths multiply to more than [`MAX_CHARACTER_PAIRS`].
pub fn ratio(a: &str, b: &str) -> Result<f64, String> {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    if (a.len() as u64).saturating_mul(b.len() as u64) > MAX_CHARACTER_PAIRS {
        return Err(format!(
            "fuzzy_match: input ({} characters) and reference ({} characters) are too long to \
             compare",
            a.len(),
            b.len()
        ));
    }
    let total = a.len() + b.len();
    if total == 0 {
        return Ok(1.0);
    }
    let distance = total - 2 * lcs_length(&a, &b);
    let normalized_distance = distance as f64 / total as f64;
    Ok((1.0 - normalized_distance) * 100.0 / 100.0)
}

/// The length of a longest common subsequence of `a` and `b`.
pub fn lcs_length(a: &[char], b: &[char]) -> usize {
    let (pattern, text) = if a.len() <= b.len() { (a, b) } else { (b, a) };
    if pattern.is_empty() {
        return 0;
    }
    let blocks = pattern.len().div_ceil(64);
    let mut masks: HashMap<char, Vec<u64>> = HashMap::new();
    for (position, ch) in pattern.iter().enumerate() {
        let mask = masks.entry(*ch).or_insert_with(|| vec![0; blocks]);
        if let Some(word) = mask.get_mut(position / 64) {
            *word |= 1 << (position % 64);
        }
    }
    let mut rows = vec![u64::MAX; blocks];
    for ch in text {
        let Some(mask) = masks.get(ch) else {
            continue;
        };
        let mut carry = false;
        for (row, matches) in rows.iter_mut().zip(mask) {
            let matched = *row & matches;
            let (sum, first) = row.overflowing_add(matched);
            let (sum, second) = sum.overflowing_add(u64::from(carry));
            carry = first || second;
            *row = sum | (*row & !matched);
        }
    }
    let spare_bits = blocks * 64 - pattern.len();
    let last = blocks - 1;
    rows.iter()
        .enumerate()
        .map(|(index, row)| {
            let valid = if index == last {
                u64::MAX >> spare_bits
            } else {
                u64::MAX
            };
            (!row & valid).count_ones() as usize
        })
        .sum()
}

//! N-gram counting shared by BLEU and GLEU: each token becomes a small integer, each n-gram of up
//! to four tokens one `u128` key, so counting hashes integers instead of strings.

use std::collections::HashMap;
use std::ops::RangeInclusive;

/// For each n-gram of the hypothesis: its count in the hypothesis and in the reference.
pub(crate) type Counts = HashMap<u128, (usize, usize), foldhash::fast::RandomState>;

/// The longest n-gram a key holds.
pub(crate) const MAX_ORDER: usize = 4;

type Vocabulary<'a> = HashMap<&'a str, u32, foldhash::fast::RandomState>;

/// `reference` and `hypothesis` as token ids (from 1; equal tokens, equal ids).
pub(crate) fn token_ids<T: AsRef<str>>(reference: &[T], hypothesis: &[T]) -> (Vec<u32>, Vec<u32>) {
    let mut vocabulary = Vocabulary::default();
    let reference = ids(reference, &mut vocabulary);
    let hypothesis = ids(hypothesis, &mut vocabulary);
    (reference, hypothesis)
}

fn ids<'a, T: AsRef<str>>(tokens: &'a [T], vocabulary: &mut Vocabulary<'a>) -> Vec<u32> {
    tokens
        .iter()
        .map(|token| {
            let next = u32::try_from(vocabulary.len() + 1).unwrap_or(u32::MAX);
            *vocabulary.entry(token.as_ref()).or_insert(next)
        })
        .collect()
}

/// One n-gram (at most [`MAX_ORDER`] ids, each at least 1) as a key; n-grams of different
/// lengths never share one.
fn key(gram: &[u32]) -> u128 {
    gram.iter()
        .fold(0u128, |key, &id| (key << 32) | u128::from(id))
}

/// Counts the n-grams of every order in `orders` (within 1..=4) of the hypothesis, and how often
/// each occurs in the reference; returns the totals of hypothesis and reference n-grams.
pub(crate) fn count(
    reference: &[u32],
    hypothesis: &[u32],
    orders: RangeInclusive<usize>,
    counts: &mut Counts,
) -> (usize, usize) {
    let (mut hyp_total, mut ref_total) = (0, 0);
    for n in orders.filter(|n| (1..=MAX_ORDER).contains(n)) {
        for gram in hypothesis.windows(n) {
            counts.entry(key(gram)).or_default().0 += 1;
            hyp_total += 1;
        }
        for gram in reference.windows(n) {
            if let Some(entry) = counts.get_mut(&key(gram)) {
                entry.1 += 1;
            }
            ref_total += 1;
        }
    }
    (hyp_total, ref_total)
}

/// Σ min(hypothesis count, reference count): the clipped matches.
pub(crate) fn clipped(counts: &Counts) -> usize {
    counts
        .values()
        .map(|&(hypothesis, reference)| hypothesis.min(reference))
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_of_different_lengths_differ() {
        assert_ne!(key(&[1, 2]), key(&[u32::MAX]));
        assert_ne!(key(&[1]), key(&[1, 1]));
        let (reference, hypothesis) = token_ids(&["a", "b", "a"], &["b", "a", "c"]);
        assert_eq!((reference, hypothesis), (vec![1, 2, 1], vec![2, 1, 3]));
    }
}

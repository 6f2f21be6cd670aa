//! `nltk.translate.meteor_score.meteor_score([reference], hypothesis, alpha, beta, gamma)` (NLTK
//! 3.10.4) over token lists: Python `lower()` of every token, then three matching stages, each on
//! the words the one before left unmatched — exact, Porter stem, WordNet synonym — then chunks,
//! F-mean and the fragmentation penalty, with the reference's arithmetic and its
//! `ZeroDivisionError` → 0.0.
//!
//! NOTE: the synonym stage runs on the stem stage's leftovers *as stems* (NLTK's
//! `_enum_stem_match` returns the stemmed lists), so it looks up `synsets(stem(word))` and matches
//! names against stemmed reference words. Within a stage hypothesis words are visited right to
//! left; each takes the right-most remaining reference position of an equal word (for synonyms,
//! the right-most over all its synonyms).

use std::collections::HashMap;

/// Reference positions of each word, hashed as the core's other word maps are.
type Positions<'a> = HashMap<&'a str, Vec<usize>, foldhash::fast::RandomState>;

use crate::text::{porter, python};

/// A number option as Python holds it: the arithmetic differs for `int` (`1 - alpha` is exact).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum Param {
    Int(i128),
    Float(f64),
}

impl Param {
    fn to_f64(self) -> f64 {
        match self {
            Param::Int(int) => int as f64,
            Param::Float(float) => float,
        }
    }

    /// `1 - self`, as Python computes it before it meets a float.
    fn one_minus(self) -> f64 {
        match self {
            Param::Int(int) => (1 - int) as f64,
            Param::Float(float) => 1.0 - float,
        }
    }
}

/// METEOR's weights: `alpha` (precision against recall), `beta` (penalty shape), `gamma`
/// (penalty weight).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct Weights {
    pub alpha: Param,
    pub beta: Param,
    pub gamma: Param,
}

/// Python raised `OverflowError` (`frag_frac ** beta` out of range).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Overflow;

/// An enumerated word: its position in the original token list and its (lowered or stemmed) text.
type Enumerated = Vec<(usize, String)>;

/// `_match_enums`: exact matches between the lists, and the unmatched rest of each.
fn match_enums(
    hypothesis: Enumerated,
    reference: Enumerated,
) -> (Vec<(usize, usize)>, Enumerated, Enumerated) {
    let mut positions = Positions::default();
    for (j, (_, word)) in reference.iter().enumerate() {
        positions.entry(word.as_str()).or_default().push(j);
    }
    let mut matches = Vec::new();
    let mut hyp_matched = vec![false; hypothesis.len()];
    let mut ref_matched = vec![false; reference.len()];
    for (i, (hyp_index, word)) in hypothesis.iter().enumerate().rev() {
        let Some(j) = positions.get_mut(word.as_str()).and_then(Vec::pop) else {
            continue;
        };
        if let (Some(hyp_flag), Some(ref_flag), Some((ref_index, _))) = (
            hyp_matched.get_mut(i),
            ref_matched.get_mut(j),
            reference.get(j),
        ) {
            *hyp_flag = true;
            *ref_flag = true;
            matches.push((*hyp_index, *ref_index));
        }
    }
    drop(positions);
    (
        matches,
        unmatched(hypothesis, &hyp_matched),
        unmatched(reference, &ref_matched),
    )
}

fn unmatched(list: Enumerated, matched: &[bool]) -> Enumerated {
    list.into_iter()
        .zip(matched)
        .filter(|(_, matched)| !**matched)
        .map(|(pair, _)| pair)
        .collect()
}

fn stemmed(list: Enumerated) -> Enumerated {
    list.into_iter()
        .map(|(index, word)| (index, porter::stem(&word)))
        .collect()
}

/// `_enum_wordnetsyn_match` on the stem stage's leftovers.
fn match_synonyms<'w>(
    hypothesis: &Enumerated,
    reference: &Enumerated,
    synonyms: &dyn Fn(&str) -> Vec<&'w str>,
) -> Vec<(usize, usize)> {
    let mut positions = Positions::default();
    for (j, (_, word)) in reference.iter().enumerate() {
        positions.entry(word.as_str()).or_default().push(j);
    }
    let mut matches = Vec::new();
    for (hyp_index, word) in hypothesis.iter().rev() {
        let mut candidates = synonyms(word);
        candidates.push(word.as_str());
        let best = candidates
            .into_iter()
            .filter_map(|name| Some((*positions.get(name)?.last()?, name)))
            .max_by_key(|(j, _)| *j);
        let Some((j, name)) = best else {
            continue;
        };
        if let Some(list) = positions.get_mut(name) {
            list.pop();
        }
        if let Some((ref_index, _)) = reference.get(j) {
            matches.push((*hyp_index, *ref_index));
        }
    }
    matches
}

/// `_count_chunks` over matches sorted by hypothesis position.
fn count_chunks(matches: &[(usize, usize)]) -> usize {
    1 + matches
        .windows(2)
        .filter(|pair| match pair {
            [(h0, r0), (h1, r1)] => !(*h1 == h0 + 1 && *r1 == r0 + 1),
            _ => false,
        })
        .count()
}

/// CPython's `float ** x` for a base in (0, 1], where METEOR's fragmentation fraction lies.
fn python_pow(base: f64, exponent: Param) -> Result<f64, Overflow> {
    let exponent = exponent.to_f64();
    if exponent == 0.0 || base == 1.0 {
        return Ok(1.0);
    }
    if exponent.is_nan() {
        return Ok(f64::NAN);
    }
    if exponent.is_infinite() {
        return Ok(if (base.abs() < 1.0) == (exponent > 0.0) {
            0.0
        } else {
            f64::INFINITY
        });
    }
    let power = base.powf(exponent);
    if power.is_infinite() {
        return Err(Overflow);
    }
    Ok(power)
}

/// `single_meteor_score(reference, hypothesis, alpha=…, beta=…, gamma=…)`; `synonyms` gives the
/// WordNet lemma names of a word (without the word itself).
pub(super) fn meteor<'w>(
    reference: &[String],
    hypothesis: &[String],
    weights: Weights,
    synonyms: &dyn Fn(&str) -> Vec<&'w str>,
) -> Result<f64, Overflow> {
    let enumerate = |tokens: &[String]| -> Enumerated {
        tokens
            .iter()
            .map(|token| python::lower(token))
            .enumerate()
            .collect()
    };
    let (hypothesis, reference) = (enumerate(hypothesis), enumerate(reference));
    let (hyp_len, ref_len) = (hypothesis.len(), reference.len());
    let (mut matches, hypothesis, reference) = match_enums(hypothesis, reference);
    let (stem_matches, hypothesis, reference) =
        match_enums(stemmed(hypothesis), stemmed(reference));
    matches.extend(stem_matches);
    matches.extend(match_synonyms(&hypothesis, &reference, synonyms));
    matches.sort_by_key(|(hyp_index, _)| *hyp_index);

    let count = matches.len();
    if hyp_len == 0 || ref_len == 0 || count == 0 {
        return Ok(0.0);
    }
    let precision = count as f64 / hyp_len as f64;
    let recall = count as f64 / ref_len as f64;
    let denominator = weights.alpha.to_f64() * precision + weights.alpha.one_minus() * recall;
    if denominator == 0.0 {
        return Ok(0.0);
    }
    let fmean = (precision * recall) / denominator;
    let fragmentation = count_chunks(&matches) as f64 / count as f64;
    let penalty = weights.gamma.to_f64() * python_pow(fragmentation, weights.beta)?;
    Ok((1.0 - penalty) * fmean)
}

#[cfg(test)]
mod tests {
    use super::*;

    const DEFAULT: Weights = Weights {
        alpha: Param::Float(0.9),
        beta: Param::Float(3.0),
        gamma: Param::Float(0.5),
    };

    fn tokens(text: &str) -> Vec<String> {
        text.split(' ')
            .filter(|word| !word.is_empty())
            .map(str::to_owned)
            .collect()
    }

    fn no_synonyms(_: &str) -> Vec<&'static str> {
        Vec::new()
    }

    #[test]
    fn identical_text_scores_by_its_single_chunk() {
        let text = tokens("the cat sat on the mat");
        let score = meteor(&text, &text, DEFAULT, &no_synonyms);
        let fmean = 1.0;
        let penalty = 0.5 * (1.0_f64 / 6.0).powf(3.0);
        assert_eq!(score, Ok((1.0 - penalty) * fmean));
    }

    #[test]
    fn stems_match_after_exact_words() {
        let reference = tokens("the cats are running");
        let hypothesis = tokens("The cat is run");
        let matched = meteor(&reference, &hypothesis, DEFAULT, &no_synonyms);
        let alone = meteor(&tokens("x y z w"), &hypothesis, DEFAULT, &no_synonyms);
        assert!(matched.is_ok_and(|score| score > 0.0));
        assert_eq!(alone, Ok(0.0));
    }

    #[test]
    fn synonyms_are_looked_up_by_stem_and_take_the_right_most_position() {
        let reference = tokens("happy x happy");
        let hypothesis = tokens("glad");
        let seen = std::cell::RefCell::new(Vec::new());
        let lookup = |word: &str| {
            seen.borrow_mut().push(word.to_owned());
            if word == "glad" {
                vec!["happi"]
            } else {
                Vec::new()
            }
        };
        let score = meteor(&reference, &hypothesis, DEFAULT, &lookup);
        assert_eq!(seen.borrow().as_slice(), ["glad"]);
        let precision = 1.0;
        let recall = 1.0 / 3.0;
        let fmean = precision * recall / (0.9 * precision + (1.0 - 0.9) * recall);
        assert_eq!(score, Ok((1.0 - 0.5) * fmean));
    }

    #[test]
    fn empty_sides_and_zero_denominators_score_zero() {
        let text = tokens("a b");
        assert_eq!(meteor(&[], &text, DEFAULT, &no_synonyms), Ok(0.0));
        assert_eq!(meteor(&text, &[], DEFAULT, &no_synonyms), Ok(0.0));
        let cancelling = Weights {
            alpha: Param::Int(-1),
            ..DEFAULT
        };
        // P = 1, R = 1/2: -1·1 + 2·(1/2) = 0.
        let reference = tokens("a b");
        assert_eq!(
            meteor(&reference, &tokens("a"), cancelling, &no_synonyms),
            Ok(0.0)
        );
    }

    #[test]
    fn an_overflowing_penalty_is_python_s_overflow_error() {
        let weights = Weights {
            beta: Param::Float(-2000.0),
            ..DEFAULT
        };
        let reference = tokens("a b c");
        assert_eq!(
            meteor(&reference, &tokens("a b x c"), weights, &no_synonyms),
            Err(Overflow)
        );
    }

    #[test]
    fn chunks_need_adjacency_on_both_sides() {
        assert_eq!(count_chunks(&[(0, 0), (1, 1), (2, 3), (3, 4)]), 2);
        assert_eq!(count_chunks(&[(0, 2), (1, 1)]), 2);
        assert_eq!(count_chunks(&[]), 1);
    }
}

//! NLTK's Porter stemmer in its default mode (`PorterStemmer()`, `NLTK_EXTENSIONS`, NLTK 3.10.4),
//! as METEOR's stem stage calls it: Python `lower()` first, NLTK's pool of irregular forms, words
//! of at most two characters kept, then steps 1a–5b with NLTK's departures from Porter (1980).
//!
//! Words are handled as sequences of code points, as Python does: any character other than
//! `a e i o u y` is a consonant, so non-ASCII letters take part in the measure like `b` or `z`.
//! Every rule mirrors `nltk/stem/porter.py` literally, including its quirks (the `*d` rule also
//! fires on a word that really ends in `*d`). No IO, no tables beyond the rules themselves.

use super::python;

/// NLTK's `pool`: irregular forms stemmed by lookup before any rule.
const IRREGULAR_FORMS: [(&str, &str); 16] = [
    ("sky", "sky"),
    ("skies", "sky"),
    ("dying", "die"),
    ("lying", "lie"),
    ("tying", "tie"),
    ("news", "news"),
    ("innings", "inning"),
    ("inning", "inning"),
    ("outings", "outing"),
    ("outing", "outing"),
    ("cannings", "canning"),
    ("canning", "canning"),
    ("howe", "howe"),
    ("proceed", "proceed"),
    ("exceed", "exceed"),
    ("succeed", "succeed"),
];

/// `PorterStemmer().stem(word)`: the stem of `word` after Python `lower()`.
pub fn stem(word: &str) -> String {
    let lowered = python::lower(word);
    if let Some((_, stem)) = IRREGULAR_FORMS.iter().find(|(form, _)| *form == lowered) {
        return (*stem).to_owned();
    }
    if word.chars().count() <= 2 {
        return lowered;
    }
    let mut chars: Vec<char> = lowered.chars().collect();
    chars = step1a(chars);
    chars = step1b(chars);
    chars = step1c(chars);
    chars = step2(chars);
    chars = step3(chars);
    chars = step4(chars);
    chars = step5a(chars);
    chars = step5b(chars);
    chars.into_iter().collect()
}

fn is_vowel(c: char) -> bool {
    matches!(c, 'a' | 'e' | 'i' | 'o' | 'u')
}

/// `_is_consonant(word, i)`: a `y` is a consonant when the run of `y`s ending at `i` has an even
/// length and follows a consonant (or starts the word), as NLTK walks back through the run.
fn is_consonant(word: &[char], index: usize) -> bool {
    let Some(&c) = word.get(index) else {
        return false;
    };
    if is_vowel(c) {
        return false;
    }
    if c != 'y' {
        return true;
    }
    let mut i = index;
    let mut negate = false;
    while i > 0 && word.get(i) == Some(&'y') {
        negate = !negate;
        i -= 1;
    }
    word.get(i).is_some_and(|&c| !is_vowel(c)) != negate
}

/// `_consonant_flags`, one flag at a time: a `y` is a consonant at the start and after a vowel.
fn consonant_flags(word: &[char]) -> impl Iterator<Item = bool> + '_ {
    word.iter().scan(None, |previous: &mut Option<bool>, &c| {
        let flag = if is_vowel(c) {
            false
        } else if c == 'y' {
            previous.is_none_or(|consonant| !consonant)
        } else {
            true
        };
        *previous = Some(flag);
        Some(flag)
    })
}

/// `_measure`: the number of vowel-run → consonant-run transitions (`m` in `[C](VC)^m[V]`).
fn measure(stem: &[char]) -> usize {
    let mut count = 0;
    let mut previous = None;
    for flag in consonant_flags(stem) {
        if previous == Some(false) && flag {
            count += 1;
        }
        previous = Some(flag);
    }
    count
}

fn has_positive_measure(stem: &[char]) -> bool {
    measure(stem) > 0
}

fn contains_vowel(stem: &[char]) -> bool {
    consonant_flags(stem).any(|consonant| !consonant)
}

fn ends_double_consonant(word: &[char]) -> bool {
    match word {
        [.., a, b] => a == b && is_consonant(word, word.len() - 1),
        _ => false,
    }
}

/// `_ends_cvc`, with NLTK's extension that a two-letter vowel–consonant word also counts.
fn ends_cvc(word: &[char]) -> bool {
    let n = word.len();
    (n >= 3
        && is_consonant(word, n - 3)
        && !is_consonant(word, n - 2)
        && is_consonant(word, n - 1)
        && word.last().is_some_and(|c| !matches!(c, 'w' | 'x' | 'y')))
        || (n == 2 && !is_consonant(word, 0) && is_consonant(word, 1))
}

/// Whether `word` ends with `suffix`, an ASCII rule suffix.
fn ends_with(word: &[char], suffix: &str) -> bool {
    let suffix = suffix.as_bytes();
    word.len()
        .checked_sub(suffix.len())
        .and_then(|start| word.get(start..))
        .is_some_and(|tail| tail.iter().zip(suffix).all(|(&c, &b)| c == char::from(b)))
}

/// `word` less its last `count` characters (all of it when shorter, as Python slicing).
fn without_last(word: &[char], count: usize) -> &[char] {
    word.get(..word.len().saturating_sub(count))
        .unwrap_or_default()
}

fn joined(stem: &[char], replacement: &str) -> Vec<char> {
    stem.iter().copied().chain(replacement.chars()).collect()
}

/// A rule's condition on the stem left once its suffix is removed.
type Condition<'a> = &'a dyn Fn(&[char]) -> bool;

/// `_apply_rule_list`: the first rule whose suffix ends the word decides, applied or not. The
/// suffix `*d` means "ends in a double consonant" (dropping both), then also its literal self.
fn apply_rules(word: Vec<char>, rules: &[(&str, &str, Option<Condition<'_>>)]) -> Vec<char> {
    for (suffix, replacement, condition) in rules {
        if *suffix == "*d" && ends_double_consonant(&word) {
            let stem = without_last(&word, 2);
            return if condition.is_none_or(|holds| holds(stem)) {
                joined(stem, replacement)
            } else {
                word
            };
        }
        if ends_with(&word, suffix) {
            let stem = without_last(&word, suffix.len());
            return if condition.is_none_or(|holds| holds(stem)) {
                joined(stem, replacement)
            } else {
                word
            };
        }
    }
    word
}

fn step1a(word: Vec<char>) -> Vec<char> {
    if word.len() == 4 && ends_with(&word, "ies") {
        return joined(without_last(&word, 3), "ie");
    }
    apply_rules(
        word,
        &[
            ("sses", "ss", None),
            ("ies", "i", None),
            ("ss", "ss", None),
            ("s", "", None),
        ],
    )
}

fn step1b(word: Vec<char>) -> Vec<char> {
    if ends_with(&word, "ied") {
        let replacement = if word.len() == 4 { "ie" } else { "i" };
        return joined(without_last(&word, 3), replacement);
    }
    if ends_with(&word, "eed") {
        let stem = without_last(&word, 3);
        return if measure(stem) > 0 {
            joined(stem, "ee")
        } else {
            word
        };
    }
    let Some(intermediate) = ["ed", "ing"]
        .into_iter()
        .filter(|suffix| ends_with(&word, suffix))
        .map(|suffix| without_last(&word, suffix.len()))
        .find(|stem| contains_vowel(stem))
    else {
        return word;
    };
    let last = intermediate.last().copied().unwrap_or_default();
    let doubled = last.to_string();
    let keeps_double: &dyn Fn(&[char]) -> bool = &|_| !matches!(last, 'l' | 's' | 'z');
    let adds_e: &dyn Fn(&[char]) -> bool = &|stem| measure(stem) == 1 && ends_cvc(stem);
    apply_rules(
        intermediate.to_vec(),
        &[
            ("at", "ate", None),
            ("bl", "ble", None),
            ("iz", "ize", None),
            ("*d", &doubled, Some(keeps_double)),
            ("", "e", Some(adds_e)),
        ],
    )
}

fn step1c(word: Vec<char>) -> Vec<char> {
    let condition: &dyn Fn(&[char]) -> bool =
        &|stem| stem.len() > 1 && is_consonant(stem, stem.len() - 1);
    apply_rules(word, &[("y", "i", Some(condition))])
}

fn step2(word: Vec<char>) -> Vec<char> {
    if ends_with(&word, "alli") && has_positive_measure(without_last(&word, 4)) {
        return step2(joined(without_last(&word, 4), "al"));
    }
    let positive: Condition<'_> = &has_positive_measure;
    let logi_stem = without_last(&word, 3).to_vec();
    let logi: &dyn Fn(&[char]) -> bool = &|_| has_positive_measure(&logi_stem);
    apply_rules(
        word,
        &[
            ("ational", "ate", Some(positive)),
            ("tional", "tion", Some(positive)),
            ("enci", "ence", Some(positive)),
            ("anci", "ance", Some(positive)),
            ("izer", "ize", Some(positive)),
            ("bli", "ble", Some(positive)),
            ("alli", "al", Some(positive)),
            ("entli", "ent", Some(positive)),
            ("eli", "e", Some(positive)),
            ("ousli", "ous", Some(positive)),
            ("ization", "ize", Some(positive)),
            ("ation", "ate", Some(positive)),
            ("ator", "ate", Some(positive)),
            ("alism", "al", Some(positive)),
            ("iveness", "ive", Some(positive)),
            ("fulness", "ful", Some(positive)),
            ("ousness", "ous", Some(positive)),
            ("aliti", "al", Some(positive)),
            ("iviti", "ive", Some(positive)),
            ("biliti", "ble", Some(positive)),
            ("fulli", "ful", Some(positive)),
            ("logi", "log", Some(logi)),
        ],
    )
}

fn step3(word: Vec<char>) -> Vec<char> {
    let positive: Condition<'_> = &has_positive_measure;
    apply_rules(
        word,
        &[
            ("icate", "ic", Some(positive)),
            ("ative", "", Some(positive)),
            ("alize", "al", Some(positive)),
            ("iciti", "ic", Some(positive)),
            ("ical", "ic", Some(positive)),
            ("ful", "", Some(positive)),
            ("ness", "", Some(positive)),
        ],
    )
}

fn step4(word: Vec<char>) -> Vec<char> {
    let above_one: Condition<'_> = &|stem| measure(stem) > 1;
    let ion: Condition<'_> =
        &|stem| measure(stem) > 1 && stem.last().is_some_and(|c| matches!(c, 's' | 't'));
    apply_rules(
        word,
        &[
            ("al", "", Some(above_one)),
            ("ance", "", Some(above_one)),
            ("ence", "", Some(above_one)),
            ("er", "", Some(above_one)),
            ("ic", "", Some(above_one)),
            ("able", "", Some(above_one)),
            ("ible", "", Some(above_one)),
            ("ant", "", Some(above_one)),
            ("ement", "", Some(above_one)),
            ("ment", "", Some(above_one)),
            ("ent", "", Some(above_one)),
            ("ion", "", Some(ion)),
            ("ou", "", Some(above_one)),
            ("ism", "", Some(above_one)),
            ("ate", "", Some(above_one)),
            ("iti", "", Some(above_one)),
            ("ous", "", Some(above_one)),
            ("ive", "", Some(above_one)),
            ("ize", "", Some(above_one)),
        ],
    )
}

fn step5a(word: Vec<char>) -> Vec<char> {
    if ends_with(&word, "e") {
        let stem = without_last(&word, 1);
        let m = measure(stem);
        if m > 1 || (m == 1 && !ends_cvc(stem)) {
            return stem.to_vec();
        }
    }
    word
}

fn step5b(word: Vec<char>) -> Vec<char> {
    let long_enough = measure(without_last(&word, 1)) > 1;
    let condition: &dyn Fn(&[char]) -> bool = &|_| long_enough;
    apply_rules(word, &[("ll", "l", Some(condition))])
}

#[cfg(test)]
mod tests {
    use super::stem;

    #[test]
    fn follows_the_published_examples() {
        let pairs = [
            ("caresses", "caress"),
            ("ponies", "poni"),
            ("ties", "tie"),
            ("cats", "cat"),
            ("feed", "feed"),
            ("agreed", "agre"),
            ("plastered", "plaster"),
            ("motoring", "motor"),
            ("hopping", "hop"),
            ("falling", "fall"),
            ("filing", "file"),
            ("happy", "happi"),
            ("relational", "relat"),
            ("generalization", "gener"),
            ("electricity", "electr"),
            ("controlling", "control"),
            ("dying", "die"),
            ("Skies", "sky"),
            ("is", "is"),
        ];
        for (word, expected) in pairs {
            assert_eq!(stem(word), expected, "{word}");
        }
    }

    #[test]
    fn never_panics_on_odd_words() {
        for word in [
            "", "y", "yy", "*d", "a*ding", "ied", "eed", "éées", "İİİ", "ll", "ings",
        ] {
            let _ = stem(word);
        }
    }
}

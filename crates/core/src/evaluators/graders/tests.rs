use super::*;
use crate::evaluators::{bleu, gleu, rouge};
use crate::json;
use crate::json::Map;
use crate::outcome::Verdict;

fn object(value: Value) -> Map<String, Value> {
    value.as_object().cloned().unwrap_or_default()
}

fn grader(definition: Value) -> Result<Box<dyn Evaluator>, ConfigError> {
    let fields = object(definition);
    let kind = fields
        .get("type")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_owned();
    match build(&kind, "grader", Options::new(&fields)) {
        Some((_, built)) => built,
        None => panic!("{kind} is not a grader type"),
    }
}

fn string_check(operation: &str, input: &str, reference: &str) -> Value {
    json!({"type": "string_check", "name": "check", "input": input, "reference": reference,
           "operation": operation})
}

fn similarity(metric: &str, threshold: f64) -> Value {
    json!({"type": "text_similarity", "name": "similar", "input": "{{sample.output_text}}",
           "reference": "{{item.label}}", "evaluation_metric": metric,
           "pass_threshold": threshold})
}

/// Scores `row` (its `response` is the sample's output) with `definition`.
fn score(definition: Value, row: Value) -> EvalResult {
    let fields = object(row);
    let evaluator = match grader(definition) {
        Ok(evaluator) => evaluator,
        Err(error) => panic!("{}", error.message),
    };
    let mut inputs = Inputs::new();
    if let Some(response) = fields.get("response") {
        inputs.set("response", response);
    }
    inputs.set_fields(&fields);
    evaluator.evaluate(&inputs)
}

fn configuration_error(definition: Value) -> String {
    match grader(definition) {
        Ok(_) => panic!("the definition was accepted"),
        Err(error) => error.message,
    }
}

fn check(operation: &str, response: &str, label: &str) -> (Verdict, Option<f64>) {
    let result = score(
        string_check(operation, "{{sample.output_text}}", "{{item.label}}"),
        json!({"response": response, "label": label}),
    );
    (result.result, result.score)
}

#[test]
fn string_check_operations() {
    let pass = (Verdict::Pass, Some(1.0));
    let fail = (Verdict::Fail, Some(0.0));
    assert_eq!(check("eq", "Paris", "Paris"), pass);
    assert_eq!(check("eq", "Paris", "paris"), fail);
    assert_eq!(check("eq", "Paris ", "Paris"), fail);
    assert_eq!(check("ne", "Paris", "paris"), pass);
    assert_eq!(check("ne", "Paris", "Paris"), fail);
    assert_eq!(check("like", "The capital is Paris.", "Paris"), pass);
    assert_eq!(check("like", "The capital is PARIS.", "Paris"), fail);
    assert_eq!(check("ilike", "The capital is PARIS.", "paris"), pass);
    assert_eq!(check("ilike", "The capital is Lyon.", "paris"), fail);
}

#[test]
fn string_check_edge_cases() {
    let pass = (Verdict::Pass, Some(1.0));
    let fail = (Verdict::Fail, Some(0.0));
    assert_eq!(check("eq", "", ""), pass);
    assert_eq!(check("like", "anything", ""), pass);
    assert_eq!(check("like", "", "x"), fail);
    assert_eq!(check("ilike", "", ""), pass);
    // `%` and `_` are literal characters, not SQL wildcards.
    assert_eq!(check("like", "50% off", "50%"), pass);
    assert_eq!(check("like", "abc", "a%c"), fail);
    assert_eq!(check("like", "abc", "a_c"), fail);
    // Python's `str.lower`: `İ` lowers to `i̇` (two code points), `Σ` to `σ`.
    assert_eq!(check("ilike", "ΟΔΥΣΣΕΥΣ", "οδυσσ"), pass);
    assert_eq!(check("ilike", "İstanbul", "i\u{307}stanbul"), pass);
    assert_eq!(check("eq", "café", "cafe\u{301}"), fail);
}

#[test]
fn templates_mix_literal_text_dotted_paths_and_json_values() {
    let definition = string_check(
        "eq",
        "answer: {{sample.output_text}}",
        "answer: {{ item.expected.text }} ({{item.count}})",
    );
    let row = json!({"response": "42 (7)", "expected": {"text": "42"}, "count": 7});
    assert_eq!(score(definition.clone(), row).result, Verdict::Pass);
    let listed = string_check("eq", "{{item.tags}}", "[\"a\",1]");
    assert_eq!(
        score(listed, json!({"tags": ["a", 1]})).result,
        Verdict::Pass
    );
    let indexed = string_check("eq", "{{item.tags.1}}", "b");
    assert_eq!(
        score(indexed, json!({"tags": ["a", "b"]})).result,
        Verdict::Pass
    );
    let literal = string_check("like", "no placeholders here", "placeholders");
    assert_eq!(score(literal, json!({})).result, Verdict::Pass);
    let named = string_check("eq", "{{ground_truth}}", "{{item.ground_truth}}");
    assert_eq!(
        score(named, json!({"ground_truth": "x"})).result,
        Verdict::Pass
    );
}

#[test]
fn missing_data_is_an_error_naming_the_placeholder() {
    let result = score(
        string_check("eq", "{{sample.output_text}}", "{{item.label}}"),
        json!({"response": "x"}),
    );
    assert_eq!(result.result, Verdict::Error);
    let error = result.error.unwrap_or_else(|| panic!("no error"));
    assert_eq!(error.code, ErrorCode::EvaluatorConfigurationError);
    assert!(
        error.message.contains("{{item.label}}"),
        "{}",
        error.message
    );
    assert!(error.message.contains("`reference`"), "{}", error.message);

    let nulled = score(
        similarity("fuzzy_match", 0.5),
        json!({"response": "x", "label": null}),
    );
    assert_eq!(nulled.result, Verdict::Error);

    let result = score(
        string_check("eq", "{{sample.output_text}}", "x"),
        json!({"label": "x"}),
    );
    let error = result.error.unwrap_or_else(|| panic!("no error"));
    assert_eq!(error.code, ErrorCode::EmptyAgentResponse);
    assert!(error.message.contains("`input`"), "{}", error.message);
}

#[test]
fn bad_definitions_name_their_key() {
    let message = configuration_error(string_check("contains", "a", "b"));
    assert!(message.contains("`operation`"), "{message}");
    assert!(message.contains("\"contains\""), "{message}");

    let mut missing = string_check("eq", "a", "b");
    if let Some(fields) = missing.as_object_mut() {
        fields.shift_remove("operation");
    }
    assert!(configuration_error(missing).contains("`operation`"));

    let mut no_reference = string_check("eq", "a", "b");
    if let Some(fields) = no_reference.as_object_mut() {
        fields.shift_remove("reference");
    }
    assert!(configuration_error(no_reference).contains("`reference`"));

    let message = configuration_error(string_check("eq", "{{sample.output_text", "b"));
    assert!(message.starts_with("/input:"), "{message}");
    let message = configuration_error(string_check("eq", "a", "{{item.}}"));
    assert!(message.starts_with("/reference:"), "{message}");

    let mut extra = string_check("eq", "a", "b");
    if let Some(fields) = extra.as_object_mut() {
        fields.insert("pass_threshold".into(), json!(0.5));
    }
    assert!(configuration_error(extra).contains("`pass_threshold`"));

    let message = configuration_error(similarity("levenshtein", 0.5));
    assert!(message.contains("`evaluation_metric`"), "{message}");
    assert!(configuration_error(similarity("rouge_6", 0.5)).contains("`evaluation_metric`"));
    assert!(configuration_error(similarity("rouge_0", 0.5)).contains("`evaluation_metric`"));

    for threshold in [json!(-0.1), json!(1.5), json!("0.5"), json!(true)] {
        let mut definition = similarity("bleu", 0.5);
        if let Some(fields) = definition.as_object_mut() {
            fields.insert("pass_threshold".into(), threshold.clone());
        }
        let message = configuration_error(definition);
        assert!(
            message.contains("`pass_threshold`"),
            "{threshold}: {message}"
        );
    }
    let mut unset = similarity("bleu", 0.5);
    if let Some(fields) = unset.as_object_mut() {
        fields.shift_remove("pass_threshold");
    }
    assert!(configuration_error(unset).contains("`pass_threshold`"));
}

/// A row whose response is `input` and whose `label` is `reference`.
fn row(input: &str, reference: &str) -> Value {
    json!({"response": input, "label": reference})
}

#[test]
fn fuzzy_match_is_rapidfuzz_ratio() {
    // rapidfuzz 3.14 `fuzz.ratio(a, b) / 100`, printed with `repr`.
    let cases = [
        ("kitten", "sitting", 0.6153846153846154),
        ("hello world", "hello word", 0.9523809523809522),
        ("Paris", "paris", 0.8),
        ("", "abc", 0.0),
        ("", "", 1.0),
        ("naïve café", "naive cafe", 0.8),
        ("😀 smile", "smile 😀", 0.7142857142857143),
        (
            "The quick brown fox jumps over the lazy dog",
            "A quick brown dog jumps over the lazy fox",
            0.8571428571428572,
        ),
    ];
    for (input, reference, expected) in cases {
        assert_eq!(
            fuzzy::ratio(input, reference),
            Ok(expected),
            "{input:?} / {reference:?}"
        );
    }
    let long_a = format!("{}{}", "a".repeat(70), "b".repeat(70));
    let long_b = format!("{}{}", "b".repeat(70), "a".repeat(70));
    assert_eq!(fuzzy::ratio(&long_a, &long_b), Ok(0.5));

    let result = score(similarity("fuzzy_match", 0.8), row("Paris", "paris"));
    assert_eq!((result.result, result.score), (Verdict::Pass, Some(0.8)));
    let result = score(similarity("fuzzy_match", 0.81), row("Paris", "paris"));
    assert_eq!(
        (result.result, result.threshold),
        (Verdict::Fail, Some(0.81))
    );
}

/// The textbook LCS table, the oracle of the bit-parallel one.
fn lcs_by_table(a: &[char], b: &[char]) -> usize {
    let mut previous = vec![0usize; b.len() + 1];
    for x in a {
        let mut current = vec![0usize; b.len() + 1];
        for (j, y) in b.iter().enumerate() {
            current[j + 1] = if x == y {
                previous[j] + 1
            } else {
                previous[j + 1].max(current[j])
            };
        }
        previous = current;
    }
    previous[b.len()]
}

#[test]
fn bit_parallel_lcs_matches_the_table_across_word_boundaries() {
    let mut rng = crate::test_rng::XorShift::new(30);
    for round in 0..300 {
        let alphabet: Vec<char> = "abcdé😀 ".chars().take(2 + round % 6).collect();
        let mut text = |length: usize| -> Vec<char> {
            (0..length)
                .map(|_| alphabet[rng.below(alphabet.len())])
                .collect()
        };
        let a = text(round % 200);
        let b = text((round * 7) % 150);
        assert_eq!(
            fuzzy::lcs_length(&a, &b),
            lcs_by_table(&a, &b),
            "{a:?} / {b:?}"
        );
    }
}

#[test]
fn fuzzy_match_refuses_texts_too_long_to_compare() {
    let long = "x".repeat(300_000);
    let result = score(similarity("fuzzy_match", 0.5), row(&long, &long));
    assert_eq!(result.result, Verdict::Error);
    let message = result.error.map(|error| error.message).unwrap_or_default();
    assert!(message.contains("too long"), "{message}");
}

const TEXTS: [(&str, &str); 5] = [
    ("The cat sat on the mat.", "The cat is sitting on the mat."),
    (
        "Paris is the capital of France.",
        "The capital of France is Paris.",
    ),
    ("", "anything"),
    (
        "naïve café résumé, s'il vous plaît.",
        "naïve cafe résumé, please.",
    ),
    ("a b c d e f g", "a b c d e f g"),
];

/// The score of the built-in evaluator `spec` with `options` on (response, ground truth).
fn built_in(
    spec: &EvaluatorSpec,
    options: Value,
    response: &str,
    ground_truth: &str,
) -> Option<f64> {
    let options = object(options);
    let evaluator = (spec.build)("built-in", Options::new(&options)).ok()?;
    let response = json!(response);
    let ground_truth = json!(ground_truth);
    let inputs = Inputs::new()
        .with("response", &response)
        .with("ground_truth", &ground_truth);
    evaluator.evaluate(&inputs).score
}

#[test]
fn bleu_gleu_and_rouge_metrics_are_the_built_in_evaluators() {
    for (input, reference) in TEXTS {
        let grade = |metric: &str| score(similarity(metric, 0.5), row(input, reference)).score;
        assert_eq!(
            grade("bleu"),
            built_in(&bleu::SPEC, json!({}), input, reference),
            "bleu {input:?}"
        );
        assert_eq!(
            grade("gleu"),
            built_in(&gleu::SPEC, json!({}), input, reference),
            "gleu {input:?}"
        );
        for n in 1..=5 {
            assert_eq!(
                grade(&format!("rouge_{n}")),
                built_in(
                    &rouge::SPEC,
                    json!({"rouge_type": format!("rouge{n}")}),
                    input,
                    reference
                ),
                "rouge_{n} {input:?}"
            );
        }
        assert_eq!(
            grade("rouge_l"),
            built_in(
                &rouge::SPEC,
                json!({"rouge_type": "rougeL"}),
                input,
                reference
            ),
            "rouge_l {input:?}"
        );
    }
}

#[test]
fn similarity_metrics_by_hand() {
    let grade = |metric: &str, input: &str, reference: &str| {
        score(similarity(metric, 0.5), row(input, reference)).score
    };
    // Unigrams: 6 of 6 shared, in another order; bigrams: "capital of", "of france",
    // "the capital" (3 of 5 each side, "." and "paris" break the others).
    assert_eq!(
        grade(
            "rouge_1",
            "Paris is the capital of France.",
            "The capital of France is Paris."
        ),
        Some(1.0)
    );
    assert_eq!(
        grade(
            "rouge_2",
            "Paris is the capital of France.",
            "The capital of France is Paris."
        ),
        Some(0.6)
    );
    // LCS "the capital of france" / "capital of france is": 4 of 6 tokens.
    assert_eq!(
        grade(
            "rouge_l",
            "Paris is the capital of France.",
            "The capital of France is Paris."
        ),
        Some(2.0 * (4.0 / 6.0) * (4.0 / 6.0) / (4.0 / 6.0 + 4.0 / 6.0))
    );
    assert_eq!(grade("bleu", "a b c d e f g", "a b c d e f g"), Some(1.0));
    assert_eq!(grade("gleu", "a b c d e f g", "a b c d e f g"), Some(1.0));
    assert_eq!(grade("gleu", "", ""), Some(0.0));
    assert_eq!(grade("rouge_1", "", ""), Some(0.0));
}

#[test]
fn meteor_is_the_built_in_evaluator_and_cosine_is_skipped() {
    // The library's unit tests never install WordNet: both refuse the same way.
    let meteor = score(similarity("meteor", 0.5), row("a", "a"));
    assert_eq!(meteor.result, Verdict::Error);
    let built_in = {
        let options = Map::new();
        let evaluator = (crate::evaluators::meteor::SPEC.build)("meteor", Options::new(&options));
        let (response, ground_truth) = (json!("a"), json!("a"));
        let inputs = Inputs::new()
            .with("response", &response)
            .with("ground_truth", &ground_truth);
        evaluator.map(|evaluator| evaluator.evaluate(&inputs).error)
    };
    assert_eq!(meteor.error, built_in.ok().flatten());
    assert_eq!(
        meteor.error.map(|error| error.code),
        Some(ErrorCode::EvaluatorLoadError)
    );

    let cosine = score(similarity("cosine", 0.5), row("a", "a"));
    assert_eq!(cosine.result, Verdict::Skipped);
    assert_eq!(
        cosine.reason.as_deref(),
        Some(text_similarity::COSINE_SKIPPED)
    );
    assert_eq!(cosine.threshold, Some(0.5));
}

#[test]
fn only_grader_types_build() {
    let fields = Map::new();
    assert!(build("score_model", "x", Options::new(&fields)).is_none());
    for kind in crate::evaluators::GRADER_TYPES {
        assert!(build(kind, "x", Options::new(&fields)).is_some(), "{kind}");
    }
}

#[test]
fn with_a_judge_cosine_asks_for_the_two_texts_embeddings() {
    let fields = object(json!({"response": "  Paris  ", "label": "paris"}));
    let mut inputs = Inputs::new();
    if let Some(response) = fields.get("response") {
        inputs.set("response", response);
    }
    inputs.set_fields(&fields);
    let cosine =
        grader(similarity("cosine", 0.7)).unwrap_or_else(|error| panic!("{}", error.message));
    let call = match cosine.judge(&inputs) {
        Some(Ok(call)) => call,
        _ => panic!("no embeddings call"),
    };
    assert_eq!(call.label, "grader");
    assert_eq!(call.request.operation, crate::judge::Operation::Embeddings);
    let texts: Vec<&str> = call
        .request
        .messages
        .iter()
        .map(|message| message.content.as_str())
        .collect();
    assert_eq!(texts, ["Paris", "paris"]);
    assert_eq!(call.reading.threshold, 0.7);

    let missing = object(json!({"response": "Paris"}));
    let mut inputs = Inputs::new();
    inputs.set_fields(&missing);
    assert!(matches!(cosine.judge(&inputs), Some(Err(_))));

    let fuzzy =
        grader(similarity("fuzzy_match", 0.7)).unwrap_or_else(|error| panic!("{}", error.message));
    assert!(
        fuzzy.judge(&inputs).is_none(),
        "other metrics need no judge"
    );
}

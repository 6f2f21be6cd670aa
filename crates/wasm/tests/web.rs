//! The binding inside a JavaScript engine (`wasm-bindgen-test`, run by `cargo xtask test` in Node
//! and in headless Chromium): the exports' values, their errors, the streaming run, how the
//! allocator grows the module's memory, and the scored document's bytes as the module writes them.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]
#![cfg(target_arch = "wasm32")]

use agenteval_core::json;
use agenteval_core::json::Value;
use agenteval_wasm::catalog::list_evaluators;
use agenteval_wasm::memory::{self, MAX_STEP_PAGES};
use agenteval_wasm::render::render_report;
use agenteval_wasm::run::{evaluate_dataset, score_dataset, score_item};
use agenteval_wasm::validate::validate_dataset;
use js_sys::{Array, Function, Object, Reflect};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use wasm_bindgen_test::wasm_bindgen_test;

const DOCUMENT: &str = include_str!("../../../examples/m365-demo.json");

fn to_json(value: &JsValue) -> Value {
    let text = agenteval_wasm::boundary::json_text(value).expect("a JSON-compatible value");
    serde_json::from_str(&text).expect("JSON")
}

fn get(value: &JsValue, key: &str) -> JsValue {
    Reflect::get(value, &key.into()).expect("readable")
}

fn options(entries: &[(&str, JsValue)]) -> Object {
    let object = Object::new();
    for (key, value) in entries {
        Reflect::set(&object, &(*key).into(), value).expect("writable");
    }
    object
}

fn code_of(error: &JsValue) -> String {
    assert!(error.is_instance_of::<js_sys::Error>(), "a real Error");
    get(error, "code").as_string().expect("a code")
}

#[wasm_bindgen_test]
fn evaluators_lists_the_catalog_as_plain_objects() {
    let list = to_json(&list_evaluators().expect("listed"));
    let names: Vec<&str> = list
        .as_array()
        .expect("an array")
        .iter()
        .filter_map(|info| info["name"].as_str())
        .collect();
    assert!(names.contains(&"PartialMatch") && names.contains(&"builtin.f1_score"));
    let partial = list
        .as_array()
        .and_then(|all| all.iter().find(|info| info["name"] == "PartialMatch"))
        .expect("PartialMatch");
    assert_eq!(partial["kind"], json!("deterministic"));
    assert!(partial["passRule"].is_string());
}

#[wasm_bindgen_test]
fn validate_returns_problems_instead_of_throwing() {
    let valid = to_json(&validate_dataset(DOCUMENT.into(), None).expect("validated"));
    assert_eq!(valid["valid"], json!(true));
    assert_eq!(valid["dialect"], json!("m365"));
    let broken = to_json(&validate_dataset("{\"items\": [".into(), None).expect("validated"));
    assert_eq!(broken["valid"], json!(false));
    assert_eq!(broken["dialect"], Value::Null);
    assert_eq!(
        broken["diagnostics"][0]["location"]["kind"],
        json!("lineColumn")
    );
}

#[wasm_bindgen_test]
fn misuse_throws_errors_with_a_code_naming_the_field() {
    let error = validate_dataset(JsValue::UNDEFINED, None).expect_err("refused");
    assert_eq!(code_of(&error), "invalidArgument");
    let message = get(&error, "message").as_string().unwrap_or_default();
    assert!(message.starts_with("dataset: "), "{message}");

    let typo = options(&[("confg", JsValue::NULL)]);
    let error =
        validate_dataset(DOCUMENT.into(), Some(typo.unchecked_into())).expect_err("refused");
    assert_eq!(code_of(&error), "invalidArgument");
    assert!(get(&error, "message")
        .as_string()
        .unwrap_or_default()
        .starts_with("options.confg: unknown option"));
}

#[wasm_bindgen_test]
async fn score_streams_every_entry_then_resolves_to_the_report() {
    let seen = Array::new();
    let on_result = Function::new_with_args("outcome", "this.push(outcome.index)").bind0(&seen);
    let run = options(&[("onResult", on_result.into())]);
    let report = JsFuture::from(score_dataset(DOCUMENT.into(), Some(run.unchecked_into())))
        .await
        .expect("scored");
    let report = to_json(&report);
    let items = report["items"].as_array().expect("items");
    assert_eq!(seen.length() as usize, items.len());
    assert_eq!(report["summary"]["items"], json!(items.len()));
    assert_eq!(report["dialect"], json!("m365"));
}

#[wasm_bindgen_test]
async fn an_unusable_dataset_rejects_with_a_coded_error() {
    let error = JsFuture::from(score_dataset("[1, 2".into(), None))
        .await
        .expect_err("rejected");
    assert_eq!(code_of(&error), "invalidDataset");
    assert!(Array::is_array(&get(&error, "diagnostics")));
}

#[wasm_bindgen_test]
async fn custom_evaluators_results_are_validated_like_any_other() {
    let custom = options(&[
        (
            "good",
            Function::new_with_args("input", "return input.response.length > 3").into(),
        ),
        ("bad", Function::new_no_args("return 'yes'").into()),
        (
            "thrower",
            Function::new_no_args("throw new Error('boom')").into(),
        ),
    ]);
    let item = agenteval_wasm::boundary::to_js(&json!({"prompt": "p", "response": "hello"}))
        .expect("item");
    let selection: JsValue = Array::of3(&"good".into(), &"bad".into(), &"thrower".into()).into();
    let outcome = JsFuture::from(score_item(
        item,
        selection,
        Some(options(&[("custom", custom.into())]).unchecked_into()),
    ))
    .await
    .expect("scored");
    let outcome = to_json(&outcome);
    let results = outcome["results"].as_array().expect("results");
    assert_eq!(results[0]["result"], json!("pass"));
    assert_eq!(results[1]["error"]["code"], json!("invalidEvaluatorResult"));
    assert_eq!(results[2]["error"]["code"], json!("evaluatorError"));
    assert_eq!(outcome["status"], json!("partial"));
}

#[wasm_bindgen_test]
async fn render_writes_each_format_from_a_report_that_went_through_javascript() {
    let report = JsFuture::from(score_dataset(DOCUMENT.into(), None))
        .await
        .expect("scored");
    let markdown = render_report(report.clone(), "md".into(), None).expect("rendered");
    assert!(markdown.starts_with("# agenteval"), "{markdown}");
    let document = render_report(
        report.clone(),
        "document".into(),
        Some(options(&[("dataset", DOCUMENT.into())]).unchecked_into()),
    )
    .expect("rendered");
    let document: Value = serde_json::from_str(&document).expect("JSON");
    assert_eq!(document["schemaVersion"], json!("1.11.0"));
    let error = render_report(report, "pdf".into(), None).expect_err("refused");
    assert_eq!(code_of(&error), "invalidArgument");
}

#[wasm_bindgen_test]
async fn evaluate_resolves_to_an_evaluation_that_renders_every_format() {
    let evaluation = JsFuture::from(evaluate_dataset(DOCUMENT.into(), None))
        .await
        .expect("evaluated");
    let method = |name: &str| get(&evaluation, name).unchecked_into::<Function>();
    let report = to_json(&get(&evaluation, "report"));
    assert_eq!(report["dialect"], json!("m365"));
    let markdown = method("render")
        .call1(&evaluation, &"md".into())
        .expect("rendered");
    assert!(markdown
        .as_string()
        .unwrap_or_default()
        .starts_with("# agenteval"));
    let document = method("render")
        .call1(&evaluation, &"document".into())
        .expect("rendered")
        .as_string()
        .unwrap_or_default();
    let document: Value = serde_json::from_str(&document).expect("JSON");
    assert_eq!(
        document["items"].as_array().map(Vec::len),
        serde_json::from_str::<Value>(DOCUMENT)
            .expect("JSON")
            .get("items")
            .and_then(Value::as_array)
            .map(Vec::len)
    );
    let error = method("render")
        .call1(&evaluation, &"foundry".into())
        .expect_err("refused");
    assert_eq!(code_of(&error), "invalidArgument");
    method("free").call0(&evaluation).expect("freed");
}

/// 150 000 small allocations (about 160 MB) grow the memory a few dozen times, not once per
/// 64 KiB page as Talc's own source would (about 2 500 times), and the memory stays within a
/// quarter (at most one step) of what the heap needs.
#[wasm_bindgen_test]
fn the_memory_grows_in_steps_that_grow_with_it() {
    const BLOCKS: usize = 150_000;
    const BLOCK_BYTES: usize = 1024;
    let pages_before = std::arch::wasm32::memory_size::<0>();
    let growths_before = memory::growths();
    let blocks: Vec<Box<[u8; BLOCK_BYTES]>> =
        (0..BLOCKS).map(|_| Box::new([1; BLOCK_BYTES])).collect();
    let grown_pages = std::arch::wasm32::memory_size::<0>() - pages_before;
    let growths = memory::growths() - growths_before;
    let needed_pages = BLOCKS * BLOCK_BYTES / (64 * 1024);
    assert!(blocks.iter().all(|block| block[BLOCK_BYTES - 1] == 1));
    assert!(grown_pages > needed_pages / 2, "grew {grown_pages} pages");
    assert!(
        growths > 0 && growths <= 40,
        "{growths} growths for {grown_pages} pages"
    );
    assert!(
        grown_pages <= needed_pages * 5 / 4 + MAX_STEP_PAGES,
        "grew {grown_pages} pages for about {needed_pages}"
    );
}

#[wasm_bindgen_test]
fn strings_reach_the_module_as_their_utf8_whatever_their_share_of_non_ascii() {
    let texts = [
        String::new(),
        "plain ascii".repeat(1000),
        format!("{}é", "a".repeat(5000)),
        "ä ß ΑΣ 中文 😀 ok ".repeat(500),
        "中".repeat(20_000),
        "😀".repeat(7),
    ];
    for text in texts {
        let source = agenteval_wasm::convert::dataset_source(&JsValue::from_str(&text), "dataset");
        assert_eq!(
            source,
            Ok(agenteval_wasm::convert::Source::Bytes(
                text.clone().into_bytes()
            )),
            "{} bytes",
            text.len()
        );
    }
    let lone_surrogates = js_sys::JsString::from_char_code(&[0x61, 0xD800, 0x62, 0xDC00]);
    assert_eq!(
        agenteval_wasm::convert::dataset_source(&lone_surrogates.into(), "dataset"),
        Ok(agenteval_wasm::convert::Source::Bytes(
            "a\u{FFFD}b\u{FFFD}".as_bytes().to_vec()
        ))
    );
}

/// The scored document written inside WebAssembly, where short strings, indentation and numbers
/// are copied in windows of a constant size, is byte for byte what serde_json writes: strings
/// and keys of every length up to past the longest copied in windows, ASCII and not, nesting
/// deeper than one copy of indentation covers, and numbers of every kind.
#[wasm_bindgen_test]
fn scored_documents_are_written_as_serde_json_writes_them_whatever_the_lengths_of_strings() {
    let ascii: Vec<String> = (0..=300)
        .map(|length| (b'a'..=b'z').cycle().take(length).map(char::from).collect())
        .collect();
    let other: Vec<String> = (0..=100)
        .map(|count| "é中😀x".chars().cycle().take(count).collect())
        .collect();
    let keys: Vec<serde_json::Map<String, serde_json::Value>> = (0..4)
        .map(|group| {
            (group * 35 + 1..=group * 35 + 35)
                .map(|length| ("k".repeat(length), serde_json::Value::from(length)))
                .collect()
        })
        .collect();
    let deep = (0..40).fold(
        serde_json::json!(["bottom", 1.5]),
        |inner, depth| serde_json::json!({ "level": depth, "next": [inner] }),
    );
    let extensions = serde_json::json!({
        "ascii": ascii,
        "other": other,
        "keys": keys,
        "deep": deep,
        "numbers": [0, -1, 7, 1.5, 0.1, 1e300, -2.5e-8, 5e-324, u64::MAX, i64::MIN, -0.0, 1.0, -3.0, 1e15, 1e16],
    });
    let items: Vec<serde_json::Value> = ascii
        .iter()
        .skip(1)
        .step_by(7)
        .zip(other.iter().skip(1).cycle())
        .map(|(prompt, response)| {
            serde_json::json!({
                "prompt": prompt,
                "response": response,
                "expected_response": prompt,
                "extensions": extensions,
            })
        })
        .collect();
    let document = serde_json::json!({
        "schemaVersion": "1.11.0",
        "default_evaluators": { "ExactMatch": {} },
        "items": items,
    });
    let text = serde_json::to_string(&document).expect("JSON");
    let outline = agenteval_core::dataset::m365::DocumentOutline::read(&text).expect("streamed");
    let options = agenteval_core::scored::m365_document::DocumentOptions {
        evaluated_at: Some("2026-12-01T12:00:00Z".to_owned()),
    };
    let mut written = Vec::new();
    agenteval_core::stream::write_scored(&text, outline, &options, &mut written).expect("written");
    let Ok(written) = String::from_utf8(written) else {
        panic!("the scored document is not UTF-8");
    };
    let parsed: serde_json::Value = serde_json::from_str(&written).expect("JSON");
    assert_eq!(
        serde_json::to_string_pretty(&parsed).expect("JSON"),
        written
    );
    let scored = parsed["items"].as_array().expect("items");
    assert_eq!(scored.len(), items.len());
    for (scored, item) in scored.iter().zip(&items) {
        assert_eq!(scored["extensions"], item["extensions"]);
        assert_eq!(scored["prompt"], item["prompt"]);
        assert_eq!(scored["response"], item["response"]);
    }
}

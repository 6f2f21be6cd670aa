//! Criterion benchmarks: every deterministic evaluator alone on a typical input, and the
//! 100 000-item M365 document scored end to end (parse, validate, score, write the document):
//! into memory, as a caller holding the output would, and into a sink that only counts the bytes,
//! as the CLI streams it into a file or a pipe without holding it.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

#[path = "../../cli/src/allocator.rs"]
mod allocator;
mod support;

use std::hint::black_box;
use std::io::{self, Write};

use agenteval_core::dataset::m365::DocumentOutline;
use agenteval_core::dataset::{self, Dataset};
use agenteval_core::json;
use agenteval_core::json::{Map, Value};
use agenteval_core::scored::m365_document::{self, DocumentOptions};
use agenteval_core::{engine, evaluators, stream, Inputs, Options};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};

/// The allocator the shipped `agenteval` binary uses, so the figures are the CLI's.
#[global_allocator]
static ALLOCATOR: allocator::Allocator = allocator::allocator();

/// A writer that keeps only the number of bytes given to it.
#[derive(Default)]
struct CountingSink {
    written: usize,
}

impl Write for CountingSink {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        self.written += bytes.len();
        Ok(bytes.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

fn object(value: Value) -> Map<String, Value> {
    match value {
        Value::Object(map) => map,
        _ => Map::new(),
    }
}

fn evaluator_cases() -> Vec<(&'static str, Value, Value)> {
    let document = support::m365_document(1);
    let item = serde_json::from_str::<Value>(&document)
        .ok()
        .and_then(|document| document["items"].get(0).cloned())
        .unwrap_or(Value::Null);
    let response = item["response"].clone();
    let expected = item["expected_response"].clone();
    let diagnostics = item["diagnostics"].clone();
    let f1 = support::f1_inputs(1).remove(0);
    let navigation = support::navigation_inputs(1).remove(0);
    vec![
        (
            "ExactMatch",
            json!({}),
            json!({"response": response, "expected_response": expected}),
        ),
        (
            "PartialMatch",
            json!({}),
            json!({"response": response, "expected_response": expected}),
        ),
        (
            "Citations",
            json!({"citation_format": "mixed"}),
            json!({"response": response}),
        ),
        (
            "KeywordMatch",
            json!({"keywords": ["policy", "travel"]}),
            json!({"response": response}),
        ),
        (
            "RetrievalQuery",
            json!({"capability": "OneDriveAndSharePoint", "selector": "policy", "includes": ["contoso"]}),
            json!({"diagnostics": diagnostics}),
        ),
        (
            "RetrievalResult",
            json!({"capability": "OneDriveAndSharePoint", "expected_items": [{"retrievalExtract_contains": "travel"}]}),
            json!({"diagnostics": diagnostics}),
        ),
        (
            "ToolCallSelection",
            json!({"calls": [{"tool": {"plugin_name": "hr", "function_name": "lookup"}}]}),
            json!({"diagnostics": {"tool_calls": {"selected_functions": [{"plugin_name": "hr", "function_name": "lookup"}], "executions": [{"plugin_name": "hr", "function_name": "lookup", "response_status": 200}]}}}),
        ),
        (
            "ToolCallExecution",
            json!({"calls": [{"tool": {"plugin_name": "hr", "function_name": "lookup"}}]}),
            json!({"diagnostics": {"tool_calls": {"selected_functions": [{"plugin_name": "hr", "function_name": "lookup"}], "executions": [{"plugin_name": "hr", "function_name": "lookup", "response_status": 200}]}}}),
        ),
        ("builtin.f1_score", json!({}), f1.clone()),
        ("builtin.bleu_score", json!({}), f1.clone()),
        ("builtin.gleu_score", json!({}), f1.clone()),
        ("builtin.meteor_score", json!({}), f1.clone()),
        ("builtin.rouge_score", json!({"rouge_type": "rougeL"}), f1),
        (
            "builtin.task_navigation_efficiency",
            json!({"matching_mode": "in_order_match"}),
            navigation,
        ),
        (
            "builtin.document_retrieval",
            json!({}),
            json!({
                "retrieval_ground_truth": (0..10).map(|i| json!({"document_id": format!("d{i}"), "query_relevance_label": i % 5})).collect::<Vec<_>>(),
                "retrieved_documents": (0..10).map(|i| json!({"document_id": format!("d{}", (i * 3) % 12), "relevance_score": 10.0 - f64::from(i)})).collect::<Vec<_>>()
            }),
        ),
    ]
}

/// METEOR's WordNet table, installed as the CLI installs it.
fn install_wordnet() {
    use std::io::Read;
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/data/wordnet-meteor.bin.gz");
    let Ok(compressed) = std::fs::read(path) else {
        return;
    };
    let mut raw = Vec::new();
    if flate2::read::GzDecoder::new(compressed.as_slice())
        .read_to_end(&mut raw)
        .is_ok()
    {
        let _ = agenteval_core::wordnet::install(raw);
    }
}

fn each_evaluator(c: &mut Criterion) {
    install_wordnet();
    let mut group = c.benchmark_group("evaluator");
    for (name, options, inputs) in evaluator_cases() {
        let Some(spec) = evaluators::find(name) else {
            continue;
        };
        let options = object(options);
        let Ok(evaluator) = (spec.build)(name, Options::new(&options)) else {
            continue;
        };
        let fields = object(inputs);
        let mut inputs = Inputs::new();
        for (key, value) in &fields {
            inputs.set(key, value);
        }
        group.bench_function(name, |b| {
            b.iter(|| black_box(evaluator.evaluate(black_box(&inputs))))
        });
    }
    group.finish();
}

/// Scores `text` item by item into `out`, as `agenteval score` does; whether it was written.
fn stream_scored(text: &str, out: &mut dyn Write) -> bool {
    DocumentOutline::read(text).is_some_and(|outline| {
        stream::write_scored(text, outline, &DocumentOptions::default(), out).is_ok()
    })
}

fn end_to_end(c: &mut Criterion) {
    const ITEMS: usize = 100_000;
    let text = support::m365_document(ITEMS);
    let mut group = c.benchmark_group("document_100k");
    group.sample_size(10);
    group.throughput(Throughput::Elements(ITEMS as u64));
    group.bench_function("parse", |b| {
        b.iter(|| agenteval_core::json::parse(black_box(text.as_bytes())).is_ok())
    });
    group.bench_function("serde_json_parse_baseline", |b| {
        b.iter(|| serde_json::from_str::<Value>(black_box(&text)).is_ok())
    });
    if let Ok(document) = agenteval_core::json::parse(text.as_bytes()) {
        group.bench_function("schema_validate", |b| {
            b.iter(|| agenteval_core::schema::validate(black_box(&document)).len())
        });
    }
    group.bench_function("stream_score_write", |b| {
        b.iter(|| {
            let mut written = Vec::new();
            stream_scored(black_box(&text), &mut written).then_some(written.len())
        })
    });
    group.bench_function("stream_score_write_to_sink", |b| {
        b.iter(|| {
            let mut sink = CountingSink::default();
            stream_scored(black_box(&text), &mut sink).then_some(sink.written)
        })
    });
    group.bench_function("load_score_write", |b| {
        b.iter(|| {
            let Ok(loaded) = dataset::load(black_box(text.as_bytes()), None) else {
                return 0;
            };
            let report = engine::score(&loaded.dataset);
            let Dataset::M365(document) = &loaded.dataset else {
                return 0;
            };
            let scored =
                m365_document::write(&document.document, &report, &DocumentOptions::default());
            serde_json::to_vec(&scored).map_or(0, |bytes| bytes.len())
        })
    });
    group.finish();
}

criterion_group!(benches, each_evaluator, end_to_end);
criterion_main!(benches);

//! Fuzzes the whole input path: dialect sniffing, strict JSON parsing, schema validation, legacy
//! upgrade, Foundry rows, scoring and every output writer; and, differentially, the streaming
//! document path, which must accept exactly the current-form documents the whole path accepts
//! (apart from those its one-pass check leaves undecided, which are read whole), write the same
//! bytes, and give the same run report (streamed, and through a session reading one item at a
//! time). It also prepares every judge call the dataset asks for (the judges' input validation,
//! rendering and prompts; no call is made). Any panic is a bug.

#![no_main]

use agenteval_core::dataset::m365::DocumentOutline;
use agenteval_core::dataset::{self, Dataset};
use agenteval_core::judge::{Endpoint, EndpointKind};
use agenteval_core::{engine, stream};
use agenteval_core::report;
use agenteval_core::scored::{self, m365_document};
use libfuzzer_sys::fuzz_target;

/// METEOR's WordNet table, installed once, as the CLI does.
fn install_wordnet() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        use std::io::Read;
        let compressed = include_bytes!("../../crates/core/data/wordnet-meteor.bin.gz");
        let mut raw = Vec::new();
        flate2::read::GzDecoder::new(&compressed[..])
            .read_to_end(&mut raw)
            .expect("the committed table gunzips");
        agenteval_core::wordnet::install(raw).expect("the committed table is a table");
    });
}

fuzz_target!(|data: &[u8]| {
    install_wordnet();
    let config = agenteval_core::json!({"testing_criteria": [
        {"name": "f1", "evaluator_name": "builtin.f1_score"},
        {"name": "nav", "evaluator_name": "builtin.task_navigation_efficiency"},
        {"name": "docs", "evaluator_name": "builtin.document_retrieval"},
        {"name": "rouge", "evaluator_name": "builtin.rouge_score", "initialization_parameters": {"rouge_type": "rougeL"}},
        {"name": "bleu", "evaluator_name": "builtin.bleu_score"},
        {"name": "gleu", "evaluator_name": "builtin.gleu_score", "initialization_parameters": {"threshold": 0.3}},
        {"name": "meteor", "evaluator_name": "builtin.meteor_score", "initialization_parameters": {"alpha": 0.8}},
        {"type": "string_check", "name": "mentions", "input": "{{sample.output_text}}", "reference": "{{item.ground_truth}}", "operation": "ilike"},
        {"type": "text_similarity", "name": "fuzzy", "input": "{{sample.output_text}}", "reference": "answer: {{item.ground_truth}}", "evaluation_metric": "fuzzy_match", "pass_threshold": 0.5},
        {"type": "text_similarity", "name": "meteor_metric", "input": "{{sample.output_text}}", "reference": "{{item.ground_truth}}", "evaluation_metric": "meteor", "pass_threshold": 0.5},
        {"name": "relevance", "evaluator_name": "builtin.relevance"},
        {"name": "grounded", "evaluator_name": "builtin.groundedness"},
        {"name": "calls", "evaluator_name": "builtin.tool_call_accuracy"},
        {"name": "selection", "evaluator_name": "builtin.tool_selection"},
        {"name": "inputs", "evaluator_name": "builtin.tool_input_accuracy"},
        {"name": "outputs", "evaluator_name": "builtin.tool_output_utilization"},
        {"name": "success", "evaluator_name": "builtin.tool_call_success"},
        {"name": "adherence", "evaluator_name": "builtin.task_adherence"},
        {"name": "similar", "evaluator_name": "builtin.similarity"}
    ]});
    let outline = std::str::from_utf8(data).ok().and_then(DocumentOutline::read);
    let Ok(loaded) = dataset::load(data, Some(&config)) else {
        assert!(outline.is_none(), "streamed a document the whole path rejects");
        return;
    };
    let run = engine::score(&loaded.dataset);
    let options = m365_document::DocumentOptions::default();
    match (&loaded.dataset, outline) {
        (Dataset::M365(document), Some(outline)) if !document.legacy => {
            let whole = m365_document::write(&document.document, &run, &options);
            let expected = serde_json::to_vec_pretty(&whole).expect("a Value serializes");
            let mut streamed = Vec::new();
            let text = std::str::from_utf8(data).expect("read as text above");
            let reported = stream::score_report(text, outline.clone());
            assert_eq!(reported.report, run, "streamed report differs");
            let again = DocumentOutline::read(text).expect("read once already");
            let mut session = engine::Session::outlined(text.to_owned(), again, Vec::new());
            while session.step().is_some() {}
            assert_eq!(session.finish(), run, "report read item by item differs");
            let result = stream::write_scored(text, outline, &options, &mut streamed).expect("writing to a Vec");
            assert_eq!(streamed, expected, "streamed bytes differ");
            assert_eq!(result.summary, run.summary, "streamed summary differs");
        }
        (Dataset::M365(document), None) if !document.legacy => {
            if let Ok(text) = std::str::from_utf8(data) {
                assert!(
                    agenteval_core::json::outline(text, "items").is_none(),
                    "a current-form document the one-pass check decided was not streamed"
                );
            }
        }
        (_, Some(_)) => panic!("streamed a document the whole path reads as legacy or Foundry"),
        (Dataset::M365(document), None) => {
            let _ = m365_document::write(&document.document, &run, &options);
        }
        (Dataset::Foundry(_), None) => {}
        (Dataset::CopilotStudio(set), None) => {
            let _ = scored::copilot_studio::write(set, &run);
        }
    }
    prepare_judge_calls(&loaded.dataset);
    let _ = report::to_json(&run);
    let _ = report::csv::write(&run);
    let _ = report::junit::write(&run, "fuzz");
    let _ = report::markdown::write(&run);
    let _ = report::html::write(&run, "fuzz");
});

/// Steps a judged session over the dataset: every judge call is prepared (and its cache key
/// computed) but none is made; the entries end with the errors of missing judge results.
fn prepare_judge_calls(dataset: &Dataset) {
    let endpoint = Endpoint::new(EndpointKind::OpenAi, "http://fuzz.test/v1", "m").expect("valid");
    let mut session = engine::Session::borrowed(dataset, Vec::new()).with_judge();
    while let Some(next) = session.next_entry() {
        let outcome = match next {
            engine::Next::Ready(outcome) => outcome,
            engine::Next::Pending(pending) => {
                for call in &pending.judge_calls {
                    for request in call.requests() {
                        assert_eq!(request.cache_key(&endpoint).len(), 64);
                    }
                }
                pending.resolve(Vec::new(), Vec::new())
            }
        };
        session.record(outcome);
    }
}

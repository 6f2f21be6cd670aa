//! Fuzzes the whole input path: dialect sniffing, strict JSON parsing, schema validation, legacy
//! upgrade, Foundry rows, scoring and every output writer. Any panic is a bug.

#![no_main]

use agenteval_core::dataset::{self, Dataset};
use agenteval_core::engine;
use agenteval_core::report::{self, m365_document};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let config = serde_json::json!({"testing_criteria": [
        {"name": "f1", "evaluator_name": "builtin.f1_score"},
        {"name": "nav", "evaluator_name": "builtin.task_navigation_efficiency"},
        {"name": "docs", "evaluator_name": "builtin.document_retrieval"},
        {"name": "rouge", "evaluator_name": "builtin.rouge_score", "initialization_parameters": {"rouge_type": "rougeL"}}
    ]});
    let Ok(loaded) = dataset::load(data, Some(&config)) else {
        return;
    };
    let run = engine::score(&loaded.dataset);
    if let Dataset::M365(document) = &loaded.dataset {
        let _ = m365_document::write(&document.document, &run, &m365_document::DocumentOptions::default());
    }
    let _ = report::to_json(&run);
    let _ = report::csv::write(&run);
    let _ = report::junit::write(&run, "fuzz");
    let _ = report::markdown::write(&run);
    let _ = report::html::write(&run, "fuzz");
});

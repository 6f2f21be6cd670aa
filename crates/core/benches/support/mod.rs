//! Deterministic benchmark inputs shared by the criterion benches and the `compare_reference`
//! example: a large M365 document and Foundry-style evaluator inputs.

#![allow(dead_code)]

use agenteval_core::json;
use agenteval_core::json::Value;

const WORDS: &[&str] = &[
    "the",
    "policy",
    "employees",
    "receive",
    "vacation",
    "days",
    "per",
    "year",
    "a",
    "manager",
    "must",
    "approve",
    "travel",
    "economy",
    "class",
    "flights",
    "under",
    "six",
    "hours",
    "receipts",
    "are",
    "required",
    "above",
    "an",
    "expense",
    "portal",
    "payroll",
    "benefits",
    "parental",
    "leave",
    "weeks",
    "paid",
    "contoso",
    "Onboarding",
    "badge",
    "photo",
    "ID",
    "offer",
    "letter",
];

/// A small deterministic pseudo-random generator (64-bit LCG).
pub struct Lcg(u64);

impl Lcg {
    /// A generator with this seed.
    pub fn new(seed: u64) -> Self {
        Lcg(seed)
    }

    /// The next value in `0..bound`.
    pub fn below(&mut self, bound: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) as usize) % bound.max(1)
    }

    /// A sentence of `min..min+spread` words.
    pub fn sentence(&mut self, min: usize, spread: usize) -> String {
        let count = min + self.below(spread);
        (0..count)
            .map(|_| WORDS[self.below(WORDS.len())])
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// An M365 eval document with `items` single-turn items, each scored by ExactMatch, PartialMatch,
/// Citations, RetrievalQuery and RetrievalResult (via `default_evaluators`).
pub fn m365_document(items: usize) -> String {
    let mut rng = Lcg::new(42);
    let items: Vec<Value> = (0..items)
        .map(|index| {
            let expected = rng.sentence(8, 10);
            let response = format!(
                "{} \u{e200}cite\u{e202}turn1search{}\u{e201} {} [{}]",
                rng.sentence(10, 12),
                index % 5,
                rng.sentence(4, 6),
                index % 3 + 1
            );
            json!({
                "prompt": format!("Question {index}: {}?", rng.sentence(5, 5)),
                "expected_response": expected,
                "response": response,
                "diagnostics": {"retrieval_executions": [{
                    "capability": "OneDriveAndSharePoint",
                    "status": "success",
                    "totalResultCount": 2,
                    "queries": [{"queryString": format!("contoso {} policy", rng.sentence(2, 3)), "filterExpression": null}],
                    "retrievalHits": (1..=2).map(|rank| json!({
                        "rank": rank,
                        "webUrl": format!("https://contoso.sharepoint.com/doc{rank}.docx"),
                        "extracts": [{"text": rng.sentence(8, 6)}]
                    })).collect::<Vec<_>>()
                }]}
            })
        })
        .collect();
    let document = json!({
        "schemaVersion": "1.11.0",
        "default_evaluators": {
            "ExactMatch": {},
            "PartialMatch": {"threshold": 0.5},
            "Citations": {"citation_format": "mixed"},
            "RetrievalQuery": {"capability": "OneDriveAndSharePoint", "selector": "policy", "includes": ["contoso"], "excludes": ["FileType:OneNote"]},
            "RetrievalResult": {"capability": "OneDriveAndSharePoint", "max_rank": 10, "expected_items": [{"retrievalExtract_contains": "travel"}]}
        },
        "items": items
    });
    document.to_string()
}

/// `count` response / ground-truth sentence pairs for F1.
pub fn f1_inputs(count: usize) -> Vec<Value> {
    let mut rng = Lcg::new(7);
    (0..count)
        .map(|_| json!({"response": rng.sentence(15, 20), "ground_truth": rng.sentence(12, 15)}))
        .collect()
}

/// `count` agent message lists with tool calls and their expected tool names.
pub fn navigation_inputs(count: usize) -> Vec<Value> {
    const TOOLS: &[&str] = &[
        "search",
        "fetch_weather",
        "book_flight",
        "send_email",
        "lookup_user",
    ];
    let mut rng = Lcg::new(11);
    (0..count)
        .map(|_| {
            let calls: Vec<&str> = (0..2 + rng.below(4)).map(|_| TOOLS[rng.below(TOOLS.len())]).collect();
            let expected: Vec<&str> = (0..2 + rng.below(3)).map(|_| TOOLS[rng.below(TOOLS.len())]).collect();
            let response: Vec<Value> = calls
                .iter()
                .enumerate()
                .flat_map(|(position, tool)| {
                    [
                        json!({"role": "assistant", "content": [{"type": "tool_call", "tool_call_id": format!("call_{position}"), "name": tool, "arguments": {"q": position}}]}),
                        json!({"role": "tool", "tool_call_id": format!("call_{position}"), "content": [{"type": "tool_result", "tool_result": "ok"}]}),
                    ]
                })
                .chain([json!({"role": "assistant", "content": [{"type": "text", "text": "done"}]})])
                .collect();
            json!({"response": response, "ground_truth": expected})
        })
        .collect()
}

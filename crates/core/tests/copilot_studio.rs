//! Copilot Studio test sets scored and written back: methods, verdicts, the default method of an
//! import set, and the export's round trip.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

use agenteval_core::dataset::copilot_studio::CopilotStudioSet;
use agenteval_core::dataset::{load, Dataset};
use agenteval_core::engine;
use agenteval_core::scored::copilot_studio::write;
use agenteval_core::Verdict;

fn set(text: &str) -> (CopilotStudioSet, Vec<agenteval_core::Diagnostic>) {
    match load(text.as_bytes(), None) {
        Ok(loaded) => match loaded.dataset {
            Dataset::CopilotStudio(set) => (set, loaded.diagnostics),
            other => panic!("expected a Copilot Studio set, got {:?}", other.dialect()),
        },
        Err(error) => panic!("expected a set, got {:?}", error.diagnostics),
    }
}

#[test]
fn every_bad_row_is_an_error_entry_and_the_good_rows_are_scored() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/fixtures/copilot-studio/bad.csv"
    ))
    .unwrap_or_default();
    let (set, _) = set(&text);
    let report = engine::score(&Dataset::CopilotStudio(set));
    let statuses: Vec<_> = report
        .items
        .iter()
        .map(|item| item.status.map(|s| s.as_str()))
        .collect();
    assert_eq!(
        statuses,
        [
            Some("pass"),
            Some("error"),
            Some("pass"),
            Some("error"),
            Some("error"),
            Some("error"),
            Some("error"),
            Some("pass")
        ]
    );
}

#[test]
fn methods_are_scored_or_skipped_with_reasons() {
    let text = "question,expectedResponse,actualResponse,testMethodType_1,passingScore_1,testMethodType_2,passingScore_2\n\
        q,\"alpha, beta\",the Alpha way,KeywordMatch,,ExactMatch,\n\
        q,\"alpha, beta\",the Alpha way,KeywordMatch,100,CapabilityUse,\n\
        q,e,E,ExactMatch,,Custom,\n\
        q,e,,ExactMatch,,KeywordMatch,many\n\
        q,e,e,CompareMeaning,50,Unknown,\n\
        q,e,e,,,,\n\
        q,\"e, z\",e,KeywordMatch,,KeywordMatch,100\n";
    let (set, _) = set(text);
    let report = engine::score(&Dataset::CopilotStudio(set));
    let verdicts: Vec<Vec<(String, Verdict)>> = report
        .items
        .iter()
        .map(|item| {
            item.results
                .iter()
                .map(|r| (r.evaluator.clone(), r.result))
                .collect()
        })
        .collect();
    let v = |pairs: &[(&str, Verdict)]| -> Vec<(String, Verdict)> {
        pairs
            .iter()
            .map(|(name, verdict)| ((*name).to_owned(), *verdict))
            .collect()
    };
    assert_eq!(
        verdicts[0],
        v(&[
            ("KeywordMatch", Verdict::Pass),
            ("ExactMatch", Verdict::Fail)
        ])
    );
    assert_eq!(
        verdicts[1],
        v(&[
            ("KeywordMatch", Verdict::Fail),
            ("CapabilityUse", Verdict::Skipped)
        ])
    );
    assert_eq!(
        verdicts[2],
        v(&[("ExactMatch", Verdict::Fail), ("Custom", Verdict::Skipped)])
    );
    assert_eq!(
        verdicts[3],
        v(&[
            ("ExactMatch", Verdict::Error),
            ("KeywordMatch", Verdict::Error)
        ])
    );
    assert_eq!(
        verdicts[4],
        v(&[
            ("CompareMeaning", Verdict::Skipped),
            ("Unknown", Verdict::Error)
        ])
    );
    assert_eq!(verdicts[5], v(&[("GeneralQuality", Verdict::Skipped)]));
    assert_eq!(
        verdicts[6],
        v(&[
            ("KeywordMatch_1", Verdict::Pass),
            ("KeywordMatch_2", Verdict::Fail)
        ])
    );
    let keyword = &report.items[1].results[0];
    assert_eq!((keyword.score, keyword.threshold), (Some(0.5), Some(1.0)));
    assert_eq!(
        report.items[4].results[0].reason.as_deref(),
        Some("no judge configured")
    );
    assert_eq!(report.items[5].status, None);
    let bad_score = report.items[3].results[1]
        .error
        .as_ref()
        .map(|e| e.message.as_str());
    assert_eq!(
        bad_score,
        Some("row 5, column 7 (passingScore_2): expected a number of 0 or more, got \"many\"")
    );
}

#[test]
fn the_export_round_trip_keeps_the_verdicts() {
    let text = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/fixtures/copilot-studio/export.csv"
    ))
    .unwrap_or_default();
    let (first, _) = set(&String::from_utf8_lossy(&text));
    let dataset = Dataset::CopilotStudio(first);
    let report = engine::score(&dataset);
    let Dataset::CopilotStudio(first) = &dataset else {
        panic!("expected a set")
    };
    let written = write(first, &report);
    insta::assert_snapshot!("export_scored", written);
    let (second, _) = set(&written);
    let again = engine::score(&Dataset::CopilotStudio(second.clone()));
    let verdicts =
        |report: &agenteval_core::RunReport| -> Vec<Vec<(String, Verdict, Option<f64>)>> {
            report
                .items
                .iter()
                .map(|item| {
                    item.results
                        .iter()
                        .map(|r| (r.evaluator.clone(), r.result, r.score))
                        .collect()
                })
                .collect()
        };
    assert_eq!(verdicts(&report), verdicts(&again));
    assert_eq!(write(&second, &again), written);
}

#[test]
fn an_import_set_gets_the_default_method() {
    let (set, _) = set("question,expectedResponse\nq,e\n");
    let dataset = Dataset::CopilotStudio(set);
    let report = engine::score(&dataset);
    let Dataset::CopilotStudio(set) = &dataset else {
        panic!("expected a set")
    };
    assert_eq!(
        write(set, &report),
        "question,expectedResponse,actualResponse,testMethodType_1,result_1,passingScore_1,explanation_1,score_1\r\n\
         q,e,,GeneralQuality,Skipped,,no judge configured,\r\n"
    );
}

#[test]
fn every_cell_written_back_is_guarded_against_formulas_and_stable_on_rewrite() {
    let text = "question,expectedResponse,actualResponse,testMethodType_1,=cmd|' /C calc'!A0\r\n\"=HYPERLINK(\"\"http://evil\"\")\",+1,@SUM(A1),ExactMatch,-2\r\n";
    let (first, _) = set(text);
    let report = engine::score(&Dataset::CopilotStudio(first.clone()));
    let written = write(&first, &report);
    let mut lines = written.lines();
    let header = lines.next().unwrap_or_default();
    assert!(header.ends_with(",'=cmd|' /C calc'!A0"), "{header}");
    let row = lines.next().unwrap_or_default();
    assert!(
        row.starts_with("\"'=HYPERLINK(\"\"http://evil\"\")\",'+1,'@SUM(A1),ExactMatch,"),
        "{row}"
    );
    assert!(row.ends_with(",'-2"), "{row}");
    let (second, _) = set(&written);
    let again = engine::score(&Dataset::CopilotStudio(second.clone()));
    assert_eq!(
        write(&second, &again),
        written,
        "the guarded file writes back the same bytes"
    );
}

#[test]
fn partial_match_is_keyword_matching_under_its_own_label() {
    let text = "question,expectedResponse,actualResponse,testMethodType_1,testMethodType_2\n\
        q,\"alpha, beta\",the Alpha way,Partial match,KeywordMatch\n\
        q,\"alpha, beta\",no keyword,PartialMatch,\n";
    let (set, _) = set(text);
    let report = engine::score(&Dataset::CopilotStudio(set));
    let first = &report.items[0].results;
    assert_eq!(first[0].evaluator, "Partial match");
    assert_eq!(first[0].result, Verdict::Pass);
    assert_eq!(
        first[0].score, first[1].score,
        "scored as KeywordMatch scores it"
    );
    assert_eq!(first[0].reason, first[1].reason);
    let second = &report.items[1].results[0];
    assert_eq!(second.evaluator, "PartialMatch");
    assert_eq!(second.result, Verdict::Fail);
}

//! M365 Groundedness's context when an item gives none: the extracts of the item's retrieval hits
//! (`diagnostics.retrieval_executions[].retrievalHits[]`), best rank first, each hit with its URL,
//! as the evaluator reference grounds the response on the retrieved documents.

use crate::json::Value;

/// One hit's part of the context.
struct Hit<'a> {
    rank: Option<i64>,
    url: Option<&'a str>,
    extracts: Vec<&'a str>,
}

/// The retrieved extracts as a context, in rank order (unranked hits last, in document order);
/// `None` when no hit has an extract with text.
pub(super) fn retrieval_context(diagnostics: Option<&Value>) -> Option<String> {
    let executions = diagnostics?.get("retrieval_executions")?.as_array()?;
    let mut hits: Vec<Hit<'_>> = executions
        .iter()
        .filter_map(|execution| execution.get("retrievalHits")?.as_array())
        .flatten()
        .filter_map(|hit| {
            let extracts: Vec<&str> = hit
                .get("extracts")?
                .as_array()?
                .iter()
                .filter_map(|extract| extract.get("text")?.as_str())
                .filter(|text| !text.trim().is_empty())
                .collect();
            (!extracts.is_empty()).then(|| Hit {
                rank: hit.get("rank").and_then(Value::as_i64),
                url: hit.get("webUrl").and_then(Value::as_str),
                extracts,
            })
        })
        .collect();
    if hits.is_empty() {
        return None;
    }
    crate::sorting::sort_stable_by_key(&mut hits, |hit| hit.rank.unwrap_or(i64::MAX));
    let parts: Vec<String> = hits
        .iter()
        .map(|hit| {
            let rank = hit
                .rank
                .map_or_else(|| "unranked".to_owned(), |rank| format!("rank {rank}"));
            let mut part = format!("[{rank}] {}", hit.url.unwrap_or("(no URL)"));
            for extract in &hit.extracts {
                part.push_str("\n- ");
                part.push_str(extract);
            }
            part
        })
        .collect();
    Some(parts.join("\n\n"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::json;

    #[test]
    fn hits_with_extracts_become_the_context_best_rank_first() {
        let diagnostics = json!({"retrieval_executions": [
            {"capability": "Email", "retrievalHits": [
                {"rank": 2, "webUrl": "https://mail/2", "extracts": [{"text": "second"}]},
                {"webUrl": "https://mail/x", "extracts": [{"text": "unranked"}]}
            ]},
            {"capability": "OneDriveAndSharePoint", "retrievalHits": [
                {"rank": 1, "webUrl": "https://sp/1", "extracts": [{"text": "first"}, {"text": "more"}]},
                {"rank": 3, "extracts": [{"text": "  "}]}
            ]}
        ]});
        assert_eq!(
            retrieval_context(Some(&diagnostics)).as_deref(),
            Some("[rank 1] https://sp/1\n- first\n- more\n\n[rank 2] https://mail/2\n- second\n\n[unranked] https://mail/x\n- unranked")
        );
        assert_eq!(
            retrieval_context(Some(&json!({"retrieval_executions": []}))),
            None
        );
        assert_eq!(
            retrieval_context(Some(&json!({"retrieval_executions": "bad"}))),
            None
        );
        assert_eq!(retrieval_context(None), None);
    }
}

//! Reading a judge's answer (spec §6): the chat-completion body (content, refusal, finish reason,
//! token usage), then the verdict inside the content, in layers: a JSON object, a fenced JSON
//! block, a lenient repair of a JSON-like object, and the legacy `<S0>…<S1>…<S2>n</S2>` tags.

use crate::json::{self, Map, Value};
pub use crate::outcome::Usage;

/// The first choice of a chat completion.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Completion {
    /// The message text (`None` when the model sent none).
    pub content: Option<String>,
    /// The model's refusal message, when it refused.
    pub refusal: Option<String>,
    /// Why generation stopped (`stop`, `length`, `content_filter`…).
    pub finish_reason: Option<String>,
    /// Token usage.
    pub usage: Usage,
    /// The model that answered, as reported.
    pub model: Option<String>,
}

/// Why a completion body could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BodyError(pub String);

/// Reads a chat-completion response body.
///
/// # Errors
/// A body that is not JSON, or has no `choices[0].message`.
pub fn read_completion(body: &str) -> Result<Completion, BodyError> {
    let value = json::parse_str(body).map_err(|diagnostic| {
        BodyError(format!(
            "the response body is not JSON ({})",
            diagnostic.message
        ))
    })?;
    let choice = value
        .get("choices")
        .and_then(|choices| choices.get(0))
        .ok_or_else(|| BodyError("the response has no choices[0]".to_owned()))?;
    let message = choice
        .get("message")
        .filter(|message| message.is_object())
        .ok_or_else(|| BodyError("the response has no choices[0].message".to_owned()))?;
    let text = |value: Option<&Value>| value.and_then(Value::as_str).map(str::to_owned);
    let count = |key: &str| {
        value
            .get("usage")
            .and_then(|usage| usage.get(key))
            .and_then(Value::as_u64)
            .unwrap_or(0)
    };
    Ok(Completion {
        content: text(message.get("content")),
        refusal: text(message.get("refusal")).filter(|refusal| !refusal.is_empty()),
        finish_reason: text(choice.get("finish_reason")),
        usage: Usage {
            prompt_tokens: count("prompt_tokens"),
            completion_tokens: count("completion_tokens"),
            total_tokens: count("total_tokens"),
        },
        model: text(value.get("model")),
    })
}

/// The verdict a judge wrote, before it is checked against the evaluator's scale.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct JudgeReply {
    /// The `score` member as written (a number, numeric text, `null`…); `None` when absent.
    pub score: Option<Value>,
    /// The `reason` member, when it is text.
    pub reason: Option<String>,
    /// `status: "skipped"`: the judge found nothing to judge.
    pub skipped: bool,
    /// The `properties` member, when it is an object.
    pub properties: Map<String, Value>,
    /// Every member of the reply object (for evaluators that read more than the score).
    pub object: Map<String, Value>,
}

/// Reads an embeddings response body (`{"data": [{"embedding": [...], "index"}], "usage"}`) as a
/// completion whose content is `{"embeddings": [[...], ...]}` (in `index` order), so that it is
/// read, cached and judged as every other answer; returns it with that completion's body.
///
/// # Errors
/// A body that is not JSON, or without one numeric `embedding` per input.
pub fn read_embeddings(body: &str, inputs: usize) -> Result<(Completion, String), BodyError> {
    let value = json::parse_str(body).map_err(|diagnostic| {
        BodyError(format!(
            "the response body is not JSON ({})",
            diagnostic.message
        ))
    })?;
    let data = value
        .get("data")
        .and_then(Value::as_array)
        .ok_or_else(|| BodyError("the response has no `data` list of embeddings".to_owned()))?;
    let mut vectors: Vec<Option<Value>> = vec![None; inputs];
    for (position, entry) in data.iter().enumerate() {
        let index = entry
            .get("index")
            .and_then(Value::as_u64)
            .and_then(|index| usize::try_from(index).ok())
            .unwrap_or(position);
        let vector = entry
            .get("embedding")
            .and_then(Value::as_array)
            .filter(|vector| !vector.is_empty() && vector.iter().all(Value::is_number))
            .ok_or_else(|| {
                BodyError(format!(
                    "data[{position}] has no `embedding` list of numbers"
                ))
            })?;
        if let Some(slot) = vectors.get_mut(index) {
            *slot = Some(Value::Array(vector.clone()));
        }
    }
    let vectors = vectors
        .into_iter()
        .collect::<Option<Vec<Value>>>()
        .ok_or_else(|| {
            BodyError(format!(
                "the response does not give an embedding for each of the {inputs} inputs"
            ))
        })?;
    let mut content = Map::new();
    content.insert("embeddings".into(), Value::Array(vectors));
    let mut message = Map::new();
    message.insert("role".into(), Value::from("assistant"));
    message.insert(
        "content".into(),
        Value::from(Value::Object(content).to_string()),
    );
    let mut choice = Map::new();
    choice.insert("message".into(), Value::Object(message));
    choice.insert("finish_reason".into(), Value::from("stop"));
    let mut completion = Map::new();
    completion.insert("choices".into(), Value::Array(vec![Value::Object(choice)]));
    if let Some(model) = value.get("model") {
        completion.insert("model".into(), model.clone());
    }
    if let Some(usage) = value.get("usage") {
        completion.insert("usage".into(), usage.clone());
    }
    let synthesized = Value::Object(completion).to_string();
    read_completion(&synthesized).map(|completion| (completion, synthesized))
}

/// Reads the verdict in a judge's message text.
///
/// # Errors
/// A message with no JSON object and no legacy tags in it.
pub fn read_verdict(content: &str) -> Result<JudgeReply, String> {
    let content = content.trim();
    if let Some(object) = json_object(content)
        .or_else(|| fenced_object(content))
        .or_else(|| repaired_object(content))
    {
        return Ok(from_object(object));
    }
    if let Some(reply) = string_literal(content).and_then(|inner| tagged(&inner)) {
        return Ok(reply);
    }
    tagged(content).ok_or_else(|| {
        let shown: String = content.chars().take(80).collect();
        let ellipsis = if content.chars().count() > 80 {
            "…"
        } else {
            ""
        };
        format!("the judge's reply holds no JSON verdict: '{shown}{ellipsis}'")
    })
}

fn from_object(object: Map<String, Value>) -> JudgeReply {
    JudgeReply {
        score: object.get("score").cloned(),
        reason: object
            .get("reason")
            .and_then(Value::as_str)
            .map(str::to_owned),
        skipped: object
            .get("status")
            .and_then(Value::as_str)
            .is_some_and(|status| status.eq_ignore_ascii_case("skipped")),
        properties: object
            .get("properties")
            .and_then(Value::as_object)
            .cloned()
            .unwrap_or_default(),
        object,
    }
}

fn json_object(text: &str) -> Option<Map<String, Value>> {
    match json::parse_str(text) {
        Ok(Value::Object(object)) => Some(object),
        _ => None,
    }
}

/// The object in the first ```` ``` ```` fence (with or without a `json` tag) that holds one.
fn fenced_object(text: &str) -> Option<Map<String, Value>> {
    let mut rest = text;
    while let Some(start) = rest.find("```") {
        let after = rest.get(start + 3..)?;
        let body_start = after.find('\n').map_or(0, |newline| newline + 1);
        let body = after.get(body_start..)?;
        let end = body.find("```")?;
        if let Some(object) = body.get(..end).and_then(|inner| json_object(inner.trim())) {
            return Some(object);
        }
        rest = body.get(end + 3..)?;
    }
    None
}

/// The text from the first `{` to the last `}`, with trailing commas removed.
fn repaired_object(text: &str) -> Option<Map<String, Value>> {
    let start = text.find('{')?;
    let end = text.rfind('}')?;
    let inner = text.get(start..=end)?;
    json_object(inner).or_else(|| json_object(&without_trailing_commas(inner)))
}

fn without_trailing_commas(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut in_string = false;
    let mut escaped = false;
    let chars: Vec<char> = text.chars().collect();
    for (position, &character) in chars.iter().enumerate() {
        if in_string {
            out.push(character);
            match character {
                _ if escaped => escaped = false,
                '\\' => escaped = true,
                '"' => in_string = false,
                _ => {}
            }
            continue;
        }
        if character == ',' {
            let next = chars
                .get(position + 1..)
                .and_then(|rest| rest.iter().find(|c| !c.is_whitespace()));
            if matches!(next, Some('}' | ']')) {
                continue;
            }
        }
        if character == '"' {
            in_string = true;
        }
        out.push(character);
    }
    out
}

/// The text inside a JSON string literal reply (`"<S1>…</S1>…"`).
fn string_literal(text: &str) -> Option<String> {
    match json::parse_str(text) {
        Ok(Value::String(inner)) => Some(inner),
        _ => None,
    }
}

/// The legacy tag format: reason in `<S1>`, score in `<S2>`.
fn tagged(text: &str) -> Option<JudgeReply> {
    let score = between(text, "<S2>", "</S2>")?.trim();
    let reason = between(text, "<S1>", "</S1>").map(|reason| reason.trim().to_owned());
    Some(JudgeReply {
        score: Some(Value::from(score)),
        reason,
        ..JudgeReply::default()
    })
}

fn between<'t>(text: &'t str, open: &str, close: &str) -> Option<&'t str> {
    let start = text.find(open)? + open.len();
    let rest = text.get(start..)?;
    rest.get(..rest.find(close)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn embeddings_answers_become_completions_in_input_order() {
        let body = r#"{"data": [{"index": 1, "embedding": [0.0, 1.0]}, {"index": 0, "embedding": [1, 0]}], "model": "emb", "usage": {"prompt_tokens": 7, "total_tokens": 7}}"#;
        let (completion, synthesized) = read_embeddings(body, 2).expect("an answer");
        assert_eq!(completion.usage.prompt_tokens, 7);
        assert_eq!(completion.model.as_deref(), Some("emb"));
        let verdict = read_verdict(completion.content.as_deref().unwrap_or("")).expect("JSON");
        assert_eq!(
            verdict.object.get("embeddings"),
            Some(&crate::json!([[1, 0], [0.0, 1.0]]))
        );
        assert_eq!(read_completion(&synthesized), Ok(completion));
        for (bad, expected) in [
            ("nope", "not JSON"),
            (r#"{"data": 3}"#, "no `data` list"),
            (
                r#"{"data": [{"embedding": []}]}"#,
                "data[0] has no `embedding`",
            ),
            (
                r#"{"data": [{"embedding": [1, "x"]}]}"#,
                "data[0] has no `embedding`",
            ),
            (
                r#"{"data": [{"embedding": [1]}]}"#,
                "for each of the 2 inputs",
            ),
        ] {
            let error = read_embeddings(bad, 2).expect_err(bad);
            assert!(error.0.contains(expected), "{bad}: {}", error.0);
        }
    }
    use crate::json;

    #[test]
    fn completions_yield_content_usage_and_finish_reason() {
        let body = r#"{"model":"gpt-4o","choices":[{"index":0,"message":{"role":"assistant","content":"{\"score\":4}"},"finish_reason":"stop"}],"usage":{"prompt_tokens":10,"completion_tokens":3,"total_tokens":13}}"#;
        let completion = read_completion(body).unwrap();
        assert_eq!(completion.content.as_deref(), Some("{\"score\":4}"));
        assert_eq!(completion.finish_reason.as_deref(), Some("stop"));
        assert_eq!(completion.usage.total_tokens, 13);
        assert_eq!(completion.model.as_deref(), Some("gpt-4o"));
        let refusal =
            r#"{"choices":[{"message":{"content":null,"refusal":"no"},"finish_reason":"stop"}]}"#;
        let completion = read_completion(refusal).unwrap();
        assert_eq!(completion.content, None);
        assert_eq!(completion.refusal.as_deref(), Some("no"));
        assert!(read_completion("{\"choices\": []}").is_err());
        assert!(read_completion("<html>")
            .unwrap_err()
            .0
            .contains("not JSON"));
    }

    #[test]
    fn verdicts_are_read_in_layers() {
        let plain = read_verdict(r#"{"reason": "ok", "score": 4, "status": "completed"}"#).unwrap();
        assert_eq!(plain.score, Some(json!(4)));
        assert_eq!(plain.reason.as_deref(), Some("ok"));
        assert!(!plain.skipped);
        let fenced =
            read_verdict("Here you go:\n```json\n{\"score\": \"3\", \"reason\": \"r\"}\n```\n")
                .unwrap();
        assert_eq!(fenced.score, Some(json!("3")));
        let repaired =
            read_verdict("Verdict: {\"score\": 2, \"reason\": \"x, y\",} thanks").unwrap();
        assert_eq!(repaired.score, Some(json!(2)));
        assert_eq!(repaired.reason.as_deref(), Some("x, y"));
        let tags = read_verdict("<S0>think</S0><S1>fine</S1><S2>5</S2>").unwrap();
        assert_eq!(tags.score, Some(json!("5")));
        assert_eq!(tags.reason.as_deref(), Some("fine"));
        let literal = read_verdict(r#""<S1>meh</S1><S2>2</S2>""#).unwrap();
        assert_eq!(literal.score, Some(json!("2")));
        let skipped =
            read_verdict(r#"{"status": "skipped", "score": null, "reason": "empty"}"#).unwrap();
        assert!(skipped.skipped);
        assert_eq!(skipped.score, Some(Value::Null));
    }

    #[test]
    fn text_without_a_verdict_is_refused_with_a_preview() {
        let error = read_verdict("this is not JSON {").unwrap_err();
        assert!(error.contains("this is not JSON {"), "{error}");
        assert!(read_verdict("").is_err());
        assert!(read_verdict("[1, 2]").is_err());
    }

    #[test]
    fn trailing_commas_inside_strings_are_kept() {
        assert_eq!(
            without_trailing_commas(r#"{"a": "x,}", "b": [1,],}"#),
            r#"{"a": "x,}", "b": [1]}"#
        );
    }
}

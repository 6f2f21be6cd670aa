//! Chat-completion replies: reads the conversation, derives the verdict deterministically from
//! it (the score scale from the system message, the score from a hash of the other messages),
//! applies the directives and content faults, and writes an OpenAI chat-completion body.

use serde_json::{json, Map, Value};

use crate::directives::{self, DimensionRating, Directives};
use crate::faults::{self, FaultKind, Injected};
use crate::hash;
use crate::http::{invalid, Outcome, Response};
use crate::rubric_generation;
use crate::state::Shared;

/// The `created` time of every reply, fixed so that replies are reproducible.
const CREATED: u64 = 1_700_000_000;
/// The model reported when neither the route nor the body names one.
const DEFAULT_MODEL: &str = "local-judge";
/// The score scale when the system message names none.
const DEFAULT_SCALE: (i64, i64) = (1, 5);
/// The phrases before the scale in our judge prompts: `integer from LO to HI` (the standard
/// judges) and `number from LO to HI` (custom templates).
const SCALE_PHRASES: [&str; 2] = ["integer from ", "number from "];
/// The line of a custom label prompt that lists its labels as a JSON array.
const LABELS: &str = "Labels: ";
/// The line of an entailment prompt that says how many items and hits it numbers:
/// `N items, M hits`.
const ENTAILMENT_COUNTS: &str = "Entailment counts: ";
/// The line of a rubric prompt that lists its dimension ids as a JSON array.
const DIMENSION_IDS: &str = "Dimension ids: ";
/// The line of a composite prompt that gives each dimension's scale: `{"id": [LO, HI], …}`.
const DIMENSION_SCALES: &str = "Dimension scales: ";
/// The `refusal` fault's text.
const REFUSAL: &str = "I can't help with that.";

/// The text of a chat request's messages.
#[derive(Debug, Default, PartialEq)]
struct Conversation {
    /// `system` and `developer` messages, one per line.
    system: String,
    /// Every other message, one per line: what the score and the directives come from.
    others: String,
    /// Bytes of all message text.
    bytes: usize,
}

fn read_conversation(body: &Value) -> Result<Conversation, String> {
    let messages = body
        .get("messages")
        .and_then(Value::as_array)
        .ok_or("'messages' is a required property and must be an array")?;
    let mut conversation = Conversation::default();
    for message in messages {
        let text = content_text(message.get("content"));
        conversation.bytes += text.len();
        let role = message.get("role").and_then(Value::as_str);
        let target = if matches!(role, Some("system" | "developer")) {
            &mut conversation.system
        } else {
            &mut conversation.others
        };
        if !target.is_empty() {
            target.push('\n');
        }
        target.push_str(&text);
    }
    Ok(conversation)
}

/// A message's text: a string, or the `text` of each part of a list, one per line.
pub(crate) fn content_text(content: Option<&Value>) -> String {
    match content {
        Some(Value::String(text)) => text.clone(),
        Some(Value::Array(parts)) => parts
            .iter()
            .filter_map(|part| part.get("text").and_then(Value::as_str))
            .collect::<Vec<_>>()
            .join("\n"),
        _ => String::new(),
    }
}

/// The score scale: the first `integer from LO to HI` (or `number from …`) in `system` with
/// LO <= HI, else 1 to 5.
fn score_scale(system: &str) -> (i64, i64) {
    let mut phrases: Vec<(usize, &str)> = SCALE_PHRASES
        .iter()
        .flat_map(|phrase| system.match_indices(phrase))
        .collect();
    phrases.sort_unstable();
    phrases
        .into_iter()
        .find_map(|(start, phrase)| {
            let rest = system.get(start + phrase.len()..)?;
            let (low, rest) = leading_integer(rest)?;
            let (high, _) = leading_integer(rest.strip_prefix(" to ")?)?;
            (low <= high).then_some((low, high))
        })
        .unwrap_or(DEFAULT_SCALE)
}

/// A rubric prompt's dimension ids: the JSON array of text after `Dimension ids: ` on its line.
fn rubric_ids(system: &str) -> Option<Vec<String>> {
    let start = system.find(DIMENSION_IDS)? + DIMENSION_IDS.len();
    let line = system.get(start..)?.lines().next()?;
    serde_json::from_str(line.trim()).ok()
}

/// A label prompt's labels: the JSON array of text after `Labels: ` on its line.
fn labels(system: &str) -> Option<Vec<String>> {
    let start = system.find(LABELS)? + LABELS.len();
    let line = system.get(start..)?.lines().next()?;
    serde_json::from_str(line.trim()).ok()
}

/// An entailment prompt's number of items, from its `Entailment counts: N items, M hits` line.
fn entailment_items(system: &str) -> Option<u64> {
    let start = system.find(ENTAILMENT_COUNTS)? + ENTAILMENT_COUNTS.len();
    let (count, _) = leading_integer(system.get(start..)?)?;
    u64::try_from(count).ok()
}

/// A composite prompt's per-dimension scales: the JSON object after `Dimension scales: `.
fn dimension_scales(system: &str) -> Map<String, Value> {
    system
        .find(DIMENSION_SCALES)
        .and_then(|start| system.get(start + DIMENSION_SCALES.len()..))
        .and_then(|rest| rest.lines().next())
        .and_then(|line| serde_json::from_str(line.trim()).ok())
        .unwrap_or_default()
}

/// An integer (optionally negative, at most nine digits) at the start of `text`, and the rest.
fn leading_integer(text: &str) -> Option<(i64, &str)> {
    let digits_start = usize::from(text.starts_with('-'));
    let digits = text
        .get(digits_start..)?
        .bytes()
        .take_while(u8::is_ascii_digit)
        .count();
    if digits == 0 || digits > 9 {
        return None;
    }
    let end = digits_start + digits;
    Some((text.get(..end)?.parse().ok()?, text.get(end..)?))
}

/// The verdict a request gets when nothing bends it: its score, scale and the object text.
struct Verdict {
    low: i64,
    high: i64,
    score: Value,
    object: Map<String, Value>,
}

fn verdict(conversation: &Conversation, directives: &Directives, seeds: (u64, u64)) -> Verdict {
    let (low, high) = score_scale(&conversation.system);
    let (request_seed, server_seed) = seeds;
    let text_hash = hash::with_seed(
        hash::with_seed(hash::fnv1a(conversation.others.as_bytes()), request_seed),
        server_seed,
    );
    let span = u64::try_from(high - low + 1).unwrap_or(1).max(1);
    let derived = low + i64::try_from(text_hash % span).unwrap_or_default();
    let mut object = Map::new();
    let score = if directives.skip {
        object.insert(
            "reason".into(),
            Value::from(
                directives
                    .reason
                    .as_deref()
                    .unwrap_or("local judge: not applicable"),
            ),
        );
        object.insert("score".into(), Value::Null);
        object.insert("status".into(), Value::from("skipped"));
        Value::Null
    } else if rubric_generation::asks(&conversation.system) {
        if let Value::Object(rubric) = rubric_generation::rubric(&conversation.others) {
            object = rubric;
        }
        Value::Null
    } else if let Some(items) = entailment_items(&conversation.system) {
        let answers = (1..=items)
            .filter_map(|item| {
                let hits = match directives.entails.iter().find(|(known, _)| *known == item) {
                    Some((_, None)) => return None,
                    Some((_, Some(hits))) => hits.clone(),
                    None => Vec::new(),
                };
                Some(json!({"item": item, "entailed_by": hits}))
            })
            .collect::<Vec<_>>();
        let reason = directives.reason.clone().unwrap_or_else(|| {
            format!("local judge: entailment of {items} items, from the request's directives")
        });
        object.insert("reason".into(), Value::from(reason));
        object.insert("items".into(), Value::Array(answers));
        object.insert("status".into(), Value::from("completed"));
        Value::Null
    } else if let Some(labels) = labels(&conversation.system).filter(|labels| !labels.is_empty()) {
        let index = usize::try_from(text_hash % labels.len() as u64).unwrap_or_default();
        let label = directives
            .label
            .clone()
            .or_else(|| labels.get(index).cloned())
            .unwrap_or_default();
        let reason = directives.reason.clone().unwrap_or_else(|| {
            format!("local judge: label {label}, derived from the request text")
        });
        object.insert("reason".into(), Value::from(reason));
        object.insert("label".into(), Value::from(label));
        object.insert("status".into(), Value::from("completed"));
        Value::Null
    } else if let Some(ids) = rubric_ids(&conversation.system) {
        let reason = directives.reason.clone().unwrap_or_else(|| {
            format!(
                "local judge: {} dimensions rated on a scale of {low} to {high}, derived from the request text",
                ids.len()
            )
        });
        object.insert("reason".into(), Value::from(reason));
        let scales = dimension_scales(&conversation.system);
        let dimensions = ids
            .iter()
            .filter_map(|id| {
                let rating = directives
                    .dimensions
                    .iter()
                    .find(|(known, _)| known == id)
                    .map(|(_, rating)| rating);
                let hash =
                    hash::with_seed(hash::fnv1a_continue(text_hash, id.as_bytes()), server_seed);
                let (low, high) = scales
                    .get(id)
                    .and_then(|scale| Some((scale.get(0)?.as_i64()?, scale.get(1)?.as_i64()?)))
                    .filter(|(low, high)| low <= high)
                    .unwrap_or((low, high));
                let span = u64::try_from(high - low + 1).unwrap_or(1).max(1);
                let derived = low + i64::try_from(hash % span).unwrap_or_default();
                let (applicable, score) = match rating {
                    Some(DimensionRating::Omit) => return None,
                    Some(DimensionRating::NotApplicable) => (false, Value::Null),
                    Some(DimensionRating::Score(score)) => (true, score.clone()),
                    None => (true, Value::from(derived)),
                };
                let reason = if applicable {
                    format!("local judge: dimension {id} scored {score}")
                } else {
                    format!("local judge: dimension {id} does not apply")
                };
                Some(json!({"id": id, "applicable": applicable, "score": score, "reason": reason}))
            })
            .collect::<Vec<_>>();
        object.insert("dimensions".into(), Value::Array(dimensions));
        object.insert("status".into(), Value::from("completed"));
        Value::Null
    } else {
        let score = directives.score.clone().unwrap_or(Value::from(derived));
        let reason = directives.reason.clone().unwrap_or_else(|| {
            format!("local judge: score {derived} on a scale of {low} to {high}, derived from the request text")
        });
        object.insert("reason".into(), Value::from(reason));
        object.insert("score".into(), score.clone());
        object.insert("status".into(), Value::from("completed"));
        score
    };
    Verdict {
        low,
        high,
        score,
        object,
    }
}

/// The message content (or refusal) and finish reason for `fault`, from the normal verdict.
fn content(verdict: &Verdict, fault: Option<FaultKind>) -> (Option<String>, &'static str) {
    let normal = Value::Object(verdict.object.clone()).to_string();
    let text = match fault {
        Some(FaultKind::Malformed) => "this is not JSON {".to_string(),
        Some(FaultKind::Length) => {
            return (Some(cut_in_half(&normal).to_string()), "length");
        }
        Some(FaultKind::Missing) => {
            let mut object = verdict.object.clone();
            object.remove("score");
            object.remove("dimensions");
            Value::Object(object).to_string()
        }
        Some(FaultKind::Range) => {
            let mut object = verdict.object.clone();
            object.insert("score".into(), Value::from(verdict.high + 2));
            Value::Object(object).to_string()
        }
        Some(FaultKind::Fence) => {
            format!("Here is my evaluation of the response.\n\n```json\n{normal}\n```\n")
        }
        Some(FaultKind::Tags) => {
            let reason = verdict
                .object
                .get("reason")
                .and_then(Value::as_str)
                .unwrap_or_default();
            let score = match &verdict.score {
                Value::String(text) => text.clone(),
                other => other.to_string(),
            };
            format!(
                "<S0>local judge: weighing the response against the scale of {} to {}</S0>\
                 <S1>{reason}</S1><S2>{score}</S2>",
                verdict.low, verdict.high
            )
        }
        Some(FaultKind::Refusal) => return (None, "stop"),
        Some(FaultKind::Empty) => String::new(),
        _ => normal,
    };
    (Some(text), "stop")
}

/// The first half of `text`, cut on a character boundary.
fn cut_in_half(text: &str) -> &str {
    let mut cut = text.len() / 2;
    while !text.is_char_boundary(cut) {
        cut -= 1;
    }
    text.get(..cut).unwrap_or_default()
}

/// `text` cut to about `max_tokens` tokens (4 bytes each), on a character boundary.
fn cut_to_tokens(text: &str, max_tokens: u64) -> Option<&str> {
    let limit = usize::try_from(max_tokens.saturating_mul(4)).unwrap_or(usize::MAX);
    if text.len() <= limit {
        return None;
    }
    let mut cut = limit;
    while !text.is_char_boundary(cut) {
        cut -= 1;
    }
    text.get(..cut)
}

/// Answers a chat-completion request whose parsed body is `body`.
pub(crate) fn chat(
    shared: &Shared,
    body: &Value,
    body_hash: u64,
    deployment: Option<&str>,
) -> Outcome {
    if body.get("stream").and_then(Value::as_bool) == Some(true) {
        return invalid("the local judge does not stream: leave 'stream' unset or false");
    }
    let conversation = match read_conversation(body) {
        Ok(conversation) => conversation,
        Err(message) => return invalid(&message),
    };
    let directives = match directives::parse(&conversation.others) {
        Ok(directives) => directives,
        Err(message) => return invalid(&message),
    };
    let injected = faults::inject(shared, directives.fault, directives.any, body_hash);
    if let Some(outcome) = injected.and_then(|Injected { kind, .. }| {
        faults::http_outcome(kind, &shared.config, directives.location.as_deref())
    }) {
        return outcome;
    }
    let fault = injected.map(|injected| injected.kind);
    let request_seed = body
        .get("seed")
        .and_then(|seed| seed.as_u64().or_else(|| seed.as_i64().map(|s| s as u64)))
        .unwrap_or(0);
    let verdict = verdict(
        &conversation,
        &directives,
        (request_seed, shared.config.seed),
    );
    let (mut text, mut finish_reason) = content(&verdict, fault);
    let max_tokens = body
        .get("max_completion_tokens")
        .or_else(|| body.get("max_tokens"))
        .and_then(Value::as_u64)
        .filter(|max| *max > 0);
    if let (Some(max), Some(full)) = (max_tokens, text.as_deref()) {
        if let Some(cut) = cut_to_tokens(full, max) {
            text = Some(cut.to_string());
            finish_reason = "length";
        }
    }
    let refusal = if text.is_none() { Some(REFUSAL) } else { None };
    let message = json!({"role": "assistant", "content": text, "refusal": refusal});
    let model = deployment
        .or_else(|| body.get("model").and_then(Value::as_str))
        .unwrap_or(DEFAULT_MODEL);
    let prompt_tokens = conversation.bytes.div_ceil(4) as u64;
    let completion_tokens = text.as_deref().unwrap_or(REFUSAL).len().div_ceil(4) as u64;
    let response = Response::json(
        200,
        &json!({
            "id": format!("chatcmpl-{body_hash:016x}"),
            "object": "chat.completion",
            "created": CREATED,
            "model": model,
            "choices": [{
                "index": 0,
                "message": message,
                "logprobs": null,
                "finish_reason": finish_reason,
            }],
            "usage": {
                "prompt_tokens": prompt_tokens,
                "completion_tokens": completion_tokens,
                "total_tokens": prompt_tokens + completion_tokens,
            },
        }),
    )
    .with_header("x-request-id", format!("{body_hash:016x}"));
    if fault == Some(FaultKind::Truncated) {
        return Outcome::Truncate(response);
    }
    shared.recorder.update(|stats| {
        stats.prompt_tokens += prompt_tokens;
        stats.completion_tokens += completion_tokens;
    });
    Outcome::Send(response)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_scale_comes_from_the_first_well_formed_phrase() {
        assert_eq!(score_scale(r#""score": <integer from 1 to 5>"#), (1, 5));
        assert_eq!(
            score_scale("<integer from 0 to 1> then integer from 1 to 10"),
            (0, 1)
        );
        assert_eq!(
            score_scale("integer from x to 3, integer from 2 to 7"),
            (2, 7)
        );
        assert_eq!(score_scale("integer from 5 to 1"), DEFAULT_SCALE);
        assert_eq!(score_scale("integer from -2 to 2"), (-2, 2));
        assert_eq!(score_scale("no scale"), DEFAULT_SCALE);
        assert_eq!(
            score_scale("<number from 0 to 10> then integer from 1 to 5"),
            (0, 10)
        );
    }

    #[test]
    fn entailment_prompts_answer_every_item_from_the_directives() {
        let conversation = Conversation {
            system: "Entailment counts: 3 items, 2 hits\n".into(),
            others: "Hit 1: [[judge:entails=1:2,1]] [[judge:entails=3:omit]]".into(),
            bytes: 0,
        };
        let directives = directives::parse(&conversation.others).expect("directives");
        let object = verdict(&conversation, &directives, (0, 0)).object;
        assert_eq!(
            object["items"],
            json!([{"item": 1, "entailed_by": [2, 1]}, {"item": 2, "entailed_by": []}])
        );
        assert!(directives::parse("[[judge:entails=x]]").is_err());
    }

    #[test]
    fn label_prompts_get_one_of_their_labels() {
        let conversation = Conversation {
            system: "Reply {\"label\": ...}\nLabels: [\"friendly\",\"rude\"]\n".into(),
            others: "Answer: thanks".into(),
            bytes: 0,
        };
        let object = verdict_of(&conversation);
        let label = object["label"].as_str().unwrap_or_default().to_owned();
        assert!(["friendly", "rude"].contains(&label.as_str()), "{label}");
        assert_eq!(object["status"], "completed");
        let chosen = Conversation {
            others: "Answer: [[judge:label=rude]] [[judge:reason=harsh]]".into(),
            ..conversation
        };
        let directives = directives::parse(&chosen.others).expect("directives");
        let object = verdict(&chosen, &directives, (0, 0)).object;
        assert_eq!(
            (object["label"].as_str(), object["reason"].as_str()),
            (Some("rude"), Some("harsh"))
        );
    }

    #[test]
    fn conversations_split_system_from_the_rest() {
        let body = json!({"messages": [
            {"role": "system", "content": "rubric"},
            {"role": "user", "content": [{"type": "text", "text": "a"}, {"type": "image_url"}, {"type": "text", "text": "b"}]},
            {"role": "assistant", "content": "c"},
            {"role": "user", "content": null},
        ]});
        let conversation = read_conversation(&body).unwrap_or_default();
        assert_eq!(conversation.system, "rubric");
        assert_eq!(conversation.others, "a\nb\nc\n");
        assert_eq!(conversation.bytes, 10);
        assert!(read_conversation(&json!({"messages": "hi"})).is_err());
    }

    #[test]
    fn content_faults_reshape_the_normal_verdict() {
        let conversation = Conversation {
            system: "<integer from 1 to 3>".into(),
            others: "question".into(),
            bytes: 0,
        };
        let verdict = verdict(&conversation, &Directives::default(), (0, 0));
        let score = verdict.score.as_i64().unwrap_or_default();
        assert!((1..=3).contains(&score));
        let (normal, _) = content(&verdict, None);
        let parsed: Value = serde_json::from_str(normal.as_deref().unwrap_or_default()).unwrap();
        assert_eq!(parsed["score"], score);
        assert_eq!(parsed["status"], "completed");
        let (range, _) = content(&verdict, Some(FaultKind::Range));
        assert!(range.unwrap_or_default().contains("\"score\":5"));
        let (length, reason) = content(&verdict, Some(FaultKind::Length));
        assert_eq!(reason, "length");
        assert!(serde_json::from_str::<Value>(&length.unwrap_or_default()).is_err());
        let (tags, _) = content(&verdict, Some(FaultKind::Tags));
        assert!(tags
            .unwrap_or_default()
            .ends_with(&format!("<S2>{score}</S2>")));
        assert_eq!(content(&verdict, Some(FaultKind::Refusal)).0, None);
    }

    #[test]
    fn rubric_prompts_get_a_rating_per_dimension() {
        let conversation = Conversation {
            system: "rate <integer from 1 to 5>\nDimension ids: [\"a\",\"b\",\"c\",\"d\"]\nmore"
                .into(),
            others: "answer".into(),
            bytes: 0,
        };
        let directives = directives::parse(
            "[[judge:dimension=b:na]] [[judge:dimension=c:omit]] [[judge:dimension=d:9]]",
        )
        .unwrap_or_default();
        let verdict = verdict(&conversation, &directives, (0, 0));
        let dimensions = verdict.object["dimensions"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        assert_eq!(dimensions.len(), 3);
        let a = dimensions[0]["score"].as_i64().unwrap_or_default();
        assert!((1..=5).contains(&a));
        assert_eq!(dimensions[0]["applicable"], true);
        assert_eq!(
            dimensions[1],
            json!({"id": "b", "applicable": false, "score": null, "reason": "local judge: dimension b does not apply"})
        );
        assert_eq!(dimensions[2]["id"], "d");
        assert_eq!(dimensions[2]["score"], 9);
        assert_eq!(verdict.object["status"], "completed");
        assert!(verdict.object.get("score").is_none());
        let again = verdict_of(&conversation);
        assert_eq!(again["dimensions"][0], dimensions[0], "deterministic");
        assert_eq!(rubric_ids("Dimension ids: not json"), None);
        let composite = Conversation {
            system: "<integer from 1 to 5>\nDimension ids: [\"a\",\"b\"]\nDimension scales: {\"b\":[0,1]}".into(),
            others: "answer".into(),
            bytes: 0,
        };
        for seed in 0..20 {
            let object = super::verdict(&composite, &Directives::default(), (seed, 0)).object;
            let b = object["dimensions"][1]["score"].as_i64().unwrap_or(-1);
            assert!((0..=1).contains(&b), "{b}");
        }
    }

    #[test]
    fn copilot_studio_prompts_get_verdicts_and_percent_scores() {
        let general_quality = Conversation {
            system: "Score 1 when the criterion holds\n\
                     Dimension ids: [\"relevance\",\"completeness\",\"groundedness\",\"answered\"]\n\
                     Dimension scales: {\"relevance\": [0, 1], \"completeness\": [0, 1], \"groundedness\": [0, 1], \"answered\": [0, 1]}\n\
                     \"score\": <integer from 0 to 1>"
                .into(),
            others: "answer".into(),
            bytes: 0,
        };
        for seed in 0..20 {
            let object = super::verdict(&general_quality, &Directives::default(), (seed, 0)).object;
            let dimensions = object["dimensions"].as_array().cloned().unwrap_or_default();
            assert_eq!(dimensions.len(), 4);
            for dimension in dimensions {
                let score = dimension["score"].as_i64().unwrap_or(-1);
                assert!((0..=1).contains(&score), "{score}");
            }
        }
        let compare_meaning = Conversation {
            system: "\"score\": <integer from 0 to 100>".into(),
            others: "answer".into(),
            bytes: 0,
        };
        for seed in 0..20 {
            let verdict = super::verdict(&compare_meaning, &Directives::default(), (seed, 0));
            assert_eq!((verdict.low, verdict.high), (0, 100));
        }
    }

    fn verdict_of(conversation: &Conversation) -> Map<String, Value> {
        verdict(conversation, &Directives::default(), (0, 0)).object
    }

    #[test]
    fn long_content_is_cut_to_max_tokens() {
        assert_eq!(cut_to_tokens("abcdefgh", 1), Some("abcd"));
        assert_eq!(cut_to_tokens("abcd", 1), None);
        assert_eq!(cut_to_tokens("ééé", 1), Some("éé"));
    }
}

//! Embeddings replies: a deterministic 64-dimension vector per input text, from hashed
//! character trigrams (signed feature hashing), L2-normalised. Texts sharing many trigrams get a
//! high cosine, identical texts (after lower-casing and collapsing whitespace) cosine 1, and
//! unrelated texts a cosine near 0. No model, no randomness.

use serde_json::{json, Value};

use crate::directives;
use crate::faults::{self, Injected};
use crate::hash;
use crate::http::{invalid, Outcome, Response};
use crate::state::Shared;

/// Length of every vector.
pub(crate) const DIMENSIONS: usize = 64;

/// The model reported when neither the route nor the body names one.
const DEFAULT_MODEL: &str = "local-embedding";

/// The vector of `text`: unit length (an empty text gets the first basis vector).
pub(crate) fn embed(text: &str) -> [f32; DIMENSIONS] {
    let normalised: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
    let chars: Vec<char> = std::iter::once(' ')
        .chain(normalised.chars().flat_map(char::to_lowercase))
        .chain(std::iter::once(' '))
        .collect();
    let mut sums = [0f64; DIMENSIONS];
    for trigram in chars.windows(3) {
        let mut bytes = [0u8; 12];
        let mut used = 0;
        for ch in trigram {
            if let Some(slot) = bytes.get_mut(used..) {
                used += ch.encode_utf8(slot).len();
            }
        }
        let hashed = hash::mix(hash::fnv1a(bytes.get(..used).unwrap_or_default()));
        let index = usize::try_from(hashed % DIMENSIONS as u64).unwrap_or_default();
        let sign = if hashed >> 63 == 1 { -1.0 } else { 1.0 };
        if let Some(sum) = sums.get_mut(index) {
            *sum += sign;
        }
    }
    let norm = sums.iter().map(|x| x * x).sum::<f64>().sqrt();
    let mut vector = [0f32; DIMENSIONS];
    if norm == 0.0 {
        vector[0] = 1.0;
        return vector;
    }
    for (out, sum) in vector.iter_mut().zip(sums) {
        *out = (sum / norm) as f32;
    }
    vector
}

/// Answers an embeddings request whose parsed body is `body`.
pub(crate) fn reply(
    shared: &Shared,
    body: &Value,
    body_hash: u64,
    deployment: Option<&str>,
) -> Outcome {
    let inputs: Vec<&str> = match body.get("input") {
        Some(Value::String(text)) => vec![text.as_str()],
        Some(Value::Array(items)) if !items.is_empty() => {
            match items.iter().map(Value::as_str).collect::<Option<Vec<_>>>() {
                Some(texts) => texts,
                None => return invalid("'input' must hold strings only (no token arrays)"),
            }
        }
        _ => return invalid("'input' must be a string or a non-empty array of strings"),
    };
    let directives = match directives::parse(&inputs.join("\n")) {
        Ok(directives) => directives,
        Err(message) => return invalid(&message),
    };
    if let Some(fault) = directives.fault.filter(|fault| fault.kind.is_content()) {
        return invalid(&format!(
            "fault kind `{}` applies to chat completions only",
            fault.kind.name()
        ));
    }
    let injected = faults::inject(shared, directives.fault, directives.any, body_hash);
    if let Some(outcome) = injected.and_then(|Injected { kind, .. }| {
        faults::http_outcome(kind, &shared.config, directives.location.as_deref())
    }) {
        return outcome;
    }
    let model = deployment
        .or_else(|| body.get("model").and_then(Value::as_str))
        .unwrap_or(DEFAULT_MODEL);
    let base64 = body.get("encoding_format").and_then(Value::as_str) == Some("base64");
    let data: Vec<Value> = inputs
        .iter()
        .enumerate()
        .map(|(index, text)| {
            let vector = embed(text);
            let embedding = if base64 {
                Value::from(encode_base64(&vector))
            } else {
                json!(vector.as_slice())
            };
            json!({"object": "embedding", "index": index, "embedding": embedding})
        })
        .collect();
    let bytes: usize = inputs.iter().map(|text| text.len()).sum();
    let tokens = bytes.div_ceil(4) as u64;
    let response = Response::json(
        200,
        &json!({
            "object": "list",
            "data": data,
            "model": model,
            "usage": {"prompt_tokens": tokens, "total_tokens": tokens}
        }),
    )
    .with_header("x-request-id", format!("{body_hash:016x}"));
    if injected.is_some() {
        // Only `truncated` reaches here: every other kind allowed on embeddings has its own reply.
        return Outcome::Truncate(response);
    }
    shared
        .recorder
        .update(|stats| stats.prompt_tokens += tokens);
    Outcome::Send(response)
}

/// The little-endian bytes of `vector` in standard base64, as OpenAI sends
/// `encoding_format: "base64"`.
fn encode_base64(vector: &[f32]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let bytes: Vec<u8> = vector.iter().flat_map(|x| x.to_le_bytes()).collect();
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for group in bytes.chunks(3) {
        let mut word = [0u8; 3];
        for (slot, byte) in word.iter_mut().zip(group) {
            *slot = *byte;
        }
        let bits = u32::from(word[0]) << 16 | u32::from(word[1]) << 8 | u32::from(word[2]);
        for position in 0..4 {
            if position <= group.len() {
                let index = (bits >> (18 - 6 * position)) & 0x3f;
                out.push(char::from(
                    ALPHABET.get(index as usize).copied().unwrap_or(b'='),
                ));
            } else {
                out.push('=');
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cosine(a: &[f32], b: &[f32]) -> f32 {
        a.iter().zip(b).map(|(x, y)| x * y).sum()
    }

    #[test]
    fn vectors_are_unit_length_and_deterministic() {
        for text in [
            "",
            "a",
            "The capital of France is Paris.",
            "日本語のテキスト",
        ] {
            let vector = embed(text);
            let norm = cosine(&vector, &vector).sqrt();
            assert!((norm - 1.0).abs() < 1e-5, "{text:?}: {norm}");
            assert_eq!(vector, embed(text));
        }
    }

    #[test]
    fn similar_texts_are_closer_than_unrelated_ones() {
        let paris = embed("The capital of France is Paris.");
        let same = embed("the capital of france is  Paris.");
        let near = embed("Paris is the capital city of France.");
        let unrelated = embed("Quarterly revenue grew by twelve percent.");
        assert!(cosine(&paris, &same) > 0.9999);
        assert!(cosine(&paris, &near) > cosine(&paris, &unrelated) + 0.3);
    }

    #[test]
    fn base64_matches_the_standard_alphabet() {
        assert_eq!(encode_base64(&[1.0]), "AACAPw==");
        assert_eq!(encode_base64(&[]), "");
        assert_eq!(encode_base64(&[1.0, 1.0, 1.0]).len(), 16);
    }
}

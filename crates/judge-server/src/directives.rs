//! `[[judge:NAME]]` and `[[judge:NAME=VALUE]]` directives: how a test chooses the reply to a
//! request by writing into its non-system messages. Parses them; applying them is the reply's
//! and the faults' business.
//!
//! Known names: `score=JSON`, `reason=TEXT`, `skip`, `fault=KIND`, `fault=KIND*N` and
//! `dimension=ID:VALUE` (a rubric dimension's rating), `label=TEXT` (a label prompt's answer) and
//! `entails=ITEM:HITS` (an entailment prompt's answer for one item), `location=URL` (where a
//! `redirect` fault points). When a name appears twice, the first
//! occurrence wins (for `dimension`, per id). An unknown name or fault kind is an error,
//! answered with 400, so that a typo in a test fails loudly instead of scoring normally.

use serde_json::Value;

use crate::faults::{FaultDirective, FaultKind};

const CLOSE: &str = "]]";

/// How a `dimension=ID:VALUE` directive rates a rubric dimension.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum DimensionRating {
    /// `VALUE` is JSON (text that is not JSON counts as a string): the score as written.
    Score(Value),
    /// `na`: not applicable.
    NotApplicable,
    /// `omit`: left out of the reply.
    Omit,
}

/// The directives found in a request.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Directives {
    /// `score=V`: the literal score (JSON; text that is not JSON counts as a string).
    pub(crate) score: Option<Value>,
    /// `reason=TEXT`.
    pub(crate) reason: Option<String>,
    /// `skip`: answer "not applicable".
    pub(crate) skip: bool,
    /// `fault=KIND[*N]`.
    pub(crate) fault: Option<FaultDirective>,
    /// `dimension=ID:VALUE`, in order, one per id.
    pub(crate) dimensions: Vec<(String, DimensionRating)>,
    /// `location=URL`: where a `redirect` fault sends the client.
    pub(crate) location: Option<String>,
    /// `label=TEXT`: the label a label prompt gets.
    pub(crate) label: Option<String>,
    /// `entails=ITEM:HITS`: the hits (numbers, comma-separated; `none` for none) an entailment
    /// prompt's item gets, or `omit` to leave the item out; one per item, in order.
    pub(crate) entails: Vec<(u64, Option<Vec<Value>>)>,
    /// Whether any directive was present.
    pub(crate) any: bool,
}

/// The directives in `text`.
///
/// # Errors
/// A message naming the offending directive: an unknown name, a bad fault kind or count, or a
/// directive without its closing `]]`.
pub(crate) fn parse(text: &str) -> Result<Directives, String> {
    let mut directives = Directives::default();
    for body in bodies(text, "judge")? {
        apply(&mut directives, body)?;
    }
    Ok(directives)
}

/// The bodies of the `[[PREFIX:BODY]]` directives in `text`, in order (`prefix` is `judge` or
/// `agent`).
///
/// # Errors
/// A message quoting a directive without its closing `]]`.
pub(crate) fn bodies<'t>(text: &'t str, prefix: &str) -> Result<Vec<&'t str>, String> {
    let open = format!("[[{prefix}:");
    let mut found = Vec::new();
    let mut rest = text;
    while let Some(start) = rest.find(&open) {
        let after = rest.get(start + open.len()..).unwrap_or_default();
        let Some(end) = after.find(CLOSE) else {
            return Err(format!(
                "{prefix} directive without closing `]]`: `{}`",
                truncate(rest.get(start..).unwrap_or_default())
            ));
        };
        found.push(after.get(..end).unwrap_or_default());
        rest = after.get(end + CLOSE.len()..).unwrap_or_default();
    }
    Ok(found)
}

/// `text` without its `[[PREFIX:…]]` directives (an unclosed one is left as it is).
pub(crate) fn strip(text: &str, prefix: &str) -> String {
    let open = format!("[[{prefix}:");
    let mut kept = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(start) = rest.find(&open) {
        let after = rest.get(start + open.len()..).unwrap_or_default();
        let Some(end) = after.find(CLOSE) else {
            break;
        };
        kept.push_str(rest.get(..start).unwrap_or_default());
        rest = after.get(end + CLOSE.len()..).unwrap_or_default();
    }
    kept.push_str(rest);
    kept.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn apply(directives: &mut Directives, body: &str) -> Result<(), String> {
    directives.any = true;
    let (name, value) = match body.split_once('=') {
        Some((name, value)) => (name.trim(), Some(value.trim())),
        None => (body.trim(), None),
    };
    match (name, value) {
        ("score", Some(value)) => {
            let score = serde_json::from_str(value).unwrap_or_else(|_| Value::from(value));
            directives.score.get_or_insert(score);
        }
        ("reason", Some(value)) => {
            directives.reason.get_or_insert_with(|| value.to_string());
        }
        ("location", Some(value)) => {
            directives.location.get_or_insert_with(|| value.to_string());
        }
        ("label", Some(value)) => {
            directives.label.get_or_insert_with(|| value.to_string());
        }
        ("entails", Some(value)) => {
            let parsed = value.split_once(':').and_then(|(item, hits)| {
                let item = item.trim().parse::<u64>().ok()?;
                let hits = match hits.trim() {
                    "omit" => None,
                    "none" => Some(Vec::new()),
                    list => Some(
                        list.split(',')
                            .map(|hit| {
                                let hit = hit.trim();
                                serde_json::from_str(hit).unwrap_or_else(|_| Value::from(hit))
                            })
                            .collect(),
                    ),
                };
                Some((item, hits))
            });
            let Some((item, hits)) = parsed else {
                return Err(format!(
                    "bad `[[judge:entails={value}]]`: expected `ITEM:HITS`, HITS comma-separated \
                     numbers, `none` or `omit`"
                ));
            };
            if directives.entails.iter().all(|(known, _)| *known != item) {
                directives.entails.push((item, hits));
            }
        }
        ("skip", None) => directives.skip = true,
        ("fault", Some(value)) => {
            let fault = parse_fault(value)?;
            directives.fault.get_or_insert(fault);
        }
        ("dimension", Some(value)) => {
            let Some((id, rating)) = value.rsplit_once(':') else {
                return Err(format!(
                    "bad `[[judge:dimension={value}]]`: expected `ID:VALUE`, VALUE a JSON score, \
                     `na` or `omit`"
                ));
            };
            let rating = match rating.trim() {
                "na" => DimensionRating::NotApplicable,
                "omit" => DimensionRating::Omit,
                score => DimensionRating::Score(
                    serde_json::from_str(score).unwrap_or_else(|_| Value::from(score)),
                ),
            };
            let id = id.trim();
            if directives.dimensions.iter().all(|(known, _)| known != id) {
                directives.dimensions.push((id.to_string(), rating));
            }
        }
        _ => {
            return Err(format!(
                "unknown judge directive `[[judge:{body}]]`; known: `score=JSON`, \
                 `reason=TEXT`, `skip`, `fault=KIND`, `fault=KIND*N`, `location=URL`, `dimension=ID:VALUE`, `label=TEXT`, `entails=ITEM:HITS`"
            ))
        }
    }
    Ok(())
}

fn parse_fault(value: &str) -> Result<FaultDirective, String> {
    let (kind, attempts) = fault_count(value, "judge")?;
    let kind = FaultKind::parse(kind).ok_or_else(|| {
        format!(
            "unknown fault kind `{kind}` in `[[judge:fault={value}]]`; known: {}",
            FaultKind::names()
        )
    })?;
    Ok(FaultDirective { kind, attempts })
}

/// A `fault=` value split into its kind and its attempt count (`KIND*N`; `None` without `*N`).
///
/// # Errors
/// A message naming the directive when `N` is not a whole number.
pub(crate) fn fault_count<'v>(
    value: &'v str,
    prefix: &str,
) -> Result<(&'v str, Option<u32>), String> {
    match value.split_once('*') {
        Some((kind, count)) => {
            let count = count.trim().parse::<u32>().map_err(|_| {
                format!("bad attempt count in `[[{prefix}:fault={value}]]`: expected `KIND*N`, N a whole number")
            })?;
            Ok((kind.trim(), Some(count)))
        }
        None => Ok((value.trim(), None)),
    }
}

/// At most 60 characters of `text`, for error messages.
fn truncate(text: &str) -> &str {
    text.char_indices()
        .nth(60)
        .and_then(|(index, _)| text.get(..index))
        .unwrap_or(text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn parsed(text: &str) -> Directives {
        parse(text).unwrap_or_else(|error| panic!("{error}"))
    }

    #[test]
    fn text_without_directives_has_none() {
        assert_eq!(parsed("plain [[text]] [judge:x]"), Directives::default());
    }

    #[test]
    fn scores_are_json_values() {
        for (text, score) in [
            ("4", json!(4)),
            ("7", json!(7)),
            ("null", json!(null)),
            ("\"4\"", json!("4")),
            ("true", json!(true)),
            ("2.5", json!(2.5)),
            ("high", json!("high")),
        ] {
            let directives = parsed(&format!("answer [[judge:score={text}]] here"));
            assert_eq!(directives.score, Some(score), "{text}");
            assert!(directives.any);
        }
    }

    #[test]
    fn several_directives_combine_and_the_first_wins() {
        let directives = parsed(
            "[[judge:score=2]] [[judge:reason=too short]] [[judge:score=5]] [[judge:fault=500*2]] [[judge:skip]]",
        );
        assert_eq!(directives.score, Some(json!(2)));
        assert_eq!(directives.reason.as_deref(), Some("too short"));
        assert!(directives.skip);
        assert_eq!(
            directives.fault,
            Some(FaultDirective {
                kind: FaultKind::ServerError,
                attempts: Some(2)
            })
        );
    }

    #[test]
    fn every_fault_kind_parses() {
        for name in FaultKind::names().split(", ") {
            let directives = parsed(&format!("[[judge:fault={name}]]"));
            assert_eq!(directives.fault.map(|fault| fault.kind.name()), Some(name));
        }
    }

    #[test]
    fn dimension_ratings_repeat_per_id_and_the_first_wins() {
        let directives = parsed(
            "[[judge:dimension=a:4]] [[judge:dimension=b:na]] [[judge:dimension=a:1]] \
             [[judge:dimension=c:omit]] [[judge:dimension=d:7]]",
        );
        assert_eq!(
            directives.dimensions,
            vec![
                ("a".to_string(), DimensionRating::Score(json!(4))),
                ("b".to_string(), DimensionRating::NotApplicable),
                ("c".to_string(), DimensionRating::Omit),
                ("d".to_string(), DimensionRating::Score(json!(7))),
            ]
        );
        assert!(parse("[[judge:dimension=a]]").is_err());
    }

    #[test]
    fn mistakes_are_errors() {
        assert!(parse("[[judge:scroe=4]]").is_err());
        assert!(parse("[[judge:fault=404]]").is_err());
        assert!(parse("[[judge:fault=500*x]]").is_err());
        assert!(parse("[[judge:skip=yes]]").is_err());
        assert!(parse("[[judge:score=4").is_err());
    }
}

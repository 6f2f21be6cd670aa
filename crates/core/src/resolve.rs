//! Which evaluators run on an item or turn, with which options (M365 rules): the system defaults
//! (Relevance, Coherence), replaced by a root `default_evaluators`; an item's `evaluators` extend
//! them (`evaluators_mode: "extend"`, the default; item options override default options key by
//! key) or replace them (`"replace"`).

use std::borrow::Cow;

use crate::json::{Map, Value};

/// The evaluators run when a document names none.
pub const SYSTEM_DEFAULTS: [&str; 2] = ["Relevance", "Coherence"];

/// One evaluator to run and its effective options.
#[derive(Debug, Clone, PartialEq)]
pub struct Planned<'a> {
    /// The evaluator name as written (case-sensitive).
    pub name: &'a str,
    /// The effective options object.
    pub options: Cow<'a, Map<String, Value>>,
}

fn empty_options() -> &'static Map<String, Value> {
    static EMPTY: std::sync::OnceLock<Map<String, Value>> = std::sync::OnceLock::new();
    EMPTY.get_or_init(Map::new)
}

/// An evaluator's options as written; for the Rubric, a bare array of dimensions (as Foundry's
/// rubric page shows a rubric) stands for `{"dimensions": [...]}`.
fn options_of<'a>(name: &str, value: &'a Value) -> Cow<'a, Map<String, Value>> {
    match value {
        Value::Object(options) => Cow::Borrowed(options),
        Value::Array(_) if name == crate::evaluators::RUBRIC => {
            let mut options = Map::new();
            options.insert("dimensions".to_owned(), value.clone());
            Cow::Owned(options)
        }
        _ => Cow::Borrowed(empty_options()),
    }
}

/// The document-wide default plan: `default_evaluators` when given, else the system defaults.
pub fn default_plan(default_evaluators: Option<&Map<String, Value>>) -> Vec<Planned<'_>> {
    match default_evaluators {
        Some(defaults) => defaults
            .iter()
            .map(|(name, options)| Planned {
                name,
                options: options_of(name, options),
            })
            .collect(),
        None => SYSTEM_DEFAULTS
            .iter()
            .map(|name| Planned {
                name,
                options: Cow::Borrowed(empty_options()),
            })
            .collect(),
    }
}

/// True when the item or turn names no evaluators of its own, so the default plan applies as is.
pub fn uses_default_plan(fields: &Map<String, Value>) -> bool {
    !matches!(fields.get("evaluators"), Some(Value::Object(_)))
}

/// The plan for one item or turn, given the default plan.
pub fn plan<'a>(defaults: &[Planned<'a>], fields: &'a Map<String, Value>) -> Vec<Planned<'a>> {
    let Some(Value::Object(own)) = fields.get("evaluators") else {
        return defaults.to_vec();
    };
    let own_plan = own.iter().map(|(name, options)| Planned {
        name,
        options: options_of(name, options),
    });
    if fields.get("evaluators_mode").and_then(Value::as_str) == Some("replace") {
        return own_plan.collect();
    }
    let mut plan = defaults.to_vec();
    for item in own_plan {
        match plan.iter_mut().find(|planned| planned.name == item.name) {
            Some(planned) => {
                let mut merged = planned.options.clone().into_owned();
                merged.extend(item.options.iter().map(|(k, v)| (k.clone(), v.clone())));
                planned.options = Cow::Owned(merged);
            }
            None => plan.push(item),
        }
    }
    plan
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json;

    fn names<'a>(plan: &'a [Planned<'a>]) -> Vec<&'a str> {
        plan.iter().map(|planned| planned.name).collect()
    }

    fn object(value: Value) -> Map<String, Value> {
        match value {
            Value::Object(map) => map,
            _ => Map::new(),
        }
    }

    #[test]
    fn system_defaults_apply_without_default_evaluators() {
        let item = object(json!({"prompt": "p"}));
        let defaults = default_plan(None);
        assert_eq!(names(&plan(&defaults, &item)), ["Relevance", "Coherence"]);
        assert!(uses_default_plan(&item));
    }

    #[test]
    fn default_evaluators_replace_system_defaults() {
        let root = object(json!({"ExactMatch": {}}));
        let item = object(json!({"prompt": "p"}));
        let defaults = default_plan(Some(&root));
        assert_eq!(names(&plan(&defaults, &item)), ["ExactMatch"]);
    }

    #[test]
    fn extend_adds_item_evaluators_and_overrides_options_per_key() {
        let root = object(
            json!({"PartialMatch": {"threshold": 0.8, "case_sensitive": true}, "Coherence": {}}),
        );
        let item = object(
            json!({"prompt": "p", "evaluators": {"PartialMatch": {"threshold": 0.3}, "Citations": {}}}),
        );
        let defaults = default_plan(Some(&root));
        let planned = plan(&defaults, &item);
        assert_eq!(names(&planned), ["PartialMatch", "Coherence", "Citations"]);
        assert_eq!(
            Value::Object(planned[0].options.clone().into_owned()),
            json!({"threshold": 0.3, "case_sensitive": true})
        );
        assert!(!uses_default_plan(&item));
    }

    #[test]
    fn replace_drops_the_defaults() {
        let item = object(
            json!({"prompt": "p", "evaluators_mode": "replace", "evaluators": {"ExactMatch": {}}}),
        );
        let defaults = default_plan(None);
        assert_eq!(names(&plan(&defaults, &item)), ["ExactMatch"]);
    }

    #[test]
    fn a_bare_array_of_dimensions_is_the_rubrics_options() {
        let dimensions = json!([{"id": "a", "description": "d", "weight": 1}]);
        let root = object(json!({"Rubric": dimensions, "ExactMatch": []}));
        let defaults = default_plan(Some(&root));
        let rubric = defaults
            .iter()
            .find(|planned| planned.name == "Rubric")
            .unwrap();
        assert_eq!(rubric.options.get("dimensions"), Some(&dimensions));
        let exact = defaults
            .iter()
            .find(|planned| planned.name == "ExactMatch")
            .unwrap();
        assert!(exact.options.is_empty(), "only the Rubric reads an array");
    }
}

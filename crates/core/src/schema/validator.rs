//! Validates a JSON value against a compiled schema and reports every problem with its JSON
//! pointer and a plain-words expectation.
//!
//! Speed: the schema is compiled up front; pointers are a linked path on the stack and become
//! strings only when a problem is reported; `oneOf`/`anyOf` branches are first probed with a
//! fail-fast pass that allocates nothing. Only when no branch fits are the branches walked again
//! to report the errors of the most plausible one (the branch whose discriminating `const`/`enum`
//! fields and required fields the value matches best), never a wall of all branches.

use crate::json::{Map, Value};

use super::compile::{Additional, Compiled, Keywords, Node, NodeId, Types};
use super::message;
use super::path::Path;
use super::plausible::Ranker;
use super::values::{equal, has_type};

/// One problem: where and what was expected.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Failure {
    /// RFC 6901 pointer into the document.
    pub(crate) pointer: String,
    /// What is wrong and what was expected.
    pub(crate) message: String,
}

/// Returned by a fail-fast probe at its first problem.
struct Stop;

type Flow = Result<(), Stop>;

trait Sink {
    const COLLECTS: bool;
    fn fail(&mut self, path: &Path<'_>, message: impl FnOnce() -> String) -> Flow;
    fn absorb(&mut self, failures: Vec<Failure>) -> Flow;
}

/// Fails fast and allocates nothing.
struct Probe;

impl Sink for Probe {
    const COLLECTS: bool = false;

    fn fail(&mut self, _path: &Path<'_>, _message: impl FnOnce() -> String) -> Flow {
        Err(Stop)
    }

    fn absorb(&mut self, failures: Vec<Failure>) -> Flow {
        if failures.is_empty() {
            Ok(())
        } else {
            Err(Stop)
        }
    }
}

/// Records every problem.
#[derive(Default)]
struct Collect(Vec<Failure>);

impl Sink for Collect {
    const COLLECTS: bool = true;

    fn fail(&mut self, path: &Path<'_>, message: impl FnOnce() -> String) -> Flow {
        self.0.push(Failure {
            pointer: path.pointer(),
            message: message(),
        });
        Ok(())
    }

    fn absorb(&mut self, failures: Vec<Failure>) -> Flow {
        self.0.extend(failures);
        Ok(())
    }
}

/// Validates values against one compiled schema.
pub(crate) struct Validator<'s> {
    schema: &'s Compiled,
}

impl<'s> Validator<'s> {
    /// A validator for `schema`.
    pub(crate) fn new(schema: &'s Compiled) -> Self {
        Validator { schema }
    }

    /// Every problem in `value`, in document order.
    pub(crate) fn validate(&self, value: &Value) -> Vec<Failure> {
        let mut sink = Collect::default();
        // A collecting walk never stops early, so its `Flow` carries nothing.
        let _ = self.check(self.schema.root, value, &Path::ROOT, &mut sink);
        sink.0
    }

    /// Every problem in `item`, validated as element `index` of the document's `items` array.
    pub(crate) fn validate_item(&self, item: &Value, index: usize) -> Vec<Failure> {
        let mut sink = Collect::default();
        let items = Path::ROOT.key("items");
        if let Some(id) = self.item_node() {
            let _ = self.check(id, item, &items.index(index), &mut sink);
        }
        sink.0
    }

    /// The schema of one element of the root's `items`.
    fn item_node(&self) -> Option<NodeId> {
        let root = self.node(self.schema.root)?;
        let root = match root.reference {
            Some(target) => self.node(target)?,
            None => root,
        };
        let (_, items) = root.properties.iter().find(|(name, _)| name == "items")?;
        self.node(*items)?.items
    }

    fn node(&self, id: NodeId) -> Option<&'s Node> {
        self.schema.nodes.get(id)
    }

    fn ranker(&self) -> Ranker<'s> {
        Ranker::new(&self.schema.nodes)
    }

    fn is_valid(&self, id: NodeId, value: &Value) -> bool {
        self.check(id, value, &Path::ROOT, &mut Probe).is_ok()
    }

    fn check<S: Sink>(&self, id: NodeId, value: &Value, path: &Path<'_>, sink: &mut S) -> Flow {
        let Some(node) = self.node(id) else {
            return Ok(());
        };
        if let Some(allowed) = node.boolean {
            return if allowed {
                Ok(())
            } else {
                sink.fail(path, || "no value is allowed here".to_owned())
            };
        }
        let keywords = node.keywords;
        if keywords.has(Keywords::REFERENCE) {
            if let Some(target) = node.reference {
                self.check(target, value, path, sink)?;
            }
        }
        if let Some(types) = node.types {
            if !has_type(types, value) {
                return sink.fail(path, || type_mismatch(node, types, value));
            }
        }
        if keywords.has(Keywords::CONSTANT) {
            if let Some(constant) = &node.constant {
                if !equal(constant, value) {
                    sink.fail(path, || {
                        format!(
                            "expected {}, {}",
                            message::show(constant),
                            message::got(value)
                        )
                    })?;
                }
            }
        }
        if keywords.has(Keywords::ENUMERATION) {
            if let Some(choices) = &node.enumeration {
                if !choices.iter().any(|choice| equal(choice, value)) {
                    sink.fail(path, || {
                        format!(
                            "expected one of {}, {}",
                            message::choices(choices),
                            message::got(value)
                        )
                    })?;
                }
            }
        }
        match value {
            Value::Object(object) if keywords.has(Keywords::OBJECT) => {
                self.check_object(node, object, path, sink)?;
            }
            Value::Array(items) if keywords.has(Keywords::ARRAY) => {
                self.check_array(node, items, path, sink)?;
            }
            Value::String(text) if keywords.has(Keywords::STRING) => {
                check_string(node, text, path, sink)?;
            }
            Value::Number(_) if keywords.has(Keywords::NUMBER) => {
                check_number(node, value, path, sink)?;
            }
            _ => {}
        }
        if keywords.has(Keywords::ONE_OF) {
            self.check_one_of(&node.one_of, value, path, sink)?;
        }
        if keywords.has(Keywords::ANY_OF) && !node.any_of.iter().any(|&b| self.is_valid(b, value)) {
            self.report_best(&node.any_of, "at least one", value, path, sink)?;
        }
        if keywords.has(Keywords::NOT) {
            if let Some(not) = node.not {
                self.check_not(node, not, value, path, sink)?;
            }
        }
        Ok(())
    }

    fn check_object<S: Sink>(
        &self,
        node: &Node,
        object: &Map<String, Value>,
        path: &Path<'_>,
        sink: &mut S,
    ) -> Flow {
        for key in &node.required {
            if !object.contains_key(key) {
                sink.fail(&path.key(key), || "missing required field".to_owned())?;
            }
        }
        if let Some(names) = node.property_names {
            for key in object.keys() {
                self.check_name(names, key, path, sink)?;
            }
        }
        for (key, child) in object {
            let child_path = path.key(key);
            match node.properties.iter().find(|(name, _)| name == key) {
                Some(&(_, id)) => self.check(id, child, &child_path, sink)?,
                None => match node.additional {
                    Additional::Allowed => {}
                    Additional::Forbidden => {
                        if !self.forbidden_by_not(node, key, object) {
                            sink.fail(&child_path, || unknown_field(node, key))?;
                        }
                    }
                    Additional::Schema(id) => self.check(id, child, &child_path, sink)?,
                },
            }
        }
        Ok(())
    }

    fn check_name<S: Sink>(&self, id: NodeId, key: &str, path: &Path<'_>, sink: &mut S) -> Flow {
        let Some(node) = self.node(id) else {
            return Ok(());
        };
        let only_pattern = node.pattern.is_some()
            && node.reference.is_none()
            && node.enumeration.is_none()
            && node.constant.is_none()
            && node.min_length.is_none()
            && node.one_of.is_empty()
            && node.any_of.is_empty()
            && node.not.is_none();
        match &node.pattern {
            Some(pattern) if only_pattern => {
                if pattern.is_match(key) {
                    return Ok(());
                }
                sink.fail(&path.key(key), || {
                    let hint = message::pattern_hint(&pattern.source)
                        .map(|hint| format!(" ({hint})"))
                        .unwrap_or_default();
                    format!(
                        "invalid name {key:?}; expected a name matching {}{hint}",
                        pattern.source
                    )
                })
            }
            _ => {
                let name = Value::String(key.to_owned());
                let mut inner = Collect::default();
                let _ = self.check(id, &name, &path.key(key), &mut inner);
                let failures = inner
                    .0
                    .into_iter()
                    .map(|failure| Failure {
                        message: format!("invalid name {key:?}: {}", failure.message),
                        ..failure
                    })
                    .collect();
                sink.absorb(failures)
            }
        }
    }

    fn check_array<S: Sink>(
        &self,
        node: &Node,
        items: &[Value],
        path: &Path<'_>,
        sink: &mut S,
    ) -> Flow {
        if let Some(min) = node.min_items {
            if items.len() < min {
                sink.fail(path, || {
                    format!(
                        "expected at least {}, got {}",
                        count(min, "item"),
                        items.len()
                    )
                })?;
            }
        }
        if let Some(max) = node.max_items {
            if items.len() > max {
                sink.fail(path, || {
                    format!(
                        "expected at most {}, got {}",
                        count(max, "item"),
                        items.len()
                    )
                })?;
            }
        }
        if let Some(id) = node.items {
            for (index, item) in items.iter().enumerate() {
                self.check(id, item, &path.index(index), sink)?;
            }
        }
        Ok(())
    }

    fn check_one_of<S: Sink>(
        &self,
        branches: &[NodeId],
        value: &Value,
        path: &Path<'_>,
        sink: &mut S,
    ) -> Flow {
        let mut matching = branches.iter().filter(|&&b| self.is_valid(b, value));
        let first = matching.next();
        let second = matching.next();
        match (first, second) {
            (Some(_), None) => Ok(()),
            (None, _) => self.report_best(branches, "exactly one", value, path, sink),
            (Some(&a), Some(&b)) => sink.fail(path, || {
                format!(
                    "matches more than one allowed shape ({} and {}); expected exactly one",
                    self.ranker().branch_name(a),
                    self.ranker().branch_name(b)
                )
            }),
        }
    }

    /// Reports why no branch fits: the errors of the most plausible branch, or, when every branch
    /// only requires fields, which fields were expected.
    fn report_best<S: Sink>(
        &self,
        branches: &[NodeId],
        quantifier: &str,
        value: &Value,
        path: &Path<'_>,
        sink: &mut S,
    ) -> Flow {
        if !S::COLLECTS {
            return sink.fail(path, String::new);
        }
        let required_only: Option<Vec<&str>> = branches
            .iter()
            .map(|&b| {
                self.ranker()
                    .resolve(b)
                    .filter(|node| node.is_required_only())
                    .map(|node| node.required.iter().map(String::as_str))
            })
            .try_fold(Vec::new(), |mut names, branch| {
                names.extend(branch?);
                Some(names)
            });
        if let Some(names) = required_only {
            let quoted: Vec<String> = names.iter().map(|name| format!("{name:?}")).collect();
            return sink.fail(path, || {
                format!("expected {quantifier} of the fields {}", quoted.join(", "))
            });
        }
        let mut best: Option<((i64, usize, usize), Vec<Failure>)> = None;
        for &branch in branches {
            let mut collected = Collect::default();
            let _ = self.check(branch, value, path, &mut collected);
            let (signal, coverage) = self.ranker().rank(branch, value);
            let rank = (signal, coverage, usize::MAX - collected.0.len());
            let better = match &best {
                Some((top, _)) => rank > *top,
                None => true,
            };
            if better {
                best = Some((rank, collected.0));
            }
        }
        match best {
            Some((_, failures)) if !failures.is_empty() => sink.absorb(failures),
            _ => sink.fail(path, || "does not match any allowed shape".to_owned()),
        }
    }

    fn check_not<S: Sink>(
        &self,
        node: &Node,
        not: NodeId,
        value: &Value,
        path: &Path<'_>,
        sink: &mut S,
    ) -> Flow {
        if !self.is_valid(not, value) {
            return Ok(());
        }
        match self.node(not) {
            Some(forbidden) if forbidden.is_required_only() && value.is_object() => {
                for key in &forbidden.required {
                    sink.fail(&path.key(key), || {
                        if node.required.is_empty() {
                            "field not allowed here".to_owned()
                        } else {
                            let partners: Vec<String> =
                                node.required.iter().map(|k| format!("{k:?}")).collect();
                            format!("field not allowed together with {}", partners.join(" and "))
                        }
                    })?;
                }
                Ok(())
            }
            _ => sink.fail(path, || "value not allowed here".to_owned()),
        }
    }

    /// Whether `key` is already reported by the node's `not: {required: [...]}`.
    fn forbidden_by_not(&self, node: &Node, key: &str, object: &Map<String, Value>) -> bool {
        node.not
            .and_then(|not| self.node(not))
            .filter(|forbidden| forbidden.is_required_only())
            .is_some_and(|forbidden| {
                forbidden.required.iter().any(|k| k == key)
                    && forbidden.required.iter().all(|k| object.contains_key(k))
            })
    }
}

fn check_string<S: Sink>(node: &Node, text: &str, path: &Path<'_>, sink: &mut S) -> Flow {
    if let Some(min) = node.min_length {
        if text.chars().take(min).count() < min {
            sink.fail(path, || {
                if min == 1 {
                    "expected a non-empty string".to_owned()
                } else {
                    format!(
                        "expected a string of at least {}, got {}",
                        count(min, "character"),
                        text.chars().count()
                    )
                }
            })?;
        }
    }
    if let Some(pattern) = &node.pattern {
        if !pattern.is_match(text) {
            sink.fail(path, || {
                let hint = message::pattern_hint(&pattern.source)
                    .map(|hint| format!(" ({hint})"))
                    .unwrap_or_default();
                format!(
                    "expected a string matching {}{hint}, got {}",
                    pattern.source,
                    message::show(&Value::String(text.to_owned()))
                )
            })?;
        }
    }
    if let Some(format) = node.format {
        if !format.accepts(text) {
            sink.fail(path, || {
                format!(
                    "expected {}, got {}",
                    format.describe(),
                    message::show(&Value::String(text.to_owned()))
                )
            })?;
        }
    }
    Ok(())
}

fn check_number<S: Sink>(node: &Node, value: &Value, path: &Path<'_>, sink: &mut S) -> Flow {
    let Some(number) = value.as_f64() else {
        return Ok(());
    };
    let below = node.minimum.is_some_and(|min| number < min);
    let above = node.maximum.is_some_and(|max| number > max);
    if below || above {
        sink.fail(path, || {
            format!(
                "expected {} {}, got {}",
                message::numeric(node),
                message::range(node),
                message::show(value)
            )
        })?;
    }
    Ok(())
}

fn type_mismatch(node: &Node, types: Types, value: &Value) -> String {
    let expected = if let Some(choices) = &node.enumeration {
        format!("one of {}", message::choices(choices))
    } else if let Some(constant) = &node.constant {
        message::show(constant)
    } else if node.minimum.is_some() || node.maximum.is_some() {
        format!("{} {}", message::numeric(node), message::range(node))
    } else if let Some(pattern) = &node.pattern {
        let hint = message::pattern_hint(&pattern.source)
            .map(|hint| format!(" ({hint})"))
            .unwrap_or_default();
        format!("a string matching {}{hint}", pattern.source)
    } else {
        message::types(types)
    };
    format!("expected {expected}, {}", message::got(value))
}

fn unknown_field(node: &Node, key: &str) -> String {
    let names: Vec<&str> = node
        .properties
        .iter()
        .map(|(name, _)| name.as_str())
        .collect();
    if names.is_empty() {
        return "unknown field; no fields are allowed here".to_owned();
    }
    let suggestion = message::closest(key, &names)
        .map(|name| format!(" (did you mean {name:?}?)"))
        .unwrap_or_default();
    format!(
        "unknown field; expected one of: {}{suggestion}",
        message::field_list(&names)
    )
}

fn count(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json;
    use crate::schema::compile::compile;

    fn failures(schema: Value, value: Value) -> Vec<String> {
        let compiled = compile(&schema).unwrap_or_else(|error| panic!("{error}"));
        Validator::new(&compiled)
            .validate(&value)
            .into_iter()
            .map(|failure| format!("{}: {}", failure.pointer, failure.message))
            .collect()
    }

    #[test]
    fn pointers_are_escaped_and_lazy() {
        let schema = json!({"additionalProperties": {"type": "integer"}});
        assert_eq!(
            failures(schema, json!({"a/b~c": "x", "ok": 1})),
            ["/a~1b~0c: expected an integer, got \"x\""]
        );
    }

    #[test]
    fn whole_floats_are_integers() {
        let schema = json!({"type": "integer"});
        assert!(failures(schema.clone(), json!(2.0)).is_empty());
        assert_eq!(
            failures(schema, json!(2.5)),
            [": expected an integer, got a number (2.5)"]
        );
    }

    #[test]
    fn one_of_reports_the_branch_whose_discriminator_matches() {
        let schema = json!({
            "oneOf": [
                {"type": "object", "required": ["score"], "properties": {"result": {"enum": ["pass", "fail"]}}},
                {"type": "object", "required": ["result", "error"], "additionalProperties": false,
                 "properties": {"result": {"const": "error"}, "error": {"type": "string"}}}
            ]
        });
        assert_eq!(
            failures(schema, json!({"result": "error", "score": 0})),
            [
                "/error: missing required field",
                "/score: unknown field; expected one of: result, error"
            ]
        );
    }

    #[test]
    fn one_of_matching_twice_is_reported() {
        let schema = json!({"oneOf": [{"type": "number"}, {"type": "integer"}]});
        assert_eq!(
            failures(schema, json!(3)),
            [": matches more than one allowed shape (an unnamed shape and an unnamed shape); expected exactly one"]
        );
    }

    #[test]
    fn any_of_required_only_names_the_fields() {
        let schema = json!({"anyOf": [{"required": ["a"]}, {"required": ["b"]}]});
        assert_eq!(
            failures(schema.clone(), json!({"c": 1})),
            [": expected at least one of the fields \"a\", \"b\""]
        );
        assert!(failures(schema, json!({"b": 1})).is_empty());
    }

    #[test]
    fn not_required_is_reported_once_per_field() {
        let schema = json!({
            "type": "object", "required": ["turns"], "additionalProperties": false,
            "properties": {"turns": {}}, "not": {"required": ["prompt"]}
        });
        assert_eq!(
            failures(schema, json!({"turns": [], "prompt": "x"})),
            ["/prompt: field not allowed together with \"turns\""]
        );
    }

    /// Each keyword is checked when it is its node's only one, so no keyword group is skipped by
    /// the node's summary of the groups it has.
    #[test]
    fn every_keyword_alone_is_checked() {
        let cases = [
            (
                json!({"$defs": {"n": {"type": "string"}}, "$ref": "#/$defs/n"}),
                json!(1),
            ),
            (json!({"const": "x"}), json!("y")),
            (json!({"enum": ["x"]}), json!("y")),
            (json!({"properties": {"a": false}}), json!({"a": 1})),
            (json!({"additionalProperties": false}), json!({"a": 1})),
            (json!({"required": ["a"]}), json!({})),
            (
                json!({"propertyNames": {"pattern": "^[a-zA-Z][a-zA-Z0-9_]*$"}}),
                json!({"1b": 1}),
            ),
            (json!({"items": {"type": "string"}}), json!([1])),
            (json!({"minItems": 1}), json!([])),
            (json!({"maxItems": 0}), json!([1])),
            (json!({"minLength": 2}), json!("x")),
            (json!({"pattern": "\\S"}), json!(" ")),
            (json!({"format": "date-time"}), json!("yesterday")),
            (json!({"minimum": 1}), json!(0)),
            (json!({"maximum": 1}), json!(2)),
            (json!({"oneOf": [{"type": "string"}]}), json!(1)),
            (json!({"anyOf": [{"type": "string"}]}), json!(1)),
            (json!({"not": {"type": "integer"}}), json!(1)),
        ];
        for (schema, value) in cases {
            assert_eq!(
                failures(schema.clone(), value.clone()).len(),
                1,
                "{schema} against {value}"
            );
        }
    }

    #[test]
    fn boolean_schemas_and_type_lists() {
        let schema = json!({"properties": {"never": false, "maybe": {"type": ["string", "null"]}}});
        assert_eq!(
            failures(schema, json!({"never": 1, "maybe": 2})),
            [
                "/never: no value is allowed here",
                "/maybe: expected a string or null, got an integer (2)"
            ]
        );
    }
}

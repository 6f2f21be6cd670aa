//! Compiles a JSON Schema (the draft 2020-12 subset our eval-document schema uses) into an arena
//! of nodes with every `$ref` resolved and every `pattern` compiled, once, before any validation.
//!
//! A keyword outside the subset is a compile error, so the schema file cannot silently use
//! something the validator ignores. It never validates documents itself (see `validator`).

use std::collections::HashMap;

use crate::json::{Map, Value};

use super::annotations::ANNOTATIONS;
use super::format::Format;
use super::pattern::Pattern;

/// Index of a node in [`Compiled::nodes`].
pub(crate) type NodeId = usize;

/// JSON types a node accepts, as a bit set.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Types(u8);

impl Types {
    pub(crate) const NULL: Types = Types(1);
    pub(crate) const BOOLEAN: Types = Types(2);
    pub(crate) const OBJECT: Types = Types(4);
    pub(crate) const ARRAY: Types = Types(8);
    pub(crate) const NUMBER: Types = Types(16);
    pub(crate) const STRING: Types = Types(32);
    pub(crate) const INTEGER: Types = Types(64);

    /// The set with the members of both.
    pub(crate) const fn union(self, other: Types) -> Types {
        Types(self.0 | other.0)
    }

    /// Whether `other` is in the set.
    pub(crate) fn contains(self, other: Types) -> bool {
        self.0 & other.0 != 0
    }

    fn named(name: &str) -> Option<Types> {
        Some(match name {
            "null" => Types::NULL,
            "boolean" => Types::BOOLEAN,
            "object" => Types::OBJECT,
            "array" => Types::ARRAY,
            "number" => Types::NUMBER,
            "string" => Types::STRING,
            "integer" => Types::INTEGER,
            _ => return None,
        })
    }

    /// Every member, in a fixed order, for messages.
    pub(crate) fn members(self) -> impl Iterator<Item = Types> {
        [
            Types::OBJECT,
            Types::ARRAY,
            Types::STRING,
            Types::INTEGER,
            Types::NUMBER,
            Types::BOOLEAN,
            Types::NULL,
        ]
        .into_iter()
        .filter(move |member| self.contains(*member))
    }
}

/// What `additionalProperties` says about keys not listed in `properties`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) enum Additional {
    /// Absent or `true`.
    #[default]
    Allowed,
    /// `false`.
    Forbidden,
    /// A schema every other value must match.
    Schema(NodeId),
}

/// Which groups of keywords a node has, so that checking a value reads only the fields of those
/// it has: a node is 384 bytes (six cache lines), and reading every field of every node a value
/// meets took about a third of the first-level data-cache misses of scoring the benchmark
/// document (cachegrind).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Keywords(u16);

impl Keywords {
    pub(crate) const REFERENCE: Keywords = Keywords(1);
    pub(crate) const CONSTANT: Keywords = Keywords(1 << 1);
    pub(crate) const ENUMERATION: Keywords = Keywords(1 << 2);
    /// `properties`, `additionalProperties` other than `true`, `required`, `propertyNames`.
    pub(crate) const OBJECT: Keywords = Keywords(1 << 3);
    /// `items`, `minItems`, `maxItems`.
    pub(crate) const ARRAY: Keywords = Keywords(1 << 4);
    /// `minLength`, `pattern`, `format`.
    pub(crate) const STRING: Keywords = Keywords(1 << 5);
    /// `minimum`, `maximum`.
    pub(crate) const NUMBER: Keywords = Keywords(1 << 6);
    pub(crate) const ONE_OF: Keywords = Keywords(1 << 7);
    pub(crate) const ANY_OF: Keywords = Keywords(1 << 8);
    pub(crate) const NOT: Keywords = Keywords(1 << 9);

    /// Whether the node has keywords of `group`.
    pub(crate) fn has(self, group: Keywords) -> bool {
        self.0 & group.0 != 0
    }

    fn with(self, group: Keywords, present: bool) -> Keywords {
        if present {
            Keywords(self.0 | group.0)
        } else {
            self
        }
    }
}

/// One compiled schema (object or boolean). Laid out in declaration order, the fields every check
/// reads first, so that they share the node's first cache line.
#[derive(Debug, Clone, Default)]
#[repr(C)]
pub(crate) struct Node {
    /// The groups of keywords the node has; set by [`compile`] once the node is complete.
    pub(crate) keywords: Keywords,
    /// `Some(false)` for the `false` schema; `Some(true)` for `true`.
    pub(crate) boolean: Option<bool>,
    pub(crate) types: Option<Types>,
    pub(crate) reference: Option<NodeId>,
    pub(crate) properties: Vec<(String, NodeId)>,
    pub(crate) required: Vec<String>,
    pub(crate) additional: Additional,
    pub(crate) property_names: Option<NodeId>,
    pub(crate) items: Option<NodeId>,
    pub(crate) min_length: Option<usize>,
    pub(crate) pattern: Option<Pattern>,
    pub(crate) format: Option<Format>,
    pub(crate) minimum: Option<f64>,
    pub(crate) maximum: Option<f64>,
    pub(crate) min_items: Option<usize>,
    pub(crate) max_items: Option<usize>,
    pub(crate) enumeration: Option<Vec<Value>>,
    pub(crate) constant: Option<Value>,
    pub(crate) one_of: Vec<NodeId>,
    pub(crate) any_of: Vec<NodeId>,
    pub(crate) not: Option<NodeId>,
    /// The `$defs` name, for definitions.
    pub(crate) name: Option<String>,
}

impl Node {
    /// The groups of keywords the node's fields hold.
    fn present_keywords(&self) -> Keywords {
        Keywords::default()
            .with(Keywords::REFERENCE, self.reference.is_some())
            .with(Keywords::CONSTANT, self.constant.is_some())
            .with(Keywords::ENUMERATION, self.enumeration.is_some())
            .with(
                Keywords::OBJECT,
                !self.properties.is_empty()
                    || self.additional != Additional::Allowed
                    || !self.required.is_empty()
                    || self.property_names.is_some(),
            )
            .with(
                Keywords::ARRAY,
                self.items.is_some() || self.min_items.is_some() || self.max_items.is_some(),
            )
            .with(
                Keywords::STRING,
                self.min_length.is_some() || self.pattern.is_some() || self.format.is_some(),
            )
            .with(
                Keywords::NUMBER,
                self.minimum.is_some() || self.maximum.is_some(),
            )
            .with(Keywords::ONE_OF, !self.one_of.is_empty())
            .with(Keywords::ANY_OF, !self.any_of.is_empty())
            .with(Keywords::NOT, self.not.is_some())
    }

    /// Whether the node is a bare `{"required": [...]}`.
    pub(crate) fn is_required_only(&self) -> bool {
        !self.required.is_empty()
            && self.reference.is_none()
            && self.types.is_none()
            && self.properties.is_empty()
            && self.additional == Additional::Allowed
            && self.one_of.is_empty()
            && self.any_of.is_empty()
            && self.not.is_none()
    }
}

/// A compiled schema: the node arena and its root.
#[derive(Debug, Clone)]
pub(crate) struct Compiled {
    pub(crate) nodes: Vec<Node>,
    pub(crate) root: NodeId,
}

/// Compiles `schema`.
///
/// # Errors
/// The schema path and keyword the compiler does not support, or a dangling `$ref`.
pub(crate) fn compile(schema: &Value) -> Result<Compiled, String> {
    let definitions = match schema.get("$defs") {
        Some(Value::Object(definitions)) => Some(definitions),
        Some(_) => return Err("/$defs: expected an object".to_owned()),
        None => None,
    };
    let mut compiler = Compiler::default();
    for name in definitions.into_iter().flat_map(Map::keys) {
        let id = compiler.reserve();
        compiler.definitions.insert(name.clone(), id);
    }
    for (name, definition) in definitions.into_iter().flatten() {
        let id = compiler.definitions.get(name).copied().unwrap_or_default();
        let mut node = compiler.node(definition, &format!("/$defs/{name}"))?;
        node.name = Some(name.clone());
        compiler.place(id, node);
    }
    let root = compiler.add(schema, "")?;
    let mut nodes = compiler.nodes;
    for node in &mut nodes {
        node.keywords = node.present_keywords();
    }
    Ok(Compiled { nodes, root })
}

#[derive(Default)]
struct Compiler {
    nodes: Vec<Node>,
    definitions: HashMap<String, NodeId>,
}

impl Compiler {
    fn reserve(&mut self) -> NodeId {
        self.nodes.push(Node::default());
        self.nodes.len() - 1
    }

    fn place(&mut self, id: NodeId, node: Node) {
        if let Some(slot) = self.nodes.get_mut(id) {
            *slot = node;
        }
    }

    fn add(&mut self, schema: &Value, at: &str) -> Result<NodeId, String> {
        let node = self.node(schema, at)?;
        let id = self.reserve();
        self.place(id, node);
        Ok(id)
    }

    fn node(&mut self, schema: &Value, at: &str) -> Result<Node, String> {
        let object = match schema {
            Value::Bool(allowed) => {
                return Ok(Node {
                    boolean: Some(*allowed),
                    ..Node::default()
                })
            }
            Value::Object(object) => object,
            _ => return Err(format!("{at}: a schema must be an object or a boolean")),
        };
        let mut node = Node::default();
        for (keyword, value) in object {
            let here = format!("{at}/{keyword}");
            self.keyword(&mut node, keyword, value, &here, at)?;
        }
        Ok(node)
    }

    fn keyword(
        &mut self,
        node: &mut Node,
        keyword: &str,
        value: &Value,
        here: &str,
        at: &str,
    ) -> Result<(), String> {
        match keyword {
            "$ref" => node.reference = Some(self.reference(value, here)?),
            "type" => node.types = Some(types(value, here)?),
            "properties" => {
                for (name, schema) in object(value, here)? {
                    let child = self.add(schema, &format!("{here}/{name}"))?;
                    node.properties.push((name.clone(), child));
                }
            }
            "additionalProperties" => {
                node.additional = match value {
                    Value::Bool(true) => Additional::Allowed,
                    Value::Bool(false) => Additional::Forbidden,
                    schema => Additional::Schema(self.add(schema, here)?),
                }
            }
            "required" => node.required = strings(value, here)?,
            "propertyNames" => node.property_names = Some(self.add(value, here)?),
            "minimum" => node.minimum = Some(number(value, here)?),
            "maximum" => node.maximum = Some(number(value, here)?),
            "minLength" => node.min_length = Some(count(value, here)?),
            "minItems" => node.min_items = Some(count(value, here)?),
            "maxItems" => node.max_items = Some(count(value, here)?),
            "items" => node.items = Some(self.add(value, here)?),
            "pattern" => node.pattern = Some(pattern(value, here)?),
            "format" => {
                node.format = Some(
                    value
                        .as_str()
                        .and_then(Format::named)
                        .ok_or_else(|| format!("{here}: unsupported format {value}"))?,
                )
            }
            "enum" => match value {
                Value::Array(values) if !values.is_empty() => {
                    node.enumeration = Some(values.clone());
                }
                _ => return Err(format!("{here}: expected a non-empty array")),
            },
            "const" => node.constant = Some(value.clone()),
            "oneOf" => node.one_of = self.list(value, here)?,
            "anyOf" => node.any_of = self.list(value, here)?,
            "not" => node.not = Some(self.add(value, here)?),
            "$defs" if at.is_empty() => {}
            annotation if ANNOTATIONS.contains(&annotation) => {}
            unknown => return Err(format!("{here}: unsupported keyword {unknown:?}")),
        }
        Ok(())
    }

    fn reference(&self, value: &Value, here: &str) -> Result<NodeId, String> {
        value
            .as_str()
            .and_then(|reference| reference.strip_prefix("#/$defs/"))
            .and_then(|name| self.definitions.get(name).copied())
            .ok_or_else(|| format!("{here}: unresolvable $ref {value}"))
    }

    fn list(&mut self, value: &Value, here: &str) -> Result<Vec<NodeId>, String> {
        match value {
            Value::Array(schemas) if !schemas.is_empty() => schemas
                .iter()
                .enumerate()
                .map(|(index, schema)| self.add(schema, &format!("{here}/{index}")))
                .collect(),
            _ => Err(format!("{here}: expected a non-empty array of schemas")),
        }
    }
}

fn object<'v>(value: &'v Value, here: &str) -> Result<&'v Map<String, Value>, String> {
    value
        .as_object()
        .ok_or_else(|| format!("{here}: expected an object"))
}

fn types(value: &Value, here: &str) -> Result<Types, String> {
    let named = |name: &Value| {
        name.as_str()
            .and_then(Types::named)
            .ok_or_else(|| format!("{here}: unknown type {name}"))
    };
    match value {
        Value::Array(names) if !names.is_empty() => names
            .iter()
            .try_fold(Types(0), |set, name| Ok(set.union(named(name)?))),
        single => named(single),
    }
}

fn strings(value: &Value, here: &str) -> Result<Vec<String>, String> {
    value
        .as_array()
        .and_then(|values| {
            values
                .iter()
                .map(|value| value.as_str().map(str::to_owned))
                .collect()
        })
        .ok_or_else(|| format!("{here}: expected an array of strings"))
}

fn number(value: &Value, here: &str) -> Result<f64, String> {
    value
        .as_f64()
        .ok_or_else(|| format!("{here}: expected a number"))
}

fn count(value: &Value, here: &str) -> Result<usize, String> {
    value
        .as_u64()
        .and_then(|count| usize::try_from(count).ok())
        .ok_or_else(|| format!("{here}: expected a non-negative integer"))
}

fn pattern(value: &Value, here: &str) -> Result<Pattern, String> {
    let source = value
        .as_str()
        .ok_or_else(|| format!("{here}: expected a string"))?;
    Pattern::new(source).map_err(|error| format!("{here}: {error}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json;

    #[test]
    fn resolves_refs_to_definitions() {
        let compiled = compile(&json!({
            "$defs": {"A": {"type": "string"}},
            "properties": {"a": {"$ref": "#/$defs/A"}}
        }));
        let compiled = compiled.unwrap_or_else(|error| panic!("{error}"));
        let root = &compiled.nodes[compiled.root];
        let child = &compiled.nodes[root.properties[0].1];
        let target = &compiled.nodes[child.reference.unwrap_or(usize::MAX)];
        assert_eq!(target.name.as_deref(), Some("A"));
        assert_eq!(target.types, Some(Types::STRING));
    }

    #[test]
    fn rejects_what_it_cannot_validate() {
        let cases = [
            (
                json!({"uniqueItems": true}),
                "/uniqueItems: unsupported keyword",
            ),
            (
                json!({"$ref": "#/$defs/Missing"}),
                "/$ref: unresolvable $ref",
            ),
            (json!({"type": "decimal"}), "/type: unknown type"),
            (json!({"format": "email"}), "/format: unsupported format"),
            (
                json!({"properties": {"a": {"pattern": "("}}}),
                "/properties/a/pattern",
            ),
        ];
        for (schema, expected) in cases {
            let error = compile(&schema).err().unwrap_or_default();
            assert!(error.starts_with(expected), "{error}");
        }
    }
}

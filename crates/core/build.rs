//! Writes the eval-document schema without its annotations (`description`, `title`, `examples`…)
//! and whitespace to `OUT_DIR`, for the validator to embed: the annotations are for readers of
//! `src/schema/eval-document.schema.json`, and leaving them out makes the WebAssembly module
//! about 5 KB smaller gzipped.

#[path = "src/schema/annotations.rs"]
mod annotations;

use std::path::Path;

use annotations::ANNOTATIONS;
use serde_json::Value;

const SCHEMA: &str = "src/schema/eval-document.schema.json";

fn main() -> Result<(), String> {
    println!("cargo::rerun-if-changed={SCHEMA}");
    println!("cargo::rerun-if-changed=src/schema/annotations.rs");
    let text = std::fs::read_to_string(SCHEMA).map_err(|error| format!("{SCHEMA}: {error}"))?;
    let mut schema: Value =
        serde_json::from_str(&text).map_err(|error| format!("{SCHEMA}: {error}"))?;
    strip_annotations(&mut schema);
    let out_dir = std::env::var_os("OUT_DIR").ok_or("OUT_DIR is not set")?;
    let compact = Path::new(&out_dir).join("eval-document.compact.json");
    std::fs::write(&compact, schema.to_string())
        .map_err(|error| format!("{}: {error}", compact.display()))
}

/// Removes the annotation keywords from `schema` and every schema inside it, leaving data
/// (`enum`, `const`, `required`…) and property names untouched.
fn strip_annotations(schema: &mut Value) {
    let Value::Object(keywords) = schema else {
        return;
    };
    keywords.retain(|keyword, _| !ANNOTATIONS.contains(&keyword.as_str()));
    for (keyword, value) in keywords.iter_mut() {
        match (keyword.as_str(), value) {
            ("properties" | "$defs" | "patternProperties", Value::Object(named)) => {
                named.values_mut().for_each(strip_annotations);
            }
            ("anyOf" | "oneOf" | "allOf" | "prefixItems", Value::Array(schemas)) => {
                schemas.iter_mut().for_each(strip_annotations);
            }
            (
                "items"
                | "additionalProperties"
                | "not"
                | "propertyNames"
                | "contains"
                | "if"
                | "then"
                | "else",
                child,
            ) => strip_annotations(child),
            _ => {}
        }
    }
}

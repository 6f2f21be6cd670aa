//! The JSON Schema keywords that annotate a schema without constraining it: the compiler skips
//! them, and the build script leaves them out of the embedded schema.

/// Annotation keywords.
pub(crate) const ANNOTATIONS: &[&str] = &[
    "$schema",
    "$id",
    "$comment",
    "title",
    "description",
    "default",
    "examples",
];

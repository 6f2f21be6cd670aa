//! Eval-document JSON Schema validation (being written).

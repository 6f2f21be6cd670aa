//! Strict JSON parsing (being written).

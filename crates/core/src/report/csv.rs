//! csv output writer (being written).

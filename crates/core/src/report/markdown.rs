//! markdown output writer (being written).

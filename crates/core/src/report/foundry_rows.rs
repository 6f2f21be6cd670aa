//! foundry_rows output writer (being written).

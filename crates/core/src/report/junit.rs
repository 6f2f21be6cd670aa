//! junit output writer (being written).

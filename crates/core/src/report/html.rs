//! html output writer (being written).

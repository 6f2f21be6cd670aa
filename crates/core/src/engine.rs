//! Scoring engine (being written).

//! Comparing two scored runs of the same dataset.

pub mod stats;

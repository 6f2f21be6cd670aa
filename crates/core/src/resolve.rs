//! Evaluator resolution (being written).

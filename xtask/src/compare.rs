//! The core's `compare_reference` example, which writes the benchmark documents and compares the
//! evaluators with azure-ai-evaluation: shared by the benchmarks and the profile-guided build.

use crate::run::{cargo, Step};

/// The core's `compare_reference` example (release build) with `args`.
pub fn compare_reference(args: &[&str]) -> Step {
    cargo([
        "run",
        "--release",
        "-q",
        "-p",
        "agenteval-core",
        "--example",
        "compare_reference",
        "--",
    ])
    .args(args)
}

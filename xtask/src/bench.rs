//! `cargo xtask bench` (being written).

/// Runs the benchmarks.
pub fn run() -> Result<(), String> {
    Err("not written yet".to_owned())
}

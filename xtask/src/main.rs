//! Project tooling (being written).

fn main() {}

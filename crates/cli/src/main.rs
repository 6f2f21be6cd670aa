//! The `agenteval` command-line tool (being written).

fn main() {}

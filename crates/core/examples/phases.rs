//! Times each phase of scoring a document (development aid): `phases FILE`.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

#[path = "../../cli/src/allocator.rs"]
mod allocator;

use std::time::Instant;

use agenteval_core::dataset::{self, Dataset};
use agenteval_core::scored::m365_document::{self, DocumentOptions};
use agenteval_core::{engine, json, schema};

#[global_allocator]
static GLOBAL: allocator::Allocator = allocator::allocator();

fn main() -> Result<(), String> {
    let path = std::env::args().nth(1).ok_or("usage: phases FILE")?;
    let bytes = std::fs::read(&path).map_err(|error| error.to_string())?;
    let text = std::str::from_utf8(&bytes).map_err(|error| error.to_string())?;
    let start = Instant::now();
    let acceptable = json::is_acceptable(text);
    eprintln!("check      {:?} ({acceptable})", start.elapsed());
    let start = Instant::now();
    let outline = json::outline(text, "items");
    eprintln!(
        "outline    {:?} ({} items; checks the text itself)",
        start.elapsed(),
        outline.map_or(0, |outline| outline.elements.len())
    );
    let start = Instant::now();
    let value = json::parse(&bytes).map_err(|error| error.to_string())?;
    eprintln!("parse      {:?}", start.elapsed());
    let start = Instant::now();
    let problems = schema::validate(&value);
    eprintln!(
        "validate   {:?} ({} problems)",
        start.elapsed(),
        problems.len()
    );
    drop(value);
    let start = Instant::now();
    let loaded = dataset::load(&bytes, None).map_err(|error| error.to_string())?;
    eprintln!("load       {:?}", start.elapsed());
    let start = Instant::now();
    let report = engine::score(&loaded.dataset);
    eprintln!("score      {:?}", start.elapsed());
    let Dataset::M365(document) = loaded.dataset else {
        return Ok(());
    };
    let start = Instant::now();
    let written =
        m365_document::write_owned(document.document, &report, &DocumentOptions::default());
    eprintln!("write      {:?}", start.elapsed());
    let start = Instant::now();
    let text = serde_json::to_vec(&written).map_err(|error| error.to_string())?;
    eprintln!("serialize  {:?} ({} bytes)", start.elapsed(), text.len());
    let start = Instant::now();
    drop(written);
    drop(report);
    eprintln!("drop       {:?}", start.elapsed());
    Ok(())
}

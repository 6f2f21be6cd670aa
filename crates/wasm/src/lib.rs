//! agenteval-wasm: the core compiled to WebAssembly, as the JavaScript API of the npm package in
//! `pkg/`. A thin layer: it reads JavaScript values into core inputs, calls the core, and writes
//! core outputs back as plain JSON-compatible objects. It decides no verdicts.
//!
//! Exports (camelCase in JavaScript): `validate`, `evaluators`, `score`, `evaluate` (and its
//! `Evaluation`), `scoreDocument`, `scoreItem`, `render`, `readReport`, `compare`, `evaluateRows` (and its
//! `RowsEvaluation`), `applyReviews`, `run` (the agent under test answers a dataset: [`agent`]), and `setWordnetLoader` (how a run that scores METEOR gets its WordNet table,
//! registered by `pkg/load.js`).
//! Every object that crosses the boundary is declared in [`types`], from which the package's
//! TypeScript declarations are generated.

pub mod agent;
pub mod boundary;
pub mod catalog;
pub mod compare;
pub mod convert;
pub mod document;
pub mod error;
pub mod evaluation;
pub mod exchanges;
pub mod judge;
pub mod judged;
pub mod memory;
pub mod options;
pub mod read_report;
pub mod render;
pub mod report_json;
pub mod review;
pub mod rows;
pub mod rubric;
pub mod run;
pub mod run_plan;
pub mod types;
pub mod validate;
pub mod wordnet;

#[cfg(target_arch = "wasm32")]
use agenteval_core::small_blocks::{OneThread, SmallBlocks};
use wasm_bindgen::prelude::*;

/// Talc instead of the standard library's dlmalloc, growing the memory in steps that grow with it
/// (see [`memory`]), behind the core's cache of freed small blocks
/// ([`agenteval_core::small_blocks`]): the streaming paths allocate and free many small values per
/// item.
#[cfg(target_arch = "wasm32")]
#[global_allocator]
static ALLOCATOR: SmallBlocks<memory::Allocator, OneThread> =
    SmallBlocks::new(memory::allocator(), OneThread::new(), MAX_CACHED_BLOCKS);

/// Most blocks one size class of the module's cache keeps: a few megabytes at most.
#[cfg(target_arch = "wasm32")]
const MAX_CACHED_BLOCKS: usize = 1024;

/// Key of the global slot where the panic hook leaves the last panic message, for the package's
/// guard to put into the `internalError` it throws before resetting the module.
const PANIC_SLOT: &str = "agenteval.panic";

/// Installs the panic hook when the module is instantiated (again after every reset).
#[wasm_bindgen(start, skip_typescript)]
pub fn start() {
    std::panic::set_hook(Box::new(|info| {
        let slot = js_sys::Symbol::for_(PANIC_SLOT);
        let _ = js_sys::Reflect::set(&js_sys::global(), &slot, &info.to_string().into());
    }));
}

/// A deliberate crash, for the tests that check the module recovers from one: only in the test
/// build (feature `crash-test`), never in the package.
#[cfg(feature = "crash-test")]
#[wasm_bindgen(js_name = __testPanic, skip_typescript)]
#[allow(
    clippy::panic,
    reason = "the crash-recovery tests need a real panic inside the module"
)]
pub fn test_panic() {
    panic!("deliberate panic from __testPanic");
}

/// The package version (the core's version).
#[wasm_bindgen(js_name = version)]
pub fn version() -> String {
    env!("CARGO_PKG_VERSION").to_owned()
}

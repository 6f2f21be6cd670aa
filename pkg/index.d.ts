// The package's declarations are generated from the Rust types (crates/wasm/src/types.rs) into
// agenteval_wasm.d.ts by `cargo xtask build`; this file only selects the public names.
export type * from "./agenteval_wasm.js";
export {
  validate,
  evaluators,
  score,
  evaluate,
  scoreDocument,
  scoreItem,
  render,
  version,
  connectWorker,
} from "./agenteval_wasm.js";
// Only the second module (loaded on first use) has `readReport` and `evaluateRows`.
export { readReport, evaluateRows } from "./agenteval_judge.js";
export type { RowsEvaluation, Rows, RowsOptions, RowCode } from "./agenteval_judge.js";

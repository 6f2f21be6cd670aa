// The package's declarations are generated from the Rust types (crates/wasm/src/types.rs) into
// agenteval_wasm.d.ts by `cargo xtask build`; this file only selects the public names.
export type * from "./agenteval_wasm.js";
export {
  validate,
  plan,
  evaluators,
  score,
  evaluate,
  scoreDocument,
  scoreItem,
  render,
  readReport,
  rescoreDataset,
  applyReviews,
  compare,
  generateRubric,
  evaluateRows,
  run,
  version,
  connectWorker,
} from "./agenteval_wasm.js";

import type { CaseOutcome, Format, JsonObject, OutputOptions, Rows, RowsOptions, RunReport } from "./agenteval_wasm.js";

/** A `RowsEvaluation` held in the package's worker: the same members, the methods asynchronous. */
export interface WorkerRowsEvaluation {
  readonly summary: RunReport["summary"];
  readonly dialect: RunReport["dialect"];
  /** The entries as columns (transferred from the worker). */
  readonly rows: Rows;
  /** How many entries the run has. */
  readonly length: number;
  /** One outcome, made in the worker on demand. */
  entry(position: number): Promise<CaseOutcome>;
  /** A Copilot Studio row's columns, made in the worker on demand (see `RowsEvaluation.input`). */
  input(position: number): Promise<JsonObject | undefined>;
  /** Writes the run in `format` (see `RowsEvaluation.render`). */
  render(format: Format, options?: OutputOptions | null): Promise<string>;
  /** Releases the run held in the worker; later calls reject. */
  free(): void;
  [Symbol.dispose](): void;
}

declare module "./agenteval_wasm.js" {
  interface WorkerClient {
    /** `evaluateRows` in the worker: the run stays there until `free()`; `onRows` gets each chunk. */
    evaluateRows(dataset: DatasetInput, options?: RowsOptions | null): Promise<WorkerRowsEvaluation>;
  }
}

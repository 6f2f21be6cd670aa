//! Every object that crosses the JavaScript boundary, as Rust types from which the package's
//! TypeScript declarations are generated (tsify). Objects crossing as JSON text are written by the
//! core's own serde shapes; the mirrors here declare them (tests check that they read back exactly
//! what the core writes; `render` reads a report given back by hand, in `report_json`). Inputs that hold JavaScript
//! values (functions, signals) are declared here and read field by field in [`crate::options`].

#![allow(dead_code)] // Option structs exist for their generated declarations; they are read by hand.

use agenteval_core::json::{Map, Value};
use serde::Serialize;
use tsify::Tsify;
use wasm_bindgen::prelude::wasm_bindgen;

#[wasm_bindgen]
extern "C" {
    /// An options object of `validate`, as the caller passed it.
    #[wasm_bindgen(typescript_type = "ValidateOptions")]
    pub type ValidateOptionsArg;
    /// An options object of `score`, as the caller passed it.
    #[wasm_bindgen(typescript_type = "ScoreOptions")]
    pub type ScoreOptionsArg;
    /// An options object of `scoreItem`, as the caller passed it.
    #[wasm_bindgen(typescript_type = "ScoreItemOptions")]
    pub type ScoreItemOptionsArg;
    /// An options object of `render`, as the caller passed it.
    #[wasm_bindgen(typescript_type = "RenderOptions")]
    pub type RenderOptionsArg;
    /// An options object of `Evaluation.render`, as the caller passed it.
    #[wasm_bindgen(typescript_type = "OutputOptions")]
    pub type OutputOptionsArg;
}

#[wasm_bindgen]
extern "C" {
    /// An options object of `evaluateRows`, as the caller passed it.
    #[wasm_bindgen(typescript_type = "RowsOptions")]
    pub type RowsOptionsArg;
}

#[wasm_bindgen(typescript_custom_section)]
const ROWS_TYPES: &'static str = r#"
/**
 * Code of a status or result in `Rows`: 0 pass, 1 fail, 2 partial (status only), 3 error,
 * 4 skipped (a status: every evaluator was skipped, `null` in the report), 5 did not run (result
 * only: the evaluator has no result on that entry).
 */
export type RowCode = 0 | 1 | 2 | 3 | 4 | 5;
/**
 * Entries of a run as columns: one element per entry in `index`, `turn` and `status`; one per
 * entry and evaluator in `result` and `score`, row by row (`result[row * evaluators.length +
 * column]`). Every array is a copy of its own, so it can be transferred to another thread.
 */
export interface Rows {
  /** 0-based item (M365) or row (Foundry) index. */
  index: Int32Array;
  /** 0-based turn of a thread; -1 for single-turn items. */
  turn: Int32Array;
  /** The entry's status (`RowCode`: 0 pass, 1 fail, 2 partial, 3 error, 4 every evaluator skipped). */
  status: Uint8Array;
  /**
   * The evaluators' names, the columns, in the order they were first seen. In an `onRows` chunk:
   * those seen so far, so each chunk's list begins with the previous chunk's.
   */
  evaluators: string[];
  /** Each evaluator's verdict (`RowCode`: 0 pass, 1 fail, 3 error, 4 skipped, 5 did not run). */
  result: Uint8Array;
  /** Each evaluator's score; `NaN` when it has none. */
  score: Float64Array;
}
/** Options of `evaluateRows`. */
export interface RowsOptions {
  /** Foundry evaluation config, as JSON text or an object; used when the rows carry none. */
  config?: string | JsonObject;
  /** Cancels the run: the promise rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Called with the entries done so far after each slice of work and at the end. */
  onProgress?: (progress: Progress) => void;
  /** Called after each slice of work with the rows of the entries scored since its last call. */
  onRows?: (rows: Rows) => void;
  /** Longest stretch of work, in milliseconds, before yielding to the event loop (default 8). */
  sliceMs?: number;
  /** Refused: judged runs go through `evaluate`. */
  judge?: undefined | null;
}
"#;

#[wasm_bindgen(typescript_custom_section)]
const JSON_TYPES: &'static str = r#"
/** Any JSON value. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };
/** A JSON object. */
export type JsonObject = { [key: string]: JsonValue };
/**
 * A dataset of any dialect: its text (JSON or JSON Lines), its bytes (UTF-8), or the parsed
 * value (an M365 eval document, a legacy array, or Foundry rows).
 */
export type DatasetInput = string | Uint8Array | ArrayBuffer | JsonValue;
/**
 * The evaluators `scoreItem` runs: names (default options), or names mapped to their options.
 */
export type EvaluatorSelection = string[] | { [name: string]: JsonObject };
/**
 * A custom evaluator: given the item (or turn) fields, the options the dataset sets for it and
 * where it runs, returns (or resolves to) a result that is validated like any other. Throwing or
 * rejecting gives that evaluator an `error` result on that item; the run goes on.
 */
export type CustomEvaluator = (
  input: JsonObject,
  options: JsonObject,
  context: CustomContext,
) => CustomResult | Promise<CustomResult>;
/**
 * What a custom evaluator returns: a pass/fail verdict, a score (compared with the `threshold`
 * option, or passing when there is none), or an object saying either with a reason and details.
 * Anything else gives the evaluator an `error` result with code `invalidEvaluatorResult`.
 */
export type CustomResult = boolean | number | CustomResultObject;
/**
 * A custom judged evaluator: a prompt template sent to the judge (without a judge its results
 * are `skipped`). Placeholders: `{{prompt}}`, `{{response}}`,
 * `{{expected_response}}`, `{{context}}`, `{{item.FIELD}}` (any field of the item or row). The
 * judge scores on `range` (default [1, 5]) and passes at `threshold` (default the middle), or
 * answers one of `labels` and passes with one of `passing_labels`.
 */
export type JudgeTemplate = {
  prompt?: string;
  messages?: { role: "system" | "developer" | "user" | "assistant"; content: string }[];
  range?: [number, number];
  threshold?: number;
  labels?: string[];
  passing_labels?: string[];
  model?: string;
  sampling_params?: { temperature?: number; max_completions_tokens?: number; seed?: number };
};
/**
 * UTF-8 bytes in a `Uint8Array` over a plain `ArrayBuffer` (`Uint8Array<ArrayBuffer>` from
 * TypeScript 5.7, so `new Blob([bytes])` type-checks; plain `Uint8Array` before).
 */
export type Utf8Bytes = ReturnType<Uint8Array["slice"]>;
/** What `scoreDocument` resolves to. */
export interface ScoredDocument<Document extends string | Utf8Bytes = string> {
  /**
   * The scored eval document, as `agenteval score` writes it (ending with a newline): its text,
   * or its UTF-8 bytes with `output: "bytes"`.
   */
  document: Document;
  /** The run's counts. */
  summary: Summary;
  /** Warnings and item-level errors found while reading, errors first. */
  diagnostics: Diagnostic[];
}
/**
 * Options of `scoreDocument` that write the scored document to a stream: its UTF-8 in chunks of
 * whole items, written as they are produced with the stream's backpressure respected; the stream
 * is closed at the end and aborted when the run fails or is cancelled.
 */
export type ScoreDocumentStreamOptions = Omit<ScoreDocumentOptions, "output"> & { output: WritableStream<Uint8Array> };
/** What `scoreDocument` resolves to when it writes the document to a stream. */
export type StreamedDocument = Omit<ScoredDocument, "document">;
/**
 * Scores an M365 eval document item by item, as the CLI writes it: text or bytes (a parsed object
 * is accepted and read whole). Resolves to the scored document (a string, or a `Uint8Array` with
 * `output: "bytes"`, or written to the `WritableStream` given as `output`), the run's summary and
 * diagnostics. Built-in evaluators only.
 */
export function scoreDocument(dataset: DatasetInput, options: ScoreDocumentOptions & { output: "bytes" }): Promise<ScoredDocument<Utf8Bytes>>;
export function scoreDocument(dataset: DatasetInput, options: ScoreDocumentStreamOptions): Promise<StreamedDocument>;
export function scoreDocument(dataset: DatasetInput, options?: (ScoreDocumentOptions & { output?: "string" }) | null): Promise<ScoredDocument>;
export function scoreDocument(dataset: DatasetInput, options?: ScoreDocumentOptions | null): Promise<ScoredDocument<string | Utf8Bytes>>;
/** Anything worker-like `connectWorker` can talk to (a module `Worker` running `agenteval/worker`). */
export interface WorkerLike {
  postMessage(message: unknown): void;
  addEventListener(type: "message" | "error", listener: (event: any) => void): void;
  terminate(): void;
}
/** Options of `score` and `evaluate` in the worker: custom evaluators only as judge templates. */
export type WorkerScoreOptions = Omit<ScoreOptions, "custom"> & { custom?: { [name: string]: JudgeTemplate } };
/**
 * The package's API run in its Web Worker, so scoring never blocks the page. The same functions,
 * all asynchronous; custom evaluators that are functions cannot be sent to a worker (judge
 * templates can).
 */
export interface WorkerClient {
  validate(dataset: DatasetInput, options?: ValidateOptions | null): Promise<Validation>;
  evaluators(): Promise<EvaluatorInfo[]>;
  version(): Promise<string>;
  score(dataset: DatasetInput, options?: WorkerScoreOptions | null): Promise<RunReport>;
  /** `evaluate` in the worker: the dataset and report stay there until `free()`. */
  evaluate(dataset: DatasetInput, options?: WorkerScoreOptions | null): Promise<WorkerEvaluation>;
  /** `scoreDocument` in the worker (a `bytes` document is transferred, not copied). */
  scoreDocument(dataset: DatasetInput, options: ScoreDocumentOptions & { output: "bytes" }): Promise<ScoredDocument<Utf8Bytes>>;
  /** The stream is transferred to the worker, which writes and closes it. */
  scoreDocument(dataset: DatasetInput, options: ScoreDocumentStreamOptions): Promise<StreamedDocument>;
  scoreDocument(dataset: DatasetInput, options?: (ScoreDocumentOptions & { output?: "string" }) | null): Promise<ScoredDocument>;
  scoreDocument(dataset: DatasetInput, options?: ScoreDocumentOptions | null): Promise<ScoredDocument<string | Utf8Bytes>>;
  scoreItem(
    item: JsonObject,
    evaluators: EvaluatorSelection,
    options?: (Omit<ScoreItemOptions, "custom"> & { custom?: { [name: string]: JudgeTemplate } }) | null,
  ): Promise<CaseOutcome>;
  render(report: RunReport, format: Format, options?: RenderOptions | null): Promise<string>;
  /** `readReport` in the worker. */
  readReport(dataset: DatasetInput): Promise<RunReport>;
  /**
   * Calls `method` of a worker that serves it with the package's protocol (`serve` in
   * `agenteval/protocol`): its progress, results and rows go to the hooks; an abort rejects
   * with the signal's reason, unless `judged` (the method then resolves as it ends).
   */
  call(method: string, args?: unknown[], hooks?: WorkerCallHooks | null): Promise<unknown>;
  /** Stops the worker; calls still running reject. */
  terminate(): void;
}
/** The hooks of `WorkerClient.call`. */
export interface WorkerCallHooks {
  signal?: AbortSignal;
  onProgress?: (progress: Progress) => void;
  onResult?: (outcome: CaseOutcome) => void;
  onRows?: (rows: any) => void;
  getToken?: () => Promise<string> | string;
  judged?: boolean;
  transfer?: Transferable[];
}
/** An `Evaluation` held in the package's worker: the same members, `render` asynchronous. */
export interface WorkerEvaluation {
  /** The run report. */
  readonly report: RunReport;
  /** Writes the run in `format` (see `Evaluation.render`). */
  render(format: Format, options?: OutputOptions | null): Promise<string>;
  /** Releases the dataset and report held in the worker; later `render` calls reject. */
  free(): void;
  [Symbol.dispose](): void;
}
/**
 * Starts the package's worker (or uses `worker`, a module Worker running `agenteval/worker`) and
 * returns the API that runs in it. Browsers and workers only.
 */
export function connectWorker(worker?: WorkerLike): WorkerClient;
"#;

/// The input dialect of a run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Tsify)]
#[cfg_attr(test, derive(Serialize, serde::Deserialize))]
#[serde(rename_all = "snake_case")]
pub enum Dialect {
    /// M365 Copilot eval document (v1, or a legacy form upgraded in memory).
    M365,
    /// Azure AI Foundry rows with `testing_criteria`.
    Foundry,
    /// Copilot Studio CSV test set.
    CopilotStudio,
}

/// The four ways an evaluator can end on an item.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Tsify)]
#[cfg_attr(test, derive(Serialize, serde::Deserialize))]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    /// The item met the evaluator's pass rule.
    Pass,
    /// The item did not meet the pass rule.
    Fail,
    /// No verdict was possible; see `error.code`.
    Error,
    /// The evaluator did not run (not applicable, or needs a judge that is not configured).
    Skipped,
}

/// Status of an item, turn or thread.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Tsify)]
#[cfg_attr(test, derive(Serialize, serde::Deserialize))]
#[serde(rename_all = "lowercase")]
pub enum ItemStatus {
    /// Every evaluator that ran passed.
    Pass,
    /// A verdict failed.
    Fail,
    /// A response exists but an evaluator errored.
    Partial,
    /// No usable response, or the item itself is invalid.
    Error,
}

/// Why an evaluator errored (the M365 eval-document schema's codes, and `invalidStoredResult`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Tsify)]
#[cfg_attr(test, derive(Serialize, serde::Deserialize))]
#[serde(rename_all = "camelCase")]
pub enum ResultErrorCode {
    /// The agent's response is missing or empty.
    EmptyAgentResponse,
    /// The judge's reply is not a valid verdict.
    JudgeOutputUnparseable,
    /// The judge refused the credentials.
    JudgeAuthenticationError,
    /// The judge rate-limited the request.
    JudgeRateLimited,
    /// The judge did not answer in time.
    JudgeTimeout,
    /// The evaluator's options, or the inputs the item gives it, are invalid.
    EvaluatorConfigurationError,
    /// The evaluator is neither built in nor supplied.
    EvaluatorLoadError,
    /// A custom evaluator returned an invalid result.
    InvalidEvaluatorResult,
    /// The evaluator rejected its input.
    EvaluatorError,
    /// `diagnostics.tool_calls` evidence is `null`.
    ToolCallEvidenceIndeterminate,
    /// A result `readReport` read from a scored dataset is malformed (agenteval's own code).
    InvalidStoredResult,
}

/// The code and message of an errored evaluator.
#[derive(Debug, Clone, PartialEq, Tsify)]
#[cfg_attr(test, derive(Serialize, serde::Deserialize))]
pub struct EvalError {
    /// Machine-readable reason.
    pub code: ResultErrorCode,
    /// What went wrong.
    pub message: String,
}

/// What one evaluator concluded about one item or turn.
#[derive(Debug, Clone, PartialEq, Tsify)]
#[cfg_attr(test, derive(Serialize, serde::Deserialize))]
pub struct EvalResult {
    /// The evaluator's name as written in the dataset (or the Foundry criterion name).
    pub evaluator: String,
    /// The verdict.
    pub result: Verdict,
    /// The numeric score, when the evaluator has one.
    pub score: Option<f64>,
    /// The threshold applied, when the evaluator has one.
    pub threshold: Option<f64>,
    /// Why the verdict was reached; for `skipped`, why the evaluator did not run.
    pub reason: Option<String>,
    /// Evaluator-specific fields.
    #[tsify(type = "JsonObject")]
    pub details: Map<String, Value>,
    /// Set exactly when `result` is `error`.
    pub error: Option<EvalError>,
    /// Tokens of the judge call behind the result (judged evaluators only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[tsify(optional)]
    pub usage: Option<Usage>,
}

/// What happened to one single-turn item or one turn of a thread.
#[derive(Debug, Clone, PartialEq, Tsify)]
#[cfg_attr(test, derive(Serialize, serde::Deserialize))]
pub struct CaseOutcome {
    /// 0-based index of the item (M365) or row (Foundry).
    pub index: usize,
    /// 0-based turn of a thread; `null` for single-turn items.
    pub turn: Option<usize>,
    /// Derived status; `null` when every evaluator was skipped.
    pub status: Option<ItemStatus>,
    /// One result per evaluator, in resolution order.
    pub results: Vec<EvalResult>,
    /// Why the item itself could not be scored, when it is invalid.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[tsify(optional)]
    pub problem: Option<String>,
}

/// Per-evaluator tallies across a run.
#[derive(Debug, Clone, PartialEq, Tsify)]
#[cfg_attr(test, derive(Serialize, serde::Deserialize))]
pub struct EvaluatorSummary {
    /// Pass verdicts.
    pub pass: usize,
    /// Fail verdicts.
    pub fail: usize,
    /// Errored results.
    pub error: usize,
    /// Skipped results.
    pub skipped: usize,
    /// pass / (pass + fail); `null` without verdicts.
    pub pass_rate: Option<f64>,
    /// Mean score over results that have one.
    pub mean: Option<f64>,
    /// Lowest score.
    pub min: Option<f64>,
    /// Highest score.
    pub max: Option<f64>,
    /// Judge tokens of its results (judged evaluators only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[tsify(optional)]
    pub usage: Option<Usage>,
}

/// Tokens of judge calls, as the endpoint reported them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Tsify)]
#[cfg_attr(test, derive(Serialize, serde::Deserialize))]
pub struct Usage {
    /// Tokens of the requests.
    pub prompt_tokens: u64,
    /// Tokens of the replies.
    pub completion_tokens: u64,
    /// Their sum.
    pub total_tokens: u64,
}

/// An entry of a run: an item, or one turn of a thread.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Tsify)]
#[cfg_attr(test, derive(Serialize, serde::Deserialize))]
pub struct EntryRef {
    /// 0-based item index.
    pub index: usize,
    /// 0-based turn, for thread turns.
    pub turn: Option<usize>,
}

/// What a run's judge calls cost and how they went.
#[derive(Debug, Clone, PartialEq, Tsify)]
#[cfg_attr(test, derive(Serialize, serde::Deserialize))]
pub struct JudgeRun {
    /// The endpoint's kind.
    pub endpoint: String,
    /// The default model or deployment.
    pub model: String,
    /// Calls that needed the judge (from the cache or sent).
    pub calls: u64,
    /// Calls answered from the cache.
    pub cache_hits: u64,
    /// Calls sent to the endpoint.
    pub cache_misses: u64,
    /// HTTP requests, retries included.
    pub requests: u64,
    /// Requests retried.
    pub retries: u64,
    /// 429 answers.
    pub rate_limited: u64,
    /// Calls that ended in an error.
    pub failures: u64,
    /// Most requests in flight at once.
    pub peak_in_flight: u64,
    /// Tokens of the calls sent.
    pub usage: Usage,
    /// Whether the run was cancelled.
    pub cancelled: bool,
    /// Entries whose judge calls the cancelled run did not make or finish.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[tsify(optional)]
    pub not_reached: Vec<EntryRef>,
    /// Requests sent per model or deployment, when any went elsewhere than `model`.
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    #[tsify(optional)]
    pub deployments: std::collections::BTreeMap<String, u64>,
}

/// Run-wide counts.
#[derive(Debug, Clone, PartialEq, Tsify)]
#[cfg_attr(test, derive(Serialize, serde::Deserialize))]
pub struct Summary {
    /// Report entries (single-turn items plus thread turns).
    pub items: usize,
    /// Entries with status pass.
    pub pass: usize,
    /// Entries with status fail.
    pub fail: usize,
    /// Entries with status partial.
    pub partial: usize,
    /// Entries with status error.
    pub error: usize,
    /// Tallies per evaluator name, in first-seen order.
    #[tsify(type = "{ [evaluator: string]: EvaluatorSummary }")]
    pub evaluators: Map<String, Value>,
}

/// Name and version of the tool that produced a report.
#[derive(Debug, Clone, PartialEq, Eq, Tsify)]
#[cfg_attr(test, derive(Serialize, serde::Deserialize))]
pub struct ToolInfo {
    /// Always `agenteval`.
    pub name: String,
    /// The core's version.
    pub version: String,
}

/// The run report (every dialect): the same JSON as `agenteval score --format report`.
#[derive(Debug, Clone, PartialEq, Tsify)]
#[cfg_attr(test, derive(Serialize, serde::Deserialize))]
pub struct RunReport {
    /// Tool name and version.
    pub tool: ToolInfo,
    /// The dialect read.
    pub dialect: Dialect,
    /// Run-wide counts.
    pub summary: Summary,
    /// One entry per single-turn item or thread turn, in input order.
    pub items: Vec<CaseOutcome>,
    /// The judge's figures, after a run with a judge.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[tsify(optional)]
    pub judge: Option<JudgeRun>,
}

/// How bad an input problem is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Tsify)]
#[cfg_attr(test, derive(Serialize, serde::Deserialize))]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// The input (or the item it points into) cannot be used.
    Error,
    /// The input is used, but something is off.
    Warning,
}

/// Where in the input a problem sits.
#[derive(Debug, Clone, PartialEq, Eq, Tsify)]
#[cfg_attr(test, derive(Serialize, serde::Deserialize))]
#[serde(rename_all = "camelCase", tag = "kind")]
pub enum Location {
    /// 1-based line and column in the text.
    LineColumn {
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
    },
    /// A JSON pointer into the parsed document, and for JSON Lines the row's line.
    Pointer {
        /// RFC 6901 pointer (`""` is the root).
        pointer: String,
        /// For JSON Lines, the 1-based line of the row.
        line: Option<usize>,
    },
    /// The input as a whole.
    Whole,
}

/// One problem found in the input.
#[derive(Debug, Clone, PartialEq, Eq, Tsify)]
#[cfg_attr(test, derive(Serialize, serde::Deserialize))]
pub struct Diagnostic {
    /// Error or warning.
    pub severity: Severity,
    /// The file or stream name, when known.
    pub source: Option<String>,
    /// Where the problem is.
    pub location: Location,
    /// What is wrong and what was expected.
    pub message: String,
}

/// What `validate` found.
#[derive(Debug, Clone, PartialEq, Serialize, Tsify)]
pub struct Validation {
    /// No error was found (warnings may remain).
    pub valid: bool,
    /// The dialect read; `null` when the input is not a dataset of any dialect.
    #[tsify(type = "Dialect | null")]
    pub dialect: Option<agenteval_core::Dialect>,
    /// Report entries the dataset yields (single-turn items plus thread turns, or rows).
    pub items: usize,
    /// Every problem found, errors first.
    #[tsify(type = "Diagnostic[]")]
    pub diagnostics: Vec<agenteval_core::Diagnostic>,
}

/// Whether an evaluator runs locally or needs an LLM judge.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Tsify)]
#[serde(rename_all = "lowercase")]
pub enum EvaluatorKind {
    /// Computed locally from the item.
    Deterministic,
    /// Needs a judge endpoint.
    Judge,
}

/// One option a built-in evaluator accepts.
#[derive(Debug, Clone, PartialEq, Serialize, Tsify)]
#[serde(rename_all = "camelCase")]
pub struct OptionInfo {
    /// Option key as written in datasets.
    pub name: String,
    /// Expected JSON type and range, e.g. `number 0..1`.
    #[serde(rename = "type")]
    pub kind: String,
    /// Whether the option must be given.
    pub required: bool,
    /// The default value (`null` when required or without default).
    #[tsify(type = "JsonValue")]
    pub default: Value,
    /// What the option does.
    pub description: String,
}

/// A built-in evaluator with its options, defaults and pass rule.
#[derive(Debug, Clone, PartialEq, Serialize, Tsify)]
#[serde(rename_all = "camelCase")]
pub struct EvaluatorInfo {
    /// Name as written in datasets (`PartialMatch`, `builtin.f1_score`).
    pub name: String,
    /// Local or judge.
    pub kind: EvaluatorKind,
    /// Input names the evaluator reads.
    pub inputs: Vec<String>,
    /// Accepted options.
    pub options: Vec<OptionInfo>,
    /// The pass rule in words.
    pub pass_rule: String,
}

/// Progress of a run: report entries produced so far and in all.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Tsify)]
pub struct Progress {
    /// Entries produced.
    pub done: usize,
    /// Entries the run yields. For an M365 document read one item at a time, an unread thread
    /// counts as one entry, so this can grow during the run; it ends equal to `done`.
    pub total: usize,
}

/// Where a custom evaluator is being run.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Tsify)]
pub struct CustomContext {
    /// The evaluator name as written in the dataset.
    pub evaluator: String,
    /// 0-based item (or row) index.
    pub index: usize,
    /// 0-based turn for threads; `null` for single-turn items.
    pub turn: Option<usize>,
}

/// The object form of a custom evaluator's result: a score (compared with the evaluator's
/// `threshold` option, default 1) or a verdict, with an optional reason and details. A returned
/// `result` is ignored when a score is given.
#[derive(Debug, Clone, PartialEq, Tsify)]
pub struct CustomResultObject {
    /// A finite score.
    #[tsify(optional)]
    pub score: Option<f64>,
    /// The verdict, when there is no score.
    #[tsify(optional, type = "\"pass\" | \"fail\"")]
    pub result: Option<String>,
    /// Why.
    #[tsify(optional)]
    pub reason: Option<String>,
    /// Extra fields kept in the result's `details`.
    #[tsify(optional, type = "JsonObject")]
    pub details: Option<Map<String, Value>>,
}

/// Output formats of `render` (the CLI's `--format`): the core's own table, declared from it.
pub use agenteval_core::plan::OutputFormat as Format;

#[wasm_bindgen(typescript_custom_section)]
const FORMAT_NAME: &str = r#"
/** An output format of `render` (the CLI's `--format`). */
export type Format = OutputFormat;
"#;

/// Options of `validate`.
#[derive(Tsify)]
#[serde(rename_all = "camelCase")]
pub struct ValidateOptions {
    /// Foundry evaluation config (`{"testing_criteria": [...]}`), as JSON text or an object; used
    /// when the rows carry none.
    #[tsify(optional, type = "string | JsonObject")]
    pub config: Option<()>,
}

/// Options of `score`.
#[derive(Tsify)]
#[serde(rename_all = "camelCase")]
pub struct ScoreOptions {
    /// Foundry evaluation config, as JSON text or an object; used when the rows carry none.
    #[tsify(optional, type = "string | JsonObject")]
    pub config: Option<()>,
    /// Custom evaluators by name: functions, or judge prompt templates. A dataset naming one
    /// runs it like a built-in.
    #[tsify(optional, type = "{ [name: string]: CustomEvaluator | JudgeTemplate }")]
    pub custom: Option<()>,
    /// Cancels the run: the promise rejects with the signal's reason.
    #[tsify(optional, type = "AbortSignal")]
    pub signal: Option<()>,
    /// Called with each report entry as soon as it is produced, in input order.
    #[tsify(optional, type = "(outcome: CaseOutcome) => void")]
    pub on_result: Option<()>,
    /// Called with the entries done so far after each slice of work and at the end.
    #[tsify(optional, type = "(progress: Progress) => void")]
    pub on_progress: Option<()>,
    /// Longest stretch of work, in milliseconds, before yielding to the event loop (default 8).
    #[tsify(optional)]
    pub slice_ms: Option<f64>,
    /// The LLM judge for the judged evaluators (without one they are `skipped`). With a judge,
    /// cancelling through `signal` resolves with the report: judge calls not yet answered end
    /// `skipped` and `report.judge.not_reached` lists their entries.
    #[tsify(optional)]
    pub judge: Option<JudgeOptions>,
}

/// A judge endpoint (`fetch` from pages, Web Workers and Node 20). The key (or the tokens
/// `getToken` returns) is sent only to `endpoint`, and appears in no result, report or error.
#[derive(Tsify)]
#[serde(rename_all = "camelCase")]
pub struct JudgeOptions {
    /// `"azure"`: `{endpoint}/openai/deployments/{model}/chat/completions?api-version=…` with an
    /// `api-key` header; `"azure-v1"`: `{endpoint}/openai/v1/chat/completions`; `"openai"`: any
    /// OpenAI-compatible base URL (`{endpoint}/chat/completions`; OpenAI, Ollama, vLLM…).
    #[tsify(type = "\"azure\" | \"azure-v1\" | \"openai\"")]
    pub kind: String,
    /// The resource or base URL.
    pub endpoint: String,
    /// The deployment (`azure`) or model.
    pub model: String,
    /// Azure `api-version` (default `2024-10-21`).
    #[tsify(optional)]
    pub api_version: Option<String>,
    /// The key (`api-key` for Azure kinds, `Authorization: Bearer` for `openai`).
    #[tsify(optional)]
    pub api_key: Option<String>,
    /// Returns a fresh bearer token for each request (e.g. from Entra ID); instead of `apiKey`.
    #[tsify(optional, type = "() => string | Promise<string>")]
    pub get_token: Option<()>,
    /// Most requests in flight (1 to 256, default 8); halves on a 429 and grows back.
    #[tsify(optional)]
    pub concurrency: Option<u32>,
    /// Per-request time-out in milliseconds (1 to 3600000, default 60000); `getToken` runs under
    /// it too.
    #[tsify(optional)]
    pub timeout_ms: Option<f64>,
    /// Retries of a failed request (0 to 100, default 6).
    #[tsify(optional)]
    pub retries: Option<u32>,
    /// First back-off wait in milliseconds (default 500).
    #[tsify(optional)]
    pub backoff_ms: Option<f64>,
    /// A reasoning model: `max_completion_tokens` and no temperature.
    #[tsify(optional)]
    pub reasoning: Option<bool>,
    /// Ask for `response_format: json_object` (default true).
    #[tsify(optional)]
    pub json_mode: Option<bool>,
    /// Overrides every prompt's temperature.
    #[tsify(optional)]
    pub temperature: Option<f64>,
    /// Overrides every prompt's token limit.
    #[tsify(optional)]
    pub max_tokens: Option<u32>,
    /// Overrides every prompt's seed.
    #[tsify(optional)]
    pub seed: Option<u32>,
    /// The embeddings deployment or model, for Copilot Studio's TextSimilarity (its requests go
    /// to the endpoint's `/embeddings`).
    #[tsify(optional)]
    pub embedding_model: Option<String>,
    /// The largest reply body read, in bytes (1024 to 268435456, default 4 MiB); a longer reply is
    /// an `evaluatorError`, given up as soon as it passes the limit.
    #[tsify(optional)]
    pub max_reply_bytes: Option<f64>,
    /// Keep answers in IndexedDB where the runtime has it (default true; always in memory).
    #[tsify(optional)]
    pub cache: Option<bool>,
}

/// Options of `scoreDocument`.
#[derive(Tsify)]
#[serde(rename_all = "camelCase")]
pub struct ScoreDocumentOptions {
    /// RFC 3339 time written to the document's `metadata.evaluatedAt`.
    #[tsify(optional)]
    pub evaluated_at: Option<String>,
    /// What `document` is: `"string"` (the default) or `"bytes"`, its UTF-8 in a `Uint8Array`,
    /// faster for large documents (no text decoding) and ready for `fs.writeFile` or `new Blob`.
    #[tsify(optional, type = "\"string\" | \"bytes\"")]
    pub output: Option<()>,
    /// Cancels the run: the promise rejects with the signal's reason.
    #[tsify(optional, type = "AbortSignal")]
    pub signal: Option<()>,
    /// Called with the items done so far after each slice of work and at the end.
    #[tsify(optional, type = "(progress: Progress) => void")]
    pub on_progress: Option<()>,
    /// Longest stretch of work, in milliseconds, before yielding to the event loop (default 8).
    #[tsify(optional)]
    pub slice_ms: Option<f64>,
}

/// Options of `scoreItem`.
#[derive(Tsify)]
#[serde(rename_all = "camelCase")]
pub struct ScoreItemOptions {
    /// Custom evaluators by name, selectable in `evaluators` like built-ins.
    #[tsify(optional, type = "{ [name: string]: CustomEvaluator | JudgeTemplate }")]
    pub custom: Option<()>,
    /// Cancels the call: the promise rejects with the signal's reason (with a judge: judge calls
    /// not yet answered end `skipped`).
    #[tsify(optional, type = "AbortSignal")]
    pub signal: Option<()>,
    /// The LLM judge for the judged evaluators (see `ScoreOptions.judge`).
    #[tsify(optional)]
    pub judge: Option<JudgeOptions>,
}

/// Options of `Evaluation.render`.
#[derive(Tsify)]
#[serde(rename_all = "camelCase")]
pub struct OutputOptions {
    /// RFC 3339 time written to the document's `metadata.evaluatedAt` (`document` only).
    #[tsify(optional)]
    pub evaluated_at: Option<String>,
    /// Title of the HTML report and JUnit suite name (default `agenteval`).
    #[tsify(optional)]
    pub title: Option<String>,
}

/// Options of `render`.
#[derive(Tsify)]
#[serde(rename_all = "camelCase")]
pub struct RenderOptions {
    /// The scored dataset: required by the `document` and `foundry` formats, which write into it.
    #[tsify(optional, type = "DatasetInput")]
    pub dataset: Option<()>,
    /// Foundry evaluation config of `dataset`, when its rows carry none.
    #[tsify(optional, type = "string | JsonObject")]
    pub config: Option<()>,
    /// RFC 3339 time written to the document's `metadata.evaluatedAt` (`document` only).
    #[tsify(optional)]
    pub evaluated_at: Option<String>,
    /// Title of the HTML report and JUnit suite name (default `agenteval`).
    #[tsify(optional)]
    pub title: Option<String>,
}

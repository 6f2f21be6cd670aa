//! The TypeScript declarations of the objects that exist only at the JavaScript boundary: the
//! option objects (read field by field in [`crate::options`], since they hold functions and
//! signals), `Validation`, the evaluator catalog's entries, `Progress`, a custom evaluator's
//! context and result, and the hand-written declarations below. Everything the core writes (the
//! run report and its parts, diagnostics, plans) is declared by the core itself, under its
//! `typescript` feature, so those declarations cannot drift from what it serializes.

#![allow(dead_code)] // Option structs exist for their generated declarations; they are read by hand.

use agenteval_core::evaluators::EvaluatorKind;
use agenteval_core::json::{Map, Value};
use agenteval_core::{Diagnostic, Dialect};
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
/** What `generateRubric` writes a rubric from: at least one of the first three; traces never alone. */
export interface RubricSources {
  /** The agent's instructions. */
  instructions?: string;
  /** The agent's system prompt. */
  systemPrompt?: string;
  /** Reference documents: knowledge, guidelines, expected answers. */
  references?: string[];
  /** Production traces of the agent, to ground the rubric in real use. */
  traces?: string;
}
/** Options of `generateRubric`. */
export interface GenerateRubricOptions {
  /** The judge that writes the rubric (required). */
  judge: JudgeOptions;
  /** Cancels the call. */
  signal?: AbortSignal;
}
/** The formats `compare` exports a comparison in: `agenteval compare --format`'s. */
export type CompareFormat = "json" | "md" | "html";
/** Options of `compare`. */
export interface CompareOptions {
  /** Pair by this field of each item (or of its `extensions`) instead of `extensions.id` or the prompt; every item must carry it. */
  key?: string;
  /** The desired direction of an evaluator's metrics, by evaluator (default `increase`). */
  directions?: { [evaluator: string]: Direction };
  /** The baseline's name in the comparison (default `baseline`; the CLI uses the file name). */
  baselineName?: string;
  /** The candidate's name in the comparison (default `candidate`). */
  candidateName?: string;
  /** Export the comparison as this text instead of returning it as an object. */
  format?: CompareFormat;
}
/**
 * Compares two scored runs of one dataset and dialect (each a scored M365 eval document, scored
 * Foundry rows, a Copilot Studio results export, a run report or runevals results): items paired
 * by id or prompt (a run report's by item index), per evaluator a pass-rate and a score metric with the
 * paired test of its kind, 95 % intervals, the effect and its strength, flips and the detectable
 * difference. With `format`, the export as text, byte for byte what `agenteval compare` writes.
 */
export function compare(baseline: DatasetInput, candidate: DatasetInput, options: CompareOptions & { format: CompareFormat }): string;
export function compare(baseline: DatasetInput, candidate: DatasetInput, options?: (CompareOptions & { format?: undefined }) | null): Comparison;
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
  /** `applyReviews` in the worker. */
  applyReviews(report: RunReport, reviews: EntryReview[]): Promise<RunReport>;
  /** `compare` in the worker. */
  compare(baseline: DatasetInput, candidate: DatasetInput, options: CompareOptions & { format: CompareFormat }): Promise<string>;
  compare(baseline: DatasetInput, candidate: DatasetInput, options?: (CompareOptions & { format?: undefined }) | null): Promise<Comparison>;
  /** `run` in the worker: the agent's requests go from the worker; an abort resolves with what was answered. */
  run(dataset: DatasetInput, options: AgentRunOptions): Promise<AgentRun>;
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
  /** A Copilot Studio row's columns, made in the worker on demand (see `Evaluation.input`). */
  input(position: number): Promise<JsonObject | undefined>;
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

/// What `validate` found.
#[derive(Debug, Clone, PartialEq, Serialize, Tsify)]
pub struct Validation {
    /// No error was found (warnings may remain).
    pub valid: bool,
    /// The dialect read; `null` when the input is not a dataset of any dialect.
    pub dialect: Option<Dialect>,
    /// Report entries the dataset yields (single-turn items plus thread turns, or rows).
    pub items: usize,
    /// Every problem found, errors first.
    pub diagnostics: Vec<Diagnostic>,
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
const ENTRY_REVIEW: &str = r#"
/**
 * A review to set on one entry of a run report with `applyReviews`: the entry's `index` and
 * `turn` (absent or `null` for a single-turn item), and its review (`null` removes it).
 */
export interface EntryReview {
  index: number;
  turn?: number | null;
  review: Review | null;
}
"#;

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
    /// Called with each report entry as soon as it is produced, in input order; in a judged run
    /// also with the entry's judge calls, one element per result (`null` where none; undefined
    /// when the entry made none).
    #[tsify(
        optional,
        type = "(outcome: CaseOutcome, judgeExchanges?: (JudgeExchange[] | null)[]) => void"
    )]
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
    /// Reviews written beside the run's verdicts (as `applyReviews` sets them); the run kept is
    /// not changed.
    #[tsify(optional, type = "EntryReview[]")]
    pub reviews: Option<()>,
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

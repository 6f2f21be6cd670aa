// A typed tour of the package, checked by `tsc --noEmit` (types.test.js): every exported function
// and every object crossing the boundary, as a TypeScript user writes them.

import {
  connectWorker,
  evaluate,
  evaluateRows,
  evaluators,
  plan,
  readReport,
  render,
  run,
  score,
  scoreDocument,
  scoreItem,
  validate,
  version,
  type AgentRun,
  type AgentRunOptions,
  type CaseOutcome,
  type CustomEvaluator,
  type StreamedDocument,
  type Diagnostic,
  type EvalResult,
  type Evaluation,
  type EvaluatorInfo,
  type Format,
  type JsonObject,
  type OutputOptions,
  type Plan,
  type Progress,
  type RunReport,
  type Rows,
  type RowsEvaluation,
  type WorkerRowsEvaluation,
  type RowsOptions,
  type ScoreDocumentOptions,
  type ScoredDocument,
  type Utf8Bytes,
  type ScoreOptions,
  type Validation,
  type WorkerClient,
} from "agenteval";
import { connectWorker as connectEngine } from "agenteval/client";
import { load } from "agenteval/load";
import { serve } from "agenteval/protocol";

const text = '{"schemaVersion": "1.6.0", "items": [{"prompt": "p", "response": "r"}]}';

const checked: Validation = validate(text);
const firstProblem: Diagnostic | undefined = checked.diagnostics[0];
if (firstProblem?.location.kind === "lineColumn") {
  const where: number = firstProblem.location.line + firstProblem.location.column;
  console.log(where);
}
validate(new Uint8Array([123, 125]), { config: { testing_criteria: [] } });

const planned: Plan = plan(text);
const ownFormat: Format | undefined = planned.formats[0];
const needsEndpoint: boolean = planned.needs.judge || planned.needs.embeddings || planned.needs.wordnet;
console.log(ownFormat, needsEndpoint, planned.layout === "lines", planned.config === "given", planned.entries + planned.turns);

const catalog: EvaluatorInfo[] = evaluators();
const thresholds = catalog.flatMap((info) => info.options.filter((option) => option.name === "threshold"));
console.log(thresholds.map((option) => option.default), version().length);

const polite: CustomEvaluator = async (input, options, context) => {
  const response = typeof input.response === "string" ? input.response : "";
  const settings = options.options;
  const word = settings !== null && typeof settings === "object" && !Array.isArray(settings) ? settings.word : undefined;
  const wanted = typeof word === "string" ? word : "thanks";
  return { score: response.includes(wanted) ? 1 : 0, reason: `checked ${context.evaluator} on item ${context.index}` };
};

const controller = new AbortController();
const options: ScoreOptions = {
  custom: { polite, short: (input) => String(input.response).length < 200 },
  signal: controller.signal,
  onResult: (outcome: CaseOutcome) => console.log(outcome.index, outcome.turn ?? "-", outcome.status),
  onProgress: ({ done, total }: Progress) => console.log(`${done}/${total}`),
  sliceMs: 16,
};

async function main(): Promise<void> {
  const report: RunReport = await score(text, options);
  const failed: EvalResult[] = report.items.flatMap((item) => item.results.filter((result) => result.result === "fail"));
  const codes = report.items.flatMap((item) => item.results.map((result) => result.error?.code ?? null));
  const passRate: number | null = report.summary.evaluators["polite"]?.pass_rate ?? null;
  console.log(failed.length, codes, passRate);

  const formats: Format[] = ["report", "csv", "junit", "md", "html"];
  for (const format of formats) console.log(render(report, format, { title: "demo" }).length);
  const scored: string = render(report, "document", { dataset: text, evaluatedAt: new Date().toISOString() });
  const parsed = JSON.parse(scored) as JsonObject;
  console.log(Object.keys(parsed));

  const evaluation: Evaluation = await evaluate(text, { onProgress: ({ done }) => console.log(done) });
  try {
    const output: OutputOptions = { evaluatedAt: new Date().toISOString(), title: "demo" };
    const written: string = evaluation.render("document", output);
    const kept: RunReport = evaluation.report;
    console.log(written.length, kept.summary.items);
  } finally {
    evaluation.free();
  }

  const shown: Rows[] = [];
  const rowsOptions: RowsOptions = { sliceMs: 16, onRows: (chunk) => void shown.push(chunk), onProgress: ({ done, total }) => console.log(done, total) };
  const rowsEvaluation: RowsEvaluation = await evaluateRows(new TextEncoder().encode(text), rowsOptions);
  try {
    const { index, status, result, score: scores, evaluators: columns } = rowsEvaluation.rows;
    const failing: number[] = Array.from(index).filter((_, row) => status[row] === 1);
    const firstScore: number = scores[0] ?? Number.NaN;
    const firstEntry: CaseOutcome = rowsEvaluation.entry(0);
    const firstInput: JsonObject | undefined = rowsEvaluation.input(0);
    console.log(firstInput?.question);
    const csv: string = rowsEvaluation.render("csv", { title: "rows" });
    console.log(failing.length, result.length / columns.length, firstScore, firstEntry.status, csv.length, rowsEvaluation.summary.pass, rowsEvaluation.dialect);
  } finally {
    rowsEvaluation.free();
  }
  // @ts-expect-error: evaluateRows runs no judge (judged runs go through evaluate)
  await evaluateRows(text, { judge: { kind: "openai", endpoint: "http://localhost", model: "m" } });

  const documentOptions = { evaluatedAt: new Date().toISOString(), sliceMs: 4 } satisfies ScoreDocumentOptions;
  const streamed: ScoredDocument = await scoreDocument(text, documentOptions);
  const streamedErrors: Diagnostic[] = streamed.diagnostics.filter((diagnostic) => diagnostic.severity === "error");
  console.log(streamed.document.length, streamed.summary.pass, streamedErrors.length);
  const streamedBytes: ScoredDocument<Utf8Bytes> = await scoreDocument(text, { output: "bytes" });
  const blob = new Blob([streamedBytes.document]);
  const anyOutput: ScoreDocumentOptions = { output: Math.random() < 0.5 ? "bytes" : "string" };
  const either: ScoredDocument<string | Utf8Bytes> = await scoreDocument(text, anyOutput);
  console.log(blob.size, typeof either.document === "string" ? either.document.length : either.document.byteLength);
  const sent: Uint8Array[] = [];
  const toStream: StreamedDocument = await scoreDocument(text, { output: new WritableStream<Uint8Array>({ write: (chunk) => void sent.push(chunk) }) });
  console.log(toStream.summary.items, toStream.diagnostics.length, sent.length);

  const outcome: CaseOutcome = await scoreItem(
    { prompt: "What is 2+2?", response: "4", expected_response: "4" },
    { ExactMatch: {}, PartialMatch: { threshold: 0.8 } },
  );
  console.log(outcome.results.map((result) => [result.evaluator, result.score]));
  await scoreItem({ prompt: "p", response: "r" }, ["polite"], { custom: { polite } });

  const reopened: RunReport = await readReport(render(report, "document", { dataset: text }));
  const stored = reopened.items.flatMap((item) => item.results.map((result) => result.error?.code));
  console.log(stored.includes("invalidStoredResult"), reopened.summary.items);

  const worker: WorkerClient = connectWorker();
  const remote: RunReport = await worker.score(text, { onProgress: (progress) => console.log(progress.done) });
  console.log(remote.summary.items, await worker.render(remote, "md"));
  const remoteEvaluation = await worker.evaluate(text);
  const remoteCsv: string = await remoteEvaluation.render("csv", { title: "demo" });
  console.log(remoteCsv.length, remoteEvaluation.report.items.length);
  remoteEvaluation.free();
  const remoteDocument: ScoredDocument = await worker.scoreDocument(text, { onProgress: (progress) => console.log(progress.total) });
  const remoteBytes: Uint8Array = (await worker.scoreDocument(text, { output: "bytes" })).document;
  console.log(remoteDocument.summary.items, remoteBytes.byteLength);
  const remoteStreamed: StreamedDocument = await worker.scoreDocument(text, { output: new WritableStream<Uint8Array>() });
  console.log(remoteStreamed.summary.pass, (await worker.readReport(text)).summary.items);
  const remoteRows: WorkerRowsEvaluation = await worker.evaluateRows(text, { onRows: (chunk: Rows) => console.log(chunk.index.length) });
  const remoteEntry: CaseOutcome = await remoteRows.entry(0);
  const remoteInput: JsonObject | undefined = await remoteRows.input(0);
  console.log(remoteInput?.question);
  console.log(remoteRows.rows.status.length, remoteEntry.status, (await remoteRows.render("md")).length);
  remoteRows.free();
  worker.terminate();

  try {
    validate(text, { config: "{}" });
  } catch (error) {
    const code = (error as Error & { code?: string }).code;
    console.log(code);
  }
}

/** The loader and the one worker protocol, as a host with its own worker (the page's engine) uses them. */
async function hosted(bytes: ArrayBuffer): Promise<void> {
  const loaded = await load({ module: bytes, wordnet: "wordnet-meteor.bin.gz" });
  const validation: Validation = loaded.validate(text);
  serve({
    check: async ([dataset], call) => {
      call.progress({ done: 0, total: 1 });
      if (call.signal.aborted) return null;
      return loaded.validate(String(dataset));
    },
  });
  const engine = connectEngine(new Worker("engine.js", { type: "module" }));
  const controller = new AbortController();
  const answer = await engine.call("check", [text], {
    signal: controller.signal,
    onProgress: (progress: Progress) => console.log(progress.done),
    transfer: [bytes],
  });
  console.log(validation.valid, answer);
}

// The agent under test answers a dataset; the result is the dataset with its responses.
async function agentRun(text: string): Promise<void> {
  const options: AgentRunOptions = {
    target: { kind: "chat", endpoint: "http://localhost:11434/v1", model: "llama3.1" },
    secrets: { OPENAI_API_KEY: "key" },
    concurrency: 2,
    signal: new AbortController().signal,
    onProgress: (progress) => console.log(progress.done, progress.total),
  };
  const ran: AgentRun = await run(text, options);
  const failed: number = ran.report.failed;
  console.log(ran.dataset.length, failed, ran.report.entries[0]?.error?.code);
}

// Misuse the types catch.
// @ts-expect-error: a run needs its target
run(text, { concurrency: 2 });
// @ts-expect-error: the loader needs the module
load({ wordnet: "wordnet-meteor.bin.gz" });
// @ts-expect-error: not an output format
render({} as RunReport, "pdf");
// @ts-expect-error: options are named in camelCase
score(text, { on_result: () => {} });
// @ts-expect-error: a custom evaluator is a function
score(text, { custom: { polite: "yes" } });
// @ts-expect-error: an evaluation renders from the dataset it keeps
evaluate(text).then((kept) => kept.render("document", { dataset: text }));
// @ts-expect-error: custom evaluators cannot be sent to a worker
connectWorker().score(text, { custom: { polite } });
// @ts-expect-error: readReport resolves to the report, it does not return it
const notAwaited: RunReport = readReport(text);
// @ts-expect-error: results are read-only data of known shape
const wrong: string = ({} as EvalResult).score;

void main();
void agentRun;
void hosted;
void wrong;
void notAwaited;

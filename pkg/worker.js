// A module Web Worker that runs the agenteval API off the main thread. Start it with
// `connectWorker()` (or `new Worker(new URL("agenteval/worker", import.meta.url), {type: "module"})`
// and the protocol of `protocol.js`). Its methods: the package's functions `validate`,
// `evaluators`, `score`, `evaluate`, `evaluateRows`, `scoreDocument`, `scoreItem`, `render`,
// `readReport`, `applyReviews`, `compare`, `run`, `version`, and for the runs it keeps `evaluationRender`, `evaluationFree`,
// `rowsEntry` and `rowsInput` (`[handle, …]`; `rowsInput` serves `evaluate`'s runs too).
// `evaluate` is done with `{report, handle}` and `evaluateRows` with `{summary, dialect, rows,
// length, handle}`: the run stays in the worker under `handle` until `evaluationFree`. A judge
// with `getToken: true` asks the caller for each token (`token` replies). `scoreDocument`'s
// `output` may be a WritableStream transferred with the request; the worker writes the document
// to it and closes it.

import { misuse, serve } from "./protocol.js";

// The listener is installed before the package has loaded (a top-level await would drop the
// messages that arrive meanwhile); each request waits for it.
const loading = import("./index.js");
const evaluations = new Map();
let nextHandle = 0;

/** The options with a judge whose `getToken: true` stands for the caller's callback. */
function withTokens(options, call) {
  if (options?.judge?.getToken !== true) return options;
  return { ...options, judge: { ...options.judge, getToken: () => call.token() } };
}

function evaluation(handle) {
  const found = evaluations.get(handle);
  if (found === undefined) throw misuse("evaluation: already freed; keep it until you are done with it");
  return found;
}

/** The run kept under a new handle. */
function keep(run) {
  const handle = nextHandle++;
  evaluations.set(handle, run);
  return handle;
}

/** The package function `name`, called with the request's arguments. */
const plain = (name) => async (args) => (await loading)[name](...args);

serve({
  validate: plain("validate"),
  evaluators: plain("evaluators"),
  render: plain("render"),
  readReport: plain("readReport"),
  applyReviews: plain("applyReviews"),
  compare: plain("compare"),
  version: plain("version"),
  score: async ([dataset, options], call) => {
    const agenteval = await loading;
    return agenteval.score(dataset, {
      ...withTokens(options, call),
      signal: call.signal,
      onResult: call.stream ? call.result : undefined,
      onProgress: call.progress,
    });
  },
  evaluate: async ([dataset, options], call) => {
    const agenteval = await loading;
    const scored = await agenteval.evaluate(dataset, {
      ...withTokens(options, call),
      signal: call.signal,
      onResult: call.stream ? call.result : undefined,
      onProgress: call.progress,
    });
    return { report: scored.report, handle: keep(scored) };
  },
  evaluateRows: async ([dataset, options], call) => {
    const agenteval = await loading;
    const scored = await agenteval.evaluateRows(dataset, {
      ...options,
      signal: call.signal,
      onRows: call.stream ? call.rows : undefined,
      onProgress: call.progress,
    });
    return { summary: scored.summary, dialect: scored.dialect, rows: scored.rows, length: scored.length, handle: keep(scored) };
  },
  rowsEntry: async ([handle, position]) => evaluation(handle).entry(position),
  rowsInput: async ([handle, position]) => evaluation(handle).input(position),
  evaluationRender: async ([handle, format, options]) => evaluation(handle).render(format, options),
  evaluationFree: async ([handle]) => {
    evaluation(handle).free();
    evaluations.delete(handle);
  },
  scoreDocument: async ([dataset, options], call) => {
    const agenteval = await loading;
    const scored = await agenteval.scoreDocument(dataset, { ...options, signal: call.signal, onProgress: call.progress });
    // The buffer of a `bytes` scored document is moved to the caller rather than copied.
    if (scored?.document instanceof Uint8Array) call.transfer([scored.document.buffer]);
    return scored;
  },
  run: async ([dataset, options], call) => {
    const agenteval = await loading;
    return agenteval.run(dataset, { ...options, signal: call.signal, onProgress: call.progress });
  },
  scoreItem: async ([item, evaluators, options], call) => {
    const agenteval = await loading;
    return agenteval.scoreItem(item, evaluators, { ...withTokens(options, call), signal: call.signal });
  },
});

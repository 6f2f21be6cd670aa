// A module Web Worker that runs the agenteval API off the main thread. Start it with
// `connectWorker()` (or `new Worker(new URL("agenteval/worker", import.meta.url), {type: "module"})`
// and the message protocol below):
//   request  {id, method: "validate"|"evaluators"|"score"|"evaluate"|"evaluateRows"|"scoreDocument"|"scoreItem"|"render"|"readReport"|"version", args, stream?}
//            {id, method: "abort"}
//            {id, method: "token", token, value | error} (the answer to a {type: "token"} reply)
//            {id, method: "evaluationRender", args: [handle, format, options]}
//            {id, method: "evaluationFree", args: [handle]}
//            {id, method: "rowsEntry", args: [handle, position]}
//   replies  {id, type: "result", outcome} (score/evaluate with stream: true), {id, type: "progress", progress},
//            {id, type: "done", value}, {id, type: "error", error: {name, message, code, diagnostics}},
//            {id, type: "token", token} (a judge with `getToken: true` asks the page for a token),
//            {id, type: "rows", rows} (evaluateRows with stream: true: each onRows chunk)
// `evaluate` is done with `{report, handle}`: the Evaluation stays in the worker under `handle`
// until `evaluationFree`; `evaluateRows` likewise with `{summary, dialect, rows, length, handle}`. `scoreDocument`'s `output` may be a WritableStream transferred with the
// request; the worker writes the document to it and closes it.

// The listener is installed before the package has loaded (a top-level await would drop the
// messages that arrive meanwhile); each request waits for it.
const loading = import("./index.js");
const controllers = new Map();
const evaluations = new Map();
const tokens = new Map();
let nextHandle = 0;
let nextToken = 0;

/**
 * The options with a judge whose `getToken: true` stands for the page's callback: each call
 * asks the page for a token and waits for its answer.
 */
function withTokens(options, id) {
  if (options?.judge?.getToken !== true) return options;
  const getToken = () =>
    new Promise((resolve, reject) => {
      const token = nextToken++;
      tokens.set(token, { resolve, reject });
      self.postMessage({ id, type: "token", token });
    });
  return { ...options, judge: { ...options.judge, getToken } };
}

function errorData(error) {
  return {
    name: error?.name ?? "Error",
    message: error?.message ?? String(error),
    code: error?.code,
    diagnostics: error?.diagnostics,
  };
}

async function run(method, args, id, stream, signal) {
  const agenteval = await loading;
  switch (method) {
    case "validate":
      return agenteval.validate(...args);
    case "evaluators":
      return agenteval.evaluators();
    case "render":
      return agenteval.render(...args);
    case "readReport":
      return agenteval.readReport(...args);
    case "version":
      return agenteval.version();
    case "score":
    case "evaluate": {
      const [dataset, options] = args;
      const scored = await agenteval[method](dataset, {
        ...withTokens(options, id),
        signal,
        onResult: stream ? (outcome) => self.postMessage({ id, type: "result", outcome }) : undefined,
        onProgress: (progress) => self.postMessage({ id, type: "progress", progress }),
      });
      if (method === "score") return scored;
      const handle = nextHandle++;
      evaluations.set(handle, scored);
      return { report: scored.report, handle };
    }
    case "evaluateRows": {
      const [dataset, options] = args;
      const scored = await agenteval.evaluateRows(dataset, {
        ...options,
        signal,
        onRows: stream ? (rows) => self.postMessage({ id, type: "rows", rows }) : undefined,
        onProgress: (progress) => self.postMessage({ id, type: "progress", progress }),
      });
      const handle = nextHandle++;
      evaluations.set(handle, scored);
      return { summary: scored.summary, dialect: scored.dialect, rows: scored.rows, length: scored.length, handle };
    }
    case "rowsEntry": {
      const [handle, position] = args;
      return evaluation(handle).entry(position);
    }
    case "rowsInput": {
      const [handle, position] = args;
      return evaluation(handle).input(position);
    }
    case "evaluationRender": {
      const [handle, format, options] = args;
      return evaluation(handle).render(format, options);
    }
    case "evaluationFree": {
      const [handle] = args;
      evaluation(handle).free();
      evaluations.delete(handle);
      return undefined;
    }
    case "scoreDocument": {
      const [dataset, options] = args;
      return agenteval.scoreDocument(dataset, {
        ...options,
        signal,
        onProgress: (progress) => self.postMessage({ id, type: "progress", progress }),
      });
    }
    case "scoreItem": {
      const [item, evaluators, options] = args;
      return agenteval.scoreItem(item, evaluators, { ...withTokens(options, id), signal });
    }
    default:
      throw misuse(`method: expected one of validate, evaluators, score, evaluate, evaluateRows, scoreDocument, scoreItem, render, readReport, version; got ${method}`);
  }
}

/** The buffer of a `bytes` scored document, moved to the page rather than copied. */
function transferables(value) {
  return value?.document instanceof Uint8Array ? [value.document.buffer] : [];
}

function misuse(message) {
  return Object.assign(new Error(message), { name: "AgentEvalError", code: "invalidArgument" });
}

function evaluation(handle) {
  const found = evaluations.get(handle);
  if (found === undefined) throw misuse("evaluation: already freed; keep it until you are done with it");
  return found;
}

self.addEventListener("message", async ({ data }) => {
  const { id, method, args = [], stream = false } = data ?? {};
  if (method === "abort") {
    controllers.get(id)?.abort();
    return;
  }
  if (method === "token") {
    const waiting = tokens.get(data.token);
    tokens.delete(data.token);
    if (data.error === undefined) waiting?.resolve(data.value);
    else waiting?.reject(new Error(data.error));
    return;
  }
  const controller = new AbortController();
  controllers.set(id, controller);
  try {
    const value = await run(method, args, id, stream, controller.signal);
    self.postMessage({ id, type: "done", value }, transferables(value));
  } catch (error) {
    if (!controller.signal.aborted) self.postMessage({ id, type: "error", error: errorData(error) });
  } finally {
    controllers.delete(id);
  }
});

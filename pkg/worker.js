// A module Web Worker that runs the agenteval API off the main thread. Start it with
// `connectWorker()` (or `new Worker(new URL("agenteval/worker", import.meta.url), {type: "module"})`
// and the message protocol below):
//   request  {id, method: "validate"|"evaluators"|"score"|"scoreItem"|"render"|"version", args, stream?}
//            {id, method: "abort"}
//   replies  {id, type: "result", outcome} (score with stream: true), {id, type: "progress", progress},
//            {id, type: "done", value}, {id, type: "error", error: {name, message, code, diagnostics}}

// The listener is installed before the package has loaded (a top-level await would drop the
// messages that arrive meanwhile); each request waits for it.
const loading = import("./index.js");
const controllers = new Map();

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
    case "version":
      return agenteval.version();
    case "score": {
      const [dataset, options] = args;
      return agenteval.score(dataset, {
        ...options,
        signal,
        onResult: stream ? (outcome) => self.postMessage({ id, type: "result", outcome }) : undefined,
        onProgress: (progress) => self.postMessage({ id, type: "progress", progress }),
      });
    }
    case "scoreItem": {
      const [item, evaluators, options] = args;
      return agenteval.scoreItem(item, evaluators, { ...options, signal });
    }
    default:
      throw Object.assign(new Error(`method: expected one of validate, evaluators, score, scoreItem, render, version; got ${method}`), {
        name: "AgentEvalError",
        code: "invalidArgument",
      });
  }
}

self.addEventListener("message", async ({ data }) => {
  const { id, method, args = [], stream = false } = data ?? {};
  if (method === "abort") {
    controllers.get(id)?.abort();
    return;
  }
  const controller = new AbortController();
  controllers.set(id, controller);
  try {
    const value = await run(method, args, id, stream, controller.signal);
    self.postMessage({ id, type: "done", value });
  } catch (error) {
    if (!controller.signal.aborted) self.postMessage({ id, type: "error", error: errorData(error) });
  } finally {
    controllers.delete(id);
  }
});

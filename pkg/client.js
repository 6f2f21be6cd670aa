// `connectWorker()`: the same API as the package, run in the package's Web Worker (worker.js), so
// scoring never blocks the page. Custom evaluators are functions and cannot be sent to a worker.
// The caller's side of the one worker protocol (`protocol.js`): `call()` reaches the methods of any
// worker that serves them with it (the page's engine, `web/engine-worker.js`).

function toError(data) {
  const error = new Error(data.message);
  error.name = data.name;
  if (data.code !== undefined) error.code = data.code;
  if (data.diagnostics !== undefined) error.diagnostics = data.diagnostics;
  return error;
}

function misuse(message) {
  return Object.assign(new Error(message), { name: "AgentEvalError", code: "invalidArgument" });
}

function defaultWorker() {
  if (typeof globalThis.Worker !== "function") {
    throw misuse("worker: this runtime has no Web Worker; pass one to connectWorker(worker)");
  }
  return new Worker(new URL("./worker.js", import.meta.url), { type: "module" });
}

export function connectWorker(worker = defaultWorker()) {
  let nextId = 0;
  const calls = new Map();
  let failure;
  worker.addEventListener("message", ({ data }) => {
    const call = calls.get(data?.id);
    if (!call) return;
    if (data.type === "result") call.onResult?.(data.outcome);
    else if (data.type === "progress") call.onProgress?.(data.progress);
    else if (data.type === "rows") call.onRows?.(data.rows);
    else if (data.type === "token") answerToken(call, data.token);
    else if (data.type === "done" || data.type === "error") {
      calls.delete(data.id);
      call.signal?.removeEventListener("abort", call.abort);
      if (data.type === "done") call.resolve(data.value);
      else call.reject(toError(data.error));
    }
  });
  worker.addEventListener("error", (event) => {
    failure = misuse(`worker: ${event?.message || "the worker failed"}`);
    failure.code = "workerError";
    for (const call of calls.values()) call.reject(failure);
    calls.clear();
  });

  /** Runs the caller's `getToken` for the worker and posts the token (or why there is none). */
  async function answerToken(call, token) {
    try {
      const value = await call.getToken();
      worker.postMessage({ id: call.id, method: "token", token, value });
    } catch (error) {
      worker.postMessage({ id: call.id, method: "token", token, error: error?.message ?? String(error) });
    }
  }

  function request(method, args, hooks = {}, transfer = []) {
    return new Promise((resolve, reject) => {
      const { signal, onResult, onRows, onProgress, getToken, judged, settle } = hooks;
      const waits = judged || settle;
      if (failure) return reject(failure);
      if (signal?.aborted && !waits) return reject(signal.reason);
      const id = nextId++;
      // A judged run is not rejected on abort: the worker's run resolves with the report, its
      // unanswered judge calls skipped. A call that settles ends with the worker's own answer
      // (its AbortError once the method has finished what it does on abort).
      const abort = () => {
        worker.postMessage({ id, method: "abort" });
        if (waits) return;
        calls.delete(id);
        reject(signal.reason);
      };
      calls.set(id, { id, resolve, reject, onResult, onRows, onProgress, signal, abort, getToken });
      if (signal?.aborted) queueMicrotask(abort);
      signal?.addEventListener("abort", abort, { once: true });
      worker.postMessage({ id, method, args, stream: typeof onResult === "function" || typeof onRows === "function" }, transfer);
    });
  }

  /** `render`, `free` and a freed-check for a run the worker keeps under `handle`. */
  function kept(handle) {
    let freed = false;
    const check = () => {
      if (freed) throw misuse("evaluation: already freed; keep it until you are done with it");
    };
    const free = () => {
      if (freed) return;
      freed = true;
      request("evaluationFree", [handle]).catch(() => {});
    };
    return {
      check,
      render: async (format, renderOptions) => {
        check();
        return request("evaluationRender", [handle, format, renderOptions]);
      },
      free,
      ...(Symbol.dispose ? { [Symbol.dispose]: free } : {}),
    };
  }

  function split(options, method) {
    const { custom, signal, onResult, onProgress, ...rest } = options ?? {};
    if (custom !== undefined && custom !== null) {
      const functions = Object.keys(custom).filter((name) => typeof custom[name] === "function");
      if (functions.length > 0) {
        throw misuse(
          `options.custom.${functions[0]}: custom evaluators that are functions cannot run in a worker; call ${method}() directly (judge templates can run in a worker)`,
        );
      }
      rest.custom = custom;
    }
    const judged = rest.judge !== undefined && rest.judge !== null;
    const getToken = judged && typeof rest.judge.getToken === "function" ? rest.judge.getToken : undefined;
    if (getToken) rest.judge = { ...rest.judge, getToken: true };
    return [rest, { signal, onResult, onProgress, getToken, judged }];
  }

  return {
    /**
     * Calls `method` of the worker with `args`; `hooks`: `signal`, `onProgress`, `onResult`,
     * `onRows`, `getToken`, `judged` (an abort resolves rather than rejects), `settle` (an abort
     * ends the call with the worker's answer, once the method has finished) and `transfer`.
     */
    call: (method, args = [], { transfer = [], ...hooks } = {}) => request(method, args, hooks, transfer),
    validate: (dataset, options) => request("validate", [dataset, options]),
    evaluators: () => request("evaluators", []),
    version: () => request("version", []),
    render: (report, format, options) => request("render", [report, format, options]),
    readReport: (dataset) => request("readReport", [dataset]),
    applyReviews: (report, reviews) => request("applyReviews", [report, reviews]),
    compare: (baseline, candidate, options) => request("compare", [baseline, candidate, options]),
    // An aborted agent run resolves with what was answered, as `run` does.
    run: async (dataset, options) => {
      const { signal, onProgress, ...rest } = options ?? {};
      if (typeof rest.getToken === "function") {
        throw misuse("options.getToken: a function cannot be sent to a worker; give the token in options.secrets, or call run() directly");
      }
      return request("run", [dataset, rest], { signal, onProgress, judged: true });
    },
    score: async (dataset, options) => {
      const [rest, hooks] = split(options, "score");
      return request("score", [dataset, rest], hooks);
    },
    evaluate: async (dataset, options) => {
      const [rest, hooks] = split(options, "evaluate");
      const { report, handle } = await request("evaluate", [dataset, rest], hooks);
      const { check, ...methods } = kept(handle);
      return {
        report,
        input: async (position) => {
          check();
          return request("rowsInput", [handle, position]);
        },
        ...methods,
      };
    },
    evaluateRows: async (dataset, options) => {
      const { signal, onRows, onProgress, ...rest } = options ?? {};
      const { handle, ...run } = await request("evaluateRows", [dataset, rest], { signal, onRows, onProgress });
      const { check, ...methods } = kept(handle);
      return {
        ...run,
        entry: async (position) => {
          check();
          return request("rowsEntry", [handle, position]);
        },
        input: async (position) => {
          check();
          return request("rowsInput", [handle, position]);
        },
        ...methods,
      };
    },
    scoreDocument: async (dataset, options) => {
      const { signal, onProgress, ...rest } = options ?? {};
      if (typeof rest.output !== "object" || rest.output === null) {
        return request("scoreDocument", [dataset, rest], { signal, onProgress });
      }
      // The worker writes into a stream transferred to it, piped here into the caller's: the call
      // resolves once the caller's stream has taken every chunk and closed, and a failure on
      // either side aborts the other.
      const { readable, writable } = new TransformStream();
      const piped = readable.pipeTo(rest.output);
      const scored = request("scoreDocument", [dataset, { ...rest, output: writable }], { signal, onProgress }, [writable]);
      return (await Promise.all([scored, piped]))[0];
    },
    scoreItem: async (item, evaluators, options) => {
      const [rest, hooks] = split(options, "scoreItem");
      return request("scoreItem", [item, evaluators, rest], hooks);
    },
    terminate: () => {
      worker.terminate();
      const error = misuse("worker: terminated");
      for (const call of calls.values()) call.reject(error);
      calls.clear();
    },
  };
}

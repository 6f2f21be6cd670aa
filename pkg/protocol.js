// The package's one worker protocol, the worker's side: `serve(methods)` answers requests with the
// given methods. The package's own worker (`worker.js`) serves the package's functions with it;
// a host that needs more in its worker (the page's engine, `web/engine-worker.js`) serves its own
// methods with it and talks to them through `connectWorker(worker).call(...)` (`client.js`).
//
//   request  {id, method, args, stream?}     stream: the caller wants `result` / `rows` replies
//            {id, method: "abort"}           aborts request `id` (its `signal`)
//            {id, method: "token", token, value | error}   the answer to a `token` reply
//   replies  {id, type: "done", value}       the method's value (its `transfer` list moved)
//            {id, type: "error", error: {name, message, code, diagnostics}}   (after an abort too,
//                                            once the method has ended: an `AbortError`)
//            {id, type: "progress", progress}
//            {id, type: "result", outcome}   one report entry, as it is scored
//            {id, type: "rows", rows}        a chunk of rows, as they are scored
//            {id, type: "token", token}      the method asks the caller for a judge token

/**
 * Serves `methods` in this worker: each is `(args, call)`, returning (or resolving to) the
 * request's value. `call` has the request's `id`, its `signal` (aborted by an `abort` request),
 * `stream`, `progress(value)`, `result(outcome)`, `rows(rows, transfer?)`, `token()` (resolves
 * to a token from the caller) and `transfer(buffers)` (moved with the `done` reply).
 */
export function serve(methods) {
  const controllers = new Map();
  const tokens = new Map();
  let nextToken = 0;
  const names = Object.keys(methods).join(", ");

  self.addEventListener("message", async ({ data }) => {
    const { id, method, args = [], stream = false } = data ?? {};
    if (method === "abort") {
      controllers.get(id)?.abort(new DOMException("cancelled by the caller", "AbortError"));
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
    let moved = [];
    const call = {
      id,
      signal: controller.signal,
      stream,
      progress: (progress) => self.postMessage({ id, type: "progress", progress }),
      result: (outcome) => self.postMessage({ id, type: "result", outcome }),
      rows: (rows, transfer = []) => self.postMessage({ id, type: "rows", rows }, transfer),
      token: () =>
        new Promise((resolve, reject) => {
          const token = nextToken++;
          tokens.set(token, { resolve, reject });
          self.postMessage({ id, type: "token", token });
        }),
      transfer: (buffers) => {
        moved = buffers;
      },
    };
    try {
      if (!Object.hasOwn(methods, method)) throw misuse(`method: expected one of ${names}; got ${method}`);
      const value = await methods[method](args, call);
      self.postMessage({ id, type: "done", value }, moved);
    } catch (error) {
      self.postMessage({ id, type: "error", error: errorData(error) });
    } finally {
      controllers.delete(id);
    }
  });
}

/** An `invalidArgument` error. */
export function misuse(message) {
  return Object.assign(new Error(message), { name: "AgentEvalError", code: "invalidArgument" });
}

function errorData(error) {
  return {
    name: error?.name ?? "Error",
    message: error?.message ?? String(error),
    code: error?.code,
    diagnostics: error?.diagnostics,
  };
}

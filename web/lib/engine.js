// The page's side of the engine worker (`engine-worker.js`): starts it, boots the WebAssembly
// modules in it, and turns its messages into promises and callbacks (rows that come as columns
// are made into compact rows here).

import { rowsFromColumns } from "./entries.js";
//
// Served, the worker and modules are files beside the page. In the offline file built by
// `cargo xtask dist` they are inlined: the worker's bundled source (a classic script) in a
// `<script type="text/plain" id="agenteval-engine">` and each module's bytes, base64, in `<script type="application/base64"
// id="agenteval-wasm">` / `id="agenteval-judge-wasm"`; none of them runs as a script.

function inlined(id) {
  return document.getElementById(id)?.textContent ?? null;
}

function bytesOf(base64) {
  const binary = atob(base64.trim());
  const bytes = new Uint8Array(binary.length);
  for (let index = 0; index < binary.length; index += 1) bytes[index] = binary.charCodeAt(index);
  return bytes.buffer;
}

function startWorker() {
  const source = inlined("agenteval-engine");
  if (source !== null) {
    const url = URL.createObjectURL(new Blob([source], { type: "text/javascript" }));
    // A classic worker: Chromium refuses module workers from blob: URLs in a page opened from file://.
    return {
      worker: new Worker(url),
      modules: { wasm: bytesOf(inlined("agenteval-wasm")), judgeWasm: bytesOf(inlined("agenteval-judge-wasm")) },
    };
  }
  return {
    worker: new Worker(new URL("../engine-worker.js", import.meta.url), { type: "module" }),
    modules: {
      wasm: new URL("../../pkg/agenteval_wasm_bg.wasm", import.meta.url).href,
      judgeWasm: new URL("../../pkg/agenteval_judge_bg.wasm", import.meta.url).href,
      wordnet: new URL("../../pkg/wordnet-meteor.bin.gz", import.meta.url).href,
    },
  };
}

function toError(data) {
  return Object.assign(new Error(data.message), { name: data.name, code: data.code, diagnostics: data.diagnostics });
}

/** The engine: `call(method, ...args)`, `run(options, {onRows, onProgress})` and `cancel()`. */
export class Engine {
  constructor() {
    const { worker, modules } = startWorker();
    this.worker = worker;
    this.nextId = 0;
    this.calls = new Map();
    worker.addEventListener("message", ({ data }) => this.receive(data));
    worker.addEventListener("error", (event) => {
      this.failure = new Error(`engine: ${event.message || "the worker failed to start"}`);
      for (const call of this.calls.values()) call.reject(this.failure);
      this.calls.clear();
    });
    this.ready = this.call("boot", modules);
  }

  receive(data) {
    const call = this.calls.get(data?.id);
    if (!call) return;
    if (data.type === "rows") call.onRows?.(data.rows);
    else if (data.type === "columns") call.onRows?.(rowsFromColumns(data.columns));
    else if (data.type === "progress") call.onProgress?.(data.progress);
    else {
      this.calls.delete(data.id);
      if (data.type === "done") call.resolve(data.value);
      else call.reject(toError(data.error));
    }
  }

  /** Calls `method` in the worker; resolves to its value. */
  call(method, ...args) {
    return this.request(method, args, {}).promise;
  }

  request(method, args, hooks, transfer = []) {
    const id = this.nextId++;
    if (this.failure) return { id, promise: Promise.reject(this.failure) };
    const promise = new Promise((resolve, reject) => {
      this.calls.set(id, { resolve, reject, ...hooks });
      this.worker.postMessage({ id, method, args }, transfer);
    });
    return { id, promise };
  }

  /** Opens a dataset (its bytes are moved to the worker). */
  open(bytes, name, config) {
    return this.request("open", [{ bytes, name, config }], {}, [bytes]).promise;
  }

  /** Scores the open dataset; `hooks.onRows` gets compact rows in batches. Returns `{promise, cancel}`. */
  run(options, hooks) {
    const { id, promise } = this.request("run", [options], hooks);
    return { promise, cancel: () => this.worker.postMessage({ id, method: "cancel" }) };
  }
}

// The page's side of the engine worker (`engine-worker.js`): starts it, boots the package's
// WebAssembly module in it, and reaches its methods through the package's worker client
// (`connectWorker(worker).call`, the one worker protocol); rows that come as columns are made into
// compact rows here.
//
// Served, the worker and the module are files beside the page. In the offline file built by
// `cargo xtask dist` they are inlined: the worker's bundled source (a classic script) in a
// `<script type="text/plain" id="agenteval-engine">` and the module's bytes, base64, in
// `<script type="application/base64" id="agenteval-wasm">`; neither runs as a script.

import { connectWorker } from "../../pkg/client.js";
import { rowsFromColumns } from "./entries.js";

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
    return { worker: new Worker(url), modules: { wasm: bytesOf(inlined("agenteval-wasm")) } };
  }
  return {
    worker: new Worker(new URL("../engine-worker.js", import.meta.url), { type: "module" }),
    modules: {
      wasm: new URL("../../pkg/agenteval_wasm_bg.wasm", import.meta.url).href,
      wordnet: new URL("../../pkg/wordnet-meteor.bin.gz", import.meta.url).href,
    },
  };
}

/** A run's rows (`{runId, rows | columns}`): compact rows as they are, the lean path's columns made into compact rows. */
function compactRows({ rows, columns }) {
  return rows ?? rowsFromColumns(columns);
}

/** The engine: `call(method, ...args)`, `open(bytes, name, config)` and `run(options, hooks)`. */
export class Engine {
  constructor() {
    const { worker, modules } = startWorker();
    this.worker = worker;
    this.client = connectWorker(worker);
    this.ready = this.call("boot", modules);
  }

  /** Calls `method` in the worker; resolves to its value. */
  call(method, ...args) {
    return this.client.call(method, args);
  }

  /** Opens a dataset (its bytes are moved to the worker). */
  open(bytes, name, config) {
    return this.client.call("open", [{ bytes, name, config }], { transfer: [bytes] });
  }

  /**
   * Scores the open dataset as run `options.runId`; `hooks.onRows(rows, runId)` gets compact rows
   * in batches and `hooks.onProgress(progress, runId)` the progress, each tagged with the run it
   * belongs to (the worker tags every message). Returns `{promise, cancel}`: a cancelled run
   * without a judge rejects with an `AbortError`, with one it resolves with the entries judged so
   * far, each once the worker has stored the run.
   */
  run(options, hooks) {
    const controller = new AbortController();
    const promise = this.client.call("run", [options], {
      signal: controller.signal,
      judged: Boolean(options?.judge),
      // A cancelled run ends when the worker has stored it as cancelled, never before: a reload
      // right after finds it cancelled, not still running.
      settle: true,
      onProgress: hooks?.onProgress && ((progress) => hooks.onProgress(progress, progress.runId)),
      onRows: hooks?.onRows && ((message) => hooks.onRows(compactRows(message), message.runId)),
    });
    return { promise, cancel: () => controller.abort(new DOMException("cancelled by the user", "AbortError")) };
  }
}

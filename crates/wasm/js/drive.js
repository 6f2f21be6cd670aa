// Drives one scoring run (a ScoreRun from the wasm module) to its end: steps through the entries,
// awaits custom evaluators between steps, yields to the event loop after each slice of work so
// pages stay responsive, reports progress, and honours the AbortSignal. Every call into wasm here
// is synchronous, so a crash surfaces as a rejection the package's guard can recognise.

const DEFAULT_SLICE_MS = 8;

const now = () => (globalThis.performance ?? Date).now();

/**
 * Resolves after the event loop has had a turn (rendering, input, timers, messages): a message
 * through a MessageChannel (a plain task, without the 4 ms clamp of nested timers), or
 * `setImmediate` in Node.
 */
function pause() {
  if (typeof globalThis.setImmediate === "function") {
    return new Promise((resolve) => globalThis.setImmediate(resolve));
  }
  if (typeof globalThis.MessageChannel === "function") {
    return new Promise((resolve) => {
      const channel = new MessageChannel();
      channel.port1.onmessage = () => {
        channel.port1.close();
        resolve();
      };
      channel.port2.postMessage(null);
    });
  }
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/** Rejects with the signal's reason as soon as it aborts. */
function whenAborted(signal) {
  return new Promise((_, reject) => {
    if (signal.aborted) return reject(signal.reason);
    signal.addEventListener("abort", () => reject(signal.reason), { once: true });
  });
}

function describe(error) {
  if (error instanceof Error) return error.message || error.name;
  try {
    return typeof error === "string" ? error : JSON.stringify(error) ?? String(error);
  } catch {
    return String(error);
  }
}

async function call(evaluator, { input, options, context }) {
  try {
    return { ok: await evaluator(input, options, context) };
  } catch (error) {
    return { error: describe(error) };
  }
}

/**
 * Resolves to what `mode` asks for: "report" (the run report), "item" (the first entry) or
 * "evaluation" (the run kept as an Evaluation).
 */
export function drive(run, options, mode) {
  const { custom = {}, signal, onResult, onProgress } = options ?? {};
  const sliceMs = options?.sliceMs ?? DEFAULT_SLICE_MS;
  const aborted = signal ? whenAborted(signal) : null;
  aborted?.catch(() => {});
  let finished = false;
  return (async () => {
    try {
      const total = run.total();
      const items = [];
      let sliceStart = now();
      signal?.throwIfAborted();
      for (let step = run.next(); step !== undefined; step = run.next()) {
        let outcome = step.outcome;
        if (outcome === undefined) {
          const calls = Promise.all(step.calls.map((request) => call(custom[request.evaluator], request)));
          outcome = run.complete(await (aborted ? Promise.race([calls, aborted]) : calls));
        }
        items.push(outcome);
        onResult?.(outcome);
        signal?.throwIfAborted();
        if (now() - sliceStart >= sliceMs) {
          onProgress?.({ done: items.length, total });
          await pause();
          signal?.throwIfAborted();
          sliceStart = now();
        }
      }
      finished = true;
      if (mode === "evaluation") {
        const evaluation = run.keep(items);
        onProgress?.({ done: items.length, total });
        return evaluation;
      }
      const report = run.finish();
      onProgress?.({ done: items.length, total });
      if (mode === "item") return items[0];
      report.items = items;
      return report;
    } finally {
      if (!finished) {
        try {
          run.free();
        } catch {
          // The module crashed or was reset; nothing is left to free.
        }
      }
    }
  })();
}

/** The scored document from its UTF-8 chunks (each ends with a whole item): bytes or text. */
function assemble(chunks, output) {
  if (output === "bytes") {
    if (chunks.length === 1) return chunks[0];
    const bytes = new Uint8Array(chunks.reduce((length, chunk) => length + chunk.length, 0));
    let offset = 0;
    for (const chunk of chunks) {
      bytes.set(chunk, offset);
      offset += chunk.length;
    }
    return bytes;
  }
  const decoder = new TextDecoder();
  return chunks.map((chunk) => decoder.decode(chunk)).join("");
}

/**
 * Runs a `scoreDocument` run to its end: one item per step, yielding to the event loop after each
 * slice of work, reporting progress and honouring the AbortSignal. Resolves to the scored
 * document (`options.output`: a string, or bytes), the summary and the diagnostics.
 */
export function driveDocument(run, options) {
  const { signal, onProgress, output } = options ?? {};
  const sliceMs = options?.sliceMs ?? DEFAULT_SLICE_MS;
  let finished = false;
  return (async () => {
    try {
      const total = run.total();
      let sliceStart = now();
      signal?.throwIfAborted();
      while (run.next()) {
        if (now() - sliceStart >= sliceMs) {
          onProgress?.({ done: run.done(), total });
          await pause();
          signal?.throwIfAborted();
          sliceStart = now();
        }
      }
      finished = true;
      onProgress?.({ done: total, total });
      const { chunks, summary, diagnostics } = run.finish();
      return { document: assemble(chunks, output), summary, diagnostics };
    } finally {
      if (!finished) {
        try {
          run.free();
        } catch {
          // The module crashed or was reset; nothing is left to free.
        }
      }
    }
  })();
}

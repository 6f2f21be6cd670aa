// Drives one scoring run (a ScoreRun from the wasm module) to its end: steps through the entries,
// awaits custom evaluators between steps, yields to the event loop after each slice of work so
// pages stay responsive, reports progress, and honours the AbortSignal. A run that scores METEOR
// first waits for its WordNet table (`run.loadWordnet()`: the module decides whether it needs
// it). Every other call into wasm here is synchronous, so a crash surfaces as a rejection the
// package's guard can recognise.

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

/**
 * A thrown value's message, whatever was thrown: an `Error` whose `message` getter throws, a Proxy
 * whose traps throw, a value `JSON.stringify` refuses. Never throws itself.
 */
function describe(error) {
  const attempts = [
    () => (error instanceof Error ? String(error.message || error.name) : undefined),
    () => (typeof error === "string" ? error : undefined),
    () => JSON.stringify(error),
    () => String(error),
  ];
  for (const attempt of attempts) {
    try {
      const text = attempt();
      if (typeof text === "string" && text !== "") return text;
    } catch {
      // The next way of reading it.
    }
  }
  return "a thrown value that cannot be read";
}

async function call(evaluator, { input, options, context }) {
  try {
    return { ok: await evaluator(input, options, context) };
  } catch (error) {
    return { error: describe(error) };
  }
}

/**
 * A run with a judge, handed to the module, whose scheduler makes the judge calls (`fetch`) and
 * awaits custom evaluators itself. Cancelling does not reject: judge calls not yet answered end
 * `skipped`, and the report's `judge.not_reached` names the entries concerned.
 */
async function judged(run, items, mode, { custom, signal, onResult, onProgress }) {
  const head = await run.judgeAll(mode, items, {
    onEntry(outcome, judgeExchanges) {
      items.push(outcome);
      onResult?.(outcome, judgeExchanges);
    },
    onProgress,
    callCustom: (request) => call(custom[request.evaluator], request),
    signal,
  });
  if (mode === "evaluation") return head;
  if (mode === "item") return items[0];
  head.items = items;
  return head;
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
      const items = [];
      await run.loadWordnet();
      let sliceStart = now();
      signal?.throwIfAborted();
      if (run.judged) {
        finished = true;
        return await judged(run, items, mode, { custom, signal, onResult, onProgress });
      }
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
          onProgress?.({ done: items.length, total: run.total() });
          await pause();
          signal?.throwIfAborted();
          sliceStart = now();
        }
      }
      finished = true;
      if (mode === "evaluation") {
        const evaluation = run.keep(items);
        onProgress?.({ done: items.length, total: items.length });
        return evaluation;
      }
      const report = run.finish();
      onProgress?.({ done: items.length, total: items.length });
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

/**
 * The scored document's UTF-8 bytes, gathered outside the module: each chunk is copied once,
 * straight from the module's memory, into one buffer. When the buffer is full it grows to the
 * size the module expects the whole document to have, so it is rarely copied again.
 */
export class DocumentSink {
  constructor(memory) {
    this.memory = memory;
    this.bytes = new Uint8Array(0);
    this.length = 0;
  }

  /** Copies `length` bytes at `address` of the module's memory after those gathered so far. */
  append(address, length, expected) {
    const needed = this.length + length;
    if (needed > this.bytes.length) {
      const grown = DocumentSink.allocate(Math.max(needed, Math.ceil(this.bytes.length * 1.25)), expected);
      grown.set(this.bytes.subarray(0, this.length));
      this.bytes = grown;
    }
    this.bytes.set(new Uint8Array(this.memory.buffer, address, length), this.length);
    this.length = needed;
  }

  /**
   * A buffer of the `expected` size when that is more than `least`: the projection from the first
   * items can be far too large (large items first, then many small ones), so when the runtime
   * refuses that much, `least` will do.
   */
  static allocate(least, expected) {
    if (expected > least) {
      try {
        return new Uint8Array(Math.ceil(expected));
      } catch (error) {
        if (!(error instanceof RangeError)) throw error;
      }
    }
    return new Uint8Array(least);
  }

  /** The document as bytes (`output: "bytes"`) or text; the buffer is trimmed when much is left over. */
  take(output) {
    const spare = this.bytes.length - this.length;
    const bytes = spare > this.length / 8 ? this.bytes.slice(0, this.length) : this.bytes.subarray(0, this.length);
    return output === "bytes" ? bytes : new TextDecoder().decode(bytes);
  }
}

/**
 * The scored document's bytes written to a `WritableStream` (`output: stream`) chunk by chunk as
 * they leave the module, so neither the module nor the page ever holds the whole output. The
 * driver waits for the stream's backpressure (`ready`) between items and closes it at the end.
 */
export class StreamSink {
  constructor(memory, stream) {
    this.memory = memory;
    this.writer = stream.getWriter();
    this.pending = false;
    this.failure = undefined;
  }

  /**
   * Copies `length` bytes at `address` of the module's memory into a chunk and writes it; the
   * driver then waits for the stream (`pending`).
   */
  append(address, length) {
    const chunk = new Uint8Array(this.memory.buffer.slice(address, address + length));
    this.pending = true;
    this.writer.write(chunk).catch((error) => {
      this.failure ??= { error };
    });
  }

  /** Resolves once the stream wants more; rejects with the stream's error. */
  async ready() {
    if (this.failure) throw this.failure.error;
    const wanted = this.writer.desiredSize;
    if (wanted === null || wanted <= 0) await this.writer.ready;
  }

  /** Waits for every chunk to be written, then closes the stream; rejects with its error. */
  async close() {
    await this.writer.close();
    if (this.failure) throw this.failure.error;
    this.writer.releaseLock();
  }

  /** Aborts the stream with `reason` after a failed or cancelled run. */
  abort(reason) {
    this.writer.abort(reason).catch(() => {});
  }
}

/** The sink for `output`: the stream it names, or a buffer for `"string"` and `"bytes"`. */
export function documentSink(memory, output) {
  return typeof output === "object" && output !== null ? new StreamSink(memory, output) : new DocumentSink(memory);
}

const MAX_BATCH = 1024;

/**
 * The number of items the next step of a `scoreDocument` run takes: doubled while a step takes
 * under an eighth of a slice, halved when it takes over half of one, so that steps cost few calls
 * into the module and slices still end on time whatever the size of the items.
 */
export function nextBatch(batch, stepMs, sliceMs) {
  if (stepMs < sliceMs / 8) return Math.min(batch * 2, MAX_BATCH);
  if (stepMs > sliceMs / 2) return Math.max(batch >> 1, 1);
  return batch;
}

/**
 * Runs a `scoreDocument` run to its end: a batch of items per step, yielding to the event loop
 * after each slice of work, reporting progress and honouring the AbortSignal. Resolves to the
 * scored document (`options.output`: a string, or bytes), the summary and the diagnostics; when
 * `options.output` is a stream, the document goes there and the stream is closed (aborted when
 * the run fails or is cancelled).
 */
export function driveDocument(run, options) {
  const { signal, onProgress, output } = options ?? {};
  const sliceMs = options?.sliceMs ?? DEFAULT_SLICE_MS;
  const streamSink = run.sink instanceof StreamSink ? run.sink : undefined;
  let finished = false;
  return (async () => {
    try {
      const total = run.total();
      let sliceStart = now();
      let batch = 1;
      signal?.throwIfAborted();
      for (;;) {
        const stepStart = now();
        if (!run.next(batch)) break;
        const stepEnd = now();
        batch = nextBatch(batch, stepEnd - stepStart, sliceMs);
        if (streamSink?.pending) {
          streamSink.pending = false;
          await streamSink.ready();
          signal?.throwIfAborted();
        }
        if (stepEnd - sliceStart >= sliceMs) {
          onProgress?.({ done: run.done(), total });
          await pause();
          signal?.throwIfAborted();
          sliceStart = now();
        }
      }
      finished = true;
      onProgress?.({ done: total, total });
      const { sink, summary, diagnostics } = run.finish();
      if (streamSink) {
        await streamSink.close();
        return { summary, diagnostics };
      }
      return { document: sink.take(output), summary, diagnostics };
    } catch (error) {
      streamSink?.abort(error);
      throw error;
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

/**
 * Runs an `evaluateRows` run to its end: a batch of items per step (sized as `scoreDocument`'s),
 * handing the rows scored since the last slice to `onRows` and the count done to `onProgress`
 * after each slice of work, yielding to the event loop between slices and honouring the
 * AbortSignal. Resolves to the run's RowsEvaluation.
 */
export function driveRows(run, options) {
  const { signal, onProgress, onRows } = options ?? {};
  const sliceMs = options?.sliceMs ?? DEFAULT_SLICE_MS;
  let finished = false;
  const handRows = () => {
    const rows = run.rows();
    if (rows.index.length > 0) onRows(rows);
  };
  return (async () => {
    try {
      await run.loadWordnet();
      let sliceStart = now();
      let batch = 1;
      signal?.throwIfAborted();
      for (let more = true; more; ) {
        const stepStart = now();
        more = run.next(batch);
        const stepEnd = now();
        batch = nextBatch(batch, stepEnd - stepStart, sliceMs);
        if (more && stepEnd - sliceStart >= sliceMs) {
          if (onRows) handRows();
          onProgress?.({ done: run.done(), total: run.total() });
          await pause();
          signal?.throwIfAborted();
          sliceStart = now();
        }
      }
      if (onRows) handRows();
      const done = run.done();
      finished = true;
      const evaluation = run.finish();
      onProgress?.({ done, total: done });
      return evaluation;
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

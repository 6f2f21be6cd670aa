// The engine worker's side of the agent panel: a dataset's prompts sent to the agent under test
// through the package's `run()`, and "Test connection" (one prompt). While a run goes, a record of
// it (the dataset's bytes, its name, the prompts answered so far; never the secrets) is kept in
// the store, so that a page reloaded mid-run can offer it again; the record goes when the run ends.

import { openStore } from "./store.js";

/** The store setting that holds the agent run in progress. */
export const PENDING_AGENT_RUN = "agentRun";

/** Progress is written to the store at most this often, in milliseconds. */
const PROGRESS_WRITES_MS = 250;

/**
 * Runs `data` (a dataset's bytes) through `target` with `api.run`; resolves to `{dataset,
 * report, cancelled}`. `call` is the worker call (its `signal` cancels, keeping what was answered;
 * its `progress` gets `{done, total}`); `name` is kept with the pending record.
 */
export async function runAgent(api, data, { target, secrets, concurrency, name }, call) {
  const store = await openStore().catch(() => undefined);
  const pending = { name, dataset: data, total: null, done: 0, startedAt: new Date().toISOString() };
  let writing = store ? store.setSetting(PENDING_AGENT_RUN, pending).catch(() => {}) : Promise.resolve();
  let written = 0;
  const onProgress = ({ done, total }) => {
    call.progress({ done, total });
    pending.done = done;
    pending.total = total;
    if (store && performance.now() - written > PROGRESS_WRITES_MS) {
      written = performance.now();
      writing = writing.then(() => store.setSetting(PENDING_AGENT_RUN, { ...pending })).catch(() => {});
    }
  };
  try {
    const { dataset, report } = await api.run(data, { target, secrets, concurrency, signal: call.signal, onProgress });
    return { dataset, report, cancelled: call.signal.aborted };
  } finally {
    if (store) await writing.then(() => store.setSetting(PENDING_AGENT_RUN, undefined)).catch(() => {});
  }
}

/** Sends `prompt` once to `target`; resolves to `{response}` or `{error: {code, message}}`. */
export async function testAgent(api, { target, secrets, prompt }) {
  const dataset = JSON.stringify({ schemaVersion: "1.11.0", items: [{ prompt }] });
  const { dataset: answered, report } = await api.run(dataset, { target, secrets, concurrency: 1, retries: 0 });
  const error = report.entries[0]?.error;
  if (error) return { error: { code: error.code, message: error.message } };
  return { response: JSON.parse(answered).items[0]?.response ?? "" };
}

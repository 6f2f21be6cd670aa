// The page's IndexedDB store: runs (the dataset's bytes, its name, the judge settings without any
// key, the summary when done) and their outcomes, written in batches as they arrive, so a reload
// shows what was scored and resumes the run; a reviewer's reviews of a run. Also the key when the
// user ticks "remember on this device". Used by the page and by the engine worker (both have IndexedDB).

import { rowsFromColumns } from "./entries.js";

const NAME = "agenteval-page";
const VERSION = 2;

function promised(request) {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

function done(transaction) {
  return new Promise((resolve, reject) => {
    transaction.oncomplete = () => resolve();
    transaction.onerror = () => reject(transaction.error);
    transaction.onabort = () => reject(transaction.error);
  });
}

/** Opens the store; rejects where the runtime has no IndexedDB. */
export async function openStore() {
  if (typeof indexedDB === "undefined") throw new Error("this browser has no IndexedDB");
  const request = indexedDB.open(NAME, VERSION);
  request.onupgradeneeded = () => {
    const db = request.result;
    for (const name of db.objectStoreNames) db.deleteObjectStore(name);
    db.createObjectStore("runs", { keyPath: "id" });
    db.createObjectStore("datasets");
    const outcomes = db.createObjectStore("outcomes", { autoIncrement: true });
    outcomes.createIndex("run", "run");
    db.createObjectStore("settings");
  };
  const db = await promised(request);
  return new Store(db);
}

/** Where a run's reviews are kept (beside the settings, so the stores' layout does not change). */
function reviewsKey(run) {
  return `reviews:${run}`;
}

class Store {
  constructor(db) {
    this.db = db;
  }

  /**
   * Saves (or replaces) a run's record; its `dataset` (bytes) goes to a store of its own, so that
   * listing runs never reads datasets.
   */
  async putRun({ dataset, ...run }) {
    const transaction = this.db.transaction(["runs", "datasets"], "readwrite");
    transaction.objectStore("runs").put(run);
    if (dataset !== undefined) transaction.objectStore("datasets").put(dataset, run.id);
    await done(transaction);
  }

  /** The run with `id`, with its `dataset`, or undefined. */
  async getRun(id) {
    const transaction = this.db.transaction(["runs", "datasets"]);
    const [run, dataset] = await Promise.all([
      promised(transaction.objectStore("runs").get(id)),
      promised(transaction.objectStore("datasets").get(id)),
    ]);
    return run && { ...run, dataset };
  }

  /** Every run, newest first, without their datasets. */
  async listRuns() {
    const runs = await promised(this.db.transaction("runs").objectStore("runs").getAll());
    return runs.sort((a, b) => (b.startedAt ?? "").localeCompare(a.startedAt ?? ""));
  }

  /** Appends a batch of a run's outcomes (one record per batch: its JSON text). */
  async putOutcomes(run, outcomes) {
    const transaction = this.db.transaction("outcomes", "readwrite");
    transaction.objectStore("outcomes").add({ run, outcomes: JSON.stringify(outcomes) });
    await done(transaction);
  }

  /** Appends a batch of a run's rows as `evaluateRows` gives them (typed columns). */
  async putColumns(run, columns) {
    const transaction = this.db.transaction("outcomes", "readwrite");
    transaction.objectStore("outcomes").add({ run, columns });
    await done(transaction);
  }

  /** A run's outcomes (or rows, for a run stored as columns) in the order they were stored. */
  async getOutcomes(run) {
    const index = this.db.transaction("outcomes").objectStore("outcomes").index("run");
    const records = await promised(index.getAll(IDBKeyRange.only(run)));
    return records.flatMap((record) => (record.columns ? rowsFromColumns(record.columns) : JSON.parse(record.outcomes)));
  }

  /** Removes a run's outcomes (before it is scored again). */
  async clearOutcomes(run) {
    const transaction = this.db.transaction("outcomes", "readwrite");
    const index = transaction.objectStore("outcomes").index("run");
    const keys = await promised(index.getAllKeys(IDBKeyRange.only(run)));
    const store = transaction.objectStore("outcomes");
    for (const key of keys) store.delete(key);
    await done(transaction);
  }

  /** Removes a run, its dataset, its outcomes and its reviews. */
  async deleteRun(run) {
    await this.clearOutcomes(run);
    const transaction = this.db.transaction(["runs", "datasets", "settings"], "readwrite");
    transaction.objectStore("runs").delete(run);
    transaction.objectStore("datasets").delete(run);
    transaction.objectStore("settings").delete(reviewsKey(run));
    await done(transaction);
  }

  /** A run's reviews: `[{index, turn, review, position}]` (the entry's position in the run beside what the package's `applyReviews` takes). */
  async getReviews(run) {
    return (await this.getSetting(reviewsKey(run))) ?? [];
  }

  /** Saves a run's reviews; an empty list removes them. */
  async putReviews(run, reviews) {
    await this.setSetting(reviewsKey(run), reviews.length > 0 ? reviews : undefined);
  }

  /** A setting, or undefined. */
  async getSetting(key) {
    return promised(this.db.transaction("settings").objectStore("settings").get(key));
  }

  /** Saves a setting; `undefined` removes it. */
  async setSetting(key, value) {
    const transaction = this.db.transaction("settings", "readwrite");
    const store = transaction.objectStore("settings");
    if (value === undefined) store.delete(key);
    else store.put(value, key);
    await done(transaction);
  }
}

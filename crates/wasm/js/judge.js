// What the judge seams need from the JavaScript runtime that wasm-bindgen does not give directly:
// an abort listener that can be removed, a monotonic clock, and the judge cache in IndexedDB
// (browsers and workers; where IndexedDB is missing, as in Node, the cache lives in memory only).

const DATABASE = "agenteval-judge-cache";
const STORE = "answers";

/** Calls `callback` once `signal` aborts (at once if it has); returns the unsubscribe function. */
export function onAbort(signal, callback) {
  if (!signal) return () => {};
  if (signal.aborted) {
    callback();
    return () => {};
  }
  signal.addEventListener("abort", callback, { once: true });
  return () => signal.removeEventListener("abort", callback);
}

/** Milliseconds since an arbitrary origin, monotonic. */
export function now() {
  return (globalThis.performance ?? Date).now();
}

let opened;

function database() {
  if (typeof globalThis.indexedDB?.open !== "function") return Promise.resolve(undefined);
  opened ??= new Promise((resolve) => {
    try {
      const request = globalThis.indexedDB.open(DATABASE, 1);
      request.onupgradeneeded = () => request.result.createObjectStore(STORE);
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => resolve(undefined);
      request.onblocked = () => resolve(undefined);
    } catch {
      resolve(undefined);
    }
  });
  return opened;
}

function transact(mode, work) {
  return database().then(
    (db) =>
      db &&
      new Promise((resolve) => {
        try {
          const transaction = db.transaction(STORE, mode);
          const request = work(transaction.objectStore(STORE));
          transaction.oncomplete = () => resolve(request.result);
          transaction.onerror = () => resolve(undefined);
          transaction.onabort = () => resolve(undefined);
        } catch {
          resolve(undefined);
        }
      }),
  );
}

/** Whether a persistent cache is available here. */
export function cacheAvailable() {
  return typeof globalThis.indexedDB?.open === "function";
}

/** The cached answer for `key`, or undefined. */
export function cacheGet(key) {
  return transact("readonly", (store) => store.get(key)).then((value) => (typeof value === "string" ? value : undefined));
}

/** Stores an answer; failures leave the cache as it was. */
export function cachePut(key, value) {
  return transact("readwrite", (store) => store.put(value, key)).then(() => undefined);
}

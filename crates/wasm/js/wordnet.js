// Where the module finds METEOR's WordNet table: the loader the package registered
// (`setWordnetLoader`, from `pkg/load.js`). It lives here, outside the module's memory, so a
// module reset after a crash keeps it.

let loader;

export function setLoader(load) {
  loader = load;
}

export function hasLoader() {
  return loader !== undefined;
}

/** Resolves to the table's bytes (a Uint8Array); rejects when the loader fails. */
export function loadTable() {
  return Promise.resolve().then(() => loader());
}

// The package's one loader: instantiates the WebAssembly module once and registers how METEOR's
// WordNet table is loaded, then resolves to the API (`api.js`). The module itself asks for the
// table, before the first run that scores METEOR; nothing here decides when. The entry points
// (`index.js` for browsers, workers and bundlers, `node.js` for Node) call it with the files
// beside them; a host that already holds the module's bytes (the page's offline file, which has
// no URL to fetch them from) calls it itself, as `agenteval/load`.

import init, { setWordnetLoader } from "./agenteval_wasm.js";
import * as api from "./api.js";

let loaded;

/**
 * Loads the package once; later calls resolve to the same API whatever they give.
 * `module`: the `.wasm` as a URL, a `Response`, its bytes or a compiled `WebAssembly.Module`.
 * `wordnet` (optional): the URL of `wordnet-meteor.bin.gz`, or a function resolving to its
 * bytes, gzipped or not. Without it METEOR's results are `evaluatorLoadError` errors.
 */
export function load({ module, wordnet } = {}) {
  loaded ??= init({ module_or_path: module }).then(() => {
    if (wordnet !== undefined && wordnet !== null) setWordnetLoader(tableLoader(wordnet));
    return api;
  });
  return loaded;
}

/** Reads the table once (again after a failure), ungzipped. */
function tableLoader(source) {
  const read =
    typeof source === "function"
      ? source
      : async () => {
          const response = await fetch(source);
          if (!response.ok) throw new Error(`wordnet-meteor.bin.gz: HTTP ${response.status}`);
          return response.arrayBuffer();
        };
  let table;
  return () => {
    table ??= Promise.resolve()
      .then(read)
      .then((bytes) => gunzip(bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes)))
      .catch((error) => {
        table = undefined;
        throw error;
      });
    return table;
  };
}

/** `bytes` ungzipped, or as they are when a server already decoded them (no gzip magic). */
async function gunzip(bytes) {
  if (bytes[0] !== 0x1f || bytes[1] !== 0x8b) return bytes;
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

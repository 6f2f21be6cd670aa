// Entry point for browsers, Web Workers and bundlers: loads the module from beside this file
// (`load.js`), then exposes the API. Works in pages and module workers alike (no `window`, no
// threads). METEOR's WordNet table is fetched only before the first run that scores METEOR.

import { load } from "./load.js";

await load({
  module: new URL("./agenteval_wasm_bg.wasm", import.meta.url),
  wordnet: new URL("./wordnet-meteor.bin.gz", import.meta.url),
});

export * from "./api.js";
export { connectWorker } from "./client.js";

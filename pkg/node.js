// Entry point for Node.js (20+): loads the module from the package folder (`load.js`). METEOR's
// WordNet table is read only before the first run that scores METEOR.

import { readFile } from "node:fs/promises";
import { gunzipSync } from "node:zlib";
import { load } from "./load.js";

await load({
  module: await readFile(new URL("./agenteval_wasm_bg.wasm", import.meta.url)),
  wordnet: async () => new Uint8Array(gunzipSync(await readFile(new URL("./wordnet-meteor.bin.gz", import.meta.url)))),
});

export * from "./api.js";
export { connectWorker } from "./client.js";

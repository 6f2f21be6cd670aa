// Entry point for Node.js (20+): reads the module from the package folder and instantiates it once.

import { readFile } from "node:fs/promises";
import { initSync } from "./agenteval_wasm.js";

initSync({ module: await readFile(new URL("./agenteval_wasm_bg.wasm", import.meta.url)) });

export * from "./api.js";
export { connectWorker } from "./client.js";

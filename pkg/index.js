// Entry point for browsers, Web Workers and bundlers: fetches and instantiates the module once,
// then exposes the API. Works in pages and module workers alike (no `window`, no threads).

import init from "./agenteval_wasm.js";

await init({ module_or_path: new URL("./agenteval_wasm_bg.wasm", import.meta.url) });

export * from "./api.js";
export { connectWorker } from "./client.js";

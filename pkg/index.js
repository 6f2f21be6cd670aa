// Entry point for browsers, Web Workers and bundlers: fetches and instantiates the module once,
// then exposes the API. Works in pages and module workers alike (no `window`, no threads). The
// judge module is fetched only when a call first gives a `judge`.

import init from "./agenteval_wasm.js";
import { modules } from "./modules.js";

await init({ module_or_path: new URL("./agenteval_wasm_bg.wasm", import.meta.url) });

modules.loadJudge = async () => {
  const judge = await import("./agenteval_judge.js");
  await judge.default({ module_or_path: new URL("./agenteval_judge_bg.wasm", import.meta.url) });
  return judge;
};

export * from "./api.js";
export { connectWorker } from "./client.js";

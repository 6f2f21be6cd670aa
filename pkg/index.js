// Entry point for browsers, Web Workers and bundlers: fetches and instantiates the module once,
// then exposes the API. Works in pages and module workers alike (no `window`, no threads). The
// judge module is fetched only when a call first gives a `judge`, METEOR's WordNet table only when
// a call first names `builtin.meteor_score`.

import init from "./agenteval_wasm.js";
import { gunzip, modules } from "./modules.js";

await init({ module_or_path: new URL("./agenteval_wasm_bg.wasm", import.meta.url) });

modules.loadJudge = async () => {
  const judge = await import("./agenteval_judge.js");
  await judge.default({ module_or_path: new URL("./agenteval_judge_bg.wasm", import.meta.url) });
  return judge;
};

modules.loadWordnet = async () => {
  const response = await fetch(new URL("./wordnet-meteor.bin.gz", import.meta.url));
  if (!response.ok) throw new Error(`wordnet-meteor.bin.gz: HTTP ${response.status}`);
  return gunzip(new Uint8Array(await response.arrayBuffer()));
};

export * from "./api.js";
export { connectWorker } from "./client.js";

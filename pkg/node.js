// Entry point for Node.js (20+): reads the module from the package folder and instantiates it once.
// The judge module is read only when a call first gives a `judge`, METEOR's WordNet table only when
// a call first names `builtin.meteor_score`.

import { readFile } from "node:fs/promises";
import { gunzipSync } from "node:zlib";
import { initSync } from "./agenteval_wasm.js";
import { modules } from "./modules.js";

initSync({ module: await readFile(new URL("./agenteval_wasm_bg.wasm", import.meta.url)) });

modules.loadJudge = async () => {
  const judge = await import("./agenteval_judge.js");
  judge.initSync({ module: await readFile(new URL("./agenteval_judge_bg.wasm", import.meta.url)) });
  return judge;
};

modules.loadWordnet = async () =>
  new Uint8Array(gunzipSync(await readFile(new URL("./wordnet-meteor.bin.gz", import.meta.url))));

export * from "./api.js";
export { connectWorker } from "./client.js";

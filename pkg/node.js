// Entry point for Node.js (20+): reads the module from the package folder and instantiates it once.
// The judge module is read only when a call first gives a `judge`.

import { readFile } from "node:fs/promises";
import { initSync } from "./agenteval_wasm.js";
import { modules } from "./modules.js";

initSync({ module: await readFile(new URL("./agenteval_wasm_bg.wasm", import.meta.url)) });

modules.loadJudge = async () => {
  const judge = await import("./agenteval_judge.js");
  judge.initSync({ module: await readFile(new URL("./agenteval_judge_bg.wasm", import.meta.url)) });
  return judge;
};

export * from "./api.js";
export { connectWorker } from "./client.js";

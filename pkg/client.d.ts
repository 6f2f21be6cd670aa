// Declarations of `agenteval/client`: `connectWorker` alone, for a page that runs the package only
// in a worker and so does not load the module itself.
export { connectWorker } from "./agenteval_wasm.js";
export type { WorkerClient, WorkerCallHooks, WorkerLike } from "./agenteval_wasm.js";

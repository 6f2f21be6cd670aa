// Declarations of `agenteval/load`, the package's loader, for hosts that load the module
// themselves (the entry points `agenteval` and `agenteval/worker` load it on import).
import type * as api from "./index.js";

/** What the package's functions are once loaded: those of `agenteval`, without `connectWorker`. */
export type LoadedApi = Omit<typeof api, "connectWorker">;

export interface LoadOptions {
  /** The `.wasm`: a URL, a `Response`, its bytes or a compiled `WebAssembly.Module`. */
  module: URL | string | Response | BufferSource | WebAssembly.Module;
  /** `wordnet-meteor.bin.gz`: its URL, or a function resolving to its bytes (gzipped or not). */
  wordnet?: URL | string | (() => Promise<ArrayBuffer | Uint8Array> | ArrayBuffer | Uint8Array) | null;
}

/** Loads the module once; later calls resolve to the same API whatever they give. */
export function load(options: LoadOptions): Promise<LoadedApi>;

// The package's second WebAssembly module, the LLM judges (`agenteval_judge`), is loaded only for
// a call that gives a `judge`: the entry point (index.js for browsers and bundlers, node.js for
// Node) says here how to load it in its runtime; api.js loads it once, on first use. The same goes
// for METEOR's WordNet table, a separate asset fetched on METEOR's first use.

export const modules = {
  /** Resolves to the initialised judge module; set by the entry point. */
  loadJudge: undefined,
  /**
   * Resolves to METEOR's WordNet table (`wordnet-meteor.bin.gz`, ungzipped); set by the entry
   * point. Without it METEOR's results are `evaluatorLoadError` errors.
   */
  loadWordnet: undefined,
};

/** `bytes` ungzipped, or as they are when a server already decoded them (no gzip magic). */
export async function gunzip(bytes) {
  if (bytes[0] !== 0x1f || bytes[1] !== 0x8b) return bytes;
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

// The package's second WebAssembly module, the LLM judges (`agenteval_judge`), is loaded only for
// a call that gives a `judge`: the entry point (index.js for browsers and bundlers, node.js for
// Node) says here how to load it in its runtime; api.js loads it once, on first use.

export const modules = {
  /** Resolves to the initialised judge module; set by the entry point. */
  loadJudge: undefined,
};

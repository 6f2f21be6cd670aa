// The package's public functions: the wasm exports, each behind a guard that turns a crash of the
// module (a Rust panic surfaces as a WebAssembly trap) into an `Error` with code `internalError`
// and resets the module, so the next call works on a fresh instance. Shared by every entry point,
// which loads the module first (`load.js`). Every call runs in the one module; a run that scores
// METEOR has the module ask for the WordNet table itself.

import * as wasm from "./agenteval_wasm.js";

const PANIC_SLOT = Symbol.for("agenteval.panic");

function isCrash(error) {
  return error instanceof WebAssembly.RuntimeError;
}

/** A run whose objects belong to an instance that a crash (of this or another call) replaced. */
function isStale(error) {
  return error instanceof Error && error.code === undefined && /stale object/i.test(error.message);
}

/** A call on an `Evaluation` after its `free()`. */
function isFreed(error) {
  return error instanceof Error && error.code === undefined && /null pointer passed to rust/i.test(error.message);
}

function internalError(message, cause) {
  const error = new Error(
    `agenteval crashed: ${message}. The module was reset and can be used again; ` +
      "please report the input that caused this.",
    { cause },
  );
  error.name = "AgentEvalError";
  error.code = "internalError";
  return error;
}

function recover(crash) {
  const panic = globalThis[PANIC_SLOT];
  delete globalThis[PANIC_SLOT];
  try {
    wasm.__wbg_reset_state();
  } catch {
    // A failed reset leaves the old instance; the next call reports the crash again.
  }
  return internalError(panic ?? crash.message, crash);
}

function translate(error) {
  if (isCrash(error)) return recover(error);
  if (isStale(error)) return internalError("the module was reset while this run was in progress", error);
  if (isFreed(error)) {
    return Object.assign(new Error("evaluation: already freed; keep it until you are done with it", { cause: error }), {
      name: "AgentEvalError",
      code: "invalidArgument",
    });
  }
  return error;
}

function guard(exported) {
  return function guarded(...args) {
    let result;
    try {
      result = exported.apply(this, args);
    } catch (error) {
      throw translate(error);
    }
    if (result instanceof Promise) {
      return result.catch((error) => {
        throw translate(error);
      });
    }
    return result;
  };
}

/** The methods of `Evaluation` (the class generated for the Rust type) get the guard. */
function guardEvaluation() {
  const evaluation = wasm.Evaluation.prototype;
  evaluation.render = guard(evaluation.render);
  const freeOnce = evaluation.free;
  /** Releases the evaluation's memory; freeing it again does nothing. */
  evaluation.free = function free() {
    try {
      freeOnce.call(this);
    } catch (error) {
      if (!isFreed(error)) throw translate(error);
    }
  };
  if (Symbol.dispose) evaluation[Symbol.dispose] = evaluation.free;
  const reportGetter = Object.getOwnPropertyDescriptor(evaluation, "report");
  Object.defineProperty(evaluation, "report", { ...reportGetter, get: guard(reportGetter.get) });
}

guardEvaluation();

/** The methods and getters of `RowsEvaluation` get the guard. */
function guardRows() {
  const rows = wasm.RowsEvaluation.prototype;
  rows.entry = guard(rows.entry);
  rows.input = guard(rows.input);
  rows.render = guard(rows.render);
  const freeOnce = rows.free;
  /** Releases the memory it holds; freeing it again does nothing. */
  rows.free = function free() {
    try {
      freeOnce.call(this);
    } catch (error) {
      if (!isFreed(error)) throw translate(error);
    }
  };
  if (Symbol.dispose) rows[Symbol.dispose] = rows.free;
  for (const name of ["summary", "dialect", "rows", "length"]) {
    const getter = Object.getOwnPropertyDescriptor(rows, name);
    Object.defineProperty(rows, name, { ...getter, get: guard(getter.get) });
  }
}

guardRows();

export const validate = guard(wasm.validate);
export const plan = guard(wasm.plan);
export const evaluators = guard(wasm.evaluators);
export const score = guard(wasm.score);
export const evaluate = guard(wasm.evaluate);
export const scoreDocument = guard(wasm.scoreDocument);
export const scoreItem = guard(wasm.scoreItem);
export const render = guard(wasm.render);
export const readReport = guard(wasm.readReport);
export const rescoreDataset = guard(wasm.rescoreDataset);
export const applyReviews = guard(wasm.applyReviews);
export const compare = guard(wasm.compare);
export const generateRubric = guard(wasm.generateRubric);
export const evaluateRows = guard(wasm.evaluateRows);
export const run = guard(wasm.run);
export const version = guard(wasm.version);
/** Crashes the module on purpose (tests of the crash guard): only in the test build, else undefined. */
export const __testPanic = wasm.__testPanic && guard(wasm.__testPanic);

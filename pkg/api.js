// The package's public functions: the wasm exports, each behind a guard that turns a crash of the
// module (a Rust panic surfaces as a WebAssembly trap) into an `Error` with code `internalError`
// and resets the module, so the next call works on a fresh instance. Shared by every entry point.
// A `score`, `evaluate` or `scoreItem` call that gives a `judge` or a judge template runs in the judge module
// (`agenteval_judge`, the same API with the LLM judges and `readReport`), loaded on first use;
// `readReport` and `evaluateRows` always run there, and so does a call the first module refuses
// with code `otherModule` (a Copilot Studio CSV, which only the judge module reads): `validate`
// and `render` then return a Promise. METEOR, BLEU and GLEU run in the judge module too (the first
// refuses a config naming them with `otherModule`), as do the graders `string_check` and
// `text_similarity`; before the first scoring call there whose arguments name `meteor_score` or
// a grader's `meteor` metric, METEOR's WordNet table (`modules.loadWordnet`) is fetched once and
// installed.

import * as wasm from "./agenteval_wasm.js";
import { modules } from "./modules.js";

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

function recover(crash, module) {
  withWordnet.delete(module);
  const panic = globalThis[PANIC_SLOT];
  delete globalThis[PANIC_SLOT];
  try {
    module.__wbg_reset_state();
  } catch {
    // A failed reset leaves the old instance; the next call reports the crash again.
  }
  return internalError(panic ?? crash.message, crash);
}

function translate(error, module) {
  if (isCrash(error)) return recover(error, module);
  if (isStale(error)) return internalError("the module was reset while this run was in progress", error);
  if (isFreed(error)) {
    return Object.assign(new Error("evaluation: already freed; keep it until you are done with it", { cause: error }), {
      name: "AgentEvalError",
      code: "invalidArgument",
    });
  }
  return error;
}

function guard(exported, module = wasm) {
  return function guarded(...args) {
    let result;
    try {
      result = exported.apply(this, args);
    } catch (error) {
      throw translate(error, module);
    }
    if (result instanceof Promise) {
      return result.catch((error) => {
        throw translate(error, module);
      });
    }
    return result;
  };
}

/** The methods of a module's `Evaluation` (the class generated for the Rust type) get the guard. */
function guardEvaluation(module) {
  const evaluation = module.Evaluation.prototype;
  evaluation.render = guard(evaluation.render, module);
  const freeOnce = evaluation.free;
  /** Releases the evaluation's memory; freeing it again does nothing. */
  evaluation.free = function free() {
    try {
      freeOnce.call(this);
    } catch (error) {
      if (!isFreed(error)) throw translate(error, module);
    }
  };
  if (Symbol.dispose) evaluation[Symbol.dispose] = evaluation.free;
  const reportGetter = Object.getOwnPropertyDescriptor(evaluation, "report");
  Object.defineProperty(evaluation, "report", { ...reportGetter, get: guard(reportGetter.get, module) });
}

guardEvaluation(wasm);

/** The methods and getters of the judge module's `RowsEvaluation` get the guard. */
function guardRows(module) {
  const rows = module.RowsEvaluation.prototype;
  rows.entry = guard(rows.entry, module);
  rows.input = guard(rows.input, module);
  rows.render = guard(rows.render, module);
  const freeOnce = rows.free;
  /** Releases the memory it holds; freeing it again does nothing. */
  rows.free = function free() {
    try {
      freeOnce.call(this);
    } catch (error) {
      if (!isFreed(error)) throw translate(error, module);
    }
  };
  if (Symbol.dispose) rows[Symbol.dispose] = rows.free;
  for (const name of ["summary", "dialect", "rows", "length"]) {
    const getter = Object.getOwnPropertyDescriptor(rows, name);
    Object.defineProperty(rows, name, { ...getter, get: guard(getter.get, module) });
  }
}

/** The modules holding METEOR's WordNet table (a reset instance loses it). */
const withWordnet = new WeakSet();
let wordnet;
const METEOR = "meteor_score";
// A `text_similarity` grader with `"evaluation_metric": "meteor"`, in JSON text (a quoted value,
// so a row's text mentioning meteors does not count; a false alarm only fetches the table early).
const METEOR_METRIC = '"meteor"';
const MARKERS = [METEOR, METEOR_METRIC].map((marker) => new TextEncoder().encode(marker));

function bytesMention(bytes, marker) {
  const first = marker[0];
  const last = bytes.length - marker.length;
  for (let at = bytes.indexOf(first); at !== -1 && at <= last; at = bytes.indexOf(first, at + 1)) {
    let offset = 1;
    while (offset < marker.length && bytes[at + offset] === marker[offset]) offset += 1;
    if (offset === marker.length) return true;
  }
  return false;
}

/**
 * Whether a call argument (a dataset, config, evaluator selection or options) names METEOR:
 * `builtin.meteor_score`, or a `text_similarity` grader's `meteor` metric.
 */
function mentionsMeteor(value, depth = 0) {
  if (typeof value === "string") return value.includes(METEOR) || value.includes(METEOR_METRIC);
  if (value === null || typeof value !== "object" || depth > 64) return false;
  const inBytes = (bytes) => MARKERS.some((marker) => bytesMention(bytes, marker));
  if (value instanceof ArrayBuffer) return inBytes(new Uint8Array(value));
  if (ArrayBuffer.isView(value)) return inBytes(new Uint8Array(value.buffer, value.byteOffset, value.byteLength));
  if (Array.isArray(value)) return value.some((entry) => mentionsMeteor(entry, depth + 1));
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return false;
  if (value.evaluation_metric === "meteor") return true;
  return Object.entries(value).some(([key, entry]) => key.includes(METEOR) || mentionsMeteor(entry, depth + 1));
}

/** Fetches the WordNet table once and installs it in `module`. */
async function readyForMeteor(module) {
  wordnet ??= modules.loadWordnet().catch((error) => {
    wordnet = undefined;
    throw Object.assign(new Error(`METEOR's WordNet table could not be loaded: ${error?.message ?? error}`, { cause: error }), {
      name: "AgentEvalError",
      code: "wordnetUnavailable",
    });
  });
  guard(module.installWordnet, module)(await wordnet);
  withWordnet.add(module);
}

/** A scoring function of `module` that installs the WordNet table first when the call needs it. */
function scoring(call, module) {
  return function scored(...args) {
    const runsMeteor = module.installWordnet !== undefined && modules.loadWordnet !== undefined;
    if (!runsMeteor || withWordnet.has(module) || !args.some((arg) => mentionsMeteor(arg))) {
      return call(...args);
    }
    return readyForMeteor(module).then(() => call(...args));
  };
}

/** The calls that score, and so may run METEOR. */
const SCORING = new Set(["score", "evaluate", "scoreItem", "scoreDocument", "evaluateRows"]);

let judgeModule;

/** The judge module, loaded and guarded once. */
function loadJudge() {
  judgeModule ??= modules.loadJudge().then((module) => {
    guardEvaluation(module);
    guardRows(module);
    return module;
  });
  return judgeModule;
}

/**
 * `name` of the first module, or of the judge module when its options (argument `at`, if any)
 * give a judge or a judge template, or when the first module answers that the call needs the
 * judge module.
 */
function routed(name, at) {
  const prepared = (module) => (SCORING.has(name) ? scoring(guard(module[name], module), module) : guard(module[name], module));
  const plain = prepared(wasm);
  const inJudge = (args) => loadJudge().then((module) => prepared(module)(...args));
  const elsewhere = (args, error) => {
    if (error?.code === "otherModule") return inJudge(args);
    throw error;
  };
  return function call(...args) {
    const options = at === undefined ? args[1] : args[at];
    if (needsJudgeModule(options) || namesSecondModule(args[0], options)) return inJudge(args);
    let result;
    try {
      result = plain(...args);
    } catch (error) {
      return elsewhere(args, error);
    }
    return result instanceof Promise ? result.catch((error) => elsewhere(args, error)) : result;
  };
}

/**
 * Whether call options need the judge module: they give a judge, or a custom evaluator that is a
 * judge template (an object, not a function).
 */
function needsJudgeModule(options) {
  if (options?.judge !== undefined && options?.judge !== null) return true;
  const custom = options?.custom;
  if (custom === null || typeof custom !== "object") return false;
  return Object.values(custom).some((entry) => entry !== null && typeof entry === "object");
}

/**
 * The Foundry evaluators and criterion types only the judge module has: NLTK's (BLEU, GLEU,
 * METEOR), the graders built on them, and the model graders.
 */
const SECOND_MODULE_NAMES = ["bleu_score", "gleu_score", "meteor_score", "string_check", "text_similarity", "score_model", "label_model"];

/** Whether Foundry testing criteria name one of them (as `evaluator_name` or `type`). */
function criteriaNeedSecondModule(criteria) {
  if (!Array.isArray(criteria)) return false;
  return criteria.some((criterion) =>
    SECOND_MODULE_NAMES.some((name) => String(criterion?.evaluator_name ?? "").includes(name) || criterion?.type === name),
  );
}

/** The first line of a dataset given as text or bytes (where a Foundry JSONL keeps its config). */
function firstLine(value) {
  if (typeof value === "string") {
    const end = value.indexOf("\n");
    return end === -1 ? value : value.slice(0, end);
  }
  const bytes = value instanceof ArrayBuffer ? new Uint8Array(value) : ArrayBuffer.isView(value) ? new Uint8Array(value.buffer, value.byteOffset, value.byteLength) : undefined;
  if (bytes === undefined) return undefined;
  const end = bytes.indexOf(0x0a);
  return new TextDecoder().decode(end === -1 ? bytes : bytes.subarray(0, end));
}

/**
 * Whether a call's dataset or options name an evaluator only the judge module has: a config in
 * the options, a JSONL dataset's config line, or Foundry rows given as values whose first is the
 * config.
 */
function namesSecondModule(dataset, options) {
  const config = options?.config;
  const given = typeof config === "string" ? parsed(config) : config;
  if (criteriaNeedSecondModule(given?.testing_criteria)) return true;
  const line = firstLine(dataset);
  if (line !== undefined) {
    return SECOND_MODULE_NAMES.some((name) => line.includes(name)) && criteriaNeedSecondModule(parsed(line)?.testing_criteria);
  }
  return criteriaNeedSecondModule((Array.isArray(dataset) ? dataset[0] : dataset)?.testing_criteria);
}

function parsed(text) {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** `name` of the judge module, the only one that has it. */
function inJudgeModule(name) {
  return function call(...args) {
    return loadJudge().then((module) => scoring(guard(module[name], module), module)(...args));
  };
}

export const validate = routed("validate");
export const plan = routed("plan");
export const evaluators = guard(wasm.evaluators);
export const score = routed("score", 1);
export const evaluate = routed("evaluate", 1);
export const scoreDocument = scoring(guard(wasm.scoreDocument), wasm);
export const scoreItem = routed("scoreItem", 2);
export const render = routed("render");
export const readReport = inJudgeModule("readReport");
export const evaluateRows = inJudgeModule("evaluateRows");
export const version = guard(wasm.version);
/** Crashes the module on purpose (tests of the crash guard): only in the test build, else undefined. */
export const __testPanic = wasm.__testPanic && guard(wasm.__testPanic);

// The page's engine: a module Web Worker that runs the agenteval package (`pkg/`) off the main
// thread, so the page never freezes. It keeps the open dataset and the last run in the module (a
// `RowsEvaluation` from the lean `evaluateRows` path when no judge is configured, else an
// `Evaluation`), streams rows to the page as they are scored, and answers the item view, text
// search and exports (byte for byte what the CLI writes) from what it keeps. It also keeps the
// reviewer's reviews of the entries shown (stored with the run, read from a scored file) and
// writes them into every export.
//
// It speaks the package's one worker protocol (`serve` from `agenteval/protocol`; the page calls
// it through `connectWorker(worker).call`): a run streams `rows` replies, each either the lean
// path's typed columns (`Rows`, as `evaluateRows` hands them out) or an array of compact rows (a
// judged run), and `progress`; aborting a request cancels the run.
// The first request is `boot` with where the WebAssembly module is, for the package's loader
// (`agenteval/load`): its URL (served page) or its bytes (the offline file, which has no URL to
// fetch it from); the served page also gives the URL of METEOR's WordNet table (the offline file
// has none: METEOR's results are errors there).

import { load } from "../pkg/load.js";
import { misuse, serve } from "../pkg/protocol.js";
import { compactRow, entryTags, inputOf, rowsFromColumns, searchText } from "./lib/entries.js";
import { lineColumn, linesAround, pointerOffset } from "./lib/locate.js";
import { openStore } from "./lib/store.js";

let api;
let opened;
let evaluation;
let outcomes = [];
let lastJudge;
/** The reviews of the entries shown, by entry (`index:turn`), and the stored run they belong to. */
let reviews = new Map();
let reviewRun;

const entryKey = (index, turn) => `${index}:${turn ?? ""}`;

async function boot({ wasm, wordnet }) {
  api = await load({ module: wasm, wordnet });
  return { version: api.version(), evaluators: api.evaluators() };
}

/**
 * Opens a dataset and, when it already carries scores, reads the report they make. The core
 * decides: a dataset its plan says is `stored` (a scored M365 document), or a file that is no
 * dataset at all (runevals results are only a report), is read with `readReport`; an unscored
 * dataset is not read twice. Runevals results are scored again as the document the core's
 * `rescoreDataset` makes of them. Validation is `validate()`: the run itself reports a dataset
 * it cannot read, with the same problems.
 */
async function open({ bytes, name, config }) {
  evaluation?.free();
  evaluation = undefined;
  outcomes = [];
  const data = new Uint8Array(bytes);
  opened = { data, name, config, parsed: undefined, plan: planOf(data, config) };
  let stored;
  if (!opened.plan || opened.plan.stored) {
    try {
      stored = await api.readReport(data);
    } catch {
      stored = undefined;
    }
  }
  reviews = new Map();
  reviewRun = undefined;
  if (stored) {
    outcomes = stored.items;
    stored.items.forEach((item, position) => {
      if (item.review) reviews.set(entryKey(item.index, item.turn), { index: item.index, turn: item.turn, review: item.review, position });
    });
    const rescore = api.rescoreDataset(data, name);
    opened.rescore = rescore === undefined ? undefined : new TextEncoder().encode(rescore);
  }
  return { stored: stored && { ...stored, items: rowsOf(stored.items) }, formats: formats() };
}

/**
 * The output formats of the open dataset's run, the dataset's own first, as the core's plan gives
 * them (of the runevals results' rescored document when that is what is scored); none when the
 * dataset cannot be read.
 */
function formats() {
  const plan = opened.rescore ? planOf(opened.rescore) : opened.plan;
  return plan?.formats ?? [];
}

/** The open dataset's problems, errors first (the package's `validate`). */
function validate() {
  if (!opened) throw misuse("no dataset is open");
  return api.validate(opened.data, opened.config ? { config: opened.config } : undefined);
}

/** The core's plan of the dataset (which line is its config, among others); none when unreadable. */
function planOf(data, config) {
  try {
    return api.plan(data, config ? { config } : undefined);
  } catch {
    return undefined;
  }
}

/** The dataset's text, decoded once. */
function textOf() {
  opened.text ??= new TextDecoder().decode(opened.data);
  return opened.text;
}

/** The parsed dataset, for the item view and search (parsed once, on first need). */
function parsed() {
  if (!opened) throw misuse("no dataset is open");
  if (opened.parsed === undefined) opened.parsed = parsedAs(textOf(), opened.plan);
  return opened.parsed;
}

/**
 * `text` as the item view reads it: the layout and the config line are the core's (`plan`), so a
 * one-row JSON Lines file is a row and a first line holding only `testing_criteria` is no row.
 */
function parsedAs(text, plan) {
  if (plan?.layout !== "lines") {
    try {
      return { value: JSON.parse(text) };
    } catch {
      // Not one JSON value: read below as lines when they are JSON objects.
    }
  }
  // A CSV test set's rows are not shown here (its lines are not its rows).
  const configLine = plan?.config_line ?? null;
  const lines = text
    .split(/\r?\n/)
    .filter((line, index) => line.trim() !== "" && index + 1 !== configLine);
  return { rows: lines[0]?.trimStart().startsWith("{") ? lines.map(safeParse) : [] };
}

function safeParse(line) {
  try {
    return JSON.parse(line);
  } catch {
    return { unreadable: line };
  }
}

/** The rows of `outcomes` with their entries' tags. */
function rowsOf(list) {
  const tags = tagsOf(() => list);
  return list.map((outcome, position) => ({ ...compactRow(outcome), tags: tags?.[position] ?? [] }));
}

/**
 * Each entry's tags (`entries()` gives the outcomes or rows), or null when the dataset has none
 * (then it is never parsed).
 */
function tagsOf(entries) {
  if (!textOf().includes('"tags"')) return null;
  const source = parsed();
  return entries().map((outcome) => entryTags(source, outcome));
}

/**
 * Scores the open dataset, streaming compact rows to the page as outcomes arrive. With
 * `persist`, the run (the dataset's bytes, the judge settings without any key) and its outcomes
 * are written to IndexedDB as they arrive, in batches, so a reload can show and resume it; the
 * writes never hold up the run. Resolves to the report without its items, and the entries' tags.
 */
async function run({ judge, runId, persist }, call) {
  const { signal } = call;
  if (!opened) throw misuse("no dataset is open");
  evaluation?.free();
  evaluation = undefined;
  outcomes = [];
  lastJudge = judge;
  if (opened.rescore) {
    opened = { data: opened.rescore, name: opened.name, config: undefined, parsed: undefined, plan: planOf(opened.rescore) };
  }
  const store = persist ? await openStore().catch(() => undefined) : undefined;
  reviewRun = store ? runId : undefined;
  reviews = new Map(((await store?.getReviews(runId).catch(() => [])) ?? []).map((entry) => [entryKey(entry.index, entry.turn), entry]));
  const record = store && {
    id: runId,
    name: persist.name,
    judge: persist.judge ?? null,
    startedAt: persist.startedAt,
    status: "running",
    stores: judge ? "outcomes" : "rows",
    dataset: opened.data,
    config: opened.config ?? null,
  };
  let writing = store ? store.clearOutcomes(runId).then(() => store.putRun(record)).catch(() => {}) : Promise.resolve();
  let batch = [];
  let stored = [];
  let timer = 0;
  let flushed = performance.now();
  const flush = () => {
    clearTimeout(timer);
    timer = 0;
    if (batch.length > 0) call.rows(batch);
    if (store && stored.length > 0) {
      const outcomesToStore = stored;
      writing = writing.then(() => store.putOutcomes(runId, outcomesToStore)).catch(() => {});
    }
    batch = [];
    stored = [];
    flushed = performance.now();
  };
  const options = {
    signal,
    onResult: (outcome) => {
      outcomes.push(outcome);
      batch.push(compactRow(outcome));
      stored.push(outcome);
      if (performance.now() - flushed > 50) flush();
      else if (!timer) timer = setTimeout(flush, 50);
    },
    onProgress: call.progress,
  };
  if (opened.config) options.config = opened.config;
  if (judge) options.judge = judge;
  let status = "cancelled";
  let report;
  try {
    if (judge) {
      evaluation = await api.evaluate(opened.data, options);
      ({ items: outcomes, ...report } = evaluation.report);
    } else {
      // Without a judge, the lean path: the outcomes stay in the module, rows come as columns.
      evaluation = await api.evaluateRows(opened.data, {
        signal,
        config: opened.config,
        onProgress: options.onProgress,
        onRows: (columns) => {
          call.rows(columns);
          if (store) writing = writing.then(() => store.putColumns(runId, columns)).catch(() => {});
        },
      });
      report = { dialect: evaluation.dialect, summary: evaluation.summary };
    }
    status = report.judge?.not_reached?.length ? "cancelled" : "done";
  } finally {
    flush();
    if (store) {
      const summary = report?.summary;
      const { dataset, ...saved } = record;
      writing.then(() =>
        store.putRun({ ...saved, status, finishedAt: new Date().toISOString(), summary: summary && { pass: summary.pass, fail: summary.fail } }),
      ).catch(() => {});
    }
  }
  return { report, tags: tagsOf(() => (evaluation.rows ? rowsFromColumns(evaluation.rows) : outcomes)) };
}

/** Opens stored run `runId`'s dataset and returns its stored rows, for the page to show or resume. */
async function restore(runId) {
  const store = await openStore();
  const record = await store.getRun(runId);
  if (!record) throw misuse(`run ${runId}: not on this device`);
  await open({ bytes: record.dataset, name: record.name, config: record.config ?? undefined });
  const validation = await validate();
  const saved = await store.getOutcomes(runId);
  outcomes = record.stores === "rows" ? [] : saved;
  reviewRun = runId;
  reviews = new Map((await store.getReviews(runId).catch(() => [])).map((entry) => [entryKey(entry.index, entry.turn), entry]));
  const { dataset, ...run } = record;
  lastJudge = record.judge ? { ...record.judge } : undefined;
  delete lastJudge?.hasKey;
  return { validation, rows: rowsOf(saved), run, formats: formats() };
}

/** The rows of stored run `runId` (to compare with). */
async function storedRows(runId) {
  const store = await openStore();
  const stored = await store.getOutcomes(runId);
  return stored.map(compactRow);
}

/** The rows of a scored file: a run report JSON, a scored document or runevals results. */
async function readStored(bytes) {
  const data = new Uint8Array(bytes);
  try {
    const value = JSON.parse(new TextDecoder().decode(data));
    if (value && value.tool && typeof value.dialect === "string" && Array.isArray(value.items) && value.summary) return value.items.map(compactRow);
  } catch {
    // Not a run report; the package reads the other shapes.
  }
  return (await api.readReport(data)).items.map(compactRow);
}

/** The spot a diagnostic's location names, with the lines around it. */
function excerpt(location) {
  if (!opened) return null;
  const text = textOf();
  let spot;
  if (location.kind === "lineColumn") spot = { line: location.line, column: location.column };
  else if (location.kind === "pointer") {
    const jsonLines = location.line && !text.trimStart().startsWith("{") && !text.trimStart().startsWith("[");
    spot = jsonLines ? { line: location.line, column: 1 } : lineColumn(text, pointerOffset(text, location.pointer));
  } else return null;
  const lines = linesAround(text, spot.line);
  const here = lines.find((entry) => entry.number === spot.line);
  if (here && spot.column > 200) {
    const full = nthLine(text, spot.line);
    const from = spot.column - 120;
    here.text = full.slice(from, from + 300);
    spot = { ...spot, shownColumn: 121 };
  }
  return { ...spot, column: spot.shownColumn ?? spot.column, line: spot.line, lines, actualColumn: spot.column };
}

function nthLine(text, line) {
  let start = 0;
  for (let number = 1; number < line; number += 1) {
    const next = text.indexOf("\n", start);
    if (next === -1) return "";
    start = next + 1;
  }
  const end = text.indexOf("\n", start);
  return text.slice(start, end === -1 ? text.length : end);
}

/** One entry in full: its input as the dataset writes it, and its outcome. */
async function entry(position) {
  const outcome = await outcomeAt(position);
  if (!outcome) throw misuse(`entry ${position}: no such entry`);
  // A CSV test set's row comes from the run kept in the module; JSON datasets are read here.
  const review = reviews.get(entryKey(outcome.index, outcome.turn))?.review;
  const shown = review ? { ...outcome, review } : { ...outcome };
  if (!review) delete shown.review;
  const input = evaluation?.input?.(position) ?? inputOf(parsed(), outcome);
  return { outcome: shown, input, reviewCounts: await reviewCounts().catch(() => undefined) };
}

/** The reviews as the package takes them: `[{index, turn, review}]`. */
function reviewList() {
  return [...reviews.values()].map(({ index, turn, review }) => ({ index, turn, review }));
}

/**
 * The run's review counts (`{entries, needs_review, reviewed, overridden}`), counted by the core
 * over the reviewed entries; undefined without reviews.
 */
async function reviewCounts() {
  if (reviews.size === 0) return undefined;
  const reviewed = [...reviews.values()].filter((entry) => entry.position !== undefined);
  const items = [];
  for (const { position } of reviewed) {
    const { review: _, ...bare } = (await outcomeAt(position)) ?? {};
    items.push(bare);
  }
  const list = reviewed.map(({ index, turn, review }) => ({ index, turn, review }));
  return api.applyReviews({ dialect: "m365", items }, list).summary.review;
}

/**
 * Sets the review of entry `position` (`null` removes it), checked by the core against the entry's
 * results, and keeps it with the stored run; resolves to the entry as `entry` gives it.
 */
async function review(position, given) {
  const outcome = await outcomeAt(position);
  if (!outcome) throw misuse(`entry ${position}: no such entry`);
  const { review: _, ...bare } = outcome;
  const checked = api.applyReviews({ dialect: "m365", items: [bare] }, [{ index: outcome.index, turn: outcome.turn, review: given }]);
  const kept = checked.items[0].review;
  const key = entryKey(outcome.index, outcome.turn);
  if (kept) reviews.set(key, { index: outcome.index, turn: outcome.turn, review: kept, position });
  else reviews.delete(key);
  if (reviewRun) {
    const store = await openStore();
    await store.putReviews(reviewRun, [...reviews.values()]);
  }
  return entry(position);
}

/**
 * Outcome `position`: from the outcomes kept as objects (a judged run, a stored report, a restored
 * judged run), else from the run kept in the module (the lean path keeps them there).
 */
async function outcomeAt(position) {
  if (outcomes.length > 0) return outcomes[position];
  await ensureEvaluation();
  if (evaluation.entry) return position < evaluation.length ? evaluation.entry(position) : undefined;
  return outcomes[position];
}

/** The run kept in the module: a restored run (shown from storage) is scored again first, its judge answers from the cache. */
async function ensureEvaluation() {
  if (evaluation) return;
  if (!opened) throw misuse("open a dataset first");
  const again = {};
  if (opened.config) again.config = opened.config;
  if (lastJudge) {
    again.judge = lastJudge;
    evaluation = await api.evaluate(opened.data, again);
    outcomes = evaluation.report.items;
  } else {
    evaluation = await api.evaluateRows(opened.data, again);
  }
}

/** Positions of the entries whose input or reasons contain `text` (case-insensitive). */
async function search(text) {
  const needle = text.toLowerCase();
  const texts = await searchTexts();
  const found = [];
  texts.forEach((entryText, position) => {
    if (entryText.includes(needle)) found.push(position);
  });
  return Uint32Array.from(found);
}

/** Every entry's search text, made on the first search of a run. */
async function searchTexts() {
  if (opened.searchTexts) return opened.searchTexts;
  if (outcomes.length === 0) await ensureEvaluation();
  const source = parsed();
  const count = outcomes.length > 0 ? outcomes.length : evaluation.length;
  const texts = new Array(count);
  for (let position = 0; position < count; position += 1) texts[position] = searchText(source, await outcomeAt(position));
  opened.searchTexts = texts;
  return texts;
}

/** The run in `format`, as the CLI writes it; a restored run is scored again first (judge answers from the cache). */
async function exported(format, options) {
  if (!opened) throw misuse("export: open a dataset first");
  await ensureEvaluation();
  return evaluation.render(format, reviews.size > 0 ? { ...options, reviews: reviewList() } : options);
}

/** One judged call with a tiny item, to check the endpoint, model and key. */
async function testJudge(judge) {
  const outcome = await api.scoreItem(
    { prompt: "What is the capital of France?", response: "Paris is the capital of France." },
    { Relevance: {} },
    { judge: { ...judge, retries: 0, cache: false } },
  );
  return outcome.results[0];
}

let booted;

/** A page method, run once the package has booted. */
const afterBoot =
  (method) =>
  async (args) => {
    await booted;
    return method(...args);
  };

serve({
  boot: (args) => {
    booted = boot(...args);
    return booted;
  },
  open: afterBoot(open),
  run: async ([options], call) => {
    await booted;
    return run(options ?? {}, call);
  },
  entry: afterBoot(entry),
  review: afterBoot(review),
  search: afterBoot(search),
  export: afterBoot(exported),
  testJudge: afterBoot(testJudge),
  validate: afterBoot(validate),
  restore: afterBoot(restore),
  storedRows: afterBoot(storedRows),
  readStored: afterBoot(readStored),
  excerpt: afterBoot(excerpt),
  version: afterBoot(() => api.version()),
});

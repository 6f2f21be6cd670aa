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
import { compactRow, conversationOf, entryLabels, entryTags, inputOf, rowsFromColumns, searchText } from "./lib/entries.js";
import { reachability } from "./lib/judge-check.js";
import { lineColumn, linesAround, pointerOffset } from "./lib/locate.js";
import { openStore } from "./lib/store.js";
import { runAgent, testAgent } from "./lib/agent-run.js";

let api;
let opened;
let evaluation;
let outcomes = [];
let lastJudge;
/** The reviews of the entries shown, by entry (`index:turn`), and the stored run they belong to. */
let reviews = new Map();
let reviewRun;

const entryKey = (index, turn) => `${index}:${turn ?? ""}`;

/** The run in progress: `{id, stop, finished}`; at most one at a time. */
let active = null;

/**
 * Stops the run in progress, if any, and waits until it has ended (its last rows sent, its
 * record written), so that nothing of it reaches the next dataset or run.
 */
async function stopRun() {
  const running = active;
  if (!running) return;
  running.stop();
  await running.finished;
}

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
  await stopRun();
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
    opened.storedData = data;
    const rescore = api.rescoreDataset(data, name);
    opened.rescore = rescore === undefined ? undefined : new TextEncoder().encode(rescore);
  }
  return { stored: stored && { ...stored, items: rowsOf(stored.items) }, ...described() };
}

/**
 * Gives the open dataset `config` (a Foundry evaluation config's text, or none), as the page's
 * config control does when Score is pressed after it changed: the plan is made again with it.
 */
async function setConfig(config) {
  if (!opened) throw misuse("no dataset is open");
  await stopRun();
  evaluation?.free();
  evaluation = undefined;
  outcomes = [];
  opened = { data: opened.data, name: opened.name, config: config ?? undefined, parsed: undefined, plan: planOf(opened.data, config ?? undefined) };
  return described();
}

/** What the page shows of the open dataset before a run: its formats, dialect, entries and judge calls. */
function described() {
  const plan = opened.rescore ? planOf(opened.rescore) : opened.plan;
  return {
    formats: formats(),
    dialect: plan?.dialect ?? null,
    entries: plan?.entries ?? null,
    judgeCalls: plan?.needs.judge_calls ?? 0,
  };
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

/** Result error codes that are problems of the dataset (its evaluators or an item's inputs), listed under Problems. */
const DATASET_ERRORS = new Set(["evaluatorLoadError", "evaluatorConfigurationError"]);
/** At most this many entries are read from a lean run to find its problems. */
const PROBLEM_SCAN = 2000;

/**
 * Every problem the run knows: the dataset's (`validate`), then those its results name — an
 * unknown evaluator (with the core's "did you mean"), bad options, an item missing an input —
 * each once per evaluator and message, located at the evaluator's entry in the document
 * (`/default_evaluators/NAME`, an item's `evaluators`) or at the first entry it happened on.
 */
async function problems() {
  const { diagnostics } = validate();
  if (active) return diagnostics;
  const found = new Map();
  for (const [position, outcome] of await erroredOutcomes()) {
    for (const result of outcome.results) {
      const code = result.error?.code;
      if (!DATASET_ERRORS.has(code)) continue;
      const key = `${result.evaluator}\u0000${result.error.message}`;
      const seen = found.get(key);
      if (seen) seen.count += 1;
      else found.set(key, { position, outcome, result, count: 1 });
    }
  }
  const fromResults = [...found.values()].map(({ outcome, result, count }) => ({
    severity: "error",
    source: null,
    location: evaluatorLocation(outcome, result.evaluator),
    message: `${result.evaluator} (${result.error.code}): ${result.error.message} — ${count === 1 ? `entry ${entryId(outcome)}` : `${count} entries, the first ${entryId(outcome)}`}`,
  }));
  return [...fromResults, ...diagnostics];
}

/** `[position, outcome]` of the entries of the last run with an errored result (a lean run: the first `PROBLEM_SCAN`). */
async function erroredOutcomes() {
  if (outcomes.length > 0) return outcomes.map((outcome, position) => [position, outcome]).filter(([, outcome]) => outcome.results.some((result) => result.error));
  if (!evaluation?.rows) return [];
  const { result, evaluators } = evaluation.rows;
  const width = evaluators.length;
  const found = [];
  for (let row = 0; width > 0 && row < result.length / width && found.length < PROBLEM_SCAN; row += 1) {
    for (let column = 0; column < width; column += 1) {
      if (result[row * width + column] === 3) {
        found.push([row, await evaluation.entry(row)]);
        break;
      }
    }
  }
  return found;
}

/** `item-3` or `item-3.turn-1`, as the exports name entries. */
function entryId(outcome) {
  return outcome.turn === null || outcome.turn === undefined ? `item-${outcome.index}` : `item-${outcome.index}.turn-${outcome.turn}`;
}

/** Where `evaluator` is named for `outcome`'s entry in an M365 document, else the entry itself. */
function evaluatorLocation(outcome, evaluator) {
  const value = opened.plan?.dialect === "m365" ? parsed().value : undefined;
  const escaped = evaluator.replaceAll("~", "~0").replaceAll("/", "~1");
  const item = Array.isArray(value?.items) ? value.items[outcome.index] : undefined;
  const turned = outcome.turn !== null && outcome.turn !== undefined;
  if (turned && item?.turns?.[outcome.turn]?.evaluators?.[evaluator] !== undefined) {
    return { kind: "pointer", pointer: `/items/${outcome.index}/turns/${outcome.turn}/evaluators/${escaped}`, line: null };
  }
  if (item?.evaluators?.[evaluator] !== undefined) return { kind: "pointer", pointer: `/items/${outcome.index}/evaluators/${escaped}`, line: null };
  if (value?.default_evaluators?.[evaluator] !== undefined) return { kind: "pointer", pointer: `/default_evaluators/${escaped}`, line: null };
  if (item !== undefined) return { kind: "pointer", pointer: turned ? `/items/${outcome.index}/turns/${outcome.turn}` : `/items/${outcome.index}`, line: null };
  return { kind: "whole" };
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
  if (!opened) throw misuse("no dataset is open");
  await stopRun();
  const stopper = new AbortController();
  const signal = AbortSignal.any([call.signal, stopper.signal]);
  let ended;
  const mine = { id: runId, stop: () => stopper.abort(new DOMException("a newer run started", "AbortError")), finished: new Promise((resolve) => (ended = resolve)) };
  active = mine;
  try {
    return await runOnce({ judge, runId, persist }, call, signal, mine);
  } finally {
    if (active === mine) active = null;
    ended();
  }
}

/**
 * One run (`run`'s body): every message it sends carries `runId`, and it stops touching the
 * module's state once `mine` is no longer the active run.
 */
async function runOnce({ judge, runId, persist }, call, signal, mine) {
  const current = () => active === mine;
  opened.paused = false;
  evaluation?.free();
  evaluation = undefined;
  outcomes = [];
  lastJudge = judge;
  if (opened.rescore) {
    opened = { data: opened.rescore, name: opened.name, config: undefined, parsed: undefined, plan: planOf(opened.rescore), storedData: opened.storedData };
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
  let failures = 0;
  let timer = 0;
  let flushed = performance.now();
  const flush = () => {
    clearTimeout(timer);
    timer = 0;
    if (batch.length > 0 && current()) call.rows({ runId, rows: batch });
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
    onResult: (outcome, judgeExchanges) => {
      if (!current()) return;
      keepExchanges(outcome, judgeExchanges);
      const failed = outcome.results.filter((result) => result.error?.code?.startsWith("judge"));
      if (failed.length > 0) {
        failures += failed.length;
        const { code, message } = failed[failed.length - 1].error;
        call.progress({ runId, judgeFailures: { count: failures, code, message } });
      }
      outcomes.push(outcome);
      batch.push(compactRow(outcome));
      stored.push(outcome);
      if (performance.now() - flushed > 50) flush();
      else if (!timer) timer = setTimeout(flush, 50);
    },
    onProgress: (progress) => {
      if (current()) call.progress({ ...progress, runId });
    },
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
          if (!current()) return;
          call.rows({ runId, columns });
          if (store) writing = writing.then(() => store.putColumns(runId, columns)).catch(() => {});
        },
      });
      report = { dialect: evaluation.dialect, summary: evaluation.summary };
    }
    status = report.judge?.cancelled ? "cancelled" : "done";
  } catch (error) {
    if (!signal.aborted) status = "failed";
    throw error;
  } finally {
    flush();
    if (store) {
      const summary = report?.summary;
      const { dataset, ...saved } = record;
      const cut = status === "cancelled" && judge ? cancelledCounts(report, outcomes) : undefined;
      // A run that could not start (an unreadable dataset) is not kept: a reload would show it.
      writing = writing.then(() =>
        status === "failed"
          ? store.deleteRun(runId)
          : store.putRun({ ...saved, status, finishedAt: new Date().toISOString(), summary: summary && { pass: summary.pass, fail: summary.fail }, cut }),
      );
      // "Done" only once the run is stored: the page is answered after the last write.
      await writing.catch(() => {});
    }
  }
  if (!current()) return { runId, stale: true };
  return {
    runId,
    report,
    stored: Boolean(store),
    cut: status === "cancelled" ? cancelledCounts(report, outcomes) : undefined,
    tags: tagsOf(() => (evaluation.rows ? rowsFromColumns(evaluation.rows) : outcomes)),
  };
}

/**
 * Keeps a judged entry's judge calls (`onResult`'s second argument, one element per result) on
 * its results as `judge_exchanges`, for the item view's "Show request" and the stored run; the
 * package's reports and exports never carry them.
 */
function keepExchanges(outcome, judgeExchanges) {
  judgeExchanges?.forEach((calls, at) => {
    if (calls && outcome.results[at]) outcome.results[at].judge_exchanges = calls;
  });
}

/**
 * What a cancelled judged run scored: entries with every verdict given, and the judge verdicts
 * skipped because the run stopped first (the skipped results of the entries the core lists as
 * not reached).
 */
function cancelledCounts(report, list) {
  const notReached = new Set((report.judge?.not_reached ?? []).map((entry) => `${entry.index}/${entry.turn ?? ""}`));
  let cancelled = 0;
  for (const outcome of list) {
    if (!notReached.has(`${outcome.index}/${outcome.turn ?? ""}`)) continue;
    cancelled += outcome.results.filter((result) => result.result === "skipped").length;
  }
  return { entries: report.summary.items, fullyScored: report.summary.items - notReached.size, cancelledVerdicts: cancelled };
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
  // A judged run cut short is never scored again behind the user's back (for an item view, a
  // search, an export): only Resume does that.
  opened.paused = Boolean(lastJudge) && record.status !== "done";
  // The judge calls a resumed run would send: the plan's, less the verdicts the judge gave
  // before (those come from the cache). Answers given for entries not yet recorded are in the
  // cache too, so this is at most what it sends.
  const answered = record.stores === "rows" ? 0 : saved.reduce((sum, outcome) => sum + outcome.results.filter((result) => result.usage !== undefined).length, 0);
  const judgeCallsLeft = Math.max(0, (opened.plan?.needs.judge_calls ?? 0) - answered);
  return { validation, rows: rowsOf(saved), run, formats: formats(), entries: opened.plan?.entries ?? validation.items, judgeCallsLeft };
}

/**
 * Compares the open dataset's run (the candidate) with `baseline` through the package's
 * `compare()`: `{run: id}` a run stored on this device, `{bytes, name}` a scored file, or
 * `{stored: true}` the scores the open file carried before it was scored again. Both sides are
 * given as the scored files the CLI reads (the dataset's own format), so that items pair by id or
 * prompt and an export is byte for byte `agenteval compare BASELINE CANDIDATE --format …` of those
 * files. Resolves to `{comparison, baselineName, candidateName}`, or with `format` to the export's text.
 */
async function compareRun(baseline, { format } = {}) {
  if (!opened) throw misuse("compare: open a dataset first");
  const before = await baselineFile(baseline);
  const candidateName = opened.name;
  const options = { baselineName: before.name, candidateName };
  if (format) return api.compare(before.bytes, await scoredFile(), { ...options, format });
  return { comparison: api.compare(before.bytes, await scoredFile(), options), ...options };
}

/** The baseline's scored file and the name it is shown by (see `compareRun`). */
async function baselineFile(baseline) {
  if (baseline?.bytes) return { bytes: new Uint8Array(baseline.bytes), name: baseline.name };
  if (baseline?.stored) {
    if (!opened.storedData) throw misuse("compare: the open file carried no scores");
    return { bytes: opened.storedData, name: opened.name };
  }
  const store = await openStore();
  const record = await store.getRun(baseline?.run);
  if (!record) throw misuse(`run ${baseline?.run}: not on this device`);
  const plan = planOf(record.dataset, record.config ?? undefined);
  if (!plan) throw misuse(`run ${record.name}: its dataset can no longer be read`);
  const config = record.config ?? undefined;
  if (record.stores === "rows") {
    if (record.status !== "done") throw misuse(`run ${record.name} was cut short: only a finished run without a judge can be a baseline`);
    // A run without a judge keeps only its verdicts' columns: its deterministic scores are made
    // again from its dataset, in full, for the scored file.
    const again = await api.evaluateRows(record.dataset, { config });
    try {
      return { bytes: again.render(plan.formats[0]), name: record.name };
    } finally {
      again.free();
    }
  }
  const items = await store.getOutcomes(record.id);
  const text = api.render({ dialect: plan.dialect, items }, plan.formats[0], { dataset: record.dataset, config });
  return { bytes: text, name: record.name };
}

/**
 * The open dataset's results as a scored file in its own format (a scored M365 document, Foundry
 * rows, a Copilot Studio export): the file as opened when it carried scores and was not scored
 * again, else the run's export (a restored run is scored again first, as for an export).
 */
async function scoredFile() {
  if (!evaluation && opened.storedData && outcomes.length > 0) return opened.storedData;
  await ensureEvaluation();
  return evaluation.render(formats()[0]);
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

/**
 * One entry in full: its outcome, its input as the dataset writes it, a thread turn's earlier
 * turns (`conversation`) and the run's review counts.
 */
async function entry(position) {
  const outcome = await outcomeAt(position);
  if (!outcome) throw misuse(`entry ${position}: no such entry`);
  // A CSV test set's row comes from the run kept in the module; JSON datasets are read here.
  const review = reviews.get(entryKey(outcome.index, outcome.turn))?.review;
  const shown = review ? { ...outcome, review } : { ...outcome };
  if (!review) delete shown.review;
  const conversation = outcome.turn === null || outcome.turn === undefined ? [] : conversationOf(parsed(), outcome);
  return { outcome: shown, input: inputAt(position, outcome), conversation, reviewCounts: await reviewCounts().catch(() => undefined) };
}

/**
 * The input of entry `position` (whose outcome is `outcome`): a CSV test set's row from the run
 * kept in the module (judged or not), else the dataset's JSON.
 */
function inputAt(position, outcome) {
  return evaluation?.input?.(position) ?? inputOf(parsed(), outcome);
}

/**
 * What the table shows of `entries` (`[{position, index, turn}]`): `{name, prompt, response}` each
 * (from the dataset's JSON, or a CSV row from the run kept in the module); nothing while a run is
 * going, so reading the dataset never slows it, and nothing is scored to find them.
 */
function labels(entries) {
  if (!opened || active) return [];
  return entries.map(({ position, index, turn }) => {
    const input = evaluation?.input?.(position) ?? inputOf(parsed(), { index, turn });
    return input ? entryLabels(input) : null;
  });
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
 * The reviews the results view shows: the run's counts (the core's, as `reviewCounts`) and a
 * mark per reviewed entry, `{position, needsReview, overrides}`.
 */
async function reviewState() {
  const counts = await reviewCounts().catch(() => undefined);
  const marks = [...reviews.values()]
    .filter((entry) => entry.position !== undefined)
    .map(({ position, review }) => ({ position, needsReview: Boolean(review.needs_review), overrides: review.overrides?.length ?? 0 }));
  return { counts, marks };
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
  // Never a second judged run beside the one in progress, nor one the user has not asked for:
  // its calls would cost money.
  if (active && lastJudge) throw misuse("the run is still in progress: try again when it ends");
  if (opened.paused && lastJudge) throw misuse("this run was cut short: press Resume to score the rest");
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
  if (outcomes.length === 0 && (active || opened.paused)) return [];
  if (outcomes.length === 0) await ensureEvaluation();
  const source = parsed();
  const count = outcomes.length > 0 ? outcomes.length : evaluation.length;
  const texts = new Array(count);
  for (let position = 0; position < count; position += 1) {
    const outcome = await outcomeAt(position);
    texts[position] = searchText(evaluation?.input?.(position) ?? inputOf(source, outcome), outcome);
  }
  if (!active) opened.searchTexts = texts;
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
  setConfig: afterBoot(setConfig),
  run: async ([options], call) => {
    await booted;
    return run(options ?? {}, call);
  },
  runAgent: async ([options], call) => {
    await booted;
    const data = options.dataset ?? opened?.data;
    if (!data) throw misuse("no dataset is open");
    await stopRun();
    return runAgent(api, data, options, call);
  },
  testAgent: afterBoot((request) => testAgent(api, request)),
  entry: afterBoot(entry),
  review: afterBoot(review),
  reviews: afterBoot(reviewState),
  labels: afterBoot(labels),
  search: afterBoot(search),
  export: afterBoot(exported),
  testJudge: afterBoot(testJudge),
  reach: ([endpoint]) => reachability(endpoint),
  validate: afterBoot(validate),
  problems: afterBoot(problems),
  restore: afterBoot(restore),
  compare: afterBoot(compareRun),
  excerpt: afterBoot(excerpt),
  version: afterBoot(() => api.version()),
});

// What the page needs of one report entry (an item, a thread turn or a Foundry row): its compact
// row for the table and charts, its input as the dataset writes it, its tags, and the text that
// the table's search looks in. Used by the engine worker; pure functions of plain data.

/**
 * `{index, turn, status, results: [{evaluator, result, score}]}`: what the table and charts show.
 * An entry without a status (no evaluator gave a verdict) is `skipped`.
 */
export function compactRow(outcome) {
  return {
    index: outcome.index,
    turn: outcome.turn ?? null,
    status: outcome.status ?? "skipped",
    results: outcome.results.map((result) => ({
      evaluator: result.evaluator,
      result: result.result,
      score: typeof result.score === "number" ? result.score : null,
    })),
  };
}

/** Status and result codes of `evaluateRows` columns, as the report names them. */
const CODES = ["pass", "fail", "partial", "error", "skipped"];
const DID_NOT_RUN = 5;

/** Compact rows (as `compactRow` makes them) from `evaluateRows` columns. */
export function rowsFromColumns({ index, turn, status, evaluators, result, score }) {
  const width = evaluators.length;
  const rows = new Array(index.length);
  for (let row = 0; row < index.length; row += 1) {
    const results = [];
    for (let column = 0; column < width; column += 1) {
      const cell = row * width + column;
      if (result[cell] === DID_NOT_RUN) continue;
      results.push({ evaluator: evaluators[column], result: CODES[result[cell]], score: Number.isNaN(score[cell]) ? null : score[cell] });
    }
    rows[row] = {
      index: index[row],
      turn: turn[row] < 0 ? null : turn[row],
      status: CODES[status[row]],
      results,
    };
  }
  return rows;
}

/** The records of a dataset: M365 `items`, a legacy array, Foundry `data` or JSON Lines rows. */
function records(source) {
  if (source.rows) return source.rows;
  const value = source.value;
  if (Array.isArray(value)) return value;
  if (value && typeof value === "object") {
    if (Array.isArray(value.items)) return value.items;
    if (Array.isArray(value.prompts)) return value.prompts;
    if (Array.isArray(value.data)) return value.data;
  }
  return [];
}

/** The item (or thread turn, or row) `outcome` scored, as the dataset writes it. */
export function inputOf(source, outcome) {
  const record = records(source)[outcome.index];
  if (record === undefined || record === null) return null;
  if (outcome.turn !== null && outcome.turn !== undefined && Array.isArray(record.turns)) {
    return { thread: record.name ?? null, ...record.turns[outcome.turn] };
  }
  return record;
}

/**
 * The turns of a thread before turn entry `outcome`, for the item view's conversation:
 * `[{turn, prompt, response}]` (0-based `turn`); empty for an item or row, or a thread's first turn.
 */
export function conversationOf(source, outcome) {
  if (outcome.turn === null || outcome.turn === undefined) return [];
  const turns = records(source)[outcome.index]?.turns;
  if (!Array.isArray(turns)) return [];
  return turns.slice(0, outcome.turn).map((turn, at) => {
    const { prompt, response } = inputFields(turn);
    return { turn: at, prompt, response };
  });
}

/** Tags of the entry: the item's and, for a turn, the turn's own. */
export function entryTags(source, outcome) {
  const record = records(source)[outcome.index];
  const tags = new Set(stringList(record?.tags));
  if (outcome.turn !== null && outcome.turn !== undefined) {
    for (const tag of stringList(record?.turns?.[outcome.turn]?.tags)) tags.add(tag);
  }
  return [...tags];
}

function stringList(value) {
  return Array.isArray(value) ? value.filter((tag) => typeof tag === "string") : [];
}

/** Lower-cased text of the entry's `input` (as `inputOf` gives it) and its results' reasons, for the table's search. */
export function searchText(input, outcome) {
  const parts = [];
  if (input) parts.push(JSON.stringify(input));
  for (const result of outcome.results) {
    if (result.reason) parts.push(result.reason);
    if (result.error?.message) parts.push(result.error.message);
  }
  return parts.join("\n").toLowerCase();
}

/**
 * The fields of an entry's input that hold the conversation, whichever dialect wrote it (M365
 * items and turns, Foundry rows, Copilot Studio columns): `{name, prompt, response, expected,
 * context, retrieval, tools}`, each undefined when absent.
 */
export function inputFields(input) {
  if (!input || typeof input !== "object") return {};
  return {
    name: input.id ?? input.name ?? input.thread ?? undefined,
    prompt: input.prompt ?? input.query ?? input.question,
    response: input.response ?? input.actualResponse,
    expected: input.expected_response ?? input.ground_truth ?? input.expectedResponse,
    context: input.context,
    retrieval: input.diagnostics?.retrieval_executions ?? input.diagnostics?.retrieval ?? input.retrieved_documents ?? input.retrieval_ground_truth,
    tools: input.diagnostics?.tool_calls ?? input.tool_calls ?? input.actions,
  };
}

/** How much of an entry's text a table cell's tooltip holds. */
const LABEL_LENGTH = 2000;

/**
 * What the table shows of an entry's input: `{name, prompt, response, thread}` as short text (""
 * when absent): a thread turn's `thread` is its thread's name and its `name` the turn's own.
 */
export function entryLabels(input) {
  const { prompt, response } = inputFields(input);
  const turnOfThread = input !== null && typeof input === "object" && "thread" in input;
  const name = turnOfThread ? (input.id ?? input.name) : inputFields(input).name;
  const text = (value) => {
    if (value === undefined || value === null) return "";
    const whole = typeof value === "string" ? value : JSON.stringify(value);
    return whole.length > LABEL_LENGTH ? `${whole.slice(0, LABEL_LENGTH - 1)}…` : whole;
  };
  return { name: text(name), prompt: text(prompt), response: text(response), thread: text(input?.thread) };
}

// An entry's evidence as tables the item view shows instead of raw JSON: retrieval diagnostics
// (per execution its capability, status, queries, and its hits by rank with their source and
// extracts) and tool calls or any other list of records (a column per field, nested fields one
// level deep as `parent.child`, deeper values as compact JSON text). Every value is shown as text.

import { h } from "./dom.js";

/** Most columns a records table shows; the other fields stay in the entry's JSON below. */
const MOST_COLUMNS = 10;

/** Fields whose records differ from call to call, kept as one column of JSON text. */
const KEPT_WHOLE = new Set(["arguments", "parameters", "input", "output", "result", "results"]);

function isRecord(value) {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** A value as a cell's text: strings as they are, `null` as "null", others as compact JSON. */
function cellText(value) {
  if (value === undefined) return "";
  return typeof value === "string" ? value : JSON.stringify(value);
}

/**
 * `record`'s fields with nested records of plain values spread one level deep
 * (`tool.function_name`), except a call's own data (its arguments, its output).
 */
function flatten(record) {
  const flat = {};
  for (const [key, value] of Object.entries(record)) {
    if (!KEPT_WHOLE.has(key) && isRecord(value) && Object.keys(value).length > 0 && Object.values(value).every((inner) => !isRecord(inner))) {
      for (const [inner, innerValue] of Object.entries(value)) flat[`${key}.${inner}`] = innerValue;
    } else {
      flat[key] = value;
    }
  }
  return flat;
}

/**
 * A table of `list` (records): a row per record, a column per field in the order fields first
 * appear, or null when `list` is not a list of records.
 */
export function recordsTable(list, caption) {
  if (!Array.isArray(list) || list.length === 0 || !list.every(isRecord)) return null;
  const rows = list.map(flatten);
  const columns = [...new Set(rows.flatMap((row) => Object.keys(row)))];
  const shown = columns.slice(0, MOST_COLUMNS);
  return h(
    "div",
    { class: "evidence-scroll" },
    h(
      "table",
      { class: "evidence" },
      h("caption", {}, columns.length > shown.length ? `${caption} (${shown.length} of ${columns.length} fields; all in the entry's JSON)` : caption),
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "#"), shown.map((name) => h("th", { scope: "col" }, name)))),
      h(
        "tbody",
        {},
        rows.map((row, at) => h("tr", {}, h("td", {}, String(at + 1)), shown.map((name) => h("td", {}, cellText(row[name]))))),
      ),
    ),
  );
}

/** The text of a retrieval hit's extracts, one per line. */
function extractsText(extracts) {
  if (!Array.isArray(extracts)) return cellText(extracts);
  return extracts.map((extract) => (isRecord(extract) ? cellText(extract.text ?? extract) : cellText(extract))).join("\n");
}

/** One retrieval execution: its facts in a line, its queries, and its hits by rank. */
function execution(run, at) {
  const facts = [
    run.capability && `capability ${cellText(run.capability)}`,
    run.status !== undefined && `status ${cellText(run.status)}`,
    run.totalResultCount !== undefined && `${cellText(run.totalResultCount)} results`,
  ].filter(Boolean);
  const queries = Array.isArray(run.queries) ? run.queries : [];
  const hits = Array.isArray(run.retrievalHits) ? run.retrievalHits : [];
  return h(
    "div",
    { class: "retrieval-execution" },
    h("p", { class: "evidence-facts" }, `Execution ${at + 1}${facts.length ? `: ${facts.join(" · ")}` : ""}`),
    queries.length ? recordsTable(queries, "Queries") : null,
    hits.length
      ? h(
          "div",
          { class: "evidence-scroll" },
          h(
            "table",
            { class: "evidence retrieval-hits" },
            h("caption", {}, `Hits (${hits.length})`),
            h("thead", {}, h("tr", {}, ["Rank", "Source", "Extracts"].map((name) => h("th", { scope: "col" }, name)))),
            h(
              "tbody",
              {},
              hits.map((hit) =>
                h(
                  "tr",
                  {},
                  h("td", {}, cellText(hit?.rank)),
                  h("td", { class: "evidence-source" }, cellText(hit?.webUrl ?? hit?.title ?? hit?.url ?? "")),
                  h("td", { class: "evidence-extracts" }, extractsText(hit?.extracts)),
                ),
              ),
            ),
          ),
        )
      : h("p", { class: "hint" }, "No hits."),
  );
}

/**
 * The retrieval diagnostics of an entry as tables: M365 `retrieval_executions` (each execution's
 * hits by rank), else Foundry's documents as a records table; null when `value` is neither.
 */
export function retrievalView(value) {
  if (Array.isArray(value) && value.length > 0 && value.every((run) => isRecord(run) && ("retrievalHits" in run || "queries" in run || "capability" in run))) {
    return h("div", { class: "evidence-block" }, value.map(execution));
  }
  return recordsTable(value, "Documents");
}

// Exports: how each format is labelled and saved as a download. Which formats apply to a run is the
// core's decision (the plan's `formats`, through the engine); the text comes from the engine, byte
// for byte what the CLI writes.

const FORMATS = [
  { format: "document", label: "Scored document (JSON)", extension: "scored.json", type: "application/json" },
  { format: "foundry", label: "Foundry rows (JSONL)", extension: "scored.jsonl", type: "application/jsonl" },
  { format: "foundry-results", label: "Foundry result objects (JSONL)", extension: "results.jsonl", type: "application/jsonl" },
  { format: "copilot", label: "Copilot Studio results (CSV)", extension: "scored.csv", type: "text/csv" },
  { format: "report", label: "Run report (JSON)", extension: "report.json", type: "application/json" },
  { format: "csv", label: "CSV", extension: "csv", type: "text/csv" },
  { format: "junit", label: "JUnit XML", extension: "junit.xml", type: "application/xml" },
  { format: "md", label: "Markdown", extension: "md", type: "text/markdown" },
  { format: "html", label: "HTML report", extension: "html", type: "text/html" },
];

/** The labelled entries of `formats` (format names, in the plan's order). */
export function exportFormats(formats) {
  return (formats ?? []).map((format) => FORMATS.find((entry) => entry.format === format)).filter(Boolean);
}

/** The download's file name: the dataset's name without its extension, then the format's. */
export function exportName(datasetName, format) {
  const entry = FORMATS.find((candidate) => candidate.format === format);
  const base = (datasetName || "dataset").replace(/\.(json|jsonl|ndjson|csv|txt)$/i, "").replace(/[^\w.-]+/g, "_") || "dataset";
  return `${base}.${entry?.extension ?? format}`;
}

/** Saves `text` as a download named after the dataset and the format. */
export function downloadExport(datasetName, format, text) {
  const entry = FORMATS.find((candidate) => candidate.format === format);
  saveText(exportName(datasetName, format), text, entry?.type ?? "text/plain");
}

/** Saves `text` as a download named `fileName`, of media type `type`. */
export function saveText(fileName, text, type) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement("a");
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}

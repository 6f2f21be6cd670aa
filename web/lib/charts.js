// The results' charts as SVG built node by node (labels are text nodes, never markup): pass rate
// per evaluator, the score distribution of one evaluator, and entries by status per tag. Each
// chart has a text alternative (`role="img"` with `aria-label`, and a `<title>` per bar). Bars of
// the pass-rate and tag charts filter the table when clicked.

const SVG = "http://www.w3.org/2000/svg";
const BAR = 22;
const LABEL = 130;
const WIDTH = 400;

function svg(tag, attributes = {}, ...children) {
  const element = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, String(value));
  for (const child of children) {
    if (child === null || child === undefined) continue;
    element.append(typeof child === "string" ? document.createTextNode(child) : child);
  }
  return element;
}

function frame(height, label) {
  return svg("svg", {
    viewBox: `0 0 ${WIDTH} ${height}`,
    width: "100%",
    role: "img",
    "aria-label": label,
    class: "chart",
  });
}

/**
 * `text` in at most `length` characters, cut in the middle so that names sharing a long prefix
 * (`builtin.task_adherence`, `builtin.task_completion`) stay apart; the bars' titles give it whole.
 */
function clip(text, length = 17) {
  if (text.length <= length) return text;
  const head = Math.ceil((length - 1) / 2);
  return `${text.slice(0, head)}…${text.slice(text.length - (length - 1 - head))}`;
}

/** Makes `element` filter the table when clicked (the filters above the table do the same by keyboard). */
function selects(element, onSelect, ...args) {
  if (!onSelect) return element;
  element.classList.add("bar-select");
  element.addEventListener("click", () => onSelect(...args));
  return element;
}

/**
 * Horizontal bars: each evaluator's pass rate (pass ÷ (pass + fail)); clicking a bar calls
 * `onSelect(name)`.
 */
export function passRateChart(evaluators, onSelect) {
  const rows = evaluators.filter((entry) => entry.passRate !== null);
  const height = Math.max(1, rows.length) * (BAR + 6) + 8;
  const description = rows.map((entry) => `${entry.name} ${(entry.passRate * 100).toFixed(1)} %`).join(", ");
  const chart = frame(height, `Pass rate per evaluator: ${description || "no verdicts yet"}`);
  const span = WIDTH - LABEL - 60;
  rows.forEach((entry, row) => {
    const y = 4 + row * (BAR + 6);
    const width = Math.max(1, entry.passRate * span);
    const text = `${(entry.passRate * 100).toFixed(1)} %`;
    chart.append(
      svg("text", { x: LABEL - 8, y: y + BAR * 0.7, "text-anchor": "end", class: "chart-label" }, clip(entry.name)),
      selects(svg("rect", { x: LABEL, y, width: span, height: BAR, class: "bar-track" }, svg("title", {}, `${entry.name}: show its entries`)), onSelect, entry.name),
      selects(
        svg(
          "rect",
          { x: LABEL, y, width, height: BAR, class: "bar-pass" },
          svg("title", {}, `${entry.name}: ${text} (${entry.pass} pass, ${entry.fail} fail)`),
        ),
        onSelect,
        entry.name,
      ),
      svg("text", { x: LABEL + span + 6, y: y + BAR * 0.7, class: "chart-value" }, text),
    );
  });
  if (rows.length === 0) chart.append(svg("text", { x: 8, y: 20, class: "chart-label" }, "No verdicts yet"));
  return chart;
}

/** A histogram of `scores` over their range in `bins` equal bins. */
export function histogram(name, scores, bins = 10) {
  const height = 170;
  const chart = frame(height, `Score distribution of ${name}: ${scores.length} scores`);
  if (scores.length === 0) {
    chart.append(svg("text", { x: 8, y: 20, class: "chart-label" }, `${name}: no scores`));
    return chart;
  }
  let low = scores[0];
  let high = scores[0];
  for (const score of scores) {
    if (score < low) low = score;
    if (score > high) high = score;
  }
  if (high === low) high = low + 1;
  const counts = new Array(bins).fill(0);
  for (const score of scores) counts[Math.min(bins - 1, Math.floor(((score - low) / (high - low)) * bins))] += 1;
  const most = Math.max(...counts);
  const plot = { left: 40, top: 8, width: WIDTH - 60, height: height - 40 };
  const width = plot.width / bins;
  counts.forEach((count, bin) => {
    const barHeight = (count / most) * plot.height;
    const from = low + ((high - low) * bin) / bins;
    const to = low + ((high - low) * (bin + 1)) / bins;
    chart.append(
      svg(
        "rect",
        { x: plot.left + bin * width + 1, y: plot.top + plot.height - barHeight, width: width - 2, height: barHeight, class: "bar-score" },
        svg("title", {}, `${format(from)} to ${format(to)}: ${count}`),
      ),
    );
  });
  chart.append(
    svg("line", { x1: plot.left, x2: plot.left + plot.width, y1: plot.top + plot.height, y2: plot.top + plot.height, class: "axis" }),
    svg("text", { x: plot.left, y: height - 12, class: "chart-value" }, format(low)),
    svg("text", { x: plot.left + plot.width, y: height - 12, "text-anchor": "end", class: "chart-value" }, format(high)),
    svg("text", { x: plot.left - 6, y: plot.top + 10, "text-anchor": "end", class: "chart-value" }, String(most)),
  );
  return chart;
}

function format(value) {
  return Number.isInteger(value) ? String(value) : value.toFixed(2);
}

const STACK = ["pass", "partial", "fail", "error", "skipped"];

/** Per tag, one bar of its entries split by status; clicking a part calls `onSelect(tag, status)`. */
export function tagChart(tags, onSelect) {
  const shown = tags.slice(0, 30);
  const height = Math.max(1, shown.length) * (BAR + 6) + 8;
  const description = shown.map((entry) => `${entry.tag}: ${entry.pass} pass, ${entry.fail} fail`).join("; ");
  const chart = frame(height, `Entries by tag: ${description}`);
  const span = WIDTH - LABEL - 60;
  shown.forEach((entry, row) => {
    const y = 4 + row * (BAR + 6);
    const total = STACK.reduce((sum, status) => sum + entry[status], 0) || 1;
    let x = LABEL;
    chart.append(svg("text", { x: LABEL - 8, y: y + BAR * 0.7, "text-anchor": "end", class: "chart-label" }, clip(entry.tag)));
    for (const status of STACK) {
      if (entry[status] === 0) continue;
      const width = (entry[status] / total) * span;
      chart.append(
        selects(svg("rect", { x, y, width, height: BAR, class: `bar-${status}` }, svg("title", {}, `${entry.tag}: ${entry[status]} ${status}`)), onSelect, entry.tag, status),
      );
      x += width;
    }
    chart.append(svg("text", { x: LABEL + span + 6, y: y + BAR * 0.7, class: "chart-value" }, String(total)));
  });
  return chart;
}

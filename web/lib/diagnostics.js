// The problems of the open dataset, errors first, each naming its line and column or JSON
// pointer (and, for those the core names by a code, how to fix them with the page's controls);
// choosing one shows that spot in the dataset's text (the excerpt comes from the engine, which
// holds the text).

import { h, replace } from "./dom.js";

function where(location) {
  if (location.kind === "lineColumn") return `line ${location.line}, column ${location.column}`;
  if (location.kind === "pointer") return location.line ? `${location.pointer || "/"} (line ${location.line})` : location.pointer || "/";
  return "the whole file";
}

/**
 * How to fix, with this page's controls, the problems the core names by a code
 * (`Diagnostic.code`) because each host fixes them its own way.
 */
const PAGE_FIXES = {
  configMissing: "Choose the config with “Foundry evaluation config” in the Dataset panel (before or after the dataset), then press Score.",
};

export class DiagnosticsList {
  /** `locate(location)` resolves to `{line, column, lines: [{number, text}]}` or null. */
  constructor({ locate }) {
    this.locate = locate;
    this.list = h("ol", { class: "diagnostics-list", id: "diagnostics-list" });
    this.excerpt = h("div", { class: "excerpt", id: "excerpt", "aria-live": "polite" });
    this.heading = h("h2", { id: "diagnostics-title" }, "Problems");
    this.element = h("section", { class: "panel diagnostics", id: "diagnostics", "aria-labelledby": "diagnostics-title", hidden: true }, this.heading, this.list, this.excerpt);
  }

  show(diagnostics, name) {
    this.excerpt.replaceChildren();
    if (!diagnostics.length) {
      this.element.hidden = true;
      this.list.replaceChildren();
      return;
    }
    const errors = diagnostics.filter((entry) => entry.severity === "error").length;
    this.heading.textContent = `${name}: ${errors} error${errors === 1 ? "" : "s"}, ${diagnostics.length - errors} warning${diagnostics.length - errors === 1 ? "" : "s"}`;
    replace(
      this.list,
      diagnostics.slice(0, 1000).map((diagnostic) =>
        h(
          "li",
          { class: `diagnostic diagnostic-${diagnostic.severity}` },
          h(
            "button",
            { type: "button", class: "link", onclick: () => this.reveal(diagnostic) },
            h("span", { class: `badge badge-${diagnostic.severity === "error" ? "error" : "skipped"}` }, diagnostic.severity),
            ` ${where(diagnostic.location)}: `,
          ),
          diagnostic.message,
          PAGE_FIXES[diagnostic.code] ? h("span", { class: "diagnostic-fix" }, ` ${PAGE_FIXES[diagnostic.code]}`) : null,
        ),
      ),
    );
    this.element.hidden = false;
  }

  async reveal(diagnostic) {
    const spot = await this.locate(diagnostic.location).catch(() => null);
    if (!spot) {
      replace(this.excerpt, h("p", {}, "This problem has no single place in the text."));
      return;
    }
    replace(
      this.excerpt,
      h("p", { class: "hint" }, `Line ${spot.line}, column ${spot.actualColumn ?? spot.column}: ${diagnostic.message}`),
      h(
        "pre",
        { class: "excerpt-text", tabindex: "0", "aria-label": `The dataset around line ${spot.line}` },
        spot.lines.map(({ number, text }) => {
          const prefix = `${String(number).padStart(6)} │ `;
          if (number !== spot.line) return h("span", { class: "excerpt-line" }, `${prefix}${text}\n`);
          const at = Math.max(0, Math.min(text.length, spot.column - 1));
          return h(
            "span",
            { class: "excerpt-line excerpt-here", "data-line": String(number) },
            prefix,
            text.slice(0, at),
            h("mark", { class: "excerpt-mark" }, text.slice(at, at + 1) || " "),
            `${text.slice(at + 1)}\n`,
          );
        }),
      ),
    );
    this.excerpt.querySelector(".excerpt-here")?.scrollIntoView?.({ block: "nearest" });
  }
}

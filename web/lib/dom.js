// Building the page's DOM safely: every piece of data becomes a text node or an attribute value,
// never markup. No event-handler attributes, no `style` attributes (the Content Security Policy
// forbids them), and links only to http(s) URLs.

const FORBIDDEN_ATTRIBUTE = /^(on|style$|srcdoc$)/i;

/**
 * An element: `h("button", {class: "primary", onclick: fn, "aria-label": "Run"}, "Run")`.
 * Properties starting with `on` and holding a function become event listeners; other values
 * become attributes (`true` an empty one, `false`/`null`/`undefined` none). Children are nodes,
 * strings (text), numbers, arrays, or nothing.
 */
export function h(tag, properties = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(properties ?? {})) {
    if (typeof value === "function" && name.startsWith("on")) {
      element.addEventListener(name.slice(2), value);
    } else if (name === "href") {
      const href = safeUrl(value);
      if (href) element.setAttribute("href", href);
    } else if (FORBIDDEN_ATTRIBUTE.test(name)) {
      throw new Error(`h: attribute ${name} is not allowed`);
    } else if (value === true) {
      element.setAttribute(name, "");
    } else if (value !== false && value !== null && value !== undefined) {
      element.setAttribute(name, String(value));
    }
  }
  append(element, children);
  return element;
}

function append(element, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(element, child);
    else if (child instanceof Node) element.append(child);
    else element.append(document.createTextNode(String(child)));
  }
}

/** `value` when it is an absolute http(s) URL, else null: never `javascript:` or `data:`. */
export function safeUrl(value) {
  try {
    const url = new URL(String(value));
    return url.protocol === "http:" || url.protocol === "https:" ? url.href : null;
  } catch {
    return null;
  }
}

/** Replaces `element`'s children. */
export function replace(element, ...children) {
  element.replaceChildren();
  append(element, children);
}

/** A number as a percentage with one decimal ("83.3 %"), or "–" when absent. */
export function percent(value) {
  return typeof value === "number" && Number.isFinite(value) ? `${(value * 100).toFixed(1)} %` : "–";
}

/** A score for display: integers as they are, others with `digits` decimals (3), or "–". */
export function formatScore(value, digits = 3) {
  if (typeof value !== "number" || !Number.isFinite(value)) return "–";
  return Number.isInteger(value) ? String(value) : value.toFixed(digits);
}

/** `count` with its noun: "1 entry", "3 entries" (`many` defaults to `one` + "s"). */
export function plural(count, one, many = `${one}s`) {
  return `${count} ${count === 1 ? one : many}`;
}

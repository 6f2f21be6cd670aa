// Whether the judge endpoint can be reached from this page, found without sending a judge call
// (nothing is asked of the model, no key is sent): a `no-cors` request to the endpoint's origin
// tells a server that answers from nothing listening (a wrong host or port), and a normal request
// after it tells whether the server's CORS headers let the page read its answers. Run in the engine
// worker (where the judge's own requests go from) for the judge panel's "Test connection" and the
// banner the page raises when judge calls fail; `explain` words the answer for the page.

/**
 * `{state, where}`: `state` is `"reachable"`, `"cors"` (a server answers, but its answers are
 * hidden from the page), `"unreachable"` (no answer: connection refused, wrong port or host),
 * `"blocked"` (plain http to a host other than the loopback, which the page's
 * Content-Security-Policy refuses) or `"invalid"` (not an http(s) URL); `where` is the endpoint's
 * host and port.
 */
export async function reachability(endpoint) {
  let url;
  try {
    url = new URL(endpoint);
    if (url.protocol !== "http:" && url.protocol !== "https:") throw new Error("not http(s)");
  } catch {
    return { state: "invalid", where: String(endpoint) };
  }
  // The page's Content-Security-Policy (index.html) allows http only to the loopback.
  if (url.protocol === "http:" && !["localhost", "127.0.0.1", "[::1]"].includes(url.hostname)) {
    return { state: "blocked", where: url.host };
  }
  const where = url.port ? `${url.hostname}:${url.port}` : `${url.hostname}:${url.protocol === "https:" ? 443 : 80}`;
  const origin = `${url.origin}/`;
  const options = { credentials: "omit", cache: "no-store", referrerPolicy: "no-referrer", signal: AbortSignal.timeout(5000) };
  try {
    await fetch(origin, { ...options, mode: "no-cors" });
  } catch {
    return { state: "unreachable", where };
  }
  try {
    await fetch(origin, { ...options, signal: AbortSignal.timeout(5000) });
    return { state: "reachable", where };
  } catch {
    return { state: "cors", where };
  }
}

/** What `reachability`'s answer means for the user, or null when the endpoint is reachable. */
export function explain({ state, where }) {
  if (state === "invalid") return `${where} is not an http(s) URL — check the endpoint`;
  if (state === "blocked") return `the page sends judge requests only over https (or plain http to localhost), not to http://${where} — check the endpoint`;
  if (state === "unreachable") return `connection refused to ${where} — check the endpoint (host and port)`;
  if (state === "cors") return `${where} answers, but its CORS headers do not let this page read the answers — allow this page's origin on the endpoint`;
  return null;
}

// Every command and code example of README.md and docs/*.md runs as written, so the documents
// cannot drift from the code. (docs/performance-history.md is not read: it is the dated log of
// what was run then, and says so.)
//
// Fenced blocks, by the language named after the opening fence:
//   sh       one command a line, run by `sh` in the document's folder (below); `export` lines set
//            variables for the block's later lines; each must exit 0 or 1 (2 is bad input or usage).
//   console  `$ command` lines, each followed by what it prints (stdout and stderr, as a terminal
//            shows them); `…` in a printed line stands for any text (a time, a path).
//   json, jsonl  must parse; with `file=NAME` after the language, the block is also written to
//            NAME in the document's folder, for the blocks after it to use.
//   js       a module run by Node; "agenteval" is the built package.
//   html     a page beside the files of `web/` in headless Chromium: no error, and every results
//            view it shows has rows.
//   text     not run (synopses, layouts); its commands are checked as code spans are (below).
// Any other language fails the test, so a new kind of example cannot go unchecked.
//
// Each document runs in a fresh folder holding `examples/` (the repository's) and the CLI on PATH
// as `agenteval` (AGENTEVAL_CLI, the debug build), in document order. Judge endpoints of the
// examples (ENDPOINTS) are pointed at the local judge `cargo xtask test` starts (its /v1, /openai/v1
// and deployment routes are those of OpenAI and Azure), exported `*_KEY` variables carry its key,
// and a command that names a judge must have reached it.
//
// `cargo xtask` commands are the one thing not run: NOT_RUN says why, subcommand by subcommand,
// and must name exactly the subcommands the documents use. Every `cargo xtask` command, in a block
// or a code span, must still be one that xtask's usage accepts (subcommand, argument, flags), and
// every `agenteval` command's subcommand and flags must be in that subcommand's `--help`.

import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

import { launchChromium, root, serve } from "./helpers.js";

const here = fileURLToPath(new URL(".", import.meta.url));
const cli = process.env.AGENTEVAL_CLI ?? join(root, "target/debug/agenteval");
const judgeUrl = process.env.AGENTEVAL_JUDGE_URL;
const judgeKey = process.env.AGENTEVAL_JUDGE_KEY;

/** Why each `cargo xtask` subcommand the documents show is not run here. */
const NOT_RUN = {
  test: "it is the command running this test",
  serve: "serves until killed; page-serve.test.js runs it in the background and tests the page `agenteval view` serves",
  judge: "serves until killed; this test and the judge suites run the same server, started by `cargo xtask test`",
  example: "a release build of the CLI (minutes on two cores); the commands it runs are the README's, run here with the debug CLI",
  build: "two profile-guided release builds and the package (many minutes); `cargo xtask test` builds the package the same way",
  dist: "`cargo xtask test` writes the same file with the same function, and page-dist.test.js opens it from file://",
  bench: "minutes of measurement on a quiet machine; its figures are in docs/performance.md",
  fuzz: "runs as long as it is told (600 s in the README), after installing cargo-fuzz; stream.rs and datasets.rs test the same input path",
};

/** Placeholder endpoints of the examples, pointed at the local judge. */
const ENDPOINTS = ["https://my-resource.openai.azure.com", "https://api.openai.com", "http://localhost:11434"];

const documents = ["README.md", ...readdirSync(join(root, "docs")).filter((name) => name.endsWith(".md") && name !== "performance-history.md").map((name) => `docs/${name}`)];

/** The fenced blocks of a document: `{language, file, code, line}`. */
function blocks(text) {
  const found = [];
  for (const match of text.matchAll(/^```([^\n]*)\n([\s\S]*?)^```$/gm)) {
    const [language = "", ...rest] = match[1].trim().split(/\s+/);
    const file = rest.find((word) => word.startsWith("file="))?.slice(5);
    found.push({ language, file, code: match[2], line: text.slice(0, match.index).split("\n").length });
  }
  return found;
}

/** Inline code spans outside fenced blocks. */
function spans(text) {
  const prose = text.replace(/^```[^\n]*\n[\s\S]*?^```$/gm, "");
  return [...prose.matchAll(/`([^`\n]+)`/g)].map((match) => match[1]);
}

/** The commands of a block or span that start with `program`, split at pipes, `&&` and `;`, after a `$ ` prompt. */
function commands(code, program) {
  return code
    .split("\n")
    .flatMap((line) => line.replace(/^\$ /, "").split(/\s*(?:\||&&|;)\s*/))
    .map((part) => part.trim())
    .filter((part) => part === program || part.startsWith(`${program} `));
}

const all = documents.map((name) => {
  const text = readFileSync(join(root, name), "utf8");
  return { name, text, blocks: blocks(text), spans: spans(text) };
});

// -- what xtask and the CLI accept -----------------------------------------------------------

const xtaskMain = readFileSync(join(root, "xtask/src/main.rs"), "utf8");

/** `{subcommand: {args: [...], flags: [...]}}` from xtask's usage lines. */
function xtaskUsage() {
  const line = xtaskMain.match(/const USAGE: &str = "cargo xtask <([^>]*)>/)?.[1];
  assert.ok(line, "xtask/src/main.rs has no usage line");
  const usage = {};
  for (const entry of line.split(/\|(?![^[]*\])/)) {
    const [name, rest = ""] = [entry.split(" ")[0], entry.slice(entry.indexOf(" ") + 1)];
    const args = entry.includes("[") && !rest.startsWith("[--") ? rest.replace(/[[\]]/g, "").split("|") : [];
    let flags = [];
    try {
      const source = readFileSync(join(root, `xtask/src/${name}.rs`), "utf8");
      const text = source.match(/const USAGE: &str = "([\s\S]*?)";/)?.[1] ?? "";
      flags = [...text.matchAll(/--[a-z-]+/g)].map((match) => match[0]);
    } catch {
      // No module of its own: the usage line is all it takes.
    }
    usage[name] = { args, flags };
  }
  return usage;
}

function checkXtask(command, where) {
  const usage = xtaskUsage();
  const [, , subcommand, ...rest] = command.split(/\s+/);
  assert.ok(usage[subcommand], `${where}: \`${command}\`: xtask has no subcommand ${subcommand}`);
  assert.ok(NOT_RUN[subcommand], `${where}: \`${command}\` is neither run nor listed in NOT_RUN`);
  const { args, flags } = usage[subcommand];
  const words = rest.map((word) => word.replace(/^\[/, "").replace(/\]$/, "")).filter(Boolean);
  for (let index = 0; index < words.length; index += 1) {
    const word = words[index];
    if (word.startsWith("--")) {
      const flag = word.split("=")[0];
      assert.ok(flags.includes(flag), `${where}: \`${command}\`: cargo xtask ${subcommand} has no ${flag}`);
      if (!word.includes("=") && words[index + 1] && !words[index + 1].startsWith("--")) index += 1; // its value
    } else if (!/^[A-Z]+$/.test(word)) {
      const number = args.includes("seconds") && /^\d+$/.test(word);
      assert.ok(number || args.includes(word), `${where}: \`${command}\`: cargo xtask ${subcommand} takes ${args.join(", ") || "no argument"}, not ${word}`);
    }
  }
  return subcommand;
}

const helps = new Map();
/** `agenteval PATH… --help`, or "" when that is no command. */
function help(...path) {
  const key = path.join(" ");
  if (!helps.has(key)) {
    const result = spawnSync(cli, [...path, "--help"], { encoding: "utf8" });
    helps.set(key, result.status === 0 ? result.stdout : "");
  }
  return helps.get(key);
}

/** The subcommands a help text lists. */
const listed = (text) => [...text.matchAll(/^ {2}([a-z]+) /gm)].map((match) => match[1]);

function checkCli(command, where) {
  const words = command.split(/\s+/);
  const subcommand = words[1];
  if (subcommand === undefined) return;
  assert.ok(listed(help()).includes(subcommand), `${where}: \`${command}\`: agenteval has no command ${subcommand}`);
  const path = [subcommand];
  if (words[2] && listed(help(subcommand)).includes(words[2])) path.push(words[2]);
  const text = help(...path);
  for (const word of words.slice(1 + path.length)) {
    const flag = word.replace(/^\[/, "").replace(/\]$/, "").split("=")[0];
    if (!flag.startsWith("--")) continue;
    assert.ok(new RegExp(`(^|\\s)${flag}[\\s,=<]`, "m").test(text), `${where}: \`${command}\`: agenteval ${path.join(" ")} has no ${flag}`);
  }
}

// -- running --------------------------------------------------------------------------------

const work = mkdtempSync(join(tmpdir(), "agenteval-docs-"));
const bin = join(work, "bin");
mkdirSync(bin);
symlinkSync(cli, join(bin, "agenteval"));

function folder(name) {
  const dir = join(work, name.replace(/\W/g, "-"));
  mkdirSync(dir, { recursive: true });
  symlinkSync(join(root, "examples"), join(dir, "examples"));
  return dir;
}

let caches = 0;
/** The environment of an example: the CLI on PATH, no judge unless the example sets one, its own cache. */
function environment(extra = {}) {
  caches += 1;
  const cache = join(work, `cache-${caches}`);
  return { PATH: `${bin}:${process.env.PATH}`, HOME: cache, XDG_CACHE_HOME: cache, LANG: "C.UTF-8", ...extra };
}

function pointAtJudge(text) {
  let pointed = text;
  for (const endpoint of ENDPOINTS) pointed = pointed.replaceAll(endpoint, judgeUrl);
  return pointed;
}

function namesJudge(text) {
  return /--judge-endpoint|AZURE_AI_OPENAI_ENDPOINT|judge:/.test(text) && !/--no-judge\b/.test(text);
}

async function judgeStats() {
  return (await fetch(`${judgeUrl}/stats`)).json();
}

async function runShell(block, dir, where) {
  const exported = {};
  for (const raw of block.code.split("\n")) {
    const line = raw.trim();
    if (!line || line.startsWith("#")) continue;
    if (line.startsWith("cargo xtask")) {
      checkXtask(line, where);
      continue;
    }
    if (line.startsWith("export ")) {
      for (const [, name, value] of line.slice(7).matchAll(/(\w+)=(\S*)/g)) {
        exported[name] = name.endsWith("_KEY") ? judgeKey : pointAtJudge(value);
      }
      continue;
    }
    for (const command of commands(line, "agenteval")) checkCli(command, where);
    const judged = namesJudge(line) || Object.keys(exported).includes("AZURE_AI_OPENAI_ENDPOINT");
    const before = judged ? await judgeStats() : undefined;
    const result = spawnSync("sh", ["-c", pointAtJudge(line)], {
      cwd: dir,
      encoding: "utf8",
      env: environment({ OPENAI_API_KEY: judgeKey, ...exported }),
      maxBuffer: 1 << 26,
    });
    assert.ok(result.status === 0 || result.status === 1, `${where}: \`${line}\` exited ${result.status}: ${result.stderr}`);
    if (judged) {
      const seen = await judgeStats();
      assert.ok(seen.completions > before.completions, `${where}: \`${line}\` made no judge call`);
      assert.equal(seen.unauthorized, before.unauthorized, `${where}: \`${line}\` was refused by the judge`);
    }
  }
}

/** Whether `actual` lines match `expected` lines, where `…` in an expected line is any text. */
function matches(expected, actual) {
  if (expected.length !== actual.length) return false;
  return expected.every((line, index) => {
    const pattern = line.split("…").map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join(".*");
    return new RegExp(`^${pattern}$`).test(actual[index]);
  });
}

async function runConsole(block, dir, where) {
  const lines = block.code.replace(/\n$/, "").split("\n");
  let index = 0;
  assert.ok(lines[0]?.startsWith("$ "), `${where}: a console block starts with a \`$ \` command`);
  while (index < lines.length) {
    const command = lines[index].slice(2);
    index += 1;
    const expected = [];
    while (index < lines.length && !lines[index].startsWith("$ ")) expected.push(lines[index++]);
    if (command.startsWith("cargo xtask")) {
      checkXtask(command, where);
      continue;
    }
    for (const part of commands(command, "agenteval")) checkCli(part, where);
    const env = environment({ AZURE_AI_API_KEY: judgeKey, OPENAI_API_KEY: judgeKey });
    const judged = namesJudge(command);
    const before = judged ? await judgeStats() : undefined;
    const result = spawnSync("sh", ["-c", `(${pointAtJudge(command)}) 2>&1`], { cwd: dir, encoding: "utf8", env, maxBuffer: 1 << 26 });
    if (judged) assert.ok((await judgeStats()).completions > before.completions, `${where}: \`${command}\` made no judge call`);
    const printed = result.stdout.replaceAll("\r\n", "\n").replace(/\n$/, ""); // CSV ends lines in CRLF
    const actual = printed === "" ? [] : printed.split("\n");
    assert.ok(
      matches(expected, actual),
      `${where}: \`${command}\` printed\n${result.stdout}\nwhere the document shows\n${expected.join("\n")}`,
    );
  }
}

async function runJs(block, dir, where, index) {
  const file = join(here, `.docs-example-${index}.mjs`);
  writeFileSync(file, pointAtJudge(block.code));
  try {
    const env = environment({ AZURE_AI_API_KEY: judgeKey, OPENAI_API_KEY: judgeKey });
    const judged = namesJudge(block.code);
    const before = judged ? await judgeStats() : undefined;
    const result = spawnSync(process.execPath, [file], { cwd: dir, encoding: "utf8", env, maxBuffer: 1 << 26 });
    assert.equal(result.status, 0, `${where}: ${result.stderr}`);
    if (block.code.includes("console.log")) assert.ok(result.stdout.length > 0, `${where}: prints nothing`);
    if (judged) assert.ok((await judgeStats()).completions > before.completions, `${where}: made no judge call`);
  } finally {
    rmSync(file, { force: true });
  }
}

let browser;
let server;
async function runHtml(block, where, index) {
  browser ??= await launchChromium();
  server ??= await serve();
  const page = await browser.newPage();
  const problems = [];
  page.on("pageerror", (error) => problems.push(error.message));
  page.on("console", (message) => {
    if (message.type() === "error") problems.push(message.text());
  });
  const url = `${server.url}/web/docs-example-${index}.html`;
  await page.route(url, (route) => route.fulfill({ contentType: "text/html", body: `<!doctype html><meta charset="utf-8">\n${block.code}` }));
  try {
    await page.goto(url);
    await page.waitForFunction(
      () => {
        const hosts = [...document.querySelectorAll("*")].filter((element) => element.shadowRoot);
        return hosts.length > 0 && hosts.every((host) => host.shadowRoot.querySelector(".table-row"));
      },
      null,
      { timeout: 60000 },
    );
    assert.deepEqual(problems, [], `${where}: the page reported errors`);
  } finally {
    await page.close();
  }
}

// -- the tests ------------------------------------------------------------------------------

before(() => {
  if (!judgeUrl || !judgeKey) {
    throw new Error("AGENTEVAL_JUDGE_URL and AGENTEVAL_JUDGE_KEY are unset: run these tests through `cargo xtask test`");
  }
});

after(async () => {
  await browser?.close();
  await server?.close();
  rmSync(work, { recursive: true, force: true });
});

test("the documents have examples of every kind the test runs", () => {
  const languages = new Set(all.flatMap((document) => document.blocks.map((block) => block.language)));
  for (const language of ["sh", "console", "json", "js", "html"]) assert.ok(languages.has(language), `no ${language} block`);
});

test("NOT_RUN names exactly the cargo xtask subcommands the documents use", () => {
  const used = new Set();
  for (const document of all) {
    const sources = [...document.spans, ...document.blocks.filter((block) => ["sh", "console", "text"].includes(block.language)).map((block) => block.code)];
    for (const source of sources) {
      for (const command of commands(source, "cargo xtask")) used.add(checkXtask(command, document.name));
    }
  }
  assert.deepEqual([...used].sort(), Object.keys(NOT_RUN).sort());
});

test("every agenteval command in code spans and text blocks is one the CLI accepts", () => {
  for (const document of all) {
    const sources = [...document.spans, ...document.blocks.filter((block) => block.language === "text").map((block) => block.code)];
    for (const source of sources) for (const command of commands(source, "agenteval")) checkCli(command, document.name);
  }
});

/** GitHub's anchor for a heading. */
function slug(heading) {
  return heading.trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, "").replace(/\s/g, "-");
}

test("every relative link of the documents leads to a file, and to a heading there", () => {
  for (const document of all) {
    const prose = document.text.replace(/^```[^\n]*\n[\s\S]*?^```$/gm, "").replace(/`[^`\n]*`/g, "");
    for (const [, target] of prose.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/.test(target)) continue;
      const [path, anchor] = target.split("#");
      const file = path ? join(root, dirname(document.name), path) : join(root, document.name);
      // The page's screenshot is taken by the page's tests (tests/js/page*.test.js) and committed with them.
      assert.ok(existsSync(file), `${document.name}: ${target}: no such file`);
      if (anchor && file.endsWith(".md")) {
        const headings = [...readFileSync(file, "utf8").matchAll(/^#+ (.*)$/gm)].map((match) => slug(match[1]));
        assert.ok(headings.includes(anchor), `${document.name}: ${target}: no such heading`);
      }
    }
  }
});

for (const document of all) {
  test(`${document.name}: every example runs as written`, async () => {
    const dir = folder(document.name);
    for (const [index, block] of document.blocks.entries()) {
      const where = `${document.name}:${block.line}`;
      switch (block.language) {
        case "sh":
          await runShell(block, dir, where);
          break;
        case "console":
          await runConsole(block, dir, where);
          break;
        case "json":
          assert.doesNotThrow(() => JSON.parse(block.code), where);
          if (block.file) writeFileSync(join(dir, block.file), block.code);
          break;
        case "jsonl":
          for (const line of block.code.split("\n").filter(Boolean)) assert.doesNotThrow(() => JSON.parse(line), where);
          if (block.file) writeFileSync(join(dir, block.file), block.code);
          break;
        case "js":
          await runJs(block, dir, where, `${document.name.replace(/\W/g, "-")}-${index}`);
          break;
        case "html":
          await runHtml(block, where, `${document.name.replace(/\W/g, "-")}-${index}`);
          break;
        case "text":
          break;
        default:
          assert.fail(`${where}: a \`${block.language || "(no language)"}\` block; the test runs sh, console, json, jsonl, js and html, and skips text`);
      }
    }
  });
}

// The example documentation site (examples/docs-site/), as a web developer would ship it: built
// into a temporary folder from dist/ alone, served by a plain static server (no repository
// behind it), and opened in headless Chromium.
//
//   node --test tests/e2e/docs-site.test.mjs      (needs dist/: build it first with `make dist`)
//
// What it checks:
// - the build: docs.json holds one {title, url, text} per documentation page, plain text, the
//   ask page left out, and every nav link of every page leads to a page of the site;
// - "You" play the model: a question, a search_docs reply, the observation shows the page that
//   holds the answer, a Final Answer ends the run, and `tao-done` carries that trajectory; the
//   page asks nothing of any other server (it works offline);
// - the site's stylesheet (body, p, button, label, textarea rules…) changes nothing inside the
//   element: every computed style in its shadow tree is the same with the sheet and without it,
//   while the same comparison does see the sheet on the page's own buttons;
// - a provider: the settings form, set to OpenAI-compatible, runs the mock LLM
//   (tests/mock/llm.mjs) with the key in the Authorization header and nowhere else;
// - screenshots at 1366×850 and 390×844 (tests/e2e/out/docs-site-*.png), no sideways scroll;
// - no page error and no console error, in every test.

import assert from "node:assert/strict";
import { test, before, after } from "node:test";
import { execFileSync } from "node:child_process";
import { createRequire } from "node:module";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { startMockLlm } from "../mock/llm.mjs";
import { ARGS, CHROMIUM } from "./helpers.mjs";
import { BUILD_FIRST } from "./server.mjs";

const require = createRequire(import.meta.url);
const { chromium } = require("playwright-core");

const HERE = path.dirname(fileURLToPath(import.meta.url));
const REPO = path.resolve(HERE, "../..");
const DIST = path.join(REPO, "dist");
const BUILD = path.join(REPO, "examples/docs-site/build.mjs");
const OUT = path.join(HERE, "out");


const DESKTOP = { width: 1366, height: 850 };
const PHONE = { width: 390, height: 844 };

/** The documentation pages, by file, with their titles: what docs.json must hold. */
const PAGES = {
  "commands.html": "plink commands and flags",
  "configuration.html": "Configuring plink",
  "faq.html": "plink FAQ",
  "index.html": "plink overview",
  "install.html": "Install plink",
  "quickstart.html": "plink quick start",
  "troubleshooting.html": "Troubleshooting plink",
};

/** The transcript the reader types in the "You" test. */
const QUESTION = "How do I make plink skip every link to twitter.com?";
const SEARCH = "Thought: I should look up how plink skips links.\nAction: search_docs\nAction Input: skip links ignore";
const ANSWER = "Add '^https://twitter\\.com/' to the ignore list in plink.toml, or pass --ignore '^https://twitter\\.com/' (configuration.html).";

let site; // { dir, url, close }
let browser;

before(async () => {
  if (!fs.existsSync(path.join(DIST, "tao.js"))) {
    throw new Error(`dist/tao.js is missing: ${BUILD_FIRST}`);
  }
  fs.mkdirSync(OUT, { recursive: true });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tao-docs-site-"));
  execFileSync(process.execPath, [BUILD, dir, DIST], { stdio: ["ignore", "ignore", "inherit"] });
  site = await serve(dir);
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
});

after(async () => {
  await browser?.close();
  await site?.close();
  if (site) fs.rmSync(site.dir, { recursive: true, force: true });
});

test("the build indexes each documentation page's <main> as plain text", () => {
  const docs = JSON.parse(fs.readFileSync(path.join(site.dir, "docs.json"), "utf8"));
  assert.deepEqual(Object.fromEntries(docs.map((d) => [d.url, d.title])), PAGES, "one entry per page; ask.html (noindex) left out");
  for (const doc of docs) {
    assert.doesNotMatch(doc.text, /<\/?(p|code|li|h[1-6]|pre|dt|dd|a|strong|main)\b|&[a-z]+;|\s{2}/, `${doc.url}: no markup, no entity, no double space`);
    assert.doesNotMatch(doc.text, /Documentation|a link checker for static sites|made-up tool/, `${doc.url}: only <main> (no nav, header or footer)`);
  }
  const config = docs.find((d) => d.url === "configuration.html").text;
  // Entities decoded, inline code kept inside its sentence, blocks separated by a space.
  assert.match(config, /The file named by --config <FILE> or PLINK_CONFIG\. plink\.toml in the current folder/);
  // Every link in the nav of every page (and the ask page) leads to a file of the built site.
  for (const file of [...Object.keys(PAGES), "ask.html"]) {
    const html = fs.readFileSync(path.join(site.dir, file), "utf8");
    for (const [, href] of html.matchAll(/href="([^"#:]+)"/g)) {
      assert.ok(fs.existsSync(path.join(site.dir, href)), `${file} links to ${href}, which the build did not write`);
    }
  }
});

test("You play the model: search_docs finds the right page, the final answer ends the run", async () => {
  const { page, problems, requests, close } = await openAsk(DESKTOP);
  const done = await whenDone(page);
  await page.fill("tao-agent textarea#task", QUESTION);
  await page.click("tao-agent [data-run]");

  // Step 1: the prompt shown to the reader names the tool; the reply searches the docs.
  const human = page.locator('tao-agent [data-kind="human"]');
  await human.waitFor();
  assert.match(await human.textContent(), /search_docs/);
  await page.fill("tao-agent textarea[data-reply]", SEARCH);
  await page.click("tao-agent [data-send]");

  // The observation is the configuration page, found in the site's own docs.json.
  const observation = page.locator('tao-agent [data-kind="observation"]');
  await observation.waitFor();
  const seen = await observation.textContent();
  assert.match(seen, /\[1\] Configuring plink — configuration\.html/);
  assert.match(seen, /twitter\\\.com/);

  // Step 2: the answer.
  await page.locator('tao-agent textarea[data-reply]').waitFor();
  await page.fill("tao-agent textarea[data-reply]", `Thought: The configuration page says it.\nFinal Answer: ${ANSWER}`);
  await page.click("tao-agent [data-send]");
  const trajectory = await done();
  assert.equal(trajectory.stop.reason, "answer");
  assert.equal(trajectory.answer, ANSWER);
  assert.equal(trajectory.task, QUESTION);
  assert.deepEqual(trajectory.steps.map((s) => s.tool_calls[0]?.action.tool ?? null), ["search_docs", null]);
  assert.equal(trajectory.steps[0].tool_calls[0].observation, seen.slice(seen.indexOf("[1]")), "the card shows the observation the model got");
  assert.equal(trajectory.stats.n_badcalls, 0);
  assert.match(await page.textContent('tao-agent [data-kind="answer"]'), /to the ignore list in plink\.toml/);
  assert.equal(await page.textContent("tao-agent [part~=status]"), "Answered in 2 steps.");

  // Offline: every request went to the site itself, and search_docs read its docs.json.
  assert.deepEqual(requests.filter((u) => !u.startsWith(site.url)), [], "requests to other servers");
  assert.ok(requests.includes(`${site.url}docs.json`), "docs.json was fetched");
  assert.deepEqual(problems, []);
  await close();
});

test("the site's stylesheet does not reach inside <tao-agent>", async () => {
  const { page, problems, close } = await openAsk(DESKTOP);
  await page.click("tao-agent [data-run]"); // the reader's card (reply box, Send) is drawn too
  await page.locator("tao-agent textarea[data-reply]").waitFor();

  const sheet = () => page.evaluate(() => Boolean(document.querySelector('link[href="style.css"]')?.sheet));
  assert.ok(await sheet(), "style.css is loaded");
  const inside = await page.evaluate(shadowStyles);
  const examples = await page.evaluate(lightStyles);
  await page.evaluate(() => {
    const link = /** @type {HTMLLinkElement} */ (document.querySelector('link[href="style.css"]'));
    link.disabled = true;
  });
  const insideBare = await page.evaluate(shadowStyles);
  const examplesBare = await page.evaluate(lightStyles);

  // The probe reaches what it should: the Run button, the task box, the reply box, Send, …
  assert.ok(Object.keys(inside).length >= 8, `probed ${Object.keys(inside).join(", ")}`);
  assert.deepEqual(inside, insideBare, "computed styles inside the shadow root, with the site's sheet vs without");
  // Control: the same comparison sees the sheet where it does apply, on the page's own button.
  assert.notDeepEqual(examples, examplesBare, "the site's sheet styles the page's buttons");
  assert.equal(examples["text-transform"], "uppercase");
  assert.deepEqual(problems, []);
  await close();
});

test("with a provider: the settings form runs an OpenAI-compatible endpoint, the key only in its header", async () => {
  const KEY = "sk-docs-site-4f8a1c2e9b7d";
  const mock = await startMockLlm({ port: 0, delayMs: 0 });
  const { page, problems, requests, close } = await openAsk(DESKTOP);
  try {
    assert.equal(await page.isHidden("#provider-fields"), true, "You need no provider fields");
    await page.selectOption("#provider", "openai");
    assert.equal(await page.isVisible("#provider-fields"), true);
    // The placeholders are the core's defaults (`providers()`).
    assert.equal(await page.getAttribute("#base-url", "placeholder"), "https://api.openai.com/v1");
    await page.fill("#base-url", `${mock.url}/v1`);
    await page.fill("#model", "react-mrkl");
    await page.fill("#api-key", KEY);
    await page.press("#api-key", "Enter"); // a submit must not reload the page (or put anything in the URL)
    const agent = page.locator("tao-agent");
    assert.equal(await agent.getAttribute("provider"), "openai");
    assert.equal(await agent.getAttribute("base-url"), `${mock.url}/v1`);
    assert.equal(await agent.getAttribute("model"), "react-mrkl");

    // The mock's script searches Wikipedia with `search` (the core's offline pages answer it):
    // the page's search_docs stays, and is in the prompt the endpoint receives.
    await page.evaluate(() => document.querySelector("tao-agent")?.setAttribute("tools", "search_docs search"));
    const done = await whenDone(page);
    await page.fill("tao-agent textarea#task", "What is the hometown of the current CEO of Apple Inc.?");
    await page.click("tao-agent [data-run]");
    const trajectory = await done();
    assert.equal(trajectory.stop.reason, "answer");
    assert.equal(trajectory.answer, "Mobile, Alabama");
    assert.deepEqual(trajectory.steps.map((s) => s.tool_calls[0]?.action.tool ?? null), ["search", "search", null]);
    assert.equal(trajectory.model, "openai:react-mrkl");

    const calls = mock.log.filter((r) => r.method === "POST");
    assert.equal(calls.length, 3);
    for (const call of calls) {
      assert.equal(call.path, "/v1/chat/completions");
      assert.equal(call.headers.authorization, `Bearer ${KEY}`);
      assert.equal(call.json.model, "react-mrkl");
      assert.match(call.json.messages[0].content, /search_docs/);
    }
    // The key went nowhere else: not in the URL, storage, the element's attributes or the trajectory.
    assert.equal(page.url(), `${site.url}ask.html`);
    const stored = await page.evaluate(() => JSON.stringify([{ ...localStorage }, { ...sessionStorage }, document.cookie]));
    assert.equal(stored, '[{},{},""]');
    const markup = await page.evaluate(() => document.documentElement.outerHTML + document.querySelector("tao-agent")?.shadowRoot?.innerHTML);
    assert.ok(!markup.includes(KEY), "the key is not in the page's markup or the element's shadow tree");
    assert.ok(!JSON.stringify(trajectory).includes(KEY), "the key is not in the trajectory");
    assert.deepEqual(requests.filter((u) => !u.startsWith(site.url) && !u.startsWith(mock.url)), []);

    // Back to You: the provider's fields fold away and the element forgets the key.
    await page.selectOption("#provider", "human");
    assert.equal(await page.isHidden("#provider-fields"), true);
    assert.equal(await page.evaluate(() => document.querySelector("tao-agent")?.apiKey), "");
    assert.equal(await agent.getAttribute("base-url"), null);
    assert.deepEqual(problems, []);
  } finally {
    await close();
    await mock.close();
  }
});

test("screenshots of the ask page and a documentation page, desktop and phone", async () => {
  for (const [name, viewport] of [["desktop", DESKTOP], ["phone", PHONE]]) {
    const { page, problems, close } = await openAsk(viewport);
    await page.screenshot({ path: path.join(OUT, `docs-site-ask-${name}.png`) });
    await noSidewaysScroll(page, `ask.html at ${viewport.width}px`);
    await page.selectOption("#provider", "anthropic"); // the provider's fields, then back to You
    await page.locator("#settings").screenshot({ path: path.join(OUT, `docs-site-settings-${name}.png`) });
    await noSidewaysScroll(page, `ask.html with a provider's fields at ${viewport.width}px`);
    await page.selectOption("#provider", "human");

    // After a run played by the reader: the search, its observation, the answer.
    const done = await whenDone(page);
    await page.click("tao-agent [data-run]");
    await page.fill("tao-agent textarea[data-reply]", SEARCH);
    await page.click("tao-agent [data-send]");
    await page.locator('tao-agent [data-kind="observation"]').waitFor();
    await page.evaluate(() => window.scrollTo(0, 0)); // (the nav is sticky: a full-page shot draws it where the window is)
    await page.screenshot({ path: path.join(OUT, `docs-site-ask-${name}-reply.png`), fullPage: true });
    await page.fill("tao-agent textarea[data-reply]", `Final Answer: ${ANSWER}`);
    await page.click("tao-agent [data-send]");
    assert.equal((await done()).stop.reason, "answer");
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: path.join(OUT, `docs-site-ask-${name}-done.png`), fullPage: true });
    await noSidewaysScroll(page, `ask.html after a run at ${viewport.width}px`);

    await page.goto(`${site.url}configuration.html`);
    await page.screenshot({ path: path.join(OUT, `docs-site-page-${name}.png`), fullPage: true });
    await noSidewaysScroll(page, `configuration.html at ${viewport.width}px`);
    assert.deepEqual(problems, []);
    await close();
  }
});

// ---------------------------------------------------------------------------------------------

/**
 * Serves `dir` on a free 127.0.0.1 port, as any static host would: files only, with their
 * content types (the wasm as application/wasm, which streaming compilation requires).
 */
async function serve(dir) {
  const TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".json": "application/json",
    ".wasm": "application/wasm",
    ".md": "text/markdown; charset=utf-8",
    ".ts": "text/plain; charset=utf-8",
  };
  const server = http.createServer((req, res) => {
    const { pathname } = new URL(req.url, "http://localhost");
    const file = path.join(dir, decodeURIComponent(pathname).replace(/\/$/, "/index.html"));
    const type = TYPES[path.extname(file)];
    if (!file.startsWith(dir + path.sep) || !type || !fs.statSync(file, { throwIfNoEntry: false })?.isFile()) {
      res.writeHead(404, { "Content-Type": "text/plain; charset=utf-8" }).end("not found");
      return;
    }
    res.writeHead(200, { "Content-Type": type, "Cache-Control": "no-store" });
    fs.createReadStream(file).pipe(res);
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    dir,
    url: `http://127.0.0.1:${server.address().port}/`,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

/**
 * Opens ask.html in a fresh context and waits until the element has loaded the wasm. Page
 * errors and console errors go to `problems`, every request's URL to `requests`.
 */
async function openAsk(viewport) {
  const context = await browser.newContext({ viewport, deviceScaleFactor: 1 });
  const page = await context.newPage();
  const problems = [];
  const requests = [];
  page.on("pageerror", (e) => problems.push(`page error: ${e}`));
  page.on("console", (m) => {
    if (m.type() === "error") problems.push(`console error: ${m.text()}`);
  });
  page.on("request", (r) => requests.push(r.url()));
  await page.goto(`${site.url}ask.html`);
  await page.waitForFunction(() => customElements.get("tao-agent"));
  await page.evaluate(() => document.querySelector("tao-agent")?.ready);
  return { page, problems, requests, close: () => context.close() };
}

/**
 * Starts listening for the element's next `tao-done`; returns a function that waits for it and
 * gives its trajectory. (Listening must start before Run: a run may end before the next await.)
 */
async function whenDone(page) {
  await page.evaluate(() => {
    window.taoDone = new Promise((resolve) => {
      document.querySelector("tao-agent")?.addEventListener("tao-done", (e) => resolve(e.detail), { once: true });
    });
  });
  return () => page.evaluate(() => window.taoDone);
}

/**
 * Computed styles of the parts of the element's shadow tree, by a selector for each, once its
 * transitions have ended (Run has just enabled Stop, whose colours fade in).
 */
async function shadowStyles() {
  const PROPS = [
    "font-family", "font-size", "font-weight", "font-style", "line-height", "letter-spacing",
    "text-transform", "text-align", "text-decoration-line", "color", "background-color",
    "border-top-width", "border-top-style", "border-top-color", "border-top-left-radius",
    "padding-top", "padding-left", "margin-top", "margin-bottom", "box-sizing", "display", "cursor",
  ];
  const root = document.querySelector("tao-agent")?.shadowRoot;
  await Promise.all((root?.getAnimations() ?? []).map((a) => a.finished));
  const probes = [
    "[part~=form]", "[part~=label]", "[part~=task]", "[part~=run]", "[part~=stop]", "[part~=status]",
    '[data-kind="human"]', '[data-kind="human"] .card-text', "textarea[data-reply]", "[data-send]",
    '[data-kind="human"] summary',
  ];
  const styles = {};
  for (const selector of probes) {
    const node = root?.querySelector(selector);
    if (!node) continue;
    const style = getComputedStyle(node);
    styles[selector] = Object.fromEntries(PROPS.map((p) => [p, style.getPropertyValue(p)]));
  }
  return styles;
}

/** The computed style of the page's first example button (outside the element). */
function lightStyles() {
  const style = getComputedStyle(document.querySelector("button[data-question]"));
  return Object.fromEntries(["font-family", "text-transform", "background-color", "color"].map((p) => [p, style.getPropertyValue(p)]));
}

async function noSidewaysScroll(page, what) {
  const [scroll, width] = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
  assert.ok(scroll <= width, `${what}: the page scrolls sideways (${scroll}px wide in a ${width}px window)`);
}

// The package (dist/, `make dist`) as a web developer uses it, in headless Chromium: pages
// served from a folder that holds nothing of tao's but a copy of dist/.
//
//   node --test tests/e2e/embed.test.mjs   (needs dist/: build it first with `make dist`)
//
// Index:
//   README        the package README's first Agent example pasted into a page as it is
//   Agent         a page written from the README: init, Agent, a JS model, its own JS tool
//   <tao-agent>   a scenario with autorun: the cards in its shadow root, tao-* events on the
//                 document; its own tool and model function; a bad setting → tao-error
//   isolation     the host page's computed styles are the same with and without the element, and
//                 the host's element rules do not reach inside; ::part and custom properties do;
//                 a hostile host (`* { font: 20px serif; color: red }`, `button { display: none }`)
//                 leaves the text inside as designed; the styles come with the code (no <link>)
//   early props   model, apiKey, options, replies and theme set before the element is defined
//   theme         theme="dark" / "light" / "auto": the palette inside, whatever the system says
//   errors        an unknown scenario says so (and sends tao-error) before Run; a wasm or data
//                 file that fails to load sends tao-error (kind "load") and shows why
//   markdown      an answer's Markdown drawn as elements (bold, italic, code, lists, links with
//                 rel=noopener); <script> and <img onerror> in it stay text and never run
//   trajectory    <tao-trajectory> alone on a page: styled (light and dark), and the host page's
//                 computed styles, even of its own `.card` and `.error`, unchanged
//   exports       every name tao.js exports is declared in tao.d.ts, and the other way round
//   npm pack      the tarball installs offline into an empty folder; Node resolves and imports
//                 it; a page imports it through an import map and runs
//   other origin  the files served from another origin with CORS run; without it they do not
//   looks         screenshots (desktop 1366×850, phone 390×844; light English, dark Chinese, a
//                 Markdown answer with theme="dark" and "light" against the system's, a
//                 trajectory alone) in tests/e2e/out/embed-*.png, and axe-core finds no violation

import { describe, it, before, after } from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { REPO_ROOT, requireBuilt } from "./server.mjs";
import { OUT, ARGS, CHROMIUM } from "./helpers.mjs";

const require = createRequire(import.meta.url);
const { chromium } = require("playwright-core");

const DIST = path.join(REPO_ROOT, "dist");

const TYPES = { ".html": "text/html", ".js": "text/javascript", ".mjs": "text/javascript", ".css": "text/css",
  ".wasm": "application/wasm", ".json": "application/json", ".ts": "text/plain" };

/**
 * A static server for `root` on a free port; `cors` adds Access-Control-Allow-Origin: *; the
 * paths in `hide` answer 404 (a file a site forgot to copy).
 */
function serve(root, { cors = false, hide = [] } = {}) {
  const server = http.createServer((req, res) => {
    const pathname = decodeURIComponent(new URL(req.url, "http://x").pathname);
    if (pathname === "/favicon.ico") return res.writeHead(204).end(); // asked by every page
    const file = path.join(root, pathname);
    if (!file.startsWith(root) || !fs.existsSync(file) || fs.statSync(file).isDirectory() || hide.includes(pathname)) {
      res.writeHead(404).end("not found");
      return;
    }
    const headers = { "Content-Type": TYPES[path.extname(file)] ?? "application/octet-stream", "Cache-Control": "no-store" };
    if (cors) headers["Access-Control-Allow-Origin"] = "*";
    res.writeHead(200, headers);
    fs.createReadStream(file).pipe(res);
  });
  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      resolve({ url: `http://127.0.0.1:${server.address().port}/`, close: () => new Promise((r) => server.close(r)) });
    });
  });
}

/** A fresh folder holding a copy of dist/ (as `dist/`) and the given pages. */
function site(pages) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "tao-embed-"));
  fs.cpSync(DIST, path.join(root, "dist"), { recursive: true });
  // Where the package's README tells a static site to copy the folder.
  fs.symlinkSync(path.join(root, "dist"), path.join(root, "tao-agent"));
  for (const [name, html] of Object.entries(pages)) fs.writeFileSync(path.join(root, name), html);
  return root;
}

/** A page in a new context that records errors; `problems` lists them. */
async function open(browser, url, { colorScheme = "light" } = {}) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, colorScheme });
  const page = await context.newPage();
  page.problems = [];
  page.on("pageerror", (e) => page.problems.push(`pageerror: ${e}`));
  page.on("console", (m) => {
    if (m.type() === "error") page.problems.push(`console: ${m.text()}`);
  });
  await page.goto(url);
  return page;
}

// A model that searches once with the page's own tool, then answers from what it observed.
const TWO_STEP_MODEL = `async (messages) => {
  const last = messages[messages.length - 1].content;
  if (!last.includes("Observation")) return "Thought: I should ask the stock tool.\\nAction: stock\\nAction Input: {\\"query\\": \\"green tea\\"}";
  const seen = last.match(/Observation: (.*)/)[1];
  return "Thought: I know it now.\\nFinal Answer: We have " + seen + ".";
}`;

const STOCK_TOOL = `({ name: "stock", description: "Today's stock of a product.",
  parameters: { type: "object", properties: { query: { type: "string" } }, required: ["query"] } }),
  ({ query }) => (query.includes("tea") ? "12 tins" : "none")`;

/**
 * A final answer in Markdown, with markup that must stay text: a <script> and an <img onerror>
 * that would set `window.pwned`, and a javascript: link.
 */
const MARKDOWN_ANSWER = [
  "Thought: I can say it now.",
  "Final Answer: The **green tea** is in *stock*:",
  "",
  "- 12 tins of `sencha`",
  "- 3 tins of [matcha](https://example.com/tea_(matcha))",
  "",
  "1. open a tin",
  "2. brew it",
  "",
  "```",
  "let tins = 12 < 15;",
  "```",
  "",
  `<script>window.pwned = 1</script> <img src="x" onerror="window.pwned = 2">`,
  "[click me](javascript:window.pwned=3)",
].join("\n");

/** What the computed style of text inside the element is made of. */
const TEXT_PROPS = ["font-size", "font-family", "font-weight", "color", "line-height", "letter-spacing", "text-align", "display"];

/** The computed `TEXT_PROPS` of a few pieces of text inside the first `<tao-agent>`, by selector. */
function textInside(page) {
  return page.evaluate((props) => {
    const root = document.querySelector("tao-agent").shadowRoot;
    const pieces = [".card-thought .card-text", ".card-observation pre", ".card-answer .answer-text", ".card-thought .card-label",
      ".step-title", "[part~=label]", "textarea", "[part~=run]", "[part~=status]"];
    return Object.fromEntries(pieces.map((sel) => {
      const style = getComputedStyle(root.querySelector(sel));
      return [sel, Object.fromEntries(props.map((p) => [p, style.getPropertyValue(p)]))];
    }));
  }, TEXT_PROPS);
}

/** The colours (light and dark palettes of www/style.css) as the browser computes them. */
const LIGHT = { bg: "rgb(247, 247, 245)", text: "rgb(31, 35, 40)", thought: "rgb(79, 70, 229)" };
const DARK = { bg: "rgb(17, 19, 21)", text: "rgb(230, 232, 235)", thought: "rgb(165, 176, 255)" };

// The package README's first JS example, as a reader pastes it into a page beside the folder.
const README_JS = fs.readFileSync(path.join(REPO_ROOT, "embed/README.md"), "utf8").match(/```js\n([\s\S]*?)```/)[1];

// api.md's example of an Agent with the page's tools (run_js, units), as written.
const API_PAGE_TOOLS_JS = fs.readFileSync(path.join(REPO_ROOT, "docs/api.md"), "utf8").match(/```js\n(import \{ codeTool [\s\S]*?)```/)[1];

const PAGES = {
  // The bare names it imports resolve through an import map, as they would through a bundler.
  "api-page-tools.html": `<!doctype html><meta charset="utf-8"><title>page tools</title>
    <script type="importmap">{ "imports": { "tao-agent/code-tool": "./tao-agent/code-tool.js", "tao-agent/wasm-tool": "./tao-agent/wasm-tool.js" } }</script>
    <script type="module">
    import { init, Agent, fetchOfflineData, scenarios } from "./tao-agent/tao.js";
    await init();
    await fetchOfflineData(["scenarios"]);
    const agent = new Agent({ scenario: "stock-chart" });
    ${API_PAGE_TOOLS_JS}
    const task = (name) => scenarios("en").find((s) => s.name === name).task;
    const other = new Agent({ scenario: "units" });
    other.registerTool(units.spec, units.fn);
    const runs = [];
    for (const [a, name] of [[agent, "stock-chart"], [other, "units"]]) {
      const t = await a.run(task(name));
      runs.push({ stop: t.stop.reason, observations: t.steps.flatMap((s) => s.tool_calls.map((c) => c.observation)).join("\\n") });
    }
    window.result = runs;
  </script>`,
  "readme.html": `<!doctype html><meta charset="utf-8"><title>readme</title><script type="module">
    ${README_JS}
    window.result = { answer: trajectory.answer, tools: (await agent.tools()).map((t) => t.name) };
  </script>`,
  // The README's "Agent class" example, with a model function and a tool of the page's own.
  "agent.html": `<!doctype html><meta charset="utf-8"><title>agent</title><script type="module">
    import { init, Agent } from "./dist/tao.js";
    await init();
    const agent = new Agent({ format: "mrkl", maxSteps: 4, tools: ["stock"], model: ${TWO_STEP_MODEL} });
    agent.registerTool(${STOCK_TOOL});
    const events = [];
    const trajectory = await agent.run("How much green tea is there?", { onEvent: (e) => events.push(e.type) });
    window.result = { answer: trajectory.answer, reason: trajectory.stop.reason, events,
      observation: trajectory.steps[0].tool_calls[0].observation };
  </script>`,
  // The README's five lines: a scenario that runs by itself.
  "zh.html": `<!doctype html><html lang="zh-CN"><meta charset="utf-8"><title>zh</title><body style="margin: 16px">
    <script type="module" src="dist/tao.js"></script>
    <main><h1>问答</h1><tao-agent scenario="apple-ceo" lang="zh" autorun></tao-agent></main>`,
  "element.html": `<!doctype html><html lang="en"><meta charset="utf-8"><title>element</title>
    <script>window.seen = []; for (const t of ["tao-step", "tao-model_call", "tao-thought", "tao-action", "tao-observation", "tao-answer", "tao-stopped", "tao-done"])
      document.addEventListener(t, (e) => window.seen.push(e.type + (e.composed && e.bubbles ? "" : "!")));</script>
    <script type="module" src="dist/tao.js"></script>
    <main><h1>Ask</h1><tao-agent scenario="apple-ceo" autorun></tao-agent></main>`,
  // A host page with styles of its own, and one element that the test adds later.
  "host.html": `<!doctype html><meta charset="utf-8"><title>host</title>
    <style>
      body { font: 17px/1.3 Georgia, serif; color: rgb(10, 20, 30); background: rgb(250, 240, 230); margin: 12px; }
      p { margin: 7px 0; letter-spacing: 0.5px; } button { background: rgb(255, 0, 0); font-size: 21px; }
      textarea { border: 3px solid rgb(0, 0, 255); } article, header, section { padding: 9px; }
      tao-agent.styled::part(run) { background: rgb(1, 2, 3); }
      tao-agent.styled { --thought: rgb(4, 5, 6); }
    </style>
    <script type="module" src="dist/tao.js"></script>
    <header><p class="probe">Host page</p><button class="probe">A host button</button><textarea class="probe"></textarea></header>`,
  // A host page hostile to any element on it: every inherited property set on everything.
  "hostile.html": `<!doctype html><html lang="en"><meta charset="utf-8"><title>hostile</title>
    <style>* { font: 20px serif; color: red; letter-spacing: 3px; text-align: right; } button { display: none; }</style>
    <script type="module" src="dist/tao.js"></script>
    <main><h1>Ask</h1><tao-agent scenario="apple-ceo" autorun></tao-agent></main>`,
  // Properties set before the package is loaded (a lazy import, a CDN, a framework): the element
  // is defined only after the page's script has set them.
  "early.html": `<!doctype html><html lang="en"><meta charset="utf-8"><title>early</title>
    <main><h1>Early</h1><tao-agent id="fn" tools="calculator" task="What is 6 times 7?"></tao-agent>
    <tao-agent id="replies" task="Say hi"></tao-agent></main>
    <script>
      window.errors = [];
      document.addEventListener("tao-error", (e) => window.errors.push(e.detail.message));
      const fn = document.getElementById("fn");
      fn.model = async () => "Thought: I will compute it.\\nAction: calculator\\nAction Input: 6*7";
      fn.options = { maxSteps: 1 };
      fn.apiKey = "sk-early-000";
      fn.theme = "dark";
      document.getElementById("replies").replies = ["Final Answer: hi from the replies"];
      window.definedBefore = Boolean(customElements.get("tao-agent"));
    </script>
    <script type="module">await import("./dist/tao.js");</script>`,
  // The three themes side by side, each running a scenario.
  "themes.html": `<!doctype html><html lang="en"><meta charset="utf-8"><title>themes</title>
    <script type="module" src="dist/tao.js"></script>
    <main><h1>Themes</h1>
    <tao-agent id="dark" theme="dark" scenario="apple-ceo" autorun></tao-agent>
    <tao-agent id="light" theme="light" scenario="apple-ceo" autorun></tao-agent>
    <tao-agent id="auto" scenario="apple-ceo" autorun></tao-agent></main>`,
  // A misspelled scenario; and (served with a file missing) a scenario whose data cannot load.
  "scenario.html": `<!doctype html><html lang="en"><meta charset="utf-8"><title>scenario</title>
    <script>window.errors = []; document.addEventListener("tao-error", (e) => window.errors.push(e.detail));</script>
    <script type="module" src="dist/tao.js"></script>
    <main><h1>Ask</h1><tao-agent scenario="apple-ceo-typo"></tao-agent></main>`,
  "load.html": `<!doctype html><html lang="en"><meta charset="utf-8"><title>load</title>
    <script>window.errors = []; document.addEventListener("tao-error", (e) => window.errors.push(e.detail));</script>
    <script type="module" src="dist/tao.js"></script>
    <main><h1>Ask</h1><tao-agent scenario="apple-ceo" autorun></tao-agent></main>`,
  // A model that answers in Markdown, with markup that must stay text; the theme from the query.
  "markdown.html": `<!doctype html><html lang="en"><meta charset="utf-8"><title>markdown</title>
    <script type="module" src="dist/tao.js"></script>
    <main><h1>Stock</h1><tao-agent task="What tea is in stock?" autorun></tao-agent></main>
    <script type="module">
      window.pwned = 0;
      const el = document.querySelector("tao-agent");
      const theme = new URLSearchParams(location.search).get("theme");
      if (theme) el.theme = theme;
      el.model = async () => ${JSON.stringify(MARKDOWN_ANSWER).replaceAll("<", "\\u003c")};
    </script>`,
  // <tao-trajectory> alone, on a page with styles of its own and classes that are also tao's.
  "alone.html": `<!doctype html><html lang="en"><meta charset="utf-8"><title>alone</title>
    <style>
      body { font: 17px/1.3 Georgia, serif; color: rgb(10, 20, 30); background: rgb(250, 240, 230); margin: 12px; }
      p { margin: 7px 0; } button { background: rgb(255, 0, 0); font-size: 21px; }
    </style>
    <header><p class="probe">Host page</p><button class="probe">A host button</button>
      <div class="card probe">A host card</div><p class="error probe">A host error</p><section class="step probe">A host step</section></header>
    <main><h1>A trajectory</h1><h2>Its steps</h2></main>
    <script type="module">
      import { init, Agent } from "./dist/tao.js";
      window.draw = async (theme) => {
        await init();
        const view = document.createElement("tao-trajectory");
        if (theme) view.setAttribute("theme", theme);
        document.querySelector("main").append(view);
        const agent = new Agent({ format: "mrkl", maxSteps: 4, tools: ["stock"], model: ${TWO_STEP_MODEL} });
        agent.registerTool(${STOCK_TOOL});
        const trajectory = await agent.run("How much green tea is there?", { onEvent: (e) => view.handleEvent(e) });
        view.render(trajectory);
        return trajectory.answer;
      };
    </script>`,
  // Two elements in two languages, running at once.
  "two-langs.html": `<!doctype html><html lang="en"><meta charset="utf-8"><title>two languages</title>
    <script type="module" src="dist/tao.js"></script>
    <tao-agent id="en" scenario="apple-ceo"></tao-agent>
    <tao-agent id="zh" scenario="apple-ceo" lang="zh"></tao-agent>`,
  // The scenarios whose tools the demo page adds in JS (run_js, units), in the element.
  "page-tools.html": `<!doctype html><html lang="en"><meta charset="utf-8"><title>page tools</title>
    <script type="module" src="dist/tao.js"></script>
    <tao-agent scenario="code"></tao-agent>
    <tao-agent scenario="stock-chart"></tao-agent>
    <tao-agent scenario="units" lang="zh"></tao-agent>`,
  // One element, to change its language and run it with an empty task.
  "one.html": `<!doctype html><html lang="en"><meta charset="utf-8"><title>one</title>
    <script type="module" src="dist/tao.js"></script>
    <tao-agent scenario="apple-ceo"></tao-agent>`,
  // The element with a tool and a model of the page's own.
  "tool.html": `<!doctype html><meta charset="utf-8"><title>tool</title>
    <script type="module" src="dist/tao.js"></script>
    <tao-agent tools="stock" max-steps="4" task="How much green tea is there?"></tao-agent>
    <script type="module">
      const el = document.querySelector("tao-agent");
      el.registerTool(${STOCK_TOOL});
      el.model = ${TWO_STEP_MODEL};
      el.addEventListener("tao-done", (e) => (window.done = e.detail));
      el.addEventListener("tao-error", (e) => (window.failed = e.detail));
    </script>`,
};

describe("the package (dist/) in a page", () => {
  let browser;
  let server;
  let root;

  before(async () => {
    requireBuilt("dist/tao.js");
    root = site(PAGES);
    server = await serve(root);
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
  });

  after(async () => {
    await browser?.close();
    await server?.close();
    fs.rmSync(root, { recursive: true, force: true });
  });

  it("runs api.md's example of an Agent with the demo page's tools (stock-chart, units), as written", async () => {
    const page = await open(browser, server.url + "api-page-tools.html");
    const [chart, units] = await page.waitForFunction(() => window.result, null, { timeout: 30000 }).then((h) => h.jsonValue());
    assert.equal(chart.stop, "answer");
    assert.match(chart.observations, /Plotted a line chart/, "stock-chart read its file");
    assert.equal(units.stop, "answer");
    assert.match(units.observations, /26\.2/, "42.195 km in miles");
    assert.deepEqual(page.problems, []);
    await page.context().close();
  });

  it("runs the package README's Agent example as written, beside the copied folder", async () => {
    const page = await open(browser, server.url + "readme.html");
    const result = await page.waitForFunction(() => window.result, null, { timeout: 20000 }).then((h) => h.jsonValue());
    assert.deepEqual(result, { answer: "42", tools: ["docs"] });
    assert.deepEqual(page.problems, []);
    await page.context().close();
  });

  it("runs an Agent with its own model function and tool, as the README shows", async () => {
    const page = await open(browser, server.url + "agent.html");
    const result = await page.waitForFunction(() => window.result, null, { timeout: 20000 }).then((h) => h.jsonValue());
    assert.equal(result.reason, "answer");
    assert.equal(result.answer, "We have 12 tins.");
    assert.equal(result.observation, "12 tins");
    for (const type of ["step", "model_call", "thought", "action", "observation", "answer", "stopped"]) assert.ok(result.events.includes(type), type);
    assert.deepEqual(page.problems, []);
    await page.context().close();
  });

  it("<tao-agent autorun> runs its scenario, draws the cards in its shadow root and sends tao-* events", async () => {
    const page = await open(browser, server.url + "element.html");
    await page.waitForFunction(() => window.seen.includes("tao-done"), null, { timeout: 20000 });
    const seen = await page.evaluate(() => window.seen);
    for (const type of ["tao-step", "tao-model_call", "tao-thought", "tao-action", "tao-observation", "tao-answer", "tao-stopped", "tao-done"]) {
      assert.ok(seen.includes(type), `${type} reached the document, bubbling and composed (seen: ${seen.join(" ")})`);
    }
    const inside = await page.evaluate(() => {
      const el = document.querySelector("tao-agent");
      const root = el.shadowRoot;
      return {
        answer: root.querySelector(".card-answer .answer-text")?.textContent,
        task: root.querySelector("textarea").value,
        status: root.querySelector('[part~="status"]').textContent,
        kinds: Array.from(root.querySelectorAll(".card"), (c) => c.dataset.kind),
        trajectory: el.trajectory?.stop?.reason,
        light: document.querySelectorAll(".card").length, // nothing drawn into the host page
      };
    });
    assert.match(inside.answer, /Mobile, Alabama/);
    assert.match(inside.task, /Apple/);
    assert.match(inside.status, /Answered in \d+ steps/);
    assert.equal(inside.trajectory, "answer");
    assert.ok(inside.kinds.includes("thought") && inside.kinds.includes("action") && inside.kinds.includes("observation"));
    assert.equal(inside.light, 0);
    assert.deepEqual(page.problems, []);
    await page.context().close();
  });

  it("two <tao-agent>s in English and Chinese, running at once, each draw their cards in their own language", async () => {
    const page = await open(browser, server.url + "two-langs.html");
    const labels = await page.evaluate(async () => {
      await customElements.whenDefined("tao-agent");
      const [en, zh] = [document.getElementById("en"), document.getElementById("zh")];
      await Promise.all([en.run(), zh.run()]);
      const words = (el) => Array.from(el.shadowRoot.querySelectorAll(".card-label, .step-title"), (n) => n.textContent.trim());
      return { en: words(en), zh: words(zh) };
    });
    assert.ok(labels.en.includes("Thought") && labels.en.includes("Step 1"), `English: ${labels.en.join(", ")}`);
    assert.ok(!labels.en.some((w) => /[\u4e00-\u9fff]/.test(w)), `no Chinese in the English element: ${labels.en.join(", ")}`);
    assert.ok(labels.zh.includes("思考") && labels.zh.includes("第 1 步"), `Chinese: ${labels.zh.join(", ")}`);
    assert.deepEqual(page.problems, []);
    await page.context().close();
  });

  it("<tao-agent> runs the scenarios whose tools the demo page adds (run_js, units), from the package's files", async () => {
    const page = await open(browser, server.url + "page-tools.html");
    const runs = await page.evaluate(async () => {
      await customElements.whenDefined("tao-agent");
      const elements = [...document.querySelectorAll("tao-agent")];
      const done = await Promise.all(elements.map((el) => el.run()));
      return done.map((t, k) => ({
        stop: t.stop?.reason,
        answer: t.answer,
        tools: t.steps.flatMap((s) => s.tool_calls.map((c) => c.action.tool)),
        observations: t.steps.flatMap((s) => s.tool_calls.map((c) => c.observation)).join("\n"),
      }));
    });
    const [code, chart, units] = runs;
    assert.deepEqual([code.stop, chart.stop, units.stop], ["answer", "answer", "answer"], JSON.stringify(runs));
    assert.match(code.answer, /2397|2,397/);
    assert.ok(code.tools.includes("run_js") && chart.tools.includes("run_js") && units.tools.includes("units"));
    // stock-chart read its sample file and drew the chart its code plotted.
    assert.match(chart.observations, /Plotted a line chart/, chart.observations);
    await page.waitForFunction(() => document.querySelectorAll("tao-agent")[1].shadowRoot.querySelector("[data-chart] svg"));
    assert.deepEqual(page.problems, []);
    await page.context().close();
  });

  it("<tao-agent> says its status again in a new language, and asks for a task when the box is empty", async () => {
    const page = await open(browser, server.url + "one.html");
    const said = await page.evaluate(async () => {
      const el = document.querySelector("tao-agent");
      await el.ready;
      const status = () => el.shadowRoot.querySelector('[part~="status"]').textContent;
      const before = status();
      el.setAttribute("lang", "zh");
      await new Promise((r) => setTimeout(r, 500)); // its Chinese words load
      const after = status();
      el.setAttribute("lang", "en");
      el.shadowRoot.querySelector("textarea").value = "";
      const rejected = await el.run().then(() => null, (e) => e.message);
      return { before, after, rejected, error: el.shadowRoot.querySelector('[part~="error"]').textContent };
    });
    assert.deepEqual(said, { before: "Ready.", after: "就绪。", rejected: "Type a task first.", error: "Type a task first." });
    assert.deepEqual(page.problems, []);
    await page.context().close();
  });

  it("<tao-agent> runs a tool and a model of the page's own; a bad setting is an error event, not a crash", async () => {
    const page = await open(browser, server.url + "tool.html");
    await page.evaluate(() => document.querySelector("tao-agent").ready);
    await page.evaluate(() => document.querySelector("tao-agent").shadowRoot.querySelector("[part~=run]").click());
    const done = await page.waitForFunction(() => window.done, null, { timeout: 20000 }).then((h) => h.jsonValue());
    assert.equal(done.answer, "We have 12 tins.");
    assert.equal(done.steps[0].tool_calls[0].action.tool, "stock");

    // A misspelled tool name: the run does not start; the element says why and sends tao-error.
    await page.evaluate(() => {
      const el = document.querySelector("tao-agent");
      el.setAttribute("tools", "stok");
      return el.run().catch(() => null);
    });
    const failed = await page.evaluate(() => window.failed);
    assert.equal(failed.kind, "config");
    assert.match(failed.message, /unknown tool "stok"/);
    const shown = await page.evaluate(() => document.querySelector("tao-agent").shadowRoot.querySelector("[part~=error]").textContent);
    assert.match(shown, /unknown tool "stok"/);
    assert.deepEqual(page.problems, []);
    await page.context().close();
  });

  it("leaves the host page's styles alone, keeps the host's rules out, and takes ::part and custom properties", async () => {
    const page = await open(browser, server.url + "host.html");
    const snapshot = () => page.evaluate(() => {
      const props = ["font-family", "font-size", "line-height", "color", "background-color", "margin-top", "letter-spacing", "padding-top", "border-top-color", "box-sizing"];
      const nodes = [document.documentElement, document.body, ...document.querySelectorAll(".probe, header")];
      return nodes.map((n) => props.map((p) => getComputedStyle(n).getPropertyValue(p)).join("|"));
    });
    const before = await snapshot();
    await page.evaluate(async () => {
      const el = document.createElement("tao-agent");
      el.setAttribute("scenario", "apple-ceo");
      el.className = "styled";
      document.body.append(el);
      await el.ready;
      await el.run();
    });
    const afterRun = await snapshot();
    assert.deepEqual(afterRun, before, "the host page's computed styles changed when the element was added and ran");

    const inside = await page.evaluate(() => {
      const root = document.querySelector("tao-agent").shadowRoot;
      const stop = getComputedStyle(root.querySelector("[part~=stop]"));
      return {
        runBg: getComputedStyle(root.querySelector("[part~=run]")).backgroundColor,
        stopBg: stop.backgroundColor,
        stopSize: stop.fontSize,
        taskBorder: getComputedStyle(root.querySelector("textarea")).borderTopColor,
        thought: getComputedStyle(root.querySelector(".card-thought .card-label")).color,
        sheets: root.adoptedStyleSheets.length,
        links: root.querySelectorAll("link, style").length,
      };
    });
    assert.deepEqual([inside.sheets, inside.links], [1, 0], "the styles are one sheet adopted from the code, not a <link> fetched later");
    assert.equal(inside.runBg, "rgb(1, 2, 3)", "::part(run) restyles the Run button");
    assert.notEqual(inside.stopBg, "rgb(255, 0, 0)", "the host's `button` rule reached inside");
    assert.notEqual(inside.stopSize, "21px", "the host's `button` rule reached inside");
    assert.notEqual(inside.taskBorder, "rgb(0, 0, 255)", "the host's `textarea` rule reached inside");
    assert.equal(inside.thought, "rgb(4, 5, 6)", "--thought set on the element colours the Thought cards");
    assert.deepEqual(page.problems, []);
    await page.context().close();
  });

  it("leaves the text inside as designed on a host page that sets font and colour on everything and hides buttons", async () => {
    const plain = await open(browser, server.url + "element.html");
    await plain.waitForFunction(() => document.querySelector("tao-agent")?.trajectory?.stop?.reason === "answer", null, { timeout: 20000 });
    const designed = await textInside(plain);
    await plain.context().close();

    const page = await open(browser, server.url + "hostile.html");
    await page.waitForFunction(() => document.querySelector("tao-agent")?.trajectory?.stop?.reason === "answer", null, { timeout: 20000 });
    const hostile = await textInside(page);
    // Inherited through the host element, `* {…}` reached every piece of text; a rem was 20px.
    assert.deepEqual(hostile, designed, "the host's `*` rule changed the text inside the element");
    const thought = designed[".card-thought .card-text"];
    assert.equal(thought["font-size"], "16px");
    assert.match(thought["font-family"], /^system-ui, /);
    assert.equal(thought.color, LIGHT.text);
    assert.equal(designed[".card-answer .answer-text"]["font-size"], "19px");
    const run = await page.evaluate(() => {
      const button = document.querySelector("tao-agent").shadowRoot.querySelector("[part~=run]");
      const box = button.getBoundingClientRect();
      return { display: getComputedStyle(button).display, width: box.width, height: box.height, text: button.textContent };
    });
    assert.notEqual(run.display, "none", "the host's `button { display: none }` hid the Run button");
    assert.ok(run.width >= 80 && run.height >= 40, `the Run button is ${run.width}×${run.height}`);
    assert.equal(run.text, "Run");
    // The host's own text is still the host's.
    assert.equal(await page.evaluate(() => getComputedStyle(document.querySelector("h1")).fontSize), "20px");
    assert.deepEqual(page.problems, []);
    await page.context().close();
  });

  it("keeps model, apiKey, options, replies and theme set before the element was defined", async () => {
    const page = await open(browser, server.url + "early.html");
    await page.waitForFunction(() => customElements.get("tao-agent"));
    const runs = await page.evaluate(async () => {
      const out = {};
      for (const el of document.querySelectorAll("tao-agent")) {
        await el.ready;
        out[el.id] = await el.run().then((t) => ({ reason: t.stop.reason, steps: t.steps.length, answer: t.answer, model: t.model,
          tool: t.steps[0].tool_calls[0]?.action.tool, observation: t.steps[0].tool_calls[0]?.observation }), (e) => ({ error: String(e) }));
      }
      return out;
    });
    const seen = await page.evaluate(() => {
      const fn = document.getElementById("fn");
      return { definedBefore: window.definedBefore, errors: window.errors, model: typeof fn.model, apiKey: fn.apiKey,
        options: fn.options, theme: fn.theme, themeAttribute: fn.getAttribute("theme"), background: getComputedStyle(fn).backgroundColor,
        replies: document.getElementById("replies").replies, ownProperties: Object.keys(fn) };
    });
    assert.equal(seen.definedBefore, false, "the page set the properties before the package defined the element");
    assert.deepEqual(seen.errors, []);
    // The function played the model; `options` stopped the run after one step.
    assert.deepEqual(runs.fn, { reason: "max_steps", steps: 1, answer: null, model: "js", tool: "calculator", observation: "42" });
    assert.equal(seen.model, "function");
    assert.equal(seen.apiKey, "sk-early-000");
    assert.deepEqual(seen.options, { maxSteps: 1 });
    assert.deepEqual([seen.theme, seen.themeAttribute, seen.background], ["dark", "dark", DARK.bg]);
    // The offline model replayed the replies.
    assert.equal(runs.replies.answer, "hi from the replies");
    assert.deepEqual(seen.replies, ["Final Answer: hi from the replies"]);
    assert.deepEqual(seen.ownProperties, [], "the values are the element's (through its setters), not own properties hiding them");
    assert.deepEqual(page.problems, []);
    await page.context().close();
  });

  it("takes theme=\"dark\", \"light\" or \"auto\" whatever the system prefers", async () => {
    for (const system of ["light", "dark"]) {
      const page = await open(browser, server.url + "themes.html", { colorScheme: system });
      await page.waitForFunction(() => [...document.querySelectorAll("tao-agent")].every((el) => el.trajectory?.stop?.reason === "answer"), null, { timeout: 20000 });
      const colours = () => page.evaluate(() => Object.fromEntries([...document.querySelectorAll("tao-agent")].map((el) => {
        const root = el.shadowRoot;
        const style = (sel) => getComputedStyle(root.querySelector(sel));
        return [el.id, { bg: getComputedStyle(el).backgroundColor, text: style(".card-thought .card-text").color,
          thought: style(".card-thought .card-label").color, scheme: style("textarea").colorScheme }];
      })));
      const palette = (p, scheme) => ({ bg: p.bg, text: p.text, thought: p.thought, scheme });
      const expected = { dark: palette(DARK, "dark"), light: palette(LIGHT, "light"), auto: system === "dark" ? palette(DARK, "dark") : palette(LIGHT, "light") };
      assert.deepEqual(await colours(), expected, `with the system in ${system}`);
      // The property reflects the attribute; a change repaints at once; a value it does not know is auto.
      const reflected = await page.evaluate(() => {
        const [dark, light, auto] = ["dark", "light", "auto"].map((id) => document.getElementById(id));
        dark.theme = "light";
        light.setAttribute("theme", "dark");
        auto.theme = "sepia";
        return [dark.getAttribute("theme"), light.theme, auto.theme, auto.getAttribute("theme")];
      });
      assert.deepEqual(reflected, ["light", "dark", "auto", "auto"]);
      const swapped = await colours();
      assert.deepEqual([swapped.dark, swapped.light, swapped.auto], [expected.light, expected.dark, expected.auto]);
      assert.deepEqual(page.problems, []);
      await page.context().close();
    }
  });

  it("says at once that a scenario is unknown, with tao-error, and never asks for a task instead", async () => {
    const page = await open(browser, server.url + "scenario.html");
    await page.waitForFunction(() => window.errors.length > 0, null, { timeout: 20000 });
    const shown = () => page.evaluate(() => {
      const root = document.querySelector("tao-agent").shadowRoot;
      const error = root.querySelector("[part~=error]");
      return { error: error.hidden ? "" : error.textContent, status: root.querySelector("[part~=status]").textContent, events: window.errors };
    });
    const before = await shown();
    assert.equal(before.events[0].kind, "config");
    assert.match(before.events[0].message, /unknown scenario "apple-ceo-typo"; the built-in scenarios are: apple-ceo, /);
    assert.match(before.error, /unknown scenario "apple-ceo-typo"/);
    // A run says the same, not "Ask something…" (the task box is empty: there is no such scenario's task).
    await page.evaluate(() => document.querySelector("tao-agent").run().catch(() => {}));
    assert.equal(await page.evaluate(() => window.errors.length), 2);
    const after = await shown();
    assert.match(after.error, /unknown scenario "apple-ceo-typo"/);
    assert.doesNotMatch(after.error + after.status, /Ask something/);
    // Corrected, the element drops the error and shows the scenario's task.
    await page.evaluate(() => document.querySelector("tao-agent").setAttribute("scenario", "apple-ceo"));
    await page.waitForFunction(() => document.querySelector("tao-agent").shadowRoot.querySelector("textarea").value.includes("Apple"));
    assert.equal((await shown()).error, "");
    assert.deepEqual(page.problems, []);
    await page.context().close();
  });

  it("sends tao-error and shows why when the wasm or the offline data does not load", async () => {
    for (const [missing, pattern] of [["/dist/data/scenarios.json", /scenarios\.json: HTTP 404/], ["/dist/tao_agent_bg.wasm", /tao_agent_bg\.wasm/]]) {
      const broken = await serve(root, { hide: [missing] });
      try {
        const page = await open(browser, broken.url + "load.html");
        await page.waitForFunction(() => window.errors.length > 0, null, { timeout: 20000 });
        const seen = await page.evaluate(() => {
          const root = document.querySelector("tao-agent").shadowRoot;
          const error = root.querySelector("[part~=error]");
          return { events: window.errors, error: error.hidden ? "" : error.textContent, status: root.querySelector("[part~=status]").textContent };
        });
        assert.equal(seen.events.length, 1, missing);
        assert.equal(seen.events[0].kind, "load", missing);
        assert.match(seen.events[0].message, pattern);
        assert.match(seen.error, /^Could not load the agent: /);
        assert.match(seen.error, pattern);
        assert.doesNotMatch(seen.status, /Loading/, "the status still says it is loading");
        await page.context().close();
      } finally {
        await broken.close();
      }
    }
  });

  it("draws an answer's Markdown as elements, and keeps <script>, <img onerror> and javascript: links as text", async () => {
    const page = await open(browser, server.url + "markdown.html");
    await page.waitForFunction(() => document.querySelector("tao-agent")?.trajectory?.stop?.reason === "answer", null, { timeout: 20000 });
    await page.waitForTimeout(300); // an onerror would have fired by now
    const answer = await page.evaluate(() => {
      const box = document.querySelector("tao-agent").shadowRoot.querySelector(".card-answer .answer-text");
      const texts = (sel) => Array.from(box.querySelectorAll(sel), (n) => n.textContent);
      const link = box.querySelector("a");
      return {
        strong: texts("strong"), em: texts("em"), code: texts(":not(pre) > code"), pre: texts("pre > code"),
        bullets: texts("ul > li"), steps: texts("ol > li"),
        link: link && { text: link.textContent, href: link.getAttribute("href"), target: link.target, rel: link.rel },
        links: box.querySelectorAll("a").length,
        markup: box.querySelectorAll("script, img, iframe, [onerror]").length,
        text: box.textContent, pwned: window.pwned,
        mono: getComputedStyle(box.querySelector("code")).fontFamily,
      };
    });
    assert.deepEqual(answer.strong, ["green tea"]);
    assert.deepEqual(answer.em, ["stock"]);
    assert.deepEqual(answer.code, ["sencha"]);
    assert.deepEqual(answer.pre, ["let tins = 12 < 15;"]);
    assert.deepEqual(answer.bullets, ["12 tins of sencha", "3 tins of matcha"]);
    assert.deepEqual(answer.steps, ["open a tin", "brew it"]);
    assert.deepEqual(answer.link, { text: "matcha", href: "https://example.com/tea_(matcha)", target: "_blank", rel: "noopener noreferrer" });
    assert.equal(answer.links, 1, "the javascript: link is not a link");
    assert.equal(answer.markup, 0, "markup in the answer became elements");
    assert.ok(answer.text.includes(`<script>window.pwned = 1</script> <img src="x" onerror="window.pwned = 2">`), answer.text);
    assert.ok(answer.text.includes("[click me](javascript:window.pwned=3)"), answer.text);
    assert.equal(answer.pwned, 0);
    assert.match(answer.mono, /monospace/);
    assert.deepEqual(page.problems, []);
    await page.context().close();
  });

  it("styles <tao-trajectory> alone on a page, in light and dark, without restyling the host page", async () => {
    for (const theme of [null, "dark"]) {
      const page = await open(browser, server.url + "alone.html");
      const snapshot = () => page.evaluate(() => {
        const props = ["font-family", "font-size", "line-height", "color", "background-color", "margin-top", "padding-top", "border-left-width", "border-radius", "box-sizing"];
        const nodes = [document.documentElement, document.body, document.querySelector("h1"), ...document.querySelectorAll(".probe")];
        return nodes.map((n) => props.map((p) => getComputedStyle(n).getPropertyValue(p)).join("|"));
      });
      const before = await snapshot();
      assert.equal(await page.evaluate((t) => window.draw(t), theme), "We have 12 tins.");
      assert.deepEqual(await snapshot(), before, "the host page's computed styles changed (its own .card, .error, .step too?)");
      const inside = await page.evaluate(() => {
        const view = document.querySelector("tao-trajectory");
        const style = (sel) => getComputedStyle(view.querySelector(sel));
        return {
          label: style(".card-thought .card-label").color, border: style(".card-thought").borderLeftWidth,
          text: style(".card-thought .card-text").color, font: style(".card-thought .card-text").fontFamily,
          number: style(".step-num").borderRadius, background: getComputedStyle(view).backgroundColor,
          answer: style(".answer-text").fontSize, sheets: document.adoptedStyleSheets.length,
        };
      });
      const palette = theme === "dark" ? DARK : LIGHT;
      assert.deepEqual(inside, { label: palette.thought, border: "4px", text: palette.text, font: inside.font, number: "50%",
        background: palette.bg, answer: "19px", sheets: 1 });
      assert.match(inside.font, /^system-ui, /);
      assert.deepEqual(page.problems, []);
      await page.context().close();
    }
  });

  it("declares in tao.d.ts exactly what tao.js exports", async () => {
    const page = await open(browser, server.url + "agent.html");
    const exported = await page.evaluate(async () => Object.keys(await import("./dist/tao.js")).sort());
    await page.context().close();
    const dts = fs.readFileSync(path.join(DIST, "tao.d.ts"), "utf8");
    const declared = new Set(Array.from(dts.matchAll(/^export declare (?:class|function|const) (\w+)/gm), (m) => m[1]));
    if (/^export default /m.test(dts)) declared.add("default");
    assert.deepEqual([...declared].sort(), exported);
  });

  it("npm pack: the tarball installs offline into an empty folder, and Node and a page import it", async () => {
    const work = fs.mkdtempSync(path.join(os.tmpdir(), "tao-pack-"));
    try {
      const npm = (args, cwd) => execFileSync("npm", args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
      const tarball = npm(["pack", DIST, "--pack-destination", work, "--silent"], work).trim().split("\n").at(-1);
      const app = path.join(work, "app");
      fs.mkdirSync(app);
      fs.writeFileSync(path.join(app, "package.json"), JSON.stringify({ name: "app", private: true, type: "module" }));
      npm(["install", "--offline", "--no-audit", "--no-fund", path.join(work, tarball)], app);
      const installed = path.join(app, "node_modules", "tao-agent");
      for (const f of ["tao.js", "tao.d.ts", "tao_agent_bg.wasm", "tao-agent.css", "sandbox-worker.js", "api.md"]) {
        assert.ok(fs.existsSync(path.join(installed, f)), `${f} is in the package`);
      }
      // Node: resolves the bare name through `exports`, imports it (no DOM needed) and runs.
      const script = `import fs from "node:fs"; import { initSync, Agent, version } from "tao-agent";
        initSync({ module: fs.readFileSync(new URL(import.meta.resolve("tao-agent/tao_agent_bg.wasm"))) });
        const t = await new Agent({ model: async () => "Final Answer: 42" }).run("q");
        console.log(version(), t.answer);`;
      const printed = execFileSync("node", ["--input-type=module", "-e", script], { cwd: app, encoding: "utf8" }).trim();
      const version = JSON.parse(fs.readFileSync(path.join(DIST, "package.json"), "utf8")).version;
      assert.equal(printed, `${version} 42`);

      // A page with an import map, the way a site without a bundler uses an installed package.
      fs.writeFileSync(path.join(app, "index.html"), `<!doctype html><meta charset="utf-8"><title>app</title>
        <script type="importmap">{"imports": {"tao-agent": "./node_modules/tao-agent/tao.js"}}</script>
        <script type="module">import { init, Agent } from "tao-agent"; await init();
          window.answer = (await new Agent({ model: async () => "Final Answer: ok" }).run("q")).answer;</script>
        <tao-agent scenario="apple-ceo" autorun></tao-agent>`);
      const appServer = await serve(app);
      const page = await open(browser, appServer.url + "index.html");
      assert.equal(await page.waitForFunction(() => window.answer).then((h) => h.jsonValue()), "ok");
      await page.waitForFunction(() => document.querySelector("tao-agent").trajectory?.stop?.reason === "answer", null, { timeout: 20000 });
      assert.deepEqual(page.problems, []);
      await page.context().close();
      await appServer.close();
    } finally {
      fs.rmSync(work, { recursive: true, force: true });
    }
  });

  it("loads from another origin when that origin sends CORS headers, and not without", async () => {
    const withCors = await serve(root, { cors: true });
    const without = await serve(root);
    const page = (files) => `<!doctype html><meta charset="utf-8"><title>cdn</title>
      <script type="module" src="${files}dist/tao.js"></script>
      <tao-agent scenario="apple-ceo" autorun></tao-agent>`;
    fs.writeFileSync(path.join(root, "cdn-ok.html"), page(withCors.url));
    fs.writeFileSync(path.join(root, "cdn-no.html"), page(without.url));
    try {
      const ok = await open(browser, server.url + "cdn-ok.html");
      await ok.waitForFunction(() => document.querySelector("tao-agent")?.trajectory?.stop?.reason === "answer", null, { timeout: 20000 });
      assert.deepEqual(ok.problems, []);
      await ok.context().close();

      const no = await open(browser, server.url + "cdn-no.html");
      await no.waitForTimeout(1500);
      const defined = await no.evaluate(() => Boolean(customElements.get("tao-agent")));
      assert.equal(defined, false, "a module script from another origin without CORS must not load");
      assert.ok(no.problems.some((p) => /CORS|Access-Control-Allow-Origin/.test(p)), no.problems.join("\n"));
      await no.context().close();
    } finally {
      await withCors.close();
      await without.close();
    }
  });
  it("looks right on a desktop and a phone, light and dark, English and Chinese, with no axe violation", async () => {
    fs.mkdirSync(OUT, { recursive: true });
    const axe = require.resolve("axe-core/axe.min.js");
    const answered = (page) => page.waitForFunction(() => document.querySelector("tao-agent")?.trajectory?.stop?.reason === "answer", null, { timeout: 20000 });
    const drawn = (page) => page.evaluate(() => window.draw());
    const cases = [
      ["en-light", "element.html", "light", answered],
      ["zh-dark", "zh.html", "dark", answered],
      // The attribute against the system's preference, with a Markdown answer.
      ["markdown-theme-dark", "markdown.html?theme=dark", "light", answered],
      ["markdown-theme-light", "markdown.html?theme=light", "dark", answered],
      ["alone-light", "alone.html", "light", drawn],
      ["alone-dark", "alone.html", "dark", drawn],
    ];
    for (const [name, file, colorScheme, ready] of cases) {
      for (const [size, viewport] of [["desktop", { width: 1366, height: 850 }], ["phone", { width: 390, height: 844 }]]) {
        const context = await browser.newContext({ viewport, colorScheme });
        const page = await context.newPage();
        await page.goto(server.url + file);
        await ready(page);
        await page.screenshot({ path: path.join(OUT, `embed-${name}-${size}.png`), fullPage: true });
        const wide = await page.evaluate(() => document.documentElement.scrollWidth > innerWidth);
        assert.equal(wide, false, `${name} ${size}: the page scrolls sideways`);
        await page.addScriptTag({ path: axe });
        const violations = await page.evaluate(async () => (await window.axe.run(document)).violations.map((v) => `${v.id}: ${v.nodes.length}`));
        assert.deepEqual(violations, [], `${name} ${size}`);
        await context.close();
      }
    }
  });
});

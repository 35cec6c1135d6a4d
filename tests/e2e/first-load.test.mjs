// What the demo page downloads before Run works, as `make demo` serves it (target/site: the page's
// code and styles minified): every response from the first request until the page says it is
// ready and the network is quiet, each counted as `gzip -9` of the bytes the browser received
// (as scripts/size.sh counts the core). Prints the list, and fails over the ceiling below, so a
// change that makes the first load heavier (a module no longer loaded on demand, a bigger core)
// is seen. Then one scenario runs to its answer on the same page: the minified page works.
//
//   node --test tests/e2e/first-load.test.mjs      (serves target/site: build it first with `make site`)

import assert from "node:assert/strict";
import { test, before, after } from "node:test";
import { execFileSync } from "node:child_process";
import { setUp, ARGS, runScenario } from "./helpers.mjs";

/** The ceiling, in bytes gzip: the goal (150 KB), which today's first load is under. */
const CEILING = 150_000;

/** The page's parts that only some visits need: none of them may come with the first load. */
const ON_DEMAND = [
  "www/code-tool.js", "www/chart.js", "www/compare-view.js", "www/prompt-view.js", "www/branches.js",
  "www/data-files.js", "www/benchmark-view.js", "www/benchmark.js", "www/benchmark.css", "www/wasm-tool.js",
  "www/sandbox.js", "www/webllm.js", "www/fork.js", "www/editor.js", "www/inspect.js", "www/share.js", "www/connection.js", "www/export-runs.js",
  "www/benchmark-resume.js", "www/prompt-view.css", "www/branches.css", "www/compare-view.css", "pkg/tao_net.js", "pkg/tao_tools.js", "pkg/tao_sandbox.js",
  "www/rate.js", "www/offline-notice.js", // at the first run that ends, at the first Run refused offline
  "www/mcp-panel.js", "www/webmcp.js", // at the first MCP server added, where the page offers WebMCP tools
  // A visit in English: the page's Chinese words, the prompts, the menu's list.
  "www/i18n-zh.js", "pkg/data/zh.json", "pkg/data/scenario-list.zh.json",
  "pkg/data/scenarios.json", // the scenarios' replies and rules: at the first run (the menu has its list)
  "pkg/data/knowledge.json", // until a run (or the model view) searches the built-in pages
];

let env;
before(async () => {
  env = await setUp();
});
after(async () => {
  await env?.close();
});

test("the demo page's first load: what it downloads before Run works", async () => {
  assert.ok(ARGS.includes("--headless"));
  const context = await env.browser.newContext({ viewport: { width: 1366, height: 850 } });
  const page = await context.newPage();
  const problems = [];
  page.on("pageerror", (e) => problems.push(String(e)));
  const bodies = [];
  page.on("response", (response) => bodies.push(response.body().then((body) => [response.url(), body], () => [response.url(), null])));
  await page.goto(env.url + "?wiki=offline");
  await page.waitForSelector('body[data-ready="true"]', { timeout: 20000 });
  await page.waitForLoadState("networkidle");
  const loaded = await Promise.all(bodies);

  const rows = loaded.map(([url, body]) => {
    const file = new URL(url).pathname.slice(1) || "index.html";
    const gzip = body ? execFileSync("gzip", ["-9c"], { input: body }).length : 0;
    return { file: file.replace(/snippets\/[^/]+\//, "snippets/…/"), gzip };
  });
  rows.sort((a, b) => b.gzip - a.gzip);
  const total = rows.reduce((sum, r) => sum + r.gzip, 0);
  console.log(rows.map((r) => `  ${String(r.gzip).padStart(8)}  ${r.file}`).join("\n"));
  console.log(`  ${String(total).padStart(8)}  bytes gzip: the demo page's first load (${rows.length} files)`);

  for (const part of ON_DEMAND) {
    assert.ok(!rows.some((r) => r.file === part), `${part} came with the first load; it should load on demand`);
  }
  assert.ok(rows.some((r) => r.file === "pkg/tao_agent_bg.wasm"), "the core was not loaded");
  assert.ok(total <= CEILING, `the first load is ${total} bytes gzip, over the ceiling of ${CEILING}`);

  // The minified page plays a scenario to its answer.
  assert.equal(await runScenario(page, "apple-ceo"), "answer");
  assert.deepEqual(problems, []);
  await context.close();
});

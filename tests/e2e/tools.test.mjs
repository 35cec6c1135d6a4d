// End-to-end tests of the tools panel and the tools it enables, in headless Chromium:
//
//   node --test tests/e2e/tools.test.mjs      (serves target/site: build it first with `make site`)
//
// Index:
//   wasm       the units scenario runs the example wasm tool in the sandbox, with fuel per call
//   upload     a .wasm with a forbidden import is refused naming the import; a good one is
//              added, listed, and described to the model exactly as typed
//   approval   run_js waits for the user: Approve runs the code, Deny is an observation
//   schema     a tool input that breaks its schema is a repair naming the field
//   wiki       the einstein scenario over a mock MediaWiki API (wiki= in the URL) answers with
//              the paper's search/lookup observations
//   panel      the model view shows the tools as the model is told about them; a share link
//              carries the tool list and the wiki

import { describe, it, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { setUp, openPage, waitStopped, texts, OUT, fetched } from "./helpers.mjs";
import { REPO_ROOT } from "./server.mjs";
import { startMockLlm } from "../mock/llm.mjs";

let env;
let mock;
before(async () => {
  env = await setUp();
  mock = await startMockLlm({ port: 0, delayMs: 1 });
});
after(async () => {
  await mock?.close();
  await env?.close();
});

/** Presses Run (the caller waits for what it expects). */
async function run(page) {
  await page.click('button[data-action="run"]');
}

/** A hostile module from sandbox/tests/hostile/, assembled from its WAT text. */
function assemble(name) {
  const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "tao-e2e-")), `${name}.wasm`);
  execFileSync(path.join(REPO_ROOT, "node_modules/.bin/wasm-as"), [path.join(REPO_ROOT, `sandbox/tests/hostile/${name}.wat`), "-o", out]);
  return out;
}

describe("tools", () => {
  it("wasm: the units scenario runs the sandboxed tool and shows the fuel of each call", async () => {
    const page = await openPage(env, { query: "?scenario=units&delay=0&lang=en" });
    await run(page);
    assert.equal(await waitStopped(page, 60000), "answer");
    const observations = await texts(page, "observation");
    assert.match(observations[0], /42\.195 km = 26\.2188 mi/);
    assert.match(observations[1], /30 C = 86 F/);
    const fuel = await page.$$eval("tao-trajectory .fuel", (nodes) => nodes.map((n) => Number(n.dataset.fuel)));
    assert.equal(fuel.length, 2);
    for (const f of fuel) assert.ok(f > 0 && f < 200_000_000, `fuel ${f}`);
    // The reader sees it on the card, as a number.
    const shown = await page.$$eval("tao-trajectory .fuel", (nodes) => nodes.map((n) => n.textContent));
    for (const text of shown) assert.match(text, /^fuel [\d,]+$/);
    assert.match((await texts(page, "answer"))[0], /26\.22 miles/);
    assert.deepEqual(page.problems.errors, []);
    await page.screenshot({ path: path.join(OUT, "tools-units.png"), fullPage: true });
    await page.context().close();
  });

  it("upload: a forbidden import is refused by name; a WASI tool is added and described", async () => {
    const page = await openPage(env, { query: "?scenario=apple-ceo&lang=en" });
    await page.click("[data-tools-panel] > summary");
    await page.setInputFiles('[data-upload] input[name="file"]', assemble("forbidden_path_open"));
    await page.fill('[data-upload] input[name="name"]', "evil");
    await page.fill('[data-upload] input[name="description"]', "Reads files.");
    await page.click('[data-upload] button[type="submit"]');
    const status = page.locator("[data-upload-status]");
    await page.waitForFunction(() => document.querySelector("[data-upload-status]")?.dataset.ok === "false", null, { timeout: 30000 });
    const refused = await status.textContent();
    assert.match(refused, /path_open|wasi_snapshot_preview1/, refused);
    assert.equal(await page.locator('[data-tool="evil"]').count(), 0);

    await page.setInputFiles('[data-upload] input[name="file"]', path.join(REPO_ROOT, "pkg/tools/wordcount.wasm"));
    await page.fill('[data-upload] input[name="name"]', "count_words");
    await page.fill('[data-upload] input[name="description"]', "Counts <b>words</b> in a text.");
    await page.click('[data-upload] button[type="submit"]');
    await page.waitForFunction(() => document.querySelector("[data-upload-status]")?.dataset.ok === "true", null, { timeout: 30000 });
    const row = page.locator('[data-tool="count_words"]');
    assert.equal(await row.count(), 1);
    // The uploader's words are text, never HTML.
    assert.equal(await row.locator("b").count(), 0);
    await row.locator('input[type="checkbox"]').check();
    await page.click(".model-view > summary");
    await page.waitForFunction(() => document.querySelector("[data-model-view]")?.textContent.includes("count_words"));
    const told = await page.textContent("[data-model-view]");
    assert.match(told, /count_words: Counts <b>words<\/b> in a text\./);
    assert.deepEqual(page.problems.errors, []);
    await page.context().close();
  });

  it("a Chinese prompt describes the page's tools (run_js, units, wordcount) in Chinese", async () => {
    const page = await openPage(env, { query: "?lang=zh&scenario=units&tools=units,wordcount,run_js" });
    await page.click("[data-tools-panel] > summary");
    await page.click(".model-view > summary");
    await page.waitForFunction(() => /run_js/.test(document.querySelector("[data-model-view]")?.textContent ?? ""));
    const told = await page.textContent("[data-model-view]");
    assert.match(told, /units: 在长度、质量、温度、体积或时间的单位之间换算一个量/);
    assert.match(told, /wordcount: 统计一段文本的词数、行数和字符数。/);
    assert.match(told, /run_js: 在隔离的沙箱中运行 JavaScript/);
    assert.doesNotMatch(told, /Converts a quantity|Counts the words|Runs JavaScript in an isolated sandbox|Parameters:/);
    assert.match(told, /参数：\{/);
    assert.deepEqual(page.problems.errors, []);
    await page.context().close();
  });

  it("approval: run_js waits for the user; Approve runs the code, Deny becomes the observation", async () => {
    const page = await openPage(env, { query: "?scenario=code&delay=0&lang=en" });
    await run(page);
    const approve = page.locator('[data-approve="yes"]');
    await approve.waitFor({ timeout: 20000 });
    // The run is paused: no observation yet.
    assert.deepEqual(await texts(page, "observation"), []);
    await approve.click();
    assert.equal(await waitStopped(page, 30000), "answer");
    assert.match((await texts(page, "observation"))[0], /2, 3, 5, 7, 11, 13, 17, 19, 23, 29\s*=> 2397/);
    assert.match((await texts(page, "approval")).join(" "), /approved/);
    assert.match((await texts(page, "answer"))[0], /2397/);

    await run(page);
    await page.locator('[data-approve="no"]').click({ timeout: 20000 });
    assert.equal(await waitStopped(page, 30000), "answer");
    assert.match((await texts(page, "observation"))[0], /The user denied this call to run_js/);
    assert.match((await texts(page, "answer"))[0], /could not compute/);
    assert.deepEqual(page.problems.errors, []);
    await page.context().close();
  });

  it("schema: an input that breaks the tool's schema is a repair naming the field", async () => {
    const page = await openPage(env, { query: "?lang=en" });
    const result = await page.evaluate(async () => {
      const tao = await import("/pkg/tao_agent.js");
      await tao.default();
      const agent = new tao.Agent({
        replies: [
          'Thought: convert\nAction: convert\nAction Input: {"value": 3, "unit": "miles"}',
          'Thought: again\nAction: convert\nAction Input: {"value": "3", "unit": "mi"}',
          "Thought: done\nFinal Answer: ok",
        ],
        tools: [],
      });
      const calls = [];
      agent.registerTool(
        {
          name: "convert",
          description: "Converts a distance.",
          parameters: { type: "object", properties: { value: { type: "number" }, unit: { type: "string", enum: ["km", "mi"] } }, required: ["value", "unit"] },
        },
        (input) => {
          calls.push(input);
          return `${input.value} ${input.unit}`;
        },
      );
      const t = await agent.run("convert");
      return { repair: t.steps[0].tool_calls[0].repair, obs: t.steps[1].tool_calls[0].observation, calls };
    });
    assert.equal(result.repair.why, "bad_input");
    assert.match(result.repair.message, /the field "unit" must be one of "km", "mi" \(got "miles"\)/);
    assert.equal(result.obs, "3 mi");
    assert.deepEqual(result.calls, [{ value: 3, unit: "mi" }], "the tool ran once, with the coerced input");
    await page.context().close();
  });

  it("wiki: the einstein scenario over a mock MediaWiki API follows the paper's WikiEnv", async () => {
    const wiki = `${mock.url}/w/api.php`;
    const page = await openPage(env, { query: `?scenario=einstein&delay=0&lang=en&wiki=${encodeURIComponent(wiki)}` });
    await run(page);
    assert.equal(await waitStopped(page, 30000), "answer");
    const observations = await texts(page, "observation");
    assert.match(observations[0], /^Observation\s*Albert Einstein/);
    assert.ok(!observations[0].includes("Ulm"), observations[0]);
    // The mock's page has two sentences with "born" (the built-in page has one): the first
    // lookup finds the lead's "Born in the German Empire", the second the birthplace.
    assert.match(observations[1], /\(Result 1 \/ 2\) Born in the German Empire/);
    assert.match(observations[2], /\(Result 2 \/ 2\) Albert Einstein was born in Ulm/);
    assert.match((await texts(page, "answer"))[0], /Ulm/);
    assert.deepEqual(page.problems.errors, []);
    await page.context().close();
  });

  it("panel: a share link carries the tools and the wiki source", async () => {
    const page = await openPage(env, { query: "?scenario=apple-ceo&lang=en&tools=search,calculator&wiki=zh" });
    await page.click('button[data-action="share"]');
    await page.waitForFunction(() => location.search.includes("autorun=1"));
    const q = new URL(page.url()).searchParams;
    assert.equal(q.get("tools"), "search,calculator");
    assert.equal(q.get("wiki"), "zh");
    await page.context().close();
  });
});

describe("built-in tools' code", () => {
  it("the calculator's code loads at its first call, and its answers and errors are the tool's", async () => {
    const page = await openPage(env, { query: "?scenario=water&lang=en" });
    assert.deepEqual(await fetched(page, "tao_tools"), [], "nothing before a run");
    await run(page);
    assert.equal(await waitStopped(page), "answer");
    assert.deepEqual(await fetched(page, "tao_tools"), ["/pkg/tao_tools.js", "/pkg/tao_tools_bg.wasm"]);
    const observations = await texts(page, "observation");
    assert.match(observations.at(-1), /2600$/, "60 * 35 + 500");
    assert.match((await texts(page, "answer"))[0], /About 2600 ml/);
    // Straight through the JS API: a bad input is the model's mistake, a division by zero the tool's.
    const results = await page.evaluate(async () => {
      const { Agent } = await import("/pkg/tao_agent.js");
      const out = [];
      for (const expression of ["2 +", "1 / 0", "2 ^ 10"]) {
        const agent = new Agent({ tools: ["calculator"], replies: [`Action: calculator\nAction Input: ${expression}`, "Final Answer: done"] });
        const t = await agent.run("calculate");
        const s = t.steps[0];
        out.push({ observation: s.tool_calls[0].observation, bad: t.stats.n_badcalls });
      }
      return out;
    });
    assert.equal(results[0].bad, 1, "a bad input counts as a bad call");
    assert.match(results[0].observation, /ends too early/);
    assert.equal(results[1].bad, 0, "a failure of the tool is not the model's");
    assert.match(results[1].observation, /division by zero/);
    assert.equal(results[2].observation, "1024");
    // search_docs over documents given as a list: handed to the module, searched there.
    const found = await page.evaluate(async () => {
      const { Agent } = await import("/pkg/tao_agent.js");
      const docs = [
        { title: "Install on Windows", url: "/install-windows", text: "Run the installer, then restart the shell." },
        { title: "Billing", url: "/billing", text: "Invoices are sent monthly." },
      ];
      const replies = ["Action: search_docs\nAction Input: install windows", "Final Answer: done"];
      const t = await new Agent({ tools: ["search_docs"], docs, replies }).run("how do I install?");
      return t.steps[0].tool_calls[0].observation;
    });
    assert.match(found, /^\[1\] Install on Windows — \/install-windows\n/);
    assert.deepEqual(page.problems.errors, []);
    await page.context().close();
  });
});

describe("search_docs", () => {
  it("searches the documents of a JSON file fetched at the first search, with BM25", async () => {
    const page = await openPage(env, { query: "?lang=en" });
    const t = await page.evaluate(async () => {
      const tao = await import("/pkg/tao_agent.js");
      await tao.default();
      const agent = new tao.Agent({
        replies: [
          "Thought: look it up\nAction: search_docs\nAction Input: where is my API key stored",
          "Thought: missing file next\nFinal Answer: in memory",
        ],
        tools: ["search_docs"],
        docs: "/www/docs.json",
      });
      const missing = new tao.Agent({ replies: ["Thought: x\nAction: search_docs\nAction Input: key"], tools: ["search_docs"], docs: "/www/nope.json", maxSteps: 1 });
      return { hit: await agent.run("keys?"), miss: await missing.run("keys?") };
    });
    assert.match(t.hit.steps[0].tool_calls[0].observation, /^\[1\] API keys/);
    assert.match(t.hit.steps[0].tool_calls[0].observation, /README\.md#keys/);
    assert.match(t.miss.steps[0].tool_calls[0].observation, /^Error: search_docs failed: could not load the documents from \/www\/nope\.json: HTTP 404/);
    await page.context().close();
  });
});

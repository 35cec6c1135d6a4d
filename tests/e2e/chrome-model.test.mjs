// Chrome's built-in model (`provider: "chrome"`, the Prompt API) against a stand-in: headless
// Chromium here has no built-in model, so each page gets `LanguageModel` as the documented
// interface describes it (availability, params, create with initialPrompts / topK / temperature
// / monitor, clone, promptStreaming with responseConstraint, destroy), written by this test,
// which plays two replies and records what it was asked. A reply that breaks the
// `responseConstraint` is refused, as the browser's model could not write it.

import { describe, it, before, after } from "node:test";
import assert from "node:assert/strict";
import { setUp, openPage, waitStopped, assertClean } from "./helpers.mjs";

/** The stand-in, installed before the page's scripts run. */
function standIn() {
  const replies = ["Thought: I multiply.\nAction: calculator\nAction Input: 17 * 23", "Thought: I now know the final answer\nFinal Answer: 391"];
  const seen = (window.__lm = { creates: [], clones: 0, prompts: [], destroyed: 0 });
  class Session {
    constructor(options) {
      this.options = options;
    }
    async clone() {
      seen.clones += 1;
      return new Session(this.options);
    }
    promptStreaming(input, { responseConstraint } = {}) {
      const reply = replies[seen.prompts.length] ?? "Thought: x\nFinal Answer: none";
      seen.prompts.push({ input, constraint: responseConstraint ? String(responseConstraint) : null });
      if (responseConstraint && !responseConstraint.test(reply)) throw new Error(`the reply breaks the constraint: ${reply}`);
      return new ReadableStream({
        start(c) {
          for (let i = 0; i < reply.length; i += 7) c.enqueue(reply.slice(i, i + 7));
          c.close();
        },
      });
    }
    destroy() {
      seen.destroyed += 1;
    }
  }
  window.LanguageModel = {
    availability: async () => "downloadable",
    params: async () => ({ defaultTopK: 3, maxTopK: 8, defaultTemperature: 1, maxTemperature: 2 }),
    async create(options) {
      seen.creates.push({ initialPrompts: options.initialPrompts, topK: options.topK, temperature: options.temperature });
      const monitor = new EventTarget();
      options.monitor?.(monitor);
      for (const loaded of [0.5, 1]) monitor.dispatchEvent(Object.assign(new Event("downloadprogress"), { loaded }));
      return new Session(options);
    },
  };
}

describe("Chrome's built-in model (a stand-in of the Prompt API)", () => {
  let env;
  before(async () => {
    env = await setUp();
  });
  after(async () => {
    await env?.close();
  });

  it("one session a run, cloned per call, held to the format by a RegExp, the download said", async () => {
    const query = `?provider=chrome&tools=calculator&task=${encodeURIComponent("What is 17 * 23?")}`;
    const page = await openPageWith(env, query);
    assert.equal(await page.locator('select[name="provider"] option[value="chrome"]').count(), 1);
    assert.equal(await page.inputValue('select[name="provider"]'), "chrome");
    assert.match(await page.textContent("[data-footer]"), /Chrome's built-in model runs on this computer/);
    await page.locator('button[data-action="run"]').click();
    await waitStopped(page);
    assert.match(await page.locator(".card-answer").last().textContent(), /391/);
    const seen = await page.evaluate(() => window.__lm);
    assert.equal(seen.creates.length, 1, "one session for the run");
    assert.equal(seen.creates[0].topK, 1);
    assert.equal(seen.creates[0].temperature, 0);
    assert.equal(seen.creates[0].initialPrompts[0].role, "system");
    assert.equal(seen.clones, 2, "each call a clone");
    assert.equal(seen.destroyed, 2);
    assert.equal(seen.prompts[0].constraint, "/^Thought: [^\\n]+\\n(Action: (calculator)\\nAction Input: [^\\n]+|Final Answer: [^\\n]+)$/");
    // The instructions went once, with the session: a call sends the rest.
    assert.ok(seen.prompts[1].input.every((m) => m.role !== "system"));
    assert.match(await page.locator(".card-note").first().textContent(), /downloading its built-in model: 50%/);
    assert.match(await page.locator(".card-task").first().textContent(), /model\s*Chrome's built-in model/);
    assertClean(page);
    await page.context().close();
  });

  it("is not offered where the browser has no built-in model (this headless Chromium's is unavailable)", async () => {
    const context = await env.browser.newContext();
    const page = await context.newPage();
    const warnings = [];
    page.on("console", (m) => m.type() === "warning" && warnings.push(m.text()));
    await page.goto(`${env.url}?provider=chrome&wiki=offline`);
    await page.waitForSelector('body[data-ready="true"]');
    assert.equal(await page.locator('select[name="provider"] option[value="chrome"]').count(), 0);
    assert.equal(await page.inputValue('select[name="provider"]'), "scripted");
    // The check asks with the replies' language, which Chromium otherwise warns of at each load.
    assert.deepEqual(warnings.filter((w) => /output language/i.test(w)), []);
    await page.context().close();
  });
});

/** `openPage` with the stand-in installed in its context before the page loads. */
async function openPageWith(env, query) {
  const context = await env.browser.newContext({ viewport: { width: 1366, height: 850 } });
  await context.addInitScript(standIn);
  const page = await context.newPage();
  page.problems = { errors: [], console: [], dialogs: [] };
  page.on("pageerror", (e) => page.problems.errors.push(String(e)));
  page.on("console", (m) => {
    if (m.type() === "error") page.problems.console.push(m.text());
  });
  await page.goto(`${env.url}${query}&wiki=offline`);
  await page.waitForSelector('body[data-ready="true"]');
  return page;
}

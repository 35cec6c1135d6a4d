// End-to-end tests of real providers as they really behave: the page, pointed at the mock
// server's fault models (tests/mock/llm.mjs, "Provider faults" in its README), as a user drives
// it. One mock server and one browser serve every test; each test opens its own page.
//
//   node --test tests/e2e/faults.test.mjs      (serves target/site: build it first with `make site`)
//
// Index:
//   timeouts       a stall before the headers, after them, and mid-stream, with 1 s timeouts set
//                  in the Model panel: the message names the timeout, the run so far stays
//   web pages      a 200 that is nginx's welcome page, a proxy's 502 page: summarised as text,
//                  never markup; the retry notes stay after the run failed
//   streams        an event stream labelled text/plain runs to the answer
//   outcomes       a refusal (its card, its text, not retried); a reply cut at Max tokens (the
//                  limit named, the partial reply shown, the request carried the limit)
//   tool calls     two calls in one reply: one step with two Action/Observation pairs, live and
//                  redrawn, both ids sent back, the inspector lists both; the provider's ids
//   reasoning      DeepSeek's reasoning folded in its step; Anthropic's signed thinking sent back
//                  before its tool call; server-side blocks skipped with a note
//   usage          Anthropic's later input count is the one shown
//   keys           a 401 quoting the key's ends: its first 8 characters appear nowhere
//   screenshots    a step with reasoning and parallel calls, the refusal card and the Model
//                  panel, at 1366×850 and 390×844, light and dark, English and Chinese:
//                  out/faults-*.png

import { describe, it, before, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { setUp, openPage, waitStopped, texts, stat, assertClean, OUT } from "./helpers.mjs";
import { startMockLlm } from "../mock/llm.mjs";

const KEY = "sk-canary-9d8c7b6a5f4e3d2c1b0acdef";

let env;
let mock;
before(async () => {
  env = await setUp();
  // A stall lasts until the client hangs up; 5 s is only a backstop for a client that never does.
  mock = await startMockLlm({ port: 0, delayMs: 2, stallMs: 5000 });
});
after(async () => {
  await mock?.close();
  await env?.close();
});

/**
 * Opens the page set to a provider at the mock, as a shared link would, then fills the Model
 * panel's fields given in `fields` (by id: `firstByteTimeout`, `maxTokens`, …).
 */
async function openWith({ provider = "openai", model, format = "mrkl", fields = {}, viewport } = {}) {
  mock.reset();
  const base = provider === "anthropic" ? mock.url : `${mock.url}/v1`;
  const q = new URLSearchParams({ scenario: "apple-ceo", provider, base, model, format, delay: "0" });
  const page = await openPage(env, { query: `?${q}`, viewport });
  await page.fill("#apiKey", KEY);
  for (const [id, value] of Object.entries(fields)) await page.fill(`#${id}`, String(value));
  return page;
}

async function run(page, timeout = 20000) {
  await page.click('button[data-action="run"]');
  return waitStopped(page, timeout);
}

const errorText = async (page) => (await page.textContent("[data-error]")) ?? "";
const posts = () => mock.log.filter((r) => r.method === "POST");

/** The kinds of step `n`'s cards in order, with the tool call each belongs to (`action#1`). */
function stepCards(page, n) {
  return page.$$eval(`tao-trajectory [data-step="${n}"] .step-body [data-kind]`, (nodes) =>
    nodes.map((c) => c.dataset.kind + (c.dataset.call ? `#${c.dataset.call}` : "")),
  );
}

describe("timeouts", () => {
  const url = () => `${mock.url}/v1/chat/completions`;
  for (const model of ["stall-before-headers", "stall-after-headers"]) {
    it(`${model}: the first byte timeout (1 s, set in the Model panel) ends the run, saying so`, async () => {
      const page = await openWith({ model, fields: { firstByteTimeout: 1 } });
      const t0 = Date.now();
      assert.equal(await run(page), "error");
      assert.ok(Date.now() - t0 < 6000, "it gave up after about a second, not at the mock's backstop");
      const message = `no response from ${url()} within 1 s (the first byte timeout)`;
      assert.ok((await errorText(page)).includes(message), await errorText(page));
      assert.match(await errorText(page), /or raise First byte timeout/);
      // The run stays on screen: its task, and the stop card with the same message.
      assert.equal((await texts(page, "task")).length, 1);
      assert.ok((await texts(page, "stop"))[0].includes(message));
      assert.equal(posts()[0].stalled, true);
      assertClean(page);
      await page.context().close();
    });
  }

  it("stall-mid-stream: the idle timeout keeps the text so far, in its step", async () => {
    const page = await openWith({ model: "stall-mid-stream", fields: { idleTimeout: 1 } });
    assert.equal(await run(page), "error");
    assert.match(await errorText(page), /the stream stalled: nothing arrived for 1 s \(the idle timeout\) after 10 characters; the text so far is kept/);
    const partial = await texts(page, "partial");
    assert.equal(partial.length, 1, "the partial reply is shown, open");
    assert.match(partial[0], /The reply so far \(the run failed\)Thought: I/);
    // The reply so far is all the step shows (its note "interrupted: …" would repeat the stop
    // card right below it).
    assert.deepEqual(await stepCards(page, 1), ["partial"]);
    assert.match((await texts(page, "stop"))[0], /the stream stalled/);
    await page.click('button[data-action="share"]');
    await page.waitForFunction(() => location.search.includes("idle="));
    assert.equal(new URL(page.url()).searchParams.get("idle"), "1", "a changed timeout travels in the link");
    await page.context().close();
  });
});

describe("web pages", () => {
  it("html-200: not an API endpoint, with the page's title, and no markup", async () => {
    const page = await openWith({ model: "html-200" });
    assert.equal(await run(page), "error");
    const error = await errorText(page);
    assert.match(error, /\/v1\/chat\/completions is not an API endpoint: it answered with a web page \(a web page titled "Welcome to nginx!": Welcome to nginx! If you see this page/);
    assert.match(error, /the base URL is probably wrong/);
    for (const text of [error, ...(await texts(page, "stop"))]) assert.ok(!text.includes("<"), text);
    assert.equal(await page.locator("tao-trajectory title, tao-trajectory h1, tao-trajectory a").count(), 0);
    // It ended before its first step: nothing to rate or to keep for the training export.
    assert.equal(await page.locator("[data-rate-bar]").isVisible(), false);
    await page.context().close();
  });

  it("html-502: retried three times, summarised as text; the retry notes stay after the failure", async () => {
    const page = await openWith({ model: "html-502" });
    assert.equal(await run(page, 30000), "error");
    const error = await errorText(page);
    assert.match(error, /the server failed \(HTTP 502\) after 3 retries: a web page titled "502 Bad Gateway": 502 Bad Gateway nginx; try again later/);
    assert.ok(!error.includes("<") && !(await texts(page, "stop")).join("").includes("<"));
    // Each retry was a note; they stay in the failed step.
    const notes = await texts(page, "note");
    assert.equal(notes.length, 3, notes.join("\n"));
    notes.forEach((note, i) => assert.match(note, new RegExp(`the server failed \\(HTTP 502\\); retrying in \\d s \\(${i + 1}/3\\)`)));
    assert.equal(posts().length, 4);
    await page.context().close();
  });
});

describe("streams", () => {
  it("plain-sse: an event stream labelled text/plain runs to the answer", async () => {
    const page = await openWith({ model: "plain-sse" });
    assert.equal(await run(page), "answer");
    assert.match((await texts(page, "answer"))[0], /Mobile, Alabama/);
    assert.match(posts()[0].headers.accept ?? "", /event-stream|\*/);
    await page.context().close();
  });
});

describe("outcomes", () => {
  it("refusal: a refusal card with the model's words, not retried", async () => {
    const page = await openWith({ model: "refusal" });
    assert.equal(await run(page), "refused");
    const [stop] = await texts(page, "stop");
    assert.match(stop, /^Stopped · the model refused/);
    assert.match(stop, /the model refused to answer: "I'm sorry, but I can't help with that request\."/);
    assert.equal(await page.getAttribute('tao-trajectory [data-kind="stop"]', "data-reason"), "refused");
    assert.equal(await errorText(page), "", "a refusal is an outcome, not an error");
    assert.equal(posts().length, 1, "asked once");
    assert.equal(await stat(page, "stop"), "the model refused");
    await page.context().close();
  });

  it("length: the limit set in Max tokens is sent and named; the partial reply is shown", async () => {
    const page = await openWith({ model: "length", fields: { maxTokens: 64 } });
    assert.equal(await run(page), "truncated");
    assert.equal(posts()[0].json.max_tokens, 64);
    const [stop] = await texts(page, "stop");
    assert.match(stop, /^Stopped · cut at the token limit/);
    assert.match(stop, /the reply was cut at the token limit \(64 tokens\): raise Max tokens and run again/);
    const partial = await texts(page, "partial");
    assert.match(partial[0], /^The reply so far \(cut at the token limit\)Thought: I need to find out who the CEO of Apple is, and then I will look up where he was$/);
    assert.equal(posts().length, 1);
    // The limit travels in a share link, as the other model settings do (the timeouts only when
    // changed), and comes back when the link is opened.
    await page.click('button[data-action="share"]');
    await page.waitForFunction(() => location.search.includes("maxTokens="));
    const link = new URL(page.url());
    assert.equal(link.searchParams.get("maxTokens"), "64");
    assert.ok(!link.searchParams.has("firstByte") && !link.searchParams.has("idle"));
    const again = await openPage(env, { query: link.search });
    assert.equal(await again.inputValue("#maxTokens"), "64");
    await again.context().close();
    await page.context().close();
  });
});

describe("tool calls", () => {
  it("parallel-tools: one step, two Action/Observation pairs, live and redrawn; both ids go back", async () => {
    const page = await openWith({ model: "parallel-tools", format: "tools" });
    // The live view as it stands when the run ends, before the trajectory redraws it.
    await page.evaluate(() => {
      document.addEventListener("tao:trajectory-event", (e) => {
        if (e.detail.type !== "stopped") return;
        const nodes = document.querySelectorAll('tao-trajectory [data-step="1"] .step-body [data-kind]');
        window.__live = [...nodes].map((c) => c.dataset.kind + (c.dataset.call ? `#${c.dataset.call}` : ""));
      });
    });
    assert.equal(await run(page), "answer");
    const pairs = ["action#0", "observation#0", "action#1", "observation#1"];
    assert.deepEqual((await page.evaluate(() => window.__live)).filter((k) => k !== "raw"), pairs);
    assert.deepEqual(await stepCards(page, 1), pairs);
    const actions = await texts(page, "action");
    assert.match(actions[0], /^Action · call 1search\{\s*"query": "Tim Cook"\s*\}$/);
    assert.match(actions[1], /^Action · call 2search\{\s*"query": "Apple Inc\."\s*\}$/);
    const observations = await texts(page, "observation");
    assert.match(observations[0], /^Observation · call 1.*Tim Cook/s);
    assert.match(observations[1], /^Observation · call 2.*Apple/s);
    assert.match((await texts(page, "answer"))[0], /Tim Cook, Apple's CEO, was born in Mobile, Alabama\./);
    // The next request answered both calls, under the provider's ids, in order.
    const replies = posts()[1].json.messages.filter((m) => m.role === "tool").map((m) => m.tool_call_id);
    assert.deepEqual(replies, ["call_Hq4mZ1bVf0aWc7Xk2LpT9sNe", "call_3ZpYw8Rk5mJd1QvXa6Ge0uHc"]);
    assert.equal(posts().length, 2);
    // The inspector lists each call of step 1 with its id and its observation.
    await page.click('button[data-prompt="1"]');
    const calls = page.locator("tao-prompt .reply-tool-call");
    await calls.first().waitFor();
    assert.deepEqual(await calls.evaluateAll((nodes) => nodes.map((n) => n.dataset.toolCall)), replies);
    assert.match(await calls.nth(1).textContent(), /Apple Inc\..*Observation.*Apple/s);
    // The redrawn step's Edit buttons are for its own call only.
    assert.equal(await page.locator('tao-trajectory [data-step="1"] .editable [data-call="1"]').count(), 0);
    assertClean(page);
    await page.context().close();
  });

  it("provider-ids: Anthropic's tool_use id goes back with its result, then the answer", async () => {
    const page = await openWith({ provider: "anthropic", model: "provider-ids", format: "tools" });
    assert.equal(await run(page), "answer");
    const results = posts()[1].json.messages.flatMap((m) => (Array.isArray(m.content) ? m.content : [])).filter((b) => b.type === "tool_result");
    assert.deepEqual(results.map((b) => b.tool_use_id), ["toolu_01Xy9kQ2mN7pL4sR8tV1wZ3b"]);
    assert.match((await texts(page, "answer"))[0], /Mobile, Alabama/);
    await page.context().close();
  });
});

describe("reasoning", () => {
  const REASONING = "The user wants the hometown of Apple's current CEO. I should search for the CEO first, then for his birthplace.";

  it("reasoning: DeepSeek's reasoning streams into a folded Reasoning part of its step", async () => {
    const page = await openWith({ model: "reasoning" });
    // At the reply's first token, the reasoning is already on the page, folded.
    await page.evaluate(() => {
      document.addEventListener("tao:trajectory-event", (e) => {
        if (e.detail.type !== "token" || window.__live) return;
        const box = document.querySelector('tao-trajectory [data-step="1"] details.reasoning');
        window.__live = box && { open: box.open, text: box.querySelector("pre").textContent };
      });
    });
    assert.equal(await run(page), "answer");
    assert.deepEqual(await page.evaluate(() => window.__live), { open: false, text: REASONING });
    const box = page.locator('tao-trajectory [data-step="1"] details.reasoning');
    assert.equal(await box.evaluate((d) => d.open), false, "folded");
    assert.equal(await box.locator("summary").textContent(), "Reasoning");
    assert.ok(await box.locator("pre").isHidden());
    await box.locator("summary").click();
    assert.equal(await box.locator("pre").textContent(), REASONING);
    assert.deepEqual((await stepCards(page, 1)).slice(0, 2), ["reasoning", "thought"]);
    await page.context().close();
  });

  it("thinking-tools: Anthropic's signed thinking goes back before its tool call; the run answers", async () => {
    const page = await openWith({ provider: "anthropic", model: "thinking-tools", format: "tools" });
    assert.equal(await run(page), "answer");
    assert.match((await texts(page, "answer"))[0], /Mobile, Alabama/);
    assert.equal(posts().length, 2, "the mock accepted the turn sent back");
    const turn = posts()[1].json.messages.find((m) => m.role === "assistant");
    assert.equal(turn.content[0].type, "thinking");
    assert.match(await page.textContent('tao-trajectory [data-step="1"] details.reasoning pre'), /search for the CEO first/);
    await page.context().close();
  });

  it("server-blocks: blocks tao does not use are skipped with a note; the run answers", async () => {
    const page = await openWith({ provider: "anthropic", model: "server-blocks" });
    assert.equal(await run(page), "answer");
    assert.match((await texts(page, "answer"))[0], /Mobile, Alabama/);
    const notes = (await texts(page, "note")).join("\n");
    assert.match(notes, /skipped a "server_tool_use" block of the reply \(a provider-side tool tao does not run or show\)/);
    await page.context().close();
  });
});

describe("usage", () => {
  it("usage-late: the stats show message_delta's input tokens, not message_start's", async () => {
    const page = await openWith({ provider: "anthropic", model: "usage-late" });
    // What the mock said, read off the wire: the first input count and the later one.
    assert.equal(await run(page), "answer");
    // What the mock said to each request, asked again with the same body (it is deterministic):
    // the first input count (message_start) and the later one (message_delta).
    const requests = posts().map((r) => ({ body: r.body, headers: { "content-type": "application/json", "x-api-key": KEY, "anthropic-version": r.headers["anthropic-version"] } }));
    const bodies = await Promise.all(requests.map((init) => fetch(`${mock.url}/v1/messages`, { method: "POST", ...init }).then((r) => r.text())));
    const said = bodies.map((body) => {
      const count = (name) => [...body.matchAll(new RegExp(`"${name}":(\\d+)`, "g"))].map((m) => Number(m[1]));
      return { first: count("input_tokens")[0], late: count("input_tokens").at(-1), output: count("output_tokens").at(-1) };
    });
    assert.equal(said.length, 3);
    assert.ok(said.every((s) => s.late === s.first + 12));
    const sum = (key) => said.reduce((n, s) => n + s[key], 0);
    assert.equal(await stat(page, "tokens"), `${sum("late")} / ${sum("output")}`);
    await page.context().close();
  });
});

describe("keys", () => {
  it("fail-401-masked: the key's first 8 characters appear nowhere, on the page or in the export", async () => {
    const page = await openWith({ model: "fail-401-masked" });
    assert.equal(await run(page), "error");
    const error = await errorText(page);
    assert.match(error, /the endpoint refused the API key \(HTTP 401: Incorrect API key provided: /);
    const fragment = (await page.inputValue("#apiKey")).slice(0, 8);
    assert.equal(fragment, KEY.slice(0, 8));
    const [download] = await Promise.all([page.waitForEvent("download"), page.click('button[data-action="export"]')]);
    const exported = fs.readFileSync(await download.path(), "utf8");
    assert.match(exported, /"reason": ?"error"/);
    for (const [name, text] of Object.entries({ text: await page.evaluate(() => document.body.innerText), export: exported })) {
      assert.ok(!text.includes(fragment), `the key's start leaked into the ${name}`);
    }
    await page.context().close();
  });
});

describe("screenshots", () => {
  it("a step with reasoning and parallel calls, and the refusal card, in both sizes, schemes and languages", async () => {
    // Two real runs, exported; the parallel one gets the reasoning of the `reasoning` model
    // (no mock model does both), and both are imported into one page that is then resized.
    const exportOf = async (options) => {
      const page = await openWith(options);
      await run(page);
      const [download] = await Promise.all([page.waitForEvent("download"), page.click('button[data-action="export"]')]);
      const traj = JSON.parse(fs.readFileSync(await download.path(), "utf8"));
      await page.context().close();
      return traj;
    };
    const parallel = await exportOf({ model: "parallel-tools", format: "tools" });
    const reasoning = await exportOf({ model: "reasoning" });
    parallel.steps[0].model_calls.at(-1).thinking = reasoning.steps[0].model_calls.at(-1).thinking;
    const refusal = await exportOf({ provider: "anthropic", model: "refusal" });
    const files = {};
    for (const [name, traj] of Object.entries({ parallel, refusal })) {
      files[name] = path.join(OUT, `faults-${name}.json`);
      fs.writeFileSync(files[name], JSON.stringify(traj));
    }

    const page = await openPage(env, { viewport: { width: 1366, height: 850 } });
    const sizes = { desktop: { width: 1366, height: 850 }, phone: { width: 390, height: 844 } };
    const shoot = async (name, target, { element = false } = {}) => {
      for (const [size, viewport] of Object.entries(sizes)) {
        await page.setViewportSize(viewport);
        for (const scheme of ["light", "dark"]) {
          await page.emulateMedia({ colorScheme: scheme });
          const file = path.join(OUT, `faults-${name}-${size}-${scheme}-${await page.inputValue("#lang")}.png`);
          const node = page.locator(target).first();
          if (element) await node.screenshot({ path: file, animations: "disabled" });
          else {
            await node.evaluate((n) => n.scrollIntoView({ block: "start" }));
            await page.screenshot({ path: file, animations: "disabled" });
          }
          const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
          assert.ok(overflow <= 0, `no sideways scroll (${file}): ${overflow}px`);
        }
      }
    };
    for (const lang of ["en", "zh"]) {
      await page.selectOption("#lang", lang);
      for (const [name, file] of Object.entries(files)) {
        await page.setInputFiles("input[data-import-file]", file);
        await page.waitForSelector(`tao-trajectory [data-kind="${name === "parallel" ? "answer" : "stop"}"]`);
        await page.locator("tao-trajectory details.reasoning").evaluateAll((ds) => ds.forEach((d) => (d.open = true)));
        await shoot(name, name === "parallel" ? 'tao-trajectory [data-step="1"]' : "tao-trajectory .card-task");
      }
      // The Model panel with a provider chosen: Max tokens and the two timeouts, defaults shown.
      await page.selectOption("#provider", "openai");
      await shoot("model", "[data-model-settings]", { element: true });
      await page.selectOption("#provider", "scripted");
    }
    assert.equal(await page.inputValue("#firstByteTimeout"), "120");
    assert.equal(await page.inputValue("#idleTimeout"), "60");
    assert.equal(await page.textContent('label[for="firstByteTimeout"]'), "首字节超时（秒）");
    assert.equal(await page.textContent('tao-trajectory [data-kind="stop"] .card-label'), "已停止 · 模型拒绝回答");
    assertClean(page);
    await page.context().close();
  });
});

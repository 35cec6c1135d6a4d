// End-to-end tests of real models over fetch: the page, pointed at the mock OpenAI-compatible
// and Anthropic server (tests/mock/llm.mjs) on 127.0.0.1, as a user drives it.
//
//   node --test tests/e2e/providers.test.mjs      (serves target/site: build it first with `make site`)
//
// Index:
//   formats        mrkl, paper, tools and auto (with its fallback), over both APIs, streaming
//   client stop    a reply that runs on past Action Input is cut at the invented Observation,
//                  and the connection closed (the mock saw fewer characters leave)
//   failures       401, 404, wrong base URL, CORS, context too long, 429 (retried), a stream
//                  that ends early, an error event, invalid JSON: the message names the fix and
//                  the steps so far stay on screen
//   stop           Stop mid-stream aborts the fetch
//   test           "Test connection" reports what it found
//   links          provider, base URL, model and format travel in the share link; the key never
//   keys           a canary key appears nowhere but in the auth header: not in exports, links,
//                  storage (unless remembered), console, DOM, events or error messages

import { describe, it, before, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { setUp, openPage, waitStopped, texts, stat, OUT, fetched } from "./helpers.mjs";
import { startMockLlm, eventually } from "../mock/llm.mjs";

const CANARY = "sk-canary-7f3a9c1e5b2d4e6f8a0b";

let env;
let mock;
before(async () => {
  env = await setUp();
  mock = await startMockLlm({ port: 0, delayMs: 3 });
});
after(async () => {
  await mock?.close();
  await env?.close();
});

/** The base URL the page should use for `provider` at the mock. */
function base(provider) {
  return provider === "anthropic" ? mock.url : `${mock.url}/v1`;
}

/** Opens the page set to a provider at the mock (through the URL, as a shared link would). */
async function openWith({ provider = "openai", model = "react-mrkl", format = "mrkl", key = CANARY } = {}) {
  const q = new URLSearchParams({ scenario: "apple-ceo", provider, base: base(provider), model, format });
  const page = await openPage(env, { query: `?${q}` });
  if (key) await page.fill("#apiKey", key);
  return page;
}

async function runAndWait(page, timeout = 30000) {
  await page.click('button[data-action="run"]');
  return waitStopped(page, timeout);
}

async function errorText(page) {
  return (await page.textContent("[data-error]")) ?? "";
}

describe("formats", () => {
  const cases = [
    ["openai", "react-mrkl", "mrkl"],
    ["anthropic", "react-mrkl", "mrkl"],
    ["openai", "react-paper", "paper"],
    ["anthropic", "react-paper", "paper"],
    ["openai", "react-tools", "tools"],
    ["anthropic", "react-tools", "tools"],
  ];
  for (const [provider, model, format] of cases) {
    it(`${format} over ${provider}: two searches, then Mobile, Alabama, streamed`, async () => {
      mock.reset();
      const page = await openWith({ provider, model, format });
      // Count streamed token deltas as the page receives them.
      await page.evaluate(() => {
        window.__tokens = 0;
        document.addEventListener("tao:trajectory-event", (e) => {
          if (e.detail.type === "token") window.__tokens += 1;
        });
      });
      assert.equal(await runAndWait(page), "answer");
      const answers = await texts(page, "answer");
      assert.equal(answers.length, 1);
      assert.match(answers[0], /Mobile, Alabama/);
      const observations = await texts(page, "observation");
      assert.equal(observations.length, 2);
      assert.match(observations[0], /Tim Cook/);
      assert.ok((await page.evaluate(() => window.__tokens)) > 10, "the reply streamed in many deltas");
      assert.match(await stat(page, "tokens"), /^\d+ \/ \d+$/);
      const posts = mock.log.filter((r) => r.method === "POST");
      assert.equal(posts.length, 3);
      for (const r of posts) assert.equal(r.json.stream, true);
      if (format === "tools") assert.ok(posts.every((r) => Array.isArray(r.json.tools)));
      else assert.ok(posts.every((r) => r.json.tools === undefined));
      assert.deepEqual(page.problems.errors, []);
      await page.context().close();
    });
  }

  it("auto falls back to mrkl when the endpoint rejects tools, and shows the switch", async () => {
    mock.reset();
    const page = await openWith({ provider: "openai", model: "no-tools", format: "auto" });
    assert.equal(await runAndWait(page), "answer");
    const switches = await texts(page, "switch");
    assert.equal(switches.length, 1);
    assert.match(switches[0], /auto → mrkl/);
    assert.match(switches[0], /does not support tools/);
    assert.match((await texts(page, "answer"))[0], /Mobile, Alabama/);
    const posts = mock.log.filter((r) => r.method === "POST");
    assert.ok(Array.isArray(posts[0].json.tools));
    assert.equal(posts[0].status, 400);
    assert.ok(posts.slice(1).every((r) => r.json.tools === undefined && r.status === 200));
    await page.screenshot({ path: path.join(OUT, "provider-auto-fallback.png"), fullPage: true });
    await page.context().close();
  });

  it("auto falls back when the model answers in text ReAct (Anthropic)", async () => {
    const page = await openWith({ provider: "anthropic", model: "text-react", format: "auto" });
    assert.equal(await runAndWait(page), "answer");
    assert.match((await texts(page, "switch"))[0], /text ReAct/);
    assert.match((await texts(page, "answer"))[0], /Mobile, Alabama/);
    await page.context().close();
  });
});

describe("loading", () => {
  it("the providers' module is fetched only when a run first needs a provider, and once", async () => {
    const offline = await openPage(env, { query: "?scenario=apple-ceo" });
    assert.equal(await runAndWait(offline), "answer");
    assert.deepEqual(await fetched(offline, "tao_net"), [], "an offline run loads no provider");
    await offline.context().close();

    mock.reset();
    const page = await openWith({ provider: "openai" });
    assert.deepEqual(await fetched(page, "tao_net"), [], "a page set to a provider loads it only at Run");
    assert.equal(await runAndWait(page), "answer");
    assert.match((await texts(page, "answer"))[0], /Mobile, Alabama/);
    assert.deepEqual(await fetched(page, "tao_net"), ["/pkg/tao_net.js", "/pkg/tao_net_bg.wasm"]);
    assert.equal(await runAndWait(page), "answer", "a second run");
    assert.equal((await fetched(page, "tao_net")).length, 2, "loaded once");
    assert.deepEqual(page.problems.errors, []);
    await page.context().close();
  });
});

describe("client stop", () => {
  it("a reply that runs on is cut at the invented Observation and the stream closed", async () => {
    mock.reset();
    const page = await openWith({ model: "runaway" });
    assert.equal(await runAndWait(page), "answer");
    const observations = await texts(page, "observation");
    assert.match(observations[0], /Tim Cook/, "the real tool ran, not the model's invention");
    assert.ok(!observations.join(" ").includes("Steve Jobs is the CEO"));
    // The page has the answer; the connection's close reaches the server a moment later.
    const first = mock.log.find((r) => r.method === "POST");
    await eventually(() => first.aborted, 5000, "the client closed the connection");
    assert.equal(first.aborted, true, "the client closed the connection");
    assert.ok(first.sentChars < first.totalChars / 4, `${first.sentChars} of ${first.totalChars} characters sent`);
    await page.context().close();
  });
});

describe("failures", () => {
  const cases = [
    ["openai", "fail-401", /refused the API key \(HTTP 401/],
    ["anthropic", "fail-401", /refused the API key \(HTTP 401/],
    ["openai", "fail-404", /the model "fail-404" was not found/],
    ["openai", "fail-context", /longer than the model's context window/],
    ["anthropic", "fail-context", /longer than the model's context window/],
    ["openai", "no-cors", /could not reach .*CORS/],
    ["openai", "cut-early", /stream failed/],
    ["anthropic", "stream-error", /reported an error mid-stream: Overloaded/],
    ["openai", "bad-json", /not valid JSON/],
    ["openai", "fail-500-always", /the server failed \(HTTP 500\) after 3 retries/],
  ];
  for (const [provider, model, message] of cases) {
    it(`${provider} ${model}: a clear message, the run kept`, async () => {
      const page = await openWith({ provider, model });
      assert.equal(await runAndWait(page, 40000), "error");
      assert.match(await errorText(page), message);
      assert.ok(!(await errorText(page)).includes(CANARY));
      // The trajectory so far stays: the task card and the stop card with the same message.
      assert.equal((await texts(page, "task")).length, 1);
      assert.match((await texts(page, "stop")).join(" "), message);
      assert.deepEqual(page.problems.errors, []);
      await page.context().close();
    });
  }

  it("a wrong base URL says the base URL is probably wrong", async () => {
    const q = new URLSearchParams({ scenario: "apple-ceo", provider: "openai", base: `${mock.url}/wrong`, model: "react-mrkl" });
    const page = await openPage(env, { query: `?${q}` });
    assert.equal(await runAndWait(page), "error");
    assert.match(await errorText(page), /HTTP 404.*base URL is probably wrong/);
    await page.context().close();
  });

  it("Ollama without OLLAMA_ORIGINS: the hint names it", async () => {
    // Nothing listens on this port; the URL has Ollama's shape.
    const q = new URLSearchParams({ scenario: "apple-ceo", provider: "ollama", base: "http://127.0.0.1:11434/v1", model: "llama3.2" });
    const page = await openPage(env, { query: `?${q}` });
    assert.equal(await runAndWait(page), "error");
    assert.match(await errorText(page), /could not reach .*OLLAMA_ORIGINS/);
    await page.context().close();
  });

  it("429 is retried after Retry-After, visibly, then the run answers", async () => {
    mock.reset();
    const page = await openWith({ model: "fail-429" });
    assert.equal(await runAndWait(page, 40000), "answer");
    const notes = await texts(page, "note");
    assert.ok(notes.some((n) => /rate limited \(HTTP 429\); retrying in 1 s \(1\/3\)/.test(n)), notes.join("\n"));
    assert.ok(notes.some((n) => /\(2\/3\)/.test(n)));
    assert.match((await texts(page, "answer"))[0], /Mobile, Alabama/);
    await page.context().close();
  });
});

describe("stop", () => {
  it("Stop aborts the fetch mid-stream", async () => {
    mock.reset();
    const page = await openWith({ model: "slow" });
    await page.click('button[data-action="run"]');
    await page.waitForFunction(() => document.querySelector("tao-trajectory .raw-live .raw-text")?.textContent.length >= 4);
    const t0 = Date.now();
    await page.click('button[data-action="stop"]');
    assert.equal(await waitStopped(page, 5000), "aborted");
    assert.ok(Date.now() - t0 < 2000, "stopped at once, not at the end of the stream");
    // What streamed before Stop is still on screen, open, as it was seen.
    assert.match(await page.textContent("tao-trajectory [data-step='1'] [data-kind='partial']"), /^The reply so far \(stopped\)Thou/);
    const post = mock.log.find((r) => r.method === "POST");
    await eventually(() => post.aborted, 5000, "the server saw the connection close");
    assert.equal(post.aborted, true, "the server saw the connection close");
    await page.context().close();
  });
});

describe("test connection", () => {
  it("reports the model, its reply, latency and streaming", async () => {
    const page = await openWith({ model: "react-mrkl" });
    await page.click('button[data-action="test"]');
    await page.waitForFunction(() => document.querySelector("[data-connection]")?.dataset.ok);
    const text = await page.textContent("[data-connection]");
    assert.equal(await page.getAttribute("[data-connection]", "data-ok"), "true");
    assert.match(text, /Connected: openai:react-mrkl/);
    assert.match(text, /first token \d+ ms/);
    assert.match(text, /streamed \(\d+\)/);
    await page.context().close();
  });

  it("reports the diagnosed error when it fails", async () => {
    const page = await openWith({ provider: "anthropic", model: "fail-401" });
    await page.click('button[data-action="test"]');
    await page.waitForFunction(() => document.querySelector("[data-connection]")?.dataset.ok);
    assert.equal(await page.getAttribute("[data-connection]", "data-ok"), "false");
    assert.match(await page.textContent("[data-connection]"), /^the endpoint refused the API key/);
    // In Chinese, a sentence on what to do leads tao's own message.
    await page.selectOption('select[name="lang"]', "zh");
    await page.waitForFunction(() => document.documentElement.lang === "zh-CN" && document.querySelector('button[data-action="run"]').textContent === "运行");
    await page.click('button[data-action="test"]');
    await page.waitForFunction(() => /服务器拒绝了 API 密钥/.test(document.querySelector("[data-connection]")?.textContent ?? ""));
    assert.match(await page.textContent("[data-connection]"), /^服务器拒绝了 API 密钥：.*（the endpoint refused the API key/);
    await page.context().close();
  });
});

describe("links", () => {
  it("the share link carries provider, base URL, model and format, never the key", async () => {
    const page = await openWith({ provider: "anthropic", model: "react-tools", format: "tools" });
    await page.click('button[data-action="share"]');
    await page.waitForFunction(() => location.search.includes("provider="));
    const url = new URL(page.url());
    // A run on a server is set up by its link, never started by it.
    assert.equal(url.searchParams.get("autorun"), null);
    assert.equal(url.searchParams.get("provider"), "anthropic");
    assert.equal(url.searchParams.get("base"), mock.url);
    assert.equal(url.searchParams.get("model"), "react-tools");
    assert.equal(url.searchParams.get("format"), "tools");
    assert.ok(!page.url().includes(CANARY));
    // Opening the link restores the settings (the key field stays empty: it was never in it).
    const again = await openPage(env, { query: url.search });
    assert.equal(await again.inputValue("#provider"), "anthropic");
    assert.equal(await again.inputValue("#baseUrl"), mock.url);
    assert.equal(await again.inputValue("#model"), "react-tools");
    assert.equal(await again.inputValue("#format"), "tools");
    assert.equal(await again.inputValue("#apiKey"), "");
    await page.context().close();
    await again.context().close();
  });

  it("a link that names a server starts nothing, and a key remembered for another server stays out", async () => {
    mock.reset();
    const page = await openPage(env);
    // The reader's own server, with its key remembered.
    const own = "http://127.0.0.1:9/v1";
    await page.evaluate(([key, own]) => (localStorage.setItem("tao.apiKey.openai", key), localStorage.setItem("tao.apiKey.openai.for", own)), [CANARY, own]);
    // Anyone's link, naming another server.
    const q = new URLSearchParams({ scenario: "apple-ceo", provider: "openai", base: base("openai"), model: "react-mrkl", autorun: "1" });
    await page.goto(`${env.url}?${q}&wiki=offline`);
    await page.waitForSelector('body[data-ready="true"]');
    const host = new URL(base("openai")).host;
    assert.equal(await page.textContent("[data-status]"), `This link sets up react-mrkl at ${host}. Nothing is sent until you press Run.`);
    assert.equal(await page.inputValue("#apiKey"), "", "the key is not filled in for the link's server");
    assert.equal(await page.isChecked("[data-remember]"), false);
    await page.waitForTimeout(500);
    assert.equal(mock.log.filter((r) => r.method === "POST").length, 0, "nothing reached the server");
    assert.equal(await page.locator("tao-trajectory [data-step]").count(), 0, "no run began");
    // Run sends the key the reader types, never the remembered one.
    await page.fill("#apiKey", "sk-typed-for-this-server");
    assert.equal(await runAndWait(page), "answer", await errorText(page));
    const posts = mock.log.filter((r) => r.method === "POST");
    assert.ok(posts.length > 0);
    assert.ok(posts.every((r) => !JSON.stringify(r.headers).includes(CANARY)), "the remembered key never went there");
    assert.equal(await page.evaluate(() => localStorage.getItem("tao.apiKey.openai")), CANARY, "the remembered key is kept");
    // Without a link's server, the page is set to the remembered one, key and all.
    await page.goto(`${env.url}?provider=openai&wiki=offline`);
    await page.waitForSelector('body[data-ready="true"]');
    assert.equal(await page.inputValue("#baseUrl"), own);
    assert.equal(await page.inputValue("#apiKey"), CANARY);
    await page.context().close();
  });
});

describe("keys", () => {
  it("a canary key appears only in the Authorization / x-api-key header", async () => {
    mock.reset();
    for (const provider of ["openai", "anthropic"]) {
      const page = await openWith({ provider, model: "react-tools", format: "tools" });
      const console = [];
      page.on("console", (m) => console.push(m.text()));
      await page.evaluate(() => {
        window.__events = [];
        document.addEventListener("tao:trajectory-event", (e) => window.__events.push(JSON.stringify(e.detail)));
      });
      assert.equal(await runAndWait(page), "answer");
      await page.click('button[data-action="test"]');
      await page.waitForFunction(() => document.querySelector("[data-connection]")?.dataset.ok);

      // Every artifact the page produces.
      const [download] = await Promise.all([page.waitForEvent("download"), page.click('button[data-action="export"]')]);
      const exported = fs.readFileSync(await download.path(), "utf8");
      assert.match(exported, /"answer"/);
      await page.click('button[data-action="share"]');
      await page.waitForFunction(() => location.search.includes("provider="));
      const artifacts = {
        export: exported,
        link: page.url(),
        storage: await page.evaluate(() => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage })),
        dom: await page.evaluate(() => document.documentElement.outerHTML),
        text: await page.evaluate(() => document.body.innerText),
        events: (await page.evaluate(() => window.__events)).join("\n"),
        console: console.join("\n"),
        cookies: JSON.stringify(await page.context().cookies()),
      };
      for (const [name, text] of Object.entries(artifacts)) {
        assert.ok(!text.includes(CANARY), `the key leaked into ${name}`);
      }
      await page.context().close();
    }
    // At the server: only in the auth header, never in a URL or a body.
    const posts = mock.log.filter((r) => r.method === "POST");
    assert.ok(posts.length >= 6);
    for (const r of posts) {
      assert.ok(!r.path.includes(CANARY) && !r.body.includes(CANARY), "not in the URL or the body");
      const carrying = Object.entries(r.headers).filter(([, v]) => String(v).includes(CANARY)).map(([k]) => k);
      const expected = r.path.endsWith("/messages") ? ["x-api-key"] : ["authorization"];
      assert.deepEqual(carrying, expected);
    }
  });

  it("the page starts, its key field empty, when the remembered keys' module cannot load", async () => {
    const context = await env.browser.newContext();
    await context.route("**/keys.js", (route) => route.abort());
    const page = await context.newPage();
    await page.goto(`${env.url}?provider=openai&wiki=offline`);
    await page.waitForSelector('body[data-ready="true"]', { timeout: 20000 });
    assert.equal(await page.inputValue("#apiKey"), "");
    await context.close();
  });

  it("remember on this device is an explicit opt-in, undone by unticking", async () => {
    const page = await openWith({ provider: "openai", model: "react-mrkl" });
    assert.equal(await page.evaluate(() => localStorage.length), 0, "nothing stored without the opt-in");
    assert.ok(await page.isHidden("[data-remember-warning]"));
    await page.check("[data-remember]");
    assert.ok(await page.isVisible("[data-remember-warning]"));
    assert.equal(await page.evaluate(() => localStorage.getItem("tao.apiKey.openai")), CANARY);
    // A new visit on this device finds the key.
    await page.reload();
    await page.waitForSelector('body[data-ready="true"]');
    assert.equal(await page.inputValue("#apiKey"), CANARY);
    assert.ok(await page.isChecked("[data-remember]"));
    await page.uncheck("[data-remember]");
    assert.equal(await page.evaluate(() => localStorage.getItem("tao.apiKey.openai")), null);
    await page.context().close();
  });
});

describe("in-browser models", () => {
  it("the web-llm adapter drives a run (with a stand-in engine of web-llm's shape)", async () => {
    const page = await openPage(env);
    const result = await page.evaluate(async () => {
      const { default: init, Agent } = await import("/pkg/tao_agent.js");
      await init();
      const { webLlmModel } = await import("/www/webllm.js");
      // web-llm's MLCEngine API: chat.completions.create({stream: true}) -> async iterable of
      // OpenAI-style chunks; interruptGenerate() stops it.
      const replies = [
        "Thought: I should compute it.\nAction: calculator\nAction Input: 17 * 23\nObservation: 391 (invented)\n",
        "Thought: I know it now.\nFinal Answer: 391",
      ];
      const engine = {
        interrupted: 0,
        interruptGenerate() {
          this.interrupted += 1;
        },
        chat: {
          completions: {
            async create(request) {
              const turns = request.messages.filter((m) => m.role === "assistant").length;
              const text = replies[turns];
              return (async function* () {
                for (let i = 0; i < text.length; i += 4) yield { choices: [{ delta: { content: text.slice(i, i + 4) } }] };
                yield { choices: [], usage: { prompt_tokens: 100, completion_tokens: 12 } };
              })();
            },
          },
        },
      };
      const agent = new Agent({ model: webLlmModel(engine), tools: ["calculator"] });
      const t = await agent.run("What is 17 * 23?");
      return { answer: t.answer, observation: t.steps[0].tool_calls[0].observation, interrupted: engine.interrupted, tokens: t.stats.prompt_tokens };
    });
    assert.equal(result.answer, "391");
    assert.equal(result.observation, "391", "the calculator ran, not the invented observation");
    assert.equal(result.interrupted, 1, "generation was interrupted at the invented Observation");
    assert.equal(result.tokens, 100, "usage from the final chunk of the second reply");
    await page.context().close();
  });
});

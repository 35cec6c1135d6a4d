// MCP servers' tools in the page, the element and the JS API, against real servers that nobody
// here wrote, started by this file on 127.0.0.1: the protocol's reference server
// (@modelcontextprotocol/server-everything, npm, pinned: the older protocol, with sessions) and a
// server written with the Python SDK (tests/mcp/atlas.py on `mcp` 2.3.0 from PyPI, pinned: the
// 2026-07-28 protocol, stateless; with a token, or without CORS, as a test needs). And the host
// page's own tools through WebMCP, in Chromium with its WebMCP flag on.
//
//   node --test tests/e2e/mcp.test.mjs       (needs `make site dist` and scripts/install.sh test)
//
// Index:
//   api        the reference server through `Agent`: its tools listed (asking first by default),
//              called with arguments, one failing, an image in words, a bad input repaired by
//              tao before any call, a denied approval
//   session    the reference server restarted between the listing and the call: the session it
//              dropped is opened again, once, and the call answers
//   cancel     a long call abandoned at its time limit, and another at Stop, both at once; a
//              server that never answers: its listing ends at the time limit, or at Stop
//   page       the Python server added in the Tools panel (tools, descriptions, schemas, switches),
//              a whole run played by You calling its tools, asked and approved; Share carries
//              the URL only
//   token      a server that wants a token: none, a wrong one, the right one; the token in no
//              link, export, event, error or page text
//   failures   a server without CORS (the headers it must send, named), a page that is not MCP,
//              nothing listening, a run whose server dies mid-way (the steps so far kept)
//   element    <tao-agent mcp="…"> from a copy of dist/, its approval asked in the element
//   webmcp     the host page's tools (document.modelContext.registerTool) used by
//              <tao-agent webmcp> and by the page's Tools panel
//   look       the panel with two servers at 1366×850 and 390×844, light and dark, English and
//              Chinese (four pages cover each twice): axe-core clean, no sideways scroll,
//              screenshots out/mcp-*.png

import { describe, it, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { setUp, openPage, waitStopped, CHROMIUM, ARGS, OUT } from "./helpers.mjs";
import { REPO_ROOT, serve, requireBuilt } from "./server.mjs";

const require = createRequire(import.meta.url);
const { chromium } = require("playwright-core");

const EVERYTHING = path.join(REPO_ROOT, "node_modules/@modelcontextprotocol/server-everything/dist/index.js");
const PYTHON = path.join(REPO_ROOT, "target/mcp-venv/bin/python");
const ATLAS = path.join(REPO_ROOT, "tests/mcp/atlas.py");
const TOKEN = "tok-CANARY-5f3a9c";

/** A free port on 127.0.0.1. */
function freePort() {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Starts `command` (a server that listens on `port`) and waits until it accepts connections. */
async function start(command, args, port, env = {}) {
  const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (d) => (stderr += d));
  const deadline = Date.now() + 30000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${path.basename(args[0])} exited: ${stderr}`);
    const up = await new Promise((resolve) => {
      const socket = net.connect(port, "127.0.0.1", () => resolve(socket.end() && true));
      socket.on("error", () => resolve(false));
    });
    if (up) break;
    if (Date.now() > deadline) throw new Error(`${path.basename(args[0])} did not listen on ${port}: ${stderr}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    port,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", resolve);
        child.kill();
      }),
  };
}

/** The reference server, on `port` (a free one by default). */
const everything = async (port) => {
  port ??= await freePort();
  return start(process.execPath, [EVERYTHING, "streamableHttp"], port, { PORT: String(port) });
};
/** The Python SDK's server: `stateless` or `sessions`, `cors` or `no-cors`, and a token. */
const atlas = async (...options) => {
  const port = await freePort();
  return start(PYTHON, [ATLAS, String(port), ...options], port);
};

let env;
let servers = {};
before(async () => {
  requireBuilt("target/mcp-venv/installed", "dist/tao.js");
  env = await setUp();
  [servers.everything, servers.atlas, servers.locked, servers.closed] = await Promise.all([
    everything(),
    atlas("stateless", "cors"),
    atlas("stateless", "cors", TOKEN),
    atlas("stateless", "no-cors"),
  ]);
});
after(async () => {
  await Promise.all(Object.values(servers).map((s) => s.stop()));
  await env?.close();
});

/** A page of the demo site's origin with the core loaded (`window.tao`), for the JS API. */
async function apiPage() {
  const context = await env.browser.newContext();
  const page = await context.newPage();
  await page.goto(`${env.url}pkg/data/scenarios.json`);
  await page.evaluate(async () => {
    window.tao = await import("/pkg/tao_agent.js");
    await window.tao.default();
  });
  return page;
}

/**
 * Runs `task` in `page` with an agent of `config` whose scripted model replies `replies`, approving
 * every call unless its tool is in `deny`; `abortAfterMs` stops the run. Resolves to the tools,
 * the trajectory, the events (as JSON text) and the approvals asked.
 */
function apiRun(page, config, replies, { deny = [], abortAfterMs, task = "Go." } = {}) {
  return page.evaluate(
    async ({ config, replies, deny, abortAfterMs, task }) => {
      const agent = new window.tao.Agent({ ...config, replies, format: "mrkl" });
      const events = [];
      const asked = [];
      try {
        const tools = await agent.tools();
        const signal = abortAfterMs ? AbortSignal.timeout(abortAfterMs) : undefined;
        const started = performance.now();
        const trajectory = await agent.run(task, {
          signal,
          onEvent: (e) => events.push(JSON.stringify(e)),
          approve: async ({ tool, input, server }) => (asked.push({ tool, input, server }), !deny.includes(tool)),
        });
        return { tools, trajectory, events, asked, ms: performance.now() - started };
      } catch (e) {
        return { error: e.message, kind: e.kind, events };
      } finally {
        agent.free();
      }
    },
    { config, replies, deny, abortAfterMs, task },
  );
}

/** Each step's observations, in order. */
const observations = (trajectory) => trajectory.steps.flatMap((s) => s.tool_calls.map((c) => c.observation));

const step = (tool, input) => `Thought: I use ${tool}.\nAction: ${tool}\nAction Input: ${JSON.stringify(input)}`;

describe("mcp", () => {
  it("api: the reference server's tools listed, called, failing, an image in words, a bad input repaired, a call denied", async () => {
    const page = await apiPage();
    const replies = [
      step("get-sum", { a: 2, b: 3 }),
      step("get-tiny-image", {}),
      step("get-resource-reference", { resourceType: "Text", resourceId: -5 }),
      step("get-sum", { a: "two", b: 3 }),
      step("echo", { message: "never sent" }),
      "Thought: I know it.\nFinal Answer: 5",
    ];
    const r = await apiRun(page, { mcp: [servers.everything.url] }, replies, { deny: ["echo"] });
    assert.ok(r.events.some((e) => JSON.parse(e).type === "approval"), "approvals are events");
    assert.equal(r.error, undefined, r.error);
    const names = r.tools.map((t) => t.name);
    for (const name of ["echo", "get-sum", "get-tiny-image"]) assert.ok(names.includes(name), `${name} in ${names}`);
    assert.ok(r.tools.every((t) => t.needsApproval), "a server's tools ask first by default");
    const sum = r.tools.find((t) => t.name === "get-sum");
    assert.match(sum.description, /sum of two numbers/);
    assert.equal(sum.parameters.properties.a.type, "number");
    assert.equal(sum.parameters.$schema, undefined, "the schema's draft is not told to the model");
    // What came of each call, as the model read it.
    const seen = observations(r.trajectory);
    assert.equal(seen[0], "The sum of 2 and 3 is 5.");
    assert.match(seen[1], /^Here's the image you requested:\n\[image: image\/png, [\d.]+ KB\]\nThe image above is the MCP logo\.$/);
    assert.match(seen[2], /^Error: get-resource-reference failed: .*resourceId/);
    assert.match(seen[3], /^Invalid input for get-sum: .*"a".*number/);
    assert.match(seen[4], /The user denied this call to echo/);
    assert.equal(r.trajectory.stop.reason, "answer");
    // Asked before each call that ran or was denied; a repaired input was never asked about.
    assert.deepEqual(r.asked.map((a) => a.tool), ["get-sum", "get-tiny-image", "get-resource-reference", "echo"]);
    assert.deepEqual(r.asked[0].input, { a: 2, b: 3 });
    assert.deepEqual(new Set(r.asked.map((a) => a.server)), new Set([servers.everything.url]), "each asks naming its server");
    // The prompt describes the server's tools in the format's words.
    const prompt = await page.evaluate((url) => {
      const agent = new window.tao.Agent({ mcp: [{ url, tools: ["get-sum"], approve: false }], replies: [] });
      return agent.tools().then((tools) => ({ tools, text: agent.prompt("x").messages[0].content }));
    }, servers.everything.url);
    assert.deepEqual(prompt.tools.map((t) => [t.name, t.needsApproval]), [["get-sum", false]]);
    const misspelled = await apiRun(page, { mcp: [{ url: servers.everything.url, tools: ["get-summ"] }] }, []);
    assert.match(misspelled.error, /has no tool "get-summ"; its tools are: echo, /);
    assert.match(prompt.text, /get-sum: Returns the sum of two numbers/);
    await page.context().close();
  });

  it("session: a session the server dropped is opened again once, and the call answers", async () => {
    const page = await apiPage();
    const replies = [step("get-sum", { a: 20, b: 22 }), "Thought: ok.\nFinal Answer: 42"];
    await page.evaluate(({ url, replies }) => {
      window.agent = new window.tao.Agent({ mcp: [{ url, approve: false }], format: "mrkl", replies });
      return window.agent.tools();
    }, { url: servers.everything.url, replies });
    const port = servers.everything.port;
    await servers.everything.stop();
    servers.everything = await everything(port);
    const t = await page.evaluate(() => window.agent.run("What is 20 + 22?"));
    assert.deepEqual(observations(t), ["The sum of 20 and 22 is 42."]);
    assert.equal(t.stop.reason, "answer");
    await page.context().close();
  });

  it("cancel: a long call is abandoned at its time limit, and another at Stop; so is a listing that never ends", async () => {
    const page = await apiPage();
    const long = step("trigger-long-running-operation", { duration: 10, steps: 10 });
    const config = { mcp: [{ url: servers.everything.url, approve: false }] };
    const timed = await apiRun(page, { ...config, toolTimeoutMs: 700 }, [long, "Thought: too slow.\nFinal Answer: none"]);
    assert.equal(timed.error, undefined, timed.error);
    assert.match(observations(timed.trajectory)[0], /did not answer within 700 ms/);
    assert.ok(timed.ms < 5000, `the run took ${timed.ms} ms`);
    const stopped = await apiRun(page, config, [long, "Final Answer: none"], { abortAfterMs: 1500 });
    assert.equal(stopped.trajectory.stop.reason, "aborted");
    assert.ok(stopped.ms < 4000, `Stop took effect after ${stopped.ms} ms`);
    // A server that takes the connection and never answers: listing ends at the tools' time
    // limit, or at Stop, never later.
    const silent = net.createServer(() => {});
    await new Promise((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const mute = `http://127.0.0.1:${silent.address().port}/mcp`;
    const waited = await page.evaluate(async (url) => {
      const started = performance.now();
      const agent = new window.tao.Agent({ mcp: [url], replies: [], toolTimeoutMs: 800 });
      const listed = await agent.tools().then(() => ({ error: "listed" }), (e) => ({ error: e.message, kind: e.kind }));
      const stopped = await agent.run("Go.", { signal: AbortSignal.timeout(300) }).then(() => ({ error: "ran" }), (e) => ({ kind: e.kind }));
      return { listed, stopped, ms: performance.now() - started };
    }, mute);
    silent.close();
    assert.equal(waited.listed.kind, "timeout");
    assert.equal(waited.listed.error, `the MCP server ${mute} did not list its tools within 800 ms`);
    assert.equal(waited.stopped.kind, "aborted");
    assert.ok(waited.ms < 4000, `${waited.ms} ms`);
    await page.context().close();
  });
});

/** Adds the MCP server at `url` (with `token`) in the page's Tools panel; resolves to the status line. */
async function addServer(page, url, token = "") {
  const panel = page.locator("[data-tools-panel]");
  if ((await panel.getAttribute("open")) === null) await page.click("[data-tools-panel] > summary");
  if (!(await page.locator("#mcpUrl").count())) {
    await page.click("[data-mcp-open]"); // the form comes with its module, the focus in it
    await page.waitForFunction(() => document.activeElement?.id === "mcpUrl");
  }
  await page.fill("#mcpUrl", url);
  await page.fill("#mcpToken", token);
  await page.click("[data-mcp] button[type=submit]");
  const status = page.locator("[data-mcp-status]");
  await page.waitForFunction(() => /tools\.$|Not added|个工具。$|未添加/.test(document.querySelector("[data-mcp-status]").textContent));
  return status.textContent();
}

/** The observations on the page's cards, as the model read them. */
const observed = (page) => page.$$eval('tao-trajectory [data-kind="observation"] .card-pre', (nodes) => nodes.map((n) => n.textContent));

/** Types `text` as You's reply and sends it. */
async function reply(page, text) {
  const box = page.getByRole("textbox", { name: "Your reply" });
  await box.waitFor();
  await box.fill(text);
  await page.click('button:text-is("Send")');
}

describe("mcp in the page", () => {
  it("page: the Python server added in the Tools panel, switched, and used through a run You play", async () => {
    const page = await openPage(env, { query: "?provider=human" });
    const { url } = servers.atlas;
    assert.equal(await addServer(page, url), `${url}: 2 tools.`);
    const server = page.locator(`[data-mcp-server="${url}"]`);
    assert.deepEqual(await server.locator("[data-mcp-tool] code").allTextContents(), ["capital", "population"]);
    assert.equal(await server.locator('[data-mcp-tool="capital"] .tool-description').textContent(), "The capital city of a country.");
    await server.locator('[data-mcp-tool="capital"] summary').click();
    assert.match(await server.locator('[data-mcp-tool="capital"] pre').textContent(), /"country": \{\s+"title": "Country",\s+"type": "string"/);
    // Switched off, a tool is not told to the model; on again, it is.
    const modelView = page.locator("[data-model-view]");
    await page.click(".model-view > summary");
    await page.waitForFunction(() => document.querySelector("[data-model-view]").textContent.includes("population:"));
    await server.getByRole("checkbox", { name: "use population", exact: true }).uncheck();
    await page.waitForFunction(() => !document.querySelector("[data-model-view]").textContent.includes("population:"));
    assert.match(await modelView.textContent(), /capital: The capital city of a country\./);
    await server.locator('[data-mcp-tool="population"] input[type="checkbox"]').first().check();
    await page.waitForFunction(() => document.querySelector("[data-tools-summary]").textContent.includes("capital, population"));
    // A switch changed from the keyboard keeps the focus.
    const ask = server.getByRole("checkbox", { name: "ask me before each call: population" });
    await ask.focus();
    await page.keyboard.press("Space");
    assert.equal(await ask.evaluate((box) => box === document.activeElement && !box.checked), true);
    await page.keyboard.press("Space");
    // "capital" runs without asking; "population" asks first (the default).
    await server.getByRole("checkbox", { name: "ask me before each call: capital" }).uncheck();
    // The server's tools alone: the example reply You are shown calls one of them.
    for (const box of await page.locator('li.tool-row[data-tool] input[type="checkbox"]:checked').all()) await box.uncheck();
    await page.fill('textarea[name="task"]', "How many people live in the capital of Japan?");
    await page.click('button:text-is("Run")');
    await page.locator("[data-example]").waitFor();
    assert.match(await page.locator("[data-example]").textContent(), /Action: capital\nAction Input: /);
    await reply(page, step("capital", { country: "Japan" }));
    await page.waitForFunction(() => [...document.querySelectorAll('tao-trajectory [data-kind="observation"]')].some((n) => n.textContent.includes("Tokyo")));
    await reply(page, step("population", { city: "Tokyo" }));
    // The question names the server the input goes to.
    const question = page.locator('tao-trajectory [data-kind="approval"] .card-text');
    assert.equal(await question.textContent(), `The agent wants to call population of the MCP server ${url} with this input. Run it?`);
    await page.locator('[data-approve="yes"]').click();
    await page.waitForFunction(() => [...document.querySelectorAll('tao-trajectory [data-kind="observation"]')].some((n) => n.textContent.includes("14.0 million")));
    await reply(page, "Thought: Tokyo has 14.0 million people.\nFinal Answer: 14.0 million");
    assert.equal(await waitStopped(page), "answer");
    assert.deepEqual(await observed(page), ["Tokyo", "14.0 million"]);
    assert.equal(await page.locator('tao-trajectory [data-kind="approval"]').count(), 1);
    // Share carries the server's URL (and nothing else of it).
    await page.click('button[data-action="share"]');
    await page.waitForFunction(() => location.search.includes("autorun=1"));
    const link = new URL(page.url());
    assert.equal(link.searchParams.get("mcp"), url);
    // The link opens the page with the server connected again.
    const again = await openPage(env, { query: `?provider=human&mcp=${encodeURIComponent(url)}` });
    await again.click("[data-tools-panel] > summary");
    assert.equal(await again.locator(`[data-mcp-server="${url}"] [data-mcp-tool]`).count(), 2);
    await again.context().close();
    await page.context().close();
  });

  it("token: none, a wrong one, the right one; the token in no link, export, event, error or page text", async () => {
    const page = await openPage(env, { query: "?provider=human" });
    const { url } = servers.locked;
    assert.match(await addServer(page, url), /^Not added: the MCP server .* needs a token \(HTTP 401\)/);
    // A link naming it opens the Tools panel on why it was not added, its URL ready for a token.
    const linked = await openPage(env, { query: `?provider=human&mcp=${encodeURIComponent(url)}` });
    assert.equal(await linked.locator("[data-tools-panel]").getAttribute("open"), "");
    assert.match(await linked.textContent("[data-mcp-status]"), /needs a token \(HTTP 401\)/);
    assert.equal(await linked.inputValue("#mcpUrl"), url);
    await linked.context().close();
    assert.match(await addServer(page, url, "tok-wrong"), /^Not added: the MCP server .* refused the token \(HTTP 401\)/);
    assert.equal(await addServer(page, url, TOKEN), `${url}: 2 tools.`);
    await page.fill('textarea[name="task"]', "What is the capital of Kenya?");
    await page.click('button:text-is("Run")');
    await reply(page, step("capital", { country: "Kenya" }));
    await page.locator('[data-approve="yes"]').click();
    await reply(page, "Thought: Nairobi.\nFinal Answer: Nairobi");
    assert.equal(await waitStopped(page), "answer");
    assert.deepEqual(await observed(page), ["Nairobi"]);
    await page.click('button[data-action="share"]');
    await page.waitForFunction(() => location.search.includes("autorun=1"));
    const [download] = await Promise.all([page.waitForEvent("download"), page.click('button[data-action="export"]')]);
    const exported = fs.readFileSync(await download.path(), "utf8");
    for (const [where, text] of [["link", page.url()], ["export", exported], ["page", await page.content()]]) {
      assert.ok(!text.includes(TOKEN), `the token is in the ${where}`);
    }
    // Through the JS API: the events and the errors of a run never carry it either.
    const api = await apiPage();
    const r = await apiRun(api, { mcp: [{ url, headers: { Authorization: `Bearer ${TOKEN}` }, approve: false }] }, [step("capital", { country: "Mars" }), "Final Answer: none"]);
    assert.match(observations(r.trajectory)[0], /^Error: capital failed: /);
    assert.ok(!JSON.stringify(r).includes(TOKEN), "the token is in the run's events or trajectory");
    const refused = await apiRun(api, { mcp: [{ url, headers: { Authorization: `Bearer ${TOKEN}x` } }] }, []);
    assert.equal(refused.kind, "auth");
    assert.ok(!refused.error.includes(TOKEN), refused.error);
    await api.context().close();
    await page.context().close();
  });

  it("failures: no CORS, not an MCP endpoint, nothing listening, and a server that dies mid-run", async () => {
    const page = await openPage(env, { query: "?provider=human" });
    const origin = new URL(env.url).origin;
    const cors = await addServer(page, servers.closed.url);
    assert.ok(cors.startsWith(`Not added: could not reach the MCP server ${servers.closed.url} (`), cors);
    assert.ok(cors.includes(`Access-Control-Allow-Origin: ${origin}, or *`), cors);
    assert.match(cors, /Access-Control-Expose-Headers: Mcp-Session-Id/);
    const page404 = await addServer(page, `${env.url}index.html`);
    assert.match(page404, /is not an MCP endpoint: it answered with a web page titled "tao — a ReAct agent in your browser"/);
    // A file that is no text (a new user gave a model's URL): said so, its bytes not quoted.
    const file = await addServer(page, `${env.url}pkg/tao_agent_bg.wasm`);
    assert.match(file, /tao_agent_bg\.wasm is not an MCP endpoint: it answered with a file that is not text/);
    const nobody = `http://127.0.0.1:${await freePort()}/mcp`;
    assert.match(await addServer(page, nobody), /^Not added: could not reach the MCP server/);
    assert.equal(await page.locator("[data-mcp-server]").count(), 0, "no server was added");
    // A server that stops answering mid-run: the call fails as an observation, the run goes on,
    // and the steps before stay.
    const brief = await atlas("stateless", "cors");
    await addServer(page, brief.url);
    await page.locator(`[data-mcp-server="${brief.url}"]`).getByRole("checkbox", { name: "ask me before each call: capital" }).uncheck();
    await page.fill('textarea[name="task"]', "Capitals?");
    await page.click('button:text-is("Run")');
    await reply(page, step("capital", { country: "France" }));
    await page.waitForFunction(() => [...document.querySelectorAll('tao-trajectory [data-kind="observation"]')].some((n) => n.textContent.includes("Paris")));
    await brief.stop();
    await reply(page, step("capital", { country: "Japan" }));
    await page.waitForFunction(() => document.querySelectorAll('tao-trajectory [data-kind="observation"]').length === 2);
    await reply(page, "Thought: Paris, at least.\nFinal Answer: Paris");
    assert.equal(await waitStopped(page), "answer");
    const seen = await observed(page);
    assert.equal(seen[0], "Paris");
    assert.match(seen[1], new RegExp(`^Error: capital failed: could not reach the MCP server ${brief.url.replace(/[.]/g, "\\.")}`));
    await page.context().close();
  });
});

/** A folder holding a copy of dist/ and `pages`, served on a free port: { url, close }. */
async function distSite(pages) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "tao-mcp-"));
  fs.cpSync(path.join(REPO_ROOT, "dist"), path.join(root, "dist"), { recursive: true });
  for (const [name, html] of Object.entries(pages)) fs.writeFileSync(path.join(root, name), html);
  return serve(root);
}

/** A page whose <tao-agent> (with `attributes`) replays `replies`; `script` runs first. */
const elementPage = (attributes, replies, script = "") => `<!doctype html><meta charset="utf-8"><title>MCP</title>
<script type="module">${script}
const el = document.querySelector("tao-agent");
el.replies = ${JSON.stringify(replies)};
</script>
<tao-agent format="mrkl" ${attributes}></tao-agent>
<script type="module" src="dist/tao.js"></script>`;

/** The observations inside an element's shadow root. */
const elementObserved = (page) => page.$$eval("tao-agent", ([el]) => [...el.shadowRoot.querySelectorAll('[data-kind="observation"] .card-pre')].map((n) => n.textContent));

describe("mcp in the element, and the page's own tools", () => {
  it("element: <tao-agent mcp> uses a server's tools, asks in the element, and takes a token only as a property", async () => {
    const replies = [step("capital", { country: "France" }), "Thought: Paris.\nFinal Answer: Paris"];
    const site = await distSite({
      "attribute.html": elementPage(`mcp="${servers.atlas.url}" task="The capital of France?"`, replies),
      "token.html": elementPage(`task="The capital of Kenya?"`, [step("capital", { country: "Kenya" }), "Final Answer: Nairobi"], `
document.querySelector("tao-agent").mcp = [{ url: ${JSON.stringify(servers.locked.url)}, headers: { Authorization: "Bearer ${TOKEN}" }, approve: false }];`),
    });
    const context = await env.browser.newContext();
    try {
      const page = await context.newPage();
      await page.goto(`${site.url}attribute.html`);
      await page.locator("tao-agent").getByRole("button", { name: "Run" }).click();
      await page.locator('tao-agent [data-approve="yes"]').click();
      await page.waitForFunction(() => document.querySelector("tao-agent").trajectory?.stop);
      assert.deepEqual(await elementObserved(page), ["Paris"]);
      assert.equal(await page.evaluate(() => document.querySelector("tao-agent").trajectory.stop.reason), "answer");
      const locked = await context.newPage();
      await locked.goto(`${site.url}token.html`);
      await locked.locator("tao-agent").getByRole("button", { name: "Run" }).click();
      await locked.waitForFunction(() => document.querySelector("tao-agent").trajectory?.stop);
      assert.deepEqual(await elementObserved(locked), ["Nairobi"]);
      const drawn = await locked.evaluate(() => {
        const el = document.querySelector("tao-agent");
        return el.outerHTML + el.shadowRoot.innerHTML + JSON.stringify(el.trajectory);
      });
      assert.ok(!drawn.includes(TOKEN), "the token is in the element, its view or its trajectory");
    } finally {
      await context.close();
      await site.close();
    }
  });

  it("webmcp: the tools the page registered (document.modelContext) serve <tao-agent webmcp> and the Tools panel", async () => {
    // Chromium's WebMCP, behind its flag: a browser of this test's own.
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: [...ARGS, "--enable-features=WebMCP"] });
    const register = `document.modelContext.registerTool({
  name: "stock",
  description: "How many of an item the shop has.",
  inputSchema: { type: "object", properties: { item: { type: "string" } }, required: ["item"] },
  execute: async ({ item }) => ({ content: [{ type: "text", text: item === "tea" ? "12 boxes of tea" : "none" }] }),
});`;
    const site = await distSite({
      "shop.html": elementPage(`webmcp task="How much tea is there?"`, [step("stock", { item: "tea" }), "Thought: 12.\nFinal Answer: 12 boxes"], register),
    });
    try {
      const page = await browser.newPage();
      await page.goto(`${site.url}shop.html`);
      await page.locator("tao-agent").getByRole("button", { name: "Run" }).click();
      await page.waitForFunction(() => document.querySelector("tao-agent").trajectory?.stop);
      assert.deepEqual(await elementObserved(page), ["12 boxes of tea"]);
      // The demo page: its Tools panel offers the page's tools where the browser has WebMCP.
      const demo = await browser.newPage();
      await demo.goto(`${env.url}?wiki=offline&provider=human`);
      await demo.waitForSelector('body[data-ready="true"]');
      await demo.evaluate(register);
      await demo.click("[data-tools-panel] > summary");
      await demo.check('[name="webmcp"]');
      await demo.fill('textarea[name="task"]', "How much tea is there?");
      await demo.click('button:text-is("Run")');
      await reply(demo, step("stock", { item: "tea" }));
      await demo.waitForFunction(() => document.querySelector('tao-trajectory [data-kind="observation"]'));
      await reply(demo, "Thought: 12.\nFinal Answer: 12 boxes");
      assert.equal(await waitStopped(demo), "answer");
      assert.deepEqual(await observed(demo), ["12 boxes of tea"]);
      // Without WebMCP (the other tests' browser), the panel does not offer it.
      const plain = await openPage(env);
      await plain.click("[data-tools-panel] > summary");
      assert.equal(await plain.isVisible('[name="approveCode"]'), true);
      assert.equal(await plain.isHidden("[data-webmcp]"), true);
      await plain.context().close();
    } finally {
      await browser.close();
      await site.close();
    }
  });
});

describe("mcp: the panel as people see it", () => {
  it("look: two servers in the Tools panel, both sizes, both schemes, both languages, axe-clean", async () => {
    const axe = require.resolve("axe-core/axe.min.js");
    const wide = { width: 1366, height: 850 };
    const phone = { width: 390, height: 844 };
    // Each size, scheme and language twice, in four pages (all eight cost a tenth of the file).
    const looks = [["wide", wide, "light", "en"], ["wide", wide, "dark", "zh"], ["phone", phone, "light", "zh"], ["phone", phone, "dark", "en"]];
    for (const [size, viewport, scheme, lang] of looks) {
      const page = await openPage(env, { viewport, colorScheme: scheme, query: `?lang=${lang}&provider=human` });
      for (const server of [servers.atlas, servers.everything]) {
        const said = await addServer(page, server.url);
        assert.match(said, /tools\.$|个工具。$/, said);
      }
      await page.locator('[data-mcp-tool="capital"] summary').click();
      const status = await page.textContent("[data-mcp-status]");
      assert.match(status, lang === "zh" ? /13 个工具。$/ : /13 tools\.$/);
      await page.locator("[data-mcp]").scrollIntoViewIfNeeded();
      await page.screenshot({ path: path.join(OUT, `mcp-${size}-${scheme}-${lang}.png`) });
      assert.equal(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), true, "no sideways scroll");
      await page.addScriptTag({ path: axe });
      const violations = await page.evaluate(async () => (await window.axe.run(document)).violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`));
      assert.deepEqual(violations, [], `${size} ${scheme} ${lang}`);
      await page.context().close();
    }
  });
});

// The run_js tool (www/code-tool.js) in headless Chromium: model-written JavaScript runs, prints
// and returns values, and hostile code can neither read the page's secrets nor reach the
// network nor freeze the tab.
//
//   node --test tests/e2e/code-tool.test.mjs   (the wasm build, `make build`, only for the agent test)
//
// The test page (code-tool.html) hides a canary key in the DOM, a page variable, localStorage,
// sessionStorage, a cookie, IndexedDB and the Cache API. This file's own server logs every
// request, so "no network" means the server never saw one, not merely that the code got an
// error.
//
// Index:
//   normal code   values, console lines, objects, Promises, thrown and syntax errors, the
//                 output cap, the input forms a model sends, nothing kept between calls
//   hostile code  each probe fails in the sandbox (with and without the Worker's hardening) and
//                 the canary never shows; the same probes, unsandboxed, do succeed (the control)
//   timeout       `while (true) {}` is stopped on time, its Worker is gone, the page kept
//                 ticking all along, and the next call works
//   in the agent  registered on the wasm Agent, run_js's observation lands in the trajectory

import { describe, it, before, after } from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { REPO_ROOT, requireBuilt } from "./server.mjs";

const require = createRequire(import.meta.url);
const { chromium } = require("playwright-core");

/** Written all over the test page; must never appear in anything the sandbox returns. */
const CANARY = "sk-canary-run-js-4b1d9e7a2c";
/** What every probe URL answers, so a control run that reached the server can show it. */
const REACHED = "probe-reached";
const MAX_OUTPUT_CHARS = 16_384;
const TRUNCATED = `…(truncated: output over ${MAX_OUTPUT_CHARS} characters)`;

const ARGS = ["--no-sandbox", "--headless", "--disable-gpu", "--disable-background-networking",
  "--disable-component-update", "--disable-sync", "--no-first-run"];

/**
 * A static server for the repository root that also answers /probe/* (with CORS open, so the
 * control runs can read the answer) and logs every request, WebSocket upgrades included.
 */
function startServer() {
  const requests = [];
  const server = http.createServer((req, res) => {
    const { pathname } = new URL(req.url, "http://127.0.0.1");
    requests.push(pathname);
    if (pathname.startsWith("/probe/")) return answerProbe(pathname, res);
    const file = path.join(REPO_ROOT, path.normalize(decodeURIComponent(pathname)));
    if (!file.startsWith(REPO_ROOT + path.sep) || !fs.existsSync(file) || !fs.statSync(file).isFile()) {
      res.writeHead(404).end();
      return;
    }
    const type = { ".html": "text/html; charset=utf-8", ".wasm": "application/wasm" }[path.extname(file)] ??
      "text/javascript; charset=utf-8";
    res.writeHead(200, { "content-type": type }).end(fs.readFileSync(file));
  });
  server.on("upgrade", (req, socket) => {
    requests.push(new URL(req.url, "http://127.0.0.1").pathname);
    socket.destroy();
  });
  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () => resolve({
      url: `http://127.0.0.1:${server.address().port}`,
      requests,
      close: () => new Promise((done) => server.close(done)),
    }));
  });
}

/** Each probe URL answers in the form its API reads: a module, an event stream, a script. */
function answerProbe(pathname, res) {
  const headers = { "access-control-allow-origin": "*" };
  if (pathname.endsWith("module")) {
    res.writeHead(200, { ...headers, "content-type": "text/javascript" }).end(`export default "${REACHED}";`);
  } else if (pathname.endsWith("eventsource")) {
    res.writeHead(200, { ...headers, "content-type": "text/event-stream" }).end(`data: ${REACHED}\n\n`);
  } else {
    // A classic script that also reads as text: importScripts and new Worker run it.
    const body = `self.PROBE = "${REACHED}"; if (typeof document === "undefined") postMessage("${REACHED}");`;
    res.writeHead(200, { ...headers, "content-type": "text/javascript" }).end(body);
  }
}

let server;
let browser;
let page;
const pageErrors = [];

before(async () => {
  server = await startServer();
  browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium", args: ARGS });
  page = await browser.newPage();
  page.on("pageerror", (e) => pageErrors.push(String(e)));
  await page.goto(`${server.url}/tests/e2e/code-tool.html`);
  await page.waitForSelector('body[data-ready="true"]', { timeout: 20000 });
});

after(async () => {
  await browser?.close();
  await server?.close();
});

/** runCode on the page. */
function run(code, options = {}) {
  return page.evaluate(([c, o]) => window.runCode(c, o), [code, options]);
}

/** The run_js tool's observation on the page, for any input a model might send. */
function tool(input, options = {}) {
  return page.evaluate(([i, o]) => window.codeTool(o).fn(i), [input, options]);
}

/** runCode on the page, as the observation a model would read (runCode's options allowed). */
function observe(code, options = {}) {
  return page.evaluate(async ([c, o]) => window.observation(await window.runCode(c, o)), [code, options]);
}

/** How many requests the server has had for one path. */
function hitsFor(pathname) {
  return server.requests.filter((p) => p === pathname).length;
}

describe("normal code", () => {
  it("returns the last expression", async (t) => {
    assert.equal(await tool("1+1"), "=> 2");
    // What a fresh sandbox costs (an iframe, a Worker): printed, not asserted, as it varies.
    const times = [];
    for (let i = 0; i < 5; i++) times.push((await run("1+1")).ms);
    t.diagnostic(`a call from start to result: ${times.join(", ")} ms`);
    assert.equal(await tool('"a" + "b"'), '=> "ab"');
    assert.equal(await tool("let unused = 1;"), "=> undefined");
  });

  it("captures console lines, in order, and labels warnings and errors", async () => {
    const code = 'console.log("hello", 42); console.info("info"); console.warn("careful");' +
      'console.error("bad"); "done"';
    assert.equal(await tool(code), 'hello 42\ninfo\n[warn] careful\n[error] bad\n=> "done"');
  });

  it("formats objects, cycles, BigInt, symbols, functions, Maps, Sets and typed arrays", async () => {
    const code = `const o = { n: 1n, s: Symbol("q"), f() {}, list: [1, "two", null, undefined],
      m: new Map([["k", { deep: true }]]), set: new Set([1]), bytes: new Uint8Array(2),
      when: new Date(0), "odd key": -0, err: new RangeError("r") };
      o.self = o; console.log(o); o`;
    const shown = '{ n: 1n, s: Symbol(q), f: [Function: f], list: [ 1, "two", null, undefined ], ' +
      'm: Map(1) { "k" => { deep: true } }, set: Set(1) { 1 }, bytes: Uint8Array(2) [ 0, 0 ], ' +
      'when: 1970-01-01T00:00:00.000Z, "odd key": -0, err: RangeError: r, self: [Circular] }';
    assert.equal(await tool(code), `${shown}\n=> ${shown}`);
    assert.equal(await tool("[function named() {}, () => 1, class K {}]"),
      "=> [ [Function: named], [Function: (anonymous)], [Function: K] ]");
  });

  it("awaits a Promise (an async function's result) as the value", async () => {
    assert.equal(await tool("new Promise((r) => setTimeout(() => r(6 * 7), 20))"), "=> 42");
    assert.equal(await tool("(async () => { await null; console.log('inside'); return [1, 2]; })()"),
      "inside\n=> [ 1, 2 ]");
  });

  it("turns thrown errors, rejections and syntax errors into observations", async () => {
    assert.equal(await tool('console.log("before"); throw new Error("boom")'), "before\nError: boom");
    assert.equal(await tool("null.x"), "Error: TypeError: Cannot read properties of null (reading 'x')");
    assert.equal(await tool("Promise.reject(new RangeError('no'))"), "Error: RangeError: no");
    assert.equal(await tool("throw 42"), "Error: 42");
    assert.match(await tool("let x = ;"), /^Error: SyntaxError: Unexpected token ';'$/);
  });

  it("reports errors thrown later, in callbacks, as console lines", async () => {
    const code = 'setTimeout(() => { throw new TypeError("late") }); new Promise((r) => setTimeout(r, 50, "ok"))';
    assert.equal(await tool(code), 'Uncaught TypeError: late\n=> "ok"');
  });

  it("caps the output at 16 KB with a note, and stops a flood quickly", async () => {
    const flood = await run('for (let i = 0; i < 1e6; i++) console.log("line " + i); "end"');
    assert.equal(flood.value, '"end"');
    assert.equal(flood.logs[0], "line 0");
    const text = flood.logs.join("");
    assert.ok(text.endsWith(TRUNCATED), text.slice(-80));
    assert.equal(text.length, MAX_OUTPUT_CHARS + TRUNCATED.length);
    const big = await run('"x".repeat(1e6)');
    assert.ok(big.value.startsWith('"xxx') && big.value.endsWith(TRUNCATED), big.value.slice(-80));
    assert.equal(big.value.length, MAX_OUTPUT_CHARS + TRUNCATED.length);
  });

  it("accepts the forms a model sends: text, {code}, JSON text, a Markdown fence", async () => {
    assert.equal(await tool({ code: "2 * 3" }), "=> 6");
    assert.equal(await tool('{"code": "2 * 4"}'), "=> 8");
    assert.equal(await tool("```js\nconst a = 3;\na * 3\n```"), "=> 9");
    assert.equal(await tool("({ a: 1 })"), "=> { a: 1 }");
    assert.equal(await tool(7), 'Error: run_js expects the code, as text or as {"code": "..."}');
  });

  it("starts every call fresh and leaves no iframe behind", async () => {
    assert.equal(await tool("var kept = 1; globalThis.also = 2; kept"), "=> 1");
    assert.equal(await tool("[typeof kept, typeof also]"), '=> [ "undefined", "undefined" ]');
    assert.equal(await page.locator("iframe").count(), 0);
  });

  it("reads the page's files as `files` (a copy), and plot() returns a chart beside the text", async () => {
    const result = await page.evaluate(async () => {
      const page = { "prices.csv": "Date,Close\n2024-01-02,10\n2024-01-03,11\n" };
      const tool = window.codeTool({ files: () => page });
      const changed = await tool.fn({ code: 'files["prices.csv"] = "changed"; Object.keys(files)' });
      const again = await tool.fn({ code: 'files["prices.csv"].split("\\n").length' });
      const chart = await tool.fn({ code: 'plot({x: ["a", "b"], y: [1, 2], title: "T"}); 7' });
      return { changed, again, chart, kept: page["prices.csv"], described: tool.spec.description };
    });
    assert.equal(result.changed, '=> [ "prices.csv" ]');
    assert.equal(result.again, "=> 4", "each call gets the page's files afresh");
    assert.equal(result.kept, "Date,Close\n2024-01-02,10\n2024-01-03,11\n", "the page's copy is untouched");
    assert.deepEqual(result.chart, {
      observation: "Plotted a line chart of 2 points: T\n=> 7",
      picture: { kind: "line", x: ["a", "b"], y: [1, 2], title: "T" },
    });
    assert.match(result.described, /`files`, an object of file name to text \(now: prices\.csv\)/);
    assert.match(result.described, /plot\(\{x, y, kind, title\}\)/);
  });

  it("describes itself as a tool: name, description, JSON-Schema", async () => {
    const spec = await page.evaluate(() => window.codeTool({ timeoutMs: 3000 }).spec);
    assert.equal(spec.name, "run_js");
    assert.match(spec.description, /console\.log/);
    assert.match(spec.description, /no DOM, no network/);
    assert.match(spec.description, /3000 ms/);
    assert.deepEqual(spec.parameters.required, ["code"]);
    assert.equal(spec.parameters.properties.code.type, "string");
  });
});

/**
 * Hostile snippets. Each would print the canary or REACHED, or make a request to its own
 * /probe/<name> path, if it got through. `fails` is how it must fail in the sandbox (hardened
 * or not); `control` is where it runs unsandboxed to show it really reaches what it aims at:
 * on the page's thread, or in a same-origin Worker (for worker-only APIs).
 */
function probes(base) {
  const url = (name) => `${base}/probe/${name}`;
  return [
    { name: "cookie", code: "document.cookie", fails: /ReferenceError: document is not defined/, control: "page" },
    { name: "localStorage", code: 'localStorage.getItem("tao-api-key")', fails: /ReferenceError: localStorage is not defined/, control: "page" },
    { name: "sessionStorage", code: 'sessionStorage.getItem("tao-api-key")', fails: /ReferenceError: sessionStorage is not defined/, control: "page" },
    {
      name: "indexedDB",
      code: `new Promise((resolve, reject) => {
        const open = indexedDB.open("tao", 1);
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const get = open.result.transaction("kv").objectStore("kv").get("apiKey");
          get.onsuccess = () => resolve(get.result);
          get.onerror = () => reject(get.error);
        };
      })`,
      fails: /SecurityError: .*access to the Indexed Database API is denied|ReferenceError: indexedDB is not defined/,
      control: "worker",
    },
    {
      name: "caches",
      code: 'caches.open("tao").then((c) => c.match("BASE/secret")).then((r) => r.text())',
      fails: /ReferenceError: caches is not defined/,
      control: "worker",
    },
    { name: "parent.document", code: 'parent.document.getElementById("secret").textContent', fails: /ReferenceError: parent is not defined/, control: "page" },
    { name: "top.TAO_SECRET_KEY", code: "top.TAO_SECRET_KEY", fails: /ReferenceError: top is not defined/, control: "page" },
    // Not an error: the Worker's global simply has no such variable.
    { name: "self.TAO_SECRET_KEY", code: "self.TAO_SECRET_KEY", fails: /^=> undefined$/, control: "page" },
    {
      name: "fetch",
      code: `fetch("${url("fetch")}").then((r) => r.text())`,
      fails: /TypeError: Failed to fetch|ReferenceError: fetch is not defined/,
      control: "worker",
    },
    {
      name: "XMLHttpRequest",
      code: `const x = new XMLHttpRequest(); x.open("GET", "${url("xhr")}", false); x.send(); x.responseText`,
      path: "xhr",
      fails: /NetworkError: .*Failed to load|ReferenceError: XMLHttpRequest is not defined/,
      control: "worker",
    },
    {
      name: "WebSocket",
      code: `new Promise((resolve, reject) => {
        const ws = new WebSocket("${url("websocket").replace("http", "ws")}");
        ws.onopen = () => resolve("open");
        ws.onerror = () => reject(new Error("the WebSocket failed"));
      })`,
      path: "websocket",
      fails: /Error: the WebSocket failed|ReferenceError: WebSocket is not defined|SecurityError/,
      control: "page",
    },
    {
      name: "EventSource",
      code: `new Promise((resolve, reject) => {
        const es = new EventSource("${url("eventsource")}");
        es.onmessage = (e) => resolve(e.data);
        es.onerror = () => reject(new Error("the EventSource failed"));
      })`,
      path: "eventsource",
      fails: /Error: the EventSource failed|ReferenceError: EventSource is not defined/,
      control: "page",
    },
    {
      name: "importScripts",
      code: `importScripts("${url("importScripts")}"); self.PROBE`,
      fails: /NetworkError: .*failed to load|ReferenceError: importScripts is not defined/,
      control: "worker",
    },
    {
      name: "import()",
      code: `import("${url("module")}").then((m) => m.default)`,
      path: "module",
      fails: /TypeError: Failed to fetch dynamically imported module/,
      control: "page",
    },
    {
      name: "sendBeacon",
      code: `navigator.sendBeacon("${url("beacon")}", "x")`,
      path: "beacon",
      fails: /TypeError: navigator\.sendBeacon is not a function/,
      control: "page",
    },
    {
      name: "new Worker(url)",
      code: `new Promise((resolve, reject) => {
        const w = new Worker("${url("worker")}");
        w.onmessage = (e) => resolve(e.data);
        w.onerror = () => reject(new Error("the Worker failed"));
      })`,
      path: "worker",
      fails: /SecurityError: .*cannot be accessed from origin 'null'|Error: the Worker failed|ReferenceError: Worker is not defined/,
      control: "page",
    },
    {
      name: "new Worker(blob) + fetch",
      code: `new Promise((resolve, reject) => {
        const source = 'fetch("${url("nested")}").then((r) => r.text())' +
          '.then((t) => postMessage(t), (e) => postMessage("the nested fetch failed: " + e))';
        const w = new Worker(URL.createObjectURL(new Blob([source], { type: "text/javascript" })));
        w.onmessage = (e) => (e.data.startsWith("the nested") ? reject(new Error(e.data)) : resolve(e.data));
        w.onerror = () => reject(new Error("the Worker failed"));
      })`,
      path: "nested",
      fails: /Error: the nested fetch failed: TypeError: Failed to fetch|ReferenceError: Worker is not defined/,
      control: "page",
    },
  ].map((p) => ({ ...p, path: `/probe/${p.path ?? p.name}` }));
}

/** Waits up to `ms` for the server to see a request at `pathname` (beacons arrive late). */
async function waitForHit(pathname, ms = 3000) {
  const deadline = Date.now() + ms;
  while (hitsFor(pathname) === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  return hitsFor(pathname);
}

describe("hostile code", () => {
  for (const probe of probes("BASE")) {
    it(`${probe.name}: fails in the sandbox, and the canary never shows`, async () => {
      const code = probe.code.replaceAll("BASE", server.url);
      for (const harden of [true, false]) {
        const shown = await observe(code, { harden });
        assert.match(shown, probe.fails, `harden: ${harden}`);
        assert.ok(!shown.includes(CANARY) && !shown.includes(REACHED), `harden: ${harden}: ${shown}`);
        assert.equal(hitsFor(probe.path), 0, `harden: ${harden}: the server saw ${probe.path}`);
      }
    });
  }

  it("the sandbox made no request at all: the server saw only the test page and the module", async () => {
    await new Promise((r) => setTimeout(r, 500)); // a late beacon or socket would show by now
    const seen = new Set(server.requests);
    assert.deepEqual([...seen].sort(), ["/tests/e2e/code-tool.html", "/www/code-tool.js", "/www/picture.js"]);
  });

  // The probes are real: without the sandbox, each one reads the canary or reaches the server.
  // Runs after the checks above, which it would otherwise spoil.
  for (const probe of probes("BASE")) {
    if (probe.name === "self.TAO_SECRET_KEY") continue; // checked on its own below
    it(`control: ${probe.name} succeeds unsandboxed (${probe.control === "page" ? "on the page" : "in a same-origin Worker"})`, async () => {
      const code = probe.code.replaceAll("BASE", server.url);
      const runner = probe.control === "page" ? "onPage" : "inPlainWorker";
      const result = await page.evaluate(([r, c]) => window[r](c), [runner, code]);
      const shown = JSON.stringify(result);
      const leaked = shown.includes(CANARY) || shown.includes(REACHED) || (await waitForHit(probe.path)) > 0;
      assert.ok(leaked, `${probe.name} unsandboxed: ${shown}`);
    });
  }

  it("control: self.TAO_SECRET_KEY is the canary on the page itself", async () => {
    assert.deepEqual(await page.evaluate(() => window.onPage("self.TAO_SECRET_KEY")), { value: CANARY });
  });
});

describe("timeout", () => {
  it("stops while (true) {} on time; the page keeps ticking; its Worker is gone; the next call works", async (t) => {
    const timeoutMs = 1500;
    // The sandbox's Worker, seen from outside: it must close when the call times out.
    const workerClosed = page.waitForEvent("worker").then((w) => new Promise((resolve) => w.once("close", resolve)));
    const measured = await page.evaluate(async (ms) => {
      let last = performance.now();
      let maxGap = 0;
      let ticks = 0;
      const timer = setInterval(() => {
        const now = performance.now();
        maxGap = Math.max(maxGap, now - last);
        last = now;
        ticks++;
      }, 10);
      const result = await window.runCode('console.log("started"); while (true) {}', { timeoutMs: ms });
      clearInterval(timer);
      return { result, observation: window.observation(result), maxGap: Math.round(maxGap), ticks };
    }, timeoutMs);
    t.diagnostic(`max gap between 10 ms ticks during the loop: ${measured.maxGap} ms ` +
      `(${measured.ticks} ticks); the call took ${measured.result.ms} ms`);

    assert.equal(measured.result.timedOut, true);
    assert.equal(measured.observation, `started\nError: timed out after ${timeoutMs} ms (the code was stopped)`);
    // Bounds are fractions of the call, not fixed figures: a frozen page would show one gap as
    // long as the whole call, and a loaded CI machine may delay a tick by a few hundred ms.
    assert.ok(measured.result.ms >= timeoutMs && measured.result.ms < timeoutMs * 2, `took ${measured.result.ms} ms`);
    assert.ok(measured.maxGap < timeoutMs / 3, `the page froze for ${measured.maxGap} ms`);
    assert.ok(measured.ticks > timeoutMs / 10 / 3, `only ${measured.ticks} ticks`);

    await Promise.race([
      workerClosed,
      new Promise((_, reject) => setTimeout(() => reject(new Error("the looping Worker is still alive")), 3000)),
    ]);
    assert.equal(await page.locator("iframe").count(), 0);
    assert.equal(await tool("1 + 1"), "=> 2");
  });

  it("stops a Promise that never settles", async () => {
    const result = await run("new Promise(() => {})", { timeoutMs: 300 });
    assert.equal(result.timedOut, true);
    assert.equal(result.error, "timed out after 300 ms (the code was stopped)");
  });

  it("the page had no errors", () => {
    assert.deepEqual(pageErrors, []);
  });
});

describe("in the agent", () => {
  it("registers on the Agent, and the model reads run_js's observation", async () => {
    requireBuilt("pkg/tao_agent.js", "pkg/tao_agent_bg.wasm");
    const steps = await page.evaluate(async () => {
      const { default: init, Agent } = await import("/pkg/tao_agent.js");
      await init();
      const agent = new Agent({ format: "mrkl", replies: [
        "Thought: I should compute it.\nAction: run_js\nAction Input: console.log('squares'); [1, 2, 3].map((x) => x * x)\n",
        "Thought: The squares are printed.\nFinal Answer: 1, 4, 9",
      ] });
      const run = window.codeTool();
      agent.registerTool(run.spec, run.fn);
      return (await agent.run("What are the squares of 1, 2 and 3?")).steps;
    });
    assert.deepEqual(steps[0].tool_calls[0].action, { tool: "run_js", input: "console.log('squares'); [1, 2, 3].map((x) => x * x)", id: null });
    assert.equal(steps[0].tool_calls[0].observation, "squares\n=> [ 1, 4, 9 ]");
    assert.equal(steps[1].answer, "1, 4, 9");
  });
});

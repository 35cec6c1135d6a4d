// The package as the three ways people build sites see it: the tarball `npm pack dist/` makes,
// installed offline into an empty project, built by Vite (`vite build`, and its dev server),
// esbuild and webpack 5 (the dev tools pinned in this repository's package.json, run from its
// node_modules, as `npx` would), each page run in headless Chromium; and Node importing it by name.
//
//   node --test tests/e2e/bundlers.test.mjs   (needs dist/: `make dist`)
//
// Each page (PAGE below) loads what tao loads on demand, so a file a bundler did not see fails it:
//   calculator   the built-in tools' module (tao_tools.js, tao_tools_bg.wasm), offline
//   provider     the providers' module (tao_net*) against the mock OpenAI server, searching the
//                offline pages (data/knowledge.json, through fetchOfflineData)
//   wasm tool    the sandbox's Worker (sandbox-worker.js, tao_sandbox*), counting words
//   element      <tao-agent scenario="apple-ceo" autorun>: its wasm, stylesheet and scenarios
// and no request fails, no page error, and no `node:` module is named in what the browser gets.
// Node: `init()` and `fetchOfflineData()` read the package's own files; an Agent used before
// `init()` or after `free()` says so.

import { describe, it, before, after } from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { execFile as execFileCallback } from "node:child_process";
import { promisify } from "node:util";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { REPO_ROOT, requireBuilt, serve, warnIfStale } from "./server.mjs";
import { ARGS, CHROMIUM } from "./helpers.mjs";
import { startMockLlm } from "../mock/llm.mjs";

const require = createRequire(import.meta.url);
const { chromium } = require("playwright-core");
const execFile = promisify(execFileCallback);

const DIST = path.join(REPO_ROOT, "dist");
const BIN = path.join(REPO_ROOT, "node_modules", ".bin");

// The page's script: what an embedder writes, importing the package by its name.
const PAGE = `import { init, Agent, fetchOfflineData } from "tao-agent";
import { wasmTool } from "tao-agent/wasm-tool";

const query = new URLSearchParams(location.search);
const mock = query.get("mock");
try {
  await init();
  const calculator = new Agent({ tools: ["calculator"], replies: [
    "Thought: I multiply.\\nAction: calculator\\nAction Input: 6 * 7",
    "Thought: I know it.\\nFinal Answer: 42",
  ] });
  const sum = await calculator.run("What is six times seven?");

  await fetchOfflineData(["knowledge"]);
  const provider = new Agent({ provider: "openai", baseUrl: mock + "/v1", model: "react-mrkl", apiKey: "test-key", tools: ["search"] });
  const hometown = await provider.run("What is the hometown of the current CEO of Apple Inc.?");

  let count = null;
  if (!query.has("no-wasm-tool")) {
    const bytes = await (await fetch("wordcount.wasm")).arrayBuffer();
    const wordcount = await wasmTool({ name: "wordcount", description: "Counts words.", bytes });
    const counter = new Agent({ tools: ["wordcount"], replies: [
      "Thought: I count.\\nAction: wordcount\\nAction Input: one two three",
      "Thought: Three.\\nFinal Answer: 3",
    ] });
    counter.registerTool(wordcount.spec, wordcount.fn);
    count = await counter.run("How many words are in 'one two three'?");
  }

  window.result = {
    calculator: [sum.answer, sum.steps[0].tool_calls[0].observation],
    provider: [hometown.answer, hometown.stop.reason, hometown.steps[0].tool_calls[0].observation.slice(0, 40)],
    wasm: count?.steps[0].tool_calls[0].observation.split("\\n")[0] ?? null,
  };
} catch (error) {
  window.result = { error: String(error?.message ?? error), kind: error?.kind };
}
`;

/** The page's markup: the script (as each bundler names it) and the element. */
const html = (script) => `<!doctype html><meta charset="utf-8"><title>bundled</title><link rel="icon" href="data:,">
<script type="module" src="${script}"></script>
<tao-agent scenario="apple-ceo" autorun></tao-agent>
`;

let work; // the temporary folder: the tarball and the project
let project; // the project, with tao-agent installed from the tarball
let mock;
let browser;

/** Runs a command in the project; its output is in the error when it fails. */
async function run(command, args, { cwd = project, env } = {}) {
  try {
    return (await execFile(command, args, { cwd, encoding: "utf8", env: { ...process.env, ...env } })).stdout;
  } catch (error) {
    throw new Error(`${command} ${args.join(" ")} failed:\n${error.stdout ?? ""}\n${error.stderr ?? ""}`);
  }
}

/** Every .js file under `dir`, with its text. */
function scripts(dir) {
  return fs.readdirSync(dir, { recursive: true })
    .filter((f) => f.endsWith(".js"))
    .map((f) => [f, fs.readFileSync(path.join(dir, f), "utf8")]);
}

/**
 * Opens `url` with the mock's address, waits for the page's script and the element to finish,
 * and checks what they show; returns the page's requests. Fails on a page error, a console
 * error or a failed request (but the streams the client cuts itself at "Observation:").
 */
async function check(url, { wasmTool = true } = {}) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const problems = [];
  const requests = [];
  page.on("pageerror", (e) => problems.push(`page error: ${e}`));
  page.on("console", (m) => m.type() === "error" && problems.push(`console: ${m.text()}`));
  page.on("requestfinished", async (r) => {
    const response = await r.response();
    requests.push(r.url());
    if (response && response.status() >= 400) problems.push(`HTTP ${response.status()} ${r.url()}`);
  });
  page.on("requestfailed", (r) => {
    if (!r.url().startsWith(mock.url)) problems.push(`failed: ${r.url()} ${r.failure()?.errorText}`);
  });
  try {
    await page.goto(`${url}?mock=${encodeURIComponent(mock.url)}${wasmTool ? "" : "&no-wasm-tool"}`);
    const result = await page.waitForFunction(() => window.result, null, { timeout: 30000 }).then((h) => h.jsonValue());
    assert.equal(result.error, undefined, `the page's script failed: ${result.error}\n${problems.join("\n")}`);
    assert.deepEqual(result.calculator, ["42", "42"]);
    assert.deepEqual(result.provider.slice(0, 2), ["Mobile, Alabama", "answer"]);
    assert.match(result.provider[2], /\S/, "the provider's run observed the offline pages");
    assert.equal(result.wasm, wasmTool ? "words: 3" : null);
    const answer = await page.waitForFunction(() => {
      const t = document.querySelector("tao-agent")?.trajectory;
      return t?.stop ? t.answer ?? t.stop.reason : null;
    }, null, { timeout: 30000 }).then((h) => h.jsonValue());
    assert.equal(answer, "Mobile, Alabama", "the element ran its scenario");
    assert.deepEqual(problems, []);
    return requests;
  } finally {
    await context.close();
  }
}

/**
 * The page fetched the wasm of each module: the core's, the tools', the providers' and (with a
 * wasm tool) the sandbox's, by whatever names the bundler gave them.
 */
function assertLoaded(requests, { wasmTool = true } = {}) {
  const wasm = new Set(requests.filter((u) => /\.wasm$/.test(new URL(u).pathname) && !/\/wordcount\.wasm$/.test(u)));
  assert.equal(wasm.size, wasmTool ? 4 : 3, `the modules' wasm files:\n${[...wasm].join("\n")}`);
}

/**
 * No `node:` module is named in the browser's code (a bundler would fail on it, or ship a stub),
 * and no path of the machine that built it (webpack writes a bare `import.meta.url` as the
 * source's file: URL, `file:///…`; the in-tab engine's own test of a name, `"file://"`, is no
 * path).
 */
function assertNoNode(dir) {
  for (const [file, text] of scripts(dir)) {
    assert.doesNotMatch(text, /["']node:/, `${file} names a node: module`);
    assert.doesNotMatch(text, /file:\/\/\/[\w/]/, `${file} holds a file: URL`);
  }
}

before(async () => {
  requireBuilt("dist/tao.js", "dist/package.json", "pkg/tools/wordcount.wasm");
  warnIfStale("dist/package.json", ["embed", "www", "src", "data", "scripts/dist.sh"]);
  work = fs.mkdtempSync(path.join(os.tmpdir(), "tao-bundlers-"));
  const tarball = (await run("npm", ["pack", DIST, "--pack-destination", work, "--silent"], { cwd: work })).trim().split("\n").at(-1);
  project = path.join(work, "app");
  fs.mkdirSync(path.join(project, "src"), { recursive: true });
  fs.mkdirSync(path.join(project, "public"));
  fs.writeFileSync(path.join(project, "package.json"), JSON.stringify({ name: "app", private: true, type: "module" }));
  // The tarball only: it has no dependencies, so nothing else is needed (and nothing is fetched).
  await run("npm", ["install", "--offline", "--no-audit", "--no-fund", path.join(work, tarball)]);
  fs.writeFileSync(path.join(project, "src", "main.js"), PAGE);
  fs.copyFileSync(path.join(REPO_ROOT, "pkg", "tools", "wordcount.wasm"), path.join(project, "public", "wordcount.wasm"));
  mock = await startMockLlm({ port: 0, delayMs: 0 });
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
});

after(async () => {
  await browser?.close();
  await mock?.close();
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

describe("the package, bundled", () => {
  it("Vite: `vite build` with no settings", async () => {
    fs.writeFileSync(path.join(project, "index.html"), html("./src/main.js"));
    await run(path.join(BIN, "vite"), ["build", "--outDir", "out-vite", "--logLevel", "warn"]);
    const out = path.join(project, "out-vite");
    assertNoNode(out);
    const server = await serve(out);
    try {
      assertLoaded(await check(server.url));
    } finally {
      await server.close();
    }
  });

  it("Vite's dev server, with no setting", async () => {
    const { createServer } = await import("vite");
    fs.writeFileSync(path.join(project, "index.html"), html("./src/main.js"));
    // Vite pre-bundles the package's code into node_modules/.vite/deps/ and leaves the files it
    // loads by URL in the package's folder: they are found there (www/packaged.js).
    const dev = await createServer({ root: project, configFile: false, logLevel: "silent", server: { host: "127.0.0.1", port: 0 } });
    await dev.listen();
    try {
      assertLoaded(await check(dev.resolvedUrls.local[0]));
    } finally {
      await dev.close();
    }
  });

  it("esbuild: --bundle --format=esm --splitting, and the package's files copied beside", async () => {
    const out = path.join(project, "out-esbuild");
    await run(path.join(BIN, "esbuild"), ["src/main.js", "--bundle", "--format=esm", "--splitting", "--outdir=out-esbuild", "--log-level=warning"]);
    assertNoNode(out);
    // esbuild does not follow `new URL("./x.wasm", import.meta.url)` (evanw/esbuild#795): the
    // README says to copy the package's files beside the bundle.
    fs.cpSync(path.join(project, "node_modules", "tao-agent"), out, { recursive: true });
    fs.copyFileSync(path.join(project, "public", "wordcount.wasm"), path.join(out, "wordcount.wasm"));
    fs.writeFileSync(path.join(out, "index.html"), html("./main.js"));
    const server = await serve(out);
    try {
      assertLoaded(await check(server.url));
    } finally {
      await server.close();
    }
  });

  it("webpack 5: `webpack` with the smallest config (an entry and an output folder)", async () => {
    const out = path.join(project, "out-webpack");
    fs.writeFileSync(path.join(project, "webpack.config.mjs"), `import path from "node:path";
export default { mode: "production", entry: "./src/main.js", output: { path: path.resolve("out-webpack"), clean: true } };\n`);
    await run(path.join(BIN, "webpack"), []);
    assertNoNode(out);
    fs.copyFileSync(path.join(project, "public", "wordcount.wasm"), path.join(out, "wordcount.wasm"));
    fs.writeFileSync(path.join(out, "index.html"), html("./main.js").replace('type="module" ', ""));
    const server = await serve(out);
    try {
      assertLoaded(await check(server.url));
    } finally {
      await server.close();
    }
  });
});

describe("the package as it is, from another origin", () => {
  it("a CDN: the page imports the files from a server of their own (with CORS), through an import map", async () => {
    const cdn = await serve(path.join(project, "node_modules", "tao-agent"), { cors: true });
    const site = path.join(project, "out-cdn");
    fs.mkdirSync(site, { recursive: true });
    fs.copyFileSync(path.join(project, "src", "main.js"), path.join(site, "main.js"));
    const imports = { "tao-agent": `${cdn.url}tao.js`, "tao-agent/wasm-tool": `${cdn.url}wasm-tool.js` };
    fs.writeFileSync(path.join(site, "index.html"), html("./main.js").replace("<script", `<script type="importmap">${JSON.stringify({ imports })}</script>\n<script`));
    const server = await serve(site);
    try {
      // A Worker's script must come from the page's origin: the README says wasm tools need the
      // package there.
      const requests = await check(server.url, { wasmTool: false });
      assertLoaded(requests, { wasmTool: false });
      assert.ok(requests.filter((u) => /\.(wasm|json)$/.test(u)).every((u) => u.startsWith(cdn.url)), "the wasm and the data came from the CDN");
    } finally {
      await server.close();
      await cdn.close();
    }
  });
});

describe("the package in Node", () => {
  /** Runs an ES module script in the project (where `tao-agent` is installed); its printed lines. */
  const node = async (script) => (await run(process.execPath, ["--input-type=module", "-e", script])).trim().split("\n");

  it("init() and fetchOfflineData() read the package's own files", async () => {
    const printed = await node(`import { init, Agent, fetchOfflineData, scenarios } from "tao-agent";
      await init();
      const calculator = new Agent({ tools: ["calculator"], replies: ["Action: calculator\\nAction Input: 6 * 7", "Final Answer: 42"] });
      const sum = await calculator.run("What is six times seven?");
      console.log(sum.answer, sum.steps[0].tool_calls[0].observation);
      await fetchOfflineData();
      const apple = scenarios().find((s) => s.name === "apple-ceo");
      console.log((await new Agent({ scenario: "apple-ceo" }).run(apple.task)).answer);
      console.log(scenarios("zh").length === scenarios().length);`);
    assert.deepEqual(printed, ["42 42", "Mobile, Alabama", "true"]);
  });

  it("an Agent used before init() or after free() throws an Error that says so, with a kind", async () => {
    const printed = await node(`import { init, Agent } from "tao-agent";
      const say = (f) => { try { f(); console.log("no error"); } catch (e) { console.log(e instanceof Error, e.kind, e.message); } };
      say(() => new Agent({ replies: ["Final Answer: 1"] }));
      await init();
      const agent = new Agent({ replies: ["Final Answer: 1"] });
      agent.free();
      say(() => agent.run("q"));
      say(() => agent.free());`);
    assert.deepEqual(printed, [
      "true config the wasm is not loaded yet: call `await init()` before `new Agent(…)`",
      "true config this agent was freed (`free()`): make a new Agent to call run() again",
      "no error",
    ]);
  });
});

// Checks the wasm-tool sandbox in headless Chromium, the way a page uses it:
// www/sandbox.js creates the Worker, which loads pkg/tao_sandbox.js, which runs the tools.
//
//   scripts/build-sandbox.sh && node sandbox/tests/browser/sandbox.mjs
//
// What it checks (and prints):
//   1. the wordcount example runs through the Worker with the exact expected output;
//   2. a forbidden import is refused by inspectWasmTool, naming it;
//   3. an infinite loop ends out of fuel while a setInterval on the page keeps ticking: the
//      longest gap between ticks during the run is measured (the page did not freeze);
//   4. a call past its wall-clock timeout rejects, and the next call gets a fresh Worker.
// Needs Debian's Chromium (/usr/bin/chromium), playwright-core and binaryen's wasm-as from
// node_modules (to assemble the hostile WAT files), and the build (pkg/: `make build`); serves
// the repository root on a free port with the end-to-end tests' static server. Exits non-zero
// when a check fails.

import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { serve, requireBuilt } from "../../../tests/e2e/server.mjs";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");
requireBuilt("pkg/tao_sandbox.js", "pkg/tao_sandbox_bg.wasm", "pkg/tools/wordcount.wasm", "pkg/tools/units.wasm");

/** A hostile module from sandbox/tests/hostile/, assembled from its WAT text. */
function hostile(name) {
  const out = join(mkdtempSync(join(tmpdir(), "tao-sandbox-")), `${name}.wasm`);
  execFileSync(join(root, "node_modules/.bin/wasm-as"),
    [join(root, `sandbox/tests/hostile/${name}.wat`), "-o", out]);
  return [...readFileSync(out)];
}

let failures = 0;
function check(what, ok, detail) {
  console.log(`${ok ? "ok  " : "FAIL"} ${what}${detail ? `: ${detail}` : ""}`);
  if (!ok) failures++;
}

const server = await serve(root);
const origin = server.url.slice(0, -1);
const browser = await chromium.launch({
  executablePath: "/usr/bin/chromium",
  args: ["--no-sandbox", "--headless", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run"],
});
try {
  const page = await browser.newPage();
  page.on("console", (message) => console.log(`  [page] ${message.text()}`));
  await page.goto(`${origin}/sandbox/tests/browser/page.html`);

  // 1. The wordcount example, through the Worker (the first call also loads the sandbox).
  const words = await page.evaluate(async () => {
    const { runWasmTool } = await import("/www/sandbox.js");
    const bytes = new Uint8Array(await (await fetch("/pkg/tools/wordcount.wasm")).arrayBuffer());
    const started = performance.now();
    const first = await runWasmTool(bytes, "the quick brown fox\njumps over the lazy dog\n");
    const firstMs = performance.now() - started;
    const again = performance.now();
    const second = await runWasmTool(bytes, "the quick brown fox\njumps over the lazy dog\n");
    return { first, second, firstMs, secondMs: performance.now() - again };
  });
  check("wordcount runs in the worker", words.first.observation === "words: 9\nlines: 2\ncharacters: 44\n"
    && !words.first.isError, JSON.stringify(words.first.observation));
  check("fuel is the same on the second call", words.second.fuelUsed === words.first.fuelUsed,
    `${words.first.fuelUsed} and ${words.second.fuelUsed} fuel; first call ${words.firstMs.toFixed(0)} ms ` +
    `(loads the sandbox), second ${words.secondMs.toFixed(1)} ms`);

  const units = await page.evaluate(async () => {
    const { runWasmTool } = await import("/www/sandbox.js");
    const bytes = new Uint8Array(await (await fetch("/pkg/tools/units.wasm")).arrayBuffer());
    const out = {};
    for (const input of ["10 km to mi", "100 F to C", "3 kg to lb", "3 parsec to km"]) {
      out[input] = await runWasmTool(bytes, input);
    }
    return out;
  });
  check("units converts", units["10 km to mi"].observation === "10 km = 6.21371 mi\n",
    Object.entries(units).map(([input, r]) => `${input} -> ${r.fuelUsed} fuel`).join(", "));
  check("units explains an unknown unit", units["3 parsec to km"].isError
    && units["3 parsec to km"].observation.startsWith("the tool exited with status 1\nstderr:\nunits: unknown unit"),
    JSON.stringify(units["3 parsec to km"].observation.slice(0, 80)));

  // 2. A forbidden import is refused by name.
  const refusal = await page.evaluate(async (bytes) => {
    const { inspectWasmTool } = await import("/www/sandbox.js");
    try { await inspectWasmTool(new Uint8Array(bytes)); return null; }
    catch (error) { return { name: error.name, kind: error.kind, message: error.message }; }
  }, hostile("forbidden_path_open"));
  check("path_open is refused at inspection", refusal?.kind === "refused"
    && refusal.message.startsWith("the module imports wasi_snapshot_preview1.path_open (files), which tools may not use"),
    JSON.stringify(refusal?.message?.slice(0, 90)));

  // 3. An infinite loop with the default fuel, while the page's timer keeps ticking.
  const loop = await page.evaluate(async (bytes) => {
    const { runWasmTool } = await import("/www/sandbox.js");
    let last = performance.now();
    let longestGap = 0;
    let ticks = 0;
    const timer = setInterval(() => {
      const now = performance.now();
      longestGap = Math.max(longestGap, now - last);
      last = now;
      ticks++;
    }, 10);
    const started = performance.now();
    const outcome = await runWasmTool(new Uint8Array(bytes), "");
    const tookMs = performance.now() - started;
    clearInterval(timer);
    return { outcome, tookMs, longestGap, ticks };
  }, hostile("infinite_loop"));
  check("an infinite loop ends out of fuel", loop.outcome.stopped?.kind === "out_of_fuel",
    `${loop.outcome.stopped?.message}; took ${loop.tookMs.toFixed(0)} ms, fuel used ${loop.outcome.fuelUsed}`);
  // Run on the main thread, the loop would freeze the page for the whole call: one gap as long
  // as the call and no ticks. Off the main thread the timer keeps firing; a loaded machine may
  // delay a tick by a few hundred ms, so the bound is a quarter of the call, not a fixed figure.
  check("the page kept ticking during the loop",
    loop.longestGap < loop.tookMs / 4 && loop.ticks > loop.tookMs / 10 / 4,
    `${loop.ticks} ticks of a 10 ms interval in ${loop.tookMs.toFixed(0)} ms, longest gap ${loop.longestGap.toFixed(1)} ms`);

  // 4. The wall-clock timeout: a huge fuel budget, a 1 s limit; then a fresh Worker works.
  const timeout = await page.evaluate(async (bytes) => {
    const { runWasmTool } = await import("/www/sandbox.js");
    const started = performance.now();
    let error = null;
    try { await runWasmTool(new Uint8Array(bytes), "", { fuel: 1e15 }, { timeoutMs: 1000 }); }
    catch (e) { error = { kind: e.kind, message: e.message }; }
    const rejectedAfterMs = performance.now() - started;
    const wc = new Uint8Array(await (await fetch("/pkg/tools/wordcount.wasm")).arrayBuffer());
    const after = await runWasmTool(wc, "one two");
    return { error, rejectedAfterMs, after: after.observation };
  }, hostile("infinite_loop"));
  check("a call past its timeout rejects", timeout.error?.kind === "timeout",
    `after ${timeout.rejectedAfterMs.toFixed(0)} ms: ${timeout.error?.message}`);
  check("the next call gets a fresh worker", timeout.after === "words: 2\nlines: 1\ncharacters: 7\n",
    JSON.stringify(timeout.after));
} finally {
  await browser.close();
  await server.close();
}
console.log(failures ? `${failures} check(s) failed` : "all checks passed");
process.exit(failures ? 1 : 0);

// Shared set-up for the end-to-end tests: a static server for the built site (target/site, as
// `make demo` serves it: server.mjs), Debian's Chromium driven by playwright-core, and a few
// steps a user takes on the page.
//
// The tests need the site built (`make test` builds it once for every file; by hand:
// `make site dist`) and Chromium at /usr/bin/chromium (or $CHROMIUM). Playwright's own browser
// download cannot work here, so only `playwright-core` (the driver) is used.

import assert from "node:assert/strict";
import { createRequire } from "node:module";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { startServer } from "./server.mjs";

const require = createRequire(import.meta.url);
const { chromium } = require("playwright-core");

/** Where screenshots and downloads go (ignored by git). */
export const OUT = path.join(path.dirname(fileURLToPath(import.meta.url)), "out");

/** Debian's Chromium, headless, with nothing running in the background (the other test files use these too). */
export const CHROMIUM = process.env.CHROMIUM ?? "/usr/bin/chromium";
export const ARGS = [
  "--no-sandbox",
  "--headless",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--disable-quic",
];

/** Starts the server and the browser; returns { url, browser, close }. Fails at once, with
 * the fix, when the site is not built. */
export async function setUp() {
  fs.mkdirSync(OUT, { recursive: true });
  const server = await startServer();
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
  return {
    url: server.url,
    browser,
    close: async () => {
      await browser.close();
      await server.close();
    },
  };
}

/**
 * Opens the page in a fresh context and waits until the agent has loaded. Records page errors,
 * console errors and dialogs in `page.problems` so a test can assert there were none.
 */
export async function openPage(env, { query = "", viewport = { width: 1280, height: 900 }, colorScheme = "light", waitReady = true } = {}) {
  const context = await env.browser.newContext({ viewport, colorScheme, acceptDownloads: true, deviceScaleFactor: 1 });
  const page = await context.newPage();
  page.problems = { errors: [], console: [], dialogs: [] };
  page.on("pageerror", (e) => page.problems.errors.push(String(e)));
  page.on("console", (m) => {
    if (m.type() === "error") page.problems.console.push(m.text());
  });
  page.on("dialog", async (d) => {
    page.problems.dialogs.push(`${d.type()}: ${d.message()}`);
    await d.dismiss().catch(() => {});
  });
  // No internet here: without a wiki= of their own, pages open with wiki=offline, so a scenario
  // written for Wikipedia does not probe it (a failed probe is a console error). Tests of the
  // live wiki give their own wiki= (the mock MediaWiki).
  if (!/[?&]wiki=/.test(query)) query += `${query.includes("?") ? "&" : "?"}wiki=offline`;
  await page.goto(env.url + query);
  if (waitReady) await page.waitForSelector('body[data-ready="true"]', { timeout: 20000 });
  return page;
}

/** Picks a scenario and a speed, presses Run and waits for the run to stop; returns the reason. */
export async function runScenario(page, name, { delay = "0", timeout = 30000 } = {}) {
  await page.selectOption('select[name="scenario"]', name);
  await page.selectOption('select[name="delayMs"]', String(delay));
  await page.click('button[data-action="run"]');
  return waitStopped(page, timeout);
}

/** Waits until the stats bar shows a final stop reason, and returns it. */
export async function waitStopped(page, timeout = 30000) {
  const stop = page.locator('tao-stats [data-stat="stop"]');
  await page.waitForFunction(
    () => {
      const r = document.querySelector('tao-stats [data-stat="stop"]')?.dataset.reason;
      return r && r !== "running" && r !== "idle";
    },
    null,
    { timeout },
  );
  return stop.getAttribute("data-reason");
}

/** Every card in the trajectory view, in order, as { step, kind, text }. */
export async function cards(page) {
  return page.$$eval("tao-trajectory [data-kind]", (nodes) =>
    nodes
      .filter((n) => n.dataset.kind !== "raw")
      .map((n) => ({
        step: n.closest("[data-step]")?.dataset.step ?? null,
        kind: n.dataset.kind,
        text: n.textContent,
      })),
  );
}

/** The text of the cards of one kind. */
export async function texts(page, kind) {
  return page.$$eval(`tao-trajectory [data-kind="${kind}"]`, (nodes) => nodes.map((n) => n.textContent));
}

/** A stat's displayed value (`n_calls`, `n_badcalls`, `steps`, `elapsed`, `stop`). */
export async function stat(page, name) {
  return page.textContent(`tao-stats [data-stat="${name}"]`);
}

/** No script error, console error or dialog happened on the page. */
export function assertClean(page) {
  assert.deepEqual(page.problems.errors, [], "page errors");
  assert.deepEqual(page.problems.console, [], "console errors");
  assert.deepEqual(page.problems.dialogs, [], "dialogs");
}

/** The paths the page fetched since it opened whose names contain `part`, sorted (the browser's own record). */
export function fetched(page, part) {
  return page.evaluate(
    (part) =>
      performance
        .getEntriesByType("resource")
        .map((e) => new URL(e.name).pathname)
        .filter((p) => p.includes(part))
        .sort(),
    part,
  );
}

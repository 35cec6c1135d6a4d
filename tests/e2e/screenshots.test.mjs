// Screenshots of the page to look at (tests/e2e/out/*.png): a finished run on a desktop and on
// a phone, a bad call with its repair, the Chinese UI, a run caught mid-stream, and dark mode.
// Each shot also checks what a reader would notice first: nothing sticks out sideways.
//
//   make build && node --test tests/e2e/

import { it, before, after } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { setUp, openPage, runScenario, waitStopped, OUT } from "./helpers.mjs";

let env;
before(async () => {
  env = await setUp();
});
after(async () => {
  await env?.close();
});

const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 390, height: 844 };

/** The page is never wider than its viewport (no sideways scrolling on a phone). */
async function assertNoOverflow(page) {
  const { scroll, client } = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    client: document.documentElement.clientWidth,
  }));
  assert.ok(scroll <= client, `page is ${scroll}px wide in a ${client}px viewport`);
}

async function shoot(page, name) {
  await assertNoOverflow(page);
  await page.screenshot({ path: path.join(OUT, name), fullPage: true });
}

it("desktop: a finished apple-ceo run", async () => {
  const page = await openPage(env, { viewport: DESKTOP });
  assert.equal(await runScenario(page, "apple-ceo"), "answer");
  await shoot(page, "desktop-apple-ceo.png");
  await page.context().close();
});

it("desktop: empty page before a run", async () => {
  const page = await openPage(env, { viewport: DESKTOP });
  await shoot(page, "desktop-empty.png");
  await page.context().close();
});

it("desktop: a bad call and its repair", async () => {
  const page = await openPage(env, { viewport: DESKTOP });
  assert.equal(await runScenario(page, "format-repair"), "answer");
  await shoot(page, "desktop-format-repair.png");
  await page.context().close();
});

it("desktop: mid-stream, the live raw text of the current step", async () => {
  const page = await openPage(env, { viewport: DESKTOP });
  await page.selectOption('select[name="scenario"]', "water");
  await page.selectOption('select[name="delayMs"]', "80");
  await page.click('button[data-action="run"]');
  await page.waitForSelector('tao-trajectory [data-step="2"] .raw-live', { timeout: 20000 });
  await page.waitForTimeout(400);
  await shoot(page, "desktop-streaming.png");
  await page.click('button[data-action="stop"]');
  assert.equal(await waitStopped(page), "aborted");
  await page.context().close();
});

it("phone: a finished apple-ceo run", async () => {
  const page = await openPage(env, { viewport: PHONE });
  assert.equal(await runScenario(page, "apple-ceo"), "answer");
  await shoot(page, "phone-apple-ceo.png");
  await page.context().close();
});

it("phone: Chinese UI, einstein in the paper format", async () => {
  const page = await openPage(env, { viewport: PHONE, query: "?scenario=einstein&format=paper&lang=zh&autorun=1&delay=0" });
  assert.equal(await waitStopped(page), "answer");
  await shoot(page, "phone-zh-einstein.png");
  await page.context().close();
});

it("phone, 360 wide: html-injection in dark mode", async () => {
  const page = await openPage(env, { viewport: { width: 360, height: 780 }, colorScheme: "dark" });
  assert.equal(await runScenario(page, "html-injection"), "answer");
  await shoot(page, "phone-dark-html-injection.png");
  await page.context().close();
});

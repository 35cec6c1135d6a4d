// Screenshots of the page to look at (tests/e2e/out/*.png): a finished run on a desktop and on
// a phone, a bad call with its repair, the Chinese UI, a run caught mid-stream, and dark mode;
// and the presenter's matrix, 1366×850 (a projector's laptop) and 390×844 (a phone) × light and
// dark × English and Chinese × before and after a run, as the window shows it (not the full
// page), plus Present and the settings folded away.
// Each shot also checks what a reader would notice first: nothing sticks out sideways.
//
//   node --test tests/e2e/screenshots.test.mjs      (serves target/site: build it first with `make site`)

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
  // From the top: a full-page shot keeps the scroll position, and the wide layout's sticky
  // settings column would be drawn where it sticks (beside the end of the run), not at the top.
  await page.evaluate(() => window.scrollTo(0, 0));
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

// ----- the presenter's matrix: what the room sees -----

const WIDE = { width: 1366, height: 850 };

for (const [size, viewport] of [["1366", WIDE], ["390", PHONE]]) {
  for (const colorScheme of ["light", "dark"]) {
    for (const lang of ["en", "zh"]) {
      it(`${size}, ${colorScheme}, ${lang}: before and after a water run`, async () => {
        const page = await openPage(env, { viewport, colorScheme, query: `?lang=${lang}&scenario=water` });
        await assertNoOverflow(page);
        await page.screenshot({ path: path.join(OUT, `${size}-${colorScheme}-${lang}-before.png`) });
        assert.equal(await runScenario(page, "water", { delay: "10" }), "answer");
        await page.waitForTimeout(300); // Run and Stop fade to their idle look
        await assertNoOverflow(page);
        await page.screenshot({ path: path.join(OUT, `${size}-${colorScheme}-${lang}-after.png`) });
        await page.context().close();
      });
    }
  }
}

it("1366: Present with the settings folded, mid-stream", async () => {
  const page = await openPage(env, { viewport: WIDE, query: "?lang=en&present=1&scenario=water&delay=80" });
  await page.click('button[data-action="settings"]');
  await page.click('button[data-action="run"]');
  await page.waitForSelector('tao-trajectory [data-step="2"] .raw-live', { timeout: 20000 });
  await page.waitForTimeout(400);
  await assertNoOverflow(page);
  await page.screenshot({ path: path.join(OUT, "1366-present-folded-streaming.png") });
  await page.click('button[data-action="stop"]');
  assert.equal(await waitStopped(page), "aborted");
  await page.context().close();
});

// The page for a room and for every reader: accessibility and presentation, in headless Chromium.
//
//   node --test tests/e2e/a11y.test.mjs      (serves target/site: build it first with `make site`)
//
// Index:
//   axe            axe-core (pinned in package.json, default rules, best practices included):
//                  no violation in light and dark, before, during and after a run, with a
//                  provider's fields shown, with the tools panel open, folded, in Present, in
//                  Chinese and on a phone
//   semantics      landmarks, heading order, the trajectory as a named `role="log"`, the answer
//                  in a polite live region, the buttons' names
//   focus          Stop gets the focus when a run starts, Run when it ends; Tab shows where it is
//   present        Present is an `aria-pressed` toggle, enlarges text by at least 20%, is
//                  remembered, and `?present=1` turns it on
//   readable       streaming and folded raw text at least 15 px with at least 7:1 contrast (light
//                  and dark); cards' body text at least 16 px
//   layout         at 1366×850 the settings sit beside the trajectory and the task and first step
//                  are in view after Run; "Hide settings" folds them; a phone keeps one column
//   follow         the current step stays in view from the start of a run; scrolling up stops
//                  following, the bottom resumes it
//   stats          nothing cut off at 1366 and 390, in English and Chinese; no "–" for tokens
//   words          no internal names (seed, plan, max_steps, scripted:…) on the page, nor a
//                  dictionary key in place of its words (reason.running), in the studio's states:
//                  You waiting and a reply explained, paused, running, a refused Run, a fork then
//                  Compare, the benchmark panel (offline model, no key)
//
// axe-core comes from node_modules (`npm ci`); AXE_CORE_PATH=/path/to/axe.min.js overrides it
// for a local run against a copy outside node_modules.

import { describe, it, before, after } from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { setUp, openPage, runScenario, waitStopped, assertClean } from "./helpers.mjs";

const require = createRequire(import.meta.url);
const AXE = process.env.AXE_CORE_PATH ?? resolveAxe();

function resolveAxe() {
  try {
    return require.resolve("axe-core/axe.min.js");
  } catch {
    throw new Error("axe-core is missing from node_modules: run `npm ci` (or `scripts/install.sh test`), or set AXE_CORE_PATH");
  }
}

const WIDE = { width: 1366, height: 850 };
const PHONE = { width: 390, height: 844 };

let env;
before(async () => {
  env = await setUp();
});
after(async () => {
  await env?.close();
});

/** Runs axe-core with its default rules (best practices included) and fails on any violation. */
async function assertAxe(page, what, { modal = false } = {}) {
  if (!(await page.evaluate(() => "axe" in window))) await page.addScriptTag({ path: AXE });
  // Buttons fade between enabled and disabled (0.15 s): check the settled page.
  await page.waitForTimeout(250);
  const { violations, ran } = await page.evaluate(async () => {
    const result = await window.axe.run(document);
    return {
      violations: result.violations.map((v) => ({
        id: v.id,
        impact: v.impact,
        help: v.help,
        nodes: v.nodes.map((n) => `${n.target.join(" ")}: ${n.failureSummary?.replace(/\s+/g, " ")}`),
      })),
      ran: [...result.passes, ...result.incomplete, ...result.violations].map((r) => r.id),
    };
  });
  // The best-practice rules ran too (runOnly is not set): landmarks and heading order among them.
  // (With a modal dialog open the rest of the page is inert, so the page-wide rules do not run.)
  const expected = modal ? ["color-contrast"] : ["region", "heading-order", "landmark-one-main", "color-contrast"];
  for (const rule of expected) {
    assert.ok(ran.includes(rule), `axe rule ${rule} ran ${what}`);
  }
  const report = violations
    .map((v) => `  ${v.id} (${v.impact}): ${v.help}\n${v.nodes.map((n) => `    - ${n}`).join("\n")}`)
    .join("\n");
  assert.equal(violations.length, 0, `axe found ${violations.length} violation(s) ${what}:\n${report}`);
}

/** Starts a slow run of `scenario` and waits for the model to be writing in `step`. */
async function startSlowRun(page, scenario = "water", step = 1, delay = "80") {
  await page.selectOption('select[name="scenario"]', scenario);
  await page.selectOption('select[name="delayMs"]', delay);
  await page.click('button[data-action="run"]');
  await page.waitForSelector(`tao-trajectory [data-step="${step}"] .raw-live .raw-text`, { timeout: 20000 });
}

/** Stops a run in flight and waits for it to end. */
async function stopRun(page) {
  await page.click('button[data-action="stop"]');
  assert.equal(await waitStopped(page), "aborted");
}

// ----- axe --------------------------------------------------------------------------------------

describe("axe-core finds no violation", () => {
  for (const colorScheme of ["light", "dark"]) {
    it(`${colorScheme}: before a run, with a provider's fields, with the tools panel open, folded`, async () => {
      const page = await openPage(env, { viewport: WIDE, colorScheme, query: "?lang=en" });
      await page.emulateMedia({ colorScheme });
      await assertAxe(page, `(${colorScheme}, before a run)`);

      await page.selectOption('select[name="provider"]', "openai");
      assert.ok(await page.isVisible('input[name="baseUrl"]'), "the provider's fields are shown");
      await page.check("[data-remember]");
      await assertAxe(page, `(${colorScheme}, a provider's fields shown)`);
      await page.uncheck("[data-remember]");
      await page.selectOption('select[name="provider"]', "scripted");

      await page.click("[data-tools-panel] > summary");
      await page.click(".model-view > summary");
      await page.selectOption('select[name="wiki"]', "custom");
      assert.ok(await page.isVisible('input[name="wikiUrl"]'));
      await assertAxe(page, `(${colorScheme}, tools panel open)`);
      await page.selectOption('select[name="wiki"]', "offline");

      await page.click('button[data-action="settings"]');
      await assertAxe(page, `(${colorScheme}, settings folded)`);
      assertClean(page);
      await page.context().close();
    });

    it(`${colorScheme}: during and after a run, with a repair and folded raw text open, and in Present`, async () => {
      const page = await openPage(env, { viewport: WIDE, colorScheme, query: "?lang=en" });
      await page.emulateMedia({ colorScheme });
      await startSlowRun(page, "water", 2);
      await assertAxe(page, `(${colorScheme}, mid-stream)`);
      await stopRun(page);

      assert.equal(await runScenario(page, "format-repair"), "answer");
      for (const d of await page.$$("tao-trajectory details.raw")) await d.evaluate((n) => (n.open = true));
      await assertAxe(page, `(${colorScheme}, after a run with a repair)`);

      assert.equal(await runScenario(page, "max-steps"), "max_steps");
      await assertAxe(page, `(${colorScheme}, after a run that hit the step limit)`);

      await page.click('button[data-action="present"]');
      await assertAxe(page, `(${colorScheme}, Present)`);
      assertClean(page);
      await page.context().close();
    });
  }

  for (const colorScheme of ["light", "dark"]) {
    it(`${colorScheme}: in step mode (paused before a model call, before a tool call), playing the model, the Prompt view, and with a fork open`, async () => {
      const page = await openPage(env, { viewport: WIDE, colorScheme, query: "?lang=en&scenario=einstein&mode=step&autorun=1" });
      await page.emulateMedia({ colorScheme });
      await page.waitForSelector('tao-trajectory [data-kind="pause"][data-pause="model"]');
      await assertAxe(page, `(${colorScheme}, paused before the model call)`);
      await page.click('button[data-action="step"]');
      await page.waitForSelector('tao-trajectory [data-kind="pause"][data-pause="tool"]');
      await assertAxe(page, `(${colorScheme}, paused before the tool call)`);
      await page.click('tao-trajectory [data-step="1"] button[data-prompt]');
      await page.waitForSelector("tao-prompt dialog[open]");
      await assertAxe(page, `(${colorScheme}, the Prompt view open)`, { modal: true });
      await page.keyboard.press("Escape");
      await page.click('button[data-action="resume"]');
      await page.waitForFunction(() => document.querySelector('tao-stats [data-stat="stop"]')?.dataset.reason === "answer");
      // Fork: edit the observation that says where he was born.
      const frame = page.locator('tao-trajectory .editable[data-edit="observation"]').filter({ hasText: "born in Ulm" });
      await frame.getByRole("button", { name: "Edit" }).click();
      const box = frame.getByRole("textbox");
      await box.waitFor(); // the editor's code comes with the first Edit
      await assertAxe(page, `(${colorScheme}, editing an observation)`);
      await box.fill((await box.inputValue()).replace(/born in Ulm.*$/, "born in Munich."));
      await frame.getByRole("button", { name: "Fork from here" }).click();
      await page.waitForFunction(() => /Fork: Munich/.test(document.querySelector(".branches-summary")?.textContent ?? ""));
      await assertAxe(page, `(${colorScheme}, a fork open side by side)`);
      await page.setViewportSize(PHONE);
      await page.waitForSelector('tao-branches [role="tablist"]');
      await assertAxe(page, `(${colorScheme}, a fork open as tabs)`);
      assertClean(page);
      await page.context().close();
    });
  }

  for (const colorScheme of ["light", "dark"]) {
    it(`${colorScheme}: playing the model: the reply box, a reply explained, and a Run refused offline`, async () => {
      const page = await openPage(env, { viewport: WIDE, colorScheme, query: "?lang=en&scenario=water&provider=human&autorun=1" });
      const reply = page.getByRole("textbox", { name: "Your reply" });
      await reply.waitFor();
      await assertAxe(page, `(${colorScheme}, playing the model)`);
      await reply.fill("I think I should calculate.");
      await page.getByRole("button", { name: "Send" }).click();
      await page.locator(".human-retry").waitFor();
      await assertAxe(page, `(${colorScheme}, a reply that could not be read, explained)`);
      await page.click('button[data-action="stop"]');
      await waitStopped(page);
      await page.selectOption('select[name="provider"]', "scripted");
      await page.fill('textarea[name="task"]', "Who is the CEO of Microsoft?");
      await page.click('button[data-action="run"]');
      await page.locator("main [data-run-notice]").waitFor();
      await assertAxe(page, `(${colorScheme}, a Run refused offline)`);
      assertClean(page);
      await page.context().close();
    });
  }

  it("Chinese, and a phone, before and after a run", async () => {
    const page = await openPage(env, { viewport: PHONE, query: "?lang=zh" });
    await assertAxe(page, "(zh, phone, before a run)");
    assert.equal(await runScenario(page, "apple-ceo"), "answer");
    await assertAxe(page, "(zh, phone, after a run)");
    assertClean(page);
    await page.context().close();
  });
});

// ----- semantics --------------------------------------------------------------------------------

describe("semantics", () => {
  it("landmarks, heading order, the named log, the buttons' names", async () => {
    const page = await openPage(env, { viewport: WIDE, query: "?lang=en" });
    assert.equal(await page.getByRole("banner").count(), 1, "one banner");
    assert.equal(await page.getByRole("main").count(), 1, "one main");
    assert.equal(await page.getByRole("contentinfo").count(), 1, "one contentinfo");
    assert.equal(await page.getByRole("region", { name: "Settings", exact: true }).count(), 1, "the settings are a named region");
    const log = page.getByRole("log", { name: "Trajectory", exact: true });
    assert.equal(await log.count(), 1, "the trajectory is a log named Trajectory");
    assert.equal(await log.evaluate((n) => n.tagName), "TAO-TRAJECTORY");
    for (const name of ["Run", "Stop", "Export JSON", "Import", "Share", "Present", "Hide settings"]) {
      assert.equal(await page.getByRole("button", { name, exact: true }).count(), 1, `a button named ${name}`);
    }

    assert.equal(await runScenario(page, "water"), "answer");
    const levels = await page.$$eval("h1, h2, h3, h4, h5, h6", (hs) => hs.map((h) => Number(h.tagName[1])));
    assert.equal(levels[0], 1, "the first heading is the h1");
    for (let i = 1; i < levels.length; i++) {
      assert.ok(levels[i] <= levels[i - 1] + 1, `heading levels ${levels.join(",")} skip a level at ${i}`);
    }
    assert.ok(levels.filter((l) => l === 3).length >= 4, "one h3 per step");
    await page.context().close();
  });

  it("the answer is announced in a polite live region; the streaming text is not read token by token", async () => {
    const page = await openPage(env, { viewport: WIDE, query: "?lang=en" });
    await startSlowRun(page, "apple-ceo", 1, "30");
    assert.equal(await page.getAttribute("tao-trajectory .raw-live", "aria-hidden"), "true");
    assert.equal(await page.getAttribute("tao-trajectory", "aria-busy"), null, "the log is not busy while it streams");
    assert.equal(await waitStopped(page), "answer");
    const answer = (await page.textContent('tao-trajectory [data-kind="answer"] .answer-text')).trim();
    const region = page.locator("[data-announce]");
    assert.equal(await region.getAttribute("aria-live"), "polite");
    await page.waitForFunction(() => document.querySelector("[data-announce]").textContent !== "");
    assert.equal(await region.textContent(), `Answer: ${answer}`);

    assert.equal(await runScenario(page, "max-steps"), "max_steps");
    await page.waitForFunction(() => document.querySelector("[data-announce]").textContent.startsWith("Stopped"));
    assert.equal(await region.textContent(), "Stopped: max steps reached");
    // A new run leaves nothing of the last one for a reader to come across.
    await startSlowRun(page, "apple-ceo", 1, "30");
    assert.equal(await region.textContent(), "");
    await stopRun(page);
    await page.context().close();
  });
});

// ----- focus ------------------------------------------------------------------------------------

describe("focus", () => {
  const focused = (page) => page.evaluate(() => document.activeElement?.dataset.action ?? document.activeElement?.tagName);

  it("goes to Stop when a run starts and back to Run when it ends (mouse and keyboard)", async () => {
    const page = await openPage(env, { viewport: WIDE, query: "?lang=en" });
    assert.equal(await focused(page), "BODY", "loading the page moves no focus");
    await startSlowRun(page, "apple-ceo", 1, "10");
    assert.equal(await focused(page), "stop");
    assert.equal(await waitStopped(page), "answer");
    assert.equal(await focused(page), "run");

    // Keyboard: Enter on Run, then Enter on Stop (where the focus now is).
    await page.selectOption('select[name="delayMs"]', "80");
    await page.focus('button[data-action="run"]');
    await page.keyboard.press("Enter");
    await page.waitForSelector('tao-trajectory [data-step="1"]');
    assert.equal(await focused(page), "stop");
    await page.keyboard.press("Enter");
    assert.equal(await waitStopped(page), "aborted");
    assert.equal(await focused(page), "run");
    await page.context().close();
  });

  it("every control Tab reaches shows a visible focus outline", async () => {
    const page = await openPage(env, { viewport: WIDE, query: "?lang=en" });
    await page.click("[data-tools-panel] > summary");
    const seen = [];
    for (let i = 0; i < 40; i++) {
      await page.keyboard.press("Tab");
      const f = await page.evaluate(() => {
        const n = document.activeElement;
        if (!n || n === document.body) return null;
        const s = getComputedStyle(n);
        return { what: n.outerHTML.slice(0, 60), style: s.outlineStyle, width: parseFloat(s.outlineWidth) };
      });
      if (!f) break;
      seen.push(f.what);
      assert.ok(f.style !== "none" && f.width >= 2, `no visible focus on ${f.what} (${f.style} ${f.width}px)`);
    }
    assert.ok(seen.length >= 15, `Tab reached ${seen.length} controls`);
    await page.context().close();
  });
});

// ----- present ----------------------------------------------------------------------------------

describe("Present", () => {
  const sizes = (page) =>
    page.evaluate(() => {
      const px = (sel) => parseFloat(getComputedStyle(document.querySelector(sel)).fontSize);
      return { body: px("body"), card: px("tao-trajectory .card-text"), raw: px("tao-trajectory .raw-text"), label: px(".field label") };
    });

  it("is an aria-pressed toggle that enlarges text by at least 20%, remembered on this device", async () => {
    const page = await openPage(env, { viewport: WIDE, query: "?lang=en" });
    const button = page.getByRole("button", { name: "Present", exact: true });
    assert.equal(await button.getAttribute("aria-pressed"), "false");
    assert.equal(await runScenario(page, "water"), "answer");
    await page.evaluate(() => document.querySelectorAll("tao-trajectory details.raw").forEach((d) => (d.open = true)));
    const before = await sizes(page);
    await button.click();
    assert.equal(await button.getAttribute("aria-pressed"), "true");
    const after = await sizes(page);
    for (const key of Object.keys(before)) {
      assert.ok(after[key] >= before[key] * 1.2, `${key}: ${before[key]}px → ${after[key]}px is not 20% larger`);
    }
    assert.equal(await page.evaluate(() => localStorage.getItem("tao.present")), "1");

    await page.reload();
    await page.waitForSelector('body[data-ready="true"]');
    assert.equal(await button.getAttribute("aria-pressed"), "true", "remembered after a reload");
    await button.click();
    assert.equal(await button.getAttribute("aria-pressed"), "false");
    assert.equal(await page.evaluate(() => localStorage.getItem("tao.present")), null);
    await page.context().close();
  });

  it("?present=1 turns it on; in Chinese it is 演示", async () => {
    const page = await openPage(env, { viewport: WIDE, query: "?lang=zh&present=1" });
    const button = page.getByRole("button", { name: "演示", exact: true });
    assert.equal(await button.getAttribute("aria-pressed"), "true");
    assert.equal(await page.evaluate(() => getComputedStyle(document.body).fontSize), "20px");
    await page.context().close();
  });
});

// ----- readable ---------------------------------------------------------------------------------

/** The contrast ratio of an element's text against the background behind it (WCAG 2). */
function contrastOf(page, selector) {
  return page.evaluate((selector) => {
    const parse = (c) => {
      const m = c.match(/rgba?\(([^)]+)\)/);
      if (!m) throw new Error(`unexpected colour ${c}`);
      const [r, g, b, a = 1] = m[1].split(/[ ,/]+/).filter(Boolean).map(Number);
      return { r, g, b, a };
    };
    const over = (top, under) => ({
      r: top.r * top.a + under.r * (1 - top.a),
      g: top.g * top.a + under.g * (1 - top.a),
      b: top.b * top.a + under.b * (1 - top.a),
      a: 1,
    });
    const node = document.querySelector(selector);
    // The backgrounds from the page down to the element, composited.
    const chain = [];
    for (let n = node; n; n = n.parentElement) chain.unshift(parse(getComputedStyle(n).backgroundColor));
    let bg = { r: 255, g: 255, b: 255, a: 1 };
    if (matchMedia("(prefers-color-scheme: dark)").matches) bg = { r: 0, g: 0, b: 0, a: 1 };
    for (const c of chain) bg = over(c, bg);
    const fg = over(parse(getComputedStyle(node).color), bg);
    const lum = ({ r, g, b }) => {
      const ch = (v) => ((v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
      return 0.2126 * ch(r) + 0.7152 * ch(g) + 0.0722 * ch(b);
    };
    const [hi, lo] = [lum(fg), lum(bg)].sort((a, b) => b - a);
    return { ratio: (hi + 0.05) / (lo + 0.05), fontSize: parseFloat(getComputedStyle(node).fontSize) };
  }, selector);
}

describe("readable", () => {
  for (const colorScheme of ["light", "dark"]) {
    it(`${colorScheme}: streaming and folded raw text are at least 15 px and 7:1; cards' text at least 16 px`, async () => {
      const page = await openPage(env, { viewport: WIDE, colorScheme, query: "?lang=en" });
      await page.emulateMedia({ colorScheme });
      await startSlowRun(page, "water", 1);
      const live = await contrastOf(page, "tao-trajectory .raw-live .raw-text");
      console.log(`# ${colorScheme}: streaming text ${live.fontSize}px, contrast ${live.ratio.toFixed(2)}:1`);
      assert.ok(live.fontSize >= 15, `streaming text is ${live.fontSize}px`);
      assert.ok(live.ratio >= 7, `streaming text contrast is ${live.ratio.toFixed(2)}:1`);
      await page.waitForSelector('tao-trajectory [data-step="1"] details.raw');
      await page.click('tao-trajectory [data-step="1"] details.raw > summary');
      const folded = await contrastOf(page, 'tao-trajectory [data-step="1"] details.raw .raw-text');
      console.log(`# ${colorScheme}: folded raw text ${folded.fontSize}px, contrast ${folded.ratio.toFixed(2)}:1`);
      assert.ok(folded.fontSize >= 15, `folded raw text is ${folded.fontSize}px`);
      assert.ok(folded.ratio >= 7, `folded raw text contrast is ${folded.ratio.toFixed(2)}:1`);
      for (const sel of [".card-thought .card-text", ".card-action pre", ".card-observation pre", ".task-text"]) {
        const size = await page.$eval(`tao-trajectory ${sel}`, (n) => parseFloat(getComputedStyle(n).fontSize));
        assert.ok(size >= 16, `${sel} is ${size}px`);
      }
      await stopRun(page);
      await page.context().close();
    });
  }
});

// ----- layout -----------------------------------------------------------------------------------

const box = (page, selector) => page.locator(selector).first().boundingBox();

describe("layout", () => {
  it("1366×850: settings beside the trajectory; after Run the task and the first step are in view", async () => {
    const page = await openPage(env, { viewport: WIDE, query: "?lang=en" });
    const controls = await box(page, "tao-controls");
    const trajectory = await box(page, "tao-trajectory");
    assert.ok(controls.x + controls.width <= trajectory.x, "the settings are left of the trajectory");
    assert.ok(trajectory.y < 250, `the trajectory starts at y=${trajectory.y}`);
    assert.equal(await page.evaluate(() => getComputedStyle(document.querySelector(".sidebar")).position), "sticky");

    await startSlowRun(page, "water", 1);
    await page.waitForSelector('tao-trajectory [data-step="1"] [data-kind="thought"]');
    const task = await box(page, 'tao-trajectory [data-kind="task"]');
    const thought = await box(page, 'tao-trajectory [data-step="1"] [data-kind="thought"]');
    assert.ok(task.y >= 0 && task.y + task.height <= WIDE.height, `task card at y=${task.y}…${task.y + task.height}`);
    assert.ok(thought.y + thought.height <= WIDE.height, `step 1's thought ends at y=${thought.y + thought.height}`);
    await stopRun(page);
    await page.context().close();
  });

  it("Hide settings folds the settings to the run's buttons; Show settings brings them back", async () => {
    const page = await openPage(env, { viewport: WIDE, query: "?lang=en" });
    const toggle = page.locator('button[data-action="settings"]');
    const wide = (await box(page, "tao-trajectory")).width;
    await page.selectOption('select[name="scenario"]', "apple-ceo");
    await page.selectOption('select[name="delayMs"]', "30");
    assert.equal(await toggle.getAttribute("aria-expanded"), "true");
    assert.equal(await toggle.getAttribute("aria-controls"), "settings");
    await toggle.click();
    assert.equal(await toggle.getAttribute("aria-expanded"), "false");
    assert.equal(await toggle.textContent(), "Show settings");
    assert.ok(!(await page.isVisible('textarea[name="task"]')), "the task field is folded away");
    assert.ok(!(await page.isVisible("tao-tools")), "the tools panel is folded away");
    assert.ok(await page.isVisible('button[data-action="run"]'), "Run stays");
    assert.ok((await box(page, "tao-trajectory")).width > wide + 200, "the trajectory gets the room");
    await page.click('button[data-action="run"]');
    await page.waitForSelector('tao-trajectory [data-step="1"] .raw-live');
    assert.equal(await page.evaluate(() => document.activeElement.dataset.action), "stop", "Stop is there to take the focus");
    await stopRun(page);
    await toggle.click();
    assert.equal(await toggle.getAttribute("aria-expanded"), "true");
    assert.equal(await toggle.textContent(), "Hide settings");
    assert.ok(await page.isVisible('textarea[name="task"]'));
    await page.context().close();
  });

  it("a phone keeps one column, with no settings toggle", async () => {
    const page = await openPage(env, { viewport: PHONE, query: "?lang=en" });
    const controls = await box(page, "tao-controls");
    const trajectory = await box(page, "tao-trajectory");
    assert.ok(controls.y + controls.height <= trajectory.y, "the settings are above the trajectory");
    assert.ok(!(await page.isVisible('button[data-action="settings"]')));
    assert.ok(await page.isVisible('button[data-action="present"]'));
    await page.context().close();
  });
});

// ----- follow -----------------------------------------------------------------------------------

describe("follow", () => {
  /** Is the bottom of the newest thing in the trajectory inside the window? */
  const currentInView = (page) =>
    page.evaluate(() => {
      const last = document.querySelector("tao-trajectory").lastElementChild;
      const r = (last.querySelector(".step-body")?.lastElementChild ?? last).getBoundingClientRect();
      return r.bottom > 0 && r.top < innerHeight && r.bottom <= innerHeight + 2;
    });

  it("keeps the current step in view from the start; scrolling up stops it, the bottom resumes it", async () => {
    const page = await openPage(env, { viewport: PHONE, query: "?lang=en" });
    // The reader is at the top of the page, by the form, when they press Run.
    await startSlowRun(page, "water", 1);
    await page.waitForTimeout(300);
    assert.ok(await currentInView(page), "the first step's live text is in view");
    await page.waitForSelector('tao-trajectory [data-step="2"] .raw-live');
    await page.waitForTimeout(300);
    assert.ok(await currentInView(page), "the second step's live text is in view");

    // Scroll up: the page stays where the reader put it while the run goes on.
    await page.mouse.move(200, 400);
    await page.mouse.wheel(0, -600);
    await page.waitForTimeout(200);
    const y = await page.evaluate(() => scrollY);
    await page.waitForSelector('tao-trajectory [data-step="3"]', { timeout: 20000 });
    await page.waitForTimeout(300);
    assert.equal(await page.evaluate(() => scrollY), y, "no following after scrolling up");

    // Back to the bottom: following again.
    await page.evaluate(() => scrollTo({ top: document.documentElement.scrollHeight }));
    await page.waitForSelector('tao-trajectory [data-step="4"] .raw-live', { timeout: 20000 });
    await page.waitForTimeout(300);
    assert.ok(await currentInView(page), "following again at the bottom");
    await stopRun(page);
    await page.context().close();
  });
});

// ----- stats ------------------------------------------------------------------------------------

describe("stats", () => {
  /** Every stat's label and value fit their box (nothing cut or spilling into a neighbour). */
  async function assertStatsFit(page, what) {
    const bad = await page.$$eval("tao-stats .stat:not([hidden])", (items) =>
      items.flatMap((item) => {
        const box = item.getBoundingClientRect();
        return [...item.querySelectorAll("dt, dd")]
          .filter((n) => {
            const r = n.getBoundingClientRect();
            return n.scrollWidth > n.clientWidth + 1 || r.left < box.left - 1 || r.right > box.right + 1;
          })
          .map((n) => n.textContent);
      }),
    );
    assert.deepEqual(bad, [], `cut off ${what}`);
  }

  for (const lang of ["en", "zh"]) {
    for (const [name, viewport] of [["1366", WIDE], ["390", PHONE]]) {
      it(`${lang} at ${name}: nothing cut off, and no Tokens stat without token counts`, async () => {
        const page = await openPage(env, { viewport, query: `?lang=${lang}` });
        await assertStatsFit(page, `(${lang}, ${name}, before a run)`);
        assert.equal(await runScenario(page, "max-steps"), "max_steps");
        await assertStatsFit(page, `(${lang}, ${name}, max steps reached)`);
        assert.ok(!(await page.isVisible("tao-stats .stat-tokens")), "no Tokens stat for the offline model");
        assert.equal(await page.textContent('tao-stats [data-stat="tokens"]'), "");
        await page.click('button[data-action="present"]');
        await assertStatsFit(page, `(${lang}, ${name}, Present)`);
        // A provider that reports tokens shows them, and they fit too.
        await page.evaluate(() =>
          document.querySelector("tao-stats").show({ n_calls: 12, n_badcalls: 1, steps: 8, elapsed_ms: 65432, prompt_tokens: 123456, completion_tokens: 7890 }, { reason: "max_steps" }),
        );
        assert.ok(await page.isVisible("tao-stats .stat-tokens"));
        assert.equal(await page.textContent('tao-stats [data-stat="tokens"]'), "123456 / 7890");
        await assertStatsFit(page, `(${lang}, ${name}, with tokens)`);
        await page.context().close();
      });
    }
  }
});

// ----- words ------------------------------------------------------------------------------------

describe("words", () => {
  const INTERNAL = /\bseed\b|\bplan \d|max_steps|n_badcalls|scripted:|no_action|\bundefined\b|\bNaN\b|\[object |种子|方案 \d/;
  /** A dictionary key shown in place of its words ("reason.running"): the families of keys the page has. */
  const KEY = /\b(?:reason|stat|status|human|paused|bench|offline|footer|compare|runs|why|card|prompt|fork|branches|edit|rate|meta|timing|approval|memo|error|budget|settings|provider|speed|step|resume|pause|announce|tools?|files|chart|mode|lang|test|present|share)\.[a-z][\w.]*/;

  /**
   * The page's text as a reader meets it, line by line: what is shown, and the words of the
   * visible elements' title, placeholder and aria-label (a key leaks there too).
   */
  const said = (page) =>
    page.evaluate(() => {
      const lines = document.body.innerText.split("\n");
      for (const node of document.querySelectorAll("[title], [placeholder], [aria-label]")) {
        if (!node.checkVisibility?.()) continue;
        for (const attr of ["title", "placeholder", "aria-label"]) if (node.hasAttribute(attr)) lines.push(`${attr}: ${node.getAttribute(attr)}`);
      }
      return lines;
    });

  for (const lang of ["en", "zh"]) {
    it(`${lang}: no internal names or keys in the studio's states: You waiting and explained, paused, refused, benchmark, fork and compare`, async () => {
      const zh = lang === "zh";
      const page = await openPage(env, { viewport: WIDE, query: `?lang=${lang}&scenario=water&provider=human&autorun=1` });
      const check = async (when) => {
        const hit = (await said(page)).find((line) => INTERNAL.test(line) || KEY.test(line));
        assert.equal(hit, undefined, `an internal name or key ${when}`);
      };
      // You: waiting for the reply, then a reply that could not be read, explained.
      const reply = page.locator("[data-reply]");
      await reply.waitFor();
      await check("while the run waits for the student's reply");
      await reply.fill("I think I should calculate.");
      await page.locator("[data-send]").click();
      await page.locator(".human-retry").waitFor();
      await check("with a retried reply explained");
      await page.click('button[data-action="stop"]');
      await waitStopped(page);
      await check("after You's run was stopped");
      // Stepping: paused before the model call, before the tool call, and running.
      await page.selectOption('select[name="provider"]', "scripted");
      await page.selectOption('select[name="scenario"]', "apple-ceo");
      await page.selectOption('select[name="delayMs"]', "80");
      await page.click('button[data-action="step"]');
      await page.waitForSelector('tao-trajectory [data-kind="pause"][data-pause="model"]');
      await check("paused before a model call");
      await page.click('button[data-action="step"]');
      await page.waitForSelector('tao-trajectory [data-kind="pause"][data-pause="tool"]');
      await check("paused before a tool call");
      await page.click('button[data-action="resume"]');
      await page.waitForFunction(() => document.querySelector('tao-stats [data-stat="stop"]')?.dataset.reason === "running");
      await check("while running");
      assert.equal(await waitStopped(page), "answer");
      await check("after the answer");
      // A Run the offline model cannot play.
      await page.fill('textarea[name="task"]', zh ? "微软的 CEO 是谁？" : "Who is the CEO of Microsoft?");
      await page.click('button[data-action="run"]');
      await page.locator("main [data-run-notice]").waitFor();
      await check("with a Run refused");
      // Fork, then compare.
      await page.selectOption('select[name="scenario"]', "einstein");
      await page.selectOption('select[name="delayMs"]', "0");
      assert.equal(await runScenario(page, "einstein"), "answer");
      const frame = page.locator('tao-trajectory .editable[data-edit="observation"]').filter({ hasText: zh ? "出生于" : "born in Ulm" });
      await frame.locator(".edit-button").click();
      const box = frame.getByRole("textbox");
      await box.fill((await box.inputValue()).replace(zh ? /出生于.*$/ : /born in Ulm.*$/, zh ? "出生于慕尼黑。" : "born in Munich."));
      await frame.locator("button.primary").click();
      await page.waitForSelector('tao-branches [data-keep="fork"]:not(:disabled)');
      await check("with a fork");
      await page.click('button[data-action="compare"]');
      await page.locator("tao-compare").waitFor();
      await page.evaluate(() => document.querySelector("tao-controls form").requestSubmit());
      await page.waitForFunction(() => [...document.querySelectorAll("tao-compare .compare-column")].every((c) => c.querySelector("[data-answer]")?.textContent));
      await check("comparing after a fork");
      await page.click('button[data-action="compare"]');
      // The benchmark panel before Start, with the offline model and with a keyless provider.
      await page.click('button[data-action="benchmark"]');
      await page.locator("[data-benchmark]").waitFor();
      await check("in the benchmark panel (offline model)");
      // (The fork folded the settings away for the width: the Model panel is in them.)
      if (await page.isVisible('button[data-action="settings"][aria-expanded="false"]')) await page.click('button[data-action="settings"]');
      await page.selectOption('select[name="provider"]', "openai");
      await page.locator("[data-bench-needs]:not([hidden])").waitFor();
      await check("in the benchmark panel (no key)");
      assertClean(page);
      await page.context().close();
    });
  }

  for (const lang of ["en", "zh"]) {
    it(`${lang}: no internal names on the page, after load and after runs`, async () => {
      const page = await openPage(env, { viewport: WIDE, query: `?lang=${lang}` });
      const check = async (when) => {
        const text = await page.evaluate(() => document.body.innerText);
        const hit = text.split("\n").find((line) => INTERNAL.test(line));
        assert.equal(hit, undefined, `an internal name ${when}`);
      };
      await check("after load");
      if (lang === "zh") assert.ok(!(await page.textContent("tao-trajectory")).includes("Watch the loop"), "the welcome is in Chinese");
      for (const scenario of ["apple-ceo", "format-repair", "max-steps"]) {
        await page.selectOption('select[name="scenario"]', scenario);
        await check(`with ${scenario} chosen`);
        await runScenario(page, scenario);
        await check(`after running ${scenario}`);
      }
      assertClean(page);
      await page.context().close();
    });
  }
});

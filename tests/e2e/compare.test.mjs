// The compare view: one question run in the ReAct paper's four prompt modes side by side,
// offline, with each answer scored against the scenario's gold answer.
//
//   node --test tests/e2e/compare.test.mjs      (serves target/site: build it first with `make site`)
//
// Index:
//   four modes       ?compare=react,act,cot,standard&autorun=1 on apple-ceo: four columns run at
//                    once; ReAct searches and answers right (EM 1), CoT states a wrong fact and no
//                    action, Act acts without a thought and searches twice, Standard answers at
//                    once; no Tokens line offline; screenshots 1366 and 390, light and dark, en/zh
//   no scores        the built-in tools' module (the scores' code) cannot load: every column keeps
//                    its run and answer, unscored, and the page says why
//   button           Compare modes opens the view (settings fold on wide screens), Run runs it,
//                    Share writes compare= into the link, Close comparison restores the page
//   modes            unchecking leaves at least two; a scenario with no replies for a mode says so
//   axe              axe-core finds nothing in the compare view after a run
//   training JSONL   a run rated good, then a comparison: Export runs as JSONL writes one line a
//                    run with each step's prompt, the rating as reward 1, the columns' F1 as theirs

import { describe, it, before, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import { setUp, openPage, OUT, assertClean, runScenario } from "./helpers.mjs";

let env;
before(async () => {
  env = await setUp();
});
after(async () => {
  await env?.close();
});

const WIDE = { width: 1366, height: 850 };
const PHONE = { width: 390, height: 844 };
const ALL = "react,act,cot,standard";

const column = (page, mode) => page.locator(`tao-compare .compare-column[data-mode="${mode}"]`);

/** Waits until every column has an answer line or an error, and Run is enabled again. */
async function waitCompared(page, timeout = 30000) {
  await page.waitForFunction(
    () => {
      const cols = [...document.querySelectorAll("tao-compare .compare-column")];
      const done = cols.every((c) => c.querySelector("[data-answer]")?.textContent || c.querySelector(".error"));
      return cols.length && done && !document.querySelector('[data-action="run"]').disabled;
    },
    null,
    { timeout },
  );
}

/** The kinds of card a column's trajectory shows, in order (raw replies left out). */
const kinds = (page, mode) =>
  column(page, mode).locator("tao-trajectory [data-kind]").evaluateAll((nodes) => nodes.map((n) => n.dataset.kind).filter((k) => k !== "raw" && k !== "task"));

async function assertNoOverflow(page) {
  const { scroll, client } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
  assert.ok(scroll <= client, `page is ${scroll}px wide in a ${client}px viewport`);
}

describe("compare view", () => {
  it("runs four modes side by side offline, scored against the gold answer", async () => {
    const page = await openPage(env, { query: `?scenario=apple-ceo&compare=${ALL}&delay=0&autorun=1&lang=en`, viewport: WIDE });
    await waitCompared(page);
    assert.equal(await page.locator("tao-compare .compare-column").count(), 4);
    // The single view and its stats bar give way to the columns.
    assert.equal(await page.locator("main > tao-trajectory").isHidden(), true);
    assert.match(await page.locator("[data-compare-gold]").textContent(), /Gold answer: Mobile, Alabama/);

    // ReAct: thought, action, observation … answer; right.
    const react = await kinds(page, "react");
    assert.ok(react.includes("thought") && react.includes("action") && react.includes("observation"), react.join());
    assert.match(await column(page, "react").locator("[data-answer]").textContent(), /Mobile, Alabama/);
    assert.equal(await column(page, "react").getAttribute("data-em"), "1");
    // Act: actions and observations, never a thought; it searches the same thing more than once.
    const act = await kinds(page, "act");
    assert.ok(act.includes("action") && !act.includes("thought"), act.join());
    const inputs = await column(page, "act").locator('tao-trajectory [data-kind="action"]').allTextContents();
    assert.ok(inputs.length >= 2, `Act took ${inputs.length} actions`);
    // CoT: a thought and an answer, no tool; confidently wrong.
    const cot = await kinds(page, "cot");
    assert.ok(cot.includes("thought") && cot.includes("answer") && !cot.includes("action"), cot.join());
    assert.equal(await column(page, "cot").getAttribute("data-em"), "0");
    // Standard: an answer at once.
    assert.equal(await column(page, "standard").locator('[data-stat="steps"]').textContent(), "1");
    assert.ok(!(await kinds(page, "standard")).includes("action"));
    // Every column is scored; offline there are no token counts at all.
    for (const mode of ALL.split(",")) {
      assert.match(await column(page, mode).locator("[data-score]").textContent(), /^EM [01] · F1 \d\.\d\d$/);
      assert.equal(await column(page, mode).locator(".stat-tokens").isHidden(), true);
    }
    // Screenshots, looked at: desktop light and dark, then Chinese.
    await assertNoOverflow(page);
    await page.screenshot({ path: path.join(OUT, "compare-1366-light-en.png"), fullPage: true });
    await page.emulateMedia({ colorScheme: "dark" });
    await page.screenshot({ path: path.join(OUT, "compare-1366-dark-en.png"), fullPage: true });
    assertClean(page);
    await page.context().close();

    const zh = await openPage(env, { query: `?scenario=apple-ceo&compare=${ALL}&delay=0&autorun=1&lang=zh`, viewport: PHONE });
    await waitCompared(zh);
    assert.match(await zh.locator("[data-compare-gold]").textContent(), /标准答案/);
    assert.equal(await column(zh, "react").getAttribute("data-em"), "1");
    await assertNoOverflow(zh);
    await zh.screenshot({ path: path.join(OUT, "compare-390-light-zh.png"), fullPage: true });
    await zh.emulateMedia({ colorScheme: "dark" });
    await zh.screenshot({ path: path.join(OUT, "compare-390-dark-zh.png"), fullPage: true });
    assertClean(zh);
    await zh.context().close();
  });

  it("keeps each column's run when the scores cannot be had", async () => {
    // The scores come from the built-in tools' module, loaded at the first score: a page that
    // cannot load it (here: every request for it fails) still shows every run, and says why
    // there is no score.
    const page = await openPage(env, { query: "?scenario=apple-ceo&compare=react,standard&delay=0&lang=en", viewport: WIDE });
    await page.route("**/tao_tools*", (route) => route.abort());
    const settingsToggle = page.locator('[data-action="settings"]');
    if ((await settingsToggle.getAttribute("aria-expanded")) === "false") await settingsToggle.click();
    await page.getByRole("button", { name: "Run", exact: true }).click();
    await waitCompared(page);
    for (const mode of ["react", "standard"]) {
      assert.match(await column(page, mode).locator("[data-answer]").textContent(), /\S/);
      assert.equal(await column(page, mode).getAttribute("data-em"), "");
      assert.equal(await column(page, mode).locator(".error").count(), 0);
    }
    const error = await page.locator("[data-error]").textContent();
    assert.match(error, /^The answers could not be scored \(the scoring code did not load\): could not load the built-in tools' module/);
    await page.context().close();
  });

  it("opens from the Compare modes button, shares its modes, and goes back to one run", async () => {
    const page = await openPage(env, { query: "?scenario=einstein&lang=en", viewport: WIDE });
    const button = page.getByRole("button", { name: "Compare modes" });
    await button.click();
    await page.locator("tao-compare").waitFor();
    assert.equal(await button.getAttribute("aria-pressed"), "true");
    // Wide screens fold the settings away; bring them back to press Run.
    const settingsToggle = page.locator('[data-action="settings"]');
    if ((await settingsToggle.getAttribute("aria-expanded")) === "false") await settingsToggle.click();
    await page.selectOption('select[name="delayMs"]', "0");
    await page.getByRole("checkbox", { name: "Standard" }).uncheck();
    assert.equal(await page.locator("tao-compare .compare-column").count(), 3);
    await page.getByRole("button", { name: "Run", exact: true }).click();
    await waitCompared(page);
    assert.equal(await column(page, "react").getAttribute("data-em"), "1");
    // Step, Export and Import act on the single trajectory, hidden while comparing: off.
    const off = () => page.evaluate(() => [...["step", "export", "import"].map((a) => document.querySelector(`[data-action="${a}"]`).disabled), document.querySelector("[data-step-mode]").disabled]);
    assert.deepEqual(await off(), [true, true, true, true]);
    // Stop mid-way: Pause was off (a comparison runs to its end or its Stop), and the status says it stopped.
    await page.selectOption('select[name="delayMs"]', "200");
    await page.getByRole("button", { name: "Run", exact: true }).click();
    await page.waitForSelector("tao-compare .raw-live");
    assert.equal(await page.locator('[data-action="pause"]').isDisabled(), true);
    await page.getByRole("button", { name: "Stop", exact: true }).click();
    await page.waitForFunction(() => document.querySelector("[data-status]")?.textContent === "Stopped: the comparison did not finish.");
    // Share writes the modes shown into the link.
    await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
    await page.getByRole("button", { name: "Share" }).click();
    await page.waitForFunction(() => location.search.includes("compare="));
    assert.match(await page.evaluate(() => location.search), /compare=react%2Cact%2Ccot|compare=react,act,cot/);
    // Close comparison: the single view and the stats bar are back.
    await page.getByRole("button", { name: "Close comparison" }).click();
    assert.equal(await page.locator("tao-compare").count(), 0);
    assert.equal(await page.locator("main > tao-trajectory").isVisible(), true);
    assert.equal(await button.getAttribute("aria-pressed"), "false");
    assert.deepEqual(await off(), [false, false, false, false]);
    assertClean(page);
    await page.context().close();
  });

  it("keeps at least two modes, and says when the offline model has no replies for one", async () => {
    const page = await openPage(env, { query: "?scenario=water&compare=react,cot&lang=en", viewport: WIDE });
    await page.locator("tao-compare").waitFor();
    await page.getByRole("checkbox", { name: "CoT" }).click();
    assert.equal(await page.getByRole("checkbox", { name: "CoT" }).isChecked(), true, "the second of two modes stays");
    await page.evaluate(() => document.querySelector("tao-controls form").requestSubmit());
    await page.locator("[data-error]").waitFor();
    assert.match(await page.locator("[data-error]").textContent(), /no replies in CoT/);
    assertClean(page);
    await page.context().close();
  });

  it("has no axe violations after a comparison", async () => {
    const require = createRequire(import.meta.url);
    const axe = process.env.AXE_CORE_PATH ?? require.resolve("axe-core/axe.min.js");
    const page = await openPage(env, { query: `?scenario=apple-ceo&compare=${ALL}&delay=0&autorun=1&lang=en`, viewport: WIDE });
    await waitCompared(page);
    await page.addScriptTag({ path: axe });
    for (const scheme of ["light", "dark"]) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.waitForTimeout(400); // the buttons' colour transitions
      const violations = await page.evaluate(async () => (await window.axe.run(document)).violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`));
      assert.deepEqual(violations, [], `axe (${scheme})`);
    }
    assert.ok(fs.existsSync(axe));
    await page.context().close();
  });

  it("exports the runs of the visit as JSONL: prompts per step, the rating or the F1 as reward", async () => {
    const page = await openPage(env, { query: "?lang=en", viewport: WIDE });
    assert.equal(await runScenario(page, "apple-ceo"), "answer");
    const good = page.getByRole("button", { name: "👍 Good" });
    await good.click();
    assert.equal(await good.getAttribute("aria-pressed"), "true");
    // The rating is on the trajectory: Export JSON writes it.
    assert.equal(await page.evaluate(() => document.querySelector("main > tao-trajectory").trajectory.reward), 1);
    // Then a comparison of two modes: two more runs, scored.
    await page.getByRole("button", { name: "Compare modes" }).click();
    await page.locator("tao-compare").waitFor();
    for (const mode of ["Act", "Standard"]) await page.getByRole("checkbox", { name: mode, exact: true }).click();
    await page.evaluate(() => document.querySelector("tao-controls form").requestSubmit());
    await waitCompared(page);
    assert.match(await page.locator("[data-runs-count]").textContent(), /^3 runs/);
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Export runs as JSONL" }).click()]);
    const file = path.join(OUT, "compare-runs.jsonl");
    await download.saveAs(file);
    const lines = fs.readFileSync(file, "utf8").trim().split("\n").map((l) => JSON.parse(l));
    assert.equal(lines.length, 3);
    const [rated, react, cot] = lines;
    assert.equal(rated.reward, 1);
    assert.equal(rated.mode, "mrkl");
    assert.equal(rated.steps.length, 3);
    // Step k's prompt holds the system message, the question and two messages per earlier step.
    assert.deepEqual(rated.steps.map((s) => s.prompt.length), [2, 4, 6]);
    assert.equal(rated.steps[0].action.tool, "search");
    assert.match(rated.steps[0].observation, /Tim Cook/);
    assert.deepEqual([react.mode, cot.mode], ["react", "cot"]);
    assert.equal(react.reward, 1);
    assert.equal(react.em, 1);
    assert.equal(cot.gold, "Mobile, Alabama");
    assert.ok(cot.reward < 1 && cot.reward === cot.f1, `cot reward ${cot.reward}`);
    assert.equal(cot.steps[0].action, null);
    assertClean(page);
    await page.context().close();
  });
});

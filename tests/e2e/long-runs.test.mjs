// End-to-end tests of long runs on the page: memos (summaries and reflections) as cards of their
// own, the Prompt view saying which steps a summary stands in for, loop detection's repairs, and
// the budgets and memory fields of the settings form.
//
//   node --test tests/e2e/long-runs.test.mjs      (serves target/site: build it first with `make site`)
//
// Index:
//   summary      long-run-summary: two Summary cards or more, live and after the redraw, each
//                after the step it was written after; the last step's prompt names the
//                condensed steps; every step stays on the page; in Chinese too
//   reflection   the reflection scenario: a Reflection card after the two failed actions and a
//                periodic one, then the answer
//   loops        max-steps: every repeat is a "repeated" repair
//   budgets      a token budget typed in the form stops a run with its reason in words; the new
//                fields are labelled and described (English and Chinese) and pass axe; a
//                scenario's memory shows in the form
//   screenshots  out/long-runs-*.png: 1366×850 and 390×844 × light and dark × English and Chinese,
//                each with axe-core clean over the trajectory (the memo cards' contrast)

import { describe, it, before, after } from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import path from "node:path";
import { setUp, openPage, runScenario, texts, stat, OUT, assertClean } from "./helpers.mjs";

const require = createRequire(import.meta.url);
const WIDE = { width: 1366, height: 850 };
const PHONE = { width: 390, height: 844 };

let env;
before(async () => {
  env = await setUp();
});
after(async () => {
  await env?.close();
});

/**
 * Records the memo cards a run adds while it streams (the redraw at its end replaces them). Run
 * with a delay: at speed 0 a whole run can end before the observer hears of its first card.
 */
async function recordLiveMemos(page) {
  await page.evaluate(() => {
    window.__memos = [];
    const view = document.querySelector("tao-trajectory");
    new MutationObserver((records) => {
      for (const r of records) {
        for (const n of r.addedNodes) {
          if (n.nodeType === 1 && n.matches(".card-memo") && view.hasAttribute("data-live")) {
            window.__memos.push({ kind: n.dataset.kind, before: n.previousElementSibling?.dataset.step ?? null });
          }
        }
      }
    }).observe(view, { childList: true });
  });
}

/** The memo cards on the page: kind, the step block before them, what they say. */
function memoCards(page) {
  return page.$$eval("tao-trajectory > .card-memo", (nodes) =>
    nodes.map((n) => {
      let at = n.previousElementSibling;
      while (at?.matches(".card-memo")) at = at.previousElementSibling;
      return {
        kind: n.dataset.kind,
        label: n.querySelector(".card-label").textContent,
        after: at?.dataset.step ?? null,
        covers: n.querySelector("[data-covers]")?.dataset.covers ?? null,
        facts: n.querySelector(".memo-facts")?.textContent ?? "",
        text: n.querySelector(".card-text").textContent,
      };
    }),
  );
}

describe("summary", () => {
  it("long-run-summary: Summary cards live and redrawn, and the prompt names the condensed steps", async () => {
    const page = await openPage(env, { viewport: WIDE });
    await page.selectOption('select[name="scenario"]', "long-run-summary");
    // The scenario's memory shows in the form, its fold open.
    assert.equal(await page.inputValue('input[name="memoryTokens"]'), "700");
    assert.ok(await page.isVisible('input[name="memoryTokens"]'), "the budgets and memory fold is open");
    await recordLiveMemos(page);
    assert.equal(await runScenario(page, "long-run-summary", { delay: "10" }), "answer");

    const live = await page.evaluate(() => window.__memos);
    const liveSummaries = live.filter((m) => m.kind === "summary");
    assert.ok(liveSummaries.length >= 2, `two live Summary cards or more: ${JSON.stringify(live)}`);
    for (const m of liveSummaries) assert.ok(m.before, `a live summary sits after a step block: ${JSON.stringify(live)}`);

    const memos = await memoCards(page);
    const summaries = memos.filter((m) => m.kind === "summary");
    assert.equal(summaries.length, liveSummaries.length, "the redraw keeps every summary");
    for (const s of summaries) {
      assert.equal(s.label, "Summary");
      assert.match(s.facts, new RegExp(`^Steps 1–${s.covers} condensed · written by tao from the steps`));
      // A summary stands for the steps before the last two it was written after.
      assert.equal(Number(s.covers), Number(s.after) - 2, JSON.stringify(s));
    }
    assert.match(summaries[0].text, /search\[Apple Inc\.\]: Apple was founded in 1976/);
    // The trajectory keeps every step: all eight are on the page, the answer last.
    assert.equal(await page.$$eval("tao-trajectory [data-step]", (s) => s.length), 8);
    assert.match((await texts(page, "answer"))[0], /Jobs was 21, Steve Wozniak was 25 and Ronald Wayne was 41/);

    // The last step's prompt: the question's message carries the latest summary, and says so.
    await page.click('tao-trajectory [data-step="8"] .step-head button[data-prompt]');
    const dialog = page.locator("tao-prompt dialog[open]");
    await dialog.waitFor();
    const last = summaries.at(-1);
    const note = dialog.locator("[data-condensed]");
    assert.equal(await note.count(), 1);
    assert.equal(await note.textContent(), `Steps 1–${last.covers} are condensed into the summary in this message`);
    const holder = note.locator("xpath=..");
    assert.match(await holder.locator(".prompt-text").textContent(), new RegExp(`^Question: .*\\n\\nSummary of steps 1-${last.covers} `, "s"));
    // The condensed steps' turns are not in the prompt; the kept ones are.
    const prompt = await dialog.locator(".prompt-messages").textContent();
    assert.ok(!prompt.includes("Action Input: Apple Inc."), "step 1's turn is condensed away");
    assert.ok(prompt.includes("Action Input: 1976 - 1934 - 1"), "step 7's turn is kept");
    await page.keyboard.press("Escape");

    // The step right after a new summary explains why its prompt was rewritten.
    await page.click(`tao-trajectory [data-step="${Number(summaries[0].after) + 1}"] .step-head button[data-prompt]`);
    await dialog.waitFor();
    assert.match(await dialog.locator(".prompt-side-head").textContent(), new RegExp(`A new summary stands in for steps 1–${summaries[0].covers}`));
    await page.keyboard.press("Escape");
    assertClean(page);
    await page.context().close();
  });

  it("a summary the model wrote says so, its raw reply folds open, and its text stays text", async () => {
    const page = await openPage(env, { viewport: WIDE });
    assert.equal(await runScenario(page, "long-run-summary"), "answer");
    // The same run as if a real model had written its first summary (with markup in it).
    const evil = "Jobs was 21 <img src=x onerror=\"window.__taoPwned = true\"><script>window.__taoPwned = true</script>";
    const traj = await page.evaluate((evil) => {
      const t = structuredClone(document.querySelector("tao-trajectory").trajectory);
      t.memos[0].text = evil;
      t.memos[0].call = { ...t.steps[0].model_calls[0], raw: `  ${evil}  ` };
      return t;
    }, evil);
    await page.setInputFiles("input[data-import-file]", { name: "memo.json", mimeType: "application/json", buffer: Buffer.from(JSON.stringify(traj)) });
    await page.waitForFunction(() => document.querySelector("tao-trajectory > .card-memo .memo-facts")?.textContent.endsWith("written by the model"));
    const first = page.locator("tao-trajectory > .card-memo").first();
    assert.equal(await first.locator(".memo-facts").textContent(), "Steps 1–2 condensed · written by the model");
    assert.equal(await first.locator(".card-text").textContent(), evil);
    assert.equal(await first.locator("details.raw summary").textContent(), "Raw model output");
    assert.equal(await first.locator("details.raw").getAttribute("open"), null, "folded");
    assert.equal((await first.locator("details.raw .raw-text").textContent()).trim(), evil);
    assert.equal(await first.locator("img, script").count(), 0);
    assert.equal(await page.evaluate(() => window.__taoPwned), undefined);
    // The other summary is still tao's.
    assert.match(await page.locator("tao-trajectory > .card-memo .memo-facts").nth(1).textContent(), /written by tao/);
    assertClean(page);
    await page.context().close();
  });

  it("Chinese: 摘要 cards, and the condensed steps named in the prompt", async () => {
    const page = await openPage(env, { viewport: WIDE, query: "?lang=zh" });
    assert.equal(await runScenario(page, "long-run-summary"), "answer");
    const summaries = (await memoCards(page)).filter((m) => m.kind === "summary");
    assert.ok(summaries.length >= 2, `two 摘要 cards or more: ${summaries.length}`);
    assert.equal(summaries[0].label, "摘要");
    // Chinese counts a token a character, so its first summary comes a step earlier: step 1 alone.
    assert.equal(summaries[0].covers, "1");
    assert.match(summaries[0].facts, /^第 1 步已压缩 · 由 tao 根据步骤写成/);
    assert.match(summaries[1].facts, /^第 1–2 步已压缩 · /);
    assert.match((await texts(page, "answer"))[0], /乔布斯21岁.*沃兹尼亚克25岁.*韦恩41岁/);
    await page.click('tao-trajectory [data-step="8"] .step-head button[data-prompt]');
    const note = page.locator("tao-prompt dialog[open] [data-condensed]");
    await note.waitFor();
    assert.match(await note.textContent(), /^第 1–\d 步已压缩为这条消息中的摘要$/);
    await page.keyboard.press("Escape");
    assertClean(page);
    await page.context().close();
  });
});

describe("reflection", () => {
  it("a Reflection after two failed actions in a row, another every fourth step, then the answer", async () => {
    const page = await openPage(env, { viewport: WIDE });
    await page.selectOption('select[name="scenario"]', "reflection");
    assert.equal(await page.inputValue('input[name="reflectEvery"]'), "4");
    await recordLiveMemos(page);
    assert.equal(await runScenario(page, "reflection", { delay: "10" }), "answer");
    const live = await page.evaluate(() => window.__memos);
    assert.deepEqual(live, [{ kind: "reflection", before: "2" }, { kind: "reflection", before: "4" }]);
    const memos = await memoCards(page);
    assert.deepEqual(memos.map((m) => [m.kind, m.label, m.after]), [["reflection", "Reflection", "2"], ["reflection", "Reflection", "4"]]);
    assert.equal(memos[0].facts, "written by tao from the steps (the offline model cannot write one)");
    assert.match(memos[0].text, /nothing useful yet\. Next: try another tool or another input/);
    // The two failed calls are bad calls; the step after the reflection changes course.
    assert.equal(await page.$$eval('tao-trajectory [data-why="bad_input"]', (n) => n.length), 2);
    assert.equal(Number(await stat(page, "n_badcalls")), 2);
    assert.equal(await page.textContent('tao-trajectory [data-step="3"] [data-kind="action"] [data-tool]'), "search");
    assert.match(await page.textContent("tao-trajectory .answer-text"), /^42 years: /);
    assertClean(page);
    await page.context().close();
  });
});

describe("loops", () => {
  it("max-steps: each repeat of the same action is a repeated repair, not a second search", async () => {
    const page = await openPage(env, { viewport: WIDE });
    await page.selectOption('select[name="scenario"]', "max-steps");
    const maxSteps = Number(await page.inputValue('input[name="maxSteps"]'));
    assert.equal(await runScenario(page, "max-steps"), "max_steps");
    const whys = await page.$$eval("tao-trajectory [data-why]", (n) => n.map((x) => [x.closest("[data-step]").dataset.step, x.dataset.why, x.textContent]));
    assert.deepEqual(
      whys,
      Array.from({ length: maxSteps - 1 }, (_, k) => [String(k + 2), "repeated", "the same action as the step before"]),
    );
    assert.equal(await page.$$eval('tao-trajectory [data-kind="observation"]', (n) => n.length), 1, "the search ran once");
    assert.equal(Number(await stat(page, "n_badcalls")), maxSteps - 1);
    assertClean(page);
    await page.context().close();
  });
});

describe("budgets", () => {
  it("a token budget typed in the form stops the run, with the reason in words", async () => {
    const page = await openPage(env, { viewport: WIDE });
    await page.selectOption('select[name="scenario"]', "apple-ceo");
    await page.click("[data-budgets] > summary");
    await page.fill('input[name="tokenBudget"]', "600");
    assert.equal(await runScenario(page, "apple-ceo"), "token_budget");
    assert.equal(await stat(page, "stop"), "token budget spent");
    const stop = page.locator('tao-trajectory [data-kind="stop"]');
    assert.equal(await stop.getAttribute("data-reason"), "token_budget");
    assert.match(await stop.textContent(), /Stopped · token budget spent/);
    assert.match(await stop.textContent(), /the token budget is spent: about \d+ tokens used of 600/);
    assert.equal((await texts(page, "answer")).length, 0);
    assertClean(page);
    await page.context().close();
  });

  it("a time budget typed in seconds is sent in milliseconds", async () => {
    const page = await openPage(env, { viewport: WIDE });
    await page.selectOption('select[name="scenario"]', "water");
    await page.click("[data-budgets] > summary");
    await page.fill('input[name="timeBudget"]', "0.3");
    // Slow enough that the second step starts after 0.3 s.
    assert.equal(await runScenario(page, "water", { delay: "30" }), "time_budget");
    assert.equal(await stat(page, "stop"), "time budget spent");
    assert.match(await page.textContent('tao-trajectory [data-kind="stop"]'), /of 0\.3 s/);
    assertClean(page);
    await page.context().close();
  });

  it("Share carries the budgets and memory, and the link fills them in again", async () => {
    const page = await openPage(env, { viewport: WIDE });
    await page.selectOption('select[name="scenario"]', "long-run-summary");
    await page.fill('input[name="tokenBudget"]', "5000");
    await page.fill('input[name="timeBudget"]', "90");
    await page.fill('input[name="reflectEvery"]', "3");
    await page.click('button[data-action="share"]');
    await page.waitForFunction(() => location.search.includes("autorun=1"));
    const query = new URL(page.url()).searchParams;
    assert.deepEqual(
      ["tokenBudget", "timeBudget", "memoryTokens", "reflectEvery"].map((k) => query.get(k)),
      ["5000", "90", "700", "3"],
    );
    const opened = await openPage(env, { viewport: WIDE, query: `?${query.toString().replace("autorun=1", "autorun=0")}` });
    const values = await opened.evaluate(() => document.querySelector("tao-controls").settings());
    assert.deepEqual([values.tokenBudget, values.timeBudgetMs, values.memoryTokens, values.reflectEvery], [5000, 90000, 700, 3]);
    assert.ok(await opened.isVisible('input[name="tokenBudget"]'), "the fold is open: it holds values");
    await opened.context().close();
    await page.context().close();
  });

  for (const lang of ["en", "zh"]) {
    it(`${lang}: the new fields are labelled, described, off when empty, and pass axe`, async () => {
      const page = await openPage(env, { viewport: PHONE, query: `?lang=${lang}` });
      const expected = {
        en: ["Token budget", "Time budget (s)", "Memory (tokens)", "Reflect every (steps)"],
        zh: ["令牌预算", "时间预算（秒）", "记忆（令牌）", "每隔几步反思"],
      }[lang];
      // Folded away when off: one line on a phone.
      assert.equal(await page.isVisible('input[name="tokenBudget"]'), false);
      await page.click("[data-budgets] > summary");
      for (const [i, name] of ["tokenBudget", "timeBudget", "memoryTokens", "reflectEvery"].entries()) {
        const input = page.getByLabel(expected[i], { exact: true });
        assert.equal(await input.getAttribute("name"), name);
        assert.ok((await input.getAttribute("title")).length > 20, `${name} has a help text`);
        assert.equal(await input.getAttribute("placeholder"), lang === "en" ? "off" : "关闭");
      }
      const settings = await page.evaluate(() => document.querySelector("tao-controls").settings());
      assert.deepEqual([settings.tokenBudget, settings.timeBudgetMs, settings.memoryTokens, settings.reflectEvery], [0, 0, 0, 0]);
      // Two by two, inside the phone's width.
      const boxes = await page.$$eval(".budget-fields input", (n) => n.map((x) => x.getBoundingClientRect().toJSON()));
      assert.equal(new Set(boxes.map((b) => Math.round(b.top))).size, 2, "two rows");
      assert.ok(boxes.every((b) => b.right <= 390 && b.width >= 120), JSON.stringify(boxes));
      await assertAxe(page, "[data-budgets]", `${lang}, the budgets and memory`);
      assertClean(page);
      await page.context().close();
    });
  }
});

describe("screenshots", () => {
  for (const [size, viewport] of [["wide", WIDE], ["phone", PHONE]]) {
    for (const colorScheme of ["light", "dark"]) {
      for (const lang of ["en", "zh"]) {
        it(`${size} ${colorScheme} ${lang}: a summary card, and the settings' budgets`, async () => {
          const page = await openPage(env, { viewport, colorScheme, query: `?lang=${lang}` });
          assert.equal(await runScenario(page, "long-run-summary"), "answer");
          const name = `long-runs-${size}-${colorScheme}-${lang}`;
          // The window as it shows the first summary, between the steps around it.
          await page.locator('tao-trajectory [data-kind="summary"]').first().evaluate((n) => n.scrollIntoView({ block: "center" }));
          await assertNoOverflow(page);
          await page.screenshot({ path: path.join(OUT, `${name}.png`) });
          await assertAxe(page, "tao-trajectory", `${name}, the summary cards`);
          // The budgets and memory fields, as the scenario filled them.
          await page.locator("[data-budgets]").evaluate((n) => n.scrollIntoView({ block: "center" }));
          await page.screenshot({ path: path.join(OUT, `${name}-form.png`) });
          // The last step's prompt, with the condensed note.
          await page.click('tao-trajectory [data-step="8"] .step-head button[data-prompt]');
          await page.locator("tao-prompt dialog[open] [data-condensed]").evaluate((n) => n.closest(".prompt-msg").scrollIntoView({ block: "center" }));
          await page.screenshot({ path: path.join(OUT, `${name}-prompt.png`) });
          await page.keyboard.press("Escape");
          // The reflection scenario's cards.
          assert.equal(await runScenario(page, "reflection"), "answer");
          await page.locator('tao-trajectory [data-kind="reflection"]').first().evaluate((n) => n.scrollIntoView({ block: "center" }));
          await page.screenshot({ path: path.join(OUT, `${name}-reflection.png`) });
          await assertAxe(page, "tao-trajectory", `${name}, after the reflection run`);
          assertClean(page);
          await page.context().close();
        });
      }
    }
  }
});

/** axe-core (default rules, contrast among them) finds no violation inside `selector`. */
async function assertAxe(page, selector, what) {
  if (!(await page.evaluate(() => "axe" in window))) await page.addScriptTag({ path: require.resolve("axe-core/axe.min.js") });
  const violations = await page.evaluate(async (selector) => {
    const result = await window.axe.run(selector);
    return result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
  }, selector);
  assert.deepEqual(violations, [], `axe ${what}`);
}

/** The page is never wider than its viewport. */
async function assertNoOverflow(page) {
  const { scroll, client } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
  assert.ok(scroll <= client, `page is ${scroll}px wide in a ${client}px viewport`);
}

// What a student with no key and ten minutes meets in the studio (issue 36): each rough edge they
// found, as a case that failed before its fix, at 1366×850 and 390×844 (a phone: touch, no
// keyboard hint), light and dark, English and Chinese. Screenshots: out/student-*.png.
//
//   node --test tests/e2e/student.test.mjs      (serves target/site: build it first with `make site`)
//
// Index (the numbers):
//   1  you          playing the model: the format's instructions and an example reply in view on
//                   the first call; a bad reply explained at once, in words, before the prompt again
//   2  fork+compare a fork, then Compare modes, then Run: the comparison takes the stage, runs,
//                   and closing it gives the branches back
//   3  running      the Outcome stat reads "running…" in words while a run goes
//   4  status       the status line stops saying "Paused…" once the run answered or was stopped
//   5  card buttons a paused run's card has its own Step, Resume and Stop, in view with it
//   6  pause card   from step 2 the card says it shows what this call adds, the whole one click away
//   7  refused Run  a typed question with the offline model: Run says why in the stage, read out;
//                   "You" switches and runs; the scenario's own question is one press away
//   9  noise        the stat is not a second "Stop"; no rating while a run goes; "1 run"; no tool
//                   time before the tool ran; a footer true of the model chosen
//   10 Chinese      the status line follows the language; full-width punctuation in Chinese words;
//                   Present fits the stats and the compare chips; hiding or showing the settings
//                   (at the top of the page) brings the pause card back into view
// (8, the benchmark panel, is in benchmark.test.mjs; the words no state may leak, in a11y.test.mjs.)

import { describe, it, before, after } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { setUp, OUT, waitStopped, assertClean } from "./helpers.mjs";

const WIDE = { width: 1366, height: 850 };
const PHONE = { width: 390, height: 844 };

/** Each case runs in these: both sizes, both schemes and both languages, each size in both. */
const COMBOS = [
  { name: "1366-light-en", viewport: WIDE, scheme: "light", lang: "en" },
  { name: "1366-dark-zh", viewport: WIDE, scheme: "dark", lang: "zh" },
  { name: "390-light-zh", viewport: PHONE, scheme: "light", lang: "zh", touch: true },
  { name: "390-dark-en", viewport: PHONE, scheme: "dark", lang: "en", touch: true },
];

/** The page's words the cases click and read, in both languages. */
const W = {
  en: {
    run: "Run", step: "Step", resume: "Resume", stop: "Stop", send: "Send", reply: "Your reply", compare: "Compare modes",
    closeCompare: "Close comparison", edit: "Edit", fork: "Fork from here", you: "You: answer as the model",
    question: "Ask the scenario's question", running: "running…", paused: /^Paused\./, task: "What is 12 times 7, plus 3?",
    ulm: "born in Ulm", munich: (text) => text.replace(/born in Ulm.*$/, "born in Munich."), noAction: "no Action and no answer",
    retried: /^Your last reply could not be read: no Action and no answer$/, mismatch: /only plays its scenario's own question/,
    added: /adds to the prompt since the last call/, whole: /^The whole prompt that will be sent \((\d+) messages\)$/,
    allNow: /prompt about to be sent, whole/, tool: "tool", footerHuman: /You play the model/, footerRemote: /Calls the model you chose/,
    ready: "Ready.", one: "1 run this visit", two: "2 runs this visit", example: "A well-formed reply",
  },
  zh: {
    run: "运行", step: "单步", resume: "继续", stop: "停止", send: "发送", reply: "你的回复", compare: "对比模式",
    closeCompare: "关闭对比", edit: "编辑", fork: "从这里分叉", you: "你：亲自扮演模型",
    question: "改问场景自己的问题", running: "运行中……", paused: /^已暂停。/, task: "12 乘以 7 再加 3 是多少？",
    ulm: "出生于", munich: (text) => text.replace(/出生于.*$/, "出生于慕尼黑。"), noAction: "既没有行动也没有答案",
    retried: /^你上一条回复无法读取：既没有行动也没有答案$/, mismatch: /离线模型只会演示它自己场景中的问题/,
    added: /这次调用在上次调用之后给提示词新增的内容/, whole: /^将要发送的完整提示词（(\d+) 条消息）$/,
    allNow: /即将发送的完整提示词/, tool: "工具", footerHuman: /由你扮演模型/, footerRemote: /从这个浏览器直接调用你选择的模型/,
    ready: "就绪。", one: "本次访问共 1 次运行", two: "本次访问共 2 次运行", example: "格式正确的回复",
  },
};

let env;
before(async () => {
  env = await setUp();
});
after(async () => {
  await env?.close();
});

/**
 * Opens the page as `combo` says (a phone has touch and no fine pointer, as a phone's browser
 * reports), with `query`, and waits until the agent has loaded. Problems are recorded as
 * helpers.mjs's openPage records them.
 */
async function open(combo, query = "") {
  const context = await env.browser.newContext({
    viewport: combo.viewport,
    colorScheme: combo.scheme,
    deviceScaleFactor: 1,
    hasTouch: Boolean(combo.touch),
    isMobile: Boolean(combo.touch),
    acceptDownloads: true,
  });
  const page = await context.newPage();
  page.problems = { errors: [], console: [], dialogs: [] };
  page.on("pageerror", (e) => page.problems.errors.push(String(e)));
  page.on("console", (m) => m.type() === "error" && page.problems.console.push(m.text()));
  page.on("dialog", async (d) => {
    page.problems.dialogs.push(`${d.type()}: ${d.message()}`);
    await d.dismiss().catch(() => {});
  });
  const q = new URLSearchParams(query);
  q.set("lang", combo.lang);
  if (!q.has("wiki")) q.set("wiki", "offline");
  await page.goto(`${env.url}?${q}`);
  await page.waitForSelector('body[data-ready="true"]', { timeout: 20000 });
  page.words = W[combo.lang];
  return page;
}

/** A screenshot of the window (`full`: the whole page) in out/, after checking there is no sideways scroll. */
async function shoot(page, combo, what, { full = false } = {}) {
  const { scroll, client } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
  assert.ok(scroll <= client, `${what}: the page is ${scroll}px wide in a ${client}px window`);
  await page.screenshot({ path: path.join(OUT, `student-${what}-${combo.name}.png`), fullPage: full });
}

/** A button by its exact name, the one of them that can be seen (the form's, or a card's). */
const button = (page, name) => page.locator("button:visible", { hasText: new RegExp(`^\\s*${name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\s*$`) });

/** Waits until the run is paused (the stats say so) and returns the pause card's kind. */
async function pausedAt(page) {
  await page.waitForFunction(() => document.querySelector('tao-stats [data-stat="stop"]')?.dataset.reason === "paused");
  return page.getAttribute('tao-trajectory [data-kind="pause"]', "data-pause");
}

/** The settings are folded away on wide screens by a fork or a comparison: shows them. */
async function unfold(page) {
  const toggle = page.locator('[data-action="settings"]');
  if ((await toggle.isVisible()) && (await toggle.getAttribute("aria-expanded")) === "false") await toggle.click();
}

// ----- 1: playing the model ------------------------------------------------------------------

describe("1 you", () => {
  for (const combo of COMBOS) {
    it(`${combo.name}: the format and an example reply in view on the first call; a bad reply explained at once`, async () => {
      const page = await open(combo, "?scenario=water&provider=human");
      const w = page.words;
      await page.fill('textarea[name="task"]', w.task);
      await button(page, w.run).click();
      const reply = page.getByRole("textbox", { name: w.reply });
      await reply.waitFor();
      const human = page.locator('tao-trajectory [data-kind="human"]');
      // The format's instructions: the system message, open, not folded under the whole prompt.
      const system = human.locator(':scope > .said[data-role="system"]');
      assert.equal(await system.isVisible(), true, "the instructions are in view");
      assert.match(await system.textContent(), /Action Input/);
      assert.equal(await human.locator("details").count(), 0, "nothing folded on the first call");
      // An example of a well-formed reply in the format in force (mrkl), in the box and under it.
      assert.match(await reply.getAttribute("placeholder"), /^Thought: .+\nAction: search\nAction Input: .+$/);
      const example = human.locator("[data-example]");
      assert.equal(await example.isVisible(), true);
      assert.match(await example.textContent(), new RegExp(`^${w.example}.*Action Input: .+Final Answer: `, "s"));
      // A keyboard hint where there is a keyboard; none on a phone's screen.
      const hint = await human.locator(":scope > .card-text").textContent();
      assert.equal(/Ctrl\+Enter|⌘\+Enter/.test(hint), !combo.touch, hint);
      await shoot(page, combo, "you-first");

      // A reply with no labels: asked again at once, with why in words and the format first.
      await reply.fill("I think I should calculate.");
      await button(page, w.send).click();
      const why = human.locator(".human-retry");
      await why.waitFor();
      assert.match((await why.textContent()).trim(), w.retried);
      assert.match(await human.locator(".human-format").textContent(), /Action Input/);
      const order = await human.evaluate((card) => [...card.children].map((n) => n.className.split(" ")[0]));
      assert.ok(order.indexOf("human-retry") < order.indexOf("said"), `the explanation comes before the prompt: ${order}`);
      // The record says it in words too, never with the reason's internal name.
      assert.match(await page.locator('tao-trajectory [data-kind="repair"] .why-text').textContent(), new RegExp(w.noAction));
      const text = await page.evaluate(() => document.body.innerText);
      assert.ok(!/no_action/.test(text), "no internal name on the page");
      await why.scrollIntoViewIfNeeded();
      await shoot(page, combo, "you-retried");

      await reply.fill("Thought: I calculate.\nAction: calculator\nAction Input: 12 * 7 + 3");
      await button(page, w.send).click();
      await page.waitForFunction(() => [...document.querySelectorAll('tao-trajectory [data-kind="observation"]')].some((n) => n.textContent.includes("87")));
      await reply.waitFor();
      await reply.fill("Thought: The calculator says 87.\nFinal Answer: 87");
      await button(page, w.send).click();
      assert.equal(await waitStopped(page), "answer");
      assertClean(page);
      await page.context().close();
    });
  }
});

// ----- 2: fork, then compare -----------------------------------------------------------------

/** Waits until every column has an answer line or an error, and Run is enabled again. */
async function waitCompared(page) {
  await page.waitForFunction(() => {
    const cols = [...document.querySelectorAll("tao-compare .compare-column")];
    return cols.length && cols.every((c) => c.querySelector("[data-answer]")?.textContent || c.querySelector(".error")) && !document.querySelector('[data-action="run"]').disabled;
  }, null, { timeout: 30000 });
}

describe("2 fork+compare", () => {
  for (const combo of COMBOS) {
    it(`${combo.name}: a fork, then Compare modes, then Run: the comparison takes the stage and runs`, async () => {
      const page = await open(combo, "?scenario=einstein&delay=0");
      const w = page.words;
      await page.selectOption('select[name="delayMs"]', "0");
      await button(page, w.run).click();
      assert.equal(await waitStopped(page), "answer");
      const frame = page.locator('tao-trajectory .editable[data-edit="observation"]', { hasText: w.ulm });
      await frame.getByRole("button", { name: w.edit }).click();
      const box = frame.getByRole("textbox");
      await box.fill(w.munich(await box.inputValue()));
      await frame.getByRole("button", { name: w.fork }).click();
      await page.waitForSelector('tao-branches [data-keep="fork"]:not(:disabled)', { timeout: 30000 });

      await page.getByRole("button", { name: w.compare }).click();
      const compare = page.locator("tao-compare");
      await compare.waitFor();
      assert.equal(await page.locator("tao-branches tao-compare").count(), 0, "not inside a branch");
      assert.equal(await page.locator("tao-branches").isHidden(), true, "the branches give way");
      const widths = await page.evaluate(() => ({ compare: document.querySelector("tao-compare").getBoundingClientRect().width, stage: document.querySelector("main.stage").getBoundingClientRect().width }));
      assert.ok(widths.compare >= widths.stage - 2, `the comparison has the stage's width: ${JSON.stringify(widths)}`);

      await unfold(page);
      await button(page, w.run).click();
      await waitCompared(page);
      assert.equal(await compare.isVisible(), true, "the comparison is still on the stage");
      const columns = compare.locator(".compare-column");
      assert.equal(await columns.count(), 4);
      for (let i = 0; i < 4; i++) assert.ok((await columns.nth(i).locator("[data-answer]").textContent()).length > 0);
      await compare.scrollIntoViewIfNeeded();
      await shoot(page, combo, "fork-compare");

      // Closing it gives back the branches as they were.
      await page.getByRole("button", { name: w.closeCompare }).click();
      assert.equal(await page.locator("tao-compare").count(), 0);
      assert.equal(await page.locator("tao-branches").isVisible(), true);
      assert.equal(await page.locator("tao-branches section.branch").count(), 2);
      assertClean(page);
      await page.context().close();
    });
  }
});

// ----- 3, 4, 5, 6: stepping ----------------------------------------------------------------------

describe("3 running, 4 status, 5 card buttons, 6 pause card", () => {
  for (const combo of COMBOS) {
    it(`${combo.name}: the outcome in words while running; the pause card's own buttons and words; the status line after`, async () => {
      const page = await open(combo, "?scenario=apple-ceo");
      const w = page.words;
      const status = page.locator("[data-status]");
      // 3: running, in words.
      await page.selectOption('select[name="delayMs"]', "30");
      await button(page, w.run).click();
      await page.waitForFunction(() => document.querySelector('tao-stats [data-stat="stop"]')?.dataset.reason === "running");
      assert.equal(await page.textContent('tao-stats [data-stat="stop"]'), w.running);
      await shoot(page, combo, "running");
      assert.equal(await waitStopped(page), "answer");

      // 5 and 6: Step, with the card's own buttons.
      await page.selectOption('select[name="delayMs"]', "0");
      await button(page, w.step).click();
      assert.equal(await pausedAt(page), "model");
      const card = page.locator('tao-trajectory [data-kind="pause"]');
      assert.match(await card.locator("[data-pause-part]").textContent(), w.allNow, "step 1: the whole prompt, said so");
      const stepHere = card.getByRole("button", { name: w.step, exact: true });
      await stepHere.scrollIntoViewIfNeeded();
      // The card and its Step are in the window together.
      const inWindow = await page.evaluate(() => {
        const b = document.querySelector('[data-kind="pause"] [data-pause-action="step"]').getBoundingClientRect();
        return b.top >= 0 && b.bottom <= innerHeight;
      });
      assert.ok(inWindow, "the card's Step is in view");
      await stepHere.click();
      assert.equal(await pausedAt(page), "tool");
      assert.equal(await page.evaluate(() => document.activeElement?.dataset.pauseAction), "step", "the focus stays on the card's Step");
      // 9: no tool time before the tool has run.
      assert.ok(!(await page.textContent('tao-trajectory [data-step="1"] .step-head')).includes(w.tool), "no tool time yet");
      await card.getByRole("button", { name: w.step, exact: true }).click();
      assert.equal(await pausedAt(page), "model");
      // 6: from step 2, what the card shows is said: what this call adds, the whole one click away.
      assert.match(await card.locator("[data-pause-part]").textContent(), w.added);
      const summary = (await card.locator("details > summary").textContent()).trim();
      const [, n] = summary.match(w.whole) ?? [];
      assert.ok(n, summary);
      assert.equal(await card.locator("details > .said").count(), Number(n));
      assert.equal(await card.locator(":scope > .said").count(), 2, "the last turn and its observation");
      await card.scrollIntoViewIfNeeded();
      await shoot(page, combo, "paused");
      assert.match(await status.textContent(), w.paused);

      // 4: Resume to the answer: the status line no longer says "Paused".
      await card.getByRole("button", { name: w.resume, exact: true }).click();
      assert.equal(await waitStopped(page), "answer");
      assert.doesNotMatch(await status.textContent(), w.paused);
      // …nor after Stop.
      await button(page, w.step).first().click();
      await pausedAt(page);
      await page.locator('tao-trajectory [data-kind="pause"]').getByRole("button", { name: w.stop, exact: true }).click();
      assert.equal(await waitStopped(page), "aborted");
      assert.doesNotMatch(await status.textContent(), w.paused);
      assertClean(page);
      await page.context().close();
    });
  }
});

// ----- 7: a typed question with the offline model --------------------------------------------

describe("7 refused Run", () => {
  for (const combo of COMBOS) {
    it(`${combo.name}: Run says why where the reader looks; You switches and runs`, async () => {
      const page = await open(combo, "?scenario=apple-ceo");
      const w = page.words;
      await page.fill('textarea[name="task"]', w.task);
      await button(page, w.run).click();
      const notice = page.locator("main [data-run-notice]");
      await notice.waitFor();
      assert.match(await notice.textContent(), w.mismatch);
      // Read out, and the focus on its first choice (which brings it into view).
      await page.waitForFunction((re) => new RegExp(re).test(document.querySelector("[data-announce]").textContent), w.mismatch.source);
      assert.equal(await page.evaluate(() => Boolean(document.activeElement.closest("[data-run-notice]"))), true);
      assert.equal(await page.locator("[data-offline-notice]").isHidden(), true, "one notice at a time");
      assert.equal(await page.$$eval("tao-trajectory [data-step]", (n) => n.length), 0, "nothing ran");
      await shoot(page, combo, "refused");
      // The real choices: You (runs at once), a small model in this tab (asks before its
      // download: in-tab.test.mjs), a model, the scenario's own question.
      assert.equal(await notice.getByRole("button").count(), 4);
      await notice.getByRole("button", { name: w.you }).click();
      await page.waitForFunction(() => document.querySelector('select[name="provider"]').value === "human");
      await page.getByRole("textbox", { name: w.reply }).waitFor();
      assert.equal(await notice.isHidden(), true);
      await button(page, w.stop).first().click();
      assert.equal(await waitStopped(page), "aborted");
      assertClean(page);
      await page.context().close();
    });
  }

  it("the scenario's own question, one press away, runs offline", async () => {
    const combo = COMBOS[0];
    const page = await open(combo, "?scenario=apple-ceo&delay=0");
    await page.selectOption('select[name="delayMs"]', "0");
    await page.fill('textarea[name="task"]', "Who is the CEO of Microsoft?");
    await button(page, "Run").click();
    await page.locator("main [data-run-notice]").getByRole("button", { name: W.en.question }).click();
    assert.equal(await waitStopped(page), "answer");
    assert.match(await page.inputValue('textarea[name="task"]'), /hometown of the current CEO of Apple/);
    assertClean(page);
    await page.context().close();
  });
});

// ----- 9: first-screen noise -----------------------------------------------------------------

describe("9 noise", () => {
  for (const combo of COMBOS) {
    it(`${combo.name}: no second Stop, no rating while running, "1 run", a true footer`, async () => {
      const page = await open(combo, "?scenario=apple-ceo");
      const w = page.words;
      // The stat beside the Stop button is not called Stop.
      assert.notEqual((await page.textContent("tao-stats .stat-stop dt")).trim(), w.stop);
      await page.selectOption('select[name="delayMs"]', "0");
      await button(page, w.run).click();
      await waitStopped(page);
      // The rating bar's code loads with the first run that ends (main.js): wait for it.
      const group = page.locator("[data-rate-group]");
      await group.waitFor({ state: "visible", timeout: 5000 }).catch(() => {});
      assert.equal(await group.isVisible(), true, "rate a run once it has ended");
      assert.equal((await page.textContent("[data-runs-count]")).trim(), w.one);
      await page.selectOption('select[name="delayMs"]', "30");
      await button(page, w.run).click();
      await page.waitForFunction(() => document.querySelector('tao-stats [data-stat="stop"]')?.dataset.reason === "running");
      assert.equal(await group.isVisible(), false, "no rating while a run goes");
      await waitStopped(page);
      assert.equal(await group.isVisible(), true);
      assert.equal((await page.textContent("[data-runs-count]")).trim(), w.two);
      await page.locator("tao-stats").evaluate((n) => n.scrollIntoView({ block: "start" }));
      await shoot(page, combo, "rated");
      // The footer says what is true of the model chosen.
      const footer = page.locator("[data-footer]");
      await page.selectOption('select[name="provider"]', "human");
      assert.match(await footer.textContent(), w.footerHuman);
      await page.selectOption('select[name="provider"]', "openai");
      assert.match(await footer.textContent(), w.footerRemote);
      assertClean(page);
      await page.context().close();
    });
  }
});

// ----- 10: Chinese, and Present ----------------------------------------------------------------

/** Half-width punctuation touching a Chinese character (Chinese text takes full-width marks). */
const HALF_WIDTH = /[\u3400-\u9fff\u3000-\u303f\uff00-\uffef][,:;?!()]|[,:;?!()][\u3400-\u9fff]/;

describe("10 Chinese", () => {
  it("the status line follows a change of language, both ways", async () => {
    const page = await open(COMBOS[0]);
    assert.equal(await page.textContent("[data-status]"), W.en.ready);
    await page.selectOption('select[name="lang"]', "zh");
    await page.waitForFunction(() => document.documentElement.lang === "zh-CN");
    assert.equal(await page.textContent("[data-status]"), W.zh.ready);
    await page.selectOption('select[name="lang"]', "en");
    await page.waitForFunction(() => document.documentElement.lang === "en");
    assert.equal(await page.textContent("[data-status]"), W.en.ready);
    await page.context().close();
  });

  it("the page's Chinese words use full-width punctuation", async () => {
    const { zh } = await import("../../www/i18n-zh.js");
    const { WORDS } = await import("../../www/benchmark-words.js");
    const bad = Object.entries({ ...zh, ...WORDS.zh }).filter(([, text]) => HALF_WIDTH.test(text));
    assert.deepEqual(bad, [], "half-width marks in Chinese words");
    // And on the page, as drawn: the page's own words (the scenarios' titles, descriptions and
    // questions, and the model's and tools' text, are the core's data, data/scenarios/).
    const page = await open(COMBOS[1], "?scenario=apple-ceo");
    await page.selectOption('select[name="delayMs"]', "0");
    await button(page, "运行").click();
    await waitStopped(page);
    const lines = await page.evaluate(() => {
      const skip = (n) => n.closest?.("tao-trajectory, pre, option, textarea, [data-scenario-description]");
      const out = [];
      const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
      while (walk.nextNode()) if (!skip(walk.currentNode.parentElement) && walk.currentNode.parentElement.offsetParent) out.push(walk.currentNode.data.trim());
      return out.filter(Boolean);
    });
    assert.deepEqual(lines.filter((l) => HALF_WIDTH.test(l)), []);
    await page.context().close();
  });

  for (const combo of COMBOS) {
    it(`${combo.name}: Present fits the stats on one row and the compare chips whole`, async () => {
      const page = await open(combo, "?scenario=apple-ceo&present=1");
      await page.selectOption('select[name="delayMs"]', "0");
      await button(page, page.words.run).click();
      await waitStopped(page);
      // Five stats (no tokens offline), none alone on a row of its own, none cut.
      await page.locator("tao-stats").scrollIntoViewIfNeeded();
      await shoot(page, combo, "present");
      const rows = await page.$$eval("tao-stats .stat:not([hidden])", (items) => items.map((i) => Math.round(i.getBoundingClientRect().top)));
      const counts = Object.values(rows.reduce((m, top) => ({ ...m, [top]: (m[top] ?? 0) + 1 }), {}));
      assert.ok(!counts.includes(1) || counts.length === 1, `a stat alone on its row: ${rows}`);
      await page.getByRole("button", { name: page.words.compare }).click();
      await page.locator("tao-compare").waitFor();
      await unfold(page);
      await button(page, page.words.run).click();
      await waitCompared(page);
      // A chip's key and value each stay on one line (no "mode / l" broken in two).
      await page.locator("tao-compare").scrollIntoViewIfNeeded();
      await shoot(page, combo, "present-compare");
      const broken = await page.$$eval("tao-compare .chip > span", (spans) =>
        spans.flatMap((span) => {
          const node = span.firstChild;
          return [...(node?.data ?? "").matchAll(/[A-Za-z]+/g)]
            .filter((m) => {
              const range = document.createRange();
              range.setStart(node, m.index);
              range.setEnd(node, m.index + m[0].length);
              return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size > 1;
            })
            .map((m) => `${span.textContent}: ${m[0]}`);
        }),
      );
      assert.deepEqual(broken, []);
      assertClean(page);
      await page.context().close();
    });
  }

  for (const combo of COMBOS.filter((c) => c.viewport === WIDE)) {
    it(`${combo.name}: hiding or showing the settings brings the pause card back into view`, async () => {
      const page = await open(combo, "?scenario=apple-ceo&mode=step&present=1");
      const w = page.words;
      await page.selectOption('select[name="delayMs"]', "0");
      for (let i = 0; i < 3; i++) {
        await button(page, w.step).first().click();
        await pausedAt(page);
      }
      // The header's button is at the top of the page: the reader goes up to press it, away
      // from the card the run waits on (the second model call's, below the first step).
      await page.mouse.move(900, 400);
      await page.mouse.wheel(0, -5000);
      await page.waitForFunction(() => scrollY === 0);
      const card = page.locator('tao-trajectory [data-kind="pause"]');
      const top = () => card.evaluate((n) => n.getBoundingClientRect().top);
      const readable = (y) => y >= 0 && y + 200 <= 850;
      assert.ok(!readable(await top()), `the card is out of reach at first: ${await top()}`);
      const hide = await page.locator('button[data-action="settings"]').boundingBox();
      await page.mouse.click(hide.x + 10, hide.y + 10);
      await page.waitForTimeout(100);
      const folded = await top();
      assert.ok(readable(folded), `folding brings the card into view: ${folded}`);
      await shoot(page, combo, "folded-paused");
      // Up again to show them: the card comes back into view, where the run goes on.
      await page.mouse.wheel(0, -5000);
      await page.waitForFunction(() => scrollY === 0);
      const show = await page.locator('button[data-action="settings"]').boundingBox();
      await page.mouse.click(show.x + 10, show.y + 10);
      await page.waitForTimeout(100);
      assert.ok(readable(await top()), `showing the settings brings the card into view: ${await top()}`);
      assertClean(page);
      await page.context().close();
    });
  }
});

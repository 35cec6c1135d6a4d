// The Prompt inspector (`<tao-prompt>`, opened by each step's Prompt button), as a user sees it.
//
//   node --test tests/e2e/inspector.test.mjs      (serves target/site: build it first with `make site`)
//
// Index:
//   the button      every step has a button named exactly "Prompt" ("提示词" in Chinese); it
//                   waits while a run streams and works once it ends
//   what was added  apple-ceo: step 2's prompt is system, question, step 1's turn, step 1's
//                   observation, the last two marked new; step 3 adds step 2's; step 1 is
//                   all new; each message has a token estimate that adds up to the total
//   the cut         hallucination: step 1's reply shows the kept text, the ✂ marker and the
//                   struck-out invented Observation, readable (contrast ≥ 4.5:1, light and dark)
//   asked again     format-repair: every call of a step is shown, the retried one with why
//   native tools    format=tools: the tool schemas sent, the assistant's tool calls, and which
//                   call each tool message answers
//   the dialog      Escape and Close return focus to the button; no text under 15 px; no
//                   sideways scroll at 390 px; it opens at the new part (or a button goes
//                   there); screenshots (desktop and phone, light and dark)
//   untrusted text  html-injection: `<img onerror>` and `<script>` in the prompt stay text

import { describe, it, before, after } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { setUp, openPage, waitStopped, runScenario, OUT } from "./helpers.mjs";

let env;
before(async () => {
  env = await setUp();
});
after(async () => {
  await env?.close();
});

const DESKTOP = { width: 1366, height: 850 };
const PHONE = { width: 390, height: 844 };

/** No script error, console error or dialog happened on the page. */
function assertClean(page) {
  assert.deepEqual(page.problems.errors, [], "page errors");
  assert.deepEqual(page.problems.console, [], "console errors");
  assert.deepEqual(page.problems.dialogs, [], "dialogs");
}

/** Opens the page with a scenario run at full speed, and waits for it to end. */
async function ran(query, options = {}) {
  const page = await openPage(env, { query: `${query}&autorun=1&delay=0`, ...options });
  assert.equal(await waitStopped(page), "answer");
  return page;
}

/** The Prompt button of step `k`. */
const promptButton = (page, k) => page.locator(`tao-trajectory [data-step="${k}"] .step-head button[data-prompt]`);

/** Presses step k's Prompt button and waits for the dialog to be open on that step. */
async function openPrompt(page, k) {
  await promptButton(page, k).click();
  const dialog = page.locator("tao-prompt dialog[open]");
  await dialog.waitFor({ state: "visible" });
  await page.waitForFunction((k) => document.querySelector("tao-prompt h2")?.textContent.includes(String(k)), k);
  return dialog;
}

/** The request's messages as shown: role, whether marked as added, text, token estimate. */
async function shownMessages(page) {
  return page.$$eval("tao-prompt dialog[open] .prompt-msg", (items) =>
    items.map((m) => ({
      role: m.dataset.role,
      added: m.dataset.added === "true",
      text: m.querySelector(".prompt-text")?.textContent ?? "",
      tokens: m.querySelector(".prompt-tokens")?.textContent ?? "",
      all: m.textContent,
    })),
  );
}

/** The number in "≈ 123 tokens". */
const count = (s) => Number(/≈\s*([\d,]+)/.exec(s)?.[1].replace(/,/g, ""));

/** WCAG contrast ratio of two CSS colours `rgb(r, g, b)`. */
function contrast(a, b) {
  const lum = (c) => {
    const [r, g, bl] = c.match(/[\d.]+/g).slice(0, 3).map(Number).map((v) => {
      v /= 255;
      return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
  };
  const [hi, lo] = [lum(a), lum(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

/** Every piece of text in the open dialog is at least 15 px, and nothing scrolls sideways. */
async function assertReadable(page) {
  const small = await page.$$eval("tao-prompt dialog[open] *", (nodes) =>
    nodes
      .filter((n) => [...n.childNodes].some((c) => c.nodeType === 3 && c.data.trim()))
      .map((n) => ({ text: n.textContent.slice(0, 40), px: parseFloat(getComputedStyle(n).fontSize) }))
      .filter((n) => n.px < 15),
  );
  assert.deepEqual(small, [], "text under 15 px");
  const wide = await page.$$eval("tao-prompt dialog[open], tao-prompt dialog[open] *", (nodes) =>
    nodes
      .filter((n) => n.scrollWidth > n.clientWidth + 1 && getComputedStyle(n).overflowX !== "visible")
      .map((n) => `${n.className}: ${n.scrollWidth} > ${n.clientWidth}`),
  );
  assert.deepEqual(wide, [], "sideways scroll inside the dialog");
  const box = await page.locator("tao-prompt dialog[open]").boundingBox();
  const viewport = page.viewportSize();
  assert.ok(box.x >= 0 && box.x + box.width <= viewport.width, `the dialog fits the viewport: ${JSON.stringify(box)}`);
}

describe("the Prompt button", () => {
  it("every step has one, named exactly Prompt, that opens its prompt view", async () => {
    const page = await ran("?scenario=apple-ceo");
    const steps = await page.$$eval("tao-trajectory [data-step]", (s) => s.length);
    assert.equal(steps, 3);
    assert.equal(await page.getByRole("button", { name: "Prompt", exact: true }).count(), steps);
    for (let k = 1; k <= steps; k++) assert.equal(await promptButton(page, k).isEnabled(), true);
    const dialog = await openPrompt(page, 2);
    assert.equal(await dialog.getByRole("heading", { level: 2 }).textContent(), "Prompt of step 2");
    // The dialog is modal and named by its title.
    assert.equal(await page.getByRole("dialog", { name: "Prompt of step 2" }).count(), 1);
    assertClean(page);
    await page.context().close();
  });

  it("waits while a run streams (saying why), and works when it ends", async () => {
    const page = await openPage(env, { query: "?scenario=apple-ceo" });
    await page.selectOption('select[name="delayMs"]', "30");
    await page.click('button[data-action="run"]');
    await page.waitForSelector('tao-trajectory [data-step="1"] .raw-live', { timeout: 10000 });
    const live = promptButton(page, 1);
    assert.equal(await live.isDisabled(), true);
    assert.equal(await live.getAttribute("title"), "Available when the run ends or pauses");
    assert.equal(await waitStopped(page), "answer");
    assert.equal(await promptButton(page, 1).isEnabled(), true);
    await openPrompt(page, 1);
    assertClean(page);
    await page.context().close();
  });

  it("is 提示词 in Chinese, and the dialog speaks Chinese", async () => {
    const page = await ran("?scenario=apple-ceo&lang=zh");
    const steps = await page.$$eval("tao-trajectory [data-step]", (s) => s.length);
    assert.equal(await page.getByRole("button", { name: "提示词", exact: true }).count(), steps);
    const dialog = await openPrompt(page, 2);
    assert.equal(await dialog.locator("h2").textContent(), "第 2 步的提示词");
    assert.match(await dialog.textContent(), /词元/);
    // The prompt itself is in the trajectory's language: the question is Chinese.
    const messages = await shownMessages(page);
    assert.match(messages[1].text, /[\u4e00-\u9fff]/);
    await page.screenshot({ path: path.join(OUT, "inspector-zh.png") });
    assertClean(page);
    await page.context().close();
  });
});

describe("what each step added", () => {
  it("apple-ceo: step 2 adds step 1's turn and observation; step 3 adds step 2's", async () => {
    const page = await ran("?scenario=apple-ceo");
    const observations = await page.$$eval('tao-trajectory [data-kind="observation"] pre', (n) => n.map((x) => x.textContent));
    const task = await page.inputValue('textarea[name="task"]');

    await openPrompt(page, 2);
    const two = await shownMessages(page);
    assert.deepEqual(two.map((m) => m.role), ["system", "user", "assistant", "user"]);
    assert.deepEqual(two.map((m) => m.added), [false, false, true, true]);
    assert.match(two[0].text, /Action Input/, "the system message holds the format's instructions");
    assert.equal(two[1].text, `Question: ${task}`);
    assert.equal(two[2].text, [
      "Thought: The user is asking for the hometown of Apple's CEO. I need to find out who the CEO is first, so I will use the search tool.",
      "Action: search",
      "Action Input: current CEO of Apple",
    ].join("\n"));
    assert.equal(two[3].text, `Observation: ${observations[0]}`);
    // The new messages say so in words, not by colour alone; the legend explains the mark.
    assert.match(two[2].all, /\+ new/);
    assert.doesNotMatch(two[1].all, /\+ new/);
    const legend = await page.textContent("tao-prompt .prompt-legend");
    assert.match(legend, /New in this prompt: not in the prompt of step 1/);
    assert.match(legend, /Already in the prompt of step 1/);
    // The reply: step 2's own raw text, nothing cut.
    const reply = await page.textContent("tao-prompt .reply-side");
    assert.match(reply, /Action Input: Tim Cook hometown/);
    assert.equal(await page.locator("tao-prompt .cut-marker").count(), 0);
    await page.keyboard.press("Escape");

    await openPrompt(page, 3);
    const three = await shownMessages(page);
    assert.equal(three.length, 6);
    assert.deepEqual(three.slice(0, 4).map((m) => m.text), two.map((m) => m.text), "step 3's prompt starts with step 2's");
    assert.deepEqual(three.map((m) => m.added), [false, false, false, false, true, true]);
    assert.deepEqual(three.slice(4).map((m) => m.role), ["assistant", "user"]);
    assert.match(three[4].text, /^Thought: .*\nAction: search\nAction Input: Tim Cook hometown$/s);
    assert.equal(three[5].text, `Observation: ${observations[1]}`);
    await page.keyboard.press("Escape");

    // Step 1 has no earlier prompt: all of it (instructions and question) is new.
    await openPrompt(page, 1);
    const one = await shownMessages(page);
    assert.deepEqual(one.map((m) => [m.role, m.added]), [["system", true], ["user", true]]);
    assert.match(await page.textContent("tao-prompt .prompt-legend"), /the whole prompt is new/);
    assertClean(page);
    await page.context().close();
  });

  it("shows an estimated token count per message and a total, and says it is an estimate", async () => {
    const page = await ran("?scenario=apple-ceo");
    await openPrompt(page, 2);
    const messages = await shownMessages(page);
    for (const m of messages) assert.match(m.tokens, /^≈ \d+ tokens$/);
    // Latin text: about 4 characters per token.
    for (const m of messages) assert.equal(count(m.tokens), Math.ceil(m.text.length / 4), m.text.slice(0, 40));
    const total = await page.textContent("tao-prompt [data-total-tokens]");
    assert.equal(count(total), messages.reduce((sum, m) => sum + count(m.tokens), 0));
    assert.match(
      await page.textContent("tao-prompt .prompt-estimate"),
      /estimates: about 4 characters per token for Latin text, 1 token per CJK character/,
    );
    await page.context().close();
  });

  it("counts about one token per CJK character", async () => {
    const page = await openPage(env);
    const n = await page.evaluate(async () => {
      const { estimateTokens } = await import("/www/prompt-view.js");
      return [estimateTokens("苹果公司的首席执行官"), estimateTokens("abcdefgh"), estimateTokens("Tim 库克")];
    });
    assert.deepEqual(n, [10, 2, 3]); // 10 Han; 8 Latin / 4; 2 Han + "Tim " / 4
    await page.context().close();
  });
});

describe("the cut", () => {
  for (const colorScheme of ["light", "dark"]) {
    it(`hallucination (${colorScheme}): step 1's reply marks where tao stopped reading`, async () => {
      const page = await ran("?scenario=hallucination", { colorScheme, viewport: DESKTOP });
      await openPrompt(page, 1);
      const call = page.locator("tao-prompt .reply-call").last();
      assert.match(await call.locator(".reply-text").textContent(), /Action Input: Tim Cook\s*$/);
      assert.equal(await call.locator(".cut-marker").textContent(), "✂ tao stopped reading here: the model began to invent an Observation");
      const cut = call.locator(".cut-text");
      assert.match(await cut.textContent(), /Observation/);
      // Struck through, yet readable: at least 4.5:1 against the call's background.
      assert.equal(await cut.locator("s").count(), 1);
      const colours = await cut.evaluate((n) => ({
        fg: getComputedStyle(n).color,
        bg: getComputedStyle(n.closest(".reply-call")).backgroundColor,
        marker: getComputedStyle(n.previousElementSibling).color,
      }));
      const ratio = contrast(colours.fg, colours.bg);
      assert.ok(ratio >= 4.5, `cut text contrast ${ratio.toFixed(2)} (${colours.fg} on ${colours.bg})`);
      assert.ok(contrast(colours.marker, colours.bg) >= 4.5, `marker contrast ${contrast(colours.marker, colours.bg).toFixed(2)}`);
      await page.screenshot({ path: path.join(OUT, `inspector-cut-${colorScheme}.png`) });
      assertClean(page);
      await page.context().close();
    });
  }
});

describe("replies asked again", () => {
  it("format-repair: a reply that was asked again is shown, labelled with why", async () => {
    const page = await ran("?scenario=format-repair");
    const retried = await page.evaluate(() => {
      const trajectory = document.querySelector("tao-trajectory").trajectory;
      const step = trajectory.steps.find((s) => s.model_calls.some((c) => c.retried));
      return step && { index: step.index, calls: step.model_calls.map((c) => ({ raw: c.raw, why: c.retried?.why ?? null })) };
    });
    assert.ok(retried, "the scenario has a reply that was asked again");
    await openPrompt(page, retried.index);
    const shown = await page.$$eval("tao-prompt .reply-call", (boxes) =>
      boxes.map((b) => ({
        raw: b.querySelector(".reply-text").textContent,
        retried: b.dataset.retried,
        why: b.querySelector(".reply-retried")?.textContent ?? null,
      })),
    );
    assert.equal(shown.length, retried.calls.length);
    shown.forEach((call, i) => {
      assert.equal(call.raw, retried.calls[i].raw);
      assert.equal(call.retried, String(retried.calls[i].why !== null));
      if (retried.calls[i].why) assert.equal(call.why, `Asked again: ${retried.calls[i].why}`);
      else assert.equal(call.why, null);
    });
    await page.screenshot({ path: path.join(OUT, "inspector-retried.png") });
    assertClean(page);
    await page.context().close();
  });
});

describe("native tool calling", () => {
  it("format=tools: the tool schemas sent, the calls, and which call a tool message answers", async () => {
    const page = await ran("?scenario=apple-ceo&format=tools");
    await openPrompt(page, 2);
    const messages = await shownMessages(page);
    assert.deepEqual(messages.map((m) => m.role), ["system", "user", "assistant", "tool"]);
    assert.deepEqual(messages.map((m) => m.added), [false, false, true, true]);
    // The assistant turn carries its tool call; the tool message names the call it answers.
    const calls = page.locator('tao-prompt .prompt-msg[data-role="assistant"] .prompt-call');
    assert.equal(await calls.count(), 1);
    assert.match(await calls.textContent(), /search\s*call_1/);
    assert.match(await calls.locator(".prompt-code").textContent(), /"query": "current CEO of Apple"/);
    assert.match(messages[3].all, /answers call_1 \(search\)/);
    // The schemas travel beside the messages, and are shown with their parameters.
    const schemas = page.locator("tao-prompt .prompt-tools");
    assert.match(await schemas.locator("h4").textContent(), /Tool schemas sent/);
    const search = schemas.locator('[data-tool="search"]');
    assert.match(await search.textContent(), /Searches the encyclopedia/);
    assert.deepEqual(JSON.parse(await search.locator("pre").textContent()).required, ["query"]);
    assert.match(await schemas.locator(".prompt-tokens").textContent(), /^≈ \d+ tokens$/);
    // The reply's raw text is the thought; the tool call that came with it is shown beside it.
    assert.match(await page.textContent("tao-prompt .reply-tool-call"), /search \{\s*"query": "Tim Cook hometown"\s*\}/);
    await page.screenshot({ path: path.join(OUT, "inspector-tools.png") });
    assertClean(page);
    await page.context().close();
  });

  it("a text format sends no schemas (the tools are described in the system message)", async () => {
    const page = await ran("?scenario=apple-ceo");
    await openPrompt(page, 1);
    assert.equal(await page.locator("tao-prompt .prompt-tools").count(), 0);
    assert.match((await shownMessages(page))[0].text, /search: Searches the encyclopedia/);
    await page.context().close();
  });
});

describe("the dialog", () => {
  it("Escape closes it and focus returns to the Prompt button; so does Close", async () => {
    const page = await ran("?scenario=apple-ceo");
    await openPrompt(page, 2);
    // Focus moved into the dialog (its Close button).
    assert.equal(await page.evaluate(() => document.activeElement.closest("dialog") !== null), true);
    await page.keyboard.press("Escape");
    await page.locator("tao-prompt dialog").waitFor({ state: "hidden" });
    assert.equal(await page.evaluate(() => document.activeElement.dataset.prompt), "2");
    // Keyboard only: Enter on the focused button opens it again, Close closes it.
    await page.keyboard.press("Enter");
    await page.locator("tao-prompt dialog[open]").waitFor();
    await page.getByRole("button", { name: "Close", exact: true }).click();
    await page.locator("tao-prompt dialog").waitFor({ state: "hidden" });
    assert.equal(await page.evaluate(() => document.activeElement.dataset.prompt), "2");
    assertClean(page);
    await page.context().close();
  });

  for (const [name, viewport] of [["desktop", DESKTOP], ["phone", PHONE]]) {
    for (const colorScheme of ["light", "dark"]) {
      it(`${name} ${viewport.width}×${viewport.height}, ${colorScheme}: readable at presentation size`, async () => {
        const page = await ran("?scenario=apple-ceo", { viewport, colorScheme });
        await openPrompt(page, 3);
        await assertReadable(page);
        const firstNew = page.locator('tao-prompt .prompt-msg[data-added="true"]').first();
        const inView = async () => {
          const scroller = page.locator(name === "desktop" ? "tao-prompt .prompt-side" : "tao-prompt .prompt-columns");
          const [top, column] = await Promise.all([firstNew.boundingBox(), scroller.boundingBox()]);
          return top.y >= column.y && top.y < column.y + column.height;
        };
        await page.screenshot({ path: path.join(OUT, `inspector-${name}-${colorScheme}.png`) });
        if (name === "desktop") {
          // Side by side, the request column opens at what is new in this prompt.
          assert.equal(await inView(), true, "the first new message is in view");
          assert.equal(await page.locator("tao-prompt .prompt-jump").isVisible(), false);
        } else {
          // In one column the title and legend come first; a button goes to the new part.
          assert.equal(await inView(), false, "the dialog opens at its top");
          await page.getByRole("button", { name: "↓ Go to the new part" }).click();
          assert.equal(await inView(), true, "the first new message is in view after the jump");
          assert.equal(await page.evaluate(() => document.activeElement.dataset.added), "true");
          await page.screenshot({ path: path.join(OUT, `inspector-${name}-${colorScheme}-new-part.png`) });
        }
        await page.context().close();
      });
    }
  }

  it("phone: the hallucination's cut fits too", async () => {
    const page = await ran("?scenario=hallucination", { viewport: PHONE, colorScheme: "dark" });
    await openPrompt(page, 1);
    await assertReadable(page);
    await page.locator("tao-prompt .cut-marker").scrollIntoViewIfNeeded();
    await page.screenshot({ path: path.join(OUT, "inspector-phone-cut-dark.png") });
    await page.context().close();
  });
});

describe("untrusted text", () => {
  it("html-injection: markup in the prompt and the reply stays text", async () => {
    const page = await openPage(env);
    assert.equal(await runScenario(page, "html-injection"), "answer");
    for (const k of [1, 2]) {
      await openPrompt(page, k);
      const text = await page.textContent("tao-prompt dialog");
      assert.ok(text.includes("<b>bold?</b>"), "the question's markup is text");
      if (k === 2) assert.ok(text.includes("<img src=x onerror=alert(1)>") && text.includes("<script>"), "the observation's markup is text");
      assert.equal(await page.$$eval("tao-prompt img, tao-prompt script, tao-prompt iframe, tao-prompt b, tao-prompt i", (n) => n.length), 0);
      assert.equal(await page.$$eval("tao-prompt *", (n) => n.filter((x) => [...x.attributes].some((a) => a.name.startsWith("on"))).length), 0);
      await page.keyboard.press("Escape");
    }
    await page.waitForTimeout(300); // give an onerror handler every chance to fire
    assert.equal(await page.evaluate(() => window.__taoPwned ?? null), null);
    assertClean(page);
    await page.context().close();
  });
});

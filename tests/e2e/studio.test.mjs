// The studio in the page: stepping through a run one pause point at a time, pausing a running
// run and resuming it, playing the model yourself ("You"), and the offline model's honesty.
//
//   node --test tests/e2e/studio.test.mjs      (serves target/site: build it first with `make site`)
//
// Index:
//   step      Step starts a run paused before the model call, shows the prompt about to be
//             sent, and each press goes one pause point further; each prompt grows by exactly
//             the previous step's action and observation; ?mode=step makes Step the main button
//   pause     Pause stops a running run at the next pause point; Resume ends with the same
//             answer as an uninterrupted run; Stop ends a paused run
//   you       "You" plays the model through a whole run with a typed task: the reply is read
//             as a model's would be (a repair too), and the real tools run
//   honest    a typed task the offline model does not play is refused before the run, with a
//             button that starts with "You", which then runs

import { describe, it, before, after } from "node:test";
import assert from "node:assert/strict";
import { setUp, openPage, runScenario, waitStopped, texts, assertClean } from "./helpers.mjs";

let env;
before(async () => {
  env = await setUp();
});
after(async () => {
  await env?.close();
});

/** Where the paused run stands: "model" or "tool" (the pause card's kind), once it shows. */
async function pausedAt(page) {
  await page.waitForFunction(() => document.querySelector('tao-stats [data-stat="stop"]')?.dataset.reason === "paused");
  return page.getAttribute('tao-trajectory [data-kind="pause"]', "data-pause");
}

/** The prompt shown in the pause card, as [role, text] pairs (only the new part is shown). */
async function pausePrompt(page) {
  return page.$$eval('tao-trajectory [data-kind="pause"] > .said', (nodes) =>
    nodes.map((n) => [n.dataset.role, n.querySelector(".said-text").textContent]),
  );
}

describe("step", () => {
  it("steps through apple-ceo one pause point at a time, each prompt adding the last action and observation", async () => {
    const page = await openPage(env, { query: "?scenario=apple-ceo" });
    await page.selectOption('select[name="delayMs"]', "0");
    await page.click('button:text-is("Step")');
    // Paused before the first model call: the prompt is shown, nothing has been sent.
    assert.equal(await pausedAt(page), "model");
    const first = await pausePrompt(page);
    assert.deepEqual(first.map(([role]) => role), ["system", "user"]);
    assert.match(first[1][1], /^Question: What is the hometown/);
    assert.equal(await page.$$eval("tao-trajectory [data-step]", (n) => n.length), 0);
    const seen = [];
    for (let press = 0; press < 5; press++) {
      await page.click('button:text-is("Step")');
      const reason = await waitStopped(page);
      if (reason !== "paused") {
        seen.push(reason);
        break;
      }
      const kind = await page.getAttribute('tao-trajectory [data-kind="pause"]', "data-pause");
      seen.push(kind);
      if (kind === "model") {
        // The new part of the prompt: the previous step's turn and its observation, exactly.
        const fresh = await pausePrompt(page);
        assert.deepEqual(fresh.map(([role]) => role), ["assistant", "user"]);
        const actions = await texts(page, "action");
        const observations = await texts(page, "observation");
        assert.match(fresh[0][1], /^Thought: .*\nAction: search\nAction Input: /s);
        assert.ok(actions.at(-1).includes(fresh[0][1].split("Action Input: ")[1]), `${fresh[0][1]} / ${actions.at(-1)}`);
        assert.equal(fresh[1][1], `Observation: ${observations.at(-1).replace(/^Observation\s*/, "")}`);
      } else {
        // Before the tool call: the action is parsed, its observation not there yet.
        const lastStep = await page.$$eval("tao-trajectory [data-step]", (n) => n.at(-1).querySelectorAll('[data-kind="observation"]').length);
        assert.equal(lastStep, 0);
      }
    }
    assert.deepEqual(seen, ["tool", "model", "tool", "model", "answer"]);
    assert.match((await texts(page, "answer")).join(" "), /Mobile, Alabama/);
    assertClean(page);
    await page.context().close();
  });

  it("?mode=step opens in step mode: Step is the main button and autorun stops before the first model call", async () => {
    const page = await openPage(env, { query: "?scenario=einstein&mode=step&autorun=1" });
    assert.equal(await pausedAt(page), "model");
    assert.ok(await page.$eval('button[data-action="step"]', (b) => b.classList.contains("primary")));
    assert.ok(await page.$eval('input[name="stepMode"]', (b) => b.checked));
    assert.equal(await page.isDisabled('button:text-is("Resume")'), false);
    assert.equal(await page.isDisabled('button:text-is("Pause")'), true);
    await page.click('button:text-is("Resume")');
    assert.equal(await waitStopped(page), "answer");
    assertClean(page);
    await page.context().close();
  });
});

describe("pause", () => {
  it("Pause stops a run at the next pause point, and Resume ends with the same answer", async () => {
    const whole = await openPage(env, { query: "?scenario=einstein" });
    await runScenario(whole, "einstein");
    const expected = await texts(whole, "answer");
    await whole.context().close();

    const page = await openPage(env, { query: "?scenario=einstein" });
    await page.selectOption('select[name="delayMs"]', "30");
    await page.click('button:text-is("Run")');
    await page.waitForSelector('tao-trajectory [data-step="1"]');
    await page.click('button:text-is("Pause")');
    const kind = await pausedAt(page);
    assert.ok(["model", "tool"].includes(kind), kind);
    const stepsAtPause = await page.$$eval("tao-trajectory [data-step]", (n) => n.length);
    assert.ok(stepsAtPause >= 1);
    await page.selectOption('select[name="delayMs"]', "0");
    await page.click('button:text-is("Resume")');
    assert.equal(await waitStopped(page), "answer");
    assert.deepEqual(await texts(page, "answer"), expected);
    assertClean(page);
    await page.context().close();
  });

  it("Stop ends a paused run where it stands", async () => {
    const page = await openPage(env, { query: "?scenario=apple-ceo" });
    await page.click('button:text-is("Step")');
    await pausedAt(page);
    await page.click('button:text-is("Step")');
    assert.equal(await pausedAt(page), "tool");
    await page.click('button:text-is("Stop")');
    assert.equal(await waitStopped(page), "aborted");
    assert.equal(await page.$$eval("tao-trajectory [data-step]", (n) => n.length), 1);
    assert.equal(await page.isDisabled('button:text-is("Run")'), false);
    await page.context().close();
  });
});

describe("you", () => {
  it("plays the model through a whole run with a typed task: replies are read like a model's, the tool is real", async () => {
    const page = await openPage(env, { query: "?scenario=water&provider=human" });
    await page.fill('textarea[name="task"]', "What is 12 times 7, plus 3?");
    // Not the scenario's question, but You play the model: no offline notice.
    assert.equal(await page.isHidden("[data-offline-notice]"), true);
    await page.click('button:text-is("Run")');
    const reply = page.getByRole("textbox", { name: "Your reply" });
    await reply.waitFor();
    // The prompt the model would receive is shown: the tools are described in it.
    assert.match(await page.textContent('tao-trajectory [data-kind="human"]'), /calculator/);
    // A reply with no action is read as a model's would be: a repair, asked again.
    await reply.fill("I think I should calculate.");
    await page.click('button:text-is("Send")');
    await reply.waitFor();
    await reply.fill("Thought: I calculate.\nAction: calculator\nAction Input: 12 * 7 + 3");
    await reply.press("Control+Enter");
    await page.waitForFunction(() => [...document.querySelectorAll('tao-trajectory [data-kind="observation"]')].some((n) => n.textContent.includes("87")));
    await reply.waitFor();
    await reply.fill("Thought: The calculator says 87.\nFinal Answer: 87");
    await page.click('button:text-is("Send")');
    assert.equal(await waitStopped(page), "answer");
    assert.match((await texts(page, "answer")).join(" "), /87/);
    assert.equal(await page.textContent('tao-stats [data-stat="n_calls"]'), "3");
    assert.equal(await page.textContent('tao-stats [data-stat="n_badcalls"]'), "1");
    assertClean(page);
    await page.context().close();
  });
});

describe("honest", () => {
  it("a typed task the offline model does not play is refused before the run, offering You", async () => {
    const page = await openPage(env, { query: "?scenario=apple-ceo" });
    await page.fill('textarea[name="task"]', "Who is the CEO of Microsoft?");
    assert.equal(await page.isVisible("[data-offline-notice]"), true);
    await page.click('button:text-is("Run")');
    // Said where the reader looks then: at the top of the stage, in place of the form's notice.
    await page.locator("main [data-run-notice]").waitFor();
    assert.equal(await page.$$eval("tao-trajectory [data-step]", (n) => n.length), 0, "nothing ran");
    assert.equal(await page.textContent('tao-stats [data-stat="stop"]'), "–");
    const you = page.getByRole("button", { name: /^You/ });
    assert.equal(await you.count(), 1);
    // You: the provider switches, and the question is asked at once (the choices' code comes
    // with the first refused Run).
    await you.click();
    await page.waitForFunction(() => document.querySelector('select[name="provider"]').value === "human");
    await page.getByRole("textbox", { name: "Your reply" }).waitFor();
    assert.equal(await page.isHidden("[data-offline-notice]"), true);
    await page.click('button[data-action="stop"]');
    await waitStopped(page);
    // The scenario's own question still runs offline.
    await page.selectOption('select[name="provider"]', "scripted");
    await page.selectOption('select[name="scenario"]', "water");
    assert.equal(await page.isHidden("[data-offline-notice]"), true);
    assertClean(page);
    await page.context().close();
  });
});

// Edit and fork, as a reader uses it: Edit a step's thought, action or observation in a finished
// run, Fork from here, and see both branches with their answers compared.
//
//   node --test tests/e2e/fork.test.mjs      (serves target/site: build it first with `make site`)
//
// Index:
//   reference fork   einstein: "born in Ulm" edited to Munich; the fork answers Munich, the
//                    original keeps Ulm, side by side at 1366×850; Export writes the selected one
//   tabs             at 390×844 the branches are a tablist, switched by click and by keyboard
//   thought          an edited thought keeps the step's action and observation
//   action           an edited action runs the tool again: its new observation appears
//   JSON input       in native tool calling a broken JSON input is refused in place
//   cancel           Cancel (and Escape) restores the card as it was
//   back to one      Keep original / Keep fork, an import and a new Run leave one trajectory
//   stop             Stop ends the fork (one run at a time: another fork waits)
//   counts           a fork played by You: a reply asked for again is a bad call as it happens,
//                    counted on from the steps the fork kept; the end shows the fork's own stats
//   untrusted text   html-injection: model text in the edit boxes and the fork stays text
//   Chinese          编辑 / 从这里分叉; the zh reference fork answers 慕尼黑

import { describe, it, before, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { setUp, openPage, runScenario, waitStopped, OUT } from "./helpers.mjs";

let env;
before(async () => {
  env = await setUp();
});
after(async () => {
  await env?.close();
});

const WIDE = { width: 1366, height: 850 };
const PHONE = { width: 390, height: 844 };

/** No script error, console error or dialog happened on the page. */
function assertClean(page) {
  assert.deepEqual(page.problems.errors, [], "page errors");
  assert.deepEqual(page.problems.console, [], "console errors");
  assert.deepEqual(page.problems.dialogs, [], "dialogs");
}

/** The page is never wider than its viewport. */
async function assertNoOverflow(page) {
  const { scroll, client } = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    client: document.documentElement.clientWidth,
  }));
  assert.ok(scroll <= client, `page is ${scroll}px wide in a ${client}px viewport`);
}

async function shoot(page, name, { dark = false } = {}) {
  await page.emulateMedia({ colorScheme: dark ? "dark" : "light" });
  await assertNoOverflow(page);
  await page.screenshot({ path: path.join(OUT, name), fullPage: true });
  await page.emulateMedia({ colorScheme: "light" });
}

/** A branch's section ("original" or "fork") inside `<tao-branches>`. */
const branch = (page, name) => page.locator(`tao-branches section.branch[data-branch="${name}"]`);

/** The editable card of `kind` whose text has `text`, within `scope`. */
const card = (scope, kind, text) => scope.locator(`.editable[data-edit="${kind}"]`, { hasText: text });

/** The texts of a kind of card in one view (a locator for a `<tao-trajectory>` or a branch). */
const textsIn = (scope, kind) => scope.locator(`[data-kind="${kind}"]`).allTextContents();

/** Edits the card (in `scope`) of `kind` containing `text` with `change`, and forks from it. */
async function editAndFork(scope, kind, text, change) {
  const frame = card(scope, kind, text);
  await frame.getByRole("button", { name: "Edit" }).click();
  await change(frame);
  await frame.getByRole("button", { name: "Fork from here" }).click();
}

/** Replaces the text of the (only) text box of an open edit. */
async function rewrite(frame, edit) {
  const box = frame.getByRole("textbox");
  await box.fill(edit(await box.inputValue()));
}

/** Waits until the fork has run to its end (its view is drawn and Keep is on again). */
async function forkDone(page) {
  await page.waitForSelector('tao-branches [data-keep="fork"]:not(:disabled)', { timeout: 30000 });
  await page.waitForSelector('tao-branches section[data-branch="fork"] tao-trajectory:not([data-live])');
  return waitStopped(page);
}

/** The reference fork on an Einstein run that has just ended. */
async function forkToMunich(page) {
  await editAndFork(page.locator("tao-trajectory"), "observation", "born in Ulm", (frame) =>
    rewrite(frame, (text) => text.replace(/born in Ulm.*$/, "born in Munich.")),
  );
  return forkDone(page);
}

/** Presses Export and returns the written trajectory. */
async function exported(page, name) {
  const [download] = await Promise.all([page.waitForEvent("download"), page.click('button[data-action="export"]')]);
  const file = path.join(OUT, name);
  await download.saveAs(file);
  return JSON.parse(fs.readFileSync(file, "utf8"));
}

describe("reference fork", () => {
  it("einstein: Ulm edited to Munich; the fork answers Munich, the original keeps Ulm, side by side", async () => {
    const page = await openPage(env, { viewport: WIDE });
    // While the run streams, the cards have no Edit button.
    await page.selectOption('select[name="scenario"]', "einstein");
    await page.selectOption('select[name="delayMs"]', "30");
    await page.click('button[data-action="run"]');
    await page.waitForSelector('tao-trajectory[data-live] [data-kind="observation"]');
    assert.equal(await page.getByRole("button", { name: "Edit" }).count(), 0, "no Edit on the live view");
    assert.equal(await waitStopped(page), "answer");

    // Finished: each thought, action and observation card has an Edit button.
    const view = page.locator("tao-trajectory");
    const editableCards = await view.locator('[data-kind="thought"], [data-kind="action"], [data-kind="observation"]').count();
    assert.equal(editableCards, 7, "3 thoughts, 2 actions, 2 observations");
    assert.equal(await view.getByRole("button", { name: "Edit" }).count(), editableCards);
    assert.match((await textsIn(view, "answer"))[0], /Ulm/);

    // Edit turns the observation into a labelled text box holding exactly its text.
    const frame = card(view, "observation", "born in Ulm");
    const before = await frame.locator('[data-kind="observation"] pre').textContent();
    await frame.getByRole("button", { name: "Edit" }).click();
    const box = frame.getByRole("textbox", { name: /observation/i });
    assert.equal(await box.inputValue(), before);
    assert.ok(await box.evaluate((b) => b === document.activeElement), "the text box has the focus");
    assert.ok(parseFloat(await box.evaluate((b) => getComputedStyle(b).fontSize)) >= 15, "text box at least 15 px");
    await shoot(page, "fork-editing-1366.png");
    await box.fill(before.replace(/born in Ulm.*$/, "born in Munich."));
    // The fork streams (slowly, to be seen): its live view has no Edit buttons either.
    await page.selectOption('select[name="delayMs"]', "80");
    await frame.getByRole("button", { name: "Fork from here" }).click();
    const forkView = branch(page, "fork").locator("tao-trajectory");
    await page.waitForSelector('tao-branches section[data-branch="fork"] tao-trajectory[data-live] .raw-live');
    assert.equal(await forkView.getByRole("button", { name: "Edit" }).count(), 0, "no Edit on the fork's live view");
    assert.equal(await forkDone(page), "answer");

    // The fork names Munich; the original still names Ulm and was not changed.
    const original = branch(page, "original");
    const fork = branch(page, "fork");
    assert.match((await textsIn(fork, "answer"))[0], /Munich/);
    assert.doesNotMatch((await textsIn(fork, "answer"))[0], /Ulm/);
    assert.match((await textsIn(original, "answer"))[0], /^Answer\s*Ulm/);
    assert.ok((await textsIn(original, "observation")).some((o) => o.includes("born in Ulm")));
    assert.equal(await original.getByRole("textbox").count(), 0, "the original's card is back to text");
    // The fork kept steps 1 and 2 (with the edit, marked by a note) and went on from there.
    assert.deepEqual(await fork.locator("[data-step]").evaluateAll((s) => s.map((x) => x.dataset.step)), ["1", "2", "3"]);
    assert.match(await fork.locator('[data-step="2"] [data-kind="observation"]').textContent(), /born in Munich\.$/);
    assert.match(await fork.locator('[data-step="2"] [data-kind="note"]').textContent(), /edited by hand/);
    assert.equal(await fork.locator('[data-step="1"] [data-kind="observation"]').textContent(), await original.locator('[data-step="1"] [data-kind="observation"]').textContent());

    // Headers and the summary comparing the answers.
    assert.equal((await original.locator(".branch-title").textContent()).trim(), "Original");
    assert.equal((await fork.locator(".branch-title").textContent()).trim(), "Fork from step 2");
    const summary = await page.textContent(".branches-summary");
    assert.match(summary, /^Original: Ulm · Fork: Munich — different answers$/);

    // Side by side: both in view at once, next to each other, inside the window.
    assert.equal(await page.getAttribute("tao-branches", "data-layout"), "split");
    assert.equal(await page.locator('tao-branches [role="tablist"]').isVisible(), false);
    const a = await original.boundingBox();
    const b = await fork.boundingBox();
    assert.ok(a.width > 500 && b.width > 500, `wide columns: ${a.width}, ${b.width}`);
    assert.ok(Math.abs(a.y - b.y) < 1, "same top");
    assert.ok(b.x >= a.x + a.width, "the fork is to the right of the original");
    assert.ok(a.x >= 0 && b.x + b.width <= WIDE.width, "both inside the window");
    await shoot(page, "fork-1366.png");
    await shoot(page, "fork-1366-dark.png", { dark: true });

    // Export writes the selected branch: the fork at first, the original once worked in.
    assert.match((await exported(page, "fork-fork.json")).answer, /^Munich$/);
    await original.locator(".branch-title").click();
    assert.match(await page.textContent(".branches-selected"), /Original/);
    assert.match((await exported(page, "fork-original.json")).answer, /^Ulm/);
    assertClean(page);
    await page.context().close();
  });
});

describe("tabs", () => {
  it("at 390×844 the branches are tabs, switched by click and by keyboard", async () => {
    const page = await openPage(env, { viewport: PHONE });
    assert.equal(await runScenario(page, "einstein"), "answer");
    assert.equal(await forkToMunich(page), "answer");
    assert.equal(await page.getAttribute("tao-branches", "data-layout"), "tabs");

    const tabs = page.getByRole("tablist", { name: "Branches" }).getByRole("tab");
    assert.deepEqual(await tabs.allTextContents(), ["Original", "Fork from step 2"]);
    const originalTab = page.getByRole("tab", { name: "Original" });
    const forkTab = page.getByRole("tab", { name: "Fork from step 2" });
    const originalPanel = page.getByRole("tabpanel", { name: "Original", includeHidden: true });
    const forkPanel = page.getByRole("tabpanel", { name: "Fork from step 2", includeHidden: true });
    // The fork is shown first; its tab has the focus after Fork from here.
    assert.equal(await forkTab.getAttribute("aria-selected"), "true");
    assert.equal(await originalTab.getAttribute("aria-selected"), "false");
    assert.ok(await forkTab.evaluate((tab) => tab === document.activeElement), "the fork's tab has the focus");
    assert.equal(await forkPanel.isVisible(), true);
    assert.equal(await originalPanel.isVisible(), false);
    assert.match((await textsIn(forkPanel, "answer"))[0], /Munich/);
    assert.match(await page.textContent(".branches-summary"), /Original: Ulm.* · Fork: Munich/);
    await shoot(page, "fork-390.png");
    await shoot(page, "fork-390-dark.png", { dark: true });

    // A click shows the original.
    await originalTab.click();
    assert.equal(await originalTab.getAttribute("aria-selected"), "true");
    assert.equal(await forkTab.getAttribute("aria-selected"), "false");
    assert.equal(await originalPanel.isVisible(), true);
    assert.equal(await forkPanel.isVisible(), false);
    assert.match((await textsIn(originalPanel, "answer"))[0], /Ulm/);
    await shoot(page, "fork-390-original.png");

    // Keys: → and ← move (wrapping), Home and End jump; the tab in focus is the one selected,
    // and only it is in the tab order.
    await originalTab.focus();
    const selected = () => page.$eval('[role="tab"][aria-selected="true"]', (tab) => [tab.textContent, tab === document.activeElement, tab.tabIndex]);
    await page.keyboard.press("ArrowRight");
    assert.deepEqual(await selected(), ["Fork from step 2", true, 0]);
    assert.equal(await forkPanel.isVisible(), true);
    await page.keyboard.press("ArrowRight");
    assert.deepEqual(await selected(), ["Original", true, 0]);
    await page.keyboard.press("ArrowLeft");
    assert.deepEqual(await selected(), ["Fork from step 2", true, 0]);
    await page.keyboard.press("Home");
    assert.deepEqual(await selected(), ["Original", true, 0]);
    assert.equal(await forkTab.getAttribute("tabindex"), "-1");
    await page.keyboard.press("End");
    assert.deepEqual(await selected(), ["Fork from step 2", true, 0]);
    assert.equal(await originalPanel.isVisible(), false);

    // Export writes the tab shown.
    assert.equal((await exported(page, "fork-tab.json")).answer, "Munich");

    // Wider than 1100 px, the same branches stand side by side (no tablist, no tabpanels).
    await page.setViewportSize(WIDE);
    await page.waitForFunction(() => document.querySelector("tao-branches").dataset.layout === "split");
    assert.equal(await page.getByRole("tab").count(), 0);
    assert.equal(await page.getByRole("tabpanel").count(), 0);
    assert.equal(await branch(page, "original").isVisible(), true);
    assert.equal(await branch(page, "fork").isVisible(), true);
    assertClean(page);
    await page.context().close();
  });
});

describe("what an edit keeps", () => {
  it("an edited thought keeps the step's action and observation", async () => {
    const page = await openPage(env, { viewport: WIDE });
    assert.equal(await runScenario(page, "einstein"), "answer");
    const view = page.locator("tao-trajectory");
    const action2 = await view.locator('[data-step="2"] [data-kind="action"]').textContent();
    const observation2 = await view.locator('[data-step="2"] [data-kind="observation"]').textContent();
    const thought = "I will read what the page says about his birth.";
    await editAndFork(view, "thought", "I can look up", (frame) => rewrite(frame, () => thought));
    assert.equal(await forkDone(page), "answer");

    const fork = branch(page, "fork");
    assert.equal(await fork.locator('[data-step="2"] [data-kind="thought"] .card-text').textContent(), thought);
    assert.equal(await fork.locator('[data-step="2"] [data-kind="action"]').textContent(), action2);
    assert.equal(await fork.locator('[data-step="2"] [data-kind="observation"]').textContent(), observation2);
    assert.match(await fork.locator('[data-step="2"] [data-kind="note"]').textContent(), /thought was edited/);
    // The scripted model reads observations, not thoughts: the same answer, said so.
    assert.match((await textsIn(fork, "answer"))[0], /Ulm/);
    assert.match(await page.textContent(".branches-summary"), /— the same answer$/);
    assertClean(page);
    await page.context().close();
  });

  it("an edited action runs the tool again: its new observation appears", async () => {
    const page = await openPage(env, { viewport: WIDE });
    assert.equal(await runScenario(page, "einstein"), "answer");
    const view = page.locator("tao-trajectory");
    await editAndFork(view, "action", "lookup", async (frame) => {
      // Two labelled boxes: the tool and its input.
      const tool = frame.getByRole("textbox", { name: "Tool" });
      const input = frame.getByRole("textbox", { name: "Input" });
      assert.equal(await tool.inputValue(), "lookup");
      assert.equal(await input.inputValue(), "born");
      await tool.fill("search");
      await input.fill("Ulm");
    });
    assert.equal(await forkDone(page), "answer");

    const fork = branch(page, "fork");
    assert.equal(await fork.locator('[data-step="2"] [data-kind="action"] [data-tool]').textContent(), "search");
    assert.equal(await fork.locator('[data-step="2"] [data-kind="action"] pre').textContent(), "Ulm");
    // search[Ulm] opened the Ulm page: an observation the original never had.
    const observation = await fork.locator('[data-step="2"] [data-kind="observation"]').textContent();
    assert.match(observation, /Ulm is a city/);
    assert.ok(!(await textsIn(branch(page, "original"), "observation")).some((o) => o.includes("Ulm is a city")));
    assert.match((await textsIn(fork, "answer"))[0], /Ulm in 1879/);
    // The note claims nothing of the tool: an edited action may name none (and be repaired).
    assert.equal(await fork.locator('[data-step="2"] [data-kind="note"]').textContent(), "The action was edited by hand for this fork; what follows comes of the edited action.");
    assertClean(page);
    await page.context().close();
  });

  it("a JSON input stays JSON: a broken one is refused in place, a good one runs", async () => {
    // In native tool calling the inputs are JSON objects; the fork keeps the run's format.
    const page = await openPage(env, { viewport: WIDE, query: "?scenario=einstein&format=tools" });
    assert.equal(await page.inputValue('select[name="format"]'), "tools");
    await page.selectOption('select[name="delayMs"]', "0");
    await page.click('button[data-action="run"]');
    assert.equal(await waitStopped(page), "answer");
    const frame = card(page.locator("tao-trajectory"), "action", "lookup");
    await frame.getByRole("button", { name: "Edit" }).click();
    const input = frame.getByRole("textbox", { name: "Input" });
    assert.deepEqual(JSON.parse(await input.inputValue()), { keyword: "born" });
    await frame.getByRole("textbox", { name: "Tool" }).fill("search");
    await input.fill('{"query": Ulm}');
    await frame.getByRole("button", { name: "Fork from here" }).click();
    const problem = frame.getByRole("alert");
    assert.match(await problem.textContent(), /must be JSON/);
    assert.equal(await page.locator("tao-branches").count(), 0, "nothing was forked");
    await input.fill('{"query": "Ulm"}');
    await frame.getByRole("button", { name: "Fork from here" }).click();
    assert.equal(await forkDone(page), "answer");
    const fork = branch(page, "fork");
    assert.match(await fork.locator('[data-kind="task"]').textContent(), /format\s*tools/);
    assert.match(await fork.locator('[data-step="2"] [data-kind="observation"]').textContent(), /Ulm is a city/);
    assertClean(page);
    await page.context().close();
  });

  it("Cancel (or Escape) restores the card as it was", async () => {
    const page = await openPage(env, { viewport: WIDE });
    assert.equal(await runScenario(page, "einstein"), "answer");
    const view = page.locator("tao-trajectory");
    for (const [kind, text, close] of [
      ["observation", "born in Ulm", "Cancel"],
      ["thought", "I can look up", "Escape"],
      ["action", "lookup", "Cancel"],
    ]) {
      const frame = card(view, kind, text);
      const shown = await frame.locator(`[data-kind="${kind}"]`).textContent();
      const edit = frame.getByRole("button", { name: "Edit" });
      await edit.click();
      await frame.getByRole("textbox").first().fill("something else entirely");
      if (close === "Escape") await page.keyboard.press("Escape");
      else await frame.getByRole("button", { name: "Cancel" }).click();
      assert.equal(await frame.getByRole("textbox").count(), 0, `${kind}: no text box left`);
      assert.equal(await frame.locator(`[data-kind="${kind}"]`).textContent(), shown, `${kind}: the card is as it was`);
      assert.ok(await edit.evaluate((b) => b === document.activeElement), `${kind}: the focus is back on Edit`);
    }
    assert.equal(await page.locator("tao-branches").count(), 0, "nothing was forked");
    assertClean(page);
    await page.context().close();
  });
});

describe("back to one trajectory", () => {
  it("Keep original, Keep fork, an import and a new Run each leave one trajectory", async () => {
    const page = await openPage(env, { viewport: WIDE });
    assert.equal(await runScenario(page, "einstein"), "answer");
    await forkToMunich(page);
    await page.getByRole("button", { name: "Keep original" }).click();
    assert.equal(await page.locator("tao-branches").count(), 0);
    assert.equal(await page.locator("tao-trajectory").count(), 1);
    assert.match((await textsIn(page.locator("tao-trajectory"), "answer"))[0], /Ulm/);
    assert.match((await exported(page, "fork-kept-original.json")).answer, /^Ulm/);

    // Fork again, and keep the fork this time: the one view shows it, and Export writes it.
    await forkToMunich(page);
    await page.getByRole("button", { name: "Keep fork" }).click();
    assert.equal(await page.locator("tao-trajectory").count(), 1);
    assert.match((await textsIn(page.locator("tao-trajectory"), "answer"))[0], /^Answer\s*Munich$/);
    assert.equal((await exported(page, "fork-kept-fork.json")).answer, "Munich");

    // Forking from the fork replaces the fork; a new Run replaces both branches.
    await editAndFork(page.locator("tao-trajectory"), "observation", "born in Munich", (frame) =>
      rewrite(frame, (text) => text.replace("Munich", "Bern")),
    );
    assert.equal(await forkDone(page), "answer");
    assert.match(await page.textContent(".branches-summary"), /Original: Munich · Fork: Bern/);
    await editAndFork(branch(page, "fork"), "observation", "born in Bern", (frame) =>
      rewrite(frame, (text) => text.replace("Bern", "Zurich")),
    );
    assert.equal(await forkDone(page), "answer");
    assert.match(await page.textContent(".branches-summary"), /Original: Munich · Fork: Zurich/);
    assert.equal(await page.locator("tao-trajectory").count(), 2);

    // A file that cannot be read leaves the branches; a good one replaces them.
    await page.setInputFiles("input[data-import-file]", { name: "broken.json", mimeType: "application/json", buffer: Buffer.from("{ oops") });
    await page.locator("[data-error]").waitFor({ state: "visible" });
    assert.equal(await page.locator("tao-branches").count(), 1);
    await page.setInputFiles("input[data-import-file]", path.join(OUT, "fork-kept-original.json"));
    await page.waitForFunction(() => !document.querySelector("tao-branches"));
    assert.equal(await page.locator("tao-trajectory").count(), 1);
    assert.match((await textsIn(page.locator("tao-trajectory"), "answer"))[0], /Ulm/);

    await forkToMunich(page);
    assert.equal(await page.locator("tao-branches").count(), 1);
    await page.click('button[data-action="run"]');
    assert.equal(await waitStopped(page), "answer");
    assert.equal(await page.locator("tao-branches").count(), 0);
    assert.equal(await page.locator("tao-trajectory").count(), 1);
    assert.match((await textsIn(page.locator("tao-trajectory"), "answer"))[0], /Ulm/);
    assertClean(page);
    await page.context().close();
  });
});

describe("stop", () => {
  it("Stop ends the fork; the original is untouched", async () => {
    const page = await openPage(env, { viewport: WIDE });
    assert.equal(await runScenario(page, "einstein"), "answer");
    await page.selectOption('select[name="delayMs"]', "200");
    await editAndFork(page.locator("tao-trajectory"), "observation", "born in Ulm", (frame) =>
      rewrite(frame, (text) => text.replace(/born in Ulm.*$/, "born in Munich.")),
    );
    await page.waitForSelector('tao-branches section[data-branch="fork"] [data-step="3"] .raw-live');
    assert.match(await page.textContent(".branches-summary"), /Fork: running/);
    assert.equal(await page.getByRole("button", { name: "Keep fork" }).isDisabled(), true);
    // One run at a time: another Fork from here waits, its edit kept open.
    const other = card(branch(page, "original"), "thought", "I can look up");
    await other.getByRole("button", { name: "Edit" }).click();
    await other.getByRole("button", { name: "Fork from here" }).click();
    assert.match(await page.textContent("[data-status]"), /Wait for the run to end/);
    assert.equal(await other.getByRole("textbox").count(), 1);
    await other.getByRole("button", { name: "Cancel" }).click();

    assert.equal(await page.getAttribute('tao-stats [data-stat="stop"]', "data-reason"), "running", "the stats count the fork while it runs");

    await page.click('button[data-action="stop"]');
    // Working in the original selected it: the stats bar shows it, until the fork is selected.
    assert.equal(await forkDone(page), "answer");
    await branch(page, "fork").locator(".branch-title").click();
    assert.equal(await page.getAttribute('tao-stats [data-stat="stop"]', "data-reason"), "aborted");
    assert.match(await page.textContent(".branches-summary"), /Fork: no answer \(aborted\)$/);
    assert.match((await textsIn(branch(page, "original"), "answer"))[0], /Ulm/);
    assert.equal(await branch(page, "fork").locator('[data-kind="stop"]').getAttribute("data-reason"), "aborted");
    assert.equal(await page.isEnabled('button[data-action="run"]'), true);
    assertClean(page);
    await page.context().close();
  });
});

describe("counts", () => {
  it("a fork's retried reply is a bad call while it runs; the counts go on from the steps kept", async () => {
    const page = await openPage(env, { viewport: WIDE });
    assert.equal(await runScenario(page, "einstein"), "answer");
    // The fork's agent takes the page's model: You play it, so the fork waits for each reply.
    await page.selectOption('select[name="provider"]', "human");
    await editAndFork(page.locator("tao-trajectory"), "observation", "born in Ulm", (frame) =>
      rewrite(frame, (text) => text.replace(/born in Ulm.*$/, "born in Munich.")),
    );
    const reply = page.getByRole("textbox", { name: "Your reply" });
    await reply.waitFor();
    const counts = async () => ({
      calls: await page.textContent('tao-stats [data-stat="n_calls"]'),
      bad: await page.textContent('tao-stats [data-stat="n_badcalls"]'),
      steps: await page.textContent('tao-stats [data-stat="steps"]'),
      reason: await page.getAttribute('tao-stats [data-stat="stop"]', "data-reason"),
    });
    const { bad, steps, reason } = await counts();
    assert.deepEqual({ bad, steps, reason }, { bad: "0", steps: "3", reason: "running" });

    // A reply without an action cannot be read: the model is asked again, a bad call as the
    // paper counts it (n_badcalls), counted as it happens, not only once the fork ends.
    await reply.fill("Thought 3: I am not sure yet.");
    await page.click('button:text-is("Send")');
    await reply.waitFor();
    assert.equal((await counts()).bad, "1", "the retried reply is a bad call while the fork runs");
    // Counted on from the steps the fork kept: steps 1 and 2 are the original's (a model call
    // each, none bad), and step 3 has made two calls.
    assert.deepEqual(await counts(), { calls: "4", bad: "1", steps: "3", reason: "running" });
    // The fork's prompt is shown in the fork's view, not in the original's.
    assert.equal(await branch(page, "fork").getByRole("textbox", { name: "Your reply" }).count(), 1);
    await shoot(page, "fork-you-retried-1366.png");

    await reply.fill("Thought 3: The page says he was born in Munich.\nAction 3: Finish[Munich]");
    await page.click('button:text-is("Send")');
    assert.equal(await forkDone(page), "answer");
    assert.match((await textsIn(branch(page, "fork"), "answer"))[0], /Munich/);
    // Ended: the fork's own stats, as the core counts them from its steps.
    assert.deepEqual(await counts(), { calls: "4", bad: "1", steps: "3", reason: "answer" });
    assert.equal(await branch(page, "fork").locator('[data-step="3"] [data-kind="repair"]').count(), 1, "the retried reply is shown");
    assertClean(page);
    await page.context().close();
  });
});

describe("untrusted text", () => {
  it("html-injection: model text in the edit boxes and in the fork stays text", async () => {
    const page = await openPage(env, { viewport: WIDE });
    assert.equal(await runScenario(page, "html-injection"), "answer");
    const view = page.locator("tao-trajectory");
    const countElements = () =>
      page.$$eval("tao-trajectory img, tao-trajectory script, tao-trajectory iframe, tao-trajectory i, tao-trajectory b, tao-branches img, tao-branches script", (n) => n.length);
    const onAttributes = () =>
      page.$$eval("tao-trajectory *, tao-branches *", (n) => n.filter((x) => [...x.attributes].some((a) => a.name.startsWith("on"))).length);

    // The thought's <i>…</i> is text in its box.
    const thought = card(view, "thought", "untrusted");
    await thought.getByRole("button", { name: "Edit" }).click();
    assert.match(await thought.getByRole("textbox").inputValue(), /<i>Model text is untrusted too\.<\/i>/);
    await thought.getByRole("button", { name: "Cancel" }).click();

    // The observation's <script> and <img onerror> are text in its box, and a new payload
    // typed into it stays text in the fork, its answer and the summary.
    const payload = '<img src=x onerror="window.__pwned=1"> <script>window.__pwned=1</script>';
    await editAndFork(view, "observation", "<script>", async (frame) => {
      const box = frame.getByRole("textbox");
      assert.match(await box.inputValue(), /<script>/);
      assert.equal(await countElements(), 0);
      await box.fill(payload);
    });
    assert.equal(await forkDone(page), "answer");
    const fork = branch(page, "fork");
    assert.equal(await fork.locator('[data-step="1"] [data-kind="observation"] pre').textContent(), payload);
    assert.match((await textsIn(fork, "answer"))[0], /<img src=x onerror=alert\(1\)>/);
    assert.match(await page.textContent(".branches-summary"), /Fork: It says: <img src=x onerror=alert\(1\)> <script>/);
    await page.waitForTimeout(300); // give an onerror every chance to fire
    assert.equal(await countElements(), 0);
    assert.equal(await onAttributes(), 0);
    assert.equal(await page.evaluate(() => window.__pwned ?? window.__taoPwned ?? null), null);
    assertClean(page);
    await page.context().close();
  });
});

describe("Chinese", () => {
  it("编辑 and 从这里分叉: the zh reference fork answers 慕尼黑", async () => {
    const page = await openPage(env, { viewport: WIDE, query: "?scenario=einstein&lang=zh" });
    assert.equal(await runScenario(page, "einstein"), "answer");
    const view = page.locator("tao-trajectory");
    const frame = card(view, "observation", "出生于");
    await frame.getByRole("button", { name: "编辑" }).click();
    await rewrite(frame, (text) => text.replace(/出生于.*$/, "出生于慕尼黑。"));
    await frame.getByRole("button", { name: "从这里分叉" }).click();
    assert.equal(await forkDone(page), "answer");
    assert.match((await textsIn(branch(page, "fork"), "answer"))[0], /慕尼黑/);
    assert.match((await textsIn(branch(page, "original"), "answer"))[0], /乌尔姆/);
    assert.equal((await branch(page, "fork").locator(".branch-title").textContent()).trim(), "从第 2 步分叉");
    assert.match(await page.textContent(".branches-summary"), /^原始：.*乌尔姆 · 分叉：慕尼黑 — 答案不同$/);
    // Switching the language redraws both branches in the new words, each with its own answer.
    // The fork folded the settings away for the width; show them to switch the language.
    if (await page.isVisible('button[data-action="settings"][aria-expanded="false"]')) await page.click('button[data-action="settings"]');
    await page.selectOption('select[name="lang"]', "en");
    // A visit in Chinese fetches the English scenario list at its first switch, and then switches.
    await page.waitForFunction(() => document.documentElement.lang === "en");
    assert.equal((await branch(page, "fork").locator(".branch-title").textContent()).trim(), "Fork from step 2");
    assert.match((await textsIn(branch(page, "original"), "answer"))[0], /^Answer/);
    assert.match((await textsIn(branch(page, "original"), "answer"))[0], /乌尔姆/);
    assert.match((await textsIn(branch(page, "fork"), "answer"))[0], /慕尼黑/);
    assertClean(page);
    await page.context().close();
  });
});

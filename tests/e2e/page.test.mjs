// End-to-end tests of the demo page, as a user sees it, in headless Chromium.
//
//   node --test tests/e2e/page.test.mjs      (serves target/site: build it first with `make site`)
//
// Index:
//   scenarios      every built-in scenario runs to its stop through the UI
//   streaming      the raw reply shows live, then Thought / Action / Observation cards
//   export/import  a trajectory written by Export draws the same cards when imported;
//                  a malformed file shows a clear error and keeps the view
//   html-injection model and tool text with <img onerror> / <script> stays text
//   query string   ?scenario=…&lang=zh&autorun=1 opens a ready run in Chinese
//   stop           Stop aborts a slow run; the steps so far stay on screen
//   share          Share writes the settings (never a key) into the address bar

import { describe, it, before, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { setUp, openPage, runScenario, waitStopped, cards, texts, stat, OUT, assertClean } from "./helpers.mjs";

let env;
before(async () => {
  env = await setUp();
});
after(async () => {
  await env?.close();
});

describe("scenarios", () => {
  it("lists every built-in scenario", async () => {
    const page = await openPage(env);
    const names = await page.$$eval('select[name="scenario"] option', (os) => os.map((o) => o.value));
    for (const name of ["apple-ceo", "einstein", "water", "format-repair", "max-steps", "hallucination", "html-injection"]) {
      assert.ok(names.includes(name), `scenario ${name} in ${names}`);
    }
    assert.match(await page.textContent("[data-version]"), /^v\d+\.\d+\.\d+/);
    await page.context().close();
  });

  it("choosing a scenario fills the task and the format", async () => {
    const page = await openPage(env);
    await page.selectOption('select[name="scenario"]', "einstein");
    assert.equal(await page.inputValue('select[name="format"]'), "paper");
    assert.match(await page.inputValue('textarea[name="task"]'), /Einstein/);
    await page.selectOption('select[name="scenario"]', "apple-ceo");
    assert.equal(await page.inputValue('select[name="format"]'), "mrkl");
    assert.match(await page.inputValue('textarea[name="task"]'), /Apple/);
    await page.context().close();
  });

  it("apple-ceo: searches, then answers Mobile, Alabama", async () => {
    const page = await openPage(env);
    assert.equal(await runScenario(page, "apple-ceo"), "answer");
    const answers = await texts(page, "answer");
    assert.equal(answers.length, 1);
    assert.match(answers[0], /Mobile, Alabama/);
    assert.ok((await texts(page, "thought")).length >= 2, "thoughts");
    const actions = await texts(page, "action");
    assert.ok(actions.length >= 1 && actions.some((a) => /search/i.test(a)), `actions: ${actions}`);
    assert.ok((await texts(page, "observation")).length >= 1, "observations");
    // The answer is the last card of the last step, and the stats agree with the step blocks.
    const all = await cards(page);
    assert.equal(all.at(-1).kind, "answer");
    const steps = await page.$$eval("tao-trajectory [data-step]", (s) => s.length);
    assert.equal(Number(await stat(page, "steps")), steps);
    assert.equal(Number(await stat(page, "n_badcalls")), 0);
    assert.ok(Number(await stat(page, "n_calls")) >= steps);
    assertClean(page);
    await page.context().close();
  });

  it("einstein (paper format): answers Ulm", async () => {
    const page = await openPage(env);
    assert.equal(await runScenario(page, "einstein"), "answer");
    assert.equal(await page.inputValue('select[name="format"]'), "paper");
    const answers = await texts(page, "answer");
    assert.equal(answers.length, 1);
    assert.match(answers[0], /Ulm/);
    assert.ok((await texts(page, "observation")).length >= 1);
    // The raw model text of a step is kept (folded) and is in the paper's numbered format.
    const raw = await page.textContent('tao-trajectory [data-step="1"] details.raw');
    assert.match(raw, /Thought 1|Action 1/);
    assertClean(page);
    await page.context().close();
  });

  it("water: calls the calculator, then answers", async () => {
    const page = await openPage(env);
    assert.equal(await runScenario(page, "water"), "answer");
    const tools = await page.$$eval("tao-trajectory [data-kind=action] [data-tool]", (n) => n.map((x) => x.dataset.tool));
    assert.ok(tools.includes("calculator"), `tools: ${tools}`);
    const calc = await page.$$eval("tao-trajectory [data-kind=action]", (n) =>
      n.filter((x) => x.querySelector('[data-tool="calculator"]')).map((x) => x.querySelector("pre").textContent),
    );
    assert.ok(calc[0].trim().length > 0, "calculator input shown");
    const answers = await texts(page, "answer");
    assert.equal(answers.length, 1);
    assert.ok(answers[0].trim().length > 0);
    assertClean(page);
    await page.context().close();
  });

  it("format-repair: a bad call shows a repair card, then an answer", async () => {
    const page = await openPage(env);
    assert.equal(await runScenario(page, "format-repair"), "answer");
    const all = await cards(page);
    const repair = all.findIndex((c) => c.kind === "repair");
    const answer = all.findIndex((c) => c.kind === "answer");
    assert.ok(repair >= 0, "a repair card");
    assert.ok(answer > repair, "the answer comes after the repair");
    assert.match(all[repair].text, /bad call/i);
    assert.ok(Number(await stat(page, "n_badcalls")) >= 1);
    assertClean(page);
    await page.context().close();
  });

  it("max-steps: stops with reason max_steps and no answer", async () => {
    const page = await openPage(env);
    await page.selectOption('select[name="scenario"]', "max-steps");
    const maxSteps = Number(await page.inputValue('input[name="maxSteps"]'));
    assert.equal(await runScenario(page, "max-steps"), "max_steps");
    assert.equal((await texts(page, "answer")).length, 0);
    assert.equal(await page.$$eval("tao-trajectory [data-step]", (s) => s.length), maxSteps);
    assert.equal(Number(await stat(page, "steps")), maxSteps);
    assert.equal(await page.getAttribute('tao-trajectory [data-kind="stop"]', "data-reason"), "max_steps");
    assertClean(page);
    await page.context().close();
  });

  it("hallucination: notes the cut at the made-up observation, then answers", async () => {
    const page = await openPage(env);
    assert.equal(await runScenario(page, "hallucination"), "answer");
    const notes = await texts(page, "note");
    assert.ok(notes.some((n) => /cut|hallucinat/i.test(n)), `notes: ${notes}`);
    assert.equal((await texts(page, "answer")).length, 1);
    assertClean(page);
    await page.context().close();
  });
});

describe("streaming", () => {
  it("the raw reply streams live, then the parsed cards appear in loop order", async () => {
    const page = await openPage(env);
    // Record every card added to the page one by one, as the live view does. (The final
    // re-render appends whole step blocks, so its cards are not recorded one by one.)
    await page.evaluate(() => {
      window.__live = [];
      const view = document.querySelector("tao-trajectory");
      new MutationObserver((records) => {
        for (const r of records) {
          for (const n of r.addedNodes) {
            if (n.nodeType !== 1 || !n.dataset.kind) continue;
            const step = n.closest("[data-step]")?.dataset.step ?? null;
            window.__live.push(`${step}:${n.dataset.kind}${n.matches(".raw-live") ? "-live" : ""}`);
          }
        }
      }).observe(view, { childList: true, subtree: true });
    });
    assert.equal(await runScenario(page, "apple-ceo", { delay: "10" }), "answer");
    const live = await page.evaluate(() => window.__live);
    const step1 = live.filter((k) => k.startsWith("1:"));
    const at = (kind) => step1.indexOf(`1:${kind}`);
    assert.ok(at("raw-live") >= 0, `the raw reply streamed live: ${live}`);
    assert.ok(at("thought") > at("raw-live"), `a live thought card: ${live}`);
    assert.ok(at("action") > at("thought"), `a live action card after the thought: ${live}`);
    assert.ok(at("observation") > at("action"), `a live observation after the action: ${live}`);
    assert.ok(live.includes("3:answer"), `a live answer: ${live}`);
    // After the run, no live box is left; every step keeps its raw reply, folded.
    assert.equal(await page.$$eval("tao-trajectory .raw-live", (n) => n.length), 0);
    const steps = await page.$$eval("tao-trajectory [data-step]", (s) => s.length);
    assert.equal(await page.$$eval("tao-trajectory [data-step] > .step-body > details.raw", (n) => n.length), steps);
    assertClean(page);
    await page.context().close();
  });

  it("thought cards hold the thought only, not the format's labels", async () => {
    const page = await openPage(env);
    for (const name of ["apple-ceo", "einstein"]) {
      assert.equal(await runScenario(page, name), "answer");
      for (const thought of await page.$$eval('tao-trajectory [data-kind="thought"] .card-text', (n) => n.map((x) => x.textContent))) {
        assert.doesNotMatch(thought, /^\s*Thought\s*\d*\s*:/i, `${name}: ${thought}`);
        assert.doesNotMatch(thought, /Final Answer|Finish\[/i, `${name}: ${thought}`);
      }
    }
    await page.context().close();
  });
});

describe("export and import", () => {
  it("an exported trajectory imports back to the same cards", async () => {
    const page = await openPage(env);
    assert.equal(await runScenario(page, "format-repair"), "answer");
    const before = await cards(page);
    const statsBefore = await page.textContent("tao-stats");

    const [download] = await Promise.all([page.waitForEvent("download"), page.click('button[data-action="export"]')]);
    assert.equal(download.suggestedFilename(), "trajectory.json");
    const file = path.join(OUT, "trajectory.json");
    await download.saveAs(file);
    const json = JSON.parse(fs.readFileSync(file, "utf8"));
    assert.equal(json.format, "tao-trajectory");
    assert.equal(json.version, 5);
    assert.equal(json.stop.reason, "answer");

    // A fresh page, nothing run: import draws the same trajectory.
    const fresh = await openPage(env);
    assert.equal((await texts(fresh, "answer")).length, 0);
    await fresh.setInputFiles("input[data-import-file]", file);
    await fresh.waitForSelector('tao-trajectory [data-kind="answer"]');
    assert.deepEqual(await cards(fresh), before);
    assert.equal(await fresh.textContent("tao-stats"), statsBefore);
    assert.equal(await fresh.isHidden("[data-error]"), true);
    assertClean(fresh);
    await page.context().close();
    await fresh.context().close();
  });

  it("a malformed file shows a clear error and keeps the previous view", async () => {
    const page = await openPage(env);
    assert.equal(await runScenario(page, "apple-ceo"), "answer");
    const before = await cards(page);

    await page.setInputFiles("input[data-import-file]", {
      name: "broken.json",
      mimeType: "application/json",
      buffer: Buffer.from('{"format":"tao-trajectory","version":1,"steps":[ oops'),
    });
    const error = page.locator("[data-error]");
    await error.waitFor({ state: "visible" });
    const message = await error.textContent();
    assert.match(message, /import/i);
    assert.ok(message.length > "Could not import this file: ".length + 5, `a reason is given: ${message}`);
    assert.doesNotMatch(message, /（/, "English has no lead of its own");
    assert.deepEqual(await cards(page), before);

    // A trajectory from a future version is refused with its own message.
    await page.setInputFiles("input[data-import-file]", {
      name: "future.json",
      mimeType: "application/json",
      buffer: Buffer.from(JSON.stringify({ format: "tao-trajectory", version: 99, task: "x", steps: [] })),
    });
    await page.waitForFunction((old) => document.querySelector("[data-error]").textContent !== old, message);
    assert.match(await error.textContent(), /version/i);
    assert.deepEqual(await cards(page), before);
    await page.context().close();
  });

  it("in Chinese, an import's error says in Chinese what is wrong, then tao's message", async () => {
    const page = await openPage(env, { query: "?lang=zh" });
    await page.setInputFiles("input[data-import-file]", { name: "broken.json", mimeType: "application/json", buffer: Buffer.from("{ oops") });
    const error = page.locator("[data-error]");
    await error.waitFor({ state: "visible" });
    assert.match(await error.textContent(), /^无法导入该文件： tao 读不了这个文件。（not a trajectory file: invalid JSON/);
    await page.context().close();
  });
});

describe("untrusted text", () => {
  it("html-injection: markup in model and tool text stays literal text", async () => {
    const page = await openPage(env);
    await page.evaluate(() => {
      // If any payload ran as code, these would change.
      window.alert = (() => {
        const original = window.alert;
        return (...args) => {
          window.__alerted = true;
          return original.apply(window, args);
        };
      })();
    });
    assert.equal(await runScenario(page, "html-injection"), "answer");
    const text = await page.textContent("tao-trajectory");
    assert.ok(text.includes("<img src=x onerror="), "the <img onerror> payload is shown as text");
    assert.ok(/<script>[\s\S]*<\/script>/.test(text), "the <script> payload is shown as text");
    const observations = (await texts(page, "observation")).join("\n");
    assert.ok(observations.includes("<img") || observations.includes("<script>"), `observations: ${observations}`);
    assert.equal(await page.$$eval("tao-trajectory img, tao-trajectory script, tao-trajectory iframe", (n) => n.length), 0);
    assert.equal(await page.$$eval("tao-trajectory *", (n) => n.filter((x) => [...x.attributes].some((a) => a.name.startsWith("on"))).length), 0);
    // Give an onerror handler every chance to fire before looking.
    await page.waitForTimeout(300);
    const flags = await page.evaluate(() => ({ alerted: window.__alerted ?? null, pwned: window.pwned ?? window.__pwned ?? window.__taoPwned ?? window.__tao_pwned ?? null }));
    assert.deepEqual(flags, { alerted: null, pwned: null });
    assertClean(page);
    await page.context().close();
  });
});

describe("query string", () => {
  it("?scenario=einstein&format=paper&lang=zh&autorun=1 runs at once, in Chinese", async () => {
    const page = await openPage(env, { query: "?scenario=einstein&format=paper&lang=zh&autorun=1" });
    assert.equal(await waitStopped(page), "answer");
    assert.equal(await page.getAttribute("html", "lang"), "zh-CN");
    assert.equal(await page.inputValue('select[name="scenario"]'), "einstein");
    assert.equal(await page.inputValue('select[name="format"]'), "paper");
    assert.equal(await page.inputValue('select[name="lang"]'), "zh");
    assert.equal((await page.textContent('button[data-action="run"]')).trim(), "运行");
    assert.match(await page.textContent(".tagline"), /思考/);
    assert.match(await page.textContent('tao-trajectory [data-kind="thought"] .card-label'), /思考/);
    assert.equal((await texts(page, "answer")).length, 1);
    // The agent's prompt is Chinese too: the task and the model's thoughts are.
    const task = await page.inputValue('textarea[name="task"]');
    assert.match(task, /[\u4e00-\u9fff]/, `task in Chinese: ${task}`);
    assert.match((await texts(page, "thought"))[0], /[\u4e00-\u9fff]/);
    assertClean(page);
    await page.context().close();
  });

  it("switching the language switches the words and the scenario's task", async () => {
    const page = await openPage(env);
    await page.selectOption('select[name="scenario"]', "apple-ceo");
    await page.selectOption('select[name="lang"]', "zh");
    // The Chinese words are a module of their own, fetched at the first switch.
    await page.waitForFunction(() => document.querySelector('button[data-action="run"]').textContent.trim() === "运行");
    assert.match(await page.inputValue('textarea[name="task"]'), /[\u4e00-\u9fff]/);
    await page.selectOption('select[name="lang"]', "en");
    assert.equal((await page.textContent('button[data-action="run"]')).trim(), "Run");
    assert.match(await page.inputValue('textarea[name="task"]'), /Apple/);
    await page.context().close();
  });

  // The English words of the page's markup are read from it (i18n.js, readMarkup), not carried
  // twice: every word it names must show in both languages, never as its key, and English again
  // after Chinese must be the English the page opened with.
  it("every word the markup names is said in English and in Chinese, and English comes back", async () => {
    const page = await openPage(env);
    const words = () =>
      page.evaluate(() => {
        const out = [];
        for (const el of document.querySelectorAll("[data-i18n]")) out.push([el.dataset.i18n, el.textContent.replace(/\s+/g, " ").trim()]);
        for (const attr of ["placeholder", "title", "aria-label"]) {
          for (const el of document.querySelectorAll(`[data-i18n-${attr}]`)) out.push([el.getAttribute(`data-i18n-${attr}`), el.getAttribute(attr) ?? ""]);
        }
        return out;
      });
    const english = await words();
    assert.ok(english.length > 90, `only ${english.length} words named`);
    for (const [key, text] of english) assert.ok(text && text !== key, `"${key}" shows as ${JSON.stringify(text)} in English`);
    await page.selectOption('select[name="lang"]', "zh");
    await page.waitForFunction(() => document.documentElement.lang === "zh-CN");
    const chinese = await words();
    for (const [key, text] of chinese) assert.ok(text && text !== key, `"${key}" shows as ${JSON.stringify(text)} in Chinese`);
    const same = chinese.filter(([, text], i) => text === english[i][1]).map(([key]) => key);
    // Names a reader types or reads as they are (formats, providers, a product) stay the same.
    assert.ok(same.length < 15, `not in Chinese: ${same.join(", ")}`);
    await page.selectOption('select[name="lang"]', "en");
    await page.waitForFunction(() => document.documentElement.lang === "en");
    assert.deepEqual(await words(), english);
    assertClean(page);
    await page.context().close();
  });
});

describe("stop", () => {
  it("Stop aborts a slow run; the steps so far stay on screen", async () => {
    const page = await openPage(env);
    await page.selectOption('select[name="scenario"]', "apple-ceo");
    await page.selectOption('select[name="delayMs"]', "200");
    await page.click('button[data-action="run"]');
    // Streaming has visibly begun: the first step's raw text shows live while the model writes.
    await page.waitForSelector('tao-trajectory [data-step="1"] .raw-live', { timeout: 10000 });
    assert.equal(await page.getAttribute('tao-stats [data-stat="stop"]', "data-reason"), "running");
    assert.equal(await page.isDisabled('button[data-action="run"]'), true);
    // Stop once step 1 is complete and step 2 is streaming.
    await page.waitForSelector('tao-trajectory [data-step="2"] .raw-live', { timeout: 30000 });
    const observed = await texts(page, "observation");
    assert.equal(observed.length, 1, "step 1 had its observation before Stop");
    await page.click('button[data-action="stop"]');
    assert.equal(await waitStopped(page, 10000), "aborted");
    // The completed step is still there, drawn from the returned trajectory.
    const step1 = (await cards(page)).filter((c) => c.step === "1").map((c) => c.kind);
    assert.deepEqual(step1, ["thought", "action", "observation"]);
    assert.deepEqual(await texts(page, "observation"), observed);
    assert.equal((await texts(page, "answer")).length, 0);
    assert.equal(await page.getAttribute('tao-trajectory [data-kind="stop"]', "data-reason"), "aborted");
    assert.equal(await page.isEnabled('button[data-action="run"]'), true);
    assert.equal(await page.isDisabled('button[data-action="stop"]'), true);
    assertClean(page);
    await page.context().close();
  });
});

describe("share", () => {
  it("Share puts the settings in the address bar, with autorun", async () => {
    const page = await openPage(env);
    await page.selectOption('select[name="scenario"]', "water");
    await page.click('button[data-action="share"]');
    await page.waitForFunction(() => location.search.includes("autorun=1"));
    const q = new URL(page.url()).searchParams;
    assert.equal(q.get("scenario"), "water");
    assert.equal(q.get("format"), "mrkl");
    assert.equal(q.get("lang"), "en");
    assert.equal(q.get("task"), await page.inputValue('textarea[name="task"]'));
    assert.ok(![...q.keys()].some((k) => /key|token|secret/i.test(k)), `no key in ${q}`);
    assert.match(await page.textContent("[data-status]"), /address bar/);
    await page.context().close();
  });
});

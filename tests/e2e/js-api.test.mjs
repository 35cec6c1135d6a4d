// The JS API in Node, as transcripts: every built-in scenario in each text format, played by
// tao's scripted model and by a JS model function (the whole reply at once, and streamed through
// onDelta), plus an abort, a retried unreadable reply and a model that throws once (then
// resumed). Each case's events (one a line), trajectory (as JSON, its timings zeroed) and the
// prompts its JS model was given are written as text and compared with the case's transcript,
// tests/e2e/js-api/<case>.txt; a case that differs fails with a unified diff, and what it gave
// is left in tests/e2e/out/js-api/<case>.txt.
//
//   node --test tests/e2e/js-api.test.mjs                                        (needs pkg/: make build)
//   node --test --test-name-pattern=einstein tests/e2e/js-api.test.mjs           (some cases)
//   UPDATE_TRANSCRIPTS=1 node --test tests/e2e/js-api.test.mjs                   (record them again)
//
// After an intended change (a new field, the trajectory's next version), record them again and
// read the diff of tests/e2e/js-api/ in the commit: it is the change as a user of the API sees it.
// The transcripts were first recorded from the outputs that the JSON path (each event and
// trajectory written as JSON in Rust) gave, byte for byte (git log of js-api.digests.json).
// TAO_PKG=<folder> compares another build's pkg/. No browser.

import { describe, it, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { REPO_ROOT, requireBuilt } from "./server.mjs";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const TRANSCRIPTS = path.join(HERE, "js-api");
const OUT = path.join(HERE, "out", "js-api");
const PKG = process.env.TAO_PKG ?? path.join(REPO_ROOT, "pkg");
const UPDATE = process.env.UPDATE_TRANSCRIPTS === "1";
const FORMATS = ["mrkl", "paper", "act", "cot", "standard"];

// tao races each tool call against a timer (the tool's timeout, 30 s) that stays set when the
// tool answers first: nothing in a page, but in Node the last one kept this file's process
// alive for 30 s after its tests. The timers still set when the tests end are cleared.
const timers = new Set();
const setTimer = globalThis.setTimeout;
globalThis.setTimeout = (fn, ms, ...args) => {
  const timer = setTimer(() => (timers.delete(timer), fn(...args)), ms);
  timers.add(timer);
  return timer;
};
after(() => timers.forEach((timer) => clearTimeout(timer)));

if (!process.env.TAO_PKG) requireBuilt("pkg/tao_agent.js", "pkg/tao_agent_bg.wasm", "pkg/data/scenarios.json");
const tao = await import(pathToFileURL(path.join(PKG, "tao_agent.js")).href);
tao.initSync({ module: fs.readFileSync(path.join(PKG, "tao_agent_bg.wasm")) });
// The scenarios and the offline pages are data beside the wasm.
const data = (name) => fs.readFileSync(path.join(PKG, "data", `${name}.json`), "utf8");
tao.loadOfflineData({ scenarios: data("scenarios"), knowledge: data("knowledge") });

/** JSON with every timing (a key ending in ms / Ms) set to 0: all else is deterministic. */
const json = (value, indent) =>
  JSON.stringify(value, (key, v) => (/(^|_)ms$|Ms$/.test(key) && typeof v === "number" ? 0 : v), indent);

/**
 * A case as text: the events one a line (the type, then the rest as JSON), each trajectory as
 * JSON, and each prompt the JS model was given, message by message, the messages it shares with
 * the prompt before it (the ReAct prompt grows) named rather than repeated.
 */
function transcript(name, { events, runs, prompts }) {
  const lines = [
    `# ${name}: the events, trajectory and prompts of this case of tests/e2e/js-api.test.mjs`,
    "# (timings zeroed). After an intended change: UPDATE_TRANSCRIPTS=1 node --test tests/e2e/js-api.test.mjs",
    "",
    "== events",
  ];
  for (const { type, ...rest } of events) lines.push(`${type} ${json(rest)}`);
  runs.forEach((run, i) => lines.push("", runs.length > 1 ? `== trajectory ${i + 1}` : "== trajectory", json(run, 2)));
  let before = [];
  prompts.forEach((messages, i) => {
    let same = 0;
    while (same < messages.length && same < before.length && json(messages[same]) === json(before[same])) same++;
    lines.push("", `== prompt ${i + 1}${same ? `: messages 1-${same} as in prompt ${i}` : ""}`);
    messages.slice(same).forEach(({ role, content, ...rest }, k) => {
      const extra = Object.keys(rest).length ? ` ${json(rest)}` : "";
      const text = typeof content === "string" ? content : `(as JSON) ${json(content)}`;
      lines.push(`-- ${same + k + 1} ${role}${extra}`, text);
    });
    before = messages;
  });
  return lines.join("\n") + "\n";
}

/** A JS model replaying `replies` in order: whole, or streamed through onDelta in 7-char pieces. */
function replay(replies, { stream = false, throwAt = 0, garbageAt = 0, abortAt = 0, controller } = {}) {
  let n = 0, i = 0;
  return async (messages, { onDelta }) => {
    n++;
    // The prompt itself is part of what is compared, every message of it.
    prompts.push(JSON.parse(JSON.stringify(messages)));
    if (n === throwAt) throw new Error("the model is down for a moment");
    if (n === garbageAt) return "I am not sure what to do.";
    if (n === abortAt) controller.abort();
    const reply = replies[i++] ?? "Final Answer: out of replies";
    if (!stream) return reply;
    for (let k = 0; k < reply.length; k += 7) if (onDelta(reply.slice(k, k + 7)) === false) break;
  };
}
let prompts = [];

/** Runs one case: its events, trajectories (two when resumed) and the prompts a JS model saw. */
async function play(config, task, { resume = false, signal } = {}) {
  prompts = [];
  const agent = new tao.Agent(config);
  const events = [];
  const onEvent = (e) => events.push(e);
  let trajectory = await agent.run(task, { onEvent, signal });
  const runs = [trajectory];
  if (resume) {
    trajectory = await agent.resume(trajectory, { onEvent });
    runs.push(trajectory);
  }
  agent.free();
  return { events, runs, prompts, trajectory, stops: runs.map((t) => t.stop?.reason).join() };
}

/** The replies of a case's scripted model (played once, kept), for the JS models to replay. */
const scripted = new Map();
async function repliesOf(config, task) {
  const key = json(config);
  if (!scripted.has(key)) {
    const r = await play(config, task);
    scripted.set(key, r.trajectory.steps.flatMap((step) => step.model_calls.map((c) => c.raw)));
  }
  return scripted.get(key);
}

/** The cases: [name, a function giving its output, what else it must show]. */
function cases() {
  const out = [];
  // The scenarios whose tools are built in (the others need the page's wasm and JS tools).
  const builtin = tao.builtinTools();
  for (const s of tao.scenarios().filter((s) => s.tools.every((t) => builtin.includes(t)))) {
    for (const format of [...new Set([s.format, ...FORMATS])]) {
      const base = { scenario: s.name, format };
      const name = `${s.name}-${format}`;
      out.push([`${name}-scripted`, () => play(base, s.task)]);
      out.push([`${name}-js`, async () => play({ ...base, model: replay(await repliesOf(base, s.task)) }, s.task)]);
      out.push([`${name}-js-stream`, async () => play({ ...base, model: replay(await repliesOf(base, s.task), { stream: true }) }, s.task)]);
    }
  }
  // apple-ceo's replies in mrkl, as its scripted model writes them, for the special cases.
  const s = tao.scenarios().find((x) => x.name === "apple-ceo");
  const apple = () => repliesOf({ scenario: s.name }, s.task);
  out.push(["abort-at-call-2", async () => {
    const controller = new AbortController();
    const model = replay(await apple(), { abortAt: 2, controller, stream: true });
    return play({ scenario: s.name, model }, s.task, { signal: controller.signal });
  }, "aborted"]);
  out.push(["retry-after-garbage", async () => play({ scenario: s.name, retries: 1, model: replay(await apple(), { garbageAt: 2 }) }, s.task), "answer"]);
  out.push(["throws-once-then-resumed", async () => play({ scenario: s.name, model: replay(await apple(), { throwAt: 2 }) }, s.task, { resume: true }), "error,answer"]);
  return out;
}

/** `diff -u` of the transcript and what the case gave, its first lines (the files stay for more). */
function diff(expected, got) {
  try {
    execFileSync("diff", ["-u", expected, got], { encoding: "utf8" });
    return "";
  } catch (e) {
    const lines = (e.stdout || String(e)).split("\n");
    return lines.slice(0, 80).join("\n") + (lines.length > 80 ? `\n… (${lines.length - 80} more lines)` : "");
  }
}

describe("the JS API gives the events, trajectories and prompts of tests/e2e/js-api/", () => {
  const all = cases();
  for (const [name, run, stops] of all) {
    it(name, async () => {
      const r = await run();
      // What the case is named for, so that a transcript of a broken run cannot be recorded unseen.
      assert.ok(r.events.length > 3, `${r.events.length} events`);
      if (stops) assert.equal(r.stops, stops);
      const text = transcript(name, r);
      const file = path.join(TRANSCRIPTS, `${name}.txt`);
      if (UPDATE) {
        fs.mkdirSync(TRANSCRIPTS, { recursive: true });
        fs.writeFileSync(file, text);
        return;
      }
      assert.ok(fs.existsSync(file), `${path.relative(REPO_ROOT, file)} is missing: record it with UPDATE_TRANSCRIPTS=1`);
      const expected = fs.readFileSync(file, "utf8");
      if (text === expected) return;
      fs.mkdirSync(OUT, { recursive: true });
      const got = path.join(OUT, `${name}.txt`);
      fs.writeFileSync(got, text);
      assert.fail(`${name} differs from its transcript (- transcript, + this build; ` +
        `UPDATE_TRANSCRIPTS=1 records it if the change is intended):\n${diff(file, got)}`);
    });
  }

  it("every transcript belongs to a case", () => {
    const names = new Set(all.map(([name]) => `${name}.txt`));
    const stale = fs.readdirSync(TRANSCRIPTS).filter((f) => !names.has(f));
    if (UPDATE) for (const f of stale) fs.rmSync(path.join(TRANSCRIPTS, f));
    else assert.deepEqual(stale, [], "transcripts of no case (UPDATE_TRANSCRIPTS=1 removes them)");
  });
});

describe("the JS API's texts, scores and languages", () => {
  // A listener's texts that are part of the last string JS handed tao (a reply, a tool's answer)
  // are taken from that string, not decoded again (values.rs's `Copied`): ASCII only, a long
  // string not at all. Whatever they are made of, they are the trajectory's texts.
  it("an event's texts are the trajectory's, whatever the reply and the tool's answer hold", async () => {
    const long = "echo ".repeat(4000); // 20,000 bytes: longer than any string kept
    const replies = [
      "Thought: echo the echo\nAction: echo\nAction Input: echo", // each part met earlier in the reply
      "Thought: 我需要查一下。\nAction: echo\nAction Input: 北京", // not ASCII
      'I will pass JSON.\nAction: echo\nAction Input: {"q": "x\u00e9"}',
      "Thought: one more\nAction: echo\nAction Input: long",
      "Thought: a tool's answer that is not ASCII\nAction: echo\nAction Input: 🙂",
      "Thought: done, echo\nFinal Answer: echo — 好",
    ];
    const answers = { echo: "echo", 北京: "北京 is Beijing", long, "🙂": "\ud83d" }; // the last: a lone surrogate
    for (const stream of [false, true]) {
      const agent = new tao.Agent({ model: replay(replies, { stream }), format: "mrkl", maxSteps: 8 });
      agent.registerTool({ name: "echo", description: "Echoes." }, (input) =>
        typeof input === "string" ? answers[input] : { observation: `object ${input.q}` });
      const events = [];
      const t = await agent.run("Echo.", { onEvent: (e) => events.push(e) });
      agent.free();
      const of = (type) => events.filter((e) => e.type === type);
      const what = stream ? "streamed" : "whole";
      assert.equal(t.stop.reason, "answer", what);
      assert.equal(t.steps.length, replies.length, what);
      assert.deepEqual(of("thought").map((e) => e.text), t.steps.map((s) => s.thought), what);
      assert.deepEqual(of("action").map((e) => [e.tool, e.input]), t.steps.slice(0, -1).map((s) => [s.tool_calls[0].action.tool, s.tool_calls[0].action.input]), what);
      const short = (text) => (text === long ? "(the long answer)" : text); // (no 20 KB in a failure's message)
      assert.deepEqual(of("observation").map((e) => short(e.text)), t.steps.slice(0, -1).map((s) => short(s.tool_calls[0].observation)), what);
      assert.deepEqual(of("answer").map((e) => e.text), [t.answer], what);
      assert.deepEqual(t.steps.map((s) => short(s.tool_calls[0]?.observation ?? null)), ["echo", "北京 is Beijing", "object x\u00e9", "(the long answer)", "\ufffd", null], what);
      assert.equal(of("token").map((e) => e.text).join(""), replies.join(""), what);
    }
  });

  // The shipped core leaves the scores' code to the built-in tools' module (pkg/tao_tools*),
  // which the first call loads; the values are the paper's, as before.
  it("the paper's scores, vote and sample come as promises from the tools' module", async () => {
    const score = tao.scoreAnswer("hotpotqa", "Mobile, Alabama", "mobile alabama");
    assert.ok(score instanceof Promise);
    assert.deepEqual(await score, { em: 1, f1: 1 });
    assert.deepEqual(await tao.scoreAnswer("fever", undefined, "SUPPORTS"), { em: 0, f1: 0 });
    await assert.rejects(tao.scoreAnswer("squad", "a", "b"), { kind: "config", message: /unknown dataset "squad"/ });
    assert.deepEqual(await tao.vote(["Ulm", "ulm", "Munich"]), { answer: "Ulm", count: 2, of: 3 });
    assert.equal(await tao.vote([null, undefined]), null);
    // The paper's HotpotQA sample (tests/eval.rs checks it against the paper's own indices).
    const sample = await tao.paperSample(7405, 500);
    assert.deepEqual(sample.slice(0, 10), [3687, 6238, 5388, 3522, 3824, 2866, 1551, 2544, 1557, 5762]);
    assert.equal(sample[499], 4082);
  });

  // The shipped core leaves the long Chinese texts to pkg/data/zh.json: before they are loaded, a
  // Chinese agent, or a Chinese trajectory given to any agent, is refused with the way to load
  // them; after, the prompt is the Chinese one.
  it("the Chinese prompts are loaded before an agent or a trajectory in Chinese", async () => {
    const zh = { scenario: "apple-ceo", lang: "zh" };
    assert.throws(() => new tao.Agent(zh), { kind: "config", message: /the Chinese prompts are not loaded: call loadOfflineData\(\{zh\}\)/ });
    const english = new tao.Agent({ scenario: "apple-ceo" });
    const trajectory = { ...english.start("苹果公司现任 CEO 的家乡是哪里?"), lang: "zh" };
    assert.throws(() => english.promptAt(trajectory, 1), { kind: "config", message: /the Chinese prompts are not loaded/ });
    assert.throws(() => tao.loadOfflineData({ zh: "{}" }), { message: /the Chinese texts are invalid: `mrkl` is missing/ });
    tao.loadOfflineData({ zh: fs.readFileSync(path.join(PKG, "data", "zh.json"), "utf8") });
    const system = english.promptAt(trajectory, 1).messages[0].content;
    assert.match(system, /^尽你所能回答下面的问题。你可以使用以下工具:\n\nsearch: Searches/, "the trajectory's language, this agent's tools");
    const agent = new tao.Agent(zh);
    assert.match(agent.promptAt(agent.start("x"), 1).messages[0].content, /^尽你所能回答下面的问题。你可以使用以下工具:\n\nsearch: 搜索一个实体/);
    agent.free();
    english.free();
  });
});

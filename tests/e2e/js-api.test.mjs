// The JS API in Node, old path against new: every built-in scenario in each text format, played
// by tao's scripted model and by a JS model function (the whole reply at once, and streamed
// through onDelta), plus an abort, a retried unreadable reply and a model that throws once
// (then resumed), must give the events and the trajectory that the JSON path gave.
//
// The JSON path (each message, event and trajectory written as JSON in Rust and parsed in JS)
// was replaced by one that keeps the JS values of earlier messages between calls and builds
// events and trajectories as JS values; keeping the old path in the shipped wasm beside the new
// one would cost the bytes the size budget has not got. So the old path's output was recorded
// instead: `js-api.digests.json` holds, for each case, the number of events and a SHA-256 of
// the events and trajectory (timings zeroed), written with the build of the commit before the
// change:
//
//   git worktree add /tmp/tao-old bf7e599 && (cd /tmp/tao-old && scripts/build.sh)
//   RECORD=1 TAO_PKG=/tmp/tao-old/pkg node --test tests/e2e/js-api.test.mjs
//
// A case that differs writes what it got to out/js-api-<case>.json: run the same with
// DUMP=1 against the old build to get the file to diff it with.
//
// Needs the built wasm (`make build`); no browser.

import { describe, it, before } from "node:test";
import assert from "node:assert/strict";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { REPO_ROOT } from "./server.mjs";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const DIGESTS = path.join(HERE, "js-api.digests.json");
const OUT = path.join(HERE, "out");
const PKG = process.env.TAO_PKG ?? path.join(REPO_ROOT, "pkg");
const RECORD = process.env.RECORD === "1";
const DUMP = process.env.DUMP === "1";
const FORMATS = ["mrkl", "paper", "act", "cot", "standard"];

let tao;
before(async () => {
  tao = await import(pathToFileURL(path.join(PKG, "tao_agent.js")).href);
  tao.initSync({ module: fs.readFileSync(path.join(PKG, "tao_agent_bg.wasm")) });
  // The scenarios and the offline pages are data beside the wasm (builds before that had them
  // inside).
  if (tao.loadOfflineData) {
    const data = (name) => fs.readFileSync(path.join(PKG, "data", `${name}.json`), "utf8");
    tao.loadOfflineData({ scenarios: data("scenarios"), knowledge: data("knowledge") });
  }
});

/** The value with every timing (a key ending in ms / Ms) set to 0: all else is deterministic. */
const canonical = (value) =>
  JSON.stringify(value, (key, v) => (/(^|_)ms$|Ms$/.test(key) && typeof v === "number" ? 0 : v));

/** A JS model replaying `replies` in order: whole, or streamed through onDelta in 7-char pieces. */
function replay(replies, { stream = false, throwAt = 0, garbageAt = 0, abortAt = 0, controller } = {}) {
  let n = 0, i = 0;
  return async (messages, { onDelta }) => {
    n++;
    // The prompt itself is part of what is compared, every message of it.
    prompts.push(JSON.stringify(messages));
    if (n === throwAt) throw new Error("the model is down for a moment");
    if (n === garbageAt) return "I am not sure what to do.";
    if (n === abortAt) controller.abort();
    const reply = replies[i++] ?? "Final Answer: out of replies";
    if (!stream) return reply;
    for (let k = 0; k < reply.length; k += 7) if (onDelta(reply.slice(k, k + 7)) === false) break;
  };
}
let prompts = [];

/** Runs one case: the events and trajectory (and the prompts a JS model saw) as canonical JSON. */
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
  const stops = runs.map((t) => t.stop?.reason).join();
  return { text: canonical({ events, runs, prompts }), events: events.length, trajectory, stops };
}

/** The cases: name -> a function giving its output. */
function cases() {
  const out = [];
  // The scenarios whose tools are built in (the others need the page's wasm and JS tools).
  const builtin = tao.builtinTools();
  for (const s of tao.scenarios().filter((s) => s.tools.every((t) => builtin.includes(t)))) {
    for (const format of [...new Set([s.format, ...FORMATS])]) {
      const base = { scenario: s.name, format };
      const name = `${s.name}-${format}`;
      let replies;
      out.push([`${name}-scripted`, async () => {
        const r = await play(base, s.task);
        replies = r.trajectory.steps.flatMap((step) => step.calls.map((c) => c.raw));
        return r;
      }]);
      out.push([`${name}-js`, () => play({ ...base, model: replay(replies) }, s.task)]);
      out.push([`${name}-js-stream`, () => play({ ...base, model: replay(replies, { stream: true }) }, s.task)]);
    }
  }
  const s = tao.scenarios().find((x) => x.name === "apple-ceo");
  out.push(["abort-at-call-2", () => {
    const controller = new AbortController();
    const model = replay(APPLE, { abortAt: 2, controller, stream: true });
    return play({ scenario: s.name, model }, s.task, { signal: controller.signal });
  }]);
  out.push(["retry-after-garbage", () => play({ scenario: s.name, retries: 1, model: replay(APPLE, { garbageAt: 2 }) }, s.task)]);
  out.push(["throws-once-then-resumed", () => play({ scenario: s.name, model: replay(APPLE, { throwAt: 2 }) }, s.task, { resume: true })]);
  return out;
}

// apple-ceo's replies in mrkl, as its scripted model writes them (for the special cases).
let APPLE = [];

describe("the JS API gives the events and trajectories of the JSON path", () => {
  it("every scenario x format x model, an abort, a retry, a throw then resume", async () => {
    const recorded = RECORD ? {} : JSON.parse(fs.readFileSync(DIGESTS, "utf8"));
    const apple = await play({ scenario: "apple-ceo" }, tao.scenarios()[0].task);
    APPLE = apple.trajectory.steps.flatMap((step) => step.calls.map((c) => c.raw));
    const got = {}, stops = {};
    const differ = [];
    fs.mkdirSync(OUT, { recursive: true });
    for (const [name, run] of cases()) {
      const r = await run();
      const digest = crypto.createHash("sha256").update(r.text).digest("hex").slice(0, 16);
      got[name] = { events: r.events, digest };
      stops[name] = r.stops;
      if (DUMP) fs.writeFileSync(path.join(OUT, `js-api-${name}.old.json`), r.text);
      if (!RECORD && recorded[name]?.digest !== digest) {
        differ.push(name);
        fs.writeFileSync(path.join(OUT, `js-api-${name}.json`), r.text);
      }
    }
    if (RECORD) {
      fs.writeFileSync(DIGESTS, JSON.stringify(got, null, 1) + "\n");
      return;
    }
    assert.deepEqual(Object.keys(got), Object.keys(recorded), "the same cases");
    assert.deepEqual(differ, [], `cases that differ from the JSON path (see ${OUT})`);
    // The cases did what they are named for (so a digest of a broken run cannot pass unseen).
    assert.ok(Object.values(got).every((c) => c.events > 3));
    assert.equal(stops["abort-at-call-2"], "aborted");
    assert.equal(stops["retry-after-garbage"], "answer");
    assert.equal(stops["throws-once-then-resumed"], "error,answer");
  });

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
      assert.deepEqual(of("action").map((e) => [e.tool, e.input]), t.steps.slice(0, -1).map((s) => [s.action.tool, s.action.input]), what);
      const short = (text) => (text === long ? "(the long answer)" : text); // (no 20 KB in a failure's message)
      assert.deepEqual(of("observation").map((e) => short(e.text)), t.steps.slice(0, -1).map((s) => short(s.observation)), what);
      assert.deepEqual(of("answer").map((e) => e.text), [t.answer], what);
      assert.deepEqual(t.steps.map((s) => short(s.observation)), ["echo", "北京 is Beijing", "object x\u00e9", "(the long answer)", "\ufffd", null], what);
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

// Tests for the mock model `paper-bench` (paper-bench.mjs) and the benchmark fixtures the mock
// serves at /react-paper/: run with `node --test tests/mock/`. The mode is read from tao's own
// system prompts (the `PROMPT_EN` constants of src/format/*.rs), so a prompt that changes its
// words in a way the mock no longer recognises fails here, not in a browser test.

import assert from "node:assert/strict";
import fs from "node:fs";
import { after, before, test } from "node:test";
import { startMockLlm } from "./llm.mjs";
import { HOTPOTQA, FEVER, benchMode, benchReply } from "./paper-bench.mjs";

const FIXTURES = new URL("../fixtures/react-paper/", import.meta.url);
const read = (name) => fs.readFileSync(new URL(name, FIXTURES), "utf8");

let mock;
before(async () => {
  mock = await startMockLlm({ delayMs: 0 });
});
after(() => mock.close());

/** `pub const NAME: &str = "…";` of a Rust file, unescaped (null when the file or constant is missing). */
function rustConst(file, name) {
  const url = new URL(`../../src/format/${file}`, import.meta.url);
  if (!fs.existsSync(url)) return null;
  const m = fs.readFileSync(url, "utf8").match(new RegExp(`pub const ${name}: &str = "((?:[^"\\\\]|\\\\.)*)";`));
  return m ? m[1].replace(/\\\n\s*/g, "").replace(/\\(["\\])/g, "$1").replace(/\\n/g, "\n") : null;
}

test("the mode is read from each format's English system prompt, with or without the paper's exemplars", (t) => {
  const naive = JSON.parse(read("prompts_naive.json"));
  const fever = JSON.parse(read("prompts_fever.json"));
  const cases = [
    ["paper.rs", "react", "webthink_simple6", "webthink_simple3"],
    ["act.rs", "act", "webact_simple6", "webact_simple3"],
    ["cot.rs", "cot", "cotqa_simple6", "cotqa_simple3"],
    ["standard.rs", "standard", "webqa_simple6", "webqa_simple3"],
  ];
  for (const [file, mode, hotpotKey, feverKey] of cases) {
    const prompt = rustConst(file, "PROMPT_EN");
    if (prompt === null) {
      t.diagnostic(`src/format/${file} has no PROMPT_EN yet: skipped`);
      continue;
    }
    assert.equal(benchMode(prompt), mode, `${file}'s prompt`);
    assert.equal(benchMode(`${prompt}\n${naive[hotpotKey]}`), mode, `${file} + ${hotpotKey}`);
    assert.equal(benchMode(`${prompt}\n${fever[feverKey]}`), mode, `${file} + ${feverKey}`);
  }
});

test("the answer table covers exactly the fixtures' questions and claims, in the files' order", () => {
  const questions = JSON.parse(read("hotpot_dev_v1_simplified.json"));
  assert.deepEqual(HOTPOTQA.map((q) => q.question), questions.map((q) => q.question));
  for (const q of questions) assert.ok(q.answer, `a gold answer for ${q.question}`);
  const claims = read("paper_dev.jsonl").trim().split("\n").map((line) => JSON.parse(line));
  assert.deepEqual(FEVER.map((c) => c.claim), claims.map((c) => c.claim));
  for (const c of claims) assert.ok(["SUPPORTS", "REFUTES", "NOT ENOUGH INFO"].includes(c.label));
});

test("each mode's replies, as transcripts", () => {
  const q = "Question: Which river flows past the city where Albert Einstein was born?";
  const react = "Solve a question answering task with interleaving Thought, Action, Observation steps.";
  const act = "Solve a question answering task with interleaving Action, Observation steps.";
  const cot = "Solve a question answering task. There are no tools: think step by step about what you know, then give the answer.";
  const standard = "Answer the question directly.";
  assert.equal(benchReply(react, q, 1), "Thought 1: I need to search Ulm and find the answer there.\nAction 1: Search[Ulm]");
  assert.equal(benchReply(react, q, 2), "Thought 2: The page tells me enough: the answer is the River Danube.\nAction 2: Finish[the River Danube]");
  assert.equal(benchReply(act, q, 1), "Action 1: Search[Ulm]");
  assert.equal(benchReply(act, q, 2), "Action 2: Finish[Danube]");
  assert.equal(benchReply(cot, q, 1), "Thought: Let's think step by step. I recall what I know about Ulm. So the answer is Danube.\nAnswer: Danube");
  assert.equal(benchReply(standard, q, 1), "Answer: Rhine");
  // A FEVER claim, behind the paper's "Claim:" prefix.
  assert.equal(benchReply(act, "Question: Claim: Ulm lies on the River Thames.", 2), "Action 2: Finish[NOT ENOUGH INFO]");
  // A question it does not know.
  assert.equal(benchReply(standard, "Question: What is the capital of Peru?", 1), "Answer: unknown");
});

test("OpenAI route: ReAct searches, then finishes (the step is 1 + the assistant turns)", async () => {
  const system = { role: "system", content: "Solve a question answering task with interleaving Thought, Action, Observation steps." };
  const question = { role: "user", content: "Question: How long does a year on the planet Mercury last?" };
  const ask = (messages, stream = false) =>
    fetch(`${mock.url}/v1/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ model: "paper-bench", messages, stream, stop: ["\nObservation 1:"] }),
    });
  const first = await (await ask([system, question])).json();
  assert.equal(first.choices[0].message.content, "Thought 1: I need to search Mercury (planet) and find the answer there.\nAction 1: Search[Mercury (planet)]");
  const turn = { role: "assistant", content: first.choices[0].message.content };
  const observation = { role: "user", content: "Observation 1: Mercury is the first planet from the Sun." };
  const streamed = await (await ask([system, question, turn, observation], true)).text();
  const text = streamed.split("\n").filter((l) => l.startsWith("data: {")).map((l) => JSON.parse(l.slice(6)).choices[0]?.delta.content ?? "").join("");
  assert.equal(text, "Thought 2: The page tells me enough: the answer is 88 days.\nAction 2: Finish[88 days]");
});

test("Anthropic route: the mode from `system`; Standard answers at once", async () => {
  const res = await fetch(`${mock.url}/v1/messages`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-api-key": "k", "anthropic-version": "2023-06-01" },
    body: JSON.stringify({
      model: "paper-bench",
      max_tokens: 100,
      system: "Answer the question directly. There are no tools.",
      messages: [{ role: "user", content: [{ type: "text", text: "Question: Claim: Mercury is a gas at room temperature." }] }],
    }),
  });
  assert.equal(res.status, 200);
  assert.equal((await res.json()).content[0].text, "Answer: SUPPORTS");
});

test("the fixtures are served at /react-paper/ with CORS, and nothing else is", async () => {
  mock.reset();
  const res = await fetch(`${mock.url}/react-paper/hotpot_dev_v1_simplified.json`);
  assert.equal(res.status, 200);
  assert.equal(res.headers.get("access-control-allow-origin"), "*");
  assert.equal((await res.json()).length, 12);
  assert.equal((await fetch(`${mock.url}/react-paper/prompts_fever.json`)).status, 200);
  assert.equal((await fetch(`${mock.url}/react-paper/missing.json`)).status, 404);
  assert.equal((await fetch(`${mock.url}/react-paper/..%2Fllm.mjs`)).status, 404);
  assert.equal(mock.log.length, 0, "fixture requests are not logged as model calls");
});

// Tests for the mock LLM server (llm.mjs), run with `node --test tests/mock/`. They talk to it
// the way the browser client will, with Node's global fetch, and decode the server-sent events by
// hand (parseSse below) so that what is checked is the bytes on the wire: each vendor's
// documented chunk and event shapes, the scripted ReAct texts, stop sequences, tool-call
// fragments, CORS answers, every failure model's status and body, and the request log that
// end-to-end tests rely on (including `aborted` when the client hangs up mid-stream).

import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { once } from "node:events";
import { after, before, beforeEach, describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { startMockLlm, eventually } from "./llm.mjs";

const MRKL_1 = "Thought: I need to find out who the CEO of Apple is first.\nAction: search\nAction Input: current CEO of Apple";
const MRKL_2 = "Thought: The CEO is Tim Cook. Now I need his hometown.\nAction: search\nAction Input: Tim Cook hometown";
const MRKL_3 = "Thought: Tim Cook was born in Mobile, Alabama.\nFinal Answer: Mobile, Alabama";
const PAPER_2 = "Thought 2: The CEO of Apple is Tim Cook. I need to search Tim Cook to find his hometown.\nAction 2: Search[Tim Cook]";
const TASK = "What is the hometown of the current CEO of Apple Inc.?";

let mock;
before(async () => {
  mock = await startMockLlm({ delayMs: 1 });
});
after(() => mock.close());
beforeEach(() => mock.reset());

// --- helpers -----------------------------------------------------------------------------------

/** Splits an SSE body into events: `{ event, data, comment }` (data lines joined by "\n"). */
function parseSse(text) {
  const events = [];
  for (const block of text.split(/\r\n\r\n|\n\n/)) {
    if (!block.trim()) continue;
    const ev = { event: null, data: null, comment: null };
    for (const line of block.split(/\r\n|\n/)) {
      if (line.startsWith(":")) ev.comment = line.slice(1).trim();
      else if (line.startsWith("event:")) ev.event = line.slice(6).trim();
      else if (line.startsWith("data:")) ev.data = (ev.data === null ? "" : ev.data + "\n") + line.slice(5).replace(/^ /, "");
    }
    events.push(ev);
  }
  return events;
}

/** The JSON payloads of an OpenAI stream (without comments and the final [DONE]). */
const openaiChunks = (events) => events.filter((e) => e.data !== null && e.data !== "[DONE]").map((e) => JSON.parse(e.data));
const openaiText = (chunks) => chunks.map((c) => c.choices[0]?.delta.content ?? "").join("");
const anthropicText = (events) =>
  events.filter((e) => e.event === "content_block_delta").map((e) => JSON.parse(e.data).delta.text ?? "").join("");

const user = (content = TASK) => ({ role: "user", content });

function openai(body, headers = {}, init = {}) {
  return fetch(`${mock.url}/v1/chat/completions`, {
    ...init,
    method: "POST",
    headers: { "content-type": "application/json", authorization: "Bearer sk-test", ...headers },
    body: JSON.stringify({ messages: [user()], ...body }),
  });
}

const ANTHROPIC_HEADERS = { "content-type": "application/json", "x-api-key": "sk-ant-test", "anthropic-version": "2023-06-01" };
function anthropic(body, headers = ANTHROPIC_HEADERS) {
  return fetch(`${mock.url}/v1/messages`, {
    method: "POST",
    headers,
    body: JSON.stringify({ max_tokens: 512, messages: [user()], ...body }),
  });
}

/** Reads a streamed body to the end, or to the error that ends it; returns both. */
async function readAll(res) {
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let text = "";
  let error = null;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
  } catch (err) {
    error = err;
  }
  return { text, error };
}

// --- OpenAI Chat Completions -------------------------------------------------------------------

describe("OpenAI streaming", () => {
  test("react-mrkl step 1: role chunk, text pieces, finish chunk, usage chunk, [DONE]", async () => {
    const res = await openai({ model: "react-mrkl", stream: true, stream_options: { include_usage: true } });
    assert.equal(res.status, 200);
    assert.match(res.headers.get("content-type"), /^text\/event-stream/);
    assert.equal(res.headers.get("access-control-allow-origin"), "*");
    const raw = await res.text();
    assert.ok(!raw.includes("\r"), "plain \\n line endings");
    const events = parseSse(raw);
    assert.equal(events.at(-1).data, "[DONE]");
    assert.equal(events.filter((e) => e.comment === "keep-alive").length, 1);

    const chunks = openaiChunks(events);
    for (const c of chunks) {
      assert.equal(c.object, "chat.completion.chunk");
      assert.equal(c.model, "react-mrkl");
      assert.match(c.id, /^chatcmpl-/);
      assert.equal(typeof c.created, "number");
    }
    assert.deepEqual(chunks[0].choices, [{ index: 0, delta: { role: "assistant", content: "" }, logprobs: null, finish_reason: null }]);
    const usage = chunks.at(-1);
    assert.deepEqual(usage.choices, []);
    const promptTokens = Math.ceil(TASK.length / 4);
    const completionTokens = Math.ceil(MRKL_1.length / 4);
    assert.deepEqual(usage.usage, { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens });
    const finish = chunks.at(-2);
    assert.deepEqual(finish.choices[0].delta, {});
    assert.equal(finish.choices[0].finish_reason, "stop");
    // Every other chunk carries `usage: null` when include_usage is on.
    assert.ok(chunks.slice(0, -1).every((c) => c.usage === null));

    const textChunks = chunks.filter((c) => c.choices[0]?.delta.content);
    assert.ok(textChunks.length > 10);
    for (const c of textChunks) {
      const n = c.choices[0].delta.content.length;
      assert.ok(n >= 1 && n <= 6, `piece of ${n} characters`);
    }
    assert.equal(openaiText(chunks), MRKL_1);
  });

  test("without include_usage: no usage chunk and no usage field", async () => {
    const chunks = openaiChunks(parseSse(await (await openai({ model: "react-mrkl", stream: true })).text()));
    assert.ok(chunks.every((c) => c.choices.length === 1 && !("usage" in c)));
    assert.equal(openaiText(chunks), MRKL_1);
  });

  test("the step is 1 + the assistant turns in messages", async () => {
    const two = [user(), { role: "assistant", content: MRKL_1 }, user("Observation: Tim Cook")];
    let chunks = openaiChunks(parseSse(await (await openai({ model: "react-mrkl", stream: true, messages: two })).text()));
    assert.equal(openaiText(chunks), MRKL_2);
    const three = [...two, { role: "assistant", content: MRKL_2 }, user("Observation: Mobile")];
    chunks = openaiChunks(parseSse(await (await openai({ model: "react-mrkl", stream: true, messages: three })).text()));
    assert.equal(openaiText(chunks), MRKL_3);
    chunks = openaiChunks(parseSse(await (await openai({ model: "react-paper", stream: true, messages: two })).text()));
    assert.equal(openaiText(chunks), PAPER_2);
  });

  test("stop (string or array) cuts the reply before the first match", async () => {
    let chunks = openaiChunks(parseSse(await (await openai({ model: "react-mrkl", stream: true, stop: "\nAction Input:" })).text()));
    assert.equal(openaiText(chunks), "Thought: I need to find out who the CEO of Apple is first.\nAction: search");
    assert.equal(chunks.at(-1).choices[0].finish_reason, "stop");
    chunks = openaiChunks(parseSse(await (await openai({ model: "react-mrkl", stream: true, stop: ["\nObservation:", "Action:"] })).text()));
    assert.equal(openaiText(chunks), "Thought: I need to find out who the CEO of Apple is first.\n");
  });

  test("react-tools: tool_calls deltas assemble to one search call", async () => {
    const res = await openai({ model: "react-tools", stream: true, tools: [{ type: "function", function: { name: "search", parameters: {} } }] });
    const chunks = openaiChunks(parseSse(await res.text()));
    assert.equal(openaiText(chunks), "I need to find out who the CEO of Apple is.");
    const calls = chunks.flatMap((c) => c.choices[0].delta.tool_calls ?? []);
    assert.deepEqual(calls[0], { index: 0, id: "call_mock_1", type: "function", function: { name: "search", arguments: "" } });
    const fragments = calls.slice(1);
    assert.ok(fragments.length >= 4);
    for (const f of fragments) {
      assert.deepEqual(Object.keys(f), ["index", "function"]);
      assert.equal(f.index, 0);
      assert.ok(f.function.arguments.length >= 3 && f.function.arguments.length <= 5 || f === fragments.at(-1));
    }
    const args = fragments.map((f) => f.function.arguments).join("");
    assert.deepEqual(JSON.parse(args), { query: "current CEO of Apple" });
    assert.equal(chunks.at(-1).choices[0].finish_reason, "tool_calls");

    // Step 2 after an assistant tool_calls message and a tool result; step 3 answers in text.
    const history = [
      user(),
      { role: "assistant", content: null, tool_calls: [{ id: "call_mock_1", type: "function", function: { name: "search", arguments: args } }] },
      { role: "tool", tool_call_id: "call_mock_1", content: "Tim Cook is the CEO of Apple." },
    ];
    let next = openaiChunks(parseSse(await (await openai({ model: "react-tools", stream: true, messages: history })).text()));
    const args2 = next.flatMap((c) => c.choices[0].delta.tool_calls ?? []).map((t) => t.function.arguments).join("");
    assert.deepEqual(JSON.parse(args2), { query: "Tim Cook hometown" });
    history.push({ role: "assistant", content: null, tool_calls: [{ id: "call_mock_2", type: "function", function: { name: "search", arguments: args2 } }] });
    history.push({ role: "tool", tool_call_id: "call_mock_2", content: "Mobile, Alabama" });
    next = openaiChunks(parseSse(await (await openai({ model: "react-tools", stream: true, messages: history })).text()));
    assert.equal(openaiText(next), "The hometown of Apple's CEO, Tim Cook, is Mobile, Alabama.");
    assert.equal(next.at(-1).choices[0].finish_reason, "stop");
    assert.ok(next.every((c) => !c.choices[0].delta.tool_calls));
  });

  test("-crlf models use \\r\\n line endings throughout", async () => {
    const raw = await (await openai({ model: "react-mrkl-crlf", stream: true })).text();
    assert.ok(raw.includes("\r\n\r\n"));
    assert.ok(!/[^\r]\n/.test(raw), "no bare \\n");
    assert.equal(openaiText(openaiChunks(parseSse(raw))), MRKL_1);
  });

  test("non-streamed chat.completion, with and without a tool call", async () => {
    let res = await openai({ model: "react-mrkl" });
    assert.match(res.headers.get("content-type"), /^application\/json/);
    let body = await res.json();
    assert.equal(body.object, "chat.completion");
    assert.deepEqual(body.choices[0].message, { role: "assistant", content: MRKL_1, refusal: null });
    assert.equal(body.choices[0].finish_reason, "stop");
    assert.equal(body.usage.completion_tokens, Math.ceil(MRKL_1.length / 4));
    res = await openai({ model: "react-tools" });
    body = await res.json();
    assert.equal(body.choices[0].finish_reason, "tool_calls");
    assert.deepEqual(body.choices[0].message.tool_calls, [
      { id: "call_mock_1", type: "function", function: { name: "search", arguments: '{"query":"current CEO of Apple"}' } },
    ]);
  });
});

// --- Anthropic Messages ------------------------------------------------------------------------

describe("Anthropic streaming", () => {
  test("react-tools: documented event order, text block then tool_use block", async () => {
    const res = await anthropic({ model: "react-tools", stream: true, tools: [{ name: "search", input_schema: { type: "object" } }] });
    assert.equal(res.status, 200);
    assert.match(res.headers.get("content-type"), /^text\/event-stream/);
    const events = parseSse(await res.text());
    // Each event's name matches its data's `type`.
    for (const e of events) assert.equal(JSON.parse(e.data).type, e.event);
    const order = events.map((e) => e.event).filter((name, i, all) => name !== all[i - 1]);
    assert.deepEqual(order, [
      "message_start", "content_block_start", "ping", "content_block_delta", "content_block_stop",
      "content_block_start", "content_block_delta", "content_block_stop", "message_delta", "message_stop",
    ]);
    const data = events.map((e) => JSON.parse(e.data));
    const start = data[0].message;
    assert.equal(start.role, "assistant");
    assert.deepEqual(start.content, []);
    assert.deepEqual(start.usage, { input_tokens: Math.ceil(TASK.length / 4), output_tokens: 1 });
    assert.deepEqual(data[1], { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } });
    assert.equal(anthropicText(events), "I need to find out who the CEO of Apple is.");

    const toolStart = data.find((d) => d.type === "content_block_start" && d.index === 1);
    assert.deepEqual(toolStart.content_block, { type: "tool_use", id: "toolu_mock_1", name: "search", input: {} });
    const partial = data.filter((d) => d.delta?.type === "input_json_delta");
    assert.ok(partial.every((d) => d.index === 1));
    assert.deepEqual(JSON.parse(partial.map((d) => d.delta.partial_json).join("")), { query: "current CEO of Apple" });
    const delta = data.at(-2);
    assert.deepEqual(delta.delta, { stop_reason: "tool_use", stop_sequence: null });
    assert.equal(delta.usage.output_tokens, Math.ceil(("I need to find out who the CEO of Apple is." + '{"query":"current CEO of Apple"}').length / 4));
  });

  test("react-tools step 3 (after tool_result blocks) ends with end_turn", async () => {
    const messages = [
      user(),
      { role: "assistant", content: [{ type: "tool_use", id: "toolu_mock_1", name: "search", input: { query: "current CEO of Apple" } }] },
      { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_mock_1", content: "Tim Cook" }] },
      { role: "assistant", content: [{ type: "tool_use", id: "toolu_mock_2", name: "search", input: { query: "Tim Cook hometown" } }] },
      { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_mock_2", content: "Mobile, Alabama" }] },
    ];
    const events = parseSse(await (await anthropic({ model: "react-tools", stream: true, messages })).text());
    assert.equal(anthropicText(events), "The hometown of Apple's CEO, Tim Cook, is Mobile, Alabama.");
    assert.equal(JSON.parse(events.at(-2).data).delta.stop_reason, "end_turn");
    assert.ok(!events.some((e) => e.data.includes("tool_use")));
    // input tokens count the text of tool results too.
    const chars = TASK.length + "Tim Cook".length + "Mobile, Alabama".length;
    assert.equal(JSON.parse(events[0].data).message.usage.input_tokens, Math.ceil(chars / 4));
  });

  test("stop_sequences: stop_reason stop_sequence with the matched string", async () => {
    const events = parseSse(await (await anthropic({ model: "react-mrkl", stream: true, stop_sequences: ["\nAction Input:"] })).text());
    assert.equal(anthropicText(events), "Thought: I need to find out who the CEO of Apple is first.\nAction: search");
    assert.deepEqual(JSON.parse(events.at(-2).data).delta, { stop_reason: "stop_sequence", stop_sequence: "\nAction Input:" });
    assert.equal(events.at(-1).event, "message_stop");
  });

  test("non-streamed message object", async () => {
    const body = await (await anthropic({ model: "react-tools" })).json();
    assert.equal(body.type, "message");
    assert.deepEqual(body.content, [
      { type: "text", text: "I need to find out who the CEO of Apple is." },
      { type: "tool_use", id: "toolu_mock_1", name: "search", input: { query: "current CEO of Apple" } },
    ]);
    assert.equal(body.stop_reason, "tool_use");
    assert.equal(body.usage.input_tokens, Math.ceil(TASK.length / 4));
  });

  test("header checks: x-api-key, anthropic-version, browser access with an Origin", async () => {
    const { "x-api-key": _k, ...noKey } = ANTHROPIC_HEADERS;
    let res = await anthropic({ model: "react-mrkl" }, noKey);
    assert.equal(res.status, 401);
    assert.deepEqual(await res.json(), { type: "error", error: { type: "authentication_error", message: "x-api-key header is required" } });

    const { "anthropic-version": _v, ...noVersion } = ANTHROPIC_HEADERS;
    res = await anthropic({ model: "react-mrkl" }, noVersion);
    assert.equal(res.status, 400);
    assert.deepEqual(await res.json(), { type: "error", error: { type: "invalid_request_error", message: "anthropic-version: header is required" } });

    res = await anthropic({ model: "react-mrkl" }, { ...ANTHROPIC_HEADERS, origin: "http://127.0.0.1:8000" });
    assert.equal(res.status, 401);
    assert.equal(res.headers.get("access-control-allow-origin"), "*");
    assert.deepEqual(await res.json(), {
      type: "error",
      error: { type: "authentication_error", message: "CORS requests must set 'anthropic-dangerous-direct-browser-access' header" },
    });

    res = await anthropic({ model: "react-mrkl" }, { ...ANTHROPIC_HEADERS, origin: "http://127.0.0.1:8000", "anthropic-dangerous-direct-browser-access": "true" });
    assert.equal(res.status, 200);
    assert.equal((await res.json()).content[0].text, MRKL_1);
  });
});

// --- CORS, routes, log -------------------------------------------------------------------------

describe("CORS and routes", () => {
  const preflight = (headers) =>
    fetch(`${mock.url}/v1/messages`, {
      method: "OPTIONS",
      headers: { origin: "http://127.0.0.1:8000", "access-control-request-method": "POST", "access-control-request-headers": headers },
    });

  test("preflight with the allowed headers", async () => {
    const res = await preflight("content-type,x-api-key,anthropic-version,anthropic-dangerous-direct-browser-access");
    assert.equal(res.status, 204);
    assert.equal(res.headers.get("access-control-allow-origin"), "*");
    assert.equal(res.headers.get("access-control-allow-methods"), "GET, POST, OPTIONS");
    assert.equal(res.headers.get("access-control-allow-headers"), "authorization, content-type, x-api-key, anthropic-version, anthropic-dangerous-direct-browser-access");
    assert.equal(res.headers.get("access-control-max-age"), "0");
    assert.equal(mock.log.length, 1);
    assert.equal(mock.log[0].method, "OPTIONS");
    assert.equal(mock.log[0].status, 204);
  });

  test("preflight asking for an extra header gets no Access-Control-* headers", async () => {
    const res = await preflight("content-type, x-stainless-os");
    assert.equal(res.status, 204);
    assert.deepEqual([...res.headers.keys()].filter((k) => k.startsWith("access-control-")), []);
    assert.equal(mock.log[0].headers["access-control-request-headers"], "content-type, x-stainless-os");
  });

  test("no-cors answers without CORS headers; normal answers expose retry-after", async () => {
    let res = await openai({ model: "no-cors" });
    assert.equal(res.status, 200);
    assert.deepEqual([...res.headers.keys()].filter((k) => k.startsWith("access-control-")), []);
    assert.equal((await res.json()).choices[0].message.content, MRKL_1);
    res = await openai({ model: "react-mrkl" });
    assert.equal(res.headers.get("access-control-expose-headers"), "retry-after");
    await res.body.cancel();
  });

  test("unknown path: 404 page not found; /v1/models lists the models", async () => {
    let res = await fetch(`${mock.url}/api/chat/completions`, { method: "POST", body: "{}" });
    assert.equal(res.status, 404);
    assert.match(res.headers.get("content-type"), /^text\/plain/);
    assert.equal(await res.text(), "404 page not found");
    res = await fetch(`${mock.url}/v1/models`);
    const list = await res.json();
    assert.equal(list.object, "list");
    assert.ok(list.data.some((m) => m.id === "react-tools" && m.object === "model"));
  });

  test("log records, GET /__log and POST /__reset", async () => {
    await (await openai({ model: "react-mrkl", stream: true })).text();
    assert.equal(mock.log.length, 1);
    const r = mock.log[0];
    assert.equal(r.method, "POST");
    assert.equal(r.path, "/v1/chat/completions");
    assert.equal(r.headers.authorization, "Bearer sk-test");
    assert.equal(r.model, "react-mrkl");
    assert.deepEqual(r.json.messages, [user()]);
    assert.equal(JSON.parse(r.body).model, "react-mrkl");
    assert.equal(r.status, 200);
    assert.equal(r.sentChars, MRKL_1.length);
    assert.equal(r.totalChars, MRKL_1.length);
    assert.equal(r.aborted, false);
    assert.equal(typeof r.time, "number");

    const res = await fetch(`${mock.url}/__log`);
    assert.equal(res.headers.get("access-control-allow-origin"), "*");
    const remote = await res.json();
    assert.equal(remote.length, 1, "/__log itself is not logged");
    assert.equal(remote[0].model, "react-mrkl");
    assert.equal((await fetch(`${mock.url}/__reset`, { method: "POST" })).status, 200);
    assert.equal(mock.log.length, 0);
  });
});

// --- Failure models ----------------------------------------------------------------------------

describe("failures", () => {
  const openaiFailures = [
    ["fail-401", 401, { message: "Incorrect API key provided: ****************1234. You can find your API key at https://platform.openai.com/account/api-keys.", type: "invalid_request_error", param: null, code: "invalid_api_key" }],
    ["fail-403", 403, { message: "Country, region, or territory not supported", type: "request_forbidden", param: null, code: "unsupported_country_region_territory" }],
    ["fail-404", 404, { message: "The model `fail-404` does not exist or you do not have access to it.", type: "invalid_request_error", param: null, code: "model_not_found" }],
    ["fail-context", 400, { message: "This model's maximum context length is 8192 tokens. However, your messages resulted in 9000 tokens. Please reduce the length of the messages.", type: "invalid_request_error", param: "messages", code: "context_length_exceeded" }],
    ["fail-500-always", 500, { message: "The server had an error while processing your request. Sorry about that!", type: "server_error", param: null, code: null }],
  ];
  for (const [model, status, error] of openaiFailures) {
    test(`OpenAI ${model}: ${status}`, async () => {
      const res = await openai({ model, stream: true }, { authorization: "Bearer sk-test-abcdefgh1234" });
      assert.equal(res.status, status);
      assert.match(res.headers.get("content-type"), /^application\/json/);
      assert.equal(res.headers.get("access-control-allow-origin"), "*");
      assert.deepEqual(await res.json(), { error });
      assert.equal(mock.log[0].status, status);
    });
  }

  const anthropicFailures = [
    ["fail-401", 401, "authentication_error", "invalid x-api-key"],
    ["fail-403", 403, "permission_error", "Your API key does not have permission to use the specified resource."],
    ["fail-404", 404, "not_found_error", "model: fail-404"],
    ["fail-context", 400, "invalid_request_error", "prompt is too long: 210000 tokens > 200000 maximum"],
    ["fail-500-always", 500, "api_error", "Internal server error"],
  ];
  for (const [model, status, type, message] of anthropicFailures) {
    test(`Anthropic ${model}: ${status} ${type}`, async () => {
      const res = await anthropic({ model, stream: true });
      assert.equal(res.status, status);
      assert.deepEqual(await res.json(), { type: "error", error: { type, message } });
    });
  }

  test("no-tools refuses a tools field, answers without one", async () => {
    let res = await openai({ model: "no-tools", tools: [] });
    assert.equal(res.status, 400);
    assert.deepEqual(await res.json(), { error: { message: "registry.ollama.ai/library/no-tools:latest does not support tools", type: "api_error", param: null, code: null } });
    res = await anthropic({ model: "no-tools", tools: [] });
    assert.equal(res.status, 400);
    assert.deepEqual((await res.json()).error, { type: "invalid_request_error", message: "tools: this model does not support tools" });
    res = await openai({ model: "no-tools", messages: TEXT_REACT });
    assert.equal((await res.json()).choices[0].message.content, MRKL_1);
  });

  test("no-tools and text-react refuse a fallback request that is not text ReAct", async () => {
    for (const model of ["no-tools", "text-react"]) {
      let res = await openai({ model, messages: [{ role: "system", content: "Answer; call tools." }, { role: "user", content: "Q?" }] });
      assert.equal(res.status, 400);
      assert.match((await res.json()).error.message, /must be text ReAct/);
      const history = [...TEXT_REACT, { role: "assistant", content: "", tool_calls: [{ id: "c1", type: "function", function: { name: "search", arguments: "{}" } }] }, { role: "tool", tool_call_id: "c1", content: "x" }];
      res = await openai({ model, messages: history });
      assert.equal(res.status, 400);
      res = await anthropic({ model, system: "Answer; call tools.", messages: [{ role: "user", content: "Q?" }] });
      assert.equal(res.status, 400);
      res = await anthropic({ model, system: TEXT_REACT[0].content, messages: [{ role: "user", content: "Q?" }] });
      assert.equal(res.status, 200);
    }
  });

  /** The start of a text ReAct prompt, as a client sends it after falling back. */
  const TEXT_REACT = [
    { role: "system", content: "Use the following format:\nThought: ...\nAction: ...\nAction Input: ..." },
    { role: "user", content: "Question: Q?" },
  ];

  test("text-react answers in text even when tools are offered", async () => {
    const body = await (await openai({ model: "text-react", tools: [{ type: "function", function: { name: "search" } }] })).json();
    assert.equal(body.choices[0].message.content, MRKL_1);
    assert.equal(body.choices[0].message.tool_calls, undefined);
  });

  test("no-stop refuses stop / stop_sequences", async () => {
    let res = await openai({ model: "no-stop", stop: ["\nObservation:"] });
    assert.equal(res.status, 400);
    assert.deepEqual(await res.json(), { error: { message: "Unsupported parameter: 'stop' is not supported with this model.", type: "invalid_request_error", param: "stop", code: "unsupported_parameter" } });
    res = await anthropic({ model: "no-stop", stop_sequences: ["\nObservation:"] });
    assert.equal(res.status, 400);
    assert.equal((await res.json()).error.type, "invalid_request_error");
    res = await openai({ model: "no-stop" });
    assert.equal(res.status, 200);
    await res.body.cancel();
  });

  test("fail-429: two 429s with Retry-After, then success; reset clears the count", async () => {
    for (let i = 0; i < 2; i++) {
      const res = await openai({ model: "fail-429" });
      assert.equal(res.status, 429);
      assert.equal(res.headers.get("retry-after"), "1");
      const { error } = await res.json();
      assert.equal(error.code, "rate_limit_exceeded");
      assert.equal(error.type, "requests");
    }
    let res = await openai({ model: "fail-429" });
    assert.equal(res.status, 200);
    assert.equal((await res.json()).choices[0].message.content, MRKL_1);
    // The Anthropic route counts separately.
    res = await anthropic({ model: "fail-429" });
    assert.equal(res.status, 429);
    assert.equal(res.headers.get("retry-after"), "1");
    assert.equal((await res.json()).error.type, "rate_limit_error");
    mock.reset();
    res = await openai({ model: "fail-429" });
    assert.equal(res.status, 429);
    await res.body.cancel();
  });

  test("fail-429-always never lets through", async () => {
    for (let i = 0; i < 4; i++) {
      const res = await anthropic({ model: "fail-429-always" });
      assert.equal(res.status, 429);
      assert.equal(res.headers.get("retry-after"), "1");
      await res.body.cancel();
    }
  });

  test("fail-503: 503 (OpenAI) / 529 (Anthropic) twice, then success", async () => {
    for (let i = 0; i < 2; i++) {
      const res = await openai({ model: "fail-503" });
      assert.equal(res.status, 503);
      assert.deepEqual(await res.json(), { error: { message: "The server is overloaded", type: "server_error", param: null, code: null } });
    }
    assert.equal((await openai({ model: "fail-503" })).status, 200);
    for (let i = 0; i < 2; i++) {
      const res = await anthropic({ model: "fail-503" });
      assert.equal(res.status, 529);
      assert.deepEqual(await res.json(), { type: "error", error: { type: "overloaded_error", message: "Overloaded" } });
    }
    assert.equal((await anthropic({ model: "fail-503" })).status, 200);
  });

  test("OpenAI fail-401 without a key says so", async () => {
    const res = await fetch(`${mock.url}/v1/chat/completions`, { method: "POST", body: JSON.stringify({ model: "fail-401", messages: [user()] }) });
    assert.equal(res.status, 401);
    assert.match((await res.json()).error.message, /^You didn't provide an API key/);
  });
});

// --- Broken streams ----------------------------------------------------------------------------

describe("broken streams", () => {
  test("runaway ignores stop; the client hangs up after the invented Observation", async () => {
    const controller = new AbortController();
    const res = await openai({ model: "runaway", stream: true, stop: ["\nObservation:"] }, {}, { signal: controller.signal });
    assert.equal(res.status, 200);
    const reader = res.body.getReader();
    const decoder = new TextDecoder();
    let buffer = "";
    let text = "";
    while (!text.includes("\nObservation:")) {
      const { done, value } = await reader.read();
      assert.ok(!done, "the stream went on past the Observation");
      buffer += decoder.decode(value, { stream: true });
      const cut = buffer.lastIndexOf("\n\n"); // decode only whole events
      if (cut < 0) continue;
      text += openaiText(openaiChunks(parseSse(buffer.slice(0, cut))));
      buffer = buffer.slice(cut + 2);
    }
    controller.abort(); // what the page does: closes the connection
    await assert.rejects(reader.read(), { name: "AbortError" });
    assert.ok(text.startsWith(MRKL_1 + "\nObservation:"));
    const record = mock.log[0];
    await eventually(() => record.aborted);
    assert.ok(record.totalChars > 3000, `totalChars ${record.totalChars}`);
    assert.ok(record.sentChars < record.totalChars / 2, `sentChars ${record.sentChars}`);
    assert.ok(record.sentChars >= text.length);
  });

  test("runaway, left to finish, streams the whole hallucination", async () => {
    const events = parseSse(await (await anthropic({ model: "runaway", stream: true, stop_sequences: ["\nObservation:"] })).text());
    const text = anthropicText(events);
    assert.ok(text.startsWith(MRKL_1 + "\nObservation: Steve Jobs is the CEO of Apple.\nThought: I now know the final answer.\nFinal Answer: Cupertino"));
    assert.ok(text.length > 3000);
    assert.deepEqual(JSON.parse(events.at(-2).data).delta, { stop_reason: "end_turn", stop_sequence: null });
    const r = mock.log[0];
    assert.equal(r.totalChars, text.length);
    assert.equal(r.aborted, false);
    assert.equal(r.sentChars, r.totalChars);
  });

  test("cut-early: about 20 characters, then the connection drops with no [DONE]", async () => {
    const res = await openai({ model: "cut-early", stream: true });
    assert.equal(res.status, 200);
    const { text, error } = await readAll(res);
    assert.ok(error, "reading the body fails (the chunked body never ends properly)");
    assert.ok(!text.includes("[DONE]"));
    const got = openaiText(openaiChunks(parseSse(text)));
    assert.ok(got.length >= 20 && got.length <= 26, `got ${JSON.stringify(got)}`);
    assert.ok(MRKL_1.startsWith(got));
    assert.equal(mock.log[0].aborted, false, "the server cut it, not the client");

    const a = await readAll(await anthropic({ model: "cut-early", stream: true }));
    assert.ok(a.error);
    assert.ok(!a.text.includes("message_stop"));
    assert.ok(MRKL_1.startsWith(anthropicText(parseSse(a.text))));
  });

  test("stream-error: a few deltas, then an error inside the stream", async () => {
    let events = parseSse(await (await openai({ model: "stream-error", stream: true })).text());
    assert.ok(!events.some((e) => e.data === "[DONE]"));
    assert.deepEqual(JSON.parse(events.at(-1).data), { error: { message: "The server had an error while processing your request.", type: "server_error", param: null, code: null } });
    assert.equal(openaiText(openaiChunks(events.slice(0, -1))), MRKL_1.slice(0, 3 + 5 + 2));

    events = parseSse(await (await anthropic({ model: "stream-error", stream: true })).text());
    assert.equal(events.at(-1).event, "error");
    assert.deepEqual(JSON.parse(events.at(-1).data), { type: "error", error: { type: "overloaded_error", message: "Overloaded" } });
    assert.ok(!events.some((e) => e.event === "message_stop"));
  });

  test("bad-json: one truncated JSON line among good ones", async () => {
    const events = parseSse(await (await openai({ model: "bad-json", stream: true })).text());
    const bad = events.filter((e) => {
      if (e.data === null || e.data === "[DONE]") return false;
      try {
        JSON.parse(e.data);
        return false;
      } catch {
        return true;
      }
    });
    assert.deepEqual(bad.map((e) => e.data), ['{"choices":[{"delta":{"content":"oops']);
    assert.equal(events.at(-1).data, "[DONE]");
    const good = events.filter((e) => !bad.includes(e));
    assert.equal(openaiText(openaiChunks(good)), MRKL_1);
  });

  test("slow: one character per write, and the client can stop it", async () => {
    const res = await openai({ model: "slow", stream: true });
    const reader = res.body.getReader();
    const decoder = new TextDecoder();
    let raw = "";
    while (!raw.includes('"content":"T"')) raw += decoder.decode((await reader.read()).value, { stream: true });
    await reader.cancel();
    await eventually(() => mock.log[0].aborted);
    assert.ok(mock.log[0].sentChars <= 2);
  });
});

// --- Command line ------------------------------------------------------------------------------

test("CLI: --port 0 prints its URL and serves", async () => {
  const script = fileURLToPath(new URL("./llm.mjs", import.meta.url));
  const child = spawn(process.execPath, [script, "--port", "0", "--delay", "1"], { stdio: ["ignore", "pipe", "inherit"] });
  try {
    let out = "";
    while (!out.includes("\n")) {
      const [chunk] = await once(child.stdout, "data");
      out += chunk;
    }
    const match = out.match(/^mock llm listening on (http:\/\/127\.0\.0\.1:(\d+))\n$/);
    assert.ok(match, `printed ${JSON.stringify(out)}`);
    assert.notEqual(match[2], "0");
    const res = await fetch(`${match[1]}/v1/chat/completions`, { method: "POST", body: JSON.stringify({ model: "react-paper", messages: [user()] }) });
    assert.equal((await res.json()).choices[0].message.content, "Thought 1: I need to search Apple Inc. to find its CEO.\nAction 1: Search[Apple Inc.]");
  } finally {
    child.kill("SIGTERM");
    await once(child, "exit");
  }
});

// --- real providers' faults --------------------------------------------------------------------

const TOOL = [{ type: "function", function: { name: "search", parameters: {} } }];
const ANTHROPIC_TOOL = [{ name: "search", input_schema: { type: "object" } }];
const anthropicEvents = (events) => events.filter((e) => e.data).map((e) => JSON.parse(e.data));

describe("provider faults", () => {
  test("stall-before-headers: not even a status line until the client hangs up", async () => {
    const controller = new AbortController();
    const pending = openai({ model: "stall-before-headers", stream: true }, {}, { signal: controller.signal });
    await eventually(() => mock.log[0]?.stalled === true);
    assert.equal(mock.log[0].status, null);
    controller.abort();
    await assert.rejects(pending);
    await eventually(() => mock.log[0].aborted === true);
  });

  test("stall-after-headers and stall-mid-stream: headers, then silence", async () => {
    let controller = new AbortController();
    let res = await openai({ model: "stall-after-headers", stream: true }, {}, { signal: controller.signal });
    assert.equal(res.status, 200);
    assert.match(res.headers.get("content-type"), /text\/event-stream/);
    await eventually(() => mock.log[0]?.stalled === true);
    controller.abort();

    controller = new AbortController();
    res = await anthropic({ model: "stall-mid-stream", stream: true });
    const reader = res.body.getReader();
    let text = "";
    while (anthropicText(parseSse(text)).length < 10) text += new TextDecoder().decode((await reader.read()).value);
    await eventually(() => mock.log.at(-1).stalled === true);
    assert.equal(anthropicText(parseSse(text)), "Thought: I");
    assert.ok(!text.includes("message_stop"));
    await reader.cancel();
  });

  test("stallMs: the stall ends by dropping the connection, never answering; close() ends stalls at once", async () => {
    const short = await startMockLlm({ delayMs: 1, stallMs: 50 });
    try {
      const res = await fetch(`${short.url}/v1/chat/completions`, {
        method: "POST", headers: { "content-type": "application/json" },
        body: JSON.stringify({ model: "stall-after-headers", stream: true, messages: [user()] }),
      });
      const { text, error } = await readAll(res);
      assert.equal(text, "");
      assert.ok(error, "the body ends in an error, not an answer");
      await assert.rejects(fetch(`${short.url}/v1/chat/completions`, {
        method: "POST", headers: { "content-type": "application/json" },
        body: JSON.stringify({ model: "stall-before-headers", messages: [user()] }),
      }));
    } finally {
      await short.close();
    }
    const forever = await startMockLlm({ delayMs: 1 });
    const stalled = [1, 2, 3, 4].map(() => fetch(`${forever.url}/v1/chat/completions`, {
      method: "POST", headers: { "content-type": "application/json" },
      body: JSON.stringify({ model: "stall-before-headers", messages: [user()] }),
    }).catch((e) => e));
    await eventually(() => forever.log.filter((r) => r.stalled).length === 4);
    const started = Date.now();
    await forever.close();
    assert.ok(Date.now() - started < 1000);
    assert.ok((await Promise.all(stalled)).every((r) => r instanceof Error));
  });

  test("html-200 and html-502: nginx's own pages, as text/html", async () => {
    let res = await openai({ model: "html-200", stream: true });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("content-type"), "text/html");
    assert.match(await res.text(), /<title>Welcome to nginx!<\/title>/);
    for (let i = 0; i < 3; i++) {
      res = await anthropic({ model: "html-502", stream: true });
      assert.equal(res.status, 502);
      const page = await res.text();
      assert.ok(page.includes("<title>502 Bad Gateway</title>\r\n") || page.includes("<head><title>502 Bad Gateway</title></head>\r\n"));
    }
  });

  test("plain-sse: the normal stream, labelled text/plain", async () => {
    const res = await openai({ model: "plain-sse", stream: true });
    assert.equal(res.headers.get("content-type"), "text/plain; charset=utf-8");
    assert.equal(openaiText(openaiChunks(parseSse(await res.text()))), MRKL_1);
  });

  test("refusal: OpenAI's refusal deltas; Anthropic's stop_reason refusal with stop_details", async () => {
    const chunks = openaiChunks(parseSse(await (await openai({ model: "refusal", stream: true })).text()));
    assert.deepEqual(chunks[0].choices[0].delta, { role: "assistant", content: null, refusal: "" });
    assert.equal(chunks.map((c) => c.choices[0]?.delta.refusal ?? "").join(""), "I'm sorry, but I can't help with that request.");
    assert.equal(openaiText(chunks), "");
    assert.equal(chunks.at(-1).choices[0].finish_reason, "stop");

    const events = anthropicEvents(parseSse(await (await anthropic({ model: "refusal", stream: true })).text()));
    const delta = events.find((e) => e.type === "message_delta").delta;
    assert.equal(delta.stop_reason, "refusal");
    assert.deepEqual(delta.stop_details, { type: "refusal", category: "cyber", explanation: "This request was declined because it could enable cyber harm." });
  });

  test("length and length-after-action: cut replies with finish_reason length / stop_reason max_tokens", async () => {
    const chunks = openaiChunks(parseSse(await (await openai({ model: "length", stream: true })).text()));
    assert.ok(!openaiText(chunks).includes("Action"));
    assert.equal(chunks.at(-1).choices[0].finish_reason, "length");
    const events = parseSse(await (await anthropic({ model: "length-after-action", stream: true })).text());
    assert.match(anthropicText(events), /Action: search\nAction Input: Tim Cook\nThought: Once I know$/);
    assert.equal(anthropicEvents(events).find((e) => e.type === "message_delta").delta.stop_reason, "max_tokens");
  });

  test("parallel-tools: two calls; the next turn answers only when each id comes back", async () => {
    const chunks = openaiChunks(parseSse(await (await openai({ model: "parallel-tools", stream: true, tools: TOOL })).text()));
    const calls = chunks.flatMap((c) => c.choices[0]?.delta.tool_calls ?? []);
    const ids = calls.filter((c) => c.id).map((c) => c.id);
    assert.deepEqual(ids, ["call_Hq4mZ1bVf0aWc7Xk2LpT9sNe", "call_3ZpYw8Rk5mJd1QvXa6Ge0uHc"]);
    const args = [0, 1].map((i) => JSON.parse(calls.filter((c) => c.index === i).map((c) => c.function.arguments).join("")));
    assert.deepEqual(args, [{ query: "Tim Cook" }, { query: "Apple Inc." }]);
    assert.equal(openaiText(chunks), "");
    const turn = (sent, answered) => [user(),
      { role: "assistant", content: null, tool_calls: sent.map((id, i) => ({ id, type: "function", function: { name: "search", arguments: JSON.stringify(args[i]) } })) },
      ...answered.map((id) => ({ role: "tool", tool_call_id: id, content: "found" }))];
    let res = await openai({ model: "parallel-tools", stream: true, tools: TOOL, messages: turn(ids, ids) });
    assert.equal(openaiText(openaiChunks(parseSse(await res.text()))), "Tim Cook, Apple's CEO, was born in Mobile, Alabama.");
    res = await openai({ model: "parallel-tools", stream: true, tools: TOOL, messages: turn(ids, ids.slice(0, 1)) });
    assert.equal(res.status, 400);
    assert.match((await res.json()).error.message, /did not have response messages: call_3ZpYw8Rk5mJd1QvXa6Ge0uHc/);
    res = await openai({ model: "parallel-tools", stream: true, tools: TOOL, messages: turn(["call_1", "call_1_2"], ["call_1", "call_1_2"]) });
    assert.match((await res.json()).error.message, /^mock: the tool call ids were changed/);

    const events = anthropicEvents(parseSse(await (await anthropic({ model: "parallel-tools", stream: true, tools: ANTHROPIC_TOOL })).text()));
    const uses = events.filter((e) => e.type === "content_block_start" && e.content_block.type === "tool_use").map((e) => e.content_block.id);
    assert.deepEqual(uses, ["toolu_01A09q90qw90lq917835lq9", "toolu_01B7mKq2xZ8pLw4nRv6tYh3s"]);
    const history = (results) => [user(),
      { role: "assistant", content: uses.map((id, i) => ({ type: "tool_use", id, name: "search", input: args[i] })) },
      { role: "user", content: results.map((id) => ({ type: "tool_result", tool_use_id: id, content: "found" })) }];
    res = await anthropic({ model: "parallel-tools", stream: true, tools: ANTHROPIC_TOOL, messages: history(uses) });
    assert.equal(res.status, 200);
    res = await anthropic({ model: "parallel-tools", stream: true, tools: ANTHROPIC_TOOL, messages: history([uses[0], "toolu_other"]) });
    assert.match((await res.json()).error.message, /unexpected `tool_use_id` found in `tool_result` blocks: toolu_other/);
  });

  test("provider-ids: one call whose id must come back exactly", async () => {
    const chunks = openaiChunks(parseSse(await (await openai({ model: "provider-ids", stream: true, tools: TOOL })).text()));
    const id = chunks.flatMap((c) => c.choices[0]?.delta.tool_calls ?? []).find((c) => c.id).id;
    assert.equal(id, "call_Xy9kQ2mN7pL4sR8tV1wZ3bC6");
    const history = (back) => [user(),
      { role: "assistant", content: "I need to find out who the CEO of Apple is.", tool_calls: [{ id, type: "function", function: { name: "search", arguments: "{}" } }] },
      { role: "tool", tool_call_id: back, content: "Tim Cook" }];
    assert.equal((await openai({ model: "provider-ids", stream: true, tools: TOOL, messages: history(id) })).status, 200);
    assert.equal((await openai({ model: "provider-ids", stream: true, tools: TOOL, messages: history("call_1") })).status, 400);
  });

  test("reasoning: DeepSeek's reasoning_content, then the ReAct content; Anthropic's thinking block", async () => {
    const chunks = openaiChunks(parseSse(await (await openai({ model: "reasoning", stream: true })).text()));
    const reasoning = chunks.map((c) => c.choices[0]?.delta.reasoning_content ?? "").join("");
    assert.match(reasoning, /^The user wants the hometown of Apple's current CEO/);
    assert.equal(openaiText(chunks), MRKL_1);
    const firstText = chunks.findIndex((c) => c.choices[0]?.delta.content);
    assert.ok(chunks.slice(firstText).every((c) => !c.choices[0]?.delta.reasoning_content));

    const events = anthropicEvents(parseSse(await (await anthropic({ model: "reasoning", stream: true })).text()));
    assert.equal(events[1].content_block.type, "thinking");
    assert.equal(events.filter((e) => e.delta?.type === "signature_delta").length, 1);
    assert.equal(events.filter((e) => e.delta?.type === "text_delta").map((e) => e.delta.text).join(""), MRKL_1);
  });

  test("thinking-tools (Anthropic): the next turn must start with the same signed thinking block", async () => {
    const events = anthropicEvents(parseSse(await (await anthropic({ model: "thinking-tools", stream: true, tools: ANTHROPIC_TOOL })).text()));
    const thinking = events.filter((e) => e.delta?.type === "thinking_delta").map((e) => e.delta.thinking).join("");
    const signature = events.find((e) => e.delta?.type === "signature_delta").delta.signature;
    const use = events.find((e) => e.content_block?.type === "tool_use").content_block;
    const history = (blocks) => [user(), { role: "assistant", content: [...blocks, { type: "tool_use", id: use.id, name: "search", input: { query: "current CEO of Apple" } }] },
      { role: "user", content: [{ type: "tool_result", tool_use_id: use.id, content: "Tim Cook" }] }];
    let res = await anthropic({ model: "thinking-tools", stream: true, tools: ANTHROPIC_TOOL, messages: history([{ type: "thinking", thinking, signature }]) });
    assert.equal(res.status, 200);
    res = await anthropic({ model: "thinking-tools", stream: true, tools: ANTHROPIC_TOOL, messages: history([]) });
    assert.match((await res.json()).error.message, /^messages\.1\.content\.0\.type: Expected `thinking` or `redacted_thinking`, but found `tool_use`/);
    res = await anthropic({ model: "thinking-tools", stream: true, tools: ANTHROPIC_TOOL, messages: history([{ type: "thinking", thinking, signature: "forged" }]) });
    assert.match((await res.json()).error.message, /Invalid `signature` in `thinking` block/);
  });

  test("server-blocks (Anthropic): the text in three blocks around server-side tool blocks", async () => {
    const events = anthropicEvents(parseSse(await (await anthropic({ model: "server-blocks", stream: true })).text()));
    const types = events.filter((e) => e.type === "content_block_start").map((e) => e.content_block.type);
    assert.deepEqual(types, ["text", "server_tool_use", "web_search_tool_result", "text", "mcp_tool_use", "mcp_tool_result", "text"]);
    assert.equal(events.filter((e) => e.delta?.type === "text_delta").map((e) => e.delta.text).join(""), MRKL_1);
  });

  test("usage-late and usage-then-error: where the figures come, and an error after them", async () => {
    const events = anthropicEvents(parseSse(await (await anthropic({ model: "usage-late", stream: true })).text()));
    const early = events[0].message.usage.input_tokens;
    assert.equal(events.find((e) => e.type === "message_delta").usage.input_tokens, early + 12);
    const chunks = openaiChunks(parseSse(await (await openai({ model: "usage-late", stream: true })).text()));
    assert.ok(chunks.at(-1).usage.prompt_tokens > 0 && chunks.at(-1).choices[0].finish_reason === "stop");
    assert.ok(chunks.slice(0, -1).every((c) => c.usage === null));

    const text = await (await openai({ model: "usage-then-error", stream: true })).text();
    const last = openaiChunks(parseSse(text));
    assert.ok(last.at(-2).usage.completion_tokens > 0);
    assert.equal(last.at(-1).error.type, "server_error");
    assert.ok(!text.includes("[DONE]"));
  });

  test("fail-401-masked: OpenAI quotes the key's first 8 and last 4 characters", async () => {
    const key = "sk-canary-0123456789abcdef";
    const res = await openai({ model: "fail-401-masked" }, { authorization: `Bearer ${key}` });
    assert.equal(res.status, 401);
    assert.match((await res.json()).error.message, /^Incorrect API key provided: sk-canar\*{14}cdef\./);
    assert.equal((await anthropic({ model: "fail-401-masked" })).status, 401);
  });
});

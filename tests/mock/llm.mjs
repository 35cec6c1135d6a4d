// A mock LLM server for tao's tests: one small Node HTTP server on 127.0.0.1 that speaks both the
// OpenAI Chat Completions API (`POST /v1/chat/completions`) and the Anthropic Messages API
// (`POST /v1/messages`) in their real wire formats, streaming (server-sent events, a few
// characters at a time, slowly) or not. It knows no language: the reply is picked by the request's
// `model` name from fixed ReAct scripts for the task "What is the hometown of the current CEO of
// Apple Inc.?", and the step is 1 + the number of assistant turns already in `messages`, so the
// server keeps no conversation state. Other model names inject failures a real provider shows
// (401/403/404, context too long, 429 with Retry-After, 5xx, a cut stream, an error inside the
// stream, a bad JSON line, no CORS headers, a model that runs past its stop sequence) so the
// browser client can be tested against each. Every request is recorded in `log` (and at
// `GET /__log`) so a test can check exactly what the client sent and whether it hung up early.
//
//   import { startMockLlm } from "./llm.mjs";
//   const mock = await startMockLlm({ port: 0, delayMs: 15 });  // port 0 = a free port
//   // OpenAI base URL: mock.url + "/v1"; Anthropic base URL: mock.url
//   mock.log; mock.reset(); await mock.close();
//
// Or from a shell: `node tests/mock/llm.mjs --port 8123 [--delay 15]`. See README.md here.
// Plain Node 20, `node:` built-ins only.

import http from "node:http";
import process from "node:process";
import { pathToFileURL } from "node:url";
import { handleMediaWiki } from "./mediawiki.mjs";
import { benchReply } from "./paper-bench.mjs";
import fs from "node:fs";

// ---------------------------------------------------------------------------------------------
// The scripts. Each entry is one model turn; step n (1-based) uses entry n-1, and steps past the
// end repeat the last entry (a model asked again after its final answer says it again).

/** Text ReAct as LangChain's MRKL prompt asks for it. */
const MRKL = [
  "Thought: I need to find out who the CEO of Apple is first.\nAction: search\nAction Input: current CEO of Apple",
  "Thought: The CEO is Tim Cook. Now I need his hometown.\nAction: search\nAction Input: Tim Cook hometown",
  "Thought: Tim Cook was born in Mobile, Alabama.\nFinal Answer: Mobile, Alabama",
];

/** The ReAct paper's own format: numbered thoughts, `Search[...]` and `Finish[...]`. */
const PAPER = [
  "Thought 1: I need to search Apple Inc. to find its CEO.\nAction 1: Search[Apple Inc.]",
  "Thought 2: The CEO of Apple is Tim Cook. I need to search Tim Cook to find his hometown.\nAction 2: Search[Tim Cook]",
  "Thought 3: Tim Cook was born in Mobile, Alabama.\nAction 3: Finish[Mobile, Alabama]",
];

/** Native tool calling: a short text, then one `search` call; the last step answers in text. */
const TOOLS = [
  { text: "I need to find out who the CEO of Apple is.", tool: { name: "search", input: { query: "current CEO of Apple" } } },
  { text: "The CEO is Tim Cook; now his hometown.", tool: { name: "search", input: { query: "Tim Cook hometown" } } },
  { text: "The hometown of Apple's CEO, Tim Cook, is Mobile, Alabama.", tool: null },
];

/** What `runaway` keeps writing after step 1: it invents the observation, then rambles on. */
const RUNAWAY_TAIL = (() => {
  let tail = "\nObservation: Steve Jobs is the CEO of Apple.\nThought: I now know the final answer.\nFinal Answer: Cupertino";
  const filler =
    " Cupertino is a city in Santa Clara County, California, at the southern edge of the bay." +
    " It is known around the world as the home of a large technology company, whose round" +
    " headquarters sits among orchards that once grew apricots and prunes.";
  while (tail.length < 3100) tail += filler;
  return tail;
})();

/**
 * Real providers' faults (see README.md, "Provider faults"): the ids each native one calls
 * with, per API, and what it says. The ids are realistic in length and alphabet, and the
 * next request must carry them back exactly.
 */
const FAULT_IDS = {
  "parallel-tools": {
    openai: ["call_Hq4mZ1bVf0aWc7Xk2LpT9sNe", "call_3ZpYw8Rk5mJd1QvXa6Ge0uHc"],
    anthropic: ["toolu_01A09q90qw90lq917835lq9", "toolu_01B7mKq2xZ8pLw4nRv6tYh3s"],
  },
  "provider-ids": { openai: ["call_Xy9kQ2mN7pL4sR8tV1wZ3bC6"], anthropic: ["toolu_01Xy9kQ2mN7pL4sR8tV1wZ3b"] },
  "thinking-tools": { openai: ["call_Th1nkQ2mN7pL4sR8tV1wZ3bD"], anthropic: ["toolu_01Th1nkQ2mN7pL4sR8tV1wZ"] },
};
const REASONING = "The user wants the hometown of Apple's current CEO. I should search for the CEO first, then for his birthplace.";
/** The signature Anthropic puts on a thinking block (checked when the block comes back). */
const SIGNATURE = "EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYds2d6y4Wq4GbfkWhh8NmkLXMVIQJ6XFzq3nqNEfQbmRyRMSb2BoN3DeRyg8wFmi";
const REFUSAL = "I'm sorry, but I can't help with that request.";
const STOP_DETAILS = { type: "refusal", category: "cyber", explanation: "This request was declined because it could enable cyber harm." };
const CUT_THOUGHT = "Thought: I need to find out who the CEO of Apple is, and then I will look up where he was";
const CUT_AFTER_ACTION = "Thought: I need to find out who the CEO of Apple is first.\nAction: search\nAction Input: Tim Cook\nThought: Once I know";
const NATIVE_ANSWER = "Tim Cook, Apple's CEO, was born in Mobile, Alabama.";
const NGINX_WELCOME = "<!DOCTYPE html>\n<html>\n<head>\n<title>Welcome to nginx!</title>\n<style>\nhtml { color-scheme: light dark; }\nbody { width: 35em; margin: 0 auto;\nfont-family: Tahoma, Verdana, Arial, sans-serif; }\n</style>\n</head>\n<body>\n<h1>Welcome to nginx!</h1>\n<p>If you see this page, the nginx web server is successfully installed and\nworking. Further configuration is required.</p>\n\n<p>For online documentation and support please refer to\n<a href=\"http://nginx.org/\">nginx.org</a>.<br/>\nCommercial support is available at\n<a href=\"http://nginx.com/\">nginx.com</a>.</p>\n\n<p><em>Thank you for using nginx.</em></p>\n</body>\n</html>\n";
const NGINX_502 = "<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n";

/** Every model name this server gives a special meaning to (listed by `GET /v1/models`). */
export const MODELS = [
  "react-mrkl", "react-paper", "react-tools", "no-tools", "text-react", "no-stop", "runaway",
  "fail-401", "fail-403", "fail-404", "fail-context", "fail-429", "fail-429-always", "fail-503",
  "fail-500-always", "cut-early", "stream-error", "bad-json", "slow", "no-cors",
  // Real providers' faults.
  "stall-before-headers", "stall-after-headers", "stall-mid-stream", "html-200", "html-502",
  "plain-sse", "refusal", "length", "length-after-action", "parallel-tools", "provider-ids",
  "reasoning", "thinking-tools", "server-blocks", "usage-late", "usage-then-error",
  "fail-401-masked",
  // The benchmark fixtures' model (paper-bench.mjs).
  "paper-bench",
];

// ---------------------------------------------------------------------------------------------
// CORS. The page that calls us is on another 127.0.0.1 port, so the browser asks first
// (OPTIONS, "preflight") whether it may send a POST with these headers, and then only hands the
// answer to the page if it carries Access-Control-Allow-Origin.

const ALLOWED_HEADERS = [
  "authorization", "content-type", "x-api-key", "anthropic-version",
  "anthropic-dangerous-direct-browser-access",
];

const PREFLIGHT_HEADERS = {
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Allow-Methods": "GET, POST, OPTIONS",
  "Access-Control-Allow-Headers": ALLOWED_HEADERS.join(", "),
  "Access-Control-Max-Age": "0", // never cached: every test's preflight reaches us and is logged
};

/** On every normal answer: the page may read it, and may read its Retry-After header. */
const CORS = { "Access-Control-Allow-Origin": "*", "Access-Control-Expose-Headers": "retry-after" };

// ---------------------------------------------------------------------------------------------
// Small helpers.

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Splits text into pieces of 2-6 characters (a fixed cycle, so runs are repeatable). */
function pieces(text, sizes = [3, 5, 2, 6, 4]) {
  const out = [];
  for (let i = 0, k = 0; i < text.length; k++) {
    const n = sizes[k % sizes.length];
    out.push(text.slice(i, i + n));
    i += n;
  }
  return out;
}

/** The plain text of a message's `content`: a string, or an array of parts/blocks. */
function textOf(content) {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((part) => {
      if (typeof part === "string") return part;
      if (part && typeof part.text === "string") return part.text; // OpenAI text part, Anthropic text block
      if (part && part.type === "tool_result") return textOf(part.content); // Anthropic tool result
      return "";
    })
    .join("");
}

const tokens = (chars) => Math.ceil(chars / 4);

/** "sk-abcdef1234" -> "*********1234": how OpenAI echoes a wrong key without revealing it. */
const maskKey = (key) => "*".repeat(Math.max(0, key.length - 4)) + key.slice(-4);
/** "sk-canary-0123456789abcdef" -> "sk-canar**************cdef": the first 8 and last 4 shown. */
const maskKeyEnds = (key) => key.slice(0, 8) + "*".repeat(Math.max(0, key.length - 12)) + key.slice(-4);

// ---------------------------------------------------------------------------------------------
// Error bodies, in each vendor's documented shape.

/** OpenAI: `{"error":{"message","type","param","code"}}`. */
const openaiError = (status, message, type, param = null, code = null, headers = {}) => ({
  status, headers, body: { error: { message, type, param, code } },
});

/** Anthropic: `{"type":"error","error":{"type","message"}}`. */
const anthropicError = (status, type, message, headers = {}) => ({
  status, headers, body: { type: "error", error: { type, message } },
});

/** The failure a model name asks for on this request, or null to answer normally. */
function failureFor(api, base, req, body, count) {
  const openai = api === "openai";
  switch (base) {
    case "fail-401": {
      if (!openai) return anthropicError(401, "authentication_error", "invalid x-api-key");
      const key = (req.headers.authorization || "").replace(/^Bearer\s+/i, "");
      if (!key) {
        return openaiError(401, "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY), or as the password field (with blank username) if you're accessing the API from your browser and are prompted for a username and password. You can obtain an API key from https://platform.openai.com/account/api-keys.", "invalid_request_error");
      }
      return openaiError(401, `Incorrect API key provided: ${maskKey(key)}. You can find your API key at https://platform.openai.com/account/api-keys.`, "invalid_request_error", null, "invalid_api_key");
    }
    case "fail-401-masked": {
      // Anthropic never quotes keys: there it is an ordinary 401.
      if (!openai) return anthropicError(401, "authentication_error", "invalid x-api-key");
      const key = (req.headers.authorization || "").replace(/^Bearer\s+/i, "");
      return openaiError(401, `Incorrect API key provided: ${maskKeyEnds(key)}. You can find your API key at https://platform.openai.com/account/api-keys.`, "invalid_request_error", null, "invalid_api_key");
    }
    case "parallel-tools":
    case "provider-ids":
    case "thinking-tools":
      return body.tools == null ? null : toolIdsChecked(api, base, body);
    case "fail-403":
      return openai
        ? openaiError(403, "Country, region, or territory not supported", "request_forbidden", null, "unsupported_country_region_territory")
        : anthropicError(403, "permission_error", "Your API key does not have permission to use the specified resource.");
    case "fail-404":
      return openai
        ? openaiError(404, `The model \`${body.model}\` does not exist or you do not have access to it.`, "invalid_request_error", null, "model_not_found")
        : anthropicError(404, "not_found_error", `model: ${body.model}`);
    case "fail-context":
      return openai
        ? openaiError(400, "This model's maximum context length is 8192 tokens. However, your messages resulted in 9000 tokens. Please reduce the length of the messages.", "invalid_request_error", "messages", "context_length_exceeded")
        : anthropicError(400, "invalid_request_error", "prompt is too long: 210000 tokens > 200000 maximum");
    case "fail-429":
    case "fail-429-always": {
      if (base === "fail-429" && count > 2) return null;
      const retry = { "Retry-After": "1" };
      return openai
        ? openaiError(429, `Rate limit reached for ${body.model} in organization org-mock on requests per min (RPM): Limit 2, Used 2, Requested 1. Please try again in 1s. Visit https://platform.openai.com/account/rate-limits to learn more.`, "requests", null, "rate_limit_exceeded", retry)
        : anthropicError(429, "rate_limit_error", "This request would exceed the rate limit for your organization of 2 requests per minute. For details, refer to: https://docs.anthropic.com/en/api/rate-limits. You can see the response headers for current usage. Please reduce the prompt length or the maximum tokens requested, or try again later.", retry);
    }
    case "fail-503":
      if (count > 2) return null;
      return openai
        ? openaiError(503, "The server is overloaded", "server_error")
        : anthropicError(529, "overloaded_error", "Overloaded");
    case "fail-500-always":
      return openai
        ? openaiError(500, "The server had an error while processing your request. Sorry about that!", "server_error")
        : anthropicError(500, "api_error", "Internal server error");
    case "no-tools":
      if (body.tools == null) return notTextReact(api, body);
      return openai
        ? openaiError(400, `registry.ollama.ai/library/${body.model}:latest does not support tools`, "api_error")
        : anthropicError(400, "invalid_request_error", "tools: this model does not support tools");
    case "no-stop":
      if (openai && body.stop != null) {
        return openaiError(400, "Unsupported parameter: 'stop' is not supported with this model.", "invalid_request_error", "stop", "unsupported_parameter");
      }
      if (!openai && body.stop_sequences != null) {
        return anthropicError(400, "invalid_request_error", "stop_sequences: Extra inputs are not permitted");
      }
      return null;
    case "text-react":
      return body.tools == null ? notTextReact(api, body) : null;
    default:
      return null;
  }
}

/**
 * A model that only does text ReAct checks that a request without `tools` (the client's
 * fallback from native tool calling) really is text ReAct: the system prompt explains
 * Thought / Action / Action Input, and no earlier turn is a native tool call or tool result.
 * A client that switched its parser but not its prompt gets a 400 saying so.
 */
function notTextReact(api, body) {
  const messages = Array.isArray(body.messages) ? body.messages : [];
  const system = api === "openai"
    ? messages.filter((m) => m && m.role === "system").map((m) => textOf(m.content)).join("\n")
    : textOf(body.system);
  const native = messages.some((m) => m && (m.role === "tool" || m.tool_calls != null ||
    (Array.isArray(m.content) && m.content.some((b) => b && (b.type === "tool_use" || b.type === "tool_result")))));
  if (system.includes("Action Input") && !native) return null;
  const message = "mock: a request without tools must be text ReAct (a system prompt that explains Thought/Action/Action Input, and no native tool calls in the history)";
  return api === "openai" ? openaiError(400, message, "invalid_request_error") : anthropicError(400, "invalid_request_error", message);
}

/**
 * After a native fault model's tool calls, the next request must answer every call under the
 * id it was given (and, for Anthropic's `thinking-tools`, start that assistant turn with the
 * same signed thinking block): what real servers check, with their own messages (as quoted in
 * public bug reports; not checked against the live APIs). A client that renumbered the ids
 * consistently gets a 400 starting `mock:`.
 */
function toolIdsChecked(api, base, body) {
  const messages = Array.isArray(body.messages) ? body.messages : [];
  const turn = messages.findIndex((m) => m && m.role === "assistant");
  if (turn < 0) return null; // step 1: nothing to check yet
  const expected = FAULT_IDS[base][api];
  const openai = api === "openai";
  const assistant = messages[turn];
  const sentIds = openai
    ? (assistant.tool_calls || []).map((c) => c && c.id)
    : (Array.isArray(assistant.content) ? assistant.content : []).filter((b) => b && b.type === "tool_use").map((b) => b.id);
  const answered = openai
    ? messages.slice(turn + 1).filter((m) => m && m.role === "tool").map((m) => m.tool_call_id)
    : (Array.isArray(messages[turn + 1]?.content) ? messages[turn + 1].content : [])
      .filter((b) => b && b.type === "tool_result").map((b) => b.tool_use_id);
  const bad = (message) => openai ? openaiError(400, message, "invalid_request_error", "messages") : anthropicError(400, "invalid_request_error", message);
  if (!openai && base === "thinking-tools") {
    const first = Array.isArray(assistant.content) ? assistant.content[0] : null;
    if (!first || (first.type !== "thinking" && first.type !== "redacted_thinking")) {
      return bad(`messages.${turn}.content.0.type: Expected \`thinking\` or \`redacted_thinking\`, but found \`${first ? first.type : "text"}\`. When \`thinking\` is enabled, a final \`assistant\` message must start with a thinking block (preceeding the lastmost set of \`tool_use\` and \`tool_result\` blocks). We recommend you include thinking blocks from previous turns. To avoid this requirement, disable \`thinking\`. Please consult our documentation at https://docs.claude.com/en/docs/build-with-claude/extended-thinking`);
    }
    if (first.thinking !== REASONING || first.signature !== SIGNATURE) {
      return bad(`messages.${turn}.content.0: Invalid \`signature\` in \`thinking\` block`);
    }
  }
  const sameIds = sentIds.length === expected.length && sentIds.every((id, i) => id === expected[i]);
  if (!sameIds && answered.length === sentIds.length && answered.every((id) => sentIds.includes(id))) {
    return bad(`mock: the tool call ids were changed (sent ${expected.join(", ")}, got back ${sentIds.join(", ")}); servers that check ids refuse this`);
  }
  const missing = expected.filter((id) => !answered.includes(id));
  const unknown = answered.filter((id) => !expected.includes(id));
  if (unknown.length > 0) {
    return openai
      ? bad("Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.")
      : bad(`messages.${turn + 1}.content.0: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${unknown[0]}. Each \`tool_result\` block must have a corresponding \`tool_use\` block in the previous message.`);
  }
  if (missing.length > 0) {
    return openai
      ? bad(`An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${missing.join(", ")}`)
      : bad(`messages.${turn}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${missing.join(", ")}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`);
  }
  return null;
}

// ---------------------------------------------------------------------------------------------
// The reply, vendor-neutral: what the model "says" at this step. Rendering it as OpenAI or
// Anthropic JSON/SSE comes after.

/**
 * @returns {{ text: string, tools: { id: string, name: string, args: string }[],
 *   finish: "end" | "tool" | "stop_sequence" | "length" | "refusal", stopSequence: string | null,
 *   step: number, totalChars: number, reasoning: string, refusal: string, blocks: boolean }}
 */
function planReply(api, base, body) {
  const messages = Array.isArray(body.messages) ? body.messages : [];
  // Assistant turns so far (OpenAI assistant messages that carry tool_calls have role
  // "assistant" too, so they count; tool results are role "tool" or user blocks and do not).
  const step = 1 + messages.filter((m) => m && m.role === "assistant").length;
  const at = (script) => script[Math.min(step, script.length) - 1];
  const native = body.tools != null && base in FAULT_IDS;

  let text;
  let tools = [];
  let finish = null;
  let refusal = "";
  if (base === "react-tools") {
    const turn = at(TOOLS);
    text = turn.text;
    if (turn.tool) {
      const id = (api === "openai" ? "call_mock_" : "toolu_mock_") + step;
      tools = [{ id, name: turn.tool.name, args: JSON.stringify(turn.tool.input) }];
    }
  } else if (native && step > 1) {
    text = NATIVE_ANSWER;
  } else if (native) {
    const queries = base === "parallel-tools" ? ["Tim Cook", "Apple Inc."] : ["current CEO of Apple"];
    tools = FAULT_IDS[base][api].map((id, i) => ({ id, name: "search", args: JSON.stringify({ query: queries[i] }) }));
    text = base === "parallel-tools"
      ? (api === "openai" ? "" : "I'll search for both at once.")
      : base === "provider-ids" ? "I need to find out who the CEO of Apple is." : "";
  } else if (base === "react-paper") {
    text = at(PAPER);
  } else if (base === "paper-bench") {
    // The benchmark's questions, in the mode the system prompt asks for (paper-bench.mjs).
    const system = api === "openai"
      ? messages.filter((m) => m && m.role === "system").map((m) => textOf(m.content)).join("\n")
      : textOf(body.system);
    const user = messages.filter((m) => m && m.role === "user").map((m) => textOf(m.content)).join("\n");
    text = benchReply(system, user, step);
  } else if (base === "refusal") {
    // OpenAI sends no content at all; Anthropic's classifier stops a reply already begun.
    [text, refusal, finish] = [api === "openai" ? "" : "Thought: I'd be glad to look", REFUSAL, "refusal"];
  } else if (base === "length" || base === "length-after-action") {
    [text, finish] = [base === "length" ? CUT_THOUGHT : CUT_AFTER_ACTION, "length"];
  } else {
    text = at(MRKL); // react-mrkl, text-react, no-tools, no-stop, slow, ... and unknown names
    if (base === "runaway" && step === 1) text += RUNAWAY_TAIL;
  }
  const reasoning = (base === "reasoning" || (base === "thinking-tools" && tools.length > 0)) ? REASONING : "";

  // Stop sequences: the reply ends just before the first one found (a real model stops
  // generating there, so a tool call that would have come after is never made).
  const raw = api === "openai" ? body.stop : body.stop_sequences;
  const stops = (Array.isArray(raw) ? raw : raw == null ? [] : [raw]).filter((s) => typeof s === "string" && s);
  finish = finish || (tools.length > 0 ? "tool" : "end");
  let stopSequence = null;
  if (base !== "runaway") {
    let cut = -1;
    for (const s of stops) {
      const i = text.indexOf(s);
      if (i >= 0 && (cut < 0 || i < cut)) [cut, stopSequence] = [i, s];
    }
    if (cut >= 0) {
      text = text.slice(0, cut);
      tools = [];
      finish = "stop_sequence";
    }
  }
  const totalChars = text.length + tools.reduce((n, t) => n + t.args.length, 0);
  return { text, tools, tool: tools[0] || null, finish, stopSequence, step, totalChars, reasoning, refusal, blocks: base === "server-blocks" };
}

// ---------------------------------------------------------------------------------------------
// Rendering a stream. Both builders return a list of writes `{ data, chars, content }`: `data`
// is the exact bytes of one SSE event, `chars` how many characters of reply text it carries,
// `content` marks the events that carry reply text (the failure modes cut around those).

const OPENAI_FINISH = { end: "stop", tool: "tool_calls", stop_sequence: "stop", length: "length", refusal: "stop" };
const ANTHROPIC_STOP = { end: "end_turn", tool: "tool_use", stop_sequence: "stop_sequence", length: "max_tokens", refusal: "refusal" };

function openaiStream(plan, ctx) {
  const nl = ctx.crlf ? "\r\n" : "\n";
  const head = { id: ctx.id, object: "chat.completion.chunk", created: ctx.created, model: ctx.model };
  // `usage-late` puts the usage on the finish chunk; `usage-then-error` always sends it.
  const late = ctx.base === "usage-late";
  const includeUsage = Boolean(ctx.body.stream_options && ctx.body.stream_options.include_usage) || ctx.base === "usage-then-error";
  // With include_usage, every chunk has `usage: null` except the one that carries it.
  const usageNull = includeUsage || late ? { usage: null } : {};
  const event = (obj, chars = 0, content = chars > 0) => ({ data: `data: ${JSON.stringify(obj)}${nl}${nl}`, chars, content });
  const chunk = (delta, finishReason = null, chars = 0, content = chars > 0, extra = usageNull) =>
    event({ ...head, choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }], ...extra }, chars, content);

  // A refusal's first delta says so (`refusal: ""`, `content: null`), as OpenAI's streams do.
  const out = [chunk(plan.refusal ? { role: "assistant", content: null, refusal: "" } : { role: "assistant", content: "" })];
  out.push({ data: `: keep-alive${nl}${nl}`, chars: 0, content: false }); // an SSE comment line
  // DeepSeek's reasoning models: `reasoning_content` first, `content: null` beside it.
  for (const p of pieces(plan.reasoning, ctx.sizes)) out.push(chunk({ content: null, reasoning_content: p }, null, 0));
  for (const p of pieces(plan.text, ctx.sizes)) out.push(chunk({ content: p }, null, p.length));
  for (const p of pieces(plan.refusal, ctx.sizes)) out.push(chunk({ refusal: p }, null, p.length, false));
  plan.tools.forEach(({ id, name, args }, index) => {
    // The call's header (id, type, name, empty arguments), then the arguments in fragments.
    out.push(chunk({ tool_calls: [{ index, id, type: "function", function: { name, arguments: "" } }] }));
    for (const f of pieces(args, ctx.argSizes)) out.push(chunk({ tool_calls: [{ index, function: { arguments: f } }] }, null, f.length));
  });
  out.push(chunk({}, OPENAI_FINISH[plan.finish], 0, false, late ? { usage: ctx.usage.openai } : usageNull));
  if (includeUsage) out.push(event({ ...head, choices: [], usage: ctx.usage.openai }));
  if (ctx.base === "usage-then-error") {
    const error = { error: { message: "The server had an error while processing your request. Sorry about that!", type: "server_error", param: null, code: null } };
    out.push({ data: `data: ${JSON.stringify(error)}${nl}${nl}`, chars: 0, content: false });
    return out;
  }
  out.push({ data: `data: [DONE]${nl}${nl}`, chars: 0, content: false });
  return out;
}

function anthropicStream(plan, ctx) {
  const nl = ctx.crlf ? "\r\n" : "\n";
  const event = (obj, chars = 0) => ({ data: `event: ${obj.type}${nl}data: ${JSON.stringify(obj)}${nl}${nl}`, chars, content: chars > 0 });
  const input = ctx.usage.anthropic.input_tokens;
  const out = [
    event({
      type: "message_start",
      message: {
        id: ctx.id, type: "message", role: "assistant", model: ctx.model, content: [],
        stop_reason: null, stop_sequence: null,
        usage: { input_tokens: input, output_tokens: 1 },
      },
    }),
  ];
  let index = 0;
  const block = (start, deltas, chars = (d) => 0) => {
    out.push(event({ type: "content_block_start", index, content_block: start }));
    if (index === 0) out.push(event({ type: "ping" }));
    for (const d of deltas) out.push(event({ type: "content_block_delta", index, delta: d }, chars(d)));
    out.push(event({ type: "content_block_stop", index }));
    index += 1;
  };
  const textBlock = (text) => block({ type: "text", text: "" }, pieces(text, ctx.sizes).map((p) => ({ type: "text_delta", text: p })), (d) => d.text.length);
  if (plan.reasoning) {
    const thinking = pieces(plan.reasoning, [9, 14, 11]).map((p) => ({ type: "thinking_delta", thinking: p }));
    block({ type: "thinking", thinking: "", signature: "" }, [...thinking, { type: "signature_delta", signature: SIGNATURE }]);
  }
  if (plan.blocks) {
    // The text in three blocks, with a server-side web search and an MCP call between them.
    const [a, b] = [Math.floor(plan.text.length / 3), Math.floor((2 * plan.text.length) / 3)];
    textBlock(plan.text.slice(0, a));
    const search = "srvtoolu_01WYG3ziw53XMcoyKL4XcZmE";
    block({ type: "server_tool_use", id: search, name: "web_search", input: {} },
      ['{"query": "Tim Cook', ' hometown"}'].map((p) => ({ type: "input_json_delta", partial_json: p })));
    block({ type: "web_search_tool_result", tool_use_id: search, content: [{ type: "web_search_result", title: "Tim Cook - Wikipedia", url: "https://en.wikipedia.org/wiki/Tim_Cook", encrypted_content: "EqgfCioIARgBIiQ3YTAwMjY1Mi1mZjM5", page_age: "April 30, 2025" }] }, []);
    textBlock(plan.text.slice(a, b));
    const mcp = "mcptoolu_014Q35RayjACSWkSj4X2yov1";
    block({ type: "mcp_tool_use", id: mcp, name: "echo", server_name: "example", input: {} },
      [{ type: "input_json_delta", partial_json: '{"text":"hi"}' }]);
    block({ type: "mcp_tool_result", tool_use_id: mcp, is_error: false, content: [{ type: "text", text: "hi" }] }, []);
    textBlock(plan.text.slice(b));
  } else if (plan.text || plan.tools.length === 0) {
    textBlock(plan.text);
  }
  for (const { id, name, args } of plan.tools) {
    block({ type: "tool_use", id, name, input: {} },
      pieces(args, ctx.argSizes).map((f) => ({ type: "input_json_delta", partial_json: f })), (d) => d.partial_json.length);
  }
  const delta = { stop_reason: ANTHROPIC_STOP[plan.finish], stop_sequence: plan.stopSequence };
  if (plan.finish === "refusal") delta.stop_details = STOP_DETAILS;
  // `usage-late`: the input count here is later, and larger, than message_start's.
  const usage = ctx.base === "usage-late"
    ? { input_tokens: input + 12, output_tokens: ctx.usage.anthropic.output_tokens }
    : { output_tokens: ctx.usage.anthropic.output_tokens };
  out.push(event({ type: "message_delta", delta, usage }));
  if (ctx.base === "usage-then-error") {
    out.push({ data: `event: error${nl}data: ${JSON.stringify({ type: "error", error: { type: "overloaded_error", message: "Overloaded" } })}${nl}${nl}`, chars: 0, content: false });
    return out;
  }
  out.push(event({ type: "message_stop" }));
  return out;
}

/** Bends a good stream into the broken one a failure model asks for. */
function breakStream(events, base, api, nl) {
  const contentIndex = (n) => {
    let seen = 0;
    for (let i = 0; i < events.length; i++) if (events[i].content && ++seen === n) return i;
    return events.length - 1;
  };
  if (base === "cut-early") {
    // Up to the event that brings the text to 20 characters, then the connection drops.
    let sum = 0;
    let i = 0;
    for (; i < events.length; i++) if ((sum += events[i].chars) >= 20) break;
    return [...events.slice(0, i + 1), { cut: true }];
  }
  if (base === "stream-error") {
    // Three text deltas, then an error event, then the end of the body (no [DONE] / message_stop).
    const error = api === "openai"
      ? `data: ${JSON.stringify({ error: { message: "The server had an error while processing your request.", type: "server_error", param: null, code: null } })}${nl}${nl}`
      : `event: error${nl}data: ${JSON.stringify({ type: "error", error: { type: "overloaded_error", message: "Overloaded" } })}${nl}${nl}`;
    return [...events.slice(0, contentIndex(3) + 1), { data: error, chars: 0 }];
  }
  if (base === "bad-json") {
    // Two good text deltas, one line of truncated JSON, then the rest of the stream as usual.
    const bad = api === "openai"
      ? `data: {"choices":[{"delta":{"content":"oops${nl}${nl}`
      : `event: content_block_delta${nl}data: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"oops${nl}${nl}`;
    const i = contentIndex(2) + 1;
    return [...events.slice(0, i), { data: bad, chars: 0 }, ...events.slice(i)];
  }
  return events;
}

// ---------------------------------------------------------------------------------------------
// Rendering a whole (non-streamed) answer.

function openaiMessage(plan, ctx) {
  const message = { role: "assistant", content: plan.refusal ? null : plan.text, refusal: plan.refusal || null };
  if (plan.reasoning) message.reasoning_content = plan.reasoning;
  if (plan.tools.length > 0) {
    message.tool_calls = plan.tools.map((t) => ({ id: t.id, type: "function", function: { name: t.name, arguments: t.args } }));
  }
  return {
    id: ctx.id, object: "chat.completion", created: ctx.created, model: ctx.model,
    choices: [{ index: 0, message, logprobs: null, finish_reason: OPENAI_FINISH[plan.finish] }],
    usage: ctx.usage.openai,
  };
}

function anthropicMessage(plan, ctx) {
  const content = [];
  if (plan.reasoning) content.push({ type: "thinking", thinking: plan.reasoning, signature: SIGNATURE });
  if (plan.text || plan.tools.length === 0) content.push({ type: "text", text: plan.text });
  for (const t of plan.tools) content.push({ type: "tool_use", id: t.id, name: t.name, input: JSON.parse(t.args) });
  const message = {
    id: ctx.id, type: "message", role: "assistant", model: ctx.model, content,
    stop_reason: ANTHROPIC_STOP[plan.finish],
    stop_sequence: plan.stopSequence,
    usage: ctx.usage.anthropic,
  };
  if (plan.finish === "refusal") message.stop_details = STOP_DETAILS;
  return message;
}

// ---------------------------------------------------------------------------------------------
// The server.

/**
 * Waits until `check()` is true, for up to `ms`, and throws `what` if it never is: the server
 * learns of a hang-up a moment after the client (or the page) is done with the connection.
 * @param {() => boolean} check
 * @param {number} [ms]
 * @param {string} [what]
 */
export async function eventually(check, ms = 2000, what = "condition") {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`${what}: not met in time`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/**
 * Starts the mock on 127.0.0.1.
 * @param {{ port?: number, delayMs?: number, stallMs?: number }} [options] port 0 (the default)
 *   picks a free port; delayMs (default 15) is the pause between two writes of a stream;
 *   stallMs (default 0: for ever) is how long the stall-* models stay silent before they drop
 *   the connection (they never answer).
 */
export async function startMockLlm({ port = 0, delayMs = 15, stallMs = 0 } = {}) {
  const log = [];
  const counts = new Map(); // "openai fail-429" -> requests seen, for the fail-first-N models
  let served = 0; // for response ids

  const server = http.createServer((req, res) => {
    handle(req, res).catch((err) => {
      // A bug in the mock itself: say so loudly rather than hang the test.
      console.error("mock llm:", err);
      if (!res.headersSent) res.writeHead(500, { "Content-Type": "text/plain", ...CORS });
      res.end(String(err && err.stack || err));
    });
  });

  async function handle(req, res) {
    const path = new URL(req.url, "http://127.0.0.1").pathname;
    // The mock Wikipedia (`/w/api.php`) lives here too, so a page needs one mock server.
    if (handleMediaWiki(req, res)) return;
    // The benchmark's stand-in data files, as raw.githubusercontent.com serves the paper's.
    if (req.method === "GET" && path.startsWith("/react-paper/")) return serveFixture(path, res);

    // The test-side endpoints: not logged, always readable from a page.
    if (req.method === "GET" && path === "/__log") return sendJson(res, 200, log, CORS);
    if (req.method === "POST" && path === "/__reset") {
      reset();
      return sendJson(res, 200, { ok: true }, CORS);
    }

    const body = await readBody(req);
    let json = null;
    try {
      json = body ? JSON.parse(body) : null;
    } catch {
      json = null;
    }
    const record = {
      method: req.method, path, headers: { ...req.headers }, body, json,
      model: json && typeof json.model === "string" ? json.model : null,
      status: null, sentChars: 0, totalChars: 0, aborted: false, time: Date.now(),
    };
    log.push(record);
    // The client hung up before we finished (a stream we cut ourselves does not count).
    res.on("close", () => {
      if (!res.writableFinished && !record.cutByServer) record.aborted = true;
    });
    const respond = (status, headers, text) => {
      record.status = status;
      res.writeHead(status, { ...headers, "Content-Length": Buffer.byteLength(text) });
      res.end(text);
    };

    if (req.method === "OPTIONS") return preflight(req, respond);
    if (req.method === "GET" && path === "/v1/models") {
      const data = MODELS.map((id) => ({ id, object: "model", created: 1700000000, owned_by: "tao-mock" }));
      return respond(200, { "Content-Type": "application/json", ...CORS }, JSON.stringify({ object: "list", data }));
    }
    const api = req.method === "POST" && path === "/v1/chat/completions" ? "openai"
      : req.method === "POST" && path === "/v1/messages" ? "anthropic" : null;
    if (!api) return respond(404, { "Content-Type": "text/plain", ...CORS }, "404 page not found");
    return chat(api, req, res, record, json, respond);
  }

  function preflight(req, respond) {
    const asked = (req.headers["access-control-request-headers"] || "")
      .split(",").map((h) => h.trim().toLowerCase()).filter(Boolean);
    const ok = asked.every((h) => ALLOWED_HEADERS.includes(h));
    // A header we do not allow: answer without any Access-Control-* header, so the browser
    // refuses to send the real request.
    respond(204, ok ? PREFLIGHT_HEADERS : {}, "");
  }

  async function chat(api, req, res, record, body, respond) {
    const openai = api === "openai";
    const fail = (e) => respond(e.status, { "Content-Type": "application/json", ...CORS, ...e.headers }, JSON.stringify(e.body));

    // Anthropic's own header checks come first (OpenAI-compatible servers take any key or none).
    if (!openai) {
      const h = req.headers;
      if (!h["x-api-key"]) return fail(anthropicError(401, "authentication_error", "x-api-key header is required"));
      if (!h["anthropic-version"]) return fail(anthropicError(400, "invalid_request_error", "anthropic-version: header is required"));
      if (h.origin && h["anthropic-dangerous-direct-browser-access"] !== "true") {
        return fail(anthropicError(401, "authentication_error", "CORS requests must set 'anthropic-dangerous-direct-browser-access' header"));
      }
    }
    if (!body || typeof body !== "object" || Array.isArray(body)) {
      return fail(openai
        ? openaiError(400, "We could not parse the JSON body of your request. The OpenAI API expects a JSON payload.", "invalid_request_error")
        : anthropicError(400, "invalid_request_error", "There was an error parsing the body of your request. Please check the body of your request and try again."));
    }
    if (typeof body.model !== "string" || !body.model) {
      return fail(openai
        ? openaiError(400, "you must provide a model parameter", "invalid_request_error")
        : anthropicError(400, "invalid_request_error", "model: Field required"));
    }

    // "react-mrkl-crlf" behaves as "react-mrkl", written with \r\n line endings.
    const crlf = body.model.endsWith("-crlf");
    const base = crlf ? body.model.slice(0, -"-crlf".length) : body.model;
    const key = `${api} ${body.model}`;
    counts.set(key, (counts.get(key) || 0) + 1);

    // Settles when the connection closes (client gone, or we are done); `gone` says which.
    let gone = false;
    const closed = new Promise((resolve) => res.once("close", () => resolve((gone = true))));
    // Silence until the client hangs up, the mock closes, or `stallMs` runs out; then the
    // connection drops with no answer.
    const stall = async () => {
      record.stalled = true;
      await (stallMs > 0 ? Promise.race([sleep(stallMs), closed]) : closed);
      if (!gone) {
        record.cutByServer = true;
        res.destroy();
      }
    };
    if (base === "stall-before-headers") return stall();
    if (base === "html-200" || base === "html-502") {
      // An ordinary web server where the API should be. (With CORS headers, which a stray
      // nginx would not send, so that the page can read and diagnose it at all.)
      const html = base === "html-200" ? NGINX_WELCOME : NGINX_502;
      return respond(base === "html-200" ? 200 : 502, { "Content-Type": "text/html", ...CORS }, html);
    }

    const failure = failureFor(api, base, req, body, counts.get(key));
    if (failure) return fail(failure);

    const plan = planReply(api, base, body);
    record.totalChars = plan.totalChars;
    const messages = Array.isArray(body.messages) ? body.messages : [];
    const promptChars = messages.reduce((n, m) => n + textOf(m && m.content).length, 0) + (openai ? 0 : textOf(body.system).length);
    const completion = tokens(plan.totalChars);
    const prompt = tokens(promptChars);
    served += 1;
    const ctx = {
      body, crlf,
      id: openai ? `chatcmpl-mock${served}` : `msg_mock${served}`,
      created: Math.floor(Date.now() / 1000),
      model: body.model,
      usage: {
        openai: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion },
        anthropic: { input_tokens: prompt, output_tokens: completion },
      },
      base,
      // `slow` writes one character every 500 ms; the others 2-6 characters every delayMs.
      sizes: base === "slow" ? [1] : [3, 5, 2, 6, 4],
      argSizes: [3, 5, 4],
    };
    const delay = base === "slow" ? 500 : delayMs;
    const headers = base === "no-cors" ? {} : CORS;
    if (base === "stall-after-headers") {
      record.status = 200;
      const type = body.stream ? "text/event-stream; charset=utf-8" : "application/json";
      res.writeHead(200, { "Content-Type": type, "Cache-Control": "no-cache", ...headers });
      res.flushHeaders();
      return stall();
    }

    if (!body.stream) {
      const answer = openai ? openaiMessage(plan, ctx) : anthropicMessage(plan, ctx);
      const text = JSON.stringify(answer);
      if (base === "slow") await Promise.race([sleep(plan.totalChars * delay), closed]);
      if (gone) return;
      if (base === "stream-error") {
        return fail(openai
          ? openaiError(500, "The server had an error while processing your request.", "server_error")
          : anthropicError(529, "overloaded_error", "Overloaded"));
      }
      if (base !== "cut-early" && base !== "bad-json" && base !== "stall-mid-stream") {
        record.sentChars = plan.totalChars;
        return respond(200, { "Content-Type": "application/json", ...headers }, text);
      }
      // Half a JSON document: for cut-early the connection then drops, for bad-json it ends cleanly.
      record.status = 200;
      res.writeHead(200, { "Content-Type": "application/json", ...headers });
      await write(res, text.slice(0, Math.floor(text.length / 2)), closed);
      if (base === "stall-mid-stream") return stall();
      if (base === "cut-early") {
        record.cutByServer = true;
        return res.destroy();
      }
      return res.end();
    }

    const nl = crlf ? "\r\n" : "\n";
    const events = breakStream(openai ? openaiStream(plan, ctx) : anthropicStream(plan, ctx), base, api, nl);
    record.status = 200;
    // `plain-sse`: an event stream labelled as text, as some servers send it.
    const type = base === "plain-sse" ? "text/plain; charset=utf-8" : "text/event-stream; charset=utf-8";
    res.writeHead(200, { "Content-Type": type, "Cache-Control": "no-cache", ...headers });
    res.flushHeaders();
    res.socket?.setNoDelay(true); // each small write goes out at once
    let texts = 0; // text deltas sent (`stall-mid-stream` goes quiet after the third)
    for (let i = 0; i < events.length; i++) {
      if (gone) return; // the client went away; `aborted` is already recorded
      const e = events[i];
      if (e.cut) {
        record.cutByServer = true;
        return res.destroy(); // no chunked-encoding terminator: the body ends abruptly
      }
      await write(res, e.data, closed);
      if (gone) return;
      record.sentChars += e.chars;
      if (e.content && ++texts === 3 && base === "stall-mid-stream") return stall();
      if (i < events.length - 1) await Promise.race([sleep(delay), closed]);
    }
    res.end();
  }

  function reset() {
    log.length = 0; // the same array, so `mock.log` held by a test stays live
    counts.clear();
  }

  await new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", resolve);
  });
  const url = `http://127.0.0.1:${server.address().port}`;
  return {
    url,
    log,
    reset,
    server,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections(); // streams in flight and idle keep-alive sockets
      }),
  };
}

/** The benchmark fixtures (tests/fixtures/react-paper/) by name, with CORS; 404 for anything else. */
const FIXTURES = new URL("../fixtures/react-paper/", import.meta.url);
function serveFixture(path, res) {
  const name = decodeURIComponent(path.slice("/react-paper/".length));
  const ok = /^[\w.-]+\.(json|jsonl)$/.test(name) && fs.existsSync(new URL(name, FIXTURES));
  const text = ok ? fs.readFileSync(new URL(name, FIXTURES), "utf8") : "404: Not Found";
  res.writeHead(ok ? 200 : 404, { "Content-Type": ok ? "text/plain; charset=utf-8" : "text/plain", "Content-Length": Buffer.byteLength(text), ...CORS });
  res.end(text);
}

function readBody(req) {
  return new Promise((resolve) => {
    let data = "";
    req.setEncoding("utf8");
    req.on("data", (d) => (data += d));
    req.on("end", () => resolve(data));
    req.on("error", () => resolve(data));
  });
}

function sendJson(res, status, value, headers) {
  const text = JSON.stringify(value);
  res.writeHead(status, { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(text), ...headers });
  res.end(text);
}

/** Writes and waits until the bytes are handed to the OS (or the connection is gone). */
function write(res, data, closed) {
  return Promise.race([new Promise((resolve) => res.write(data, () => resolve())), closed]);
}

// ---------------------------------------------------------------------------------------------
// Command line: `node tests/mock/llm.mjs --port 8123 [--delay 15] [--stall 0]`.

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const arg = (name, fallback) => {
    const i = process.argv.indexOf(name);
    return i >= 0 && process.argv[i + 1] !== undefined ? Number(process.argv[i + 1]) : fallback;
  };
  const mock = await startMockLlm({ port: arg("--port", 8123), delayMs: arg("--delay", 15), stallMs: arg("--stall", 0) });
  console.log(`mock llm listening on ${mock.url}`);
  for (const signal of ["SIGINT", "SIGTERM"]) {
    process.on(signal, () => mock.close().then(() => process.exit(0)));
  }
}

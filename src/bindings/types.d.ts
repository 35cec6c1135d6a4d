/**
 * Settings of an Agent: `AgentOptions`, with something to play the model: a `provider`, a `model`
 * function, a `scenario` (its offline scripted model) or `replies` (scripted replies).
 */
export type AgentConfig = AgentOptions & (
  | { provider: "openai" | "ollama" | "anthropic" | "wllama" | "chrome" }
  | { model: JsModelFunction }
  | { scenario: string }
  | { replies: string[] }
);
/** Every setting of an Agent (an unknown one is an error at construction, naming the valid ones). */
export interface AgentOptions {
  /** Prompt format: "mrkl" (Thought/Action/Action Input), "paper" (Action n: Tool[input]), "tools" (native tool calling), "auto" (native, falling back to mrkl), or the paper's ablations: "act" (paper without thoughts), "cot" (no tools: Thought, then Answer) and "standard" (no tools: Answer at once). Default: the scenario's, else "mrkl". */
  format?: "mrkl" | "paper" | "tools" | "auto" | "act" | "cot" | "standard";
  /** Prompt language. Default "en". */
  lang?: "en" | "zh";
  /** Steps before the run stops without an answer. Default 8 (or the scenario's). */
  maxSteps?: number;
  /** How often an unreadable reply is asked again before it becomes a repair observation. Default 1. */
  retries?: number;
  /** A built-in scenario: its tools, and (without a provider or `model` function) its scripted model. */
  scenario?: string;
  /** Tools to enable: the built-ins "search", "lookup", "calculator", "search_docs", and names of tools added with registerTool. Default: the scenario's. */
  tools?: string[];
  /** Replies for the scripted model to replay in order (deterministic replay, no key). */
  replies?: string[];
  /** Milliseconds between streamed deltas of the scripted model. Default 0. */
  delayMs?: number;
  /** Where the model runs: "scripted" (offline, default), "openai" (any OpenAI-compatible endpoint), "ollama" (OpenAI-compatible at http://localhost:11434/v1), "anthropic", or "wllama": a small GGUF model in this tab (llama.cpp in WebAssembly, loaded only then), with no key and no server; `model` is a catalogue name ("smollm2-135m", "smollm2-360m", "qwen2.5-0.5b", "qwen3-0.6b", "llama-3.2-1b", "qwen3-1.7b") or the URL of a .gguf file, downloaded once (`download` events) and kept in the browser. "chrome": Chrome's built-in model (the Prompt API), where the browser has it: a model function of the package's `Agent` (tao.js), constrained by default. */
  provider?: "scripted" | "openai" | "ollama" | "anthropic" | "wllama" | "chrome";
  /** The provider's base URL. Default https://api.openai.com/v1, http://localhost:11434/v1 or https://api.anthropic.com. */
  baseUrl?: string;
  /** The model: its name at the provider (e.g. "gpt-4o-mini"; with "wllama", a catalogue name or a .gguf URL), or a JS function that plays the model. */
  model?: string | JsModelFunction;
  /** The API key. Kept in memory, sent only in the provider's auth header; never in events, trajectories or errors. */
  apiKey?: string;
  /** Sampling temperature. Default: the provider's. */
  temperature?: number;
  /** Most tokens per reply. Default: the provider's (Anthropic: 1024). A reply cut there ends the run with stop reason "truncated". */
  maxTokens?: number;
  /** Milliseconds to wait for the response to start (headers, then its first byte). Default 120000; 0: no limit. */
  firstByteTimeoutMs?: number;
  /** Milliseconds a started stream may send nothing. Default 60000; 0: no limit. */
  idleTimeoutMs?: number;
  /** What the `search_docs` tool searches: a list of pages, or the URL of a JSON file of them (fetched at the first search). Enable the tool with tools: [..., "search_docs"] */
  docs?: { title: string; url: string; text: string }[] | string;
  /** Where `search` and `lookup` read: "en" or "zh" (that Wikipedia), or a MediaWiki api.php URL. Default: the built-in offline pages. The API is called with origin=* (CORS). */
  wiki?: string;
  /** Tokens the whole run may use (prompts and replies as the provider counts them, else estimated); checked before each model call: the run then stops with "token_budget". 0 or absent: no limit. */
  tokenBudget?: number;
  /** Milliseconds the run may take (paused time aside); checked before each model call: the run then stops with "time_budget". 0 or absent: no limit. */
  timeBudgetMs?: number;
  /** The prompt's budget, in estimated tokens (about 4 characters, or 1 CJK character, a token): when the next prompt would exceed it, the oldest steps are condensed into a summary the prompt shows in their place (the trajectory keeps every step). 0 or absent: off. */
  memoryTokens?: number;
  /** The latest steps a summary leaves as they are. Default 2. */
  keepSteps?: number;
  /** Reflect every this many steps, and after two failed actions in a row: a reflection the following prompts carry. 0 or absent: off. */
  reflectEvery?: number;
  /** Milliseconds a tool call may take before it is abandoned with an error observation (a tool's own `timeoutMs` wins). Default 30000. */
  toolTimeoutMs?: number;
  /** Few-shot examples (e.g. the ReAct paper's) in place of the format's own worked example in "paper", "act", "cot" and "standard": the prompt's instructions stay, then "Here are some examples." and this text. */
  exemplars?: string;
  /** Hold each reply to one well-formed step of the format: the model is told what a step is (`constraint` in a JS model's options), which the in-tab engine turns into a grammar; "mrkl" also gets a worked example for the run's tools. Default: true with provider "wllama", else false. */
  constrained?: boolean;
  /** MCP servers whose tools the agent gets, listed when the first run starts (or by `tools()`): over Streamable HTTP, the 2026-07-28 protocol or the older one with sessions, as the server speaks. Each a URL or `{url, headers, tools, approve}`: `headers` (a token) are kept in memory only, never in a trajectory, an event or an error; `tools` the server's tools to use (default: all); `approve` which ask before each call through `run`'s `approve` (default `true`: all; `false`: none; or a list of names). A name another tool has gets the server's host in front (`mcp_search`). */
  mcp?: (string | McpServer)[];
}
/** An MCP server of the `mcp` setting. */
export interface McpServer { url: string; headers?: Record<string, string>; tools?: string[]; approve?: boolean | string[]; }
/** A model in JS: stream with `onDelta` (it returns false when tao has read enough) and/or return the reply. `messages` is the whole prompt, a new array at each call; the messages a call shares with the one before are the same objects (read them, do not change them). Besides text, `onDelta` takes the model's reasoning (`{reasoning}`: shown, never parsed), a note for the user (`{note}`: a retry, a dropped parameter) and the token counts so far (`{usage}`: kept if the call then fails). An `Error` thrown with one of tao's kinds as `kind` (`"auth"`, `"rate_limited"`, `"truncated"`, ...) keeps its kind and message; anything else thrown is the model's failure. */
export type JsModelFunction = (messages: TaoMessage[], options: {
  stop: string[]; tools: ToolSpecInit[]; signal: AbortSignal;
  /** In a `constrained` run: what the reply must be, one step of `format` (numbered `step`) calling one of `tools` or answering. */
  constraint?: { format: string; step: number; tools: string[] };
  onDelta: (delta: string | { reasoning: string } | { note: string } | { usage: JsModelUsage } | { download: { loaded: number; total: number } }) => boolean;
}) => JsModelReply | Promise<JsModelReply>;
/** Token counts; `cachedTokens`: prompt tokens read from the model's cache; the speeds in tokens per second. */
export type JsModelUsage = { promptTokens: number; completionTokens: number; cachedTokens?: number; promptPerSecond?: number; replyPerSecond?: number };
export type JsModelReply = string | void | {
  text?: string; toolCalls?: { id?: string; name: string; arguments: object | string }[];
  usage?: JsModelUsage | null;
  /** The reasoning the reply began with, sent back with this turn in later prompts (Anthropic wants its thinking block, signature and all, before tool calls). */
  thinking?: { text: string; signature: string; redacted: string[] } | null;
};
/** What testConnection found. */
export interface ConnectionReport {
  model: string; reply: string; deltas: number; first_token_ms: number | null; total_ms: number;
  usage: { prompt_tokens: number; completion_tokens: number } | null; notes: string[];
}
export interface TaoMessage {
  role: "system" | "user" | "assistant" | "tool"; content: string;
  tool_calls?: { id: string; name: string; arguments: unknown }[]; tool_call_id?: string;
  /** An assistant turn's reasoning, when its model returned it (see JsModelReply). */
  thinking?: { text: string; signature: string; redacted: string[] };
}
/** A tool: `parameters` is the JSON Schema of its input (inputs are checked against it before the call; without it, the model is told the tool takes one string, and the function receives the input unchecked, as the model wrote it: a string, or parsed JSON). */
export interface ToolSpecInit { name: string; description: string; parameters?: object; needsApproval?: boolean; timeoutMs?: number; /** Calls of one reply may run at the same time (no side effects on shared state). */ concurrent?: boolean; }
/** What a tool function may return: the observation, or the observation with the fuel a sandboxed tool burned. */
export type ToolResult = string | { observation: string; fuel?: number; picture?: Picture } | unknown;
/** A JS tool: called with the input and the run's `signal`, which aborts when the run is stopped (a tool at work may stop then; its late answer is not recorded either way). */
export type ToolFunction<I = any> = (input: I, options: { signal?: AbortSignal }) => ToolResult | Promise<ToolResult>;
/** A chart a tool returns with its observation, drawn by the page from its numbers (`kind` "line" or "scatter"; one point per `x`/`y` pair). */
export interface Picture { kind: "line" | "scatter"; title?: string; x: (number | string)[]; y: number[]; xLabel?: string; yLabel?: string }
export interface RunOptions {
  onEvent?: (event: TaoEvent) => void;
  /** Aborting it stops the run at once (Stop): it resolves with `stop.reason` "aborted". */
  signal?: AbortSignal;
  /** Aborting it pauses the run at the next pause point (before a model call or a tool call): it resolves with the unfinished trajectory (`stop` null), for `resume` or `next`. */
  pause?: AbortSignal;
  /** Asked before each call of a tool with `needsApproval`; resolve true to run it. Without it, such calls are denied. `server`: the URL of the MCP server the tool is one of (where the input goes), else null. */
  approve?: (request: { tool: string; input: unknown; server: string | null }) => boolean | Promise<boolean>;
}
export type TaoEvent =
  | { type: "step"; index: number }
  /** Model call `n` of step `index` begins; `retried`: it asks again because the reply before could not be read (why, and what the model was told: what was wrong, then the format). `stats`: the run's counts so far, computed from the trajectory, this call included (the trajectory's own `stats` are the final word). */
  | { type: "model_call"; index: number; n: number; retried: { why: string; message: string } | null; stats: Stats }
  | { type: "token"; index: number; text: string }
  /** A piece of a reasoning model's reasoning, streamed before its reply. */
  | { type: "reasoning"; index: number; text: string }
  | { type: "thought"; index: number; text: string }
  /** `tool_call`: the call's position among those of one reply (0 unless the model made several at once). */
  | { type: "action"; index: number; tool_call: number; tool: string; input: unknown }
  | { type: "approval"; index: number; tool_call: number; tool: string; approved: boolean }
  /** `picture`: what the tool returned to be drawn with the observation (a chart: `{kind, title, x, y}`). */
  | { type: "observation"; index: number; tool_call: number; text: string; fuel: number | null; picture: Picture | null }
  | { type: "repair"; index: number; tool_call: number; why: string; message: string }
  | { type: "note"; index: number; text: string }
  | { type: "download"; index: number; loaded: number; total: number }
  | { type: "switch"; index: number; from: string; to: string; why: string }
  | { type: "answer"; index: number; text: string }
  /** A long run's memo, written after step `after`: a summary of steps 1 to `covers`, or a reflection (`covers` 0); `by_model` false when tao wrote it from the steps (the offline model). */
  | { type: "summary" | "reflection"; after: number; covers: number; text: string; by_model: boolean }
  | { type: "stopped"; reason: StopReason; message: string | null };
export type StopReason = "answer" | "max_steps" | "aborted" | "error" | "refused" | "truncated" | "token_budget" | "time_budget";
/** A tool call; `id` is the provider's (native tool calling), sent back with its result. */
export interface TaoAction { tool: string; input: unknown; id: string | null }
/** One call of a tool: the action, and what came of it. */
export interface TaoToolCall {
  action: TaoAction;
  /** What the tool returned, or the repair message; null: the tool has not run yet. */
  observation: string | null;
  /** Set when its input did not fit the tool (or repeated the step before's). */
  repair: { why: string; message: string } | null;
  approved: boolean | null; fuel: number | null; ms: number;
  /** A picture the tool returned with the observation (see `Picture`). */
  picture: Picture | null;
}
export interface TaoStep {
  index: number; thought: string;
  /** The tools the model called, in its order, each with what came of it (empty when it answered, or when its reply could not be used). */
  tool_calls: TaoToolCall[];
  answer: string | null;
  /** Set when the reply itself could not be used (no readable action, an unknown tool); the model reads `message` as the observation. */
  repair: { why: string; message: string } | null;
  /** The model calls of the step, in order; the last is the reply the step is made of. */
  model_calls: ModelCall[];
  notes: string[]; switch: { from: string; to: string; why: string } | null;
  ms: number;
}
/** A note written between steps of a long run, which the following prompts carry. */
export interface Memo {
  kind: "summary" | "reflection";
  /** The step it was written after. */
  after: number;
  /** A summary stands for steps 1 to `covers` (the prompt leaves them out); 0 for a reflection. */
  covers: number;
  text: string;
  /** The model call that wrote it; null when tao wrote it from the steps (the offline model). */
  call: ModelCall | null;
}
export interface ModelCall {
  raw: string;
  /** Set when this reply could not be read and the model was asked again. */
  retried: { why: string; message: string } | null;
  /** Tokens, when the model said: `cached_tokens` of the prompt were read from its cache; the speeds (tokens per second) where the model says (the in-tab engine). */
  usage: { prompt_tokens: number; completion_tokens: number; cached_tokens: number; prompt_per_second: number | null; reply_per_second: number | null } | null;
  ms: number; first_token_ms: number | null; saved_chars: number;
  /** What arrived after the cut at an invented Observation. */
  cut: string | null;
  /** A reasoning model's reasoning before this reply (Anthropic's signature kept to send it back). */
  thinking: { text: string; signature: string; redacted: string[] } | null;
}
export interface Trajectory {
  format: "tao-trajectory"; version: 5; task: string; react_format: string; lang: string; model: string;
  steps: TaoStep[];
  /** Summaries and reflections, in the order they were written. */
  memos: Memo[];
  /** Written from the steps (the last step's answer); not read back. */
  answer: string | null;
  stop: { reason: StopReason; message: string | null } | null;
  /** Computed from the steps when written; not read back. */
  stats: Stats;
}
/** Counts over a run, named as in the ReAct paper's code, computed from its steps. */
export interface Stats { n_calls: number; n_badcalls: number; steps: number; elapsed_ms: number; prompt_tokens: number; completion_tokens: number; saved_chars: number }
export interface ScenarioInfo { name: string; title: string; description: string; task: string; format: "mrkl" | "paper"; maxSteps: number | null; memoryTokens: number | null; reflectEvery: number | null; tools: string[];
  /** The short gold answer in the language asked for, to score each mode (exact match, F1); null when the scenario has none. */
  gold: string | null;
  /** The modes the offline model has scripted replies for: always "react" (the `policy`, used for "mrkl", "paper", "tools", "auto" and any mode without its own), then any of "act", "cot", "standard". */
  modes: ("react" | "act" | "cot" | "standard")[]; }
/** The offline data, as text, for `loadOfflineData`: the files `data/scenarios.json` (every scenario, one JSON array), `data/knowledge.json` (the pages of the offline `search` and `lookup`) and `data/zh.json` (the Chinese prompts and tool descriptions, which an agent or trajectory in Chinese needs first) beside the wasm. */
export interface OfflineData { scenarios?: string; knowledge?: string; zh?: string }
/** A provider over HTTP, as `providers()` lists them. */
export interface ProviderInfo { name: "openai" | "ollama" | "anthropic"; baseUrl: string; model: string; needsKey: boolean; }
/** What kind of failure an Error thrown by tao is (`error.kind`). */
export type TaoErrorKind = "config" | "model" | "format" | "aborted" | "network" | "auth" | "not_found" | "too_long" | "rate_limited" | "server" | "tools_rejected" | "timeout" | "refused" | "truncated";
/** An answer's score as the ReAct paper computes it (`scoreAnswer`): HotpotQA's exact match (0 or 1) and token F1 after its `normalize_answer`; for FEVER both are the label's accuracy, 0 or 1. */
export interface Score { em: number; f1: number }
/** The majority answer of several samples (`vote`, the paper's CoT-SC), as its first sample spelled it: `count` of the `of` samples gave it. The paper backs off to ReAct when `count < of / 2`. */
export interface Vote { answer: string; count: number; of: number }
/** One step of a `TrainingRecord`: the request the model was sent (`prompt`, and `tools` beside it in native tool calling), its raw reply, and what came of it. */
export interface TrainingStep {
  index: number; prompt: TaoMessage[]; tools: ToolSpecInit[]; reply: string; thought: string;
  action: { tool: string; input: unknown } | null; observation: string | null; answer: string | null;
}
/** A run as training data (`agent.trainingRecord`, one line of `tao export-jsonl`); `mode` is "react" for the paper's format, else the format's name; the `extra` fields given are added last. */
export interface TrainingRecord {
  task: string; mode: string; model: string; format: string; lang: string; steps: TrainingStep[];
  answer: string | null; stop: StopReason | null; reward: number | null; [extra: string]: unknown;
}

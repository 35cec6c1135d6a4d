// `tao-agent/code-tool`: run_js, model-written JavaScript in a sandbox (an opaque-origin iframe's
// Worker with no network). In a browser only: it needs the DOM.
import type { ToolSpecInit, ToolFunction, Picture } from "./tao.js";

/** Default wall-clock limit per call, in milliseconds. */
export const DEFAULT_TIMEOUT_MS: number;
/** Most characters of console output (and, separately, of the value) a call returns. */
export const MAX_OUTPUT_CHARS: number;

/** What a run of code gave: what it printed, its last expression's value or its error, its chart. */
export interface CodeResult {
  logs: string[];
  value: string | undefined;
  error: string | undefined;
  picture: Picture | undefined;
  timedOut: boolean;
  ms: number;
}

/** Runs `code` in a fresh sandbox; errors in the code are results, never rejections. `files`: what it reads as `files`. */
export function runCode(code: string, options?: { timeoutMs?: number; files?: Record<string, string>; signal?: AbortSignal }): Promise<CodeResult>;

/**
 * The run_js tool: register it with `agent.registerTool(tool.spec, tool.fn)`. `files()` gives the
 * files the code may read (name → text; the stock-chart scenario reads `stock_prices.csv`, the
 * package's `samples/stock_prices.csv`); `lang()` the language the model is told of it in.
 */
export function codeTool(options?: {
  timeoutMs?: number;
  files?: () => Record<string, string> | Promise<Record<string, string>>;
  lang?: () => string;
}): { readonly spec: ToolSpecInit; fn: ToolFunction };

/** The observation a model reads of a result: the console lines, then `=> value` or `Error: …`. */
export function observation(result: Pick<CodeResult, "logs" | "value" | "error" | "picture">): string;

// A JavaScript "code interpreter" tool: run model-written JS where it cannot hurt the page.
//
// A model that can run code can compute instead of guessing (arithmetic, dates, parsing). But
// its code is untrusted: it must not read the API key, the page's storage or cookies, touch the
// DOM, reach the network, or freeze the tab. Each call therefore gets a fresh sandbox made of
// three walls, each of which holds on its own:
//
//   page ──postMessage──▶ <iframe sandbox="allow-scripts" srcdoc> ──postMessage──▶ Worker (blob:)
//                         opaque origin + CSP                                      runs the code
//
//   1. An opaque origin. The iframe has `allow-scripts` but not `allow-same-origin`, so its
//      origin is a fresh opaque one: the page's localStorage, IndexedDB, Cache API and cookies
//      belong to another origin, and `parent.document` or `parent.TAO_SECRET_KEY` throw.
//   2. A Content-Security-Policy with no network at all (`default-src 'none'`, `connect-src
//      'none'`): fetch, XHR, WebSocket, EventSource, importScripts and import() of any URL are
//      refused before a request leaves. Scripts may only be inline, eval'd or blob:, which is
//      what the sandbox itself needs. A Worker made from a blob: URL inherits this policy, and
//      so do the workers it makes.
//   3. A Worker thread. The code runs there, never on a thread that draws a page, so a
//      `while (true) {}` leaves the page responsive. A Worker has no DOM, no `parent`, no
//      `localStorage` and no `document.cookie` to begin with.
//
// On top of the walls, the Worker deletes the network and storage APIs from its global scope
// before the code runs (defense in depth: the tests run every probe with that turned off too).
//
// The page's timer is the one limit the code cannot touch: when it fires, the page removes the
// iframe, and the browser terminates the Worker with its document. Since every call tears its
// sandbox down the same way, nothing (variables, timers, a stuck loop) survives into the next.
//
//   import { runCode, codeTool } from "./www/code-tool.js";
//   await runCode("console.log('hi'); 6 * 7");
//   // {logs: ["hi"], value: "42", error: undefined, timedOut: false, ms: 38}
//   const tool = codeTool({ timeoutMs: 5000 });   // {spec: {name: "run_js", ...}, fn}
//   await tool.fn({ code: "[1, 2, 3].map((x) => x * x)" });   // "=> [ 1, 4, 9 ]"
//
// Two things come in and go out beside the code. `files` (name → text: the CSV files the user
// dropped on the page) are copied into the Worker, where the code reads `files["prices.csv"]`.
// `plot({x, y, kind, title})` makes a chart: a plain data object, checked in the Worker (bad
// arguments are an error the model reads), checked again by the page (see picture.js), and
// returned as the tool's `picture`, which the page draws and the model never sees: the model
// reads one line, "Plotted a line chart of 250 points: Closing price".
//
//   await runCode('plot({x: [1, 2, 3], y: [2, 4, 8], title: "Doubling"})');
//   // {logs: ["Plotted a line chart of 3 points: Doubling"], picture: {kind: "line", …}, …}
//
// The srcdoc document inherits the page's own CSP as well (srcdoc documents do): if the page
// ever gets one, it must allow this inline script, or the sandbox must move to its own file.

import { checkPicture, pictureSummary, MAX_POINTS } from "./picture.js";

/** Default wall-clock limit per call, in milliseconds: sandbox start-up included. */
export const DEFAULT_TIMEOUT_MS = 5000;

/** Most characters of console output (and, separately, of the value) a call returns. */
export const MAX_OUTPUT_CHARS = 16_384;

/** The note that ends an output cut at MAX_OUTPUT_CHARS. */
const TRUNCATED = `…(truncated: output over ${MAX_OUTPUT_CHARS} characters)`;

/** No network of any kind; scripts only inline, eval'd or from blob: URLs (the Worker). */
const CSP = "default-src 'none'; script-src 'unsafe-inline' 'unsafe-eval' blob:; " +
  "worker-src blob:; connect-src 'none'";

/**
 * Runs `code` in a fresh sandbox and returns what it printed and what its last expression was
 * (awaited if it is a Promise), and the chart it plotted, if any. Errors in the code (syntax
 * errors, exceptions, the timeout) are results, never rejections.
 *
 * `files` (name → text) are what the code reads as `files`. `harden: false` skips the
 * Worker's defense in depth; the tests use it to show that the opaque origin and the CSP hold
 * on their own.
 *
 * @returns {Promise<{logs: string[], value: string|undefined, error: string|undefined,
 *   picture: object|undefined, timedOut: boolean, ms: number}>}
 */
export async function runCode(code, { timeoutMs = DEFAULT_TIMEOUT_MS, harden = true, files = {}, signal } = {}) {
  const started = performance.now();
  const logs = new Logs(MAX_OUTPUT_CHARS);
  const iframe = createSandbox();
  let onMessage;
  try {
    const outcome = await new Promise((resolve) => {
      const timer = setTimeout(() => resolve({ timedOut: true }), timeoutMs);
      // Stop reaches the code: the run was stopped, and the sandbox goes with it (finally below).
      if (signal?.aborted) resolve({ stopped: true });
      signal?.addEventListener("abort", () => resolve({ stopped: true }), { once: true });
      // Only the sandbox's own window may speak, and what it says is data from untrusted
      // code: only strings are taken from it.
      onMessage = (event) => {
        if (event.source !== iframe.contentWindow) return;
        const message = event.data ?? {};
        if (message.kind === "log") logs.add(String(message.text));
        if (message.kind === "done") {
          clearTimeout(timer);
          resolve(message);
        }
      };
      window.addEventListener("message", onMessage);
      // The code goes in once the sandbox's script has run; "*" because an opaque origin has
      // no name to address it by. Nothing but the code, one flag and the files is ever sent.
      iframe.addEventListener("load", () => {
        iframe.contentWindow.postMessage({ code: String(code), harden: Boolean(harden), files: textsOf(files) }, "*");
      }, { once: true });
      document.body.append(iframe);
    });
    // The chart is data from untrusted code: checked again here, whatever the Worker said.
    const checked = outcome.picture === undefined ? {} : checkPicture(outcome.picture);
    if (checked.error) logs.add(`[the chart was refused: ${checked.error}]`);
    return {
      logs: logs.lines,
      value: outcome.value === undefined ? undefined : cap(String(outcome.value)),
      picture: checked.picture,
      error: outcome.timedOut
        ? `timed out after ${timeoutMs} ms (the code was stopped)`
        : outcome.stopped
          ? "the run was stopped (so was the code)"
          : outcome.error === undefined ? undefined : cap(String(outcome.error)),
      timedOut: Boolean(outcome.timedOut),
      ms: Math.round(performance.now() - started),
    };
  } finally {
    // Removing the iframe ends its document, and with it the Worker, even mid-loop.
    window.removeEventListener("message", onMessage);
    iframe.remove();
  }
}

/**
 * The tool for the agent: a name, a description, a JSON-Schema and a function that turns a run
 * into an observation the model can read (and the chart the code plotted, as `picture`).
 * `files()` gives the files the code may read (name → text), asked afresh at each call and
 * named in the description, so the model knows what it can open. `lang()` is the language the
 * model is told it in ("en" or "zh"), asked afresh too: a Chinese prompt describes it in Chinese.
 */
export function codeTool({ timeoutMs = DEFAULT_TIMEOUT_MS, files = () => ({}), lang = () => "en" } = {}) {
  return {
    get spec() {
      return {
        name: "run_js",
        description: lang() === "zh" ? chineseDescription(timeoutMs, files) : englishDescription(timeoutMs, files),
        parameters: {
          type: "object",
          properties: {
            code: {
              type: "string",
              description: lang() === "zh" ? "要运行的 JavaScript；它的最后一个表达式就是结果。" : "The JavaScript to run; its last expression is the result.",
            },
          },
          required: ["code"],
        },
      };
    },
    fn: async (input, { signal } = {}) => {
      const code = codeFrom(input);
      if (code === undefined) return 'Error: run_js expects the code, as text or as {"code": "..."}';
      const result = await runCode(code, { timeoutMs, files: await files(), signal });
      const text = observation(result);
      return result.picture ? { observation: text, picture: result.picture } : text;
    },
  };
}

/** What the model is told of run_js, in English. */
function englishDescription(timeoutMs, files) {
  return (
    "Runs JavaScript in an isolated sandbox and returns what it printed with console.log, " +
    "then `=> ` and the value of the last expression (a Promise is awaited). Use it to " +
    "compute, parse or check things exactly. Standard JS only: there is no DOM, no network " +
    "(fetch and the like fail), no storage and no modules. No top-level await: end with an " +
    "async function call instead, e.g. (async () => { ...; return x })(). Each call starts " +
    `fresh (nothing is kept between calls) and is stopped after ${timeoutMs} ms. ` +
    `Files the user attached are in \`files\`, an object of file name to text (${fileList(files)}). ` +
    "To draw a chart for the user, call plot({x, y, kind, title}) once: x (numbers or texts) " +
    `and y (numbers) of the same length, at most ${MAX_POINTS} points, kind "line" (the ` +
    'default) or "scatter"; the user sees the chart, and you read one line saying what was plotted.'
  );
}

/** The same, in Chinese. */
function chineseDescription(timeoutMs, files) {
  const names = fileNames(files);
  return (
    "在隔离的沙箱中运行 JavaScript，返回它用 console.log 打印的内容，然后是 `=> ` 和最后一个表达式的值" +
    "（Promise 会被等待）。用它来精确地计算、解析或核对。只有标准 JS：没有 DOM，没有网络（fetch 之类会失败），" +
    "没有存储，也没有模块。不能在顶层使用 await：改为以一个异步函数调用结尾，例如 (async () => { ...; return x })()。" +
    `每次调用都从头开始（调用之间不保留任何东西），${timeoutMs} 毫秒后被停止。` +
    `用户附加的文件在 \`files\` 中，一个从文件名到文本的对象（${names.length ? `现有：${names.join("、")}` : "现在没有"}）。` +
    "要为用户画图，调用一次 plot({x, y, kind, title})：x（数字或文本）和 y（数字）长度相同，" +
    `最多 ${MAX_POINTS} 个点，kind 为 "line"（默认）或 "scatter"；用户会看到图表，你会读到一行说明画了什么。`
  );
}

/** The files' names for the description: `now: prices.csv, notes.txt`, or that there are none. */
function fileList(files) {
  const names = fileNames(files);
  return names.length ? `now: ${names.join(", ")}` : "none now";
}

function fileNames(files) {
  try {
    return Object.keys(files() ?? {});
  } catch {
    return []; // a files function that fails to list gives the model no names: it can still look
  }
}

/**
 * The observation a model reads: the console lines (with the line `plot` wrote), then
 * `=> value` or `Error: ...`. After a chart, a bare `=> undefined` says nothing and is left out.
 */
export function observation({ logs, value, error, picture }) {
  if (error === undefined && value === undefined && picture) return logs.join("\n");
  const last = error !== undefined ? `Error: ${error}` : `=> ${value ?? "undefined"}`;
  return [...logs, last].join("\n");
}

/** Only text goes into the sandbox: each file's name and contents, as strings. */
function textsOf(files) {
  const texts = {};
  for (const [name, text] of Object.entries(files ?? {})) texts[String(name)] = String(text);
  return texts;
}

/**
 * The code in a tool input. Models send it several ways: `{code}` from a tools API, raw text,
 * raw text that is itself that JSON, or text wrapped in a Markdown fence. All are accepted.
 */
function codeFrom(input) {
  if (input && typeof input === "object") return typeof input.code === "string" ? input.code : undefined;
  if (typeof input !== "string") return undefined;
  let text = input.trim();
  if (text.startsWith("{")) {
    try {
      const parsed = JSON.parse(text);
      if (typeof parsed?.code === "string") text = parsed.code;
    } catch {
      // Not JSON: an object literal or a block is JavaScript too.
    }
  }
  const fenced = /^```[\w-]*\n([\s\S]*?)\n?```$/.exec(text.trim());
  return fenced ? fenced[1] : text;
}

/** Console lines, cut once they add up to `limit` characters, with a note saying so. */
class Logs {
  constructor(limit) {
    this.limit = limit;
    this.used = 0;
    this.lines = [];
    this.full = false;
  }

  add(text) {
    if (this.full) return;
    if (this.used + text.length > this.limit) {
      this.lines.push(text.slice(0, this.limit - this.used) + TRUNCATED);
      this.full = true;
      return;
    }
    this.used += text.length;
    this.lines.push(text);
  }
}

/** One string cut at MAX_OUTPUT_CHARS, with the note. */
function cap(text) {
  return text.length > MAX_OUTPUT_CHARS ? text.slice(0, MAX_OUTPUT_CHARS) + TRUNCATED : text;
}

/** A hidden iframe with an opaque origin and no network, ready to run one piece of code. */
function createSandbox() {
  const iframe = document.createElement("iframe");
  iframe.setAttribute("sandbox", "allow-scripts");
  iframe.hidden = true;
  iframe.title = "run_js sandbox";
  // Both scripts are real functions in this file, sent as their source text: the relay runs in
  // the iframe, the runner in the Worker. JSON.stringify makes the runner's source a JS string
  // literal; its "<" are escaped so no "</script>" inside it can end the element early.
  // The picture's checks go in the same way, so `plot` in the Worker holds to the page's rules.
  const runnerSource = `(${runner})(${MAX_OUTPUT_CHARS}, ${checkPicture}, ${pictureSummary});`;
  const literal = JSON.stringify(runnerSource).replaceAll("<", "\\u003c");
  const script = `(${relay})(${literal});`;
  iframe.srcdoc = `<!doctype html><meta charset="utf-8">` +
    `<meta http-equiv="Content-Security-Policy" content="${CSP}">` +
    `<script>${script}</script>`;
  return iframe;
}

// ---------------------------------------------------------------------------------------------
// Inside the iframe. Runs in the sandbox's opaque origin; sees nothing of this module.

/**
 * The iframe's whole job: take one message from the page, start the Worker, pass the code on,
 * and pass the Worker's messages back up. It stays idle, so the page can remove it any time.
 */
function relay(runnerSource) {
  onmessage = (event) => {
    if (event.source !== parent) return;
    onmessage = null;
    const url = URL.createObjectURL(new Blob([runnerSource], { type: "text/javascript" }));
    const worker = new Worker(url);
    worker.onmessage = (e) => parent.postMessage(e.data, "*");
    // Only reached when the Worker itself cannot start: the runner catches the code's errors.
    worker.onerror = (e) => {
      e.preventDefault();
      parent.postMessage({ kind: "done", error: `the sandbox could not start: ${e.message}` }, "*");
    };
    worker.postMessage(event.data);
  };
}

// ---------------------------------------------------------------------------------------------
// Inside the Worker. Self-contained: it is sent as source text, so it may use only its own
// parameters and the functions nested in it.

/**
 * Runs one piece of code: console lines go out as they happen, then one "done" (with the chart
 * `plot` made, if any). `checkPicture` and `pictureSummary` are picture.js's, sent as source.
 */
function runner(limit, checkPicture, pictureSummary) {
  // Kept before the code runs: hardening removes the global `postMessage` the code could use
  // to forge results.
  const send = self.postMessage.bind(self);

  /** APIs that reach the network, storage or other contexts. */
  const BLOCKED = ["fetch", "XMLHttpRequest", "WebSocket", "WebSocketStream", "EventSource",
    "WebTransport", "importScripts", "indexedDB", "caches", "cookieStore", "Worker",
    "SharedWorker", "BroadcastChannel", "postMessage"];

  /**
   * Defense in depth only: the origin and the CSP are the walls. Each name is deleted from the
   * global and its prototypes (Chromium keeps `fetch` on WorkerGlobalScope.prototype), then
   * shadowed with `undefined` where it survives.
   */
  function harden() {
    for (const name of BLOCKED) {
      for (let scope = self; scope; scope = Object.getPrototypeOf(scope)) {
        Reflect.deleteProperty(scope, name);
      }
      if (name in self) {
        try {
          Object.defineProperty(self, name, { value: undefined, writable: false, configurable: false });
        } catch {
          // Left as is; the walls still hold.
        }
      }
    }
  }

  let sent = 0;
  /** Sends a console line, until `limit` characters have gone out (the page cuts and notes). */
  function log(text) {
    if (sent > limit) return;
    const part = text.slice(0, limit + 1 - sent);
    sent += part.length;
    send({ kind: "log", text: part });
  }

  /** Replaces console's printing methods with ones that send their line to the page. */
  function captureConsole() {
    const plain = ["log", "info", "debug", "dir", "table", "trace"];
    for (const method of plain) console[method] = (...args) => log(args.map(show).join(" "));
    console.warn = (...args) => log(`[warn] ${args.map(show).join(" ")}`);
    console.error = (...args) => log(`[error] ${args.map(show).join(" ")}`);
  }

  /** A console argument: strings as they are, anything else formatted. */
  function show(value) {
    return typeof value === "string" ? value : format(value);
  }

  /** An error as the console shows it, `TypeError: x is not a function`; other values formatted. */
  function errorText(error) {
    try {
      if (error instanceof Error || (error && typeof error === "object" && "message" in error)) {
        return `${error.name ?? "Error"}: ${error.message}`;
      }
      return show(error);
    } catch {
      return "an error that could not be shown (reading it threw)";
    }
  }

  /** A thrown value for the observation, which already starts `Error: `, so no `Error: Error:`. */
  function thrownText(error) {
    return error instanceof Error && error.name === "Error" ? String(error.message) : errorText(error);
  }

  /**
   * Any value as readable text, in Node's style (`{ a: 1, b: [ 2, 3 ] }`). Survives cycles,
   * BigInt, symbols, functions, getters that throw and huge values (depth, items and the
   * number of values visited are all capped).
   */
  function format(value) {
    const MAX_DEPTH = 5;
    const MAX_ITEMS = 100;
    let budget = 5000;
    const ancestors = [];

    const key = (k) => (/^[A-Za-z_$][\w$]*$/.test(k) ? k : JSON.stringify(k));
    const list = (open, items, more, close) => {
      if (more > 0) items.push(`… ${more} more`);
      return items.length === 0 ? `${open}${close}` : `${open} ${items.join(", ")} ${close}`;
    };

    function fmt(v, depth) {
      if (--budget < 0) return "…";
      switch (typeof v) {
        case "string": return JSON.stringify(v.length > limit ? v.slice(0, limit) : v);
        case "number": return Object.is(v, -0) ? "-0" : String(v);
        case "bigint": return `${v}n`;
        case "symbol": return v.toString();
        case "undefined": return "undefined";
        case "boolean": return String(v);
        case "function": return `[Function: ${v.name || "(anonymous)"}]`;
      }
      if (v === null) return "null";
      if (ancestors.includes(v)) return "[Circular]";
      if (v instanceof Error) return errorText(v);
      if (v instanceof Date) return Number.isNaN(v.getTime()) ? "Invalid Date" : v.toISOString();
      if (v instanceof RegExp) return String(v);
      if (v instanceof Promise) return "Promise { … }";
      if (depth >= MAX_DEPTH) return Array.isArray(v) ? "[Array]" : "[Object]";
      ancestors.push(v);
      try {
        return container(v, depth + 1);
      } finally {
        ancestors.pop();
      }
    }

    function container(v, depth) {
      if (Array.isArray(v) || (ArrayBuffer.isView(v) && !(v instanceof DataView))) {
        const shown = Math.min(v.length, MAX_ITEMS);
        const items = [];
        for (let i = 0; i < shown; i++) items.push(i in v ? fmt(v[i], depth) : "<empty>");
        const prefix = Array.isArray(v) ? "" : `${v.constructor.name}(${v.length}) `;
        return prefix + list("[", items, v.length - shown, "]");
      }
      if (v instanceof Map) {
        const items = [...v].slice(0, MAX_ITEMS).map(([k, x]) => `${fmt(k, depth)} => ${fmt(x, depth)}`);
        return `Map(${v.size}) ` + list("{", items, v.size - items.length, "}");
      }
      if (v instanceof Set) {
        const items = [...v].slice(0, MAX_ITEMS).map((x) => fmt(x, depth));
        return `Set(${v.size}) ` + list("{", items, v.size - items.length, "}");
      }
      const keys = Object.keys(v);
      const items = keys.slice(0, MAX_ITEMS).map((k) => {
        try {
          return `${key(k)}: ${fmt(v[k], depth)}`;
        } catch (error) {
          return `${key(k)}: [threw ${errorText(error)}]`;
        }
      });
      const name = Object.getPrototypeOf(v)?.constructor?.name;
      const prefix = typeof name === "string" && name !== "Object" ? `${name} ` : "";
      return prefix + list("{", items, keys.length - items.length, "}");
    }

    try {
      return fmt(value, 0);
    } catch (error) {
      return `[a value that could not be shown: ${error?.message ?? error}]`;
    }
  }

  // Errors after the result (a timer's callback, a Promise nobody awaited) become console lines.
  self.addEventListener("error", (event) => {
    event.preventDefault();
    log(event.error === undefined ? event.message : `Uncaught ${errorText(event.error)}`);
  });
  self.addEventListener("unhandledrejection", (event) => {
    event.preventDefault();
    log(`Uncaught (in promise) ${errorText(event.reason)}`);
  });

  /** The chart of this call: `plot` sets it once. */
  let picture;

  /**
   * What the code sees: `files` (name → text, a copy of the page's) and `plot`, which checks
   * its arguments and keeps the chart as plain data. Bad arguments throw: the model reads why.
   */
  function provide(files) {
    self.files = files && typeof files === "object" ? files : {};
    self.plot = (options) => {
      if (picture !== undefined) throw new Error("plot: one chart per run_js call; call run_js again for another");
      const checked = checkPicture(options);
      if (checked.error) throw new Error(`plot: ${checked.error}`);
      picture = checked.picture;
      log(`Plotted ${pictureSummary(picture)}`);
    };
  }

  self.onmessage = async (event) => {
    self.onmessage = null;
    const { code, harden: shouldHarden, files } = event.data;
    captureConsole();
    provide(files);
    if (shouldHarden) harden();
    try {
      // Indirect eval: the code runs in the global scope (it cannot see `send` or this
      // function), and eval returns the value of the last expression statement.
      let value = (0, eval)(code);
      if (value !== null && (typeof value === "object" || typeof value === "function") &&
        typeof value.then === "function") {
        value = await value;
      }
      send({ kind: "done", value: value === undefined ? undefined : format(value), picture });
    } catch (error) {
      send({ kind: "done", error: thrownText(error), picture });
    }
  };
}

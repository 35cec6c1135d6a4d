//! The model in the tab (`provider: "wllama"`): llama.cpp compiled to WebAssembly (wllama, MIT,
//! pinned in package.json), running a small GGUF model on the reader's own machine, with no key
//! and no server. A provider written in JavaScript, since the engine is: scripts/build.sh copies
//! this file to pkg/tao_wllama.js and the engine beside it into pkg/wllama/. The core imports
//! this module the first time a run uses the provider (src/bindings/modules.rs), and calls
//! `localModel(settings)` for the model of a run, a JS model like any other
//! (src/bindings/js_model.rs): `(messages, { stop, constraint, signal, onDelta }) => { usage }`.
//!
//! What it adds to the engine:
//! - **One engine per page**, kept from run to run with its model and its KV cache: from the
//!   second call on, only what the prompt added is evaluated (`cache_prompt`). Calls wait their
//!   turn (a compare view runs several agents on one model).
//! - **The download** as events (`onDelta({download: {loaded, total}})`, tao's `download`
//!   event), cancelled by the run's signal; the file kept in the browser's storage (OPFS, by the
//!   engine's cache) and loaded from there next time, with no network.
//! - **Checks before the bytes**, each an error a person can act on: a URL that is not a GGUF
//!   (its first four bytes), a file too large for the engine, storage too full (with what is
//!   stored), a browser without the WebAssembly features the engine needs (the engine's fallback
//!   build lives on a CDN: it is never fetched; the message says what the browser lacks).
//! - **Kept to the format:** a constrained run says what a step is (`constraint`: the format,
//!   the step's number, the tools' names); `grammar` writes it in GBNF, llama.cpp's grammar
//!   language, so every reply the engine can write is one step the parser reads.
//! - The reply's figures: prompt tokens, those reused from the cache, reply tokens, and the
//!   speed of each (`usage`).
//!
//! The page also uses `catalogue`, `inspect`, `stored`, `forget` and `useFile` (the Model panel).

import { Wllama } from "./wllama/index.js";

// The engine's wasm, as a literal `new URL` so that bundlers copy it (src/bindings/modules.rs).
const WASM = new URL("./wllama/wllama.wasm", import.meta.url);

/**
 * Small instruct models that run in a tab (what each is good for in English and Chinese), in the
 * quantisation to download (Q8_0 ran faster than
 * Q4 in the wasm build here: it has fast kernels for it). `bytes` is the file's size as published
 * (the page asks the server for the exact size before it downloads).
 */
export const catalogue = [
  {
    name: "smollm2-135m",
    label: "SmolLM2 135M Instruct",
    url: "https://huggingface.co/bartowski/SmolLM2-135M-Instruct-GGUF/resolve/main/SmolLM2-135M-Instruct-Q8_0.gguf",
    bytes: 144_811_904,
    quant: "Q8_0",
    licence: "Apache-2.0",
    good: "The smallest: watching the loop, arithmetic with the calculator; often wrong",
    goodZh: "最小的一个：看循环如何运转、用计算器做算术；常常出错",
  },
  {
    name: "smollm2-360m",
    label: "SmolLM2 360M Instruct",
    url: "https://huggingface.co/HuggingFaceTB/SmolLM2-360M-Instruct-GGUF/resolve/main/smollm2-360m-instruct-q8_0.gguf",
    bytes: 386_404_992,
    quant: "Q8_0",
    licence: "Apache-2.0",
    good: "A classroom demo on any laptop: short questions with one tool",
    goodZh: "任何笔记本电脑上的课堂演示：只用一个工具的简短问题",
  },
  {
    name: "qwen2.5-0.5b",
    label: "Qwen2.5 0.5B Instruct",
    url: "https://huggingface.co/Qwen/Qwen2.5-0.5B-Instruct-GGUF/resolve/main/qwen2.5-0.5b-instruct-q8_0.gguf",
    bytes: 675_710_816,
    quant: "Q8_0",
    licence: "Apache-2.0",
    good: "Follows the format well for its size; English and Chinese",
    goodZh: "以其规模而言很守格式；英文和中文",
  },
  {
    name: "qwen3-0.6b",
    label: "Qwen3 0.6B",
    url: "https://huggingface.co/Qwen/Qwen3-0.6B-GGUF/resolve/main/Qwen3-0.6B-Q8_0.gguf",
    bytes: 639_446_688,
    quant: "Q8_0",
    licence: "Apache-2.0",
    good: "The best small reasoner here; English and Chinese",
    goodZh: "这里最会推理的小模型；英文和中文",
  },
  {
    name: "llama-3.2-1b",
    label: "Llama 3.2 1B Instruct",
    url: "https://huggingface.co/bartowski/Llama-3.2-1B-Instruct-GGUF/resolve/main/Llama-3.2-1B-Instruct-Q4_K_M.gguf",
    bytes: 807_694_464,
    quant: "Q4_K_M",
    licence: "Llama 3.2 Community License",
    good: "Multi-step questions with search; needs a fast machine",
    goodZh: "需要搜索的多步问题；需要较快的电脑",
  },
  {
    name: "qwen3-1.7b",
    label: "Qwen3 1.7B",
    url: "https://huggingface.co/Qwen/Qwen3-1.7B-GGUF/resolve/main/Qwen3-1.7B-Q8_0.gguf",
    bytes: 1_834_426_016,
    quant: "Q8_0",
    licence: "Apache-2.0",
    good: "The strongest that fits the engine's 2 GB per file; slow on the CPU",
    goodZh: "引擎单个文件 2 GB 上限内最强的一个；在 CPU 上较慢",
  },
];

/** The engine reads one file of at most 2 GB (an ArrayBuffer's limit in its build). */
const MOST_BYTES = 2 ** 31;

/** Files the reader picked (the Model panel's "a file on this computer"), by their id. */
const picked = new Map();

/** An Error with one of tao's kinds, which the core keeps (src/bindings/js_model.rs). */
function problem(kind, message, cause) {
  return Object.assign(new Error(message, { cause }), { kind });
}

const mb = (bytes) => `${Math.round(bytes / 1e6).toLocaleString("en")} MB`;

/**
 * What the engine needs that this browser lacks, in words; `null` when it has everything:
 * WebAssembly's JS promise integration (JSPI) and 64-bit memory (Chrome and Edge 137 and later).
 */
export function support() {
  const missing = [];
  if (typeof WebAssembly === "undefined") return "this browser runs no WebAssembly";
  if (typeof WebAssembly.Suspending !== "function") missing.push("JS promise integration (JSPI)");
  try {
    new WebAssembly.Memory({ initial: 1n, address: "i64" });
  } catch {
    missing.push("64-bit memory (Memory64)");
  }
  if (typeof Worker === "undefined") missing.push("workers");
  if (!missing.length) return null;
  return `this browser's WebAssembly lacks ${missing.join(" and ")}, which the in-tab engine needs: open the page in Chrome or Edge 137 or later, or choose another model`;
}

/**
 * A model setting read: a catalogue name, an id from `useFile`, or the URL of a `.gguf` file.
 * `{url, label, bytes?, file?}`.
 */
export function resolve(model) {
  const name = String(model ?? "").trim();
  const entry = catalogue.find((m) => m.name === name.toLowerCase());
  if (entry) return { url: entry.url, label: entry.label, bytes: entry.bytes };
  if (picked.has(name)) {
    const file = picked.get(name);
    return { url: name, label: file.name, bytes: file.size, file };
  }
  // An address has a slash or a .gguf name; a word is a catalogue name that is not there.
  let url = null;
  try {
    if (/[/.]/.test(name)) url = new URL(name, globalThis.location?.href);
  } catch {
    url = null;
  }
  if (!url || !/^https?:$/.test(url.protocol)) {
    const names = catalogue.map((m) => m.name).join(", ");
    throw problem("config", `"${name}" is not a model the tab can run: give one of ${names}, or the URL of a .gguf file`);
  }
  const file = decodeURIComponent(url.pathname.split("/").pop() || url.host);
  if (!/\.gguf$/i.test(url.pathname)) {
    throw problem("config", `${url.href} does not name a .gguf file: give the address of the model's GGUF file (on Hugging Face, its "resolve/main/…gguf" link)`);
  }
  return { url: url.href, label: file };
}

/** Keeps a file the reader picked, for `model: <the id returned>`. */
export function useFile(file) {
  const id = `file:${file.name}`;
  picked.set(id, file);
  return id;
}

/** The engine of this page, made once (its cache manager lists the stored models). */
let engine = null;
function wllama() {
  engine ??= new Wllama({ default: WASM.href }, { suppressNativeLog: true, logger: quiet, allowOffline: true });
  // The engine's fallback build for browsers without JSPI is on a CDN: never fetched from here.
  engine.setCompat(null);
  return engine;
}
const quiet = { debug() {}, log() {}, warn() {}, error: (...args) => console.error(...args) };

/**
 * The models kept in this browser: `[{url, label, bytes, complete}]` (a download that was
 * stopped leaves an incomplete one, listed so that it can be deleted).
 */
export async function stored() {
  const models = await wllama().modelManager.getModels({ includeInvalid: true });
  return models.map((m) => ({ url: m.url, label: labelOf(m.url), bytes: Math.max(m.size, 0), complete: m.validate() === "valid" }));
}

/** Deletes a stored model (unloading it first if the engine holds it). */
export async function forget(url) {
  if (loaded?.url === url) await unload();
  await wllama().cacheManager.delete(url);
  for (const m of await wllama().modelManager.getModels({ includeInvalid: true })) {
    if (m.url === url) await m.remove();
  }
}

function labelOf(url) {
  return catalogue.find((m) => m.url === url)?.label ?? decodeURIComponent(url.split("?")[0].split("/").pop());
}

/**
 * What running `model` would take, before anything is downloaded: `{url, label, bytes, stored}`
 * (`bytes` the server's size, else the catalogue's, else null).
 */
export async function inspect(model) {
  const source = resolve(model);
  if (source.file) return { ...source, stored: true };
  const stored = await isStored(source.url);
  let bytes = source.bytes ?? null;
  if (!stored) {
    let head = null;
    try {
      head = await fetch(source.url, { method: "HEAD" });
    } catch {
      // Unreachable, or no CORS for HEAD: the size is then the catalogue's, or unknown; the
      // download says more.
    }
    if (head?.status === 404) throw problem("not_found", `${source.url} answered HTTP 404: no model there`);
    const length = Number(head?.headers.get("content-length"));
    if (head?.ok && length > 0) bytes = length;
  }
  return { url: source.url, label: source.label, bytes, stored };
}

async function isStored(url) {
  return (await wllama().modelManager.getModels()).some((m) => m.url === url);
}

/** The model the engine holds: `{url, ready}` (a Promise while it loads). */
let loaded = null;

async function unload() {
  const was = loaded;
  loaded = null;
  if (was) await was.ready.then(() => wllama().exit(), () => {});
  engine = null;
}

/** Checks a URL's first bytes before the download: a GGUF file begins with "GGUF". */
async function checkGguf(url, signal) {
  let response;
  try {
    response = await fetch(url, { signal, headers: { Range: "bytes=0-15" } });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw problem("network", `could not reach ${url} (${error.message}); check the address, and that its server allows this page (CORS)`, error);
  }
  if (!response.ok) {
    throw problem(response.status === 404 ? "not_found" : "network", `${url} answered HTTP ${response.status}: no model there`);
  }
  const reader = response.body.getReader();
  let head = new Uint8Array(0);
  while (head.length < 4) {
    const { value, done } = await reader.read();
    if (done) break;
    head = new Uint8Array([...head, ...value.subarray(0, 16)]);
  }
  reader.cancel().catch(() => {});
  const magic = String.fromCharCode(...head.subarray(0, 4));
  if (magic !== "GGUF") {
    const seen = new TextDecoder().decode(head.subarray(0, 16)).replace(/\s+/g, " ").trim();
    throw problem("config", `${url} is not a GGUF model file (it begins with "${seen}", not "GGUF"): give the address of a .gguf file`);
  }
  // The whole file's size: after the range's "/", or the whole response's length.
  const total = response.status === 206 ? response.headers.get("content-range")?.split("/")[1] : response.headers.get("content-length");
  return Number(total) || null;
}

/** Checks that the browser's storage has room for `bytes`, naming what could be deleted. */
async function checkRoom(bytes) {
  const estimate = await globalThis.navigator?.storage?.estimate?.().catch(() => null);
  if (!estimate?.quota || !bytes) return;
  const free = estimate.quota - (estimate.usage ?? 0);
  if (bytes <= free) return;
  const kept = (await stored()).map((m) => `${m.label} (${mb(m.bytes)})`);
  const delete_ = kept.length ? `delete a stored model in the Model panel: ${kept.join(", ")}` : "free space in this browser's site data";
  throw problem("config", `this browser's storage for the page has ${mb(free)} free and the model needs ${mb(bytes)}: ${delete_}`);
}

/** Loads `source` into the engine (downloading it unless stored), once; reports progress. */
function load(source, signal, onDelta) {
  if (loaded?.url === source.url) return loaded.ready;
  const previous = loaded ? unload() : null;
  const ready = (async () => {
    await previous;
    // Threads where the page is cross-origin isolated (SharedArrayBuffer), up to 4: on an idle
    // 2-core machine here, 2 threads read prompts at 40 tok/s and wrote at 26, against 20 and 15
    // with one (bench/in-tab.mjs). (With the cores busy elsewhere, threads wait on each other.)
    const threads = globalThis.crossOriginIsolated ? Math.max(1, Math.min(4, navigator.hardwareConcurrency || 1)) : 1;
    const params = { n_ctx: 4096, n_threads: threads };
    if (source.file) {
      const magic = await source.file.slice(0, 4).text();
      if (magic !== "GGUF") throw problem("config", `${source.label} is not a GGUF model file (it does not begin with "GGUF"): choose a .gguf file`);
      return wllama().loadModel([source.file], params);
    }
    if (!(await isStored(source.url))) {
      const bytes = (await checkGguf(source.url, signal)) ?? source.bytes;
      if (bytes > MOST_BYTES) {
        throw problem("config", `${source.label} is ${mb(bytes)}: the in-tab engine reads files of at most ${mb(MOST_BYTES)}; choose a smaller model or quantisation`);
      }
      await checkRoom(bytes);
      params.progressCallback = ({ loaded, total }) => onDelta({ download: { loaded, total } });
    } else {
      // No download to draw: said, so the step is not blank while the engine reads the file.
      onDelta({ note: `${source.label} is kept in this browser: loading it, no download` });
    }
    try {
      await wllama().loadModelFromUrl(source.url, { ...params, signal });
    } catch (error) {
      if (signal?.aborted) throw error;
      const why = error?.message ?? String(error);
      if (/memory|allocate|out of bounds/i.test(why)) {
        throw problem("config", `${source.label} does not fit in the memory this tab may use (${why}): choose a smaller model`, error);
      }
      if (error?.type === "download_error" || /fetch|network|download/i.test(why)) {
        throw problem("network", `the download of ${source.label} stopped (${why}); nothing is kept of it: run again to download it anew`, error);
      }
      throw problem("model", `the in-tab engine could not load ${source.label}: ${why}`, error);
    }
  })();
  loaded = { url: source.url, ready };
  // A load that failed or was cancelled is tried again at the next run.
  ready.catch(() => {
    if (loaded?.ready === ready) unload();
  });
  return ready;
}

// Each format's rules (GBNF), with `{n}` the step and `{action}` the paper's actions; the `tool`
// rule, when the step may call one, is added by `grammar`.
const RULES = {
  mrkl: 'root ::= "Thought: " line "\\n" ("Action: " tool "\\nAction Input: " line | "Final Answer: " line)\n',
  mrklNoTools: 'root ::= "Thought: " line "\\nFinal Answer: " line\n',
  paper: 'root ::= "Thought {n}: " line "\\nAction {n}: " action\naction ::= {action}\narg ::= [^\\]\\n]+\n',
  act: 'root ::= "Action {n}: " action\naction ::= {action}\narg ::= [^\\]\\n]+\n',
  cot: 'root ::= "Thought: " line "\\nAnswer: " line\n',
  standard: 'root ::= "Answer: " line\n',
};

/**
 * The GBNF grammar of one well-formed step: `{format, step, tools}` as a constrained run gives
 * it (`null` for the native formats, whose tool calls the API carries). A thought, then an action
 * with a tool that exists and an input, or the answer; nothing after it.
 */
export function grammar({ format, step, tools = [] }) {
  const key = format === "mrkl" && !tools.length ? "mrklNoTools" : format;
  const rules = RULES[key];
  if (!rules) return null;
  const finish = '"Finish[" arg "]"';
  const action = tools.length ? `tool "[" arg "]" | ${finish}` : finish;
  let text = rules.replaceAll("{n}", String(step)).replace("{action}", action) + "line ::= [^\\n]+\n";
  if (text.includes(" tool ")) {
    const literal = (name) => `"${name.replaceAll("\\", "\\\\").replaceAll('"', '\\"')}"`;
    text += `tool ::= ${tools.map(literal).join(" | ")}\n`;
  }
  return text;
}

/** Calls wait for the one before them: one engine, one KV cache. */
let turn = Promise.resolve();

/**
 * tao's chat messages as the engine's: a native tool result becomes the user's `Observation`
 * (small models do not speak the tool-calling protocol; the text formats already write it so).
 */
function plain(messages) {
  return messages.map((m) => (m.role === "tool" ? { role: "user", content: `Observation: ${m.content}` } : { role: m.role, content: m.content }));
}

/**
 * The model of a run: `{model}` as the agent's settings give it. It samples at temperature 0,
 * the most predictable (experiments repeat), and writes at most 512 tokens a reply (a step is
 * short).
 */
export function localModel({ model }) {
  const source = resolve(model);
  const lacking = support();
  return async function inTab(messages, { stop, constraint, signal, onDelta }) {
    if (lacking) throw problem("config", lacking);
    const rules = constraint ? grammar(constraint) : null;
    const mine = turn.then(() => call(source, messages, { stop, grammar: rules, signal, onDelta }));
    turn = mine.catch(() => {});
    return mine;
  };
}

async function call(source, messages, { stop, grammar, signal, onDelta }) {
  if (signal?.aborted) return undefined;
  await load(source, signal, onDelta);
  let timings;
  try {
    // Streamed through `onData`, whose Promise settles when the reply ends, or rejects when the
    // signal is aborted (tao aborts it when it has read enough, and at Stop). (The async
    // iterator's form leaves the engine's abort error unhandled.)
    await wllama().createChatCompletion({
      messages: plain(messages),
      stream: true,
      onData: (chunk) => {
        const text = chunk.choices?.[0]?.delta?.content;
        if (chunk.timings) timings = chunk.timings;
        if (text) onDelta(text);
      },
      stop: stop?.length ? stop : undefined,
      grammar: grammar || undefined,
      temperature: 0,
      max_tokens: 512,
      cache_prompt: true,
      abortSignal: signal,
    });
  } catch (error) {
    // Stopped by tao (it read enough) or by the reader: tao knows; anything else is news.
    if (signal?.aborted) return undefined;
    throw problem("model", `the in-tab engine failed while it wrote: ${error?.message ?? error}`, error);
  }
  if (!timings) return undefined;
  return {
    usage: {
      promptTokens: timings.cache_n + timings.prompt_n,
      completionTokens: timings.predicted_n,
      cachedTokens: timings.cache_n,
      promptPerSecond: timings.prompt_n > 0 ? timings.prompt_per_second : undefined,
      replyPerSecond: timings.predicted_n > 0 ? timings.predicted_per_second : undefined,
    },
  };
}

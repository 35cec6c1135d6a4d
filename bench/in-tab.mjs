// How fast is the in-tab model against the same model run natively, and what does the KV cache
// save on an agent's later steps? A benchmark (not a test): it prints figures, asserts nothing.
//
//   node bench/in-tab.mjs [more.gguf ...]
//
// Run from the repository root after the build (it loads pkg/wllama/). It serves the repository
// root on a free 127.0.0.1 port with COOP/COEP (so the tab is cross-origin isolated and wllama may
// use threads), and, on each GGUF file (target/models/SmolLM2-135M-Instruct.Q4_1.gguf, then any
// given), for each thread count (1, then 2):
//   1. speed: the same short mrkl prompt, temperature 0, 32 reply tokens (end of text ignored, so
//      both write as many), TRIALS alternating trials of (a) wllama in headless Chromium, through
//      createChatCompletion as tao calls it, and (b) native llama.cpp through node-llama-cpp, with
//      the model's own chat template rendered the same way. Medians of prompt and reply tokens/s,
//      and in-tab ÷ native. Both figures follow llama.cpp's server: prompt = prompt tokens over the
//      time to the first reply token; reply = reply tokens over the time from the first to the last.
//   2. step 3 of a 3-step ReAct conversation in the tab, with the prefix reused from the KV cache
//      (steps 1 and 2 just ran on the same engine with cache_prompt) and without (cache_prompt off).
// Writes the Markdown report to bench-out/in-tab.md as well. Native llama.cpp comes from
// bench/in-tab/ (node-llama-cpp, pinned; its prebuilt engine for Linux x64), installed there with
// `npm ci` on first use. Takes about 3 minutes on 2 idle cores for the test model. Other work on
// the machine (a build, a test run) slows the 2-thread runs of both engines many times over: the
// report gives the share of the CPU that other processes took during each row.

import { spawnSync } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const NATIVE_DIR = path.join(ROOT, "bench/in-tab");
const TEST_MODEL = "target/models/SmolLM2-135M-Instruct.Q4_1.gguf";
const THREADS = [1, 2];
const TRIALS = 3;
const ROUNDS = 3;
const MAX_TOKENS = 32;
const N_CTX = 2048;
const COMMAND = ["node", "bench/in-tab.mjs", ...process.argv.slice(2)].join(" ");

const models = [TEST_MODEL, ...process.argv.slice(2)].map((p) => path.resolve(ROOT, p));
for (const m of models) if (!fs.existsSync(m)) throw new Error(`${m}: no such file (usage: node bench/in-tab.mjs [more.gguf ...])`);

// The prompt: a short mrkl agent prompt, and the conversation of its first three steps.
const SYSTEM = `Answer the question as well as you can. You have one tool:

calculator: evaluates an arithmetic expression, such as 2 * (3 + 4).

Use this format:

Question: the question to answer
Thought: what to do next
Action: the tool to use, calculator
Action Input: the input to the tool
Observation: the result of the tool
... (Thought, Action, Action Input and Observation may repeat)
Thought: I now know the final answer
Final Answer: the answer to the question

Begin.`;
const QUESTION = "Question: What is 17 * 23, plus 100?";
const STEP1 = "Thought: I need to multiply 17 by 23 first.\nAction: calculator\nAction Input: 17 * 23";
const OBS1 = "Observation: 391";
const STEP2 = "Thought: Now I add 100 to 391.\nAction: calculator\nAction Input: 391 + 100";
const OBS2 = "Observation: 491";
const chat = (...turns) => [
  { role: "system", content: SYSTEM },
  ...turns.map((content, k) => ({ role: k % 2 ? "assistant" : "user", content })),
];
const PROMPT = chat(QUESTION);

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const rate = (n, ms) => (ms > 0 ? (n * 1000) / ms : NaN);
const f1 = (x) => (Number.isFinite(x) ? x.toFixed(1) : "–");
const f2 = (x) => (Number.isFinite(x) ? x.toFixed(2) : "–");
const ms0 = (x) => (Number.isFinite(x) ? Math.round(x).toLocaleString("en") : "–");
const log = (...a) => console.error(`[${((performance.now() - T0) / 1000).toFixed(0).padStart(3)} s]`, ...a);
const T0 = performance.now();
// How busy the machine is before the run, over 2 s: other work on the 2 cores makes the figures noisy.
const cpuTimes = () => os.cpus().reduce((a, c) => { const t = Object.values(c.times).reduce((x, y) => x + y, 0); return { busy: a.busy + t - c.times.idle, all: a.all + t }; }, { busy: 0, all: 0 });
const BUSY0 = await (async () => {
  const a = cpuTimes();
  await new Promise((ok) => setTimeout(ok, 2000));
  const b = cpuTimes();
  return (100 * (b.busy - a.busy)) / Math.max(1, b.all - a.all);
})();
if (BUSY0 > 10) log(`the machine is ${BUSY0.toFixed(0)}% busy before the run: the figures will be noisy`);
// And during it: the CPU time that processes other than this one and its children (Chromium)
// took, as a share of the whole machine. On 2 cores any of it slows the 2-thread runs a lot.
function ownCpuMs() {
  const stat = new Map();
  for (const pid of fs.readdirSync("/proc").filter((d) => /^\d+$/.test(d))) {
    try {
      const line = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
      const f = line.slice(line.lastIndexOf(")") + 2).split(" "); // f[1] ppid, f[11] utime, f[12] stime
      stat.set(Number(pid), { ppid: Number(f[1]), ms: (Number(f[11]) + Number(f[12])) * 10 });
    } catch {}
  }
  let ms = 0;
  for (const [pid, p] of stat) {
    for (let q = pid, hops = 0; q > 1 && hops < 64; q = stat.get(q)?.ppid ?? 0, hops++) if (q === process.pid) { ms += p.ms; break; }
  }
  return ms;
}
function meter() {
  const s0 = cpuTimes(), o0 = ownCpuMs();
  return () => {
    const s1 = cpuTimes(), o1 = ownCpuMs();
    return (100 * Math.max(0, s1.busy - s0.busy - (o1 - o0))) / Math.max(1, s1.all - s0.all);
  };
}
const pct = (x) => `${Math.round(x)}%`;

// ---- native llama.cpp: node-llama-cpp, installed into bench/in-tab/node_modules when missing ----
async function loadNative() {
  const pin = JSON.parse(fs.readFileSync(path.join(NATIVE_DIR, "package.json"), "utf8")).dependencies["node-llama-cpp"];
  const have = path.join(NATIVE_DIR, "node_modules/node-llama-cpp/package.json");
  const installed = fs.existsSync(have) && JSON.parse(fs.readFileSync(have, "utf8")).version;
  if (installed !== pin) {
    log(`installing node-llama-cpp ${pin} into bench/in-tab/node_modules (npm ci)`);
    const r = spawnSync("npm", ["ci", "--omit=optional", "--ignore-scripts", "--no-audit", "--no-fund"], { cwd: NATIVE_DIR, stdio: ["ignore", "inherit", "inherit"] });
    if (r.status !== 0) throw new Error(`npm ci in bench/in-tab failed (exit ${r.status}); its prebuilt engine is for Linux x64`);
  }
  const url = (p) => pathToFileURL(path.join(NATIVE_DIR, "node_modules", p)).href;
  const { getLlama } = await import(url("node-llama-cpp/dist/index.js"));
  const { Template } = await import(url("@huggingface/jinja/dist/index.js"));
  const llama = await getLlama({ gpu: false, build: "never", logLevel: "error", maxThreads: Math.max(...THREADS) });
  return { llama, Template, version: pin, llamaCpp: llama.llamaCppRelease?.release };
}

async function nativeEngine(native, file, threads) {
  const model = await native.llama.loadModel({ modelPath: file, gpuLayers: 0 });
  const context = await model.createContext({ contextSize: N_CTX, sequences: 1, threads: { ideal: threads, min: threads }, flashAttention: "auto" });
  const sequence = context.getSequence();
  const template = new native.Template(model.fileInfo.metadata?.tokenizer?.chat_template ?? "");
  const tokens = (messages) => {
    const text = template.render({ messages, add_generation_prompt: true, bos_token: model.tokens.bosString ?? "", eos_token: model.tokens.eosString ?? "" });
    const t = model.tokenize(text, true);
    return model.tokens.shouldPrependBosToken && model.tokens.bos != null && t[0] !== model.tokens.bos ? [model.tokens.bos, ...t] : t;
  };
  return {
    async run(messages, maxTokens = MAX_TOKENS) {
      await sequence.clearHistory();
      const prompt = tokens(messages);
      let n = 0, first = 0, last = 0;
      const t0 = performance.now();
      for await (const _ of sequence.evaluate(prompt, { temperature: 0 })) {
        last = performance.now();
        if (++n === 1) first = last;
        if (n >= maxTokens) break;
      }
      return { promptN: prompt.length, promptMs: first - t0, predictedN: n, predictedMs: last - first };
    },
    async dispose() {
      await context.dispose();
      await model.dispose();
    },
  };
}

// ---- the tab: a page served here, driving wllama from pkg/wllama/ ----
const PAGE = `<!doctype html><meta charset="utf-8"><title>in-tab bench</title>
<script type="module">
import { Wllama } from "/pkg/wllama/index.js";
let w = null;
window.bench = {
  async load(url, threads, nCtx) {
    const t0 = performance.now();
    const blob = await (await fetch(url)).blob();
    w = new Wllama({ default: "/pkg/wllama/wllama.wasm" }, { suppressNativeLog: true });
    w.setCompat(null);
    await w.loadModel([blob], { n_threads: threads, n_ctx: nCtx });
    return { ms: performance.now() - t0, isolated: crossOriginIsolated, multiThread: w.isMultithread(), threads: w.getNumThreads() };
  },
  async chat(messages, opts) {
    const t0 = performance.now();
    const it = await w.createChatCompletion({ messages, stream: true, temperature: 0, ignore_eos: true, ...opts });
    let text = "", timings = null;
    for await (const ch of it) {
      text += ch.choices?.[0]?.delta?.content ?? "";
      if (ch.timings) timings = ch.timings;
    }
    return { text, timings, wallMs: performance.now() - t0 };
  },
  async exit() { await w?.exit(); w = null; },
};
window.benchReady = true;
</script>`;

const TYPES = { ".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8", ".mjs": "text/javascript; charset=utf-8", ".wasm": "application/wasm", ".json": "application/json", ".css": "text/css", ".svg": "image/svg+xml", ".png": "image/png", ".md": "text/plain; charset=utf-8", ".txt": "text/plain; charset=utf-8", ".gguf": "application/octet-stream" };

function serve() {
  const server = http.createServer((req, res) => {
    const isolate = { "Cross-Origin-Opener-Policy": "same-origin", "Cross-Origin-Embedder-Policy": "require-corp", "Cross-Origin-Resource-Policy": "same-origin", "Cache-Control": "no-store" };
    const url = new URL(req.url, "http://x");
    if (url.pathname === "/favicon.ico") {
      res.writeHead(204, isolate);
      return res.end();
    }
    if (url.pathname === "/__bench/") {
      res.writeHead(200, { ...isolate, "Content-Type": TYPES[".html"] });
      return res.end(PAGE);
    }
    // GGUF files by index, so that a model outside the repository can be measured too.
    const m = /^\/__model\/(\d+)\.gguf$/.exec(url.pathname);
    const file = m ? models[Number(m[1])] : path.join(ROOT, decodeURIComponent(url.pathname));
    if (!file || (!m && !file.startsWith(ROOT + path.sep)) || !fs.existsSync(file) || !fs.statSync(file).isFile()) {
      res.writeHead(404, isolate);
      return res.end("not found");
    }
    const size = fs.statSync(file).size;
    const headers = { ...isolate, "Content-Type": TYPES[path.extname(file)] ?? "application/octet-stream", "Accept-Ranges": "bytes" };
    const range = /^bytes=(\d*)-(\d*)$/.exec(req.headers.range ?? "");
    if (range && (range[1] || range[2])) {
      const start = range[1] ? Number(range[1]) : Math.max(0, size - Number(range[2]));
      const end = range[1] && range[2] ? Math.min(Number(range[2]), size - 1) : size - 1;
      res.writeHead(206, { ...headers, "Content-Range": `bytes ${start}-${end}/${size}`, "Content-Length": end - start + 1 });
      return req.method === "HEAD" ? res.end() : fs.createReadStream(file, { start, end }).pipe(res);
    }
    res.writeHead(200, { ...headers, "Content-Length": size });
    return req.method === "HEAD" ? res.end() : fs.createReadStream(file).pipe(res);
  });
  return new Promise((ok) => server.listen(0, "127.0.0.1", () => ok(server)));
}

async function openTab(origin) {
  const { chromium } = await import(pathToFileURL(path.join(ROOT, "node_modules/playwright-core/index.mjs")).href);
  const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox", "--disable-background-networking", "--disable-component-update"] });
  const page = await browser.newPage();
  page.on("pageerror", (e) => log("page error:", e.message));
  page.on("console", (m) => m.type() === "error" && log("page console:", m.text()));
  await page.goto(`${origin}/__bench/`);
  await page.waitForFunction(() => window.benchReady === true);
  return { browser, page, version: browser.version() };
}

function tabEngine(page) {
  return {
    load: (url, threads) => page.evaluate(([u, t, c]) => window.bench.load(u, t, c), [url, threads, N_CTX]),
    chat: (messages, opts) => page.evaluate(([m, o]) => window.bench.chat(m, o), [messages, opts]),
    async run(messages, maxTokens = MAX_TOKENS) {
      // cache_prompt off: each trial evaluates the whole prompt, as the native run does.
      const { timings: t } = await this.chat(messages, { max_tokens: maxTokens, cache_prompt: false });
      return { promptN: t.prompt_n + t.cache_n, cacheN: t.cache_n, promptMs: t.prompt_ms, predictedN: t.predicted_n, predictedMs: t.predicted_ms };
    },
    exit: () => page.evaluate(() => window.bench.exit()),
  };
}

// ---- the run ----
const server = await serve();
const origin = `http://127.0.0.1:${server.address().port}`;
const speed = [];
const cache = [];
const notes = [];
let native, tab;
try {
  native = await loadNative();
  tab = await openTab(origin);
  log(`serving ${ROOT} at ${origin}; Chromium ${tab.version}; node-llama-cpp ${native.version} (llama.cpp ${native.llamaCpp})`);
  const engine = tabEngine(tab.page);
  for (const [i, file] of models.entries()) {
    const name = path.basename(file);
    for (const threads of THREADS) {
      log(`${name}, ${threads} thread${threads > 1 ? "s" : ""}: loading`);
      let loaded;
      try {
        loaded = await engine.load(`${origin}/__model/${i}.gguf`, threads);
      } catch (e) {
        notes.push(`${name}, ${threads} threads: the tab could not load the model: ${e.message.split("\n")[0]}`);
        log(notes.at(-1));
        await engine.exit().catch(() => {});
        continue;
      }
      if (!loaded.isolated) notes.push(`the page was not cross-origin isolated: no threads in the tab`);
      if (threads > 1 && (!loaded.multiThread || loaded.threads !== threads)) {
        notes.push(`${name}: the tab ran ${loaded.threads} thread(s) when asked for ${threads} (multi-thread: ${loaded.multiThread}): row skipped`);
        log(notes.at(-1));
        await engine.exit();
        continue;
      }
      const nat = await nativeEngine(native, file, threads);
      // Warm-up, untimed: the first call compiles and tiers up the wasm, and pages in the weights.
      await engine.run(chat("Question: What is 1 + 1?"), 4);
      await nat.run(chat("Question: What is 1 + 1?"), 4);
      const a = [], b = [];
      const others = meter();
      for (let k = 0; k < TRIALS; k++) {
        const trialOthers = meter();
        // Alternate which engine goes first, so that a drift in the machine hits both alike.
        if (k % 2) b.push(await nat.run(PROMPT)), a.push(await engine.run(PROMPT));
        else a.push(await engine.run(PROMPT)), b.push(await nat.run(PROMPT));
        log(`  trial ${k + 1}: tab ${f1(rate(a[k].promptN, a[k].promptMs))} / ${f1(rate(a[k].predictedN, a[k].predictedMs))} tok/s, native ${f1(rate(b[k].promptN, b[k].promptMs))} / ${f1(rate(b[k].predictedN, b[k].predictedMs))} tok/s (prompt / reply); other processes ${pct(trialOthers())}`);
      }
      const othersSpeed = others();
      await nat.dispose();
      const med = (xs, n, ms) => median(xs.map((x) => rate(x[n], x[ms])));
      const row = {
        name, threads, others: othersSpeed,
        tabPromptN: a[0].promptN, natPromptN: b[0].promptN, tabReplyN: a[0].predictedN, natReplyN: b[0].predictedN,
        tabPrompt: med(a, "promptN", "promptMs"), natPrompt: med(b, "promptN", "promptMs"),
        tabReply: med(a, "predictedN", "predictedMs"), natReply: med(b, "predictedN", "predictedMs"),
      };
      speed.push(row);
      if (row.tabPromptN !== row.natPromptN) notes.push(`${name}: the prompt was ${row.tabPromptN} tokens in the tab and ${row.natPromptN} natively (chat templates applied differently)`);
      if (a.some((x) => x.cacheN)) notes.push(`${name}: a speed trial in the tab reused ${Math.max(...a.map((x) => x.cacheN))} cached tokens despite cache_prompt off`);

      // Step 3, with and without the cache: steps 1 and 2 run first with cache_prompt on, as tao
      // runs a conversation; then step 3 on the same engine, once reusing the cache and once not
      // (cache_prompt off). Again for the next rounds, from step 2 (step 1 is still in the cache).
      log(`${name}, ${threads} thread(s): step 3 with and without the cache`);
      const opts = { max_tokens: MAX_TOKENS, cache_prompt: true };
      const step3 = chat(QUESTION, STEP1, OBS1, STEP2, OBS2);
      const warm = [], cold = [];
      const others3 = meter();
      await engine.chat(chat(QUESTION), opts);
      for (let k = 0; k < ROUNDS; k++) {
        await engine.chat(chat(QUESTION, STEP1, OBS1), opts);
        warm.push(await engine.chat(step3, opts));
        cold.push(await engine.chat(step3, { ...opts, cache_prompt: false }));
        log(`  round ${k + 1}: step 3 took ${ms0(warm[k].wallMs)} ms reusing ${warm[k].timings.cache_n} cached tokens, ${ms0(cold[k].wallMs)} ms without (${cold[k].timings.cache_n})`);
      }
      const othersCache = others3();
      for (const [how, rs] of [["reused", warm], ["not reused", cold]]) {
        const ts = rs.map((r) => r.timings);
        const m = (f) => median(ts.map(f));
        cache.push({ name, threads, how, total: m((t) => t.cache_n + t.prompt_n), others: othersCache, cacheN: m((t) => t.cache_n), promptN: m((t) => t.prompt_n), promptMs: m((t) => t.prompt_ms), replyMs: m((t) => t.predicted_ms), wallMs: median(rs.map((r) => r.wallMs)) });
      }
      await engine.exit();
    }
  }
} finally {
  await tab?.browser.close();
  server.close();
}

// ---- the report ----
const seconds = (performance.now() - T0) / 1000;
const wllama = (() => {
  const read = (p, re) => { try { return re.exec(fs.readFileSync(path.join(ROOT, p), "utf8"))?.[1]; } catch { return undefined; } };
  return { version: read("node_modules/@wllama/wllama/package.json", /"version":\s*"([^"]+)"/) ?? "?", llamaCpp: read("pkg/wllama/index.js", /LIBLLAMA_VERSION="([^"]+)"/) ?? "?" };
})();
const cpu = os.cpus()[0]?.model?.trim() ?? "?";
const onlyTest = models.length === 1;
const md = [];
md.push("# In-tab model (wllama) against native llama.cpp", "");
md.push(`Command: \`${COMMAND}\` (from the repository root; took ${Math.round(seconds)} s)`, "");
md.push(`Machine: ${os.cpus().length} × ${cpu}, no GPU; ${BUSY0.toFixed(0)}% busy just before the run; Node ${process.version}; Chromium ${tab?.version ?? "?"} headless. In the tab: @wllama/wllama ${wllama.version} (llama.cpp ${wllama.llamaCpp}, WebAssembly, CPU). Native: node-llama-cpp ${native?.version ?? "?"} (llama.cpp ${native?.llamaCpp ?? "?"}, prebuilt for Linux x64, CPU).`, "");
md.push(
  onlyTest
    ? `Model: only the test model, \`${TEST_MODEL}\`, was measured: the catalogue's other models and quantisations cannot be downloaded on this machine. Give their GGUF files as arguments to measure them where they are at hand.`
    : `Models: ${models.map((m) => `\`${m.startsWith(ROOT + path.sep) ? path.relative(ROOT, m) : m}\``).join(", ")}.`,
  "",
);
md.push(`## Speed: the same prompt, ${MAX_TOKENS} reply tokens, temperature 0`, "");
md.push(`Median of ${TRIALS} trials, the engines alternating; each trial evaluates the whole prompt (no cache). Prompt tokens/s = prompt tokens ÷ time to the first reply token; reply tokens/s = reply tokens ÷ time from the first to the last reply token (llama.cpp server's figures; native timed the same way around node-llama-cpp). Other processes: the CPU that processes other than the bench and its Chromium took meanwhile, as a share of the machine; the figures hold only where it is near 0%.`, "");
md.push("| model | threads | prompt tokens (tab / native) | prompt tok/s, tab | prompt tok/s, native | tab ÷ native | reply tok/s, tab | reply tok/s, native | tab ÷ native | other processes |");
md.push("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
for (const r of speed)
  md.push(`| ${r.name} | ${r.threads} | ${r.tabPromptN} / ${r.natPromptN} | ${f1(r.tabPrompt)} | ${f1(r.natPrompt)} | ${f2(r.tabPrompt / r.natPrompt)} | ${f1(r.tabReply)} | ${f1(r.natReply)} | ${f2(r.tabReply / r.natReply)} | ${pct(r.others)} |`);
md.push("", "## Step 3 of a ReAct conversation in the tab, with and without the KV cache", "");
md.push(`The conversation: system + question, assistant step 1, Observation 1, assistant step 2, Observation 2 (fixed texts). "reused": right after steps 1 and 2 ran on the same engine with \`cache_prompt: true\`; "not reused": the same request with \`cache_prompt: false\`. ${MAX_TOKENS} reply tokens each. Medians of ${ROUNDS} rounds (the later rounds rerun step 2 before step 3, step 1 still being in the cache). Wall = from the call in the page to the last streamed chunk.`, "");
md.push("| model | threads | cache | prompt tokens | cache_n | evaluated | prompt ms | reply ms | wall ms | other processes |");
md.push("| --- | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
for (const r of cache)
  md.push(`| ${r.name} | ${r.threads} | ${r.how} | ${r.total} | ${r.cacheN} | ${r.promptN} | ${ms0(r.promptMs)} | ${ms0(r.replyMs)} | ${ms0(r.wallMs)} | ${pct(r.others)} |`);
if (notes.length) md.push("", "Notes:", "", ...[...new Set(notes)].map((n) => `- ${n}`));
const out = md.join("\n") + "\n";
fs.mkdirSync(path.join(ROOT, "bench-out"), { recursive: true });
fs.writeFileSync(path.join(ROOT, "bench-out/in-tab.md"), out);
console.log(out);
console.log("(written to bench-out/in-tab.md)");

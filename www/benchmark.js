//! Benchmark mode's logic: the ReAct paper's experiment (Yao et al. 2022, Table 1) run in the
//! page with the reader's own model. The paper compares four ways of prompting — ReAct (think
//! and act), Act (act only), CoT (think only) and Standard (answer directly) — on 500 HotpotQA
//! questions (exact match and F1) and 500 FEVER claims (label accuracy).
//!
//! What happens, in order:
//! 1. **Data.** The paper's own files are fetched from its repository (or a data URL given, or a
//!    file picked) only when a benchmark starts: nothing of them ships with the page.
//! 2. **Sample.** The paper's 500 are `random.Random(233).shuffle(range(total))[:500]`; the wasm's
//!    `paperSample` draws the same indices, and questions From…From+Questions−1 of them are run.
//!    A file already sampled (lines with `idx`) is taken in its own order.
//! 3. **Queue.** Each (question, mode) pair is a job: a fresh `Agent` in the mode's format, with
//!    the paper's two tools (`search`, `lookup`) and step limit, `Concurrency` jobs at a time.
//! 4. **Score.** A finished run's answer is scored by the wasm's `scoreAnswer` (the paper's
//!    normalisation), and the record, trajectory and all, is saved in `localStorage` at once, so
//!    Stop (or a closed tab) loses only the runs in flight, which Resume runs again.
//!
//! The panel that shows all this is `benchmark-view.js`; this file never touches the DOM except
//! to download a file.

import { state, agentConfig, controls, toolsPanel, messageOf, modelOf } from "./app.js";
import { pageAgent } from "./page-tools.js";
import { MODES, FORMAT, answerOf } from "./modes.js";
import { drive, withAgent } from "./drive.js";

export { MODES, FORMAT, answerOf };
export { download } from "./files.js";

/** Where the paper's repository keeps its data (raw files, served with CORS). */
export const DEFAULT_DATA_URL = "https://raw.githubusercontent.com/ysymyth/ReAct/master/data/";

/**
 * The two benchmarks: the data file, the few-shot exemplars' file and their key per mode, and the
 * step limit. The paper (section 3.3) sets "7 and 5 steps for HotpotQA and FEVER respectively as
 * we find more steps will not improve ReAct performance" (its FEVER notebook loops 7 times; we
 * follow the text).
 */
export const DATASETS = {
  hotpotqa: {
    file: "hotpot_dev_v1_simplified.json",
    prompts: "prompts_naive.json",
    keys: { react: "webthink_simple6", act: "webact_simple6", cot: "cotqa_simple6", standard: "webqa_simple6" },
    maxSteps: 7,
  },
  fever: {
    file: "paper_dev.jsonl",
    prompts: "prompts_fever.json",
    keys: { react: "webthink_simple3", act: "webact_simple3", cot: "cotqa_simple3", standard: "webqa_simple3" },
    maxSteps: 5,
  },
};

/** The paper's Table 1 (PaLM-540B): HotpotQA exact match and FEVER accuracy, in percent. */
export const PAPER_TABLE_1 = {
  hotpotqa: { standard: 28.7, cot: 29.4, act: 25.7, react: 27.4 },
  fever: { standard: 57.1, cot: 56.3, act: 58.9, react: 60.9 },
};

/** How many questions the paper sampled from each dev set. */
export const PAPER_SAMPLE = 500;

/**
 * The paper's FEVER instruction (the first line of every prompt in its prompts_fever.json). Its
 * environment shows each claim as `Claim: …`, after the exemplars that end the same way; tao puts
 * the task after `Question: `, so the task is the claim with that prefix, and, when the built-in
 * worked example (a HotpotQA question) stands in for the paper's exemplars, this instruction first,
 * so the model knows the three labels.
 */
const FEVER_INSTRUCTION = "Determine if there is Observation that SUPPORTS or REFUTES a Claim, or if there is NOT ENOUGH INFORMATION.";

export const STORAGE_KEY = "tao.benchmark";

// ----- data ------------------------------------------------------------------------------------

/**
 * Where file `name` of a benchmark is, given the data URL `base`: in that folder (with the slash
 * a pasted URL may lack), or, when `base` names a file (…/fixture.json), beside it; the data
 * file itself (`data`) is then that very file, whatever its name.
 */
export function dataUrl(base, name, data = false) {
  const url = new URL(base, location.href);
  if (/\.[a-z0-9]+$/i.test(url.pathname)) return data ? url.href : new URL(name, url).href;
  return new URL(name, url.href.endsWith("/") ? url : `${url.href}/`).href;
}

async function fetchText(url, signal) {
  let res;
  try {
    res = await fetch(url, { signal });
  } catch (e) {
    if (signal?.aborted) throw e;
    throw new Error(`could not fetch ${url} (${messageOf(e)}): check the data URL, or pick the file`);
  }
  if (!res.ok) throw new Error(`${url} answered ${res.status} ${res.statusText}`.trim());
  return res.text();
}

/**
 * The questions of a data file as `{ items, sampled }`: each item `{ idx, text, gold, id? }` (the
 * question or claim, and its gold answer or label). A JSON array is HotpotQA's file; lines of JSON
 * are FEVER's file, or a sample already drawn (lines with `idx`, as `hotpotqa_dev_500.jsonl`),
 * which is `sampled` and used in its order.
 */
export function parseData(dataset, text) {
  let rows;
  const trimmed = text.trim();
  if (trimmed.startsWith("[")) {
    rows = JSON.parse(trimmed);
  } else {
    rows = trimmed.split(/\r?\n/).filter((line) => line.trim()).map((line, i) => {
      try {
        return JSON.parse(line);
      } catch {
        throw new Error(`line ${i + 1} is not JSON`);
      }
    });
  }
  if (!Array.isArray(rows) || rows.length === 0) throw new Error("the file holds no questions");
  const sampled = rows[0] && typeof rows[0] === "object" && "idx" in rows[0];
  const items = rows.map((row, i) => {
    const text = dataset === "fever" ? row?.claim : row?.question;
    const gold = dataset === "fever" ? row?.label : row?.answer;
    if (typeof text !== "string" || typeof gold !== "string") {
      const want = dataset === "fever" ? "claim and label" : "question and answer";
      throw new Error(`item ${i + 1} has no ${want}: is this a ${dataset === "fever" ? "FEVER" : "HotpotQA"} file?`);
    }
    const item = { idx: sampled ? Number(row.idx) : i, text, gold };
    if (row.id !== undefined) item.id = row.id;
    return item;
  });
  return { items, sampled };
}

/** Questions From…From+n−1 (1-based) of the paper's sample of `items` (or of a sampled file). */
export async function pickQuestions({ items, sampled }, from, n) {
  const order = sampled ? items : Array.from(await state.tao.paperSample(items.length, PAPER_SAMPLE), (i) => items[i]);
  return order.slice(from - 1, from - 1 + n);
}

/** The paper's exemplars for `modes`, by mode, from the data URL. */
async function loadExemplars(dataset, base, modes, signal) {
  const { prompts, keys } = DATASETS[dataset];
  const all = JSON.parse(await fetchText(dataUrl(base, prompts), signal));
  const out = {};
  for (const mode of modes) {
    if (typeof all[keys[mode]] !== "string") throw new Error(`${prompts} has no ${keys[mode]}`);
    out[mode] = all[keys[mode]];
  }
  return out;
}

/**
 * A new benchmark from the panel's settings `config` (`{dataset, n, from, modes, concurrency,
 * dataUrl, exemplars}`) and, optionally, a picked file's text: the questions and exemplars are
 * fetched now and kept with it, so Resume needs neither the network nor the file again.
 */
export async function prepare(config, file = null, signal) {
  const text = file ? file.text : await fetchText(dataUrl(config.dataUrl, DATASETS[config.dataset].file, true), signal);
  let data;
  try {
    data = parseData(config.dataset, text);
  } catch (e) {
    throw new Error(`${file ? file.name : DATASETS[config.dataset].file}: ${messageOf(e)}`);
  }
  const items = await pickQuestions(data, config.from, config.n);
  if (items.length === 0) throw new Error(`there are no questions from ${config.from} on (the sample has ${Math.min(data.items.length, PAPER_SAMPLE)})`);
  const exemplars = config.exemplars ? await loadExemplars(config.dataset, config.dataUrl, config.modes, signal) : null;
  return { version: 1, config: { ...config, file: file?.name ?? null }, items, exemplars, results: [], dropped: false, model: modelLabel() };
}

/** The model the Model panel has chosen, as a label ("openai:gpt-4o-mini"). */
export const modelLabel = (settings = controls.settings()) => modelOf(settings);

// ----- the queue -------------------------------------------------------------------------------

const keyOf = (idx, mode) => `${idx}|${mode}`;

/** Every job of `bench` in order (question by question, mode by mode), done or not. */
export function allJobs(bench) {
  return bench.items.flatMap((item) => bench.config.modes.map((mode) => ({ item, mode, key: keyOf(item.idx, mode) })));
}

/** The jobs without a result yet. */
export function pendingJobs(bench) {
  const done = new Set(bench.results.map((r) => keyOf(r.idx, r.mode)));
  return allJobs(bench).filter((job) => !done.has(job.key));
}

export const isUnfinished = (bench) => Boolean(bench) && pendingJobs(bench).length > 0;

/** What the model reads as the task: the question, or for FEVER the claim as the paper shows it. */
export function taskOf(bench, item) {
  if (bench.config.dataset !== "fever") return item.text;
  return bench.exemplars ? `Claim: ${item.text}` : `${FEVER_INSTRUCTION}\nClaim: ${item.text}`;
}

/**
 * The `new Agent(…)` settings for a job: the Model panel's model (and language), the mode's
 * format, the paper's tools over the wiki the tools panel chose (live English Wikipedia when it
 * says "offline": the built-in pages know nothing of HotpotQA), the paper's step limit and, when
 * asked for, its exemplars. No budgets or memory: the paper had none.
 */
export function jobConfig(bench, mode, settings = controls.settings()) {
  const base = agentConfig({ ...settings, maxSteps: DATASETS[bench.config.dataset].maxSteps, delayMs: 0, tokenBudget: 0, timeBudgetMs: 0, memoryTokens: 0, reflectEvery: 0 }, jobPanel());
  // The questions, the paper's prompts and its exemplars are English: so is the prompt.
  const config = { ...base, lang: "en", format: FORMAT[mode], tools: ["search", "lookup"] };
  if (bench.exemplars?.[mode]) config.exemplars = bench.exemplars[mode];
  return config;
}

/** The tools panel as a job sees it: the paper's two tools, over live English Wikipedia unless it names a wiki. */
function jobPanel() {
  const panel = { ...toolsPanel.settings(), enabled: ["search", "lookup"] };
  if (!panel.wiki || panel.wiki === "offline") panel.wiki = "en";
  return panel;
}

/** An agent for `mode`'s jobs of `bench` (`settings`: the Model panel's, by default). */
const jobAgent = (bench, mode, settings) => pageAgent(jobConfig(bench, mode, settings), jobPanel());

/**
 * Runs one job to its end. Resolves with its record, or null when it was stopped (not done: it
 * runs again on Resume). A model that fails (network, key, rate limit) rejects: the whole
 * benchmark stops there, rather than scoring a failure as a wrong answer.
 */
async function runJob(bench, job, signal, onEvent) {
  const started = performance.now();
  const traj = await withAgent(jobAgent(bench, job.mode), (agent) => drive(agent, "run", taskOf(bench, job.item), { signal, onEvent: (ev) => onEvent?.(job, ev) }));
  const reason = traj.stop?.reason;
  if (reason === "aborted" || signal.aborted) return null;
  if (reason === "error") throw new Error(traj.stop.message || "the model failed");
  const answer = answerOf(traj);
  const { em, f1 } = await state.tao.scoreAnswer(bench.config.dataset, answer ?? undefined, job.item.gold);
  const stats = traj.stats ?? {};
  const record = {
    idx: job.item.idx,
    mode: job.mode,
    answer,
    gold: job.item.gold,
    em: Number(em),
    f1: Number(f1),
    steps: stats.steps ?? traj.steps?.length ?? 0,
    calls: stats.n_calls ?? 0,
    badCalls: stats.n_badcalls ?? 0,
    tokens: (stats.prompt_tokens ?? 0) + (stats.completion_tokens ?? 0),
    ms: Math.round(stats.elapsed_ms ?? performance.now() - started),
    stop: reason ?? null,
    trajectory: traj,
  };
  if (job.item.id !== undefined) record.id = job.item.id;
  return record;
}

/**
 * Runs the pending jobs of `bench`, `concurrency` at a time, until all are done, `signal` is
 * aborted (Stop), or a job fails (then the others are stopped and the promise rejects). Each
 * finished job is added to `bench.results`, saved, and reported to `onResult(record, saved)`.
 */
export async function runBenchmark(bench, { signal, onResult, onEvent }) {
  const queue = pendingJobs(bench);
  const inner = new AbortController();
  const stop = () => inner.abort();
  signal.addEventListener("abort", stop);
  let failure = null;
  const worker = async () => {
    while (queue.length > 0 && !inner.signal.aborted) {
      const job = queue.shift();
      try {
        const record = await runJob(bench, job, inner.signal, onEvent);
        if (!record || bench.results.some((r) => keyOf(r.idx, r.mode) === job.key)) continue;
        bench.results.push(record);
        onResult?.(record, save(bench));
      } catch (e) {
        failure ??= e;
        inner.abort();
      }
    }
  };
  const width = Math.max(1, Math.min(Number(bench.config.concurrency) || 1, queue.length));
  try {
    await Promise.all(Array.from({ length: width }, worker));
  } finally {
    signal.removeEventListener("abort", stop);
  }
  if (failure) throw failure;
}

// ----- storage ---------------------------------------------------------------------------------

/**
 * Saves `bench` in localStorage. Trajectories are large; when the browser refuses for lack of
 * room, the results are kept without them (`bench.dropped`, said in the panel; this session
 * still has them). Returns "saved", "dropped" or "failed".
 */
export function save(bench) {
  const write = (value) => localStorage.setItem(STORAGE_KEY, JSON.stringify(value));
  try {
    if (!bench.dropped) {
      write(bench);
      return "saved";
    }
  } catch (e) {
    if (!isQuota(e)) return "failed";
  }
  bench.dropped = true;
  try {
    write({ ...bench, results: bench.results.map(({ trajectory, ...rest }) => rest) });
    return "dropped";
  } catch {
    return "failed";
  }
}

const isQuota = (e) => e?.name === "QuotaExceededError" || e?.code === 22 || e?.name === "NS_ERROR_DOM_QUOTA_REACHED";

/** The saved benchmark, or null (none, or unreadable). */
export function load() {
  try {
    const bench = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? "null");
    return bench?.version === 1 && Array.isArray(bench.items) && Array.isArray(bench.results) ? bench : null;
  } catch {
    return null;
  }
}

// ----- results ---------------------------------------------------------------------------------

/**
 * Per mode: `{ mode, done, total, em, f1, steps, badCalls, tokens, ms }` — done jobs, the mean
 * EM and F1 in percent (null before any is done), mean steps, bad calls and tokens in all, and
 * the mean time per question.
 */
export function summarize(bench) {
  return bench.config.modes.map((mode) => {
    const rows = bench.results.filter((r) => r.mode === mode);
    const sum = (field) => rows.reduce((n, r) => n + (Number(r[field]) || 0), 0);
    const mean = (field) => (rows.length ? sum(field) / rows.length : null);
    return {
      mode,
      done: rows.length,
      total: bench.items.length,
      em: rows.length ? (100 * sum("em")) / rows.length : null,
      f1: rows.length ? (100 * sum("f1")) / rows.length : null,
      steps: mean("steps"),
      badCalls: sum("badCalls"),
      tokens: sum("tokens"),
      ms: mean("ms"),
    };
  });
}

/** The results in the order of the jobs (whatever order they finished in). */
export function orderedResults(bench) {
  const byKey = new Map(bench.results.map((r) => [keyOf(r.idx, r.mode), r]));
  return allJobs(bench).map((job) => ({ job, result: byKey.get(job.key) ?? null }));
}

/** The result of question `idx` in `mode`, or null. */
export const resultOf = (bench, idx, mode) => bench.results.find((r) => r.idx === idx && r.mode === mode) ?? null;

// ----- export ----------------------------------------------------------------------------------

const CSV_COLUMNS = ["dataset", "idx", "question", "gold", "mode", "answer", "em", "f1", "steps", "calls", "bad_calls", "tokens", "ms", "stop"];

/** A CSV field: quoted when it holds a comma, a quote or a line break (RFC 4180). */
function csvField(value) {
  const text = value === null || value === undefined ? "" : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One row per finished job. */
export function toCsv(bench) {
  const lines = [CSV_COLUMNS.join(",")];
  for (const { job, result: r } of orderedResults(bench)) {
    if (!r) continue;
    const row = [bench.config.dataset, r.idx, job.item.text, r.gold, r.mode, r.answer, r.em, r.f1, r.steps, r.calls, r.badCalls, r.tokens, r.ms, r.stop];
    lines.push(row.map(csvField).join(","));
  }
  return lines.join("\r\n") + "\r\n";
}

/**
 * One line per finished job's trajectory in the training schema (the wasm's `trainingRecord`,
 * which renders each step's exact prompt, so it is given an agent set up as the run's was — with
 * the scripted model: rendering calls no model and needs no key). Results saved without their
 * trajectory (storage was full) are left out; resolves with `{ text, lines, missing }`.
 */
export async function toJsonl(bench) {
  const lines = [];
  let missing = 0;
  for (const { job, result: r } of orderedResults(bench)) {
    if (!r) continue;
    if (!r.trajectory) {
      missing += 1;
      continue;
    }
    const extra = { dataset: bench.config.dataset, id: r.id ?? r.idx, gold: r.gold, em: r.em, f1: r.f1, reward: bench.config.dataset === "fever" ? r.em : r.f1 };
    const scripted = { ...controls.settings(), provider: "scripted" };
    const record = await withAgent(jobAgent(bench, job.mode, scripted), (agent) => agent.trainingRecord(r.trajectory, extra));
    lines.push(JSON.stringify(record));
  }
  return { text: lines.map((l) => l + "\n").join(""), lines: lines.length, missing };
}

//! Benchmark mode's panel: the settings (dataset, how many questions from where, the modes, the
//! data), Start / Stop / Resume, a progress bar, the results per mode beside the paper's Table 1
//! (a table and a bar chart), the per-question answers, each opening its trajectory, and the
//! CSV and JSONL exports. The logic (data, queue, storage, scoring) is `benchmark.js`.
//!
//! The panel takes the stage's place while it is open (the settings stay beside it: the model
//! is the Model panel's). It is loaded the first time it is needed (`benchmark-open.js`), so a
//! page that never benchmarks never downloads it. Everything a model or a data file says reaches
//! the page through `textContent` (`el()`), never as markup.

import { t, applyI18n, addWords } from "./i18n.js";
import { WORDS } from "./benchmark-words.js";
import { el, formatMs, modelName } from "./cards.js";
import { state, controls, toolsPanel, view, stats, messageOf } from "./app.js";
import { announce } from "./announce.js";
import { setFolded } from "./present.js";
import * as bench from "./benchmark.js";
import { stylesheet } from "./elements.js";

addWords(WORDS);
// The compare view takes the stage: the panel gives way (compare.js).
document.addEventListener("tao:benchmark-close", () => isOpen() && closeBenchmark({ focus: false }));

/** The panel's parts once built: `{ root, form, fields…, progress, … }`. */
let ui = null;
/** The benchmark shown: the saved one, or the one running, or null. */
let current = null;
/** The AbortController of the running benchmark, or null. */
let running = null;
/** What the panel hides while it is open: the page's view, or a fork's branches. */
let stage = null;
/** The last tenth of the way announced (progress is announced every 10%). */
let announcedTenth = -1;

const MAX_CONCURRENCY = 8;

/** `t(key)` with `{name}` placeholders filled in. */
function fill(key, values) {
  return t(key).replace(/\{(\w+)\}/g, (_, name) => String(values[name] ?? ""));
}

const pct = (x) => (x === null || x === undefined ? "–" : x.toFixed(1));

// ----- building the panel ----------------------------------------------------------------------

function field(id, labelKey, input) {
  const box = el("div", { class: "field" });
  input.id = id;
  box.append(el("label", { for: id, "data-i18n": labelKey }), input);
  return box;
}

function button(key, attrs = {}) {
  return el("button", { type: "button", "data-i18n": key, ...attrs });
}

function build() {
  const root = el("section", { class: "panel benchmark", "aria-labelledby": "bench-title", "data-benchmark": "" });
  const head = el("div", { class: "bench-head" });
  const close = button("bench.close", { class: "quiet" });
  head.append(el("h2", { id: "bench-title", "data-i18n": "bench.title" }), close);
  const intro = el("p", { class: "hint", "data-i18n": "bench.intro" });
  const model = el("p", { class: "bench-model", "data-bench-model": "" });

  const form = el("form", { class: "bench-form", autocomplete: "off" });
  const dataset = el("select", { name: "dataset" });
  dataset.append(el("option", { value: "hotpotqa" }, "HotpotQA"), el("option", { value: "fever" }, "FEVER"));
  const n = el("input", { name: "n", type: "number", min: "1", max: String(bench.PAPER_SAMPLE), step: "1", value: "5", inputmode: "numeric" });
  const from = el("input", { name: "from", type: "number", min: "1", max: String(bench.PAPER_SAMPLE), step: "1", value: "1", inputmode: "numeric" });
  const concurrency = el("input", { name: "concurrency", type: "number", min: "1", max: String(MAX_CONCURRENCY), step: "1", value: "2", inputmode: "numeric" });
  const numbers = el("div", { class: "bench-row" });
  numbers.append(field("bench-dataset", "bench.dataset", dataset), field("bench-n", "bench.n", n), field("bench-from", "bench.from", from), field("bench-concurrency", "bench.concurrency", concurrency));

  const modes = el("fieldset", { class: "bench-modes" });
  modes.append(el("legend", { "data-i18n": "bench.modes" }));
  for (const mode of bench.MODES) {
    const label = el("label", { class: "check" });
    const box = el("input", { type: "checkbox", name: "mode", value: mode });
    box.checked = mode === "react" || mode === "act";
    label.append(box, el("span", { "data-i18n": `bench.mode.${mode}` }));
    modes.append(label);
  }
  const exemplarsLabel = el("label", { class: "check bench-exemplars" });
  const exemplars = el("input", { type: "checkbox", name: "exemplars" });
  exemplarsLabel.append(exemplars, el("span", { "data-i18n": "bench.exemplars" }));
  modes.append(exemplarsLabel);

  const dataUrl = el("input", { name: "dataUrl", type: "text", spellcheck: "false", autocapitalize: "off", value: bench.DEFAULT_DATA_URL, inputmode: "url" });
  const file = el("input", { name: "file", type: "file", accept: ".json,.jsonl,application/json,text/plain" });
  const data = el("div", { class: "bench-data" });
  const urlField = field("bench-data-url", "bench.dataUrl", dataUrl);
  urlField.classList.add("field-wide");
  data.append(urlField, field("bench-file", "bench.file", file));
  const dataHint = el("p", { class: "hint", "data-i18n": "bench.data.hint" });
  // What Start will cost, before it is pressed: runs and, at most, model calls.
  const estimate = el("p", { class: "bench-estimate", "data-bench-estimate": "" });

  const start = button("bench.start", { class: "primary", type: "submit" });
  const stop = button("bench.stop", { "data-action": "bench-stop" });
  const resume = button("bench.resume");
  const buttons = el("div", { class: "buttons" });
  buttons.append(start, stop, resume);
  form.append(numbers, modes, data, dataHint, estimate, buttons);

  // Said before Start, as soon as the Model panel's choice cannot run a benchmark: no model (the
  // offline one, You) or no key where the provider needs one.
  const offline = el("div", { class: "notice", hidden: "", "data-bench-needs": "" });
  const choose = button("bench.chooseModel", { class: "quiet" });
  const choices = el("p", { class: "notice-buttons" });
  choices.append(choose);
  offline.append(el("p", { "data-bench-why": "" }), choices);
  // The paper's Table 1, there to compare with before any run (the results show it beside theirs).
  const paper = el("div", { class: "bench-paper" });
  const paperTable = el("div", { class: "bench-table-wrap", "data-bench-paper": "", tabindex: "0", role: "region", "aria-labelledby": "bench-paper-title" });
  paper.append(el("h3", { id: "bench-paper-title", "data-i18n": "bench.paper" }), paperTable, el("p", { class: "hint", "data-i18n": "bench.cite" }));
  const error = el("p", { class: "error", role: "alert", hidden: "" });
  const status = el("p", { class: "hint bench-status", role: "status" });

  const progressBox = el("div", { class: "bench-progress" });
  const progress = el("progress", { id: "bench-progress", max: "1", value: "0" });
  const progressText = el("span", { class: "bench-progress-text" });
  progressBox.append(el("label", { for: "bench-progress", "data-i18n": "bench.progress" }), progress, progressText);

  const results = el("section", { class: "bench-results", "aria-labelledby": "bench-results-title", hidden: "" });
  const exports = el("p", { class: "bench-exports" });
  const csv = button("bench.exportCsv", { class: "quiet" });
  const jsonl = button("bench.exportJsonl", { class: "quiet" });
  exports.append(csv, jsonl);
  const summary = el("div", { class: "bench-table-wrap", tabindex: "0", role: "region", "aria-labelledby": "bench-caption" });
  const chart = el("figure", { class: "bench-chart" });
  const cite = el("p", { class: "hint bench-cite", "data-i18n": "bench.cite" });
  const questionsTitle = el("h3", { id: "bench-questions-title", "data-i18n": "bench.questions" });
  const questions = el("div", { class: "bench-table-wrap bench-questions", tabindex: "0", role: "region", "aria-labelledby": "bench-questions-title" });
  results.append(el("h3", { id: "bench-results-title", "data-i18n": "bench.results" }), summary, chart, cite, exports, questionsTitle, el("p", { class: "hint", "data-i18n": "bench.drill.hint" }), questions);

  const dialog = el("dialog", { class: "bench-drill", "aria-labelledby": "bench-drill-title" });
  const drillHead = el("div", { class: "bench-head" });
  const drillClose = button("bench.drill.close", { class: "quiet" });
  drillHead.append(el("h3", { id: "bench-drill-title" }), drillClose);
  const drillFacts = el("dl", { class: "bench-facts" });
  const drillView = document.createElement("tao-trajectory");
  drillView.className = "trajectory";
  dialog.append(drillHead, drillFacts, drillView);
  // The trajectory's Prompt and Edit buttons talk to the page's single run: not this one.
  for (const type of ["tao:prompt", "tao:fork"]) dialog.addEventListener(type, (e) => e.stopPropagation());
  drillClose.addEventListener("click", () => dialog.close());

  root.append(head, intro, model, offline, form, error, status, progressBox, paper, results, dialog);
  ui = { root, form, dataset, n, from, concurrency, exemplars, dataUrl, file, start, stop, resume, offline, error, status, progress, progressText, results, summary, chart, questions, csv, jsonl, dialog, drillFacts, drillView, model, estimate, paper };

  close.addEventListener("click", closeBenchmark);
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    startNew();
  });
  stop.addEventListener("click", () => running?.abort());
  resume.addEventListener("click", () => resumeSaved());
  choose.addEventListener("click", () => {
    setFolded(false);
    document.getElementById(needs() === "key" ? "apiKey" : "provider")?.focus();
  });
  form.addEventListener("input", showEstimate);
  form.addEventListener("change", showEstimate);
  csv.addEventListener("click", exportCsv);
  jsonl.addEventListener("click", exportJsonl);
  document.addEventListener("tao:lang", () => setTimeout(redraw));
  for (const type of ["tao:provider", "tao:tools", "tao:key", "change"]) document.addEventListener(type, () => setTimeout(showModel));
  return root;
}

// ----- open and close --------------------------------------------------------------------------

const headerButton = () => document.querySelector('[data-action="benchmark"]');

/**
 * Opens the panel: with the settings of `query` (`{dataset, n, from, modes, data, concurrency}`
 * from the URL) when given, else with the saved benchmark's; `resume` goes on with the saved one.
 */
export async function openBenchmark({ query = null, resume = false } = {}) {
  await stylesheet("benchmark.css");
  if (!ui) {
    // One alternative view of the stage at a time: a comparison gives way.
    if (state.compare) document.dispatchEvent(new CustomEvent("tao:compare-close"));
    stats.before(build());
    applyI18n(ui.root);
  }
  ui.root.hidden = false;
  // The stage's run view: the page's view, or a fork's two branches holding it.
  stage = view.closest("tao-branches") ?? view;
  stage.hidden = true;
  stats.hidden = true;
  headerButton()?.setAttribute("aria-pressed", "true");
  current ??= bench.load();
  if (current) fillForm(current.config);
  if (query) fillForm(query);
  redraw();
  if (resume) await resumeSaved();
  else ui.root.querySelector("h2").scrollIntoView({ block: "nearest" });
}

/** Hides the panel (a benchmark running goes on; the Benchmark button brings it back). */
export function closeBenchmark({ focus = true } = {}) {
  if (!ui) return;
  ui.root.hidden = true;
  if (stage) stage.hidden = false;
  stats.hidden = false;
  const opener = headerButton();
  opener?.setAttribute("aria-pressed", "false");
  if (focus) opener?.focus();
}

export const isOpen = () => Boolean(ui && !ui.root.hidden);

function fillForm(config) {
  if (config.dataset && bench.DATASETS[config.dataset]) ui.dataset.value = config.dataset;
  if (config.n) ui.n.value = String(config.n);
  if (config.from) ui.from.value = String(config.from);
  if (config.concurrency) ui.concurrency.value = String(config.concurrency);
  if (config.dataUrl) ui.dataUrl.value = config.dataUrl;
  if (config.exemplars !== undefined) ui.exemplars.checked = Boolean(config.exemplars);
  if (config.modes?.length) {
    for (const box of ui.form.querySelectorAll('[name="mode"]')) box.checked = config.modes.includes(box.value);
  }
}

/** The form's settings, checked; null (and the reason shown) when they cannot run. */
function readForm() {
  const int = (input, low, high) => {
    const v = Number(input.value);
    return Number.isInteger(v) && v >= low && v <= high ? v : null;
  };
  const config = {
    dataset: ui.dataset.value,
    n: int(ui.n, 1, bench.PAPER_SAMPLE),
    from: int(ui.from, 1, bench.PAPER_SAMPLE),
    concurrency: int(ui.concurrency, 1, MAX_CONCURRENCY),
    modes: [...ui.form.querySelectorAll('[name="mode"]:checked')].map((b) => b.value),
    dataUrl: ui.dataUrl.value.trim() || bench.DEFAULT_DATA_URL,
    exemplars: ui.exemplars.checked,
  };
  const bad = (key, input) => {
    showError(t(key));
    input?.focus();
    return null;
  };
  if (config.n === null) return bad("bench.bad.n", ui.n);
  if (config.from === null) return bad("bench.bad.from", ui.from);
  if (config.concurrency === null) return bad("bench.bad.concurrency", ui.concurrency);
  if (config.modes.length === 0) return bad("bench.bad.modes", ui.form.querySelector('[name="mode"]'));
  return config;
}

function showError(text) {
  ui.error.textContent = text ?? "";
  ui.error.hidden = !text;
}

/**
 * What the Model panel's choice lacks to run a benchmark: "model" (the offline model and You
 * cannot answer its questions), "key" (a provider that needs a key, at a server that is not on
 * this machine, and none given), or null.
 */
function needs() {
  const settings = controls.settings();
  if (settings.provider === "scripted" || settings.provider === "human") return "model";
  const info = state.providers.get(settings.provider);
  if (!info?.needsKey || settings.apiKey) return null;
  let host = "";
  try {
    host = new URL(settings.baseUrl || info.baseUrl).hostname;
  } catch {
    /* a base URL being typed: said when it is one */
  }
  return /^(localhost|127\.|\[::1\]|0\.0\.0\.0)/.test(host) ? null : "key";
}

/** Says what the model lacks (before Start, as the Model panel changes); true when it lacks something. */
function showNeeds() {
  const missing = needs();
  ui.offline.hidden = !missing;
  if (missing) {
    const provider = t(`provider.${controls.settings().provider}`);
    ui.offline.querySelector("[data-bench-why]").textContent = missing === "key" ? fill("bench.noKey", { provider }) : t("bench.scripted");
    ui.offline.querySelector("button").textContent = t(missing === "key" ? "bench.addKey" : "bench.chooseModel");
  }
  return Boolean(missing);
}

/** At Start: a model that cannot run it is refused, the notice's button focused. */
function needsModel() {
  const missing = showNeeds();
  if (missing) ui.offline.querySelector("button").focus();
  return missing;
}

/** "Model: OpenAI-compatible gpt-4o-mini · tools: search, lookup on en.wikipedia.org". */
function showModel() {
  if (!ui) return;
  const wiki = toolsPanel.settings().wiki;
  const where = !wiki || wiki === "offline" || wiki === "en" ? "en.wikipedia.org" : wiki === "zh" ? "zh.wikipedia.org" : wiki;
  const steps = bench.DATASETS[ui.dataset.value].maxSteps;
  ui.model.textContent = fill("bench.model", { model: modelWords(), wiki: where, steps });
  showNeeds();
  showEstimate();
}

/** The Model panel's model in words: never an internal name such as `scripted:apple-ceo`. */
function modelWords() {
  const settings = controls.settings();
  if (settings.provider === "scripted" || settings.provider === "human") return t(`provider.${settings.provider}`);
  const name = settings.model || state.providers.get(settings.provider)?.model || "";
  return `${t(`provider.${settings.provider}`)} ${name}`.trim();
}

/** A model as a trajectory names it (`openai:gpt-4o-mini`), in words: "OpenAI-compatible gpt-4o-mini". */
function labelWords(label) {
  const [, provider, name] = /^(openai|ollama|anthropic):(.*)$/.exec(label ?? "") ?? [];
  return provider ? `${t(`provider.${provider}`)} ${name}`.trim() : modelName(label);
}

/** "10 runs (5 questions × 2 modes), each at most 7 steps: up to 70 model calls." */
function showEstimate() {
  if (!ui) return;
  const n = Number(ui.n.value) || 0;
  const modes = ui.form.querySelectorAll('[name="mode"]:checked').length;
  const steps = bench.DATASETS[ui.dataset.value].maxSteps;
  const runs = n * modes;
  ui.estimate.textContent = fill(runs === 1 ? "bench.estimate.one" : "bench.estimate", { runs, n, modes, steps, calls: runs * steps });
}

/** The paper's Table 1 for both datasets, the figures a run is compared with. */
function drawPaper() {
  const table = el("table", { class: "bench-table" });
  const head = el("tr");
  for (const key of ["bench.col.mode", "bench.paper.hotpotqa", "bench.paper.fever"]) head.append(el("th", { scope: "col" }, t(key)));
  table.append(el("caption", { class: "visually-hidden" }, t("bench.paper")), el("thead"), el("tbody"));
  table.tHead.append(head);
  for (const mode of bench.MODES) {
    const tr = el("tr", { "data-mode": mode });
    tr.append(el("th", { scope: "row" }, modeName(mode)));
    for (const dataset of ["hotpotqa", "fever"]) tr.append(el("td", {}, bench.PAPER_TABLE_1[dataset][mode].toFixed(1)));
    table.tBodies[0].append(tr);
  }
  ui.paper.querySelector("[data-bench-paper]").replaceChildren(table);
}

// ----- running ---------------------------------------------------------------------------------

async function startNew() {
  if (running || !state.tao) return;
  showError("");
  const config = readForm();
  if (!config || needsModel()) return;
  const replaced = current && current.results.length > 0;
  const picked = ui.file.files?.[0] ?? null;
  setRunning(true);
  ui.status.textContent = t("bench.loading");
  try {
    const file = picked ? { name: picked.name, text: await picked.text() } : null;
    current = await bench.prepare(config, file, running.signal);
  } catch (e) {
    const stopped = running.signal.aborted;
    setRunning(false);
    if (!stopped) showError(`${t("bench.error.data")} ${messageOf(e)}`);
    ui.status.textContent = "";
    return;
  }
  const saved = bench.save(current);
  announcedTenth = -1;
  redraw();
  ui.status.textContent = replaced ? t("bench.replaced") : "";
  noteSaved(saved);
  await go();
}

async function resumeSaved() {
  if (running || !state.tao) return;
  showError("");
  current ??= bench.load();
  if (!current || !bench.isUnfinished(current)) return;
  fillForm(current.config);
  if (needsModel()) return;
  hideNotice();
  setRunning(true);
  await go();
}

/** Runs the current benchmark's pending jobs until done, stopped or failed. */
async function go() {
  const signal = running.signal;
  ui.status.textContent = t("bench.running");
  redraw();
  let pendingRedraw = null;
  try {
    await bench.runBenchmark(current, {
      signal,
      onResult: (record, saved) => {
        noteSaved(saved);
        // Redrawn at most every 300 ms: 2,000 jobs must not redraw a 500-row table 2,000 times.
        pendingRedraw ??= setTimeout(() => {
          pendingRedraw = null;
          redraw();
        }, 300);
        announceProgress();
      },
    });
    ui.status.textContent = signal.aborted ? t("bench.stopped") : t("bench.finished");
  } catch (e) {
    showError(`${t("bench.error.run")} ${messageOf(e)}`);
    ui.status.textContent = t("bench.stopped");
  } finally {
    clearTimeout(pendingRedraw);
    setRunning(false);
    redraw();
    const { done, total } = counts();
    announce(`${ui.status.textContent} ${fill("bench.progress.text", { done, total })}`);
  }
}

function setRunning(on) {
  const focused = document.activeElement;
  running = on ? new AbortController() : null;
  ui.root.toggleAttribute("data-running", on);
  for (const input of ui.form.querySelectorAll("input, select")) input.disabled = on;
  ui.start.disabled = on;
  ui.stop.disabled = !on;
  ui.resume.disabled = on || !bench.isUnfinished(current);
  // The focus follows the button that still does something (as Run and Stop do on the page).
  if (on && (focused === ui.start || focused === ui.resume)) ui.stop.focus();
  if (!on && focused === ui.stop) (ui.resume.disabled ? ui.start : ui.resume).focus();
}

function noteSaved(saved) {
  if (saved === "dropped") ui.status.textContent = t("bench.dropped");
  if (saved === "failed") ui.status.textContent = t("bench.notSaved");
}

function counts() {
  const total = current ? current.items.length * current.config.modes.length : 0;
  return { done: current?.results.length ?? 0, total };
}

/** Says how far the benchmark is, politely, each time another tenth is done. */
function announceProgress() {
  const { done, total } = counts();
  const tenth = Math.floor((10 * done) / Math.max(1, total));
  if (tenth === announcedTenth || done === total) return;
  announcedTenth = tenth;
  announce(fill("bench.progress.text", { done, total }));
}

// ----- drawing ---------------------------------------------------------------------------------

/** Redraws what depends on the benchmark and the language: progress, results, questions. */
function redraw() {
  if (!ui) return;
  showModel();
  ui.resume.disabled = Boolean(running) || !bench.isUnfinished(current);
  ui.stop.disabled = !running;
  ui.start.disabled = Boolean(running);
  const { done, total } = counts();
  ui.progress.max = Math.max(1, total);
  ui.progress.value = done;
  const text = fill("bench.progress.text", { done, total });
  ui.progressText.textContent = text;
  ui.progress.setAttribute("aria-valuetext", text);
  ui.results.hidden = !current;
  // Before any run, the paper's figures stand alone; after one, they are in the results' table.
  ui.paper.hidden = Boolean(current);
  if (!current) return drawPaper();
  drawSummary();
  drawChart();
  drawQuestions();
}

const modeName = (mode) => t(`bench.mode.${mode}`);
const isFever = () => current.config.dataset === "fever";

function drawSummary() {
  const rows = bench.summarize(current);
  const paper = bench.PAPER_TABLE_1[current.config.dataset];
  const tokens = rows.some((r) => r.tokens > 0);
  const table = el("table", { class: "bench-table", "data-bench-summary": "" });
  const { dataset, from } = current.config;
  table.append(el("caption", { id: "bench-caption" }, fill("bench.caption", { dataset: dataset === "fever" ? "FEVER" : "HotpotQA", n: current.items.length, from, model: labelWords(current.model) })));
  const columns = [
    ["mode", "bench.col.mode"],
    ["done", "bench.col.done"],
    ["em", isFever() ? "bench.col.acc" : "bench.col.em"],
    ...(isFever() ? [] : [["f1", "bench.col.f1"]]),
    ["steps", "bench.col.steps"],
    ["badCalls", "bench.col.badCalls"],
    ...(tokens ? [["tokens", "bench.col.tokens"]] : []),
    ["ms", "bench.col.time"],
    ["paper", isFever() ? "bench.col.paperAcc" : "bench.col.paperEm"],
  ];
  const head = el("tr");
  for (const [key, label] of columns) head.append(el("th", { scope: "col", "data-col": key }, t(label)));
  table.append(el("thead"), el("tbody"));
  table.tHead.append(head);
  for (const r of rows) {
    const tr = el("tr", { "data-mode": r.mode });
    const cell = {
      mode: modeName(r.mode),
      done: `${r.done} / ${r.total}`,
      em: pct(r.em),
      f1: pct(r.f1),
      steps: r.steps === null ? "–" : r.steps.toFixed(1),
      badCalls: String(r.badCalls),
      tokens: r.tokens.toLocaleString(),
      ms: r.ms === null ? "–" : formatMs(r.ms),
      paper: paper[r.mode].toFixed(1),
    };
    for (const [key] of columns) {
      tr.append(key === "mode" ? el("th", { scope: "row" }, cell.mode) : el("td", { "data-col": key }, cell[key]));
    }
    table.tBodies[0].append(tr);
  }
  ui.summary.replaceChildren(table);
}

// The bar chart: per mode, a bar for EM (or accuracy) and one for F1 (HotpotQA), on a 0–100
// scale, each with its value written after it, and a tick at the paper's figure. Drawn at the
// figure's width in CSS pixels (text keeps its size on a phone), again when the width changes.

const SVG = "http://www.w3.org/2000/svg";
let chartObserver = null;

function svg(tag, attrs = {}, text) {
  const node = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, String(value));
  if (text !== undefined) node.textContent = String(text);
  return node;
}

function drawChart() {
  const figure = ui.chart;
  if (!chartObserver) {
    let width = 0;
    chartObserver = new ResizeObserver(() => {
      if (figure.clientWidth !== width && current) {
        width = figure.clientWidth;
        figure.replaceChildren(chartSvg(width));
      }
    });
    chartObserver.observe(figure);
  }
  if (figure.clientWidth > 0) figure.replaceChildren(chartSvg(figure.clientWidth));
}

/** About how wide `text` is drawn in the chart's font (the SVG is measured before it is shown):
 * CJK characters take a full em, the rest about half of one. */
function textWidth(text) {
  let w = 0;
  for (const ch of text) w += ch.codePointAt(0) >= 0x2e80 ? 13 : 7.5;
  return w;
}

function chartSvg(width) {
  const rows = bench.summarize(current);
  const paper = bench.PAPER_TABLE_1[current.config.dataset];
  const bars = isFever() ? [["em", "bench.col.acc"]] : [["em", "bench.col.em"], ["f1", "bench.col.f1"]];
  const label = 78;
  const value = 96;
  const barH = 16;
  const gap = 4;
  const groupH = bars.length * (barH + gap) + 14;
  const top = 30;
  const height = top + rows.length * groupH + 4;
  const plot = Math.max(60, width - label - value);
  const x = (v) => label + (plot * Math.max(0, Math.min(100, v ?? 0))) / 100;
  const described = rows.map((r) => `${modeName(r.mode)}: ${bars.map(([k, l]) => `${t(l)} ${pct(r[k])}`).join(", ")}; ${t("bench.chart.paper")} ${paper[r.mode].toFixed(1)}`).join(". ");
  const root = svg("svg", { width, height, viewBox: `0 0 ${width} ${height}`, role: "img", "aria-label": `${t("bench.chart.title")}. ${described}.`, class: "bench-svg" });
  // The legend.
  let lx = label;
  for (const [key, l] of bars) {
    root.append(svg("rect", { x: lx, y: 6, width: 12, height: 12, rx: 2, class: `bench-bar-${key}` }));
    const text = svg("text", { x: lx + 16, y: 16, class: "bench-svg-text" }, t(l));
    root.append(text);
    lx += 28 + textWidth(t(l));
  }
  root.append(svg("line", { x1: lx, x2: lx, y1: 5, y2: 19, class: "bench-paper-tick" }));
  root.append(svg("text", { x: lx + 6, y: 16, class: "bench-svg-text" }, t("bench.chart.paper")));
  // The 0 and 100 lines.
  for (const v of [0, 50, 100]) root.append(svg("line", { x1: x(v), x2: x(v), y1: top - 4, y2: height - 4, class: "bench-grid" }));
  rows.forEach((r, i) => {
    const y0 = top + i * groupH;
    root.append(svg("text", { x: label - 8, y: y0 + barH - 3, "text-anchor": "end", class: "bench-svg-text bench-svg-mode" }, modeName(r.mode)));
    bars.forEach(([key], k) => {
      const y = y0 + k * (barH + gap);
      root.append(svg("rect", { x: label, y, width: Math.max(0, x(r[key]) - label), height: barH, rx: 3, class: `bench-bar-${key}` }));
      root.append(svg("text", { x: x(r[key]) + 6, y: y + barH - 4, class: "bench-svg-text" }, pct(r[key])));
    });
    const px = x(paper[r.mode]);
    root.append(svg("line", { x1: px, x2: px, y1: y0 - 3, y2: y0 + barH + 3, class: "bench-paper-tick" }));
  });
  return root;
}

/** The per-question table: question, gold, and per mode a button with the answer and its score. */
function drawQuestions() {
  const table = el("table", { class: "bench-table bench-per-question" });
  const head = el("tr");
  head.append(el("th", { scope: "col" }, t("bench.col.idx")), el("th", { scope: "col" }, t(isFever() ? "bench.col.claim" : "bench.col.question")), el("th", { scope: "col" }, t(isFever() ? "bench.col.label" : "bench.col.gold")));
  for (const mode of current.config.modes) head.append(el("th", { scope: "col" }, modeName(mode)));
  table.append(el("thead"), el("tbody"));
  table.tHead.append(head);
  for (const item of current.items) {
    const tr = el("tr", { "data-idx": String(item.idx) });
    const gold = el("td", { class: "bench-gold", "data-label": t(isFever() ? "bench.col.label" : "bench.col.gold") }, item.gold);
    tr.append(el("td", { class: "bench-idx" }, item.idx), el("th", { scope: "row", class: "bench-q" }, item.text), gold);
    for (const mode of current.config.modes) {
      const r = bench.resultOf(current, item.idx, mode);
      const td = el("td", { "data-mode": mode });
      if (!r) {
        td.append(el("span", { class: "hint" }, "–"));
      } else {
        const b = el("button", { type: "button", class: "bench-answer", "data-em": String(r.em), "aria-haspopup": "dialog" });
        b.append(el("span", { class: "bench-answer-mode" }, `${modeName(mode)}: `), el("span", { class: "bench-answer-text" }, r.answer ?? t("bench.noAnswer")));
        b.append(el("span", { class: "bench-score" }, isFever() ? (r.em ? "✓" : "✗") : fill("bench.score", { em: r.em, f1: r.f1.toFixed(2) })));
        b.addEventListener("click", () => drill(item, r, b));
        td.append(b);
      }
      tr.append(td);
    }
    table.tBodies[0].append(tr);
  }
  ui.questions.replaceChildren(table);
}

/** Shows one run's trajectory in the dialog; closing it gives the focus back to `opener`. */
function drill(item, r, opener) {
  const { dialog, drillFacts, drillView } = ui;
  dialog.querySelector("h3").textContent = fill("bench.drill.title", { idx: item.idx, mode: modeName(r.mode) });
  drillFacts.replaceChildren();
  const facts = [
    [isFever() ? "bench.col.claim" : "bench.col.question", item.text],
    [isFever() ? "bench.col.label" : "bench.col.gold", item.gold],
    ["bench.answer", r.answer ?? t("bench.noAnswer")],
    ["bench.scoreLabel", isFever() ? (r.em ? "✓" : "✗") : fill("bench.score", { em: r.em, f1: r.f1.toFixed(2) })],
  ];
  for (const [key, value] of facts) {
    const row = el("div");
    row.append(el("dt", {}, t(key)), el("dd", {}, value));
    drillFacts.append(row);
  }
  if (r.trajectory) drillView.render(r.trajectory, { live: true });
  else drillView.replaceChildren(el("p", { class: "hint" }, t("bench.noTrajectory")));
  dialog.addEventListener("close", () => opener.isConnected && opener.focus(), { once: true });
  dialog.showModal();
  dialog.querySelector("button").focus();
}

// ----- exports ---------------------------------------------------------------------------------

function exportCsv() {
  if (!current?.results.length) return void (ui.status.textContent = t("bench.nothing"));
  bench.download(`benchmark-${current.config.dataset}.csv`, bench.toCsv(current), "text/csv");
  ui.status.textContent = t("bench.exported");
}

async function exportJsonl() {
  if (!current?.results.length) return void (ui.status.textContent = t("bench.nothing"));
  try {
    const { text, missing } = await bench.toJsonl(current);
    bench.download(`benchmark-${current.config.dataset}.jsonl`, text, "application/jsonl");
    ui.status.textContent = missing ? fill("bench.exported.missing", { missing }) : t("bench.exported");
  } catch (e) {
    showError(`${t("bench.error.export")} ${messageOf(e)}`);
  }
}

// ----- the saved benchmark's notice (drawn by benchmark-open.js) -------------------------------

function hideNotice() {
  const notice = document.querySelector("[data-bench-notice]");
  if (notice) notice.hidden = true;
}

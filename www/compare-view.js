//! `<tao-compare>`: one question in two to four of the ReAct paper's prompt modes, as columns
//! that stream side by side — ReAct (thought, action, observation), Act (actions without
//! thoughts), CoT (thinking step by step, no tools) and Standard (answering directly). Each
//! column counts its steps, model calls, bad calls, tokens and time, and shows its answer; when
//! the question has a gold answer (a built-in scenario's), each answer is scored the way the
//! paper scores HotpotQA: exact match and token F1, after the paper's normalisation.
//!
//! A column is an ordinary run: an `Agent` made from the form (the same model, tools and
//! budgets) with the mode's format, drawn by its own `<tao-trajectory>`. Offline, a scenario's
//! scripted model has replies written for each mode (`ScenarioInfo.modes`), showing what the
//! paper saw: CoT states a wrong fact with confidence, Act searches again without a plan.
//!
//! Model text reaches the page through `textContent` only (`el()`). Registered lazily by
//! `elements.js` when `compare.js` first opens the view.

import { t, addWords } from "./i18n.js";
import { el, formatMs } from "./cards.js";
import { state, controls, toolsPanel, showError, showStatus, messageOf, agentConfig, keepRun, modelOf } from "./app.js";
import { pageAgent } from "./page-tools.js";
import { offlineMismatch } from "./offline.js";
import { announce } from "./announce.js";
import { drive, withAgent } from "./drive.js";
import { MODES, FORMAT, answerOf } from "./modes.js";

// The compare view's words in English, added to the page's dictionary when it first loads, so the
// first load does not carry them (the Chinese ones are in i18n-zh.js, which a visit in Chinese
// loads).
addWords({
  en: {
    "compare.title": "Compare prompt modes",
    "compare.modes": "Modes",
    "compare.close": "Close comparison",
    "compare.gold": "Gold answer: {gold}. Each answer is scored as the paper scores HotpotQA: exact match (EM) and word overlap (F1).",
    "compare.noGold": "This question has no gold answer, so the answers are not scored.",
    "compare.unscored": "The answers could not be scored (the scoring code did not load):",
    "compare.answer": "Answer",
    "compare.noAnswer": "no answer",
    "compare.score": "EM {em} · F1 {f1}",
    "compare.running": "Running the question in {n} modes side by side…",
    "compare.done": "Compared.",
    "compare.stopped": "Stopped: the comparison did not finish.",
    "compare.busy": "Wait for the comparison to end (or press Stop).",
    "compare.min": "Compare at least two modes.",
    "compare.human": "Compare runs every mode at once, so it needs the offline model or a real one, not You.",
    "compare.offline": "The offline model has no replies in {modes} for this scenario. Choose “Apple CEO's hometown” or “Einstein's birthplace”, or a real model.",
  },
});

/** A column's counters, in the order shown (labels shared with the stats bar). */
const COUNTERS = ["steps", "n_calls", "n_badcalls", "tokens", "elapsed"];

let ids = 0;

export class TaoCompare extends HTMLElement {
  #built = false;
  #id = ++ids;
  #modes = new Set(MODES);
  /** Per mode: `{ section, view, values, answer, score }`. */
  #columns = new Map();
  #running = null;
  /** The last comparison's trajectories by mode (redrawn in a new language). */
  #results = new Map();
  #gold = null;

  connectedCallback() {
    if (this.#built) return;
    this.#built = true;
    const head = el("div", { class: "compare-head" });
    head.append(el("h2", { id: `compare-title-${this.#id}`, "data-i18n": "compare.title" }));
    const boxes = el("fieldset", { class: "compare-modes" });
    boxes.append(el("legend", { class: "visually-hidden", "data-i18n": "compare.modes" }));
    for (const mode of MODES) {
      const label = el("label", { class: "check" });
      const box = el("input", { type: "checkbox", name: "compareMode", value: mode });
      box.checked = this.#modes.has(mode);
      box.addEventListener("change", () => this.#toggle(mode, box));
      label.append(box, " ", el("span", { "data-i18n": `mode.${mode}` }));
      boxes.append(label);
    }
    const close = el("button", { type: "button", class: "quiet", "data-i18n": "compare.close" });
    close.addEventListener("click", () => this.dispatchEvent(new CustomEvent("tao:compare-close", { bubbles: true })));
    head.append(boxes, close);
    this.setAttribute("role", "region");
    this.setAttribute("aria-labelledby", `compare-title-${this.#id}`);
    this.append(head, el("p", { class: "hint", "data-compare-gold": "" }), el("div", { class: "compare-columns" }));
    this.#layout();
    document.addEventListener("tao:lang", this.#onLang);
    document.addEventListener("tao:scenario", this.#onScenario);
  }

  disconnectedCallback() {
    document.removeEventListener("tao:lang", this.#onLang);
    document.removeEventListener("tao:scenario", this.#onScenario);
  }

  #onLang = () => setTimeout(() => this.refresh());
  #onScenario = () => setTimeout(() => this.#showGold());

  /** The modes shown, in the paper's order. */
  modes() {
    return MODES.filter((m) => this.#modes.has(m));
  }

  /** Shows `list` (at least two of the paper's modes; fewer known names leave it as it is). */
  setModes(list) {
    const known = MODES.filter((m) => list.includes(m));
    if (known.length < 2) return;
    this.#modes = new Set(known);
    for (const box of this.querySelectorAll('[name="compareMode"]')) box.checked = this.#modes.has(box.value);
    this.#layout();
  }

  /** Stops a comparison in flight. */
  stop() {
    this.#running?.abort();
  }

  /** A mode's checkbox: at least two stay checked; the columns follow (not while running). */
  #toggle(mode, box) {
    if (this.#running || (!box.checked && this.#modes.size <= 2)) {
      box.checked = this.#modes.has(mode);
      showStatus(this.#running ? "compare.busy" : "compare.min");
      return;
    }
    if (box.checked) this.#modes.add(mode);
    else this.#modes.delete(mode);
    this.#layout();
  }

  /** One column per mode shown, empty until a run. */
  #layout() {
    const columns = this.querySelector(".compare-columns");
    columns.replaceChildren();
    this.#columns.clear();
    this.#results.clear();
    columns.dataset.count = String(this.#modes.size);
    for (const mode of this.modes()) {
      const titleId = `compare-${this.#id}-${mode}`;
      const section = el("section", { class: "compare-column", "data-mode": mode, "aria-labelledby": titleId });
      section.append(el("h3", { id: titleId, "data-i18n": `mode.${mode}` }), el("p", { class: "hint", "data-i18n": `mode.${mode}.hint` }));
      const list = el("dl", { class: "compare-stats" });
      for (const field of COUNTERS) {
        const item = el("div", { class: `stat stat-${field}` });
        item.append(el("dt", { "data-i18n": `stat.${field}` }), el("dd", { "data-stat": field }, "–"));
        list.append(item);
      }
      const answer = el("p", { class: "compare-answer", "data-answer": "" });
      const score = el("p", { class: "compare-score", "data-score": "" });
      const view = el("tao-trajectory", { class: "trajectory", role: "log", "aria-labelledby": titleId });
      section.append(list, answer, score, view);
      columns.append(section);
      this.#columns.set(mode, { section, view, answer, score, values: {} });
    }
    this.refresh();
  }

  /** The words of the view in the page's language, and each finished column drawn again. */
  refresh() {
    for (const node of this.querySelectorAll("[data-i18n]")) node.textContent = t(node.dataset.i18n);
    for (const [mode, traj] of this.#results) {
      const column = this.#columns.get(mode);
      if (column && traj) column.view.render(traj, { live: true });
    }
    for (const column of this.#columns.values()) this.#showCounters(column);
    this.#showGold();
  }

  /** The gold answer of the form's question: a scenario's, when the task is its own question. */
  #goldFor(settings) {
    const info = state.scenarios.find((s) => s.name === settings.scenario);
    return info?.gold && info.task.trim() === settings.task.trim() ? info.gold : null;
  }

  #showGold() {
    const settings = controls.settings();
    this.#gold = this.#goldFor(settings);
    const line = this.querySelector("[data-compare-gold]");
    if (line) line.textContent = this.#gold ? t("compare.gold").replace("{gold}", this.#gold) : t("compare.noGold");
  }

  #showCounters(column) {
    const v = column.values;
    const set = (field, text) => (column.section.querySelector(`[data-stat="${field}"]`).textContent = text);
    set("steps", v.steps ?? "–");
    set("n_calls", v.n_calls ?? "–");
    set("n_badcalls", v.n_badcalls ?? "–");
    set("elapsed", typeof v.elapsed === "number" ? formatMs(v.elapsed) : "–");
    // Offline there are no token counts: no Tokens line at all (a dash would read as zero).
    const tokens = (v.prompt_tokens ?? 0) + (v.completion_tokens ?? 0);
    set("tokens", tokens > 0 ? `${v.prompt_tokens ?? 0} / ${v.completion_tokens ?? 0}` : "");
    column.section.querySelector(".stat-tokens").hidden = !(tokens > 0);
    column.section.querySelector(".stat-n_badcalls dd").classList.toggle("has-bad", Number(v.n_badcalls) > 0);
    if (!("answer" in v)) {
      column.answer.textContent = "";
      column.score.textContent = "";
      return;
    }
    column.answer.replaceChildren(el("span", { class: "label" }, t("compare.answer")), " ", el("span", {}, v.answer ?? t("compare.noAnswer")));
    column.score.textContent = v.score ? t("compare.score").replace("{em}", String(v.score.em)).replace("{f1}", v.score.f1.toFixed(2)) : "";
    column.section.dataset.em = v.score ? String(v.score.em) : "";
  }

  /** Runs the form's question in every mode shown, at once. */
  async run(settings) {
    if (this.#running || !state.tao) return;
    showError("");
    if (settings.provider === "human") return showError(t("compare.human"));
    if (await offlineMismatch(settings)) return;
    if (this.#running) return; // pressed again while the other language's list came
    const modes = this.modes();
    if (settings.provider === "scripted") {
      const info = state.scenarios.find((s) => s.name === settings.scenario);
      const missing = modes.filter((m) => !(info?.modes ?? ["react"]).includes(m));
      if (missing.length) {
        const names = missing.map((m) => t(`mode.${m}`)).join(", ");
        return showError(t("compare.offline").replace("{modes}", names));
      }
    }
    const gold = this.#goldFor(settings);
    const controller = new AbortController();
    this.#running = controller;
    state.running = controller;
    this.#results.clear();
    controls.setRunning("running");
    showStatus("compare.running", { n: modes.length });
    // Each column's run and its scores, kept for Export JSONL once all have ended, in the
    // columns' order (the order they end in depends on their tools and models).
    const kept = new Map();
    const trajectories = await Promise.all(modes.map((mode) => this.#runColumn(mode, settings, gold, controller.signal, kept)));
    for (const mode of modes) if (kept.has(mode)) keepRun(...kept.get(mode));
    this.#running = null;
    state.running = null;
    controls.setRunning(false);
    const done = trajectories.filter(Boolean);
    if (done.length) state.lastTrajectory = done[0];
    const summary = modes
      .map((mode, i) => `${t(`mode.${mode}`)}: ${answerOf(trajectories[i]) ?? t("compare.noAnswer")}`)
      .join("; ");
    // Stopped: the columns say where each one was.
    const said = controller.signal.aborted ? "compare.stopped" : "compare.done";
    showStatus(said);
    announce(`${t(said)} ${summary}`);
  }

  /** One mode's run, streamed into its column; its trajectory, or null when it could not run.
   * The run and its scores go into `kept`, by mode. */
  async #runColumn(mode, settings, gold, signal, kept) {
    const column = this.#columns.get(mode);
    const panel = toolsPanel.settings();
    column.values = { steps: 0, n_calls: 0, n_badcalls: 0 };
    this.#showCounters(column);
    let traj;
    let started = false;
    try {
      traj = await withAgent(pageAgent({ ...agentConfig(settings, panel), format: FORMAT[mode] }, panel), (agent) => {
        started = true;
        column.view.begin(settings.task, { model: modelOf(settings), format: FORMAT[mode], lang: settings.lang });
        const onCounts = (counts) => {
          column.values = counts;
          this.#showCounters(column);
        };
        return drive(agent, "run", settings.task, { view: column.view, signal, onCounts });
      });
    } catch (e) {
      // Said in the column: after what the run drew, or in its place when it could not start.
      const error = el("p", { class: "error" }, messageOf(e));
      if (started) column.view.append(error);
      else column.view.replaceChildren(error);
      return null;
    }
    this.#results.set(mode, traj);
    const answer = answerOf(traj);
    const s = traj.stats ?? {};
    column.values = {
      steps: s.steps,
      n_calls: s.n_calls,
      n_badcalls: s.n_badcalls,
      elapsed: s.elapsed_ms,
      prompt_tokens: s.prompt_tokens,
      completion_tokens: s.completion_tokens,
      answer,
      // The run stands even if its score cannot be had (the scoring module failed to load).
      score: gold ? await state.tao.scoreAnswer("hotpotqa", answer, gold).catch((e) => (showError(`${t("compare.unscored")} ${messageOf(e)}`), null)) : null,
    };
    this.#showCounters(column);
    // Kept for Export JSONL, with its score as the reward when there is a gold answer.
    const score = column.values.score;
    kept.set(mode, [traj, score ? { gold, em: score.em, f1: score.f1, reward: score.f1 } : {}]);
    column.view.render(traj, { live: true });
    return traj;
  }
}

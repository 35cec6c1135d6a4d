//! `<tao-trajectory>`: draws a ReAct trajectory as one block per step, with a card for each
//! Thought, Action, Observation, Answer, bad call (repair) and note.
//!
//! It has two inputs and one rule. While a run streams, `handleEvent(ev)` takes the agent's
//! events (`step`, `token`, `thought`, …) and shows the model's raw words live, then the parsed
//! cards as they become known. When the run resolves, `render(trajectory)` throws that view
//! away and draws the returned trajectory: the trajectory is the single source of truth, and
//! the very same function draws an imported file. The rule: every piece of model or tool text
//! reaches the page through `textContent` (see `el()` below), never as HTML, because it is
//! untrusted — a model can be talked into writing `<img onerror=…>`.
//!
//! The class is registered as `tao-trajectory` in `elements.js`, not here, so an embedder can
//! register it under another name or subclass it first.

import { t, stepLabel } from "./i18n.js";

/**
 * Makes an element. `text` goes in with `textContent`: this is the only way text reaches the
 * trajectory view, so untrusted text can never become markup.
 */
function el(tag, attrs = {}, text) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value !== undefined && value !== null) node.setAttribute(name, value);
  }
  if (text !== undefined && text !== null) node.textContent = String(text);
  return node;
}

/** An action input as display text: strings as they are, JSON values pretty-printed. */
function formatInput(input) {
  if (input === undefined || input === null) return "";
  if (typeof input === "string") return input;
  try {
    return JSON.stringify(input, null, 2);
  } catch {
    return String(input);
  }
}

/** Milliseconds as "12 ms" or "1.4 s". */
export function formatMs(ms) {
  if (typeof ms !== "number" || !Number.isFinite(ms)) return "";
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(ms < 10000 ? 2 : 1)} s`;
}

export class TaoTrajectory extends HTMLElement {
  /** The step blocks of the live view, by step index. */
  #steps = new Map();
  /** Per step, the live raw-text node that token deltas are appended to (linear time). */
  #raw = new Map();
  /** Per step, the element holding the current reply's raw text (live or folded); cards go before it. */
  #rawBox = new Map();
  /** Approval requests waiting for the reader, by step index. */
  #pending = new Map();
  /** The step being run: where an approval request goes. */
  #lastStep = 1;

  connectedCallback() {
    if (!this.hasChildNodes()) this.showEmpty();
  }

  /** The welcome text shown before anything has run. */
  showEmpty() {
    this.#reset();
    const box = el("div", { class: "empty", "data-kind": "empty" });
    box.append(el("p", { class: "empty-title" }, t("empty.title")));
    box.append(el("p", { class: "empty-body" }, t("empty.body")));
    box.append(legend());
    this.append(box);
  }

  /** Starts a live view for a new run of `task`. */
  begin(task, meta = {}) {
    this.#reset();
    this.append(taskCard(task, meta));
  }

  /** Takes one event from `agent.run(…, { onEvent })` and updates the live view. */
  handleEvent(ev) {
    if (!ev || typeof ev !== "object") return;
    switch (ev.type) {
      case "step":
        this.#lastStep = ev.index;
        this.#step(ev.index);
        break;
      case "call":
        // Asked again within the step: fold the previous reply where it is; the next token
        // starts a new live box.
        if (ev.n > 1) {
          this.#endRaw(ev.index);
          this.#rawBox.delete(ev.index);
        }
        break;
      case "token":
        this.#token(ev.index, ev.text);
        break;
      case "thought":
        this.#insert(ev.index, thoughtCard(ev.text));
        break;
      case "action":
        this.#endRaw(ev.index);
        this.#insert(ev.index, actionCard(ev.tool, ev.input));
        break;
      case "observation":
        this.#endRaw(ev.index);
        this.#insert(ev.index, observationCard(ev.text, ev.fuel));
        break;
      case "approval":
        this.#pending.get(ev.index)?.remove();
        this.#pending.delete(ev.index);
        this.#insert(ev.index, approvalCard(ev.tool, ev.approved));
        break;
      case "repair": {
        // The reply that could not be read goes inside its repair card, as in `render()`.
        const card = repairCard(ev.why, ev.message);
        const raw = this.#endRaw(ev.index);
        this.#insert(ev.index, card);
        if (raw) {
          card.append(raw);
          this.#rawBox.delete(ev.index);
        }
        break;
      }
      case "note":
        this.#insert(ev.index, noteCard(ev.text));
        break;
      case "switch":
        this.#insert(ev.index, switchCard(ev.from, ev.to, ev.why));
        break;
      case "answer":
        this.#endRaw(ev.index);
        this.#insert(ev.index, answerCard(ev.text));
        break;
      case "stopped":
        for (const index of this.#raw.keys()) this.#endRaw(index);
        if (ev.reason !== "answer") this.append(stopCard(ev.reason, ev.message));
        break;
    }
    this.dispatchEvent(new CustomEvent("tao:trajectory-event", { bubbles: true, detail: ev }));
  }

  /**
   * Asks the reader to approve a tool call (the `approve` option of `agent.run`): a card with
   * the call and two buttons in the step being run. Resolves true or false; `signal` aborting
   * (Stop) denies. The `approval` event that follows replaces the card with the decision.
   */
  askApproval(request, signal) {
    const index = this.#lastStep;
    const box = card("approval", t("card.approval"));
    box.append(el("p", { class: "card-text" }, t("approval.ask").replace("{tool}", request.tool ?? "")));
    // A tool with one text field (run_js's code) shows that text as written, newlines and all.
    const fields = request.input && typeof request.input === "object" ? Object.values(request.input) : [];
    const shown = fields.length === 1 && typeof fields[0] === "string" ? fields[0] : formatInput(request.input);
    box.append(el("pre", { class: "input" }, shown));
    const buttons = el("p", { class: "approval-buttons" });
    const yes = el("button", { type: "button", class: "primary", "data-approve": "yes" }, t("approval.approve"));
    const no = el("button", { type: "button", "data-approve": "no" }, t("approval.deny"));
    buttons.append(yes, no);
    box.append(buttons);
    this.#pending.set(index, box);
    this.#insert(index, box);
    return new Promise((resolve) => {
      const decide = (answer) => {
        yes.disabled = no.disabled = true;
        resolve(answer);
      };
      yes.addEventListener("click", () => decide(true), { once: true });
      no.addEventListener("click", () => decide(false), { once: true });
      signal?.addEventListener("abort", () => decide(false), { once: true });
      yes.focus({ preventScroll: true });
    });
  }

  /** Draws a whole trajectory (the result of a run, or an imported file). */
  render(traj) {
    // The page marks this element `role="log"`, a live region: screen readers read each card as
    // a run adds it. A redraw is not news (the run was just read card by card; an import was
    // just chosen), so it is drawn with the region silenced for a couple of frames.
    this.setAttribute("aria-live", "off");
    requestAnimationFrame(() => requestAnimationFrame(() => this.removeAttribute("aria-live")));
    this.#reset();
    this.append(taskCard(traj.task, { model: traj.model, format: traj.react_format, lang: traj.lang }));
    let answered = false;
    for (const step of traj.steps ?? []) {
      this.append(stepBlock(step));
      if (step.answer !== null && step.answer !== undefined) answered = true;
    }
    // A final answer that no step carries (should not happen, but never hide an answer).
    if (!answered && traj.answer !== null && traj.answer !== undefined) this.append(answerCard(traj.answer));
    const stop = traj.stop ?? {};
    if (stop.reason && stop.reason !== "answer") this.append(stopCard(stop.reason, stop.message));
    this.dispatchEvent(new CustomEvent("tao:rendered", { bubbles: true, detail: { steps: (traj.steps ?? []).length } }));
  }

  #reset() {
    this.#steps.clear();
    this.#raw.clear();
    this.#rawBox.clear();
    this.#pending.clear();
    this.replaceChildren();
  }

  #step(index) {
    let block = this.#steps.get(index);
    if (!block) {
      block = stepShell(index);
      this.#steps.set(index, block);
      this.append(block);
    }
    return block;
  }

  /** Appends a streamed delta to the step's live raw text, creating it on the first token. */
  #token(index, text) {
    let node = this.#raw.get(index);
    if (!node) {
      // Hidden from screen readers: inside the live log, every delta would be read out on its
      // own. They hear the cards parsed from it instead.
      const live = el("div", { class: "raw-live", "data-kind": "raw", "aria-hidden": "true" });
      live.append(el("span", { class: "raw-label" }, t("card.streaming")));
      const pre = el("pre", { class: "raw-text" });
      node = document.createTextNode("");
      pre.append(node);
      live.append(pre);
      this.#body(index).append(live);
      this.#raw.set(index, node);
      this.#rawBox.set(index, live);
    }
    node.appendData(String(text ?? ""));
  }

  /** The model's reply for this step is complete: fold the live raw text away (and return it). */
  #endRaw(index) {
    const node = this.#raw.get(index);
    if (!node) return null;
    this.#raw.delete(index);
    const live = node.parentNode.parentNode;
    const folded = rawDetails(node.data);
    live.replaceWith(folded);
    this.#rawBox.set(index, folded);
    return folded;
  }

  /** Inserts a card before the raw text (live or folded), which stays last in its step. */
  #insert(index, card) {
    const body = this.#body(index);
    const raw = this.#rawBox.get(index);
    body.insertBefore(card, raw?.parentNode === body ? raw : null);
  }

  #body(index) {
    return this.#step(index).querySelector(".step-body");
  }
}

// ----- the cards -------------------------------------------------------------------------------

function card(kind, label) {
  const box = el("article", { class: `card card-${kind}`, "data-kind": kind });
  box.append(el("header", { class: "card-label" }, label));
  return box;
}

function taskCard(task, meta = {}) {
  const box = card("task", t("card.task"));
  box.append(el("p", { class: "card-text task-text" }, task ?? ""));
  const bits = [
    ["meta.model", modelName(meta.model)],
    ["meta.format", meta.format],
    ["meta.lang", meta.lang && words("lang." + meta.lang, meta.lang)],
  ].filter(([, v]) => v);
  if (bits.length) {
    const dl = el("p", { class: "meta" });
    for (const [key, value] of bits) {
      const chip = el("span", { class: "chip" });
      chip.append(el("span", { class: "chip-key" }, t(key)), el("span", { class: "chip-value" }, value));
      dl.append(chip);
    }
    box.append(dl);
  }
  return box;
}

/** The page's words for `key`, or `fallback` where it has none (a name it does not know). */
function words(key, fallback) {
  const text = t(key);
  return text === key ? fallback : text;
}

/** A trajectory's model as a reader says it: the offline model's `scripted:<scenario>` is "scripted (offline)". */
function modelName(model) {
  return typeof model === "string" && model.startsWith("scripted:") ? t("meta.scripted") : model;
}

function thoughtCard(text) {
  const box = card("thought", t("card.thought"));
  box.append(el("p", { class: "card-text" }, text ?? ""));
  return box;
}

function actionCard(tool, input) {
  const box = card("action", t("card.action"));
  const line = el("p", { class: "action-line" });
  line.append(el("code", { class: "tool", "data-tool": tool ?? "" }, tool ?? ""));
  box.append(line);
  const shown = formatInput(input);
  const isJson = input !== null && typeof input === "object";
  box.append(el("pre", { class: isJson ? "input input-json" : "input" }, shown));
  return box;
}

function observationCard(text, fuel) {
  const box = card("observation", t("card.observation"));
  box.append(el("pre", { class: "card-pre" }, text ?? ""));
  if (typeof fuel === "number") {
    box.append(el("p", { class: "fuel", "data-fuel": String(fuel) }, `${t("card.fuel")} ${fuel.toLocaleString("en-US")}`));
  }
  return box;
}

/** The user's decision on a call that needed approval. */
function approvalCard(tool, approved) {
  const box = card("approval", t("card.approval"));
  box.setAttribute("data-approved", String(Boolean(approved)));
  const text = (approved ? t("approval.approved") : t("approval.denied")).replace("{tool}", tool ?? "");
  box.append(el("p", { class: "card-text" }, text));
  return box;
}

function answerCard(text) {
  const box = card("answer", t("card.answer"));
  box.append(el("p", { class: "card-text answer-text" }, text ?? ""));
  return box;
}

function repairCard(why, message, label = t("card.repair")) {
  const box = card("repair", label);
  if (why) {
    const w = el("p", { class: "why" });
    // The reason in words; its name (`no_action`, …) stays in the data for tests and exports.
    w.append(el("span", { class: "why-key" }, t("card.why")), el("span", { class: "why-text", "data-why": why }, words("why." + why, why)));
    box.append(w);
  }
  box.append(el("pre", { class: "card-pre" }, message ?? ""));
  return box;
}

/** `auto` fell back from native tool calling to a text format: a visible step of the run. */
function switchCard(from, to, why) {
  const box = card("switch", `${t("card.switch")} ${from} → ${to}`);
  box.append(el("p", { class: "card-text" }, why ?? ""));
  return box;
}

function noteCard(text) {
  return el("p", { class: "card-note", "data-kind": "note" }, text ?? "");
}

function stopCard(reason, message) {
  const box = card("stop", `${t("card.stop")} · ${t("reason." + reason)}`);
  box.setAttribute("data-reason", reason ?? "");
  if (message) box.append(el("p", { class: "card-text" }, message));
  return box;
}

function rawDetails(raw) {
  const d = el("details", { class: "raw", "data-kind": "raw" });
  d.append(el("summary", {}, t("card.raw")));
  d.append(el("pre", { class: "raw-text" }, raw ?? ""));
  return d;
}

/** A step's frame: number, timing line, and a body that the cards go into. */
function stepShell(index, timing) {
  const block = el("section", { class: "step", "data-step": String(index) });
  const head = el("header", { class: "step-head" });
  head.append(el("span", { class: "step-num", "aria-hidden": "true" }, String(index)));
  head.append(el("h3", { class: "step-title" }, stepLabel(index)));
  if (timing) head.append(el("span", { class: "step-timing" }, timing));
  block.append(head);
  block.append(el("div", { class: "step-body" }));
  return block;
}

function timingText(step) {
  const parts = [];
  const calls = step.calls ?? [];
  const modelMs = calls.reduce((sum, c) => sum + (c.ms ?? 0), 0);
  if (calls.length) parts.push(`${t("timing.model")} ${formatMs(modelMs)}`);
  const first = calls.find((c) => typeof c.first_token_ms === "number");
  if (first) parts.push(`${t("timing.firstToken")} ${formatMs(first.first_token_ms)}`);
  if (typeof step.tool_ms === "number" && step.action) parts.push(`${t("timing.tool")} ${formatMs(step.tool_ms)}`);
  const tokens = calls.reduce((sum, c) => sum + (c.usage ? (c.usage.prompt_tokens ?? 0) + (c.usage.completion_tokens ?? 0) : 0), 0);
  if (tokens) parts.push(`${tokens} ${t("usage.tokens")}`);
  return parts.join(" · ");
}

/** One step of a finished trajectory, in reading order. */
function stepBlock(step) {
  const block = stepShell(step.index, timingText(step));
  const body = block.querySelector(".step-body");
  // Replies the model had to redo inside this step come first, in the order they happened.
  if (step.switch) body.append(switchCard(step.switch.from, step.switch.to, step.switch.why));
  const calls = step.calls ?? [];
  for (const call of calls) {
    if (!call.retried) continue;
    const c = repairCard(call.retried.why, call.retried.message, t("card.retry"));
    c.append(rawDetails(call.raw));
    body.append(c);
  }
  if (step.thought) body.append(thoughtCard(step.thought));
  if (step.action) body.append(actionCard(step.action.tool, step.action.input));
  if (typeof step.approved === "boolean") body.append(approvalCard(step.action?.tool, step.approved));
  const hasAnswer = step.answer !== null && step.answer !== undefined;
  if (hasAnswer) body.append(answerCard(step.answer));
  if (step.repair) body.append(repairCard(step.repair.why, step.repair.message));
  const obs = step.observation;
  if (obs !== null && obs !== undefined && !(step.repair && obs === step.repair.message)) {
    body.append(observationCard(obs, step.fuel));
  }
  for (const note of step.notes ?? []) body.append(noteCard(note));
  const raw = calls.length ? calls[calls.length - 1].raw : "";
  if (raw) body.append(rawDetails(raw));
  return block;
}

/** The colour key shown in the empty state: what each card means. */
function legend() {
  const list = el("ul", { class: "legend" });
  for (const kind of ["thought", "action", "observation", "answer", "repair"]) {
    const item = el("li", { class: `legend-item legend-${kind}` });
    const label = kind === "repair" ? t("legend.repair") : t("card." + kind);
    item.append(el("span", { class: "legend-dot", "aria-hidden": "true" }), el("span", {}, label));
    list.append(item);
  }
  return list;
}

//! `<tao-trajectory>`: draws a ReAct trajectory as one block per step, with a card for each
//! Thought, Action, Observation, Answer, bad call (repair) and note, and the model's reasoning
//! folded at the top of its step. A long run's memos (summaries, reflections) are cards of their
//! own between the steps they were written after. A reply that made several tool calls at once
//! (native tool calling) shows each call's Action and then its Observation, in the model's order.
//!
//! It has two inputs and one rule. While a run streams, `handleEvent(ev)` takes the agent's
//! events (`step`, `token`, `thought`, …) and shows the model's raw words live, then the parsed
//! cards as they become known. When the run resolves, `render(trajectory)` throws that view
//! away and draws the returned trajectory: the trajectory is the single source of truth, and
//! the very same function draws an imported file. The rule: every piece of model or tool text
//! reaches the page through `textContent` (see `el()` below), never as HTML, because it is
//! untrusted — a model can be talked into writing `<img onerror=…>`. A chart a tool returned
//! with its observation (`picture`) is drawn below the observation's text by `chart.js` (loaded
//! with the first chart), as SVG built from its numbers, by the same rule.
//!
//! In the finished view, each Thought, Action and Observation card has an Edit button: the card
//! becomes a text box with "Fork from here", which emits a bubbling `tao:fork` event
//! (`{index, edit: {kind, …}}`) for the page's `fork.js`. The live view has no Edit buttons: a
//! step is only edited once it is part of a trajectory.
//!
//! The class is registered as `tao-trajectory` in `elements.js`, not here, so an embedder can
//! register it under another name or subclass it first.

import { t, stepLabel } from "./i18n.js";

/**
 * Makes an element. `text` goes in with `textContent`: this is the only way text reaches the
 * trajectory view, so untrusted text can never become markup.
 */
export function el(tag, attrs = {}, text) {
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

/** HTMLElement, or a plain class where there is no DOM (Node): importing the package there works. */
const ElementBase = globalThis.HTMLElement ?? class {};

export class TaoTrajectory extends ElementBase {
  /** The step blocks of the live view, by step index. */
  #steps = new Map();
  /** Per step, the live raw-text node that token deltas are appended to (linear time). */
  #raw = new Map();
  /** Per step, the element holding the current reply's raw text (live or folded); cards go before it. */
  #rawBox = new Map();
  /** Per step, the live reasoning text node that `reasoning` deltas are appended to. */
  #reasoning = new Map();
  /** Approval requests waiting for the reader, by step index. */
  #pending = new Map();
  /** The step being run: where an approval request goes. */
  #lastStep = 1;
  /** The trajectory drawn last by `render` (what an edit forks from). */
  #trajectory = null;

  /** The trajectory this view drew last, or null (a live view not yet rendered). */
  get trajectory() {
    return this.#trajectory;
  }

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

  /**
   * Starts a live view for a new run of `task`. While a run streams into the view it carries
   * `data-live` (not `aria-busy`: that would hold a screen reader's news back until the end).
   */
  begin(task, meta = {}) {
    this.#reset();
    this.append(taskCard(task, meta));
    this.toggleAttribute("data-live", true);
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
          this.#reasoning.delete(ev.index);
        }
        break;
      case "reasoning":
        this.#think(ev.index, ev.text);
        break;
      case "token":
        this.#token(ev.index, ev.text);
        break;
      case "thought":
        this.#insert(ev.index, thoughtCard(ev.text));
        break;
      case "action":
        this.#endRaw(ev.index);
        this.#insertCall(ev.index, ev.call, actionCard(ev.tool, ev.input));
        break;
      case "observation":
        this.#endRaw(ev.index);
        this.#insertCall(ev.index, ev.call, observationCard(ev.text, ev.fuel, ev.picture));
        break;
      case "approval":
        this.#pending.get(ev.index)?.remove();
        this.#pending.delete(ev.index);
        this.#insertCall(ev.index, ev.call, approvalCard(ev.tool, ev.approved));
        break;
      case "repair": {
        // The reply that could not be read goes inside its repair card, as in `render()` (a
        // repair of a later call of the reply is about its input only: the reply was read).
        const card = repairCard(ev.why, ev.message);
        const raw = ev.call ? null : this.#endRaw(ev.index);
        this.#insertCall(ev.index, ev.call, card);
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
      case "summary":
      case "reflection":
        // Live, who wrote it is all that is known of its model call (`call` comes with the redraw).
        this.#memo({ kind: ev.type, after: ev.after, covers: ev.covers, text: ev.text, call: ev.by_model ? {} : null });
        break;
      case "stopped":
        for (const index of this.#raw.keys()) this.#endRaw(index);
        if (ev.reason !== "answer") this.append(stopCard(ev.reason, ev.message));
        this.removeAttribute("data-live");
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

  /**
   * Asks the reader to play the model (the "You" provider): a card in the step being run with
   * the prompt the model would receive and a box for the reply. Resolves with the reply text
   * when Send is pressed (or Ctrl+Enter); `signal` aborting (Stop) rejects.
   */
  askReply(messages, signal) {
    const index = this.#lastStep;
    const box = card("human", t("human.title"));
    box.append(el("p", { class: "card-text" }, t("human.hint")));
    // What is new since the last turn comes first; the whole prompt folds open below it.
    const list = Array.from(messages ?? []);
    const lastTurn = list.map((m) => m.role).lastIndexOf("assistant");
    const shown = lastTurn >= 0 ? list.slice(lastTurn + 1) : list.slice(-1);
    for (const message of shown) box.append(promptMessage(message));
    const all = el("details", { class: "human-prompt" });
    all.append(el("summary", {}, t("human.prompt")));
    for (const message of list) all.append(promptMessage(message));
    box.append(all);
    const id = `reply-${index}-${Date.now()}`;
    box.append(el("label", { for: id, class: "human-label" }, t("human.reply")));
    const text = el("textarea", { id, rows: "5", class: "human-reply", spellcheck: "false", "data-reply": "" });
    const send = el("button", { type: "button", class: "primary", "data-send": "" }, t("human.send"));
    box.append(text, el("p", { class: "approval-buttons" }));
    box.lastChild.append(send);
    this.#insert(index, box);
    text.focus({ preventScroll: false });
    return new Promise((resolve, reject) => {
      const done = () => {
        text.readOnly = send.disabled = true;
        box.remove();
        resolve(text.value);
      };
      send.addEventListener("click", done, { once: true });
      text.addEventListener("keydown", (e) => {
        if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) {
          e.preventDefault();
          send.click();
        }
      });
      signal?.addEventListener("abort", () => {
        box.remove();
        reject(new Error("stopped"));
      }, { once: true });
    });
  }

  /**
   * Says where a paused run stands and what the next Step does: `{kind: "model", index,
   * messages}` (before the model call: the prompt about to be sent) or `{kind: "tool", index,
   * tool, input}` (before the tool call).
   */
  showPause(pause) {
    this.hidePause();
    const box = card("pause", t(pause.kind === "tool" ? "paused.tool" : "paused.model").replace("{n}", String(pause.index)));
    box.setAttribute("data-pause", pause.kind);
    if (pause.kind === "tool") {
      const line = el("p", { class: "action-line" });
      line.append(el("code", { class: "tool" }, pause.tool ?? ""));
      box.append(line, el("pre", { class: "input" }, formatInput(pause.input)));
    } else {
      const list = Array.from(pause.messages ?? []);
      const lastTurn = list.map((m) => m.role).lastIndexOf("assistant");
      // The new part of the prompt is shown; the whole of it folds open.
      const fresh = lastTurn >= 0 ? list.slice(lastTurn) : list;
      for (const message of fresh) box.append(promptMessage(message));
      if (fresh.length < list.length) {
        const all = el("details", { class: "human-prompt" });
        all.append(el("summary", {}, t("paused.whole")));
        for (const message of list) all.append(promptMessage(message));
        box.append(all);
      }
    }
    if (pause.kind === "model") {
      const line = el("p");
      line.append(promptButton(pause.index, true));
      box.append(line);
    }
    box.append(el("p", { class: "hint" }, t("paused.hint")));
    this.append(box);
  }

  /** Removes the pause card (the run goes on). */
  hidePause() {
    for (const node of this.querySelectorAll('[data-kind="pause"]')) node.remove();
  }

  /**
   * Draws a whole trajectory (the result of a run, or an imported file), with Edit buttons on
   * its cards; `{ live: true }` draws it without them, as the start of a live view.
   */
  render(traj, { live = false } = {}) {
    // The page marks this element `role="log"`, a live region: screen readers read each card as
    // a run adds it. A redraw is not news (the run was just read card by card; an import was
    // just chosen), so it is drawn with the region silenced for a couple of frames.
    this.setAttribute("aria-live", "off");
    requestAnimationFrame(() => requestAnimationFrame(() => this.removeAttribute("aria-live")));
    this.#reset();
    this.#trajectory = traj;
    this.append(taskCard(traj.task, { model: traj.model, format: traj.react_format, lang: traj.lang }));
    let answered = false;
    const steps = traj.steps ?? [];
    for (const step of steps) {
      // The last step of a run that failed, was refused or cut may hold only a partial reply.
      const block = stepBlock(step, !live, step === steps.at(-1) ? traj.stop : null);
      // Kept by index, so a run that goes on from here adds to its steps (a paused tool call).
      this.#steps.set(step.index, block);
      this.#lastStep = step.index;
      this.append(block);
      for (const memo of traj.memos ?? []) if (memo.after === step.index) this.append(memoCard(memo));
      if (step.answer !== null && step.answer !== undefined) answered = true;
    }
    // A final answer that no step carries (should not happen, but never hide an answer).
    if (!answered && traj.answer !== null && traj.answer !== undefined) this.append(answerCard(traj.answer));
    const stop = traj.stop ?? {};
    if (stop.reason && stop.reason !== "answer") this.append(stopCard(stop.reason, stop.message));
    this.dispatchEvent(new CustomEvent("tao:rendered", { bubbles: true, detail: { steps: (traj.steps ?? []).length } }));
  }

  /** Enables the Prompt buttons of steps 1…`count` of the live view (a paused run's trajectory). */
  enablePrompts(count) {
    for (const button of this.querySelectorAll("button[data-prompt]")) setReady(button, Number(button.dataset.prompt) <= count);
  }

  /**
   * Starts a live view from a trajectory that a run goes on from (a fork): its steps so far,
   * then whatever `handleEvent` streams, into those steps (an edited action's new observation)
   * or after them.
   */
  continueFrom(traj) {
    this.render(traj, { live: true });
    for (const block of this.querySelectorAll(":scope > [data-step]")) {
      const index = Number(block.dataset.step);
      this.#steps.set(index, block);
      const raw = block.querySelector(":scope > .step-body > details.raw");
      if (raw) this.#rawBox.set(index, raw);
    }
    this.#lastStep = traj.steps?.at(-1)?.index ?? 1;
    this.toggleAttribute("data-live", true);
  }

  #reset() {
    this.removeAttribute("data-live");
    this.#trajectory = null;
    this.#steps.clear();
    this.#raw.clear();
    this.#rawBox.clear();
    this.#reasoning.clear();
    this.#pending.clear();
    this.replaceChildren();
  }

  /** A memo written between steps: after the block of step `after` (and the memos already there). */
  #memo(memo) {
    let at = this.#steps.get(memo.after);
    while (at?.nextElementSibling?.matches(".card-memo")) at = at.nextElementSibling;
    if (at) at.after(memoCard(memo));
    else this.append(memoCard(memo));
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

  /** Appends a streamed piece of reasoning to the step's folded Reasoning, creating it at the first. */
  #think(index, text) {
    let node = this.#reasoning.get(index);
    if (!node) {
      const box = reasoningDetails("");
      node = document.createTextNode("");
      box.querySelector("pre").append(node);
      this.#insert(index, box);
      this.#reasoning.set(index, node);
    }
    node.appendData(String(text ?? ""));
  }

  /**
   * Inserts a card of tool call `call` (0 unless the reply made several): after the cards of that
   * call so far, else after those of the calls before it, so each Action is followed by its own
   * Observation however the tools' results arrive.
   */
  #insertCall(index, call = 0, card) {
    const body = this.#body(index);
    const before = [...body.querySelectorAll(":scope > [data-call]")].filter((n) => n.dataset.call <= call).at(-1);
    forCall(card, call);
    if (before) before.after(card);
    else this.#insert(index, card);
    numberCalls(body);
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
  if (typeof model === "string" && model.startsWith("scripted:")) return t("meta.scripted");
  // The "You" provider: the person at the page played the model (`js:human` in the file).
  if (model === "human" || model === "js:human") return t("meta.human");
  return model;
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
  // One text field that runs over several lines (run_js's code) reads as written, not as JSON.
  const fields = input !== null && typeof input === "object" && !Array.isArray(input) ? Object.entries(input) : [];
  if (fields.length === 1 && typeof fields[0][1] === "string" && fields[0][1].includes("\n")) {
    line.append(" ", el("span", { class: "input-name" }, fields[0][0]));
    box.append(el("pre", { class: "input input-text" }, fields[0][1]));
    return box;
  }
  const shown = formatInput(input);
  const isJson = input !== null && typeof input === "object";
  box.append(el("pre", { class: isJson ? "input input-json" : "input" }, shown));
  return box;
}

function observationCard(text, fuel, picture) {
  const box = card("observation", t("card.observation"));
  box.append(el("pre", { class: "card-pre" }, text ?? ""));
  if (picture && typeof picture === "object") box.append(chartBox(picture));
  if (typeof fuel === "number") {
    box.append(el("p", { class: "fuel", "data-fuel": String(fuel) }, `${t("card.fuel")} ${fuel.toLocaleString("en-US")}`));
  }
  return box;
}

/**
 * The chart a tool returned with its observation (`picture`), drawn from its numbers by
 * `chart.js`, which loads the first time a chart is shown.
 */
function chartBox(picture) {
  const figure = el("figure", { class: "chart", "data-chart": "" });
  import("./chart.js").then(
    (chart) => chart.drawChart(figure, picture),
    () => figure.append(el("p", { class: "card-note" }, t("chart.unavailable"))),
  );
  return figure;
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

/** One message of a prompt: its role, then its text (and the tool calls it carries). */
function promptMessage(message) {
  const box = el("div", { class: "said", "data-role": message.role ?? "" });
  box.append(el("span", { class: "said-role" }, message.role ?? ""));
  let text = message.content ?? "";
  for (const call of message.tool_calls ?? []) text += `${text ? "\n" : ""}→ ${call.name}(${formatInput(call.arguments)})`;
  // A long message scrolls inside its box, so the box takes the keyboard focus (to scroll it).
  box.append(el("pre", { class: "said-text", tabindex: "0" }, text));
  return box;
}

/**
 * A long run's memo, between two steps (see `src/agent/memory.rs`): a summary that the prompt
 * shows in place of steps 1 to `covers`, or a reflection. It says who wrote it: tao from the steps
 * (`call` null: the offline model cannot), or the model, whose raw reply folds open. The live
 * event does not say, so the live card leaves that line out until the run is redrawn.
 */
function memoCard(memo) {
  const box = card(memo.kind, t(`card.${memo.kind}`));
  box.classList.add("card-memo");
  const facts = [];
  if (memo.kind === "summary") facts.push(t(memo.covers === 1 ? "memo.covers.one" : "memo.covers").replace("{n}", String(memo.covers)));
  if (memo.call !== undefined) facts.push(t(memo.call ? "memo.byModel" : "memo.byTao"));
  if (facts.length) box.append(el("p", { class: "memo-facts", "data-covers": memo.covers || null }, facts.join(" · ")));
  box.append(el("p", { class: "card-text" }, memo.text ?? ""));
  if (memo.call?.raw) box.append(rawDetails(memo.call.raw));
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

/** The model's reasoning before its reply (reasoning models), folded: it can be long. */
function reasoningDetails(text, redacted = false) {
  const d = el("details", { class: "reasoning", "data-kind": "reasoning" });
  d.append(el("summary", {}, t("card.reasoning")));
  if (redacted && !text) d.append(el("p", { class: "card-note" }, t("card.reasoning.redacted")));
  else d.append(el("pre", { class: "reasoning-text" }, text));
  return d;
}

/**
 * What the model said before a run ended without a usable step (a refusal, a reply cut at the
 * token limit, a stream that failed): shown open, since it is all the step has.
 */
function partialCard(reason, raw) {
  const box = card("partial", t(`card.partial.${reason}`));
  box.append(el("pre", { class: "card-pre" }, raw));
  return box;
}

/** Marks a card as one of tool call `call`'s (its position in the reply; see `numberCalls`). */
function forCall(box, call) {
  box.dataset.call = String(call ?? 0);
  return box;
}

/** When a reply made several tool calls, labels each call's cards with its number ("call 2"). */
function numberCalls(body) {
  const boxes = [...body.querySelectorAll("[data-call]")];
  if (boxes.every((box) => box.dataset.call === "0")) return;
  for (const box of boxes) {
    const label = box.querySelector(":scope > .card-label");
    if (label && !label.querySelector(".card-call")) {
      label.append(el("span", { class: "card-call" }, ` · ${t("card.call")} ${Number(box.dataset.call) + 1}`));
    }
  }
}

function rawDetails(raw) {
  const d = el("details", { class: "raw", "data-kind": "raw" });
  d.append(el("summary", {}, t("card.raw")));
  d.append(el("pre", { class: "raw-text" }, raw ?? ""));
  return d;
}

/**
 * A step's frame: number, timing line, its Prompt button, and a body that the cards go into.
 * `ready`: the step is in a trajectory the page holds, so its prompt can be shown.
 */
function stepShell(index, timing, ready = false) {
  const block = el("section", { class: "step", "data-step": String(index) });
  const head = el("header", { class: "step-head" });
  head.append(el("span", { class: "step-num", "aria-hidden": "true" }, String(index)));
  head.append(el("h3", { class: "step-title" }, stepLabel(index)));
  if (timing) head.append(el("span", { class: "step-timing" }, timing));
  head.append(promptButton(index, ready));
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

/**
 * One step of a finished trajectory, in reading order (with Edit buttons when `editing`). `stop`:
 * how the run ended, when this is its last step.
 */
function stepBlock(step, editing = false, stop = null) {
  const block = stepShell(step.index, timingText(step), true);
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
  // The reasoning of the reply the step is made of (`redacted`: blocks the provider hid, kept
  // only to be sent back to it).
  const thinking = calls.at(-1)?.thinking;
  const hidden = thinking?.redacted?.length > 0;
  if (thinking?.text || hidden) body.append(reasoningDetails(thinking.text, hidden));
  // A repaired reply is shown to the model as it was written (see `src/prompt.rs`), so an
  // edited thought there would change nothing the model reads: it gets no Edit button.
  const edit = (box, kind) => (editing && !(kind === "thought" && step.repair) ? editable(box, step, kind) : box);
  if (step.thought) body.append(edit(thoughtCard(step.thought), "thought"));
  const hasAnswer = step.answer !== null && step.answer !== undefined;
  // Each tool call of the reply: the step's own (call 0, which a fork can edit), then the calls
  // made beside it. Those have no Edit button: a fork edits a step through its one `action`.
  const toolCalls = [{ ...step, own: true }, ...(step.parallel ?? [])];
  toolCalls.forEach((c, k) => {
    const add = (box, kind) => body.append(c.own && kind ? edit(forCall(box, k), kind) : forCall(box, k));
    if (c.action) add(actionCard(c.action.tool, c.action.input), "action");
    if (typeof c.approved === "boolean") add(approvalCard(c.action?.tool, c.approved));
    if (c.own && hasAnswer) body.append(answerCard(step.answer));
    if (c.repair) add(repairCard(c.repair.why, c.repair.message));
    const obs = c.observation;
    if (obs !== null && obs !== undefined && !(c.repair && obs === c.repair.message)) add(observationCard(obs, c.fuel, c.picture), "observation");
  });
  numberCalls(body);
  // The note a failed step ends with says what the stop card below it says: drawn once.
  const said = stop?.message && `interrupted: ${stop.message}`;
  for (const note of step.notes ?? []) if (note !== said) body.append(noteCard(note));
  const raw = calls.length ? calls[calls.length - 1].raw : "";
  const unfinished = step.observation == null && !hasAnswer && ["refused", "truncated", "error"].includes(stop?.reason);
  if (raw && unfinished) body.append(partialCard(stop.reason, raw));
  else if (raw) body.append(rawDetails(raw));
  return block;
}

/**
 * The step's Prompt button: asks the page (`tao:prompt`) to show the exact request the step was
 * sent. While a run streams there is no trajectory to render it from yet, so it waits, saying why.
 */
function promptButton(index, ready) {
  const attrs = { type: "button", class: "prompt-button", "data-prompt": String(index), "aria-haspopup": "dialog" };
  const button = el("button", attrs, t("prompt.button"));
  setReady(button, ready);
  button.addEventListener("click", () => {
    button.dispatchEvent(new CustomEvent("tao:prompt", { bubbles: true, detail: { index } }));
  });
  return button;
}

function setReady(button, ready) {
  button.disabled = !ready;
  button.title = ready ? t("prompt.button.title") : t("prompt.button.wait");
}

// ----- edit and fork ---------------------------------------------------------------------------

let editIds = 0;

/**
 * A finished card with an Edit button beside it. Edit turns the card's text into a text box
 * (two for an action: its tool and its input) with "Fork from here" and "Cancel". The button
 * sits next to the card rather than in it, so the card's text stays exactly the step's text.
 */
function editable(box, step, kind) {
  const frame = el("div", { class: "editable", "data-edit": kind });
  // The button is named "Edit"; which card it edits is its description ("Step 2: Observation").
  const about = el("span", { id: `tao-edit-${++editIds}`, hidden: "" }, `${stepLabel(step.index)}: ${t("card." + kind)}`);
  const button = el("button", { type: "button", class: "edit-button", "aria-describedby": about.id }, t("edit.edit"));
  button.addEventListener("click", () => openEditor(box, button, step, kind));
  frame.append(box, button, about);
  return frame;
}

/** The card's text as text boxes, until Fork from here (accepted) or Cancel. */
function openEditor(box, button, step, kind) {
  const shown = [...box.children].filter((child) => !child.matches(".card-label"));
  const form = el("form", { class: "edit-form", "data-edit-form": kind });
  const fields = [];
  const field = (name, value, { multiline = true, label } = {}) => {
    const id = `tao-edit-${++editIds}`;
    const wrap = el("div", { class: "edit-field" });
    wrap.append(el("label", { for: id }, label ?? t(`edit.label.${name}`)));
    const input = multiline
      ? el("textarea", { id, name, rows: String(rowsFor(value)), spellcheck: kind === "thought" ? "true" : "false" })
      : el("input", { id, name, type: "text", spellcheck: "false", autocapitalize: "off" });
    input.value = value; // a value, never markup
    wrap.append(input);
    form.append(wrap);
    fields.push(input);
    return input;
  };
  let read;
  if (kind === "action") {
    const input = step.action.input;
    const asJson = input !== null && typeof input === "object";
    const tool = field("tool", step.action.tool ?? "", { multiline: false });
    const text = field("input", formatInput(input));
    read = () => {
      if (!asJson) return { kind, tool: tool.value.trim(), input: text.value };
      try {
        return { kind, tool: tool.value.trim(), input: JSON.parse(text.value) };
      } catch (e) {
        throw new Error(`${t("edit.badJson")} ${e.message}`);
      }
    };
  } else {
    const text = field(kind, kind === "thought" ? step.thought : step.observation);
    read = () => ({ kind, text: text.value });
  }
  const problem = el("p", { class: "edit-problem", role: "alert", hidden: "" });
  const buttons = el("p", { class: "edit-buttons" });
  const fork = el("button", { type: "submit", class: "primary" }, t("edit.fork"));
  const cancel = el("button", { type: "button" }, t("edit.cancel"));
  buttons.append(fork, cancel);
  form.append(problem, buttons);

  const close = () => {
    form.remove();
    for (const child of shown) child.hidden = false;
    button.hidden = false;
    button.focus();
  };
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    let edit;
    try {
      edit = read();
    } catch (err) {
      problem.textContent = err.message;
      problem.hidden = false;
      return;
    }
    // The page may refuse (a run is in flight) by cancelling the event: the edit stays open.
    const detail = { index: step.index, edit };
    if (box.dispatchEvent(new CustomEvent("tao:fork", { bubbles: true, cancelable: true, detail }))) close();
  });
  cancel.addEventListener("click", close);
  form.addEventListener("keydown", (e) => {
    if (e.key === "Escape") {
      e.preventDefault();
      close();
    } else if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) {
      e.preventDefault(); // Ctrl/⌘ + Enter forks, as it runs in the task box
      form.requestSubmit();
    }
  });

  for (const child of shown) child.hidden = true;
  button.hidden = true;
  box.append(form);
  fields[0].focus();
}

/** A text box tall enough for `text` (roughly), within reason. */
function rowsFor(text) {
  const lines = String(text ?? "").split("\n");
  const wrapped = lines.reduce((n, line) => n + Math.max(1, Math.ceil(line.length / 64)), 0);
  return Math.min(12, Math.max(2, wrapped));
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

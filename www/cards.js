//! The cards a trajectory is drawn with, and the one way text reaches them. A step is a block
//! (its number, a timing line, its Prompt button) holding a card for each Thought, Action,
//! Observation, Answer, bad call (repair) and note, with the model's reasoning and raw reply
//! folded; a long run's memos (summaries, reflections) are cards between the steps. The live view
//! (`live.js`), the redraw of a whole trajectory (`redraw.js`) and the studio's cards
//! (`studio-cards.js`) all draw with these.
//!
//! The rule: every piece of model or tool text reaches the page through `textContent` (`el()`),
//! never as HTML, because it is untrusted — a model can be talked into writing `<img onerror=…>`.
//! A chart a tool returned with its observation (`picture`) is drawn by `chart.js` (loaded with
//! the first chart) as SVG built from its numbers, and an answer's Markdown by `markdown.js`
//! (loaded when a run begins), by the same rule.

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
export function formatInput(input) {
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

/** A card: an article of `kind` ("thought", "action", …, also its `data-kind`) under `label`. */
/** A model call's speeds in words: "prompt 18 tok/s, reply 12 tok/s" (the prompt's when it read any). */
export function usageSpeed(usage) {
  const rate = (n) => String(Math.round(n * 10) / 10);
  const reply = t("usage.reply").replace("{n}", rate(usage.reply_per_second));
  return usage.prompt_per_second ? `${t("usage.prompt").replace("{n}", rate(usage.prompt_per_second))}, ${reply}` : reply;
}

export function card(kind, label) {
  const box = el("article", { class: `card card-${kind}`, "data-kind": kind });
  box.append(el("header", { class: "card-label" }, label));
  return box;
}

export function taskCard(task, meta = {}) {
  loadMarkdown(); // an answer may come soon: its renderer with it
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

/**
 * A model as a reader says it, from its name in a trajectory (`modelLabel` in drive.js): the
 * offline model's `scripted:<scenario>` is "scripted (offline)", You (`js:human`) "you"; the
 * others (`openai:gpt-4o-mini`) as they are.
 */
export function modelName(model) {
  if (typeof model !== "string") return model;
  if (/^scripted(:|$)/.test(model)) return t("meta.scripted");
  if (model === "js:chrome") return t("provider.chrome");
  // The model in the tab by its name, or its file's name (not the engine's name and the URL).
  if (model.startsWith("wllama:")) return t("meta.inTab").replace("{model}", model.slice(7).split("/").pop() || model.slice(7));
  return model === "js:human" || model === "human" ? t("meta.human") : model;
}

export function thoughtCard(text) {
  const box = card("thought", t("card.thought"));
  box.append(el("p", { class: "card-text" }, text ?? ""));
  return box;
}

export function actionCard(tool, input) {
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

export function observationCard(text, fuel, picture) {
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
export function approvalCard(tool, approved) {
  const box = card("approval", t("card.approval"));
  box.setAttribute("data-approved", String(Boolean(approved)));
  const text = (approved ? t("approval.approved") : t("approval.denied")).replace("{tool}", tool ?? "");
  box.append(el("p", { class: "card-text" }, text));
  return box;
}

/**
 * The answer, drawn from its Markdown (bold, lists, code, links: `markdown.js`). Until that
 * module is here (it is fetched when a run begins, off the first load) the answer shows as plain
 * text, and is drawn again when it comes.
 */
export function answerCard(text) {
  const box = card("answer", t("card.answer"));
  const draw = () => renderMarkdown(text ?? "", "card-text answer-text md");
  if (renderMarkdown) box.append(draw());
  else {
    const plain = el("p", { class: "card-text answer-text" }, text ?? "");
    box.append(plain);
    loadMarkdown().then(() => renderMarkdown && plain.replaceWith(draw()));
  }
  return box;
}

let renderMarkdown = null;
let markdownLoad = null;
/** Loads `markdown.js` once (a failed load is tried again next time; the answer stays plain text). */
function loadMarkdown() {
  markdownLoad ??= import("./markdown.js").then(
    (m) => (renderMarkdown = m.markdown),
    () => (markdownLoad = null),
  );
  return markdownLoad;
}

export function repairCard(why, message, label = t("card.repair")) {
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
export function switchCard(from, to, why) {
  const box = card("switch", `${t("card.switch")} ${from} → ${to}`);
  box.append(el("p", { class: "card-text" }, why ?? ""));
  return box;
}


/**
 * A long run's memo, between two steps (see `src/agent/memory.rs`): a summary that the prompt
 * shows in place of steps 1 to `covers`, or a reflection. It says who wrote it: tao from the steps
 * (`call` null: the offline model cannot), or the model, whose raw reply folds open. The live
 * event does not say, so the live card leaves that line out until the run is redrawn.
 */
export function memoCard(memo) {
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

export function noteCard(text) {
  return el("p", { class: "card-note", "data-kind": "note" }, text ?? "");
}

export function stopCard(reason, message) {
  const box = card("stop", `${t("card.stop")} · ${t("reason." + reason)}`);
  box.setAttribute("data-reason", reason ?? "");
  if (message) box.append(el("p", { class: "card-text" }, message));
  return box;
}

/** The model's reasoning before its reply (reasoning models), folded: it can be long. */
export function reasoningDetails(text, redacted = false) {
  const d = el("details", { class: "reasoning", "data-kind": "reasoning" });
  d.append(el("summary", {}, t("card.reasoning")));
  if (redacted && !text) d.append(el("p", { class: "card-note" }, t("card.reasoning.redacted")));
  else d.append(el("pre", { class: "reasoning-text" }, text));
  return d;
}

/**
 * What the model said before a run ended without a usable step (a refusal, a reply cut at the
 * token limit, a stream that failed or was stopped): shown open, since it is all the step has.
 */
export function partialCard(reason, raw) {
  const box = card("partial", t(`card.partial.${reason}`));
  box.append(el("pre", { class: "card-pre" }, raw));
  return box;
}

/** Marks a card as one of tool call `call`'s (its position in the reply; see `numberCalls`). */
export function forCall(box, call) {
  box.dataset.call = String(call ?? 0);
  return box;
}

/** When a reply made several tool calls, labels each call's cards with its number ("call 2"). */
export function numberCalls(body) {
  const boxes = [...body.querySelectorAll("[data-call]")];
  if (boxes.every((box) => box.dataset.call === "0")) return;
  for (const box of boxes) {
    const label = box.querySelector(":scope > .card-label");
    if (label && !label.querySelector(".card-call")) {
      label.append(el("span", { class: "card-call" }, ` · ${t("card.call")} ${Number(box.dataset.call) + 1}`));
    }
  }
}

export function rawDetails(raw) {
  const d = el("details", { class: "raw", "data-kind": "raw" });
  d.append(el("summary", {}, t("card.raw")));
  d.append(el("pre", { class: "raw-text" }, raw ?? ""));
  return d;
}

/**
 * A step's frame: number, timing line, its Prompt button, and a body that the cards go into.
 * `ready`: the step is in a trajectory the page holds, so its prompt can be shown.
 */
export function stepShell(index, timing, ready = false) {
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

/**
 * The step's Prompt button: asks the page (`tao:prompt`) to show the exact request the step was
 * sent. While a run streams there is no trajectory to render it from yet, so it waits, saying why.
 */
export function promptButton(index, ready) {
  const attrs = { type: "button", class: "prompt-button", "data-prompt": String(index), "aria-haspopup": "dialog" };
  const button = el("button", attrs, t("prompt.button"));
  setReady(button, ready);
  button.addEventListener("click", () => {
    button.dispatchEvent(new CustomEvent("tao:prompt", { bubbles: true, detail: { index } }));
  });
  return button;
}

export function setReady(button, ready) {
  button.disabled = !ready;
  button.title = ready ? t("prompt.button.title") : t("prompt.button.wait");
}

/** The colour key shown in the empty state: what each card means. */
export function legend() {
  const list = el("ul", { class: "legend" });
  for (const kind of ["thought", "action", "observation", "answer", "repair"]) {
    const item = el("li", { class: `legend-item legend-${kind}` });
    const label = kind === "repair" ? t("legend.repair") : t("card." + kind);
    item.append(el("span", { class: "legend-dot", "aria-hidden": "true" }), el("span", {}, label));
    list.append(item);
  }
  return list;
}
